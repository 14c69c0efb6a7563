"""Las comprobaciones al momento de la lección: los tres ejercicios y las pruebas visibles del desafío.

Las de los ejercicios imprimen ✔ o lo primero que falla, y de ellas no sale ninguna excepción: con
un ejercicio a medias, «Ejecutar todas las celdas» sigue hasta el final. Las del desafío sí paran,
pero cuentan en pocas líneas qué ha pasado, sin la traza por dentro de `bucle`.
"""

import contextlib
import inspect
import traceback
import unicodedata

from ..bloques import error, llamada, muestra, resultado
from ..entorno import ENTORNO, FUNCIONES, HERRAMIENTAS, incumple
from ..guionizado import FueraDelGuion, ModeloGuionizado, guion_de
from ..salmorejo import INICIO, RESPUESTAS, VISTO


# Ejercicio 1: el mensaje que contesta a un turno de la conversación del salmorejo

def comprobar_contestacion(n, mensaje):
    """Compara `mensaje` con el que espera el guion del salmorejo tras el turno `n` (1, 2 o 3) e imprime el veredicto."""
    if n not in (1, 2, 3):
        print("✘ Solo los turnos 1, 2 y 3 tienen llamadas que contestar; has pedido el turno %r." % (n,))
        return
    print(_contestacion(n, mensaje))


def _contestacion(n, mensaje):
    llamadas = [b for b in RESPUESTAS[n - 1] if b["type"] == "tool_use"]
    esperado = VISTO[n - 1]
    if isinstance(mensaje, tuple) and len(mensaje) == 2 and isinstance(mensaje[1], list):
        return ("✘ Aquí va solo la lista de bloques, sin el par (%r, …) que la envuelve en la conversación: "
                "escribe [bloque, bloque]." % (mensaje[0],))
    if not isinstance(mensaje, list):
        return "✘ Aquí va la lista de bloques del mensaje, uno por llamada, y has escrito %r." % (mensaje,)
    if not mensaje or all(b is Ellipsis for b in mensaje):
        return "✘ Aún no has escrito nada: cambia cada ... por un bloque hecho con error(...) o con resultado(...)."
    if len(mensaje) != len(llamadas):
        return ("✘ El turno %d tiene %s (%s) y tu mensaje, %s. Cada llamada recibe su observación, y todas van "
                "en este mismo mensaje." % (n, _cuantas(len(llamadas), "llamada"), ", ".join(ll["id"] for ll in llamadas),
                                            _cuantas(len(mensaje), "bloque")))
    for k, (bloque, ll, bueno) in enumerate(zip(mensaje, llamadas, esperado), start=1):
        pega = _pega(k, bloque, ll, bueno)
        if pega:
            return "✘ " + pega
    # Lo último lo decide el propio modelo guionizado, ya en su turno n + 1: la conversación que espera
    # entonces acaba en lo que debe contestar el harness; en su lugar le llega `mensaje`.
    guion = guion_de(INICIO, RESPUESTAS, VISTO)
    M = guion[n][0][:-1] + [("usuario", mensaje)]
    try:
        siguiente = ModeloGuionizado(guion[n:])(M, HERRAMIENTAS)
    except FueraDelGuion as queja:
        return "✘ El modelo guionizado no lo acepta:\n  " + str(queja).replace("\n", "\n  ")
    return ("✔ Es el mensaje que espera el guion tras el turno %d. El modelo guionizado lo acepta y sigue con su "
            "turno %d: %s" % (n, n + 1, " | ".join(muestra(b) for b in siguiente)))


