"""Un modelo de verdad con la interfaz del guionizado: Claude, por la API de Mensajes de Anthropic.

Es optativo y no cuenta para la nota. `anthropic`, el SDK oficial, se importa al crear un
ModeloClaude y no al importar harness, que así funciona también donde no está (en el navegador).
El SDK lee la clave de ANTHROPIC_API_KEY (o un token de ANTHROPIC_AUTH_TOKEN) y, si está, la
dirección de la API de ANTHROPIC_BASE_URL.
"""

import json
import os
import sys
import time

from ..bloques import es_un, roturas, texto
from ..bucle import bucle
from ..entorno import ENTORNO
from ..salmorejo import INICIO
from .ejercicios import NoPasa, en_prueba

MODELO = "claude-haiku-5-5"  # el más rápido y barato de la API; vale cualquier otro que admita herramientas
TOPE = 8           # turnos como mucho en cada conversación de la lección
REINTENTOS = 2     # peticiones que se repiten ante un 429, un 5xx o la red cortada, esperando lo que pida la API
ESPERA = 30        # segundos para cada petición; pasados, se dice así y no se repite
CONTINUACIONES = 3  # veces que se sigue un turno que la API deja en pausa (pause_turn)
_ROLES = {"usuario": "user", "asistente": "assistant"}
_COMPLETO = ("end_turn", "tool_use", "stop_sequence")  # los stop_reason de un turno entero


class RespuestaCortada(Exception):
    """El turno del modelo se ha cortado a medias (max_tokens, o la ventana de contexto llena): no se puede usar."""


class SinRespuesta(Exception):
    """La API no ha dado un turno del modelo: un fallo suyo, de la red o de la clave, o una negativa."""


class NoSeEnvia(Exception):
    """La conversación lleva una observación que la API rechazaría (vacía, sin su llamada, que no se puede
    escribir en JSON…): no se manda. En `conversar`, es siempre la contestación del ejecutar del estudiante."""


def que_falta():
    """Lo que falta aquí para hablar con un modelo de verdad, en una frase; None si no falta nada."""
    if sys.platform == "emscripten":
        return ("En la versión del navegador no se puede llamar a la API: haría falta la clave dentro de la "
                "página. Abre la lección en JupyterLab en tu ordenador.")
    if not (os.environ.get("ANTHROPIC_API_KEY") or os.environ.get("ANTHROPIC_AUTH_TOKEN")):
        # El núcleo hereda las variables del servidor de JupyterLab: las que se definen después no le llegan.
        return ("No hay clave de la API: falta la variable de entorno ANTHROPIC_API_KEY. Crea una clave en "
                "https://console.anthropic.com (API Keys), defínela en una terminal (export ANTHROPIC_API_KEY=... "
                "en Linux y macOS; en Windows, set ANTHROPIC_API_KEY=... en cmd o $env:ANTHROPIC_API_KEY=\"...\" "
                "en PowerShell) y abre JupyterLab desde esa misma terminal. Si ya estaba abierto, ciérralo y "
                "vuelve a abrirlo: reiniciar el núcleo no basta.")
    try:
        import anthropic  # noqa: F401
    except ImportError:
        return "Falta el paquete anthropic (el SDK oficial): instálalo con pip install anthropic."
    return None


def peticion(M, herramientas, modelo=MODELO, max_tokens=1024):
    """Lo que recibe la API de Mensajes para dar el turno siguiente de la conversación M: el sistema
    aparte, en `system`; los demás mensajes con sus roles en inglés y los bloques tal cual; las herramientas."""
    sistema = "\n\n".join(c for rol, c in M if rol == "sistema")
    return {"model": modelo, "max_tokens": max_tokens, **({"system": sistema} if sistema else {}),
            "messages": [{"role": _ROLES[rol], "content": c} for rol, c in M if rol != "sistema"],
            "tools": herramientas}


