"""Un modelo de verdad con la interfaz del guionizado: Claude, por la API de Mensajes de Anthropic.

Es optativo y no cuenta para la nota. `anthropic`, el SDK oficial, se importa al crear un
ModeloClaude y no al importar harness, que así funciona también donde no está (en el navegador).
El SDK lee la clave de ANTHROPIC_API_KEY y, si está, la dirección de la API de ANTHROPIC_BASE_URL.
"""

import json
import os
import sys

from ..bloques import texto
from ..bucle import bucle
from ..entorno import ENTORNO
from ..salmorejo import INICIO

MODELO = "claude-haiku-5-5"  # el más rápido y barato de la API; vale cualquier otro que admita herramientas
TOPE = 8        # turnos como mucho en cada conversación de la lección
REINTENTOS = 2  # los del propio SDK ante un 429 o un 5xx, esperando lo que pida la API
ESPERA = 60     # segundos para cada respuesta de la API; pasados, cuenta como un fallo de la red
_ROLES = {"usuario": "user", "asistente": "assistant"}


class RespuestaCortada(Exception):
    """El modelo ha agotado `max_tokens` a mitad de su turno: lo que ha llegado no es una respuesta."""


class SinRespuesta(Exception):
    """La API no ha dado un turno del modelo: un fallo suyo, de la red o de la clave, o una negativa."""


def que_falta():
    """Lo que falta aquí para hablar con un modelo de verdad, en una frase; None si no falta nada."""
    if sys.platform == "emscripten":
        return ("En la versión del navegador no se puede llamar a la API: haría falta la clave dentro de la "
                "página. Abre la lección en JupyterLab en tu ordenador.")
    if not os.environ.get("ANTHROPIC_API_KEY"):
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


class ModeloClaude:
    """Claude como `modelo(M, herramientas)`: devuelve los bloques de su turno, como dicts.

    `turno` cuenta los turnos contestados y `tokens` lo gastado, sumando el `usage` de cada respuesta;
    `entrada_por_turno` guarda los tokens de entrada de cada petición, uno por turno.
    Con `grabar=RUTA`, cada turno (la conversación enviada y los bloques recibidos) queda en ese JSON.
    """

    def __init__(self, modelo, max_tokens=1024, grabar=None):
        import anthropic
        self._errores = anthropic.APIError
        self.cliente = anthropic.Anthropic(max_retries=REINTENTOS, timeout=ESPERA)
        if not (self.cliente.api_key or self.cliente.auth_token):
            raise SinRespuesta(que_falta())
        self.modelo, self.max_tokens, self.grabar = modelo, max_tokens, grabar
        self.turno, self.tokens, self.entrada_por_turno = 0, {"entrada": 0, "salida": 0}, []
        self._grabados = []

    def __call__(self, M, herramientas):
        sistema = "\n\n".join(c for rol, c in M if rol == "sistema")
        mensajes = [{"role": _ROLES[rol], "content": c} for rol, c in M if rol != "sistema"]
        try:
            r = self.cliente.messages.create(model=self.modelo, max_tokens=self.max_tokens, messages=mensajes,
                                             tools=herramientas, **({"system": sistema} if sistema else {}))
        except self._errores as e:
            raise SinRespuesta(_por_que(e, self.modelo)) from None
        self.tokens["entrada"] += r.usage.input_tokens
        self.tokens["salida"] += r.usage.output_tokens
        self.entrada_por_turno.append(r.usage.input_tokens)
        if r.stop_reason == "max_tokens":
            raise RespuestaCortada("el turno %d del modelo se ha cortado al llegar a max_tokens=%d: la respuesta "
                                   "está a medias y no se puede usar. Sube max_tokens o pide algo más corto."
                                   % (self.turno + 1, self.max_tokens))
        if r.stop_reason == "refusal":
            raise SinRespuesta("el modelo se ha negado a seguir con esta conversación (stop_reason «refusal»).")
        bloques = [_bloque(b) for b in r.content]
        self.turno += 1
        if self.grabar:
            self._grabados.append({"enviada": [list(m) for m in M], "recibida": bloques})
            with open(self.grabar, "w", encoding="utf-8") as f:
                json.dump({"modelo": self.modelo, "max_tokens": self.max_tokens, "turnos": self._grabados},
                          f, ensure_ascii=False, indent=1)
        return bloques