def _pega(k, bloque, ll, bueno):
    """Lo primero que no encaja en el bloque `k` del mensaje, que contesta a la llamada `ll`; None si nada."""
    if bloque is Ellipsis:
        return "Te falta el bloque %d, el de %s: cambia sus ... por error(...) o por resultado(...)." % (k, ll["id"])
    if isinstance(bloque, list):
        return ("El bloque %d es una lista: todas las observaciones van juntas en una sola lista, un bloque por "
                "llamada, sin listas dentro." % k)
    if not (isinstance(bloque, dict) and bloque.get("type") == "tool_result"):
        return ("El bloque %d, %s, no es una observación: hazlo con error(id, contenido) o con "
                "resultado(id, contenido)." % (k, muestra(bloque)))
    if bloque.get("tool_use_id") != ll["id"]:
        return ("El bloque %d contesta a %r, y debe contestar a %r, la %s llamada del turno: las observaciones van "
                "en el orden de las llamadas, cada una con su id." % (k, bloque.get("tool_use_id"), ll["id"], _ORDEN[k - 1]))
    if bloque.get("is_error") is not bueno["is_error"]:
        if bueno["is_error"]:
            return "La llamada %s ha fallado: su observación se hace con error, no con resultado." % muestra(ll)
        return "La llamada %s ha salido bien: su observación se hace con resultado, no con error." % muestra(ll)
    if bloque.get("content") != bueno["content"]:
        if not bueno["is_error"]:
            regla = "el contenido es lo que devuelve la herramienta, tal cual"
        elif bueno["content"].startswith("no se ha ejecutado: "):
            regla = "la llamada no cumple su esquema: el contenido es «no se ha ejecutado: » y el motivo que da incumple"
        elif str(bloque.get("content")).startswith("no se ha ejecutado: "):
            regla = ("«no se ha ejecutado: » es solo para las llamadas que no cumplen su esquema, y esta lo cumple: se ha "
                     "ejecutado, y su herramienta ha lanzado una excepción. El contenido es el mensaje de la excepción, "
                     "tal cual")
        else:
            regla = "la herramienta ha lanzado una excepción: el contenido es su mensaje, tal cual (el del experimento)"
        return "El contenido de la observación de %s no es el que toca: %s. Has escrito %r." % (
            ll["id"], regla, bloque.get("content"))
    return None


_ORDEN = ("primera", "segunda", "tercera")


def _cuantas(n, cosa):
    return "%d %s%s" % (n, cosa, "" if n == 1 else "s")


# Ejercicio 2: qué clase de fallo tiene cada llamada

A_CLASIFICAR = [
    llamada("c1", "escribir", ruta="notas/menu.txt"),
    llamada("c2", "leer", ruta="recetas/paella.txt"),
    llamada("c3", "listar", carpeta="postres/"),
    llamada("c4", "buscar", patron=["ajo"]),
    llamada("c5", "escribir", ruta="notas/menu.txt", contenido="gazpacho"),
]
CLASES = ("esquema", "excepción", "bien")


def clase_de(ll):
    """Lo que le pasa a la llamada `ll` en una copia de ENTORNO: (clase, el motivo, la excepción o lo devuelto)."""
    motivo = incumple(ll)
    if motivo is not None:
        return "esquema", motivo
    try:
        return "bien", FUNCIONES[ll["name"]](dict(ENTORNO), **ll["input"])
    except Exception as e:
        return "excepción", e


def comprobar_clases(clases):
    """Compara `clases` ({id: "esquema", "excepción" o "bien"}) con lo que les pasa a las llamadas de
    A_CLASIFICAR e imprime una línea por llamada."""
    if not isinstance(clases, dict):
        print("✘ Aquí va un diccionario, de cada id a su clase, y has escrito %r." % (clases,))
        return
    if all(clases.get(ll["id"], ...) is Ellipsis for ll in A_CLASIFICAR):
        print("✘ Aún no has clasificado ninguna: cambia cada ... por \"esquema\", \"excepción\" o \"bien\".")
        return
    aciertos = 0
    for ll in A_CLASIFICAR:
        clase, detalle = clase_de(ll)
        dicha = clases.get(ll["id"], ...)
        if dicha is Ellipsis:
            print("✘ %s: aún sin contestar." % muestra(ll))
        elif not isinstance(dicha, str) or _sin_tildes(dicha) not in [_sin_tildes(c) for c in CLASES]:
            print("✘ %s: %r no es ninguna de las tres: escribe \"esquema\", \"excepción\" o \"bien\"." % (muestra(ll), dicha))
        elif _sin_tildes(dicha) == _sin_tildes(clase):
            aciertos += 1
            print("✔ %s: %s. %s" % (muestra(ll), clase, _lo_que_pasa(clase, detalle)))
        else:
            print("✘ %s: has escrito «%s», y es «%s». %s" % (muestra(ll), dicha.strip(), clase,
                                                           _lo_que_pasa(clase, detalle)))
    print("\n%s" % ("Las %d, bien clasificadas." % aciertos if aciertos == len(A_CLASIFICAR) else
                    "Aciertas %d de %d." % (aciertos, len(A_CLASIFICAR))))


