"""Las cláusulas del contrato de `ejecutar`, una función cada una.

Cada cláusula prueba `ejecutar` con unos casos y, si no se cumple, lanza `NoCumple` con lo que ha
pasado y el nombre de la equivocación (diagnosticos.py). Cuántas veces corre cada herramienta, y en
qué entorno, lo cuenta vigilancia.py. Qué puntúa de lo que dan lo deciden las reglas (reglas.py).
"""

import contextlib
import re

from ..bloques import error, muestra, resultado
from ..bucle import bucle
from ..entorno import ENTORNO, incumple
from ..guionizado import FueraDelGuion, ModeloGuionizado, guion_de
from .diagnosticos import NoCumple
from .vigilancia import REALES, Espia


# Lo que haría una herramienta de verdad con una llamada, para saber qué observación se espera.

def _lo_que_da(ll, ficheros=ENTORNO, fallo=None):
    """(True, lo que devuelve) o (False, la excepción que lanza) la herramienta de `ll`, en una copia."""
    if fallo is not None:
        return False, fallo
    try:
        return True, REALES[ll["name"]](dict(ficheros), **ll["input"])
    except Exception as e:
        return False, e


def _respuesta(llamar, ll, entorno, si_es_la_de_la_herramienta="lanza-al-fallar"):
    """La observación con que `ejecutar` contesta a `ll`, si es un tool_result para esa llamada."""
    fallo = getattr(entorno, "fallo", None)
    try:
        obs = llamar(ll, entorno)
    except NoCumple:
        raise
    except Exception as e:
        raise _escapada(e, ll, fallo, _lo_que_da(ll, entorno, fallo)[1], si_es_la_de_la_herramienta) from None
    if obs is None:
        raise NoCumple("Con la llamada %s, ejecutar ha devuelto None." % _dicha(ll, fallo), "no-contesta")
    motivo = _forma(obs, ll)
    if motivo:
        raise NoCumple("Con la llamada %s ha llegado %s, que no es su tool_result: %s."
                       % (_dicha(ll, fallo), muestra(obs), motivo), "no-es-un-tool-result")
    return obs


def _dicha(ll, fallo=None):
    """La llamada `ll` como se escribe en los mensajes; si la prueba hace fallar su herramienta, lo dice."""
    if fallo is None:
        return muestra(ll)
    return "%s (en esta prueba, su herramienta falla a propósito con %s)" % (muestra(ll), type(fallo).__name__)


def _escapada(e, ll, fallo, lanzada, si_es_la_de_la_herramienta):
    """El NoCumple de la excepción `e`, que ha salido de ejecutar con la llamada `ll`, con quién la ha lanzado."""
    que = "ejecutar ha lanzado %s: %s\n  con la llamada %s." % (_tipo(e), e, _dicha(ll, fallo))
    donde = getattr(e, "origen", None)  # (línea, su texto, dónde está) si la ha lanzado el código de la respuesta
    if _tipo(e) == "NotImplementedError":
        return NoCumple(que, "sin-empezar")
    if donde:
        linea, codigo, sitio = donde
        # Un raise dentro del except relanza el fallo a propósito; cualquier otra línea falla sin querer.
        relanza = sitio == "except" and re.match(r"raise\b", codigo)
        return NoCumple("%s La lanza tu código, en la línea %d de tu respuesta, %s:\n      %s"
                        % (que, linea, _SITIOS[sitio], codigo),
                        "lanza-otra-excepcion" if relanza else "lanza-tu-codigo")
    if (_tipo(e), str(e)) == (type(lanzada).__name__, str(lanzada)):
        return NoCumple(que + " Es la excepción de la herramienta, y de ejecutar no debe salir ninguna.",
                        si_es_la_de_la_herramienta)
    return NoCumple(que + " De ejecutar no debe salir ninguna excepción.", "lanza-otra-excepcion")


_SITIOS = {"except": "dentro de un except", "try": "en un try cuyo except no la captura", "fuera": "fuera del try"}