def conversar(peticion, ejecutar, modelo=MODELO, tope=TOPE, max_tokens=1024):
    """`peticion` por el bucle con `ejecutar` y un modelo de verdad, sobre una copia de ENTORNO: enseña la
    conversación en el visor, los ficheros que ha cambiado y lo gastado, en total y turno a turno."""
    from IPython.display import display

    from .widgets import visor
    claude = ModeloClaude(modelo, max_tokens=max_tokens)
    entorno = dict(ENTORNO)
    print("Con %s: %d turnos como mucho, de %d tokens de salida como mucho cada uno." % (modelo, tope, max_tokens))
    try:
        como_acaba, texto_final, M = bucle(claude, [INICIO[0], ("usuario", peticion)], entorno, tope, ejecutar)
    except (RespuestaCortada, SinRespuesta) as fallo:  # el que falla es el modelo: no hay llamada a la que contestar
        print("El modelo no ha dado el turno %d: %s" % (claude.turno + 1, fallo))
    except Exception as fallo:
        print("Tu ejecutar ha dejado escapar %s después del turno %d del modelo: %s"
              % (type(fallo).__name__, claude.turno, fallo))
    else:
        display(visor(M, titulo="«%s», con tu ejecutar y %s" % (peticion, modelo)))
        print("bucle devuelve %r: %s" % (como_acaba, texto_final))
        cambiados = [ruta for ruta in sorted(set(entorno) | set(ENTORNO)) if entorno.get(ruta) != ENTORNO.get(ruta)]
        print("Ficheros cambiados:", ", ".join(cambiados) or "ninguno")
    print("Gastado: %d tokens de entrada y %d de salida en %d turnos."
          % (claude.tokens["entrada"], claude.tokens["salida"], claude.turno))
    if claude.entrada_por_turno:
        print("Tokens de entrada en cada turno:", ", ".join(map(str, claude.entrada_por_turno)))


def guion_desde(ruta):
    """El guion de una conversación grabada con ModeloClaude(grabar=ruta), para un ModeloGuionizado."""
    with open(ruta, encoding="utf-8") as f:
        turnos = json.load(f)["turnos"]
    return [([tuple(m) for m in t["enviada"]], t["recibida"]) for t in turnos]


def _bloque(b):
    """Un bloque de la respuesta del SDK, con la forma de la lección; los de otros tipos, tal como llegan."""
    if b.type == "text":
        return texto(b.text)
    if b.type == "tool_use":
        return {"type": "tool_use", "id": b.id, "name": b.name, "input": b.input}
    return b.model_dump(mode="json", exclude_none=True)


def _por_que(e, modelo):
    """Qué ha pasado con la API, en español, con lo que diga ella."""
    cuerpo = getattr(e, "body", None)
    error = cuerpo.get("error") if isinstance(cuerpo, dict) else None
    dice = error.get("message") if isinstance(error, dict) else None
    codigo = getattr(e, "status_code", None)
    if codigo is None:
        que = "no se ha podido hablar con la API (%s): mira la conexión a internet" % type(e).__name__
    elif codigo == 401:
        que = "la API no acepta la clave de ANTHROPIC_API_KEY (401): mira que esté bien copiada y siga activa"
    elif codigo == 404:
        que = "la API no encuentra el modelo %r (404): mira el nombre en la lista de modelos" % modelo
    elif codigo == 429:
        que = ("la API pide que vayas más despacio o se ha acabado el saldo (429), también tras %d reintentos: "
               "espera un minuto y vuelve a probar" % REINTENTOS)
    elif codigo >= 500:
        que = ("la API ha fallado por su lado (%d), también tras %d reintentos: vuelve a probar dentro de un rato"
               % (codigo, REINTENTOS))
    else:
        que = "la API ha rechazado la petición (%d)" % codigo
    return que + (". La API dice: %s" % dice if dice else ".")
