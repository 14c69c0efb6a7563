"""Cómo se vigila `ejecutar` mientras se prueba: lo que le hace al entorno, y que no tarde más de la cuenta.

Una herramienta ha corrido cuando el entorno ha visto su trabajo: `leer` lee su fichero, `listar` y
`buscar` recorren las rutas, `escribir` escribe. Da igual qué función lo haga (la de FUNCIONES, una
copia, una lambda, un hilo): el entorno de una prueba, `Espia`, apunta cada operación que le hacen, y
puede fallar en alguna, como un disco. `ejecutar` recibe una vista suya, `Entorno`, la misma en el
cuaderno y en la jaula del corrector, donde cada operación viaja hasta el corrector, que tiene el Espia.
"""

import ast
import contextlib
import copy
import functools
import gc
import io
import linecache
import os
import signal
import sys
import time
import traceback
from collections.abc import MutableMapping

from .. import entorno as _entorno
from ..bloques import muestra
from ..entorno import ENTORNO
from .diagnosticos import NoCumple

SEGUNDOS = 1  # para una llamada, como dice la lección; también el corrector (course/limites.py, LLAMADA)
APLAZAR = 200  # alarmas que se dejan pasar porque caen dentro de un aviso del recolector (tope)

# Lo que se le puede hacer a un entorno. Mirar si una ruta está o cuántas hay no es trabajo de ninguna
# herramienta; leer, recorrer las rutas y escribir, sí.
OPERACIONES = ("mira", "lee", "lista", "cuenta", "escribe", "borra")
MIRAR = ("mira", "cuenta")


def operar(entorno, op, *a):
    """Hace la operación `op` en `entorno` (un Espia, que la apunta, o cualquier diccionario)."""
    if isinstance(entorno, Espia):
        return entorno.operar(op, *a)
    if op == "mira":
        return a[0] in entorno
    if op == "lee":
        return entorno[a[0]]
    if op == "lista":
        return list(entorno)
    if op == "cuenta":
        return len(entorno)
    if op == "escribe":
        entorno[a[0]] = a[1]
    elif op == "borra":
        del entorno[a[0]]
    else:
        raise RuntimeError("operación no permitida")


class _Operacion(tuple):
    """Una operación del registro, (op, *argumentos); `fallida` si el disco ha fallado en ella."""
    fallida = False


class Entorno(MutableMapping):
    """El entorno tal como lo recibe `ejecutar` en una prueba: un diccionario de ruta a texto cuyas
    operaciones hace `operar(op, *argumentos)`. Una copia (`dict(entorno)`, `entorno.copy()`) es un
    diccionario normal: lo que se haga en ella no llega al entorno."""

    def __init__(self, operar):
        self._operar = operar

    def __contains__(self, ruta):
        return self._operar("mira", ruta)

    def __getitem__(self, ruta):
        return self._operar("lee", ruta)

    def __setitem__(self, ruta, texto):
        self._operar("escribe", ruta, texto)

    def __delitem__(self, ruta):
        self._operar("borra", ruta)

    def __iter__(self):
        return iter(self._operar("lista"))

    def __len__(self):
        return self._operar("cuenta")

    def copy(self):
        return dict(self)

    __copy__ = copy

    def __deepcopy__(self, memo):
        return copy.deepcopy(dict(self), memo)

    def __repr__(self):
        return repr(dict(self))


class Espia(Entorno):
    """Los ficheros de una prueba, las operaciones que les han hecho (`registro`) y dónde fallan:
    `fallos` lleva ("lee", ruta), ("lista",) o ("escribe", ruta) a la excepción que lanza esa operación.
    Es también un entorno: lo que se le haga, como a su vista, queda apuntado. Quien corrige lee `ficheros`."""

    def __init__(self, ficheros=ENTORNO, fallos=None):
        super().__init__(self.operar)
        self.ficheros = dict(ficheros)
        self.fallos = dict(fallos or {})
        self.registro = []

    def operar(self, op, *a):
        hecha = _Operacion((op, *a))
        self.registro.append(hecha)
        fallo = None
        with contextlib.suppress(TypeError):  # una ruta que no es un texto no falla así: falla sola
            fallo = self.fallos.get((op, *a[:1]))
        if fallo is not None:
            hecha.fallida = True
            raise copy.copy(fallo)  # una nueva cada vez, sin la traza de la anterior
        hecho = operar(self.ficheros, op, *a)
        if op == "lista":  # con lo que ha dado: así se sabe si después se leen todos
            self.registro[-1] = _Operacion(("lista", tuple(hecho)))
        return hecho

    def disco(self):
        """(ficheros, fallos) de ahora: para probar con una herramienta de verdad lo que daría aquí."""
        return dict(self.ficheros), dict(self.fallos)