def _sin_tildes(texto):
    return unicodedata.normalize("NFKD", texto.strip().lower()).encode("ascii", "ignore").decode()


def _lo_que_pasa(clase, detalle):
    if clase == "esquema":
        return "No cumple su esquema y no se ejecuta; incumple dice: %s." % detalle
    if clase == "excepción":
        return "Cumple su esquema, se ejecuta y su función lanza %s: %s." % (type(detalle).__name__, detalle)
    return "Cumple su esquema, se ejecuta y su función devuelve %r: no es un fallo." % (detalle,)


# Ejercicio 3: el criterio para repetir una llamada, en código

# (qué ha pasado, la observación, si la llamada es idempotente, si se puede repetir sin riesgo)
CASOS_DEL_CRITERIO = [
    ("añadir con un campo que falta", error("a1", "no se ha ejecutado: falta el campo 'contenido'"), False, True),
    ("añadir_y_fallar, que escribió y después lanzó", error("a2", "el disco no ha confirmado la escritura en lista.txt"),
     False, False),
    ("añadir, que salió bien", resultado("a3", "lista.txt: 9 caracteres más (ahora tiene 28)"), False, False),
    ("leer un fichero que no existe", error("l1", "no existe el fichero 'recetas/salmorejo.txt'"), True, True),
    ("escribir, que salió bien", resultado("e1", "se han escrito 28 caracteres en lista.txt"), True, True),
    # Un éxito cuyo texto empieza como un error de esquema: solo is_error lo distingue.
    ("sacar, que salió bien: la línea que ha sacado de avisos.txt empieza por «no se ha ejecutado: »",
     resultado("s1", "no se ha ejecutado: la copia de seguridad del lunes"), False, False),
]


def comprobar_criterio(puede_repetirse):
    """Prueba `puede_repetirse(observacion, idempotente)` con los casos de la lección e imprime una línea por caso."""
    aciertos = 0
    for que, observacion, idempotente, bueno in CASOS_DEL_CRITERIO:
        try:
            dice = puede_repetirse(observacion, idempotente)
        except Exception as e:
            print("✘ %s: tu función ha lanzado %s: %s" % (que, type(e).__name__, e))
            continue
        if dice is None:
            print("✘ Tu función aún devuelve None: escribe el criterio con un return que dé True o False.")
            return
        if bool(dice) is bueno:
            aciertos += 1
            print("✔ %s: %s" % (que, "se puede repetir" if bueno else "no se puede repetir sin riesgo"))
        else:
            print("✘ %s: tu función dice que %s, pero %s: %s." % (
                que, "se puede repetir" if dice else "no se puede repetir", "sí se puede" if bueno else "no es seguro",
                _por_que(observacion, idempotente, bueno)))
    if aciertos == len(CASOS_DEL_CRITERIO):
        print("\nTu función acierta los %d casos." % aciertos)
    else:
        print("\nAciertas %d de %d casos." % (aciertos, len(CASOS_DEL_CRITERIO)))


def _por_que(observacion, idempotente, bueno):
    if idempotente:
        return ("esta llamada deja lo mismo la encuentre como la encuentre, así que repetirla no cambia lo que "
                "quede, haya hecho lo que haya hecho el primer intento")
    if bueno:
        return "«no se ha ejecutado: » asegura que la función no llegó a ejecutarse, así que no hay nada que duplicar"
    if not observacion["is_error"] and str(observacion["content"]).startswith("no se ha ejecutado: "):
        return ("es un resultado (is_error a False): la función se ha ejecutado, y su texto es lo que ha devuelto, "
                "aunque empiece como un error de esquema. Mira is_error antes que el texto")
    if observacion["is_error"]:
        return "el error salió durante la ejecución, y la función pudo dejar hecho su trabajo antes de fallar"
    return "la llamada ya ha hecho su trabajo, y repetirla lo haría otra vez"


# Después del desafío: una función de la lección que no es del entorno, como herramienta por un momento

