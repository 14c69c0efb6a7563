"""Las cláusulas del contrato de `ejecutar`, una función cada una.

Cada cláusula prueba `ejecutar` con unos casos (casos.py) y, si no se cumple, lanza `NoCumple` con lo
que ha pasado y el nombre de la equivocación (diagnosticos.py). Qué ha hecho la herramienta lo dice el
entorno de la prueba, que apunta lo que le hacen (vigilancia.py). Qué puntúa lo deciden las reglas (reglas.py).
"""

import copy
import itertools
import re

from ..bloques import error, muestra, resultado
from ..bucle import bucle
from ..entorno import ENTORNO, FUNCIONES, incumple
from ..guionizado import FueraDelGuion, ModeloGuionizado, guion_de
from ..salmorejo import RESPUESTAS as _TRAZA, VISTO as _VISTO
from .casos import Disco
from .diagnosticos import DIAGNOSTICOS, NoCumple
from .vigilancia import Espia, de_la_llamada, otro_trabajo, trabajo, veces, vista


# Lo que haría la herramienta de verdad, para saber qué observación se espera.

def _lo_que_da(ll, disco):
    """(True, lo que devuelve) o (False, la excepción que lanza) la herramienta de `ll` en una copia del
    disco, buscada en FUNCIONES y llamada tal cual, también si la llamada no cumple su esquema."""
    try:
        return True, FUNCIONES[ll.get("name")](vista(Espia(*disco)), **ll.get("input"))
    except Exception as e:
        return False, e


def _clase(ll, disco):
    """"esquema" si la llamada no cumple su esquema; si no, "ejecucion" si su herramienta lanza, o "exito"."""
    if incumple(ll) is not None:
        return "esquema"
    return "exito" if _lo_que_da(ll, disco)[0] else "ejecucion"


def _cuenta(contenido, e):
    """Si el texto de un error dice qué excepción ha sido: lleva su mensaje o, si no tiene, su tipo."""
    return isinstance(contenido, str) and (str(e) or _tipo(e)) in contenido


def cuenta_el_fallo(obs, e):
    """Si `obs` contesta como manda el contrato a una herramienta que ha lanzado `e`: un error con un texto
    que no está vacío y dice qué ha pasado (el mensaje de `e`, o su tipo si no tiene), sin decir que no se
    ha ejecutado. Vale con algo más, como el tipo delante o repr(e)."""
    c = obs.get("content") if type(obs) is dict else None
    return (type(obs) is dict and obs.get("is_error") is True and type(c) is str and c != "" and _cuenta(c, e)
            and "no se ha ejecutado" not in c)


def _como_error(e):
    return "un error que diga qué ha pasado: %r" % (str(e) or _tipo(e))


def _tipo(e):
    return getattr(e, "tipo", type(e).__name__)  # lo que lanzó en una jaula llega con su tipo aparte


def _respuesta(llamar, ll, entorno, si_es_la_de_la_herramienta="lanza-al-fallar"):
    """La observación con que `ejecutar` contesta a `ll`, si es un tool_result para esa llamada."""
    lanzada, desde = _lo_que_da(ll, entorno.disco())[1], len(entorno.registro)
    try:
        obs = llamar(ll, entorno)
    except NoCumple:
        raise
    except Exception as e:
        suya = _lectura_suya(llamar, e, ll, entorno, desde)
        if suya == "copia":
            raise NoCumple("Con la llamada %s, la excepción sale de la copia del entorno que hace tu ejecutar fuera "
                           "del try. Con el diccionario de la lección esa copia no fallaría; lo que falla es que la "
                           "herramienta trabaje en ella." % _dicha(ll, entorno), "trabaja-en-una-copia") from None
        if suya != "lectura":
            raise _escapada(e, ll, entorno, lanzada, si_es_la_de_la_herramienta) from None
        # Una lectura suya, que no es trabajo de la herramienta: en la lección no falla. Se vuelve a probar sin el fallo.
        fallos, entorno.fallos = entorno.fallos, {}
        del entorno.registro[desde:]
        try:
            return _respuesta(llamar, ll, entorno, si_es_la_de_la_herramienta)
        finally:
            entorno.fallos = fallos
    if obs is None:
        raise NoCumple("Con la llamada %s, ejecutar ha devuelto None." % _dicha(ll, entorno), "no-contesta")
    motivo = _forma(obs, ll)
    if motivo:
        raise NoCumple("Con la llamada %s ha llegado %s, que no es su tool_result: %s."
                       % (_dicha(ll, entorno), muestra(obs), motivo), "no-es-un-tool-result")
    return obs