def vista(entorno):
    """La vista `Entorno` de `entorno`, que apunta lo que se le hace si es un Espia."""
    return Entorno(functools.partial(operar, entorno))


# Lo que dice el registro de un Espia de una llamada.

def trabajo(registro):
    """Las operaciones del registro que son trabajo de una herramienta (mirar no lo es), con cada recorrido
    entero del entorno (sus rutas y después todos sus ficheros: lo que hacen `buscar` o una copia, también
    si el disco falla a medias) como ("todo",)."""
    hechos, i = [], 0
    while i < len(registro):
        op = registro[i]
        if op[0] == "lista" and len(op) > 1 and op[1]:
            leidas, j = [], i + 1
            while j < len(registro) and registro[j][0] in ("lee", *MIRAR):
                leidas += [registro[j][1]] if registro[j][0] == "lee" else []
                j += 1
            rutas = list(op[1])
            cortado = leidas and getattr(registro[j - 1], "fallida", False) and leidas in (
                rutas[:len(leidas)], sorted(rutas, key=str)[:len(leidas)])
            if cortado or sorted(map(repr, leidas)) == sorted(map(repr, rutas)):
                hechos.append(("todo",))
                i = j
                continue
        if op[0] not in MIRAR:
            hechos.append(op[:1] if op[0] == "lista" else op)
        i += 1
    return hechos


def veces(registro, ll):
    """Cuántas veces ha visto el entorno el trabajo de la herramienta de `ll`, con sus argumentos."""
    hechos, entrada = trabajo(registro), ll.get("input") if isinstance(ll.get("input"), dict) else {}
    nombre = ll.get("name")
    if nombre == "leer":  # sin el fichero, leer solo mira si está
        propias = (sum(h == ("lee", entrada.get("ruta")) for h in hechos)
                   or sum(op == ("mira", entrada.get("ruta")) for op in registro))
    elif nombre == "escribir":
        propias = sum(h == ("escribe", entrada.get("ruta"), entrada.get("contenido")) for h in hechos)
    elif nombre == "listar":
        propias = hechos.count(("lista",))
    elif nombre == "buscar":
        return hechos.count(("todo",)) + hechos.count(("lista",))
    else:
        return 0
    # Una copia del entorno entero también lee el fichero de leer (y recorre las rutas de listar).
    return propias or (hechos.count(("todo",)) if nombre in ("leer", "listar") else 0)


def de_la_llamada(op, ll):
    """Si la operación `op` del registro es de la herramienta de `ll`, con sus argumentos (mirar, incluido)."""
    entrada = ll.get("input") if isinstance(ll.get("input"), dict) else {}
    ruta = entrada.get("ruta")
    return {"leer": op in (("mira", ruta), ("lee", ruta)),
            "escribir": op in (("mira", ruta), ("escribe", ruta, entrada.get("contenido"))),
            "listar": op[0] == "lista", "buscar": op[0] in ("lista", "lee", "mira", "todo")}.get(ll.get("name"), False)


def otro_trabajo(registro, ll):
    """El trabajo que ha visto el entorno que no es el de la herramienta de `ll` con sus argumentos: lo
    que otra llamada haría (un recorrido entero es el de una copia, y no cuenta)."""
    return [h for h in trabajo(registro) if h != ("todo",) and not de_la_llamada(h, ll)]


class Agotado(BaseException):
    """Se acabó el tiempo de una llamada. No es una Exception: un `except Exception` no la para."""

    def __init__(self, segundos=None):
        super().__init__()
        self.segundos = segundos


def probar(ejecutar, ll, entorno, segundos=SEGUNDOS):
    """`ejecutar(ll, vista del entorno)`, sin dejarle imprimir y con tope de tiempo."""
    try:
        with tope(segundos), contextlib.redirect_stdout(io.StringIO()):
            return ejecutar(ll, vista(entorno))
    except Agotado as a:
        raise sin_terminar(ll, entorno, a.segundos or segundos) from None
    except Exception as e:
        if not hasattr(e, "origen"):  # la que llega de una jaula ya trae el suyo
            codigo = getattr(ejecutar, "__code__", None) or getattr(getattr(ejecutar, "__call__", None), "__code__", None)
            with contextlib.suppress(Exception):
                e.origen = origen(e, getattr(codigo, "co_filename", None))
        raise


