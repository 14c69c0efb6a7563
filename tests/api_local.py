"""Una API de Mensajes de mentira en 127.0.0.1, para hablarle con el SDK oficial de verdad.

Contesta a cada POST /v1/messages lo siguiente de su plan, con el JSON de la API de Mensajes, y
apunta el cuerpo de cada petición que recibe. Se usa con ANTHROPIC_BASE_URL=api.url.

Antes de contestar, mira la petición como la mira la API de verdad y, si la API la rechazaría, la
rechaza igual: 400 `invalid_request_error` con su mismo mensaje, sin gastar el plan. `rechazo(cuerpo)`
dice por qué; de dónde sale cada regla y cada mensaje está en docs/modelo-real.md.
"""

import functools
import http.server
import json
import re
import threading

from anthropic import types as tipos_del_sdk
from pydantic import TypeAdapter, ValidationError

_ID = re.compile(r"^[a-zA-Z0-9_-]+$")             # el patrón de la API para los id de tool_use
_NOMBRE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")    # y para los nombres de las herramientas


def mensaje(bloques, stop_reason=None, entrada=100, salida=20):
    """Lo que contesta la API con el turno `bloques`; `stop_reason` se deduce de los bloques si no se da."""
    if stop_reason is None:
        stop_reason = "tool_use" if any(b["type"] == "tool_use" for b in bloques) else "end_turn"
    return 200, {"id": "msg_local", "type": "message", "role": "assistant", "model": "claude-local",
                 "content": bloques, "stop_reason": stop_reason, "stop_sequence": None,
                 "usage": {"input_tokens": entrada, "output_tokens": salida}}


def fallo(codigo, tipo, texto):
    """Un error de la API, con el código HTTP y el cuerpo con que los manda ella."""
    return codigo, {"type": "error", "error": {"type": tipo, "message": texto}}


def rechazo(cuerpo):
    """El mensaje del 400 con que la API de verdad rechaza la petición `cuerpo`; None si la acepta."""
    for campo in ("model", "max_tokens", "messages"):
        if campo not in cuerpo:
            return "%s: Field required" % campo
    for i, herramienta in enumerate(cuerpo.get("tools") or []):
        if not _NOMBRE.match(str(herramienta.get("name", ""))):
            return "tools.%d.custom.name: String should match pattern '%s'" % (i, _NOMBRE.pattern)
        motivo = _forma("tools.%d.custom" % i, herramienta, "tool")
        if motivo:
            return motivo
    mensajes = cuerpo["messages"]
    if not mensajes:
        return "messages: at least one message is required"
    if mensajes[0].get("role") != "user":
        return 'messages: first message must use the "user" role'
    for i, m in enumerate(mensajes):
        motivo = _mensaje_malo(i, m, ultimo=i == len(mensajes) - 1)
        if motivo:
            return motivo
    return _llamadas_sin_contestar(_turnos(mensajes))


def _mensaje_malo(i, m, ultimo):
    """Lo que tiene mal, por sí solo, el mensaje i: su rol, su contenido o uno de sus bloques."""
    if m.get("role") not in ("user", "assistant"):
        return "messages.%d.role: Input should be 'user' or 'assistant'" % i
    contenido = m.get("content")
    if contenido in ("", []) and not (ultimo and m["role"] == "assistant"):
        return "messages.%d: all messages must have non-empty content except for the optional final assistant message" % i
    if isinstance(contenido, str):
        return None
    if not isinstance(contenido, list):
        return "messages.%d.content: Input should be a valid list" % i
    for j, b in enumerate(contenido):
        motivo = _bloque_malo("messages.%d.content.%d" % (i, j), b)
        if motivo:
            return motivo
    return None


def _bloque_malo(donde, b):
    if not isinstance(b, dict):
        return "%s: Input should be a valid dictionary or object to extract fields from" % donde
    tipo = b.get("type")
    if tipo is None:
        return "%s.type: Field required" % donde
    if tipo == "text":
        if b.get("text") == "":
            return "messages: text content blocks must be non-empty"
        if isinstance(b.get("text"), str) and not b["text"].strip():
            return "messages: text content blocks must contain non-whitespace text"
    if tipo == "tool_use" and isinstance(b.get("id"), str) and not _ID.match(b["id"]):
        return "%s.tool_use.id: String should match pattern '%s'" % (donde, _ID.pattern)
    if tipo == "tool_result":
        if b.get("is_error") is True and b.get("content") in ("", [], None):
            return "%s.tool_result: content cannot be empty if `is_error` is true" % donde
        for k, dentro in enumerate(b.get("content") if isinstance(b.get("content"), list) else []):
            motivo = _bloque_malo("%s.tool_result.content.%d" % (donde, k), dentro)
            if motivo:
                return motivo
    return _forma(donde, b, tipo) if tipo in _TIPOS else None


def _forma(donde, valor, tipo):
    """Lo que no encaja con el tipo del propio SDK (un campo que falta o que sobra, un tipo equivocado), dicho
    como lo dice la API, que valida con pydantic: sin ser estricta con los tipos, pero sin campos de más."""
    clase = getattr(tipos_del_sdk, _TIPOS[tipo])
    if not isinstance(valor, dict):
        return "%s.%s: Input should be a valid dictionary or object to extract fields from" % (donde, tipo)
    sobran = [campo for campo in valor if campo not in clase.__annotations__]
    if sobran:
        return "%s.%s.%s: Extra inputs are not permitted" % (donde, tipo, sobran[0])
    try:
        _adaptador(clase).validate_python(valor)
    except ValidationError as e:
        primero = e.errors()[0]
        return ".".join([donde, tipo] + [str(p) for p in primero["loc"]]) + ": " + primero["msg"]
    return None