def _lectura_suya(llamar, e, ll, entorno, desde):
    """Si la excepción `e` es el fallo del disco y la ha lanzado una lectura del propio código de la respuesta
    que no es trabajo de la herramienta de `ll`: "copia" si copia el entorno entero (lo recorre también con una
    llamada a leer en un disco que no falla), "lectura" si lee otra cosa; si no, None. El disco falla para que
    falle la herramienta: con el diccionario de la lección, lo que lee la respuesta por su cuenta no falla."""
    fallidas = [op for op in entorno.registro[desde:] if op.fallida]
    fallo = entorno.fallos.get(fallidas[-1][:2]) if fallidas else None
    if not getattr(e, "origen", None) or fallo is None or (_tipo(e), str(e)) != (type(fallo).__name__, str(fallo)):
        return None
    prueba = Espia(entorno.ficheros)
    _llama(llamar, {"type": "tool_use", "id": "toolu_copia", "name": "leer", "input": {"ruta": min(entorno.ficheros)}}, prueba)
    if ("todo",) in trabajo(prueba.registro):
        return "copia"
    return None if de_la_llamada(fallidas[-1], ll) else "lectura"


def _dicha(ll, entorno):
    """La llamada como se escribe en los mensajes; si la prueba hace fallar el disco, lo dice."""
    fallos = getattr(entorno, "fallos", {})
    if not fallos:
        return muestra(ll)
    (op, *ruta), e = next(iter(fallos.items()))
    donde = {"lee": "al leer %r" % (ruta[:1] or [""])[0], "escribe": "al escribir %r" % (ruta[:1] or [""])[0],
             "lista": "al recorrer sus rutas"}[op]
    return "%s (en esta prueba el disco falla a propósito %s, con %s)" % (muestra(ll), donde, type(e).__name__)


def _escapada(e, ll, entorno, lanzada, si_es_la_de_la_herramienta):
    """El NoCumple de la excepción `e`, que ha salido de ejecutar con la llamada `ll`, con quién la ha lanzado."""
    que = "ejecutar ha lanzado %s: %s\n  con la llamada %s." % (_tipo(e), e, _dicha(ll, entorno))
    la_de_la_herramienta = lanzada is not None and (_tipo(e), str(e)) == (type(lanzada).__name__, str(lanzada))
    donde = getattr(e, "origen", None)  # (línea, su texto, dónde está) si la ha lanzado el código de la respuesta
    if _tipo(e) == "NotImplementedError":
        hecho = NoCumple(que, "sin-empezar")
    elif donde:  # una línea de la respuesta; también la que lee del entorno, si es el disco el que falla
        linea, codigo, sitio = donde
        hecho = NoCumple("%s La lanza tu código, en la línea %d de tu respuesta, %s:\n      %s"
                         % (que, linea, _SITIOS[sitio], codigo),
                         "lanza-otra-excepcion" if re.match(r"raise\b", codigo) else "lanza-tu-codigo")
    elif la_de_la_herramienta:
        hecho = NoCumple(que + " Es la excepción de la herramienta, y de ejecutar no debe salir ninguna.",
                         si_es_la_de_la_herramienta)
    else:
        hecho = NoCumple(que + " De ejecutar no debe salir ninguna excepción.", "lanza-otra-excepcion")
    hecho.de_la_herramienta = la_de_la_herramienta
    return hecho


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


def _no_es(ll, entorno, obs, esperada, diagnostico):
    """Lanza el NoCumple de una observación que no es la que toca. `esperada` es un bloque o una frase."""
    dicha = esperada if isinstance(esperada, str) else muestra(esperada)
    aviso = ""
    if dicha == muestra(obs):  # se escriben igual: lo que cambia es el tipo del contenido
        aviso = "\n  (se escriben igual, pero su contenido es de tipo %s, no un str)" % type(obs.get("content")).__name__
    raise NoCumple("Con la llamada %s\n  se esperaba: %s\n  ha llegado:  %s%s"
                   % (_dicha(ll, entorno), dicha, muestra(obs), aviso), diagnostico)


