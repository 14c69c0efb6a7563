"""Las comprobaciones que corrigen `ejecutar`, una por celda de prueba `ejecutar-*` del cuaderno.

Las cláusulas y las reglas de la nota están definidas una sola vez, en `harness.revision`, que es
también la lista de comprobación que el estudiante ejecuta con `revisar(ejecutar)`: `repasar` pasa
cada cláusula y `reglas` decide cuáles puntúan (sin respuesta no hay puntos; si una clase de fallo
nunca vuelve como error, las cláusulas de los fallos no puntúan; una equivocación resta una vez, en
su casa). Aquí está la semilla de los casos ocultos, que el estudiante no ve (los hace el mismo
generador que los de `revisar`, harness/revision/casos.py), y cómo llega cada veredicto a su celda.

Cada celda oculta llama a `comprobar(nombre)`: si puntúa, imprime una línea con ✔; si no, lanza
`Suspenso` con el motivo en español y la equivocación, si se reconoce. Lo que explica varias celdas
a la vez se dice entero una sola vez, en la primera de ellas; las demás remiten a esa.
"""

import functools
import inspect
import weakref

from harness.revision import CLAUSULAS, PRUEBAS, REGLA, SALMOREJO, SEGUNDOS, NoCumple, generar, probar, repasar, reglas
from harness.revision.diagnosticos import DIAGNOSTICOS as _EXPLICADOS, EQUIVOCACION

from course import EJECUTAR
from course.aislado.protocolo import RespuestaAparte  # una respuesta en su jaula: el protocolo, allí declarado
from course.grabaciones import conversaciones_grabadas

# Nombre de cada equivocación → una línea para los informes de la clase.
DIAGNOSTICOS = {nombre: d.etiqueta for nombre, d in _EXPLICADOS.items()}


class Suspenso(NoCumple):
    """Una comprobación que no pasa. Su mensaje, en español, es lo que lee el estudiante."""

    def __init__(self, mensaje, diagnosticos=()):
        AssertionError.__init__(self, mensaje)
        self.motivo = mensaje
        self.diagnosticos = list(diagnosticos)
        self.diagnostico = self.diagnosticos[0] if self.diagnosticos else None

    def _render_traceback_(self):
        # IPython muestra estas líneas en lugar de la traza: el estudiante lee el motivo, no nuestro código.
        return ["\x1b[0;31m✘ No pasa:\x1b[0m " + str(self).replace("\n", "\n  ")]


# La semilla de los casos ocultos de esta tarea: la misma para toda la clase, y distinta de la de `revisar`.
SEMILLA = 7_310_962_448_115


@functools.cache
def casos():
    """Los casos ocultos de cada cláusula: los de SEMILLA, la traza del salmorejo y, en «guiones», una
    conversación más por cada guion grabado con un modelo de verdad en course/guiones/ (course/grabaciones.py).
    Se leen al corregir, no al importar: un guion que no vale lo dice `make grade` antes de empezar, y no
    rompe a quien solo importa este módulo."""
    ocultos = generar(SEMILLA)
    return dict(ocultos, salmorejo=SALMOREJO, guiones=ocultos["guiones"] + conversaciones_grabadas())


def llamadas_como_mucho(casos_=None):
    """Cuántas llamadas a `ejecutar` puede hacer, como mucho, la corrección de una entrega: las de cada caso,
    las de las conversaciones otra vez (se repasan si fallan) y las dos de la traza que mira la puerta."""
    casos_ = casos_ or casos()
    sueltas = sum(len(casos_[n]) for n in CLAUSULAS if n not in ("salmorejo", "guiones"))
    en_conversaciones = sum(sum(b["type"] == "tool_use" for turno in c[1] for b in turno)
                            for n in ("salmorejo", "guiones") for c in casos_[n])
    return sueltas + 2 * en_conversaciones + 2

COMPROBACIONES = PRUEBAS  # las celdas ejecutar-*, en su orden

_VEREDICTOS = weakref.WeakKeyDictionary()  # respuesta → {cláusula: Veredicto}