@contextlib.contextmanager
def como_herramienta(funcion):
    """Mientras dura el `with`, `funcion` es una herramienta más: su esquema (los campos de su firma, de
    texto) está en HERRAMIENTAS y ella en FUNCIONES, así que `incumple` la acepta y `ejecutar` la encuentra."""
    campos = list(inspect.signature(funcion).parameters)[1:]  # el primero es el entorno
    esquema = {"name": funcion.__name__, "description": inspect.getdoc(funcion) or funcion.__name__,
               "input_schema": {"type": "object", "properties": {c: {"type": "string"} for c in campos},
                                "required": campos}}
    HERRAMIENTAS.append(esquema)
    FUNCIONES[funcion.__name__] = funcion
    try:
        yield
    finally:
        HERRAMIENTAS.remove(esquema)
        FUNCIONES.pop(funcion.__name__, None)


# Las pruebas visibles del desafío

class NoPasa(AssertionError):
    """Una prueba visible que no pasa. IPython la enseña en pocas líneas, sin traza."""

    def _render_traceback_(self):
        return ["\x1b[0;31m✘ No pasa:\x1b[0m " + str(self).replace("\n", "\n  ")]


class Escapada(NoPasa):
    """Una excepción que ha salido de `ejecutar`."""


class NoTermina(NoPasa):
    """Una llamada a `ejecutar` que no ha terminado en su tiempo."""


def en_prueba(ejecutar):
    """`ejecutar` en una prueba: cada llamada tiene el tope de tiempo de `revisar` (si no termina, NoTermina), y
    si deja salir una excepción, lanza Escapada: cuál, con qué llamada y dónde. Un error que dice lo que ha
    lanzado la herramienta de otra manera que admite el contrato (con su tipo delante, con repr) le llega al
    modelo guionizado como lo tiene su guion, error(id, str(e))."""
    from ..revision import SEGUNDOS, cuenta_el_fallo
    from ..revision.vigilancia import Agotado, en_segundos, tope

    def a_prueba(llamada, entorno):
        lanzada = _lo_que_lanza(llamada, entorno)
        try:
            with tope(SEGUNDOS):
                obs = ejecutar(llamada, entorno)
        except Agotado:
            raise NoTermina("tu ejecutar no ha terminado en %s con la llamada %s.\n¿Repite la llamada que falla? "
                            "Cada llamada tiene %s, como en revisar y al corregir, y la herramienta se ejecuta una "
                            "vez como mucho: repetir es cosa del modelo."
                            % (en_segundos(SEGUNDOS), muestra(llamada), en_segundos(SEGUNDOS))) from None
        except Exception as e:
            raise Escapada(_escapada(e, llamada, ejecutar)) from e
        if lanzada is not None and obs != error(llamada["id"], str(lanzada)) and cuenta_el_fallo(obs, lanzada):
            return error(llamada["id"], str(lanzada) or type(lanzada).__name__)
        return obs
    return a_prueba


def _lo_que_lanza(llamada, entorno):
    """La excepción que lanzaría la herramienta de `llamada` en una copia de `entorno`, si cumple su esquema; o None."""
    if incumple(llamada) is not None:
        return None
    try:
        FUNCIONES[llamada["name"]](dict(entorno), **llamada["input"])
    except Exception as e:
        return e
    return None


def _escapada(e, llamada, ejecutar):
    if isinstance(e, NotImplementedError):
        return ("tu ejecutar aún está sin escribir: con la llamada %s lanza NotImplementedError. Escribe tu parte "
                "en la celda del desafío, en lugar de la línea del raise." % muestra(llamada))
    return ("tu ejecutar ha dejado salir %s: %s\ncon la llamada %s%s.\nDe ejecutar no sale ninguna excepción: lo que "
            "falla vuelve como error(id, str(e))." % (type(e).__name__, e, muestra(llamada), _donde(e, ejecutar)))


def _donde(e, ejecutar):
    """En qué línea de la celda de `ejecutar` ha salido `e`, si se sabe."""
    celda = getattr(getattr(ejecutar, "__code__", None), "co_filename", None)
    suyas = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == celda and f.line]
    return ", en la línea %d de tu celda: %s" % (suyas[-1].lineno, suyas[-1].line) if suyas else ""
