"""Las comprobaciones que corrigen `ejecutar`, una por celda de prueba `ejecutar-*` del cuaderno.

Las cláusulas están definidas una sola vez, en `harness.revision`, que es también la lista de
comprobación que el estudiante ejecuta con `revisar(ejecutar)`. Aquí están los casos ocultos, que
el estudiante no ve, y las reglas de la nota:

- Sin respuesta no hay puntos: si `ejecutar` no contesta con un tool_result a unas llamadas
  básicas (una buena, una que no cumple su esquema, una cuya herramienta falla), todas las celdas
  suspenden con el mismo motivo. Así el código de partida, o un `return None`, no puntúa.
- Cada equivocación reconocida tiene un nombre (`DIAGNOSTICOS`) y resta en una sola celda, la de
  su cláusula. Las dos celdas de conversaciones enteras (salmorejo y guiones) no vuelven a restar
  lo que ya resta una cláusula: si fallan por una equivocación reconocida, lo dicen y puntúan.

Cada celda oculta llama a `comprobar(nombre)`: si se cumple, imprime una línea con ✔; si no, lanza
`Suspenso` con el motivo en español y la equivocación, si se reconoce.
"""

import sys
import weakref

from harness import ENTORNO, error, llamada, resultado, texto
from harness.revision import CLAUSULAS, DIAGNOSTICOS as _EXPLICADOS, SALMOREJO, NoCumple, probar
from harness.salmorejo import INICIO

from course.grabaciones import conversaciones_grabadas
from course.limites import ALARMA as SEGUNDOS  # tope de respaldo de una llamada a ejecutar (course/limites.py)

# Nombre de cada equivocación → una línea para los informes de la clase.
DIAGNOSTICOS = {nombre: etiqueta for nombre, (etiqueta, _) in _EXPLICADOS.items()}


class Suspenso(NoCumple):
    """Una comprobación que no pasa. Su mensaje, en español, es lo que lee el estudiante."""

    def __init__(self, mensaje, diagnosticos=()):
        AssertionError.__init__(self, mensaje)
        self.diagnosticos = list(diagnosticos)
        self.diagnostico = self.diagnosticos[0] if self.diagnosticos else None

    def _render_traceback_(self):
        # IPython muestra estas líneas en lugar de la traza: el estudiante lee el motivo, no nuestro código.
        return ["\x1b[0;31m✘ No pasa:\x1b[0m " + str(self).replace("\n", "\n  ")]


class _FalloRaro(Exception):
    def __str__(self):
        return "el disco ha devuelto algo que no se entiende"


# Los casos ocultos de cada cláusula.

_TORTILLA = "pan, leche, patatas, huevos, cebolla"