_TIPOS = {"text": "TextBlockParam", "tool_use": "ToolUseBlockParam", "tool_result": "ToolResultBlockParam",
          "tool": "ToolParam"}
_adaptador = functools.cache(TypeAdapter)  # construir uno cuesta; cada tipo, una vez


def _turnos(mensajes):
    """Los turnos de la conversación: la API junta en uno los mensajes seguidos del mismo rol.
    Cada turno es (rol, índice de su primer mensaje, [(índice del mensaje, índice del bloque, bloque)])."""
    turnos = []
    for i, m in enumerate(mensajes):
        bloques = [{"type": "text", "text": m["content"]}] if isinstance(m["content"], str) else m["content"]
        if turnos and turnos[-1][0] == m["role"]:
            turnos[-1][2].extend((i, j, b) for j, b in enumerate(bloques))
        else:
            turnos.append((m["role"], i, [(i, j, b) for j, b in enumerate(bloques)]))
    return turnos


def _llamadas_sin_contestar(turnos):
    """Cada tool_use, contestado por un tool_result con su id al principio del turno siguiente, y al revés."""
    vistos = set()
    for n, (rol, primero, bloques) in enumerate(turnos):
        if rol == "assistant":
            for i, j, b in bloques:
                if b["type"] == "tool_use":
                    if b["id"] in vistos:
                        return "messages.%d.content.%d: `tool_use` ids must be unique" % (i, j)
                    vistos.add(b["id"])
            continue
        anterior = turnos[n - 1][2] if n else []
        pedidas = [b["id"] for _, _, b in anterior if b["type"] == "tool_use"]
        contestadas = []
        for i, j, b in bloques:
            if b["type"] != "tool_result":
                continue
            if b["tool_use_id"] not in pedidas:
                return ("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each "
                        "`tool_result` block must have a corresponding `tool_use` block in the previous message."
                        % (i, j, b["tool_use_id"]))
            if b["tool_use_id"] in contestadas:
                return ("messages.%d.content.%d: each tool_use must have a single result. Found multiple "
                        "`tool_result` blocks with id: %s" % (i, j, b["tool_use_id"]))
            contestadas.append(b["tool_use_id"])
        motivo = _sin_resultado(turnos[n - 1] if n else None, bloques, primero)
        if motivo:
            return motivo
    if turnos[-1][0] == "assistant":
        return _sin_resultado(turnos[-1], [], None)
    return None


def _sin_resultado(turno_con_llamadas, bloques, primero):
    """Las llamadas del turno anterior que no tienen, al principio de `bloques`, un tool_result con contenido."""
    if turno_con_llamadas is None:
        return None
    _, _, anteriores = turno_con_llamadas
    pedidas = [(i, b["id"]) for i, _, b in anteriores if b["type"] == "tool_use"]
    if not pedidas:
        return None
    # Un resultado vacío cuenta como ninguno: la API lo trata como una llamada sin contestar (docs/modelo-real.md).
    con_contenido = {b["tool_use_id"] for _, _, b in bloques
                     if b["type"] == "tool_result" and b.get("content") not in ("", [], None)}
    sin = [id for _, id in pedidas if id not in con_contenido]
    if sin:
        return ("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each "
                "`tool_use` block must have a corresponding `tool_result` block in the next message."
                % (pedidas[0][0], ", ".join(sin)))
    al_principio = 0
    while al_principio < len(bloques) and bloques[al_principio][2]["type"] == "tool_result":
        al_principio += 1
    if al_principio < len(pedidas):
        return ("messages.%d: Did not find %d tool_result block(s) at the beginning of this message. Messages "
                "following tool_use blocks must begin with a matching number of tool_result blocks."
                % (primero, len(pedidas)))
    return None


class ApiLocal:
    """El servidor: `plan` es la lista de lo que contestará, en orden; `recibidas`, lo que le han pedido;
    `rechazadas`, el motivo de cada petición que ha rechazado (como la API, sin gastar el plan)."""

    def __init__(self, plan=()):
        self.plan, self.recibidas, self.cabeceras, self.rechazadas = list(plan), [], [], []
        api = self

        class Atiende(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                cuerpo = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                api.recibidas.append(cuerpo)
                api.cabeceras.append({k.lower(): v for k, v in self.headers.items()})
                motivo = rechazo(cuerpo)
                if not (self.headers.get("x-api-key") or self.headers.get("authorization")):
                    codigo, respuesta = fallo(401, "authentication_error", "x-api-key header is required")
                elif motivo:
                    api.rechazadas.append(motivo)
                    codigo, respuesta = fallo(400, "invalid_request_error", motivo)
                else:
                    codigo, respuesta = api.plan.pop(0) if api.plan else fallo(500, "api_error", "el plan se ha acabado")
                datos = json.dumps(respuesta).encode()
                self.send_response(codigo)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(datos)))
                # La API de verdad dice cuánto esperar antes de reintentar; así los reintentos del SDK son rápidos.
                self.send_header("retry-after-ms", "10")
                self.end_headers()
                self.wfile.write(datos)

            def log_message(self, *argumentos):
                pass

        self._servidor = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Atiende)
        self.url = "http://127.0.0.1:%d" % self._servidor.server_port

    def __enter__(self):
        threading.Thread(target=self._servidor.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *_):
        self._servidor.shutdown()
        self._servidor.server_close()