def _forma(obs, ll):
    """Por qué `obs` no es un tool_result que contesta a `ll`; None si lo es."""
    claves = {"type", "tool_use_id", "content", "is_error"}
    if type(obs) is not dict:
        return "debería ser un dict y es %s" % type(obs).__name__
    if set(obs) != claves:
        return "sus claves deberían ser %s y son %s" % (sorted(claves), sorted(map(str, obs)))
    if obs["type"] != "tool_result" or type(obs["type"]) is not str:
        return "type debería ser 'tool_result' y es %r" % (obs["type"],)
    if obs["tool_use_id"] != ll["id"] or type(obs["tool_use_id"]) is not str:
        return "tool_use_id debería ser %r, el id de la llamada, y es %r" % (ll["id"], obs["tool_use_id"])
    if type(obs["is_error"]) is not bool:
        return "is_error debería ser True o False (un bool) y es %r" % (obs["is_error"],)
    return None


def _tipo(e):
    return getattr(e, "tipo", type(e).__name__)  # lo que lanzó en una jaula llega con su tipo aparte


def _no_es(ll, obs, esperada, diagnostico, fallo=None):
    raise NoCumple("Con la llamada %s\n  se esperaba: %s\n  ha llegado:  %s"
                   % (_dicha(ll, fallo), muestra(esperada), muestra(obs)), diagnostico)


def _llama(llamar, ll, entorno):
    """Llama a `ejecutar` solo para ver qué corre: si deja salir una excepción, lo cuenta la cláusula
    de las excepciones, no la que llama a esta."""
    try:
        llamar(ll, entorno)
    except NoCumple:
        raise
    except Exception:
        pass


def _ejecutada(ll, entorno):
    """Exige que la herramienta de `ll` se haya ejecutado, tal cual, con esa llamada."""
    if not any((n, a) == (ll["name"], ll["input"]) for n, a, _ in entorno.ejecuciones):
        raise NoCumple("Con la llamada %s, que cumple su esquema, su herramienta no se ha ejecutado." % muestra(ll),
                       "contesta-sin-ejecutar")


# Las cláusulas. Cada una recibe `llamar(llamada, entorno)` y sus casos; si se cumple, devuelve la frase de ✔.

def contesta(llamar, casos):
    """Cada llamada recibe un tool_result con su id: también si no cumple el esquema o si la herramienta falla."""
    for ll in casos:
        entorno = Espia()
        _respuesta(llamar, ll, entorno)
        if incumple(ll) is None and _lo_que_da(ll)[0]:  # la que sale bien: su observación sale de ejecutarla
            _ejecutada(ll, entorno)
    return "contesta a cada llamada con un tool_result con su id, también cuando falla"


def avisa(llamar, casos):
    """Las dos clases de fallo vuelven como error: is_error a True y el motivo del esquema o el mensaje de la excepción."""
    avisados = set()
    for ll, fallo in casos:
        try:
            obs = llamar(ll, Espia(fallo=fallo))
        except NoCumple as e:
            if not e.diagnostico:  # no se ha podido probar (se ha acabado el tiempo de todas): que se diga eso
                raise
            continue  # no contesta a esta: aquí solo se busca la que sí avise
        except Exception:
            continue
        lanza = str(_lo_que_da(ll, fallo=fallo)[1])  # lo que lanza la herramienta (también sin cumplir el esquema)
        motivo = incumple(ll)
        dice = _texto(obs.get("content")) if type(obs) is dict and obs.get("is_error") is True else None
        if dice is not None and any(t and t in dice for t in (motivo, lanza)):
            avisados.add("esquema" if motivo is not None else "ejecucion")
    callados = [f for f in _FALLOS if f not in avisados]
    if callados:
        probadas = [_dicha(ll, fallo) for ll, fallo in casos
                    if ("esquema" if incumple(ll) is not None else "ejecucion") in callados]
        raise NoCumple("Ninguna %s vuelve como un error que diga qué ha pasado. Probadas: %s."
                       % (" ni ninguna ".join(_FALLOS[f] for f in callados), "; ".join(probadas)), "nunca-avisa")
    return "las dos clases de fallo vuelven como error y dicen qué ha pasado"