_HERRAMIENTAS = os.path.normcase(os.path.abspath(_entorno.__file__))


def origen(e, archivo):
    """De dónde sale `e`, si la ha lanzado el código del fichero `archivo` (la respuesta) y no una
    herramienta: (número de línea, la línea, "except", "try" o "fuera" del try). Si no, None. Una línea de
    la respuesta que lee del entorno cuando falla el disco también la lanza: no es la herramienta quien lee."""
    marcos = traceback.extract_tb(e.__traceback__)
    suyos = [i for i, marco in enumerate(marcos) if marco.filename == archivo]
    # Lo que sale de una herramienta pasa por su fichero: esa excepción no es de la respuesta.
    if not suyos or any(os.path.normcase(os.path.abspath(m.filename)) == _HERRAMIENTAS for m in marcos[suyos[-1] + 1:]):
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


def en_segundos(x):
    """Unos segundos como se escriben en español, con una décima como mucho: «1 segundo», «0,5 segundos»."""
    x = round(x, 1)
    return "1 segundo" if x == 1 else "%s segundos" % ("%g" % x).replace(".", ",")


def sin_terminar(ll, entorno, segundos):
    """El NoCumple de una llamada que no termina a tiempo: si la herramienta se ha ejecutado más de una
    vez, reintenta."""
    n = veces(entorno.registro, ll) if isinstance(entorno, Espia) else 0
    repetida = ", y la herramienta se ha ejecutado %d veces" % n if n > 1 else ""
    return NoCumple("ejecutar no ha terminado en %s con la llamada %s%s.\nLa herramienta se ejecuta una vez "
                    "como mucho." % (en_segundos(segundos), muestra(ll), repetida), "reintenta" if n > 1 else "no-termina")


@contextlib.contextmanager
def tope(segundos):
    """Lo de dentro, con una alarma que lanza Agotado a los `segundos`. En el navegador (Pyodide), que no tiene
    alarmas, mira el reloj en cada línea que se ejecuta (_tope_sin_alarmas); en otro hilo, sin tope."""
    if sys.platform == "emscripten":
        with _tope_sin_alarmas(segundos):
            yield
        return
    aplazadas = 0

    def _alarma(signum, frame):
        nonlocal aplazadas
        # Dentro de un aviso del recolector de basura, Python se tragaría la excepción: se vuelve a intentar
        # al cabo de un milisegundo, pero no más de APLAZAR veces (un aviso que no acaba se corta igual).
        if aplazadas < APLAZAR and _en_un_aviso_del_recolector(frame):
            aplazadas += 1
            signal.setitimer(signal.ITIMER_REAL, 0.001, 0.5)
            return
        raise Agotado()
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


@contextlib.contextmanager
def _tope_sin_alarmas(segundos):
    """Lo de dentro, con un trazador (sys.settrace) que mira el reloj en cada línea de las funciones que llama y
    lanza Agotado al pasar los `segundos`: sin él, un `ejecutar` que repite sin fin colgaría el núcleo del navegador."""
    limite = time.monotonic() + segundos

    def _traza(marco, evento, arg):
        # Lanzada mientras se atiende otra excepción (en un except), Python dejaría esa otra como «en curso» y
        # saldría de contexto en todas las trazas de después: se espera a salir del except, medio segundo como mucho.
        ahora = time.monotonic()
        if ahora > limite and (sys.exc_info()[0] is None or ahora > limite + 0.5):
            raise Agotado()
        return _traza
    anterior = sys.gettrace()
    sys.settrace(_traza)
    try:
        yield
    finally:
        sys.settrace(anterior)


def _en_un_aviso_del_recolector(marco):
    """Si `marco` corre dentro de una función de gc.callbacks (Hypothesis pone una). Una excepción lanzada
    ahí no llega a `ejecutar`: Python la da por ignorada y la escribe en stderr."""
    avisos = {getattr(aviso, "__code__", None) for aviso in gc.callbacks}
    while marco is not None:
        if marco.f_code in avisos:
            return True
        marco = marco.f_back
    return False