def _llama(llamar, ll, entorno):
    """Llama a `ejecutar` solo para ver qué hace: si deja salir una excepción, lo cuenta la cláusula de las
    excepciones, no la que llama a esta. Devuelve la observación, o None."""
    try:
        return llamar(ll, entorno)
    except NoCumple:
        raise
    except Exception:
        return None


# Por qué una observación no es la que toca: lo mismo en cada cláusula y en las conversaciones.

def _sin_trabajo(llamar, ll, disco, obs, registro):
    """La equivocación de quien contesta a una llamada que cumple su esquema sin que el entorno haya visto
    trabajar a su herramienta: trabajar en una copia (ha recorrido el entorno, o contesta lo que daría en
    otro), lo guardado de una llamada igual, o nada."""
    if any(op[0] == "lista" for op in registro):
        return "trabaja-en-una-copia"
    anteriores = getattr(llamar, "memoria", [])[:-1]
    if any(clave == (ll.get("name"), ll.get("input")) and vista_ == _sin_id(obs) for clave, vista_ in anteriores):
        return "respuesta-guardada"
    # Lo guardado de antes de esta revisión (una caché que sigue ahí al repetir revisar): con una llamada que
    # no ha visto nunca, el entorno sí ve trabajar a la herramienta.
    nueva = "sonda/%d.txt" % next(_SONDAS)
    sonda = Espia(dict(disco[0], **{nueva: "x"}))
    _llama(llamar, {"type": "tool_use", "id": "toolu_sonda", "name": "leer", "input": {"ruta": nueva}}, sonda)
    if ("lee", nueva) in sonda.registro:
        return "respuesta-guardada"
    sale, devuelto = _lo_que_da(ll, (disco[0], {}))
    if sale and type(obs) is dict and obs.get("content") == devuelto:
        return "trabaja-en-una-copia"
    return "contesta-sin-ejecutar"


_SONDAS = itertools.count()


def _sin_id(obs):
    return {k: v for k, v in obs.items() if k != "tool_use_id"} if type(obs) is dict else obs


def _que_falla_el_esquema(ll, obs, registro, disco):
    """La equivocación de una llamada que no cumple su esquema y no recibe su error exacto."""
    hecho = [op for op in registro if op[0] != "cuenta"]
    if hecho:  # la respuesta ha hecho algo en el entorno: la llamada tal cual u otra
        return "ejecuta-sin-esquema" if all(de_la_llamada(op, ll) for op in hecho) else "arregla-la-llamada"
    motivo, c = incumple(ll), obs["content"]
    lanzada = _lo_que_da(ll, disco)[1]
    if obs["is_error"] is False:
        return "esquema-como-resultado"
    if type(c) is not str:
        return "contenido-no-es-texto"
    if c == motivo:
        return "motivo-sin-prefijo"
    if lanzada is not None and str(lanzada) and str(lanzada) in c:  # lo que dice la herramienta al ejecutarla así
        return "ejecuta-sin-esquema"
    return "motivo-cambiado"


def _que_falla_el_error(obs, e):
    """La equivocación de un error de ejecución que no cumple el contrato."""
    c = obs["content"]
    return ("error-como-resultado" if obs["is_error"] is False else
            "contenido-no-es-texto" if type(c) is not str else
            "contenido-vacio" if c == "" else
            "no-se-ha-ejecutado-al-fallar" if "no se ha ejecutado" in c else
            "no-dice-el-tipo" if not str(e) else
            "mensaje-cambiado")


def _juzga(llamar, ll, obs, disco, registro):
    """La equivocación de una observación que no es la que toca para `ll` (la hecha en `disco`, con lo que
    el entorno ha apuntado en `registro`), o None si no se reconoce."""
    clase = _clase(ll, disco)
    if clase == "esquema":
        return _que_falla_el_esquema(ll, obs, registro, disco)
    n = veces(registro, ll)
    if n == 0:
        return _sin_trabajo(llamar, ll, disco, obs, registro)
    if n > 1:
        return "reintenta" if clase == "ejecucion" else "ejecuta-dos-veces"
    if [h for h in otro_trabajo(registro, ll) if h[0] != "lista"]:
        return "arregla-la-llamada"
    if clase == "ejecucion":
        return _que_falla_el_error(obs, _lo_que_da(ll, disco)[1])
    return "exito-como-error" if obs["is_error"] else "resultado-cambiado"