_FALLOS = {"esquema": "llamada que no cumple su esquema", "ejecucion": "llamada cuya herramienta lanza una excepción"}


def _texto(contenido):
    """Lo que se lee en un contenido: el texto, el de sus bloques de texto o, si es otra cosa, su repr."""
    if isinstance(contenido, str):
        return contenido
    if isinstance(contenido, list):
        return " ".join(_texto(b.get("text")) if isinstance(b, dict) else _texto(b) for b in contenido)
    return repr(contenido)


def esquema(llamar, casos):
    """Una llamada que no cumple su esquema no se ejecuta, y su error dice «no se ha ejecutado: » y el motivo."""
    for ll in casos:
        entorno = Espia()
        obs = _respuesta(llamar, ll, entorno)
        if any((n, a) != (ll["name"], ll["input"]) for n, a, _ in entorno.ejecuciones):
            continue  # la ha arreglado: eso lo mira sin_arreglos
        motivo = incumple(ll)
        if entorno.ejecuciones or entorno != ENTORNO:
            raise NoCumple("La llamada %s no cumple su esquema (%s) y se ha ejecutado." % (muestra(ll), motivo),
                           "ejecuta-sin-esquema")
        esperada = error(ll["id"], "no se ha ejecutado: " + motivo)
        if obs != esperada:
            contenido = obs["content"] if type(obs["content"]) is str else ""
            diagnostico = ("esquema-como-resultado" if obs["is_error"] is False else
                           "motivo-sin-prefijo" if contenido == motivo else
                           "motivo-cambiado" if motivo in contenido else "ejecuta-sin-esquema")
            _no_es(ll, obs, esperada, diagnostico)
    return "las llamadas que no cumplen su esquema no se ejecutan y dicen por qué"


def excepciones(llamar, casos):
    """Si la herramienta lanza, del tipo que sea, la observación es error(id, str(e)), con el mensaje tal cual."""
    for ll, fallo in casos:
        entorno = Espia(fallo=fallo)
        lanzada = _lo_que_da(ll, fallo=fallo)[1]
        obs = _respuesta(llamar, ll, entorno, "captura-solo-un-tipo")
        esperada = error(ll["id"], str(lanzada) or type(lanzada).__name__)  # sin mensaje, la API no acepta ""
        if not _cuenta_la_excepcion(obs, ll, lanzada):
            contenido = obs["content"]
            diagnostico = ("contenido-no-es-texto" if type(contenido) is not str else
                           "error-como-resultado" if obs["is_error"] is False else
                           "contenido-repr" if contenido == repr(lanzada) else
                           "no-se-ha-ejecutado-al-fallar" if contenido == "no se ha ejecutado: " + str(lanzada) else
                           "prefijo-en-el-mensaje" if str(lanzada) and contenido.endswith(str(lanzada)) else
                           "mensaje-cambiado")
            _no_es(ll, obs, esperada, diagnostico, fallo)
    return "cualquier excepción de la herramienta vuelve como error con su mensaje, tal cual"


def _cuenta_la_excepcion(obs, ll, lanzada):
    """Si `obs` es el error de `ll` con el mensaje de `lanzada`; si no tiene mensaje, con un texto que nombre su tipo
    (o vacío, como se pedía antes)."""
    contenido = obs["content"]
    if obs != error(ll["id"], contenido) or type(contenido) is not str:
        return False
    return contenido == str(lanzada) if str(lanzada) else contenido == "" or type(lanzada).__name__ in contenido