CASOS = {
    # Las llamadas básicas: sin un tool_result para cada una, no hay puntos en ninguna celda.
    "contesta": [llamada("p1", "leer", ruta="lista.txt"), llamada("p2", "leer", rutas=["lista.txt"]),
                 llamada("p3", "leer", ruta="recetas/salmorejo.txt")],
    "salmorejo": SALMOREJO,
    "esquema": [llamada("e1", "leer", rutas=["lista.txt"]), llamada("e2", "borrar", ruta="lista.txt"),
                llamada("e3", "escribir", ruta="lista.txt", contenido=["tomates"]),
                llamada("e4", "escribir", ruta="notas/cena.txt", contenido="", modo="añadir"),
                llamada("e5", "listar"), llamada("e6", "leer", ruta=7)],
    "excepciones": [(llamada("x1", "leer", ruta="recetas/salmorejo.txt"), None),
                    (llamada("x2", "leer", ruta="lista.txt"), PermissionError("no tienes permiso para leer 'lista.txt'")),
                    (llamada("x3", "escribir", ruta="lista.txt", contenido="pan"), OSError(28, "no queda espacio en el disco")),
                    (llamada("x4", "listar", carpeta="recetas/"), RuntimeError()),
                    (llamada("x5", "buscar", patron="ajo"), ValueError("patrón", 3)),
                    (llamada("x6", "leer", ruta="lista.txt"), KeyError("lista.txt")),
                    (llamada("x7", "escribir", ruta="a.txt", contenido="b"), _FalloRaro()),
                    (llamada("x8", "leer", ruta="lista.txt"), TimeoutError("el disco no contesta"))],
    "una-vez": [(llamada("u1", "leer", ruta="lista.txt"), None), (llamada("u2", "leer", ruta="no.txt"), None),
                (llamada("u3", "escribir", ruta="lista.txt", contenido="pan"), None),
                (llamada("u4", "listar", carpeta="recetas/"), None),
                (llamada("u5", "leer", ruta="lista.txt"), TimeoutError("el disco no contesta")),
                (llamada("u6", "escribir", ruta="lista.txt", contenido="pan"), ConnectionResetError("se ha cortado"))],
    "sin-arreglos": [llamada("a1", "leer", rutas=["recetas/tortilla.txt"]), llamada("a2", "leer", ruta="recetas/tortila.txt"),
                     llamada("a3", "escribir", ruta="lista.txt"), llamada("a4", "leer", ruta="Lista.txt"),
                     llamada("a5", "leer", ruta=["lista.txt"]), llamada("a6", "listar", carpeta="recetas")],
    "resultados": [(llamada("toolu_01Xq", "leer", ruta="aviso.txt"), dict(ENTORNO, **{"aviso.txt": "no existe el fichero 'x.txt'"})),
                   (llamada("r2", "leer", ruta="vacío.txt"), dict(ENTORNO, **{"vacío.txt": ""})),
                   (llamada("r3", "leer", ruta="año.txt"), dict(ENTORNO, **{"año.txt": "  Año nuevo: ñoquis y jamón\n"})),
                   (llamada("r4", "buscar", patron="salmorejo"), ENTORNO),
                   (llamada("r5", "buscar", patron="aceite"), ENTORNO),
                   (llamada("r6", "listar", carpeta="postres/"), ENTORNO)],
    "escrituras": [llamada("w1", "escribir", ruta="lista.txt", contenido="pan, leche, patatas, tomates"),
                   llamada("w2", "escribir", ruta="notas/compra.txt", contenido="Comprar el sábado.")],
    "guiones": [
        # Tres llamadas en un turno, la primera mala, y una escritura al final.
        ([INICIO[0], ("usuario", "Apunta en lista.txt lo que lleva la tortilla y no tengo.")],
         [[llamada("a", "leer", ruta="recetas/tortila.txt"), llamada("b", "leer", ruta="lista.txt"),
           llamada("c", "buscar", patron="tortilla")],
          [texto("Me he equivocado de nombre."), llamada("d", "leer", ruta="recetas/tortilla.txt"),
           llamada("e", "escribir", ruta="lista.txt")],
          [llamada("f", "escribir", ruta="lista.txt", contenido=_TORTILLA)],
          [texto("He añadido huevos y cebolla."), texto("¿Algo más?")]],
         [[error("a", "no existe el fichero 'recetas/tortila.txt'"), resultado("b", ENTORNO["lista.txt"]),
           resultado("c", "")],
          [resultado("d", ENTORNO["recetas/tortilla.txt"]), error("e", "no se ha ejecutado: falta el campo 'contenido'")],
          [resultado("f", "escritos 36 caracteres en lista.txt")],
          None],
         10, ("fin", "He añadido huevos y cebolla. ¿Algo más?"), dict(ENTORNO, **{"lista.txt": _TORTILLA})),
        # Un modelo que insiste en una llamada que falla: lo para el tope, no ejecutar.
        ([INICIO[0], ("usuario", "Lee la receta del salmorejo.")],
         [[llamada("s", "leer", ruta="recetas/salmorejo.txt")]] * 3,
         [[error("s", "no existe el fichero 'recetas/salmorejo.txt'")]] * 3,
         3, ("tope", None), ENTORNO),
    ],
}
# Y una conversación más por cada guion grabado con un modelo de verdad en course/guiones/ (course/grabaciones.py).
CASOS["guiones"] += conversaciones_grabadas()

# Las celdas ejecutar-* y sus cláusulas. Las de conversaciones enteras no restan dos veces.
COMPROBACIONES = {nombre: CLAUSULAS[nombre] for nombre in
                  ("salmorejo", "esquema", "excepciones", "una-vez", "sin-arreglos", "resultados", "escrituras", "guiones")}