def _contesta_sin_ejecutar(llamar, ll, disco, obs, registro):
    d = _sin_trabajo(llamar, ll, disco, obs, registro)
    que = {"respuesta-guardada": "ha contestado con lo mismo que a una llamada igual de antes",
           "trabaja-en-una-copia": "la herramienta ha trabajado en otra parte (¿una copia del entorno?)"}.get(d, "")
    raise NoCumple("Con la llamada %s, que cumple su esquema, el entorno no ha visto trabajar a su herramienta%s."
                   % (muestra(ll), ": " + que if que else ""), d)


def _cada_caso(clausula, casos, probar_uno):
    """Prueba cada caso con `probar_uno(*caso)`. Si alguno no se cumple, lanza el NoCumple de la equivocación
    que resta aquí (la de esta cláusula, una sin casa o una sin nombre) antes que el de una que resta en otra."""
    fallos = []
    for caso in casos:
        try:
            probar_uno(*caso)
        except NoCumple as e:
            if e.comun:
                raise
            fallos.append(e)
    if fallos:
        raise min(fallos, key=lambda e: e.diagnostico is not None and DIAGNOSTICOS[e.diagnostico].casa not in (None, clausula))


# Las cláusulas. Cada una recibe `llamar(llamada, entorno)` y sus casos, (llamada, disco); si se cumple,
# devuelve la frase de ✔.

def contesta(llamar, casos):
    """Cada llamada recibe un tool_result con su id: también si no cumple el esquema o si la herramienta falla."""
    for ll, disco in casos:
        entorno = Espia(*disco)
        try:
            obs = _respuesta(llamar, ll, entorno)
            if _clase(ll, disco) == "exito" and not veces(entorno.registro, ll):
                _contesta_sin_ejecutar(llamar, ll, disco, obs, entorno.registro)
        except NoCumple as e:
            if e.diagnostico in ("trabaja-en-una-copia", "respuesta-guardada"):  # contesta; resta en su casa
                continue
            raise _solo_la_traza(llamar, ll, disco, e) from None
    return "contesta a cada llamada con un tool_result con su id, también cuando falla"


def _solo_la_traza(llamar, ll, disco, sin_respuesta):
    """Si una llamada que falla se queda sin su observación pero la de la traza del salmorejo que falla igual
    (t1 por el esquema, t2 al ejecutarse) sí la tiene: la respuesta solo sabe contestar a esas."""
    clase = _clase(ll, disco)
    # Sale la excepción de la herramienta: al ejecutarse (no la de una línea de la respuesta que lee el
    # entorno, como una copia), o al llamarla con los argumentos de una llamada que no cumple su esquema.
    escapada = (sin_respuesta.diagnostico == "lanza-al-fallar" if clase == "ejecucion" else
                getattr(sin_respuesta, "de_la_herramienta", False) if clase == "esquema" else False)
    if sin_respuesta.comun or not escapada:
        return sin_respuesta
    traza, esperada = (_TRAZA[0][1], _VISTO[0][0]) if clase == "esquema" else (_TRAZA[1][0], _VISTO[1][0])
    try:
        obs = llamar(copy.deepcopy(traza), Espia())
    except NoCumple:
        raise
    except Exception:
        return sin_respuesta
    bien = _forma(obs, traza) is None and (
        obs == esperada or (clase == "ejecucion" and cuenta_el_fallo(obs, _lo_que_da(traza, Disco(ENTORNO))[1])))
    if not bien:
        return sin_respuesta
    return NoCumple("%s\nEn cambio, a %s, de la traza del salmorejo, contesta bien." % (sin_respuesta.motivo, muestra(traza)),
                    "solo-la-traza")


