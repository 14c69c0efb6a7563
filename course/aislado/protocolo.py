"""El protocolo entre el corrector de confianza y la jaula: sus mensajes, por su nombre, y los datos que llevan.

Lo usan los dos lados, `cliente.py` fuera y `servidor.py` dentro de la jaula, que ve este fichero y
course/limites.py y nada más del curso: por eso solo usa la biblioteca estándar.

La lista de comprobación (course/calificacion.py y harness.revision) corrige una `RespuestaAparte` como si
fuera un `ejecutar`; lo que lanza llega como `Lanzada`. Por dentro, el corrector y la jaula se mandan los
mensajes de abajo, una línea JSON cada uno, con los campos de su clase. La jaula contesta `Listo` al
arrancar; a `Importar` (lo que el cuaderno ha importado antes de la respuesta) y a `Cargar`, `Hecho`; a `Valor`, `Devuelve` o `Falta`; a `Llamada`, `Devuelve` o `Excepcion` con la
llamada tal como la ha dejado `ejecutar`, o `Falta` si no hay `ejecutar`; a lo que no puede hacer, `Excepcion`.
Mientras corre una llamada, la jaula pide cada operación del entorno con `Operacion` (las de
harness.revision.vigilancia.OPERACIONES) y el corrector contesta `Ok` o `Excepcion`.

Un dato es un valor de Python que viaja con su tipo: `{"v": x}` (str, int, float, bool, None),
`{"list": [...]}`, `{"tuple": [...]}`, `{"set": [...]}`, `{"frozenset": [...]}` y
`{"dict": [[clave, valor], ...]}`; cualquier otro objeto viaja como `{"otro": su tipo, "repr": su
repr}` y llega como `Opaco`. Una excepción es `{"tipo", "texto", "args"}` y, si la lanzó una línea de la
respuesta, `"origen"`: [número, línea, "except" | "try" | "fuera"].
"""

import builtins
import json
from dataclasses import MISSING, dataclass, fields
from typing import Protocol, runtime_checkable

from course import limites

Dato = dict  # un valor codificado con `codificar`; `decodificar` lo devuelve a Python


@runtime_checkable
class RespuestaAparte(Protocol):
    """Una respuesta que corre fuera del proceso del corrector (la de cliente.py, en su jaula): su `ejecutar`,
    `cargar()`, que la carga si hace falta y dice por qué no se ha podido cargar (o None), y `respaldo`, los
    segundos de reloj tras los que la alarma de respaldo corta una llamada (ella corta antes)."""

    respaldo: float

    def cargar(self) -> str | None: ...

    def ejecutar(self, llamada: dict, entorno) -> object: ...


class Lanzada(Exception):
    """Lo que lanzó `ejecutar` en la jaula. harness.revision lee su `tipo` (el nombre de su clase allí) y su
    `origen`: (número de línea, la línea, "except" | "try" | "fuera") si la lanzó una línea de la respuesta."""

    def __init__(self, tipo: str, texto: str, origen: tuple[int, str, str] | None = None):
        super().__init__(texto)
        self.tipo, self.origen = tipo, origen


@dataclass
class Importar:     # corrector → jaula, al arrancar: las importaciones de las celdas del cuaderno antes de la respuesta
    importar: list[str]


@dataclass
class Cargar:       # corrector → jaula: ejecuta el código de la respuesta en un espacio nuevo
    cargar: str


@dataclass
class Valor:        # corrector → jaula: el valor de `nombre` tras ejecutar el código de una celda de respuesta
    valor: str
    nombre: str


@dataclass
class Llamada:      # corrector → jaula: llama a `ejecutar` de la respuesta cargada
    llamada: Dato


@dataclass
class Operacion:    # jaula → corrector, mientras corre una llamada: una operación del entorno
    op: str
    argumentos: list[Dato]


@dataclass
class Ok:           # corrector → jaula: lo que ha dado la operación
    ok: Dato


@dataclass
class Listo:        # jaula → corrector: ha arrancado
    listo: bool = True


@dataclass
class Hecho:        # jaula → corrector: la respuesta está cargada
    hecho: bool = True


@dataclass
class Falta:        # jaula → corrector: ese nombre no está definido
    falta: str


@dataclass
class Devuelve:     # jaula → corrector: lo que ha dado, y tras una llamada, la llamada como ha quedado
    devuelve: Dato
    llamada: Dato | None = None


@dataclass
class Excepcion:    # cualquiera de los dos: lo que se ha lanzado (como `de_excepcion`), y la llamada como con Devuelve
    excepcion: dict
    llamada: Dato | None = None


# Cada mensaje se reconoce por su primer campo; si una línea tiene varios, cuenta el primero de esta lista.
MENSAJES = (Operacion, Excepcion, Falta, Devuelve, Ok, Hecho, Listo, Importar, Cargar, Valor, Llamada)


SIMPLES = (str, int, float, bool, type(None))


class Ilegible(ValueError):
    """Lo que ha llegado por el canal no es un mensaje o un dato del protocolo."""


class DemasiadasPiezas(Ilegible):
    """Un dato con más piezas (valores y claves) de las que caben en una observación."""


class Opaco:
    """Un objeto que no es un dato simple, del que solo viajan su tipo y su repr. No es igual a nada."""

    def __init__(self, tipo, texto):
        self.tipo, self.texto = tipo, texto

    def __repr__(self):
        return "<%s %s>" % (self.tipo, self.texto)

    __eq__ = object.__eq__
    __hash__ = object.__hash__


