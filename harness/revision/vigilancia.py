"""Cómo se vigila `ejecutar` mientras se prueba: qué herramientas corre, con qué y en qué entorno,
y que no tarde más de la cuenta.

Mientras se prueba una llamada, las cuatro funciones de `FUNCIONES` se cambian por otras que lo
apuntan antes de hacer lo mismo. Mirar el entorno (`ruta in entorno`) no es ejecutar una
herramienta; llamar a su función, sí.
"""

import ast
import contextlib
import functools
import gc
import inspect
import io
import linecache
import signal
import sys
import traceback

from ..bloques import muestra
from ..entorno import ENTORNO, FUNCIONES
from .diagnosticos import NoCumple

SEGUNDOS = 2  # para una llamada (las de la lección tardan milésimas); el corrector usa esta (course/limites.py)
REALES = dict(FUNCIONES)  # las herramientas de verdad, sin vigilar
APLAZAR = 200  # alarmas que se dejan pasar porque caen dentro de un aviso del recolector (_tope)


class Espia(dict):
    """Un entorno que apunta cada herramienta que corre con él, y que puede hacerla fallar con `fallo`."""

    def __init__(self, ficheros=ENTORNO, fallo=None):
        super().__init__(ficheros)
        self.ejecuciones = []  # (nombre, argumentos, si se ejecutó en este entorno y no en otro)
        self.fallo = fallo

    def corre(self, nombre, argumentos, en_este):
        self.ejecuciones.append((nombre, argumentos, en_este))
        if self.fallo is not None:
            raise self.fallo


def vigilar(espacios, aviso):
    """Cambia las cuatro herramientas, en FUNCIONES, en harness y en `espacios`, por unas que llaman
    antes a `aviso(nombre, argumentos, entorno)`. Devuelve la función que lo deshace."""
    sitios = [FUNCIONES, *(vars(m) for n, m in list(sys.modules.items()) if n == "harness" or n.startswith("harness.")),
              *espacios]
    cambios = []
    for sitio in sitios:
        for nombre, original in REALES.items():
            if sitio.get(nombre) is original:
                cambios.append((sitio, nombre, original))
                sitio[nombre] = _avisa(original, aviso)

    def deshacer():
        for sitio, nombre, original in cambios:
            sitio[nombre] = original
    return deshacer


def _avisa(herramienta, aviso):
    firma = inspect.signature(herramienta)

    @functools.wraps(herramienta)
    def vigilada(*args, **kwargs):
        try:
            argumentos = dict(firma.bind(*args, **kwargs).arguments)
        except TypeError:  # con esos argumentos no llega a correr: lanza el TypeError de siempre
            return herramienta(*args, **kwargs)
        aviso(herramienta.__name__, argumentos, argumentos.pop("entorno"))
        return herramienta(*args, **kwargs)
    return vigilada


class _Agotado(BaseException):
    """Se acabó el tiempo de una llamada. No es una Exception: un `except Exception` no la para."""


def probar(ejecutar, ll, entorno, segundos=SEGUNDOS):
    """`ejecutar(ll, entorno)` con las herramientas vigiladas, sin dejarle imprimir y con tope de tiempo."""
    globales = [vars(sys.modules["__main__"]), getattr(ejecutar, "__globals__", {})]
    deshacer = vigilar(globales, lambda nombre, argumentos, usado: _apunta(entorno, nombre, argumentos, usado))
    try:
        with _tope(segundos), contextlib.redirect_stdout(io.StringIO()):
            return ejecutar(ll, entorno)
    except _Agotado:
        raise sin_terminar(ll, entorno, segundos) from None
    except Exception as e:
        if not hasattr(e, "origen"):  # la que llega de una jaula ya trae el suyo
            codigo = getattr(ejecutar, "__code__", None) or getattr(getattr(ejecutar, "__call__", None), "__code__", None)
            with contextlib.suppress(Exception):
                e.origen = origen(e, getattr(codigo, "co_filename", None))
        raise
    finally:
        deshacer()