def veredictos(respuesta):
    """{cláusula: Veredicto} de una respuesta con los casos ocultos y las reglas de harness.revision.

    La respuesta es la función `ejecutar` del cuaderno o una RespuestaAparte. Se calcula una vez por
    respuesta, en la primera celda que lo pide; si el cálculo falla, las demás celdas reciben el mismo
    fallo, sin repetirlo."""
    dueño = respuesta
    try:
        hechos = _VEREDICTOS.get(dueño)
    except TypeError:
        hechos, dueño = None, None
    if hechos is None:
        try:
            hechos = reglas(_repasar(respuesta))
        except Exception as e:
            hechos = e.with_traceback(None)  # su traza guardaría a la respuesta, que es la clave: nunca se iría
        if dueño is not None:
            _VEREDICTOS[dueño] = hechos
    if isinstance(hechos, Exception):
        raise hechos
    return hechos


def _repasar(respuesta):
    # Con la alarma de respaldo de harness/revision/vigilancia.py; la de una respuesta aparte es más larga,
    # porque su jaula tiene sus propios topes.
    ejecutar, respaldo = respuesta, SEGUNDOS
    if isinstance(respuesta, RespuestaAparte):  # dice aparte si no se ha podido cargar
        no_carga = respuesta.cargar()
        if no_carga:
            return {"contesta": NoCumple("Tu celda de respuesta da error al ejecutarse: %s" % no_carga, "no-carga")}
        ejecutar, respaldo = respuesta.ejecutar, respuesta.respaldo
    return repasar(lambda ll, e: probar(ejecutar, ll, e, respaldo), casos())


def veredicto(nombre, respuesta):
    """(aprobada, texto, diagnósticos) de la celda `ejecutar-<nombre>`."""
    todos = veredictos(respuesta)
    v = todos[nombre]
    if not v.por:
        return v.puntua, v.texto, v.diagnosticos
    primera = next(n for n in COMPROBACIONES if todos[n].por == v.por)
    cabecera, salto, propio = v.texto.partition("\n")
    if nombre == primera:  # el motivo entero, una vez
        return v.puntua, "%s\n%s%s%s" % (cabecera, todos[v.por].texto, salto, propio), v.diagnosticos
    return v.puntua, "%s El motivo, en la prueba ejecutar-%s.%s%s" % (cabecera, primera, salto, propio), v.diagnosticos


def diagnosticos(nombre, respuesta):
    """Los nombres de las equivocaciones por las que no puntúa la celda `ejecutar-<nombre>` (vacía si puntúa)."""
    return veredicto(nombre, respuesta)[2]


def comprobar(nombre, respuesta=None):
    """Corrige una respuesta (`ejecutar` o una RespuestaAparte) con la comprobación `nombre`. Sin ella, usa
    el `ejecutar` del cuaderno que llama (la celda oculta, con `nbgrader validate` del cuaderno fuente)."""
    if respuesta is None:
        respuesta = inspect.currentframe().f_back.f_globals.get("ejecutar")
    if not (callable(respuesta) or isinstance(respuesta, RespuestaAparte)):
        raise Suspenso(str(NoCumple("No encuentro tu función ejecutar.", "no-carga")), ["no-carga"])
    aprobada, texto_, diagnosticos_ = veredicto(nombre, respuesta)
    if not aprobada:
        raise Suspenso(texto_, diagnosticos_)
    print("✔ " + texto_)


def resumen(respuesta):
    """Lo que dice el principio de la retroalimentación: el motivo que explica varias pruebas, si lo hay, y
    cada equivocación con lo que enseña la lección, qué releer y en qué pruebas resta."""
    todos = veredictos(respuesta)
    por = next((v.por for n, v in todos.items() if n in COMPROBACIONES and v.por), None)
    donde = {}
    for nombre in COMPROBACIONES:
        for d in todos[nombre].diagnosticos:
            donde.setdefault(d, []).append(EJECUTAR + nombre)
    # El motivo sin su «Equivocación probable: …», que ya va en la lista de equivocaciones.
    motivo = "\n".join(l for l in todos[por].texto.split("\n") if not l.startswith(EQUIVOCACION)) if por else None
    return {"motivo": motivo,
            "equivocaciones": [{"nombre": d, "etiqueta": _EXPLICADOS[d].etiqueta, "leccion": _EXPLICADOS[d].leccion,
                                "releer": _EXPLICADOS[d].releer, "pruebas": pruebas}
                               for d, pruebas in donde.items()]}


def que_comprueba(nombre):
    """Lo que comprueba la celda `ejecutar-<nombre>`, en una línea: la regla del contrato que mira, como en
    `revisar`, y la primera línea del docstring de su cláusula."""
    return "%s · %s" % (REGLA[nombre], CLAUSULAS[nombre].__doc__.split("\n")[0].rstrip("."))