class ModeloClaude:
    """Claude como `modelo(M, herramientas)`: devuelve los bloques de su turno, como dicts.

    `turno` cuenta los turnos contestados y `tokens` lo gastado, sumando el `usage` de cada petición;
    `entrada_por_turno` guarda los tokens de entrada de cada turno.
    Con `grabar=RUTA`, cada turno (la conversación enviada y los bloques recibidos) queda en ese JSON.
    """

    def __init__(self, modelo, max_tokens=1024, grabar=None):
        import anthropic
        self._sdk = anthropic
        # Sin los reintentos del SDK: también repetiría las peticiones que agotan la espera (_pedir).
        self.cliente = anthropic.Anthropic(max_retries=0, timeout=ESPERA)
        if not (self.cliente.api_key or self.cliente.auth_token):
            raise SinRespuesta(que_falta())
        self.modelo, self.max_tokens, self.grabar = modelo, max_tokens, grabar
        self.turno, self.tokens, self.entrada_por_turno = 0, {"entrada": 0, "salida": 0}, []
        self._grabados = []

    def __call__(self, M, herramientas):
        pedida = peticion(M, herramientas, self.modelo, self.max_tokens)
        _se_puede_enviar(M, self._sdk.types.ToolResultBlockParam.__annotations__)
        bloques, entrada = [], 0
        for _ in range(1 + CONTINUACIONES):
            # Un turno en pausa se sigue mandándolo tal cual, como último mensaje, sin nada del usuario detrás.
            seguir = [{"role": "assistant", "content": bloques}] if bloques else []
            r = self._pedir(dict(pedida, messages=pedida["messages"] + seguir))
            self.tokens["entrada"] += r.usage.input_tokens
            self.tokens["salida"] += r.usage.output_tokens
            entrada += r.usage.input_tokens
            bloques += [_bloque(b) for b in r.content]
            if r.stop_reason != "pause_turn":
                break
        self.entrada_por_turno.append(entrada)
        _comprobar_fin(r.stop_reason, self.turno + 1, self.max_tokens)
        self.turno += 1
        if self.grabar:
            self._grabados.append({"enviada": [list(m) for m in M], "recibida": bloques})
            with open(self.grabar, "w", encoding="utf-8") as f:
                json.dump({"modelo": self.modelo, "max_tokens": self.max_tokens, "turnos": self._grabados},
                          f, ensure_ascii=False, indent=1)
        return bloques

    def _pedir(self, pedida):
        """Lo que devuelve la API a `pedida`. Ante un 429, un 5xx o la red cortada, la repite (REINTENTOS
        veces, esperando lo que pida la API); si la API tarda más de ESPERA segundos, no."""
        for intento in range(REINTENTOS + 1):
            try:
                return self.cliente.messages.create(**pedida)
            except self._sdk.APITimeoutError:
                raise SinRespuesta("la API no ha contestado en %s segundos: puede que esté muy cargada o que la red "
                                   "vaya muy lenta. Vuelve a probar dentro de un rato."
                                   % ("%g" % ESPERA).replace(".", ",")) from None
            except self._sdk.APIError as e:
                repetible = isinstance(e, self._sdk.APIConnectionError) or _se_repite(getattr(e, "status_code", None))
                if intento == REINTENTOS or not repetible:
                    raise SinRespuesta(_por_que(e, self.modelo, intento)) from None
                time.sleep(_espera(e, intento))