def origen(e, archivo):
    """De dónde sale `e`, si la ha lanzado el código del fichero `archivo` (la respuesta) y no una
    herramienta: (número de línea, la línea, "except", "try" o "fuera" del try). Si no, None."""
    marcos = traceback.extract_tb(e.__traceback__)
    suyos = [i for i, marco in enumerate(marcos) if marco.filename == archivo]
    # Lo que sale de una herramienta pasa por `vigilada`: esa excepción es de la herramienta.
    if not suyos or any(m.filename == __file__ and m.name == "vigilada" for m in marcos[suyos[-1]:]):
        return None
    marco = marcos[suyos[-1]]
    if not marco.line:  # sin el código a mano no se sabe dónde está la línea
        return None
    return marco.lineno, marco.line.strip(), _sitio(archivo, marco.lineno)


def _sitio(archivo, linea):
    """Si la línea `linea` de `archivo` está dentro de un except, de un try o fuera de ellos."""
    try:
        arbol = ast.parse("".join(linecache.getlines(archivo)))
    except (SyntaxError, ValueError):
        return "fuera"

    def dentro(nodos):
        return any(n.lineno <= linea <= n.end_lineno for n in nodos)

    tries = [n for n in ast.walk(arbol) if isinstance(n, (ast.Try, getattr(ast, "TryStar", ast.Try)))]
    if any(dentro(t.handlers) for t in tries):
        return "except"
    return "try" if any(dentro(t.body) for t in tries) else "fuera"


def _apunta(entorno, nombre, argumentos, usado):
    if isinstance(entorno, Espia):
        entorno.corre(nombre, argumentos, usado is entorno)


def sin_terminar(ll, entorno, segundos):
    """El NoCumple de una llamada que no termina a tiempo: si la herramienta se ha ejecutado más de una
    vez, reintenta."""
    veces = len(getattr(entorno, "ejecuciones", []))
    tiempo = "1 segundo" if segundos == 1 else "%s segundos" % ("%g" % segundos).replace(".", ",")
    repetida = ", y la herramienta se ha ejecutado %d veces" % veces if veces > 1 else ""
    return NoCumple("ejecutar no ha terminado en %s con la llamada %s%s.\nLa herramienta se ejecuta una vez "
                    "como mucho." % (tiempo, muestra(ll), repetida), "reintenta" if veces > 1 else "no-termina")


@contextlib.contextmanager
def _tope(segundos):
    aplazadas = 0

    def _alarma(signum, frame):
        nonlocal aplazadas
        # Dentro de un aviso del recolector de basura, Python se tragaría la excepción: se vuelve a intentar
        # al cabo de un milisegundo, pero no más de APLAZAR veces (un aviso que no acaba se corta igual).
        if aplazadas < APLAZAR and _en_un_aviso_del_recolector(frame):
            aplazadas += 1
            signal.setitimer(signal.ITIMER_REAL, 0.001, 0.5)
            return
        raise _Agotado()
    try:
        anterior = signal.signal(signal.SIGALRM, _alarma)
        signal.setitimer(signal.ITIMER_REAL, segundos, 0.5)  # y cada medio segundo, por si se traga la primera
    except (AttributeError, ValueError, OSError):  # sin alarmas (otro hilo, el navegador): sin tope
        yield
        return
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, anterior)


def _en_un_aviso_del_recolector(marco):
    """Si `marco` corre dentro de una función de gc.callbacks (Hypothesis pone una). Una excepción lanzada
    ahí no llega a `ejecutar`: Python la da por ignorada y la escribe en stderr."""
    avisos = {getattr(aviso, "__code__", None) for aviso in gc.callbacks}
    while marco is not None:
        if marco.f_code in avisos:
            return True
        marco = marco.f_back
    return False