def una_vez(llamar, casos):
    """La herramienta de una llamada que cumple su esquema se ejecuta, y una vez como mucho: repetirla es cosa del modelo."""
    for ll, fallo in casos:
        entorno = Espia(fallo=fallo)
        _llama(llamar, ll, entorno)
        if fallo is not None or _lo_que_da(ll)[0]:
            _ejecutada(ll, entorno)
        veces = sum((n, a) == (ll["name"], ll["input"]) for n, a, _ in entorno.ejecuciones)
        if veces > 1:
            falla = not _lo_que_da(ll, fallo=fallo)[0]
            raise NoCumple("Con la llamada %s la herramienta se ha ejecutado %d veces, y se ejecuta una vez como "
                           "mucho." % (_dicha(ll, fallo), veces), "reintenta" if falla else "ejecuta-dos-veces")
    return "la herramienta se ejecuta una vez como mucho: repetirla es cosa del modelo"


def sin_arreglos(llamar, casos):
    """Se ejecuta la llamada que ha hecho el modelo, tal cual, o ninguna: ejecutar no la arregla."""
    for ll in casos:
        entorno = Espia()
        _llama(llamar, ll, entorno)
        otras = [(n, a) for n, a, _ in entorno.ejecuciones if (n, a) != (ll["name"], ll["input"])]
        if otras:
            n, a = otras[0]
            raise NoCumple("Con la llamada %s, ejecutar ha ejecutado %s(%s), que no es lo que pedía el modelo."
                           % (muestra(ll), n, ", ".join("%s=%r" % par for par in a.items())), "arregla-la-llamada")
    return "cada llamada se ejecuta tal como llega, sin arreglarla"


def resultados(llamar, casos):
    """Si la herramienta devuelve algo, la observación es resultado(id, eso), tal cual."""
    for ll, ficheros in casos:
        devuelto = _lo_que_da(ll, ficheros)[1]
        obs = _respuesta(llamar, ll, Espia(ficheros))
        esperada = resultado(ll["id"], devuelto)
        if obs != esperada or type(obs["content"]) is not str:
            _no_es(ll, obs, esperada, "exito-como-error" if obs["is_error"] else "resultado-cambiado")
    return "lo que devuelve una herramienta llega tal cual, con is_error a False"


def escrituras(llamar, casos):
    """La herramienta trabaja en el entorno que recibe ejecutar: lo que escribe se queda ahí."""
    entorno = Espia()
    for ll in casos:
        _respuesta(llamar, ll, entorno)
        _ejecutada(ll, entorno)
        ruta, contenido = ll["input"]["ruta"], ll["input"]["contenido"]
        if entorno.get(ruta) != contenido or not all(en_este for _, _, en_este in entorno.ejecuciones):
            raise NoCumple("Tras %s el fichero %s debería contener %r y contiene %r: la herramienta se ha "
                           "ejecutado en otro entorno." % (muestra(ll), ruta, contenido, entorno.get(ruta)),
                           "trabaja-en-una-copia")
    return "lo que escribe escribir queda en el entorno que recibe ejecutar"


def conversaciones(llamar, casos, arregladas=()):
    """Cada conversación, pasada por el bucle con `ejecutar`, es la que espera su guion, y deja los ficheros esperados.

    Con `arregladas` (nombres de cláusulas), las llamadas de las que tratan esas cláusulas reciben la
    observación que espera el guion, como si sus equivocaciones estuvieran arregladas.
    """
    for inicio, respuestas, visto, tope, final, ficheros in casos:
        entorno = dict(ENTORNO)
        modelo = ModeloGuionizado(guion_de(inicio, respuestas, visto))
        pregunta = inicio[-1][1]
        try:
            como, texto_final, _ = bucle(modelo, inicio, entorno, tope, _en_conversacion(llamar, arregladas, visto))
        except FueraDelGuion as e:
            raise NoCumple("En la conversación %r el modelo guionizado ha recibido lo que no esperaba, en el %s"
                           % (pregunta, e)) from None
        except NoCumple as e:
            raise NoCumple("En la conversación %r: %s" % (pregunta, e.motivo), e.diagnostico) from None
        if (como, texto_final) != final:
            raise NoCumple("La conversación %r debería acabar en %r y acaba en %r" % (pregunta, final, (como, texto_final)))
        cambiados = sorted(r for r in set(entorno) | set(ficheros) if entorno.get(r) != ficheros.get(r))
        if cambiados:
            raise NoCumple("Tras la conversación %r los ficheros no son los esperados: %s" % (pregunta, ", ".join(cambiados)))