def avisa(llamar, casos):
    """is_error separa lo que falla de lo que sale bien: las dos clases de fallo vuelven como error que dice qué ha pasado, y lo que sale bien, como resultado."""
    bien = set()
    for ll, disco in casos:
        try:
            obs = llamar(ll, Espia(*disco))
        except NoCumple as e:
            if not e.diagnostico:  # no se ha podido probar (se ha acabado el tiempo de todas): que se diga eso
                raise
            continue  # no contesta a esta: aquí solo se busca la que sí avise
        except Exception:
            continue
        clase, lanzada = _clase(ll, disco), _lo_que_da(ll, disco)[1]
        es_error = type(obs) is dict and obs.get("is_error")
        dice = _texto(obs.get("content")) if es_error is True else None
        if clase == "exito":
            ok = es_error is False
        elif clase == "esquema":  # el motivo, o lo que dice la herramienta si la ha ejecutado así
            ok = dice is not None and any(t and t in dice for t in (incumple(ll), str(lanzada)))
        else:
            ok = _cuenta(dice, lanzada)
        if ok:
            bien.add(clase)
    callados = [f for f in _FALLOS if f not in bien]
    if callados:
        probadas = [_dicha(ll, Espia(*disco)) for ll, disco in casos if _clase(ll, disco) in callados]
        raise NoCumple("Ninguna %s vuelve como un error que diga qué ha pasado. Probadas: %s."
                       % (" ni ninguna ".join(_FALLOS[f] for f in callados), "; ".join(probadas)), "nunca-avisa")
    if "exito" not in bien:
        probadas = [muestra(ll) for ll, disco in casos if _clase(ll, disco) == "exito"]
        raise NoCumple("Ninguna llamada que sale bien vuelve como resultado, con is_error a False. Probadas: %s."
                       % "; ".join(probadas), "todo-es-error")
    return "las dos clases de fallo vuelven como error y dicen qué ha pasado; lo que sale bien, como resultado"


_FALLOS = {"esquema": "llamada que no cumple su esquema", "ejecucion": "llamada cuya herramienta lanza una excepción"}


def _texto(contenido):
    """Lo que se lee en un contenido: el texto, el de sus bloques de texto o, si es otra cosa, su repr. (Que
    diga qué ha pasado es la idea de la lección; que sea un texto, lo mira la cláusula de cada fallo.)"""
    if isinstance(contenido, str):
        return contenido
    if isinstance(contenido, list):
        return " ".join(_texto(b.get("text")) if isinstance(b, dict) else _texto(b) for b in contenido)
    return repr(contenido)


def esquema(llamar, casos):
    """Una llamada que no cumple su esquema no se ejecuta, y su error dice «no se ha ejecutado: » y el motivo."""
    def uno(ll, disco):
        entorno = Espia(*disco)
        obs = _respuesta(llamar, ll, entorno)
        motivo = incumple(ll)
        hecho = trabajo(entorno.registro)
        if hecho:
            if not all(de_la_llamada(op, ll) or op == ("todo",) for op in hecho):
                return  # ha ejecutado otra llamada, la que cree que quería el modelo: eso lo mira sin_arreglos
            raise NoCumple("La llamada %s no cumple su esquema (%s) y se ha ejecutado." % (muestra(ll), motivo),
                           "ejecuta-sin-esquema")
        esperada = error(ll["id"], "no se ha ejecutado: " + motivo)
        if obs != esperada or type(obs["content"]) is not str:
            _no_es(ll, entorno, obs, esperada, _que_falla_el_esquema(ll, obs, entorno.registro, disco))
    _cada_caso("esquema", casos, uno)
    return "las llamadas que no cumplen su esquema no se ejecutan y dicen por qué"


def excepciones(llamar, casos):
    """Si la herramienta lanza, del tipo que sea, la observación es un error con su mensaje (o su tipo, si no tiene mensaje)."""
    def uno(ll, disco):
        entorno = Espia(*disco)
        lanzada = _lo_que_da(ll, disco)[1]
        obs = _respuesta(llamar, ll, entorno, "captura-solo-un-tipo")
        if not cuenta_el_fallo(obs, lanzada):
            d = (_sin_trabajo(llamar, ll, disco, obs, entorno.registro) if not veces(entorno.registro, ll) else
                 _que_falla_el_error(obs, lanzada))
            _no_es(ll, entorno, obs, _como_error(lanzada), d)
    _cada_caso("excepciones", casos, uno)
    return "cualquier excepción de la herramienta vuelve como error y dice qué ha pasado"


def una_vez(llamar, casos):
    """La herramienta de una llamada que cumple su esquema se ejecuta, y una vez como mucho: repetirla es cosa del modelo."""
    def uno(ll, disco):
        entorno = Espia(*disco)
        obs = _llama(llamar, ll, entorno)
        n = veces(entorno.registro, ll)
        if n == 0:
            _contesta_sin_ejecutar(llamar, ll, disco, obs, entorno.registro)
        if n > 1:
            falla = _clase(ll, disco) == "ejecucion"
            raise NoCumple("Con la llamada %s la herramienta se ha ejecutado %d veces, y se ejecuta una vez como "
                           "mucho." % (_dicha(ll, entorno), n), "reintenta" if falla else "ejecuta-dos-veces")
    _cada_caso("una-vez", casos, uno)
    return "la herramienta se ejecuta una vez como mucho: repetirla es cosa del modelo"