def codificar(x, fondo=0):
    """El dato que describe `x`. Más hondo que PROFUNDIDAD_DE_UN_DATO, o lo que no es un dato simple, va opaco."""
    if fondo > limites.PROFUNDIDAD_DE_UN_DATO:
        return {"otro": "demasiado anidado", "repr": ""}
    if type(x) in SIMPLES:
        return {"v": x}
    if type(x) is dict:
        return {"dict": [[codificar(k, fondo + 1), codificar(v, fondo + 1)] for k, v in x.items()]}
    if type(x) in (list, tuple, set, frozenset):
        return {type(x).__name__: [codificar(v, fondo + 1) for v in x]}
    try:
        texto = repr(x)[:limites.REPR_DE_UN_OBJETO]
    except BaseException:  # un __repr__ que lanza (o que sale con sys.exit) no para el canal
        texto = "?"
    return {"otro": type(x).__name__, "repr": texto}


_CLASES = (("list", list), ("tuple", tuple), ("set", set), ("frozenset", frozenset))


def decodificar(d, piezas=None, fondo=0):
    """El valor que describe el dato `d`, con los topes de course/limites.py.

    Más hondo que PROFUNDIDAD_DE_UN_DATO llega opaco; con más de PIEZAS_DE_UN_DATO piezas (valores y
    claves), DemasiadasPiezas; con una forma que no es la del protocolo, Ilegible.
    """
    piezas = [limites.PIEZAS_DE_UN_DATO] if piezas is None else piezas
    piezas[0] -= 1
    if piezas[0] < 0:
        raise DemasiadasPiezas("un dato con más de %d piezas" % limites.PIEZAS_DE_UN_DATO)
    if not isinstance(d, dict):
        raise Ilegible("un dato que no tiene la forma del protocolo")
    if fondo > limites.PROFUNDIDAD_DE_UN_DATO:
        return Opaco("demasiado anidado", "")
    try:
        if "otro" in d:
            return Opaco(str(d["otro"])[:limites.NOMBRE_DE_UN_TIPO], str(d.get("repr", ""))[:limites.REPR_DE_UN_OBJETO])
        if "dict" in d:
            return {decodificar(k, piezas, fondo + 1): decodificar(v, piezas, fondo + 1) for k, v in d["dict"]}
        for clase, hacer in _CLASES:
            if clase in d:
                return hacer(decodificar(v, piezas, fondo + 1) for v in d[clase])
        valor = d["v"]
    except Ilegible:  # también DemasiadasPiezas, de más adentro
        raise
    except Exception:  # una clave que no se puede usar, un par que no es un par, una lista que no lo es...
        raise Ilegible("un dato que no tiene la forma del protocolo") from None
    if type(valor) not in SIMPLES:
        raise Ilegible("un dato que no tiene la forma del protocolo")
    return valor


def de_excepcion(e, origen=None):
    """Una excepción como datos: su tipo, su texto, sus argumentos y, si se sabe, su origen en la respuesta."""
    try:
        texto = str(e)
    except BaseException:
        texto = "(su texto no se puede obtener)"
    try:
        argumentos = codificar(e.args)
    except BaseException:
        argumentos = {"tuple": []}
    d = {"tipo": type(e).__name__, "texto": texto, "args": argumentos}
    return dict(d, origen=origen) if origen else d


def a_excepcion(d):
    """La excepción que describe `d`, tal cual si es de las de Python; si no, una con su nombre y su texto."""
    tipo, texto, _ = leer_excepcion(d)
    clase = getattr(builtins, tipo, None)
    if isinstance(clase, type) and issubclass(clase, Exception):
        try:
            e = clase(*decodificar(d.get("args")))
            if str(e) == texto:
                return e
        except Exception:
            pass
    return type(tipo, (Exception,), {"__str__": lambda self: texto})()


def leer_excepcion(d):
    """(tipo, texto, origen o None) de una excepción del protocolo; Ilegible si no tiene esa forma."""
    if not (isinstance(d, dict) and isinstance(d.get("tipo"), str) and isinstance(d.get("texto"), str)):
        raise Ilegible("una excepción que no tiene la forma del protocolo")
    o = d.get("origen")
    if not (isinstance(o, list) and len(o) == 3 and type(o[0]) is int and isinstance(o[1], str)
            and o[2] in ("except", "try", "fuera")):
        o = None
    origen = (o[0], o[1][:limites.NOMBRE_DE_UN_TIPO], o[2]) if o else None
    return d["tipo"][:limites.NOMBRE_DE_UN_TIPO], d["texto"], origen


def linea(mensaje):
    """El mensaje (uno de MENSAJES) como una línea de bytes, lista para el canal; sin los campos que valen None."""
    campos = {f.name: getattr(mensaje, f.name) for f in fields(mensaje) if getattr(mensaje, f.name) is not None}
    return (json.dumps(campos, ensure_ascii=False) + "\n").encode("utf-8")


def mensaje(crudo):
    """El mensaje de una línea del canal (sin su salto), de una clase de MENSAJES; Ilegible si no es ninguno."""
    try:
        leido = json.loads(crudo)
    except (ValueError, RecursionError):
        leido = None
    if isinstance(leido, dict):
        for clase in MENSAJES:
            campos = fields(clase)
            if campos[0].name in leido:
                if all(f.name in leido or f.default is not MISSING for f in campos):
                    return clase(**{f.name: leido[f.name] for f in campos if f.name in leido})
                break
    raise Ilegible("una línea que no es un mensaje del protocolo")