def conversar(encargo, ejecutar, modelo=MODELO, tope=TOPE, max_tokens=1024):
    """`encargo` por el bucle con `ejecutar` y un modelo de verdad, sobre una copia de ENTORNO: enseña la
    conversación en el visor, los ficheros que ha cambiado y lo gastado, en total y turno a turno."""
    from IPython.display import display

    from .widgets import visor
    claude = ModeloClaude(modelo, max_tokens=max_tokens)
    entorno = dict(ENTORNO)
    print("Con %s: %s como mucho, de %d tokens de salida como mucho cada uno."
          % (modelo, _cuantos(tope, "turno"), max_tokens))
    try:
        como_acaba, texto_final, M = bucle(claude, [INICIO[0], ("usuario", encargo)], entorno, tope,
                                           en_prueba(ejecutar))
    except NoPasa as fallo:  # solo lo de tu ejecutar: una excepción que ha dejado salir, o una llamada que no acaba
        print("✘ La conversación se corta después del turno %d del modelo: %s" % (claude.turno, fallo))
    except NoSeEnvia as fallo:  # también es de tu ejecutar: su contestación, que la API no aceptaría
        print("✘ La conversación se corta después del turno %d del modelo: la contestación de tu ejecutar no se "
              "puede mandar a la API, que rechazaría la petición entera: %s" % (claude.turno, fallo))
    except (RespuestaCortada, SinRespuesta) as fallo:  # el que falla es el modelo: no hay llamada a la que contestar
        print("El modelo no ha dado el turno %d: %s" % (claude.turno + 1, fallo))
    else:
        display(visor(M, titulo="«%s», con tu ejecutar y %s" % (encargo, modelo)))
        print("bucle devuelve %r: %s" % (como_acaba, texto_final))
        cambiados = [ruta for ruta in sorted(set(entorno) | set(ENTORNO)) if entorno.get(ruta) != ENTORNO.get(ruta)]
        print("Ficheros cambiados:", ", ".join(cambiados) or "ninguno")
    print("Gastado: %d tokens de entrada y %d de salida en %s."
          % (claude.tokens["entrada"], claude.tokens["salida"], _cuantos(claude.turno, "turno")))
    if claude.entrada_por_turno:
        print("Tokens de entrada en cada turno:", ", ".join(map(str, claude.entrada_por_turno)))


def guion_desde(ruta):
    """El guion de una conversación grabada con ModeloClaude(grabar=ruta), para un ModeloGuionizado."""
    with open(ruta, encoding="utf-8") as f:
        turnos = json.load(f)["turnos"]
    return [([tuple(m) for m in t["enviada"]], t["recibida"]) for t in turnos]


def _bloque(b):
    """Un bloque del turno que devuelve el SDK, con la forma de la lección; los de otros tipos, tal como llegan."""
    if b.type == "text":
        return texto(b.text)
    if b.type == "tool_use":
        return {"type": "tool_use", "id": b.id, "name": b.name, "input": b.input}
    return b.model_dump(mode="json", exclude_none=True)


def _comprobar_fin(motivo, n, max_tokens):
    """Lanza si el turno `n` no ha acabado entero: un turno a medias nunca se toma por uno completo."""
    if motivo in _COMPLETO:
        return
    if motivo == "max_tokens":
        raise RespuestaCortada("el turno %d del modelo se ha cortado al llegar a max_tokens=%d: está a medias y no "
                               "se puede usar. Sube max_tokens o pide algo más corto." % (n, max_tokens))
    if motivo == "model_context_window_exceeded":
        raise RespuestaCortada("el turno %d del modelo se ha cortado porque la conversación ya no cabe en su ventana "
                               "de contexto (stop_reason «model_context_window_exceeded»): está a medias y no se "
                               "puede usar. Empieza otra conversación, con un encargo más corto." % n)
    if motivo == "pause_turn":
        raise SinRespuesta("la API ha dejado el turno %d en pausa %d veces seguidas (stop_reason «pause_turn»): "
                           "no se sigue esperando." % (n, 1 + CONTINUACIONES))
    if motivo == "refusal":
        raise SinRespuesta("el modelo se ha negado a seguir con esta conversación (stop_reason «refusal»).")
    raise SinRespuesta("la API ha parado el turno %d por un motivo que esta lección no conoce (stop_reason %r): "
                       "no se toma como un turno completo." % (n, motivo))