def sin_arreglos(llamar, casos):
    """Se ejecuta la llamada que ha hecho el modelo, tal cual, o ninguna: ejecutar no la arregla ni la cambia."""
    def uno(ll, disco):
        antes, entorno = copy.deepcopy(ll), Espia(*disco)
        _llama(llamar, ll, entorno)
        despues = getattr(llamar, "cambiada", None) or ll  # con repasar, ejecutar recibe una copia
        if despues != antes:
            raise NoCumple("Con la llamada %s, ejecutar ha cambiado el diccionario de la llamada: %s."
                           % (muestra(antes), _cambio(antes, despues)), "cambia-la-llamada")
        otras = sorted((h for h in otro_trabajo(entorno.registro, ll) if h[0] != "lista"
                        and not (incumple(ll) and de_la_llamada(h, ll))), key=lambda h: h[0] != "escribe")
        if otras:
            raise NoCumple("Con la llamada %s, ejecutar ha hecho otra cosa: %s, que no es lo que pedía el modelo."
                           % (muestra(ll), _HECHO[otras[0][0]] % otras[0][1:]), "arregla-la-llamada")
    _cada_caso("sin-arreglos", casos, uno)
    return "cada llamada se ejecuta tal como llega, sin arreglarla ni cambiarla"


_HECHO = {"lee": "leer %r", "escribe": "escribir en %r el texto %r", "borra": "borrar %r"}


def _cambio(antes, ahora, donde="la llamada"):
    """El primer cambio de un diccionario, en palabras: «ha añadido a la llamada la clave 'x'»…"""
    if not (type(antes) is type(ahora) is dict):
        return "%s era %r y ahora es %r" % (donde, antes, ahora)
    for clave in antes:
        if clave not in ahora:
            return "ha quitado de %s la clave %r" % (donde, clave)
    for clave in ahora:
        if clave not in antes:
            return "ha añadido a %s la clave %r, con %r" % (donde, clave, ahora[clave])
    clave = next(c for c in antes if antes[c] != ahora[c])
    return _cambio(antes[clave], ahora[clave], "%s[%r]" % ("llamada" if donde == "la llamada" else donde, clave))


def resultados(llamar, casos):
    """Si la herramienta devuelve algo, la observación es resultado(id, eso), tal cual."""
    def uno(ll, disco):
        entorno = Espia(*disco)
        devuelto = _lo_que_da(ll, disco)[1]
        obs = _respuesta(llamar, ll, entorno)
        esperada = resultado(ll["id"], devuelto)
        if obs != esperada or type(obs["content"]) is not str:
            d = (_sin_trabajo(llamar, ll, disco, obs, entorno.registro) if not veces(entorno.registro, ll) else
                 "exito-como-error" if obs["is_error"] else "resultado-cambiado")
            _no_es(ll, entorno, obs, esperada, d)
    _cada_caso("resultados", casos, uno)
    return "lo que devuelve una herramienta llega tal cual, con is_error a False"


def escrituras(llamar, casos):
    """La herramienta trabaja en el entorno que recibe ejecutar: lo que escribe se queda ahí."""
    entorno = Espia(*casos[0][1])

    def uno(ll, _):
        disco, desde = entorno.disco(), len(entorno.registro)
        obs = _respuesta(llamar, ll, entorno)
        ruta, contenido = ll["input"]["ruta"], ll["input"]["contenido"]
        if not veces(entorno.registro[desde:], ll) or entorno.ficheros.get(ruta) != contenido:
            d = _sin_trabajo(llamar, ll, disco, obs, entorno.registro[desde:])
            raise NoCumple("Tras %s el fichero %s debería contener %r, y contiene %s." % (
                muestra(ll), ruta, contenido, "%r" % entorno.ficheros[ruta] if ruta in entorno.ficheros else
                "nada: no existe"), d)
    _cada_caso("escrituras", casos, uno)
    return "lo que escribe escribir queda en el entorno que recibe ejecutar"