_ENTERAS = {"salmorejo", "guiones"}
# Dónde resta cada equivocación de una cláusula; las demás (no contestar) restan donde ocurren.
CASA = {d: celda for celda, diagnosticos in {
    "esquema": ["ejecuta-sin-esquema", "motivo-sin-prefijo", "motivo-cambiado"],
    "excepciones": ["captura-solo-un-tipo", "contenido-repr", "prefijo-en-el-mensaje", "no-se-ha-ejecutado-al-fallar",
                    "error-como-resultado", "contenido-no-es-texto", "mensaje-cambiado"],
    "una-vez": ["reintenta", "ejecuta-dos-veces"],
    "sin-arreglos": ["arregla-la-llamada"],
    "resultados": ["resultado-cambiado", "vacio-es-error"],
    "escrituras": ["trabaja-en-una-copia"],
}.items() for d in diagnosticos}

_VEREDICTOS = weakref.WeakKeyDictionary()  # ejecutar → {cláusula: (texto, diagnóstico o None si se cumple)}


def _clausula(nombre, ejecutar):
    """(frase de ✔, None) si `ejecutar` cumple la cláusula con los casos ocultos; si no, (motivo, diagnóstico)."""
    dueño = getattr(ejecutar, "__self__", ejecutar)  # el código en su jaula, o la función del cuaderno
    try:
        hechos = _VEREDICTOS.setdefault(dueño, {})
    except TypeError:
        hechos = {}
    if nombre not in hechos:
        try:
            hechos[nombre] = (CLAUSULAS[nombre](lambda ll, e: probar(ejecutar, ll, e, SEGUNDOS), CASOS[nombre]), None)
        except NoCumple as e:
            hechos[nombre] = (str(e), e.diagnostico or "")
    return hechos[nombre]


def veredicto(nombre, ejecutar):
    """(aprobada, texto, diagnósticos) de la celda `ejecutar-<nombre>`."""
    jaula = getattr(ejecutar, "__self__", None)
    # El código de la respuesta en su jaula (course.aislado) dice aparte si no se ha podido cargar.
    no_carga = jaula.cargar() if type(jaula).__module__ == "course.aislado.cliente" else None
    if no_carga:
        return False, str(NoCumple("Tu celda de respuesta da error al ejecutarse: %s" % no_carga, "no-carga")), ["no-carga"]
    texto_contesta, sin_respuesta = _clausula("contesta", ejecutar)
    if sin_respuesta is not None:
        return False, "Sin respuesta no hay puntos en el desafío. " + texto_contesta, [sin_respuesta] if sin_respuesta else []
    frase, diagnostico = _clausula(nombre, ejecutar)
    if diagnostico is None:
        return True, frase, []
    if nombre in _ENTERAS:
        ajenos = [(d, CASA[d]) for d in (_clausula(o, ejecutar)[1] for o in COMPROBACIONES if o not in _ENTERAS)
                  if d in CASA]
        if ajenos:
            d, celda = ajenos[0]
            return True, ("esta conversación falla por «%s», que ya resta en la prueba ejecutar-%s: no cuenta dos "
                          "veces.\n  (%s)" % (DIAGNOSTICOS[d], celda, frase.split("\n")[0])), []
    return False, frase, [diagnostico] if diagnostico else []


def diagnosticos(nombre, ejecutar):
    """Los nombres de las equivocaciones que resta la celda `ejecutar-<nombre>` (vacía si aprueba)."""
    return veredicto(nombre, ejecutar)[2]


def comprobar(nombre, ejecutar=None):
    """Corrige `ejecutar` con la comprobación `nombre`. Sin `ejecutar`, usa el del cuaderno que llama."""
    if ejecutar is None:
        ejecutar = sys._getframe(1).f_globals.get("ejecutar")
    if not callable(ejecutar):
        raise Suspenso(str(NoCumple("No encuentro tu función ejecutar.", "no-carga")), ["no-carga"])
    aprobada, texto_, diagnosticos_ = veredicto(nombre, ejecutar)
    if not aprobada:
        raise Suspenso(texto_, diagnosticos_)
    print("✔ " + texto_)