def _se_puede_enviar(M, campos):
    """Lanza NoSeEnvia, diciendo qué observación es, si la API rechazaría la conversación M por una de ellas:
    una que rompe la norma (vacía, sin su llamada, detrás de otro bloque), que lleva campos que no son de un
    tool_result (`campos`, los del SDK), cuyo contenido no es un texto o que no se puede escribir en JSON.
    Así, lo que es de la observación no llega como un 400 de la API, que parecería culpa del modelo."""
    rotas = roturas(_como_junta_la_api(M))
    if rotas:
        raise NoSeEnvia(rotas[0][2] + ".")
    for rol, contenido in M:
        for bloque in contenido if isinstance(contenido, list) else [contenido]:
            if not es_un(bloque, "tool_result"):
                continue
            quien = "la observación de %s" % bloque.get("tool_use_id")
            try:
                json.dumps(bloque)
            except (TypeError, ValueError) as e:
                raise NoSeEnvia("%s lleva algo que no se puede escribir en JSON (%s). El contenido de una "
                                "observación es un texto: para un error, str(e)." % (quien, e)) from None
            sobra = [campo for campo in bloque if campo not in campos]
            if sobra:
                raise NoSeEnvia("%s lleva el campo %r, que la API no conoce: un tool_result lleva type, "
                                "tool_use_id, content e is_error, como los de resultado() y error()." % (quien, sobra[0]))
            if not isinstance(bloque.get("content"), (str, list)):
                raise NoSeEnvia("el contenido de %s es %s, y la API solo acepta un texto: lo que devuelve la "
                                "herramienta, o str(e)." % (quien, type(bloque.get("content")).__name__))


def _como_junta_la_api(M):
    """M con los mensajes seguidos del mismo rol juntos en uno, como los junta la API antes de mirarlos."""
    juntos = []
    for rol, contenido in M:
        bloques = list(contenido) if isinstance(contenido, list) else [texto(contenido)]
        if juntos and juntos[-1][0] == rol:
            juntos[-1][1].extend(bloques)
        else:
            juntos.append((rol, bloques))
    return juntos


def _se_repite(codigo):
    """Si una petición que la API ha contestado con el código HTTP `codigo` se puede repetir tal cual."""
    return codigo in (408, 409, 429) or (codigo or 0) >= 500


def _espera(e, intento):
    """Los segundos que pide la API antes de repetir (retry-after), o 1, 2, 4…; 20 como mucho."""
    cabeceras = getattr(getattr(e, "response", None), "headers", None) or {}
    try:
        if "retry-after-ms" in cabeceras:
            return min(float(cabeceras["retry-after-ms"]) / 1000, 20)
        if "retry-after" in cabeceras:
            return min(float(cabeceras["retry-after"]), 20)
    except ValueError:
        pass
    return min(2 ** intento, 20)


def _por_que(e, modelo, repetida):
    """Qué ha pasado con la API, en español, con lo que diga ella."""
    cuerpo = getattr(e, "body", None)
    error = cuerpo.get("error") if isinstance(cuerpo, dict) else None
    dice = error.get("message") if isinstance(error, dict) else None
    codigo = getattr(e, "status_code", None)
    tras = ", también tras %s" % _cuantos(repetida, "reintento") if repetida else ""
    if codigo is None:
        que = "no se ha podido hablar con la API (%s%s): mira la conexión a internet" % (type(e).__name__, tras)
    elif codigo == 401:
        variable = "ANTHROPIC_API_KEY" if os.environ.get("ANTHROPIC_API_KEY") else "ANTHROPIC_AUTH_TOKEN"
        que = "la API no acepta la clave de %s (401): mira que esté bien copiada y siga activa" % variable
    elif codigo == 404:
        que = "la API no encuentra el modelo %r (404): mira el nombre en la lista de modelos" % modelo
    elif codigo == 429:
        que = ("la API pide que vayas más despacio o se ha acabado el saldo (429)%s: espera un minuto y vuelve a "
               "probar" % tras)
    elif codigo >= 500:
        que = "la API ha fallado por su lado (%d)%s: vuelve a probar dentro de un rato" % (codigo, tras)
    else:
        que = "la API ha rechazado la petición (%d)" % codigo
    return que + (". La API dice: %s" % dice if dice else ".")


def _cuantos(n, cosa):
    """«1 turno», «2 turnos»."""
    return "%d %s%s" % (n, cosa, "" if n == 1 else "s")