def _en_conversacion(llamar, arregladas, visto):
    """`llamar` dentro del bucle: una llamada sin respuesta para la conversación con su motivo; las
    llamadas de las cláusulas `arregladas` reciben la observación del guion, y su herramienta corre una vez."""
    esperadas = {obs["tool_use_id"]: obs for mensaje in visto if mensaje for obs in mensaje}

    def contestar(ll, entorno):
        if ll["id"] in esperadas and any(SOBRE[c](ll, entorno) for c in arregladas):
            if incumple(ll) is None:
                with contextlib.suppress(Exception):
                    REALES[ll["name"]](entorno, **ll["input"])
            return esperadas[ll["id"]]
        return _respuesta(llamar, ll, entorno)
    return contestar


def salmorejo(llamar, casos, arregladas=()):
    """La traza del salmorejo, entera: cada observación exacta y los ficheros sin tocar."""
    conversaciones(llamar, casos, arregladas)
    return "la traza del salmorejo entera: cuatro turnos, cada observación exacta y los ficheros sin tocar"


def guiones(llamar, casos, arregladas=()):
    """Otras conversaciones, con errores de las dos clases, llegan al final que espera su guion."""
    conversaciones(llamar, casos, arregladas)
    return "otras conversaciones guionizadas llegan al final que espera su guion, con cada observación exacta"


# Las cláusulas en el orden en que se enseñan. `contesta` es la puerta: sin un tool_result para cada
# llamada básica no hay nada más que mirar. `avisa` es la idea de la lección: no es una prueba con
# puntos, pero sin ella las cláusulas de los fallos no puntúan (se mira cada clase de fallo por su
# lado: la mitad del esquema viene ya escrita). Las demás son las pruebas ejecutar-*.
CLAUSULAS = {"contesta": contesta, "avisa": avisa, "salmorejo": salmorejo, "esquema": esquema,
             "excepciones": excepciones, "una-vez": una_vez, "sin-arreglos": sin_arreglos,
             "resultados": resultados, "escrituras": escrituras, "guiones": guiones}
PRUEBAS = [n for n in CLAUSULAS if n not in ("contesta", "avisa")]
CONVERSACIONES = ("salmorejo", "guiones")
# La regla del contrato (la sección «El contrato de `ejecutar`» de la lección) que mira cada cláusula.
# Las conversaciones las miran todas a la vez.
REGLA = {"contesta": "Regla 1", "avisa": "Reglas 2 y 3", "salmorejo": "Conversación entera", "esquema": "Regla 2",
         "excepciones": "Regla 3", "una-vez": "Regla 5", "sin-arreglos": "Regla 6", "resultados": "Regla 4",
         "escrituras": "Regla 6", "guiones": "Conversaciones enteras"}

# De qué llamadas trata cada cláusula: en ellas se nota su equivocación.
SOBRE = {
    "esquema": lambda ll, entorno: incumple(ll) is not None,
    "excepciones": lambda ll, entorno: incumple(ll) is None and not _lo_que_da(ll, entorno)[0],
    "una-vez": lambda ll, entorno: incumple(ll) is None,
    "sin-arreglos": lambda ll, entorno: incumple(ll) is not None or not _lo_que_da(ll, entorno)[0],
    "resultados": lambda ll, entorno: incumple(ll) is None and _lo_que_da(ll, entorno)[0],
    "escrituras": lambda ll, entorno: incumple(ll) is None,
}