def conversaciones(llamar, casos, arregladas=()):
    """Cada conversación, pasada por el bucle con `ejecutar`, es la que espera su guion, y deja los ficheros esperados.

    Con `arregladas` (nombres de cláusulas), las llamadas de las que tratan esas cláusulas reciben la
    observación que espera el guion, como si sus equivocaciones estuvieran arregladas.
    """
    def una(inicio, respuestas, visto, tope, final, ficheros, *disco):
        entorno = Espia(*(disco[0] if disco else Disco(ENTORNO)))
        modelo = ModeloGuionizado(guion_de(inicio, respuestas, visto))
        pregunta = inicio[-1][1]
        contestar = _en_conversacion(llamar, arregladas, visto)
        try:
            como, texto_final, _ = bucle(modelo, inicio, entorno, tope, contestar)
        except FueraDelGuion as e:
            raise NoCumple("En la conversación %r el modelo guionizado ha recibido lo que no esperaba, en el %s"
                           % (pregunta, e), contestar.equivocacion) from None
        except NoCumple as e:
            if e.comun:
                raise
            raise NoCumple("En la conversación %r: %s" % (pregunta, e.motivo), e.diagnostico) from None
        if (como, texto_final) != final:
            raise NoCumple("La conversación %r debería acabar en %r y acaba en %r" % (pregunta, final, (como, texto_final)),
                           contestar.equivocacion)
        cambiados = sorted(r for r in set(entorno.ficheros) | set(ficheros) if entorno.ficheros.get(r) != ficheros.get(r))
        if cambiados:
            raise NoCumple("Tras la conversación %r los ficheros no son los esperados: %s" % (pregunta, ", ".join(cambiados)),
                           contestar.equivocacion)
    _cada_caso(None, casos, una)


def _en_conversacion(llamar, arregladas, visto):
    """`llamar` dentro del bucle. Un error de ejecución que dice lo que ha pasado de otra manera de las que
    admite el contrato le llega al modelo como lo espera su guion. Las llamadas de las cláusulas `arregladas`
    reciben la observación del guion, y su herramienta corre una vez. Apunta en `equivocacion` la de la
    primera observación que no es la que espera el guion."""
    esperadas = {obs["tool_use_id"]: obs for mensaje in visto if mensaje for obs in mensaje}

    def contestar(ll, entorno):
        disco, desde = entorno.disco(), len(entorno.registro)
        esperada = esperadas.get(ll["id"])
        if esperada is not None and any(SOBRE[c](ll, disco) for c in arregladas):
            if incumple(ll) is None:
                try:
                    FUNCIONES[ll["name"]](vista(entorno), **ll["input"])
                except Exception:
                    pass
            return esperada
        obs = _respuesta(llamar, ll, entorno)
        cambiada = getattr(llamar, "cambiada", None)  # ejecutar recibe una copia (repasar): lo que haya hecho con ella
        if esperada is not None and obs != esperada:
            if _clase(ll, disco) == "ejecucion" and cuenta_el_fallo(obs, _lo_que_da(ll, disco)[1]):
                obs = esperada
            elif contestar.equivocacion is None:
                contestar.equivocacion = _juzga(llamar, ll, obs, disco, entorno.registro[desde:])
        if cambiada is not None and "sin-arreglos" not in arregladas:  # el modelo ve la llamada como la ha dejado
            ll.clear()
            ll.update(cambiada)
        return obs
    contestar.equivocacion = None
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
REGLA = {"contesta": "Regla 1", "avisa": "Reglas 2, 3 y 4", "salmorejo": "Conversación entera", "esquema": "Regla 2",
         "excepciones": "Regla 3", "una-vez": "Regla 5", "sin-arreglos": "Regla 6", "resultados": "Regla 4",
         "escrituras": "Regla 6", "guiones": "Conversaciones enteras"}

# De qué llamadas trata cada cláusula (en un disco): en ellas se nota su equivocación.
SOBRE = {
    "esquema": lambda ll, disco: _clase(ll, disco) == "esquema",
    "excepciones": lambda ll, disco: _clase(ll, disco) == "ejecucion",
    "una-vez": lambda ll, disco: _clase(ll, disco) != "esquema",
    "sin-arreglos": lambda ll, disco: _clase(ll, disco) != "exito",
    "resultados": lambda ll, disco: _clase(ll, disco) == "exito",
    "escrituras": lambda ll, disco: _clase(ll, disco) != "esquema",
}
