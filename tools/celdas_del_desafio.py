"""Pone en el cuaderno fuente las celdas del desafío tal como las corrige course/calificacion.py (idempotente).

Puntos de cada celda ejecutar-*, comentarios de las pruebas ocultas, la prueba visible de ejecutar-excepciones,
la celda ejecutar-sin-arreglos tras ejecutar-una-vez y la celda de la lista de comprobación (id `revisar`)
justo debajo de la respuesta, para que «Ejecutar todas las celdas» llegue a ella aunque falle una prueba.
No toca ninguna otra celda: sirve también para trasplantar el desafío a un cuaderno reescrito.
Uso: .venv/bin/python tools/celdas_del_desafio.py && make release
"""
import nbformat
from nbformat.v4 import new_code_cell

from course import CUADERNO, RAIZ, TAREA

RUTA = RAIZ / "source" / TAREA / CUADERNO
nb = nbformat.read(RUTA, as_version=4)
PUNTOS = {"ejecutar-salmorejo": 1, "ejecutar-esquema": 1, "ejecutar-excepciones": 2, "ejecutar-una-vez": 2,
          "ejecutar-sin-arreglos": 2, "ejecutar-resultados": 1, "ejecutar-escrituras": 1, "ejecutar-guiones": 2}


def oculta(nombre, comentario):
    return comentario + "### BEGIN HIDDEN TESTS\nfrom course.calificacion import comprobar\ncomprobar(\"%s\")\n### END HIDDEN TESTS" % nombre


# Lo que ve y ejecuta el estudiante en una celda de prueba, tras la parte oculta (al corregir no se ejecuta:
# la celda la decide course/calificacion.py). Con «except FileNotFoundError» no pasa.
VISIBLES = {
    "ejecutar-excepciones": '''
# Prueba visible: leer, en un disco que falla al leer un fichero que sí existe, con excepciones que no son
# FileNotFoundError. Tu ejecutar tiene que contestar igual: un error con el mensaje de la excepción, tal cual.
from harness.ejercicios import NoPasa, en_prueba


class DiscoQueFalla(dict):
    """Los ficheros de ENTORNO en un disco que sabe cuáles hay, pero lanza `fallo` al leer cualquiera."""

    def __init__(self, fallo):
        super().__init__(ENTORNO)
        self.fallo = fallo

    def __getitem__(self, ruta):
        raise self.fallo


for fallo in (PermissionError("no tienes permiso para leer 'lista.txt'"), ValueError("lista.txt no está en UTF-8")):
    observacion = en_prueba(ejecutar)(llamada("v1", "leer", ruta="lista.txt"), DiscoQueFalla(fallo))
    if observacion != error("v1", str(fallo)):
        raise NoPasa("cuando leer lanza %s, debería llegar %s\\ny ha llegado %s."
                     % (type(fallo).__name__, muestra(error("v1", str(fallo))), muestra(observacion)))
print("✔ Con PermissionError y con ValueError, tu ejecutar contesta con un error y el mensaje tal cual.")''',
}


COMENTARIOS = {
    "ejecutar-excepciones": "# Prueba oculta: herramientas que lanzan excepciones de tipos distintos, algunas sin mensaje y\n"
                            "# otras con varios argumentos. Comprueba que cada una vuelve como error con el mensaje de la\n"
                            "# excepción, tal cual, y que ninguna sale de ejecutar.\n",
    "ejecutar-una-vez": "# Prueba oculta: cuenta cuántas veces se llama a la función de la herramienta en cada llamada (mirar\n"
                        "# el entorno no cuenta). Comprueba que se ejecuta una vez como mucho, también cuando falla: repetir\n"
                        "# es cosa del modelo.\n",
    "ejecutar-sin-arreglos": "# Prueba oculta: llamadas que invitan a arreglarlas (un campo con otro nombre, un fichero con una\n"
                             "# errata). Comprueba que ejecutar no ejecuta nada distinto de lo que ha pedido el modelo.\n",
    "ejecutar-guiones": "# Prueba oculta: otras conversaciones guionizadas que no has visto, con errores de las dos clases,\n"
                        "# pasadas por el bucle con tu ejecutar: cada llamada recibe su observación, en orden.\n",
}
celdas = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in nb.cells}
if "ejecutar-sin-arreglos" not in celdas:
    molde = celdas["ejecutar-una-vez"]
    nueva = new_code_cell(oculta("sin-arreglos", COMENTARIOS["ejecutar-sin-arreglos"]))
    nueva.id = "ejecutar-sin-arreglos"
    nueva.metadata = {"nbgrader": dict(molde.metadata["nbgrader"], grade_id="ejecutar-sin-arreglos")}
    nb.cells.insert(nb.cells.index(molde) + 1, nueva)
    celdas["ejecutar-sin-arreglos"] = nueva
for grade_id, puntos in PUNTOS.items():
    celdas[grade_id].metadata["nbgrader"]["points"] = puntos
for grade_id, comentario in COMENTARIOS.items():
    celdas[grade_id].source = oculta(grade_id[len("ejecutar-"):], comentario) + VISIBLES.get(grade_id, "")

LISTA = ("# La lista de comprobación: una línea ✔ o ✘ por cada cláusula del contrato de ejecutar, con casos\n"
         "# de muestra. Al corregir se usan las mismas comprobaciones con otros casos que no ves.\n"
         "from harness.revision import revisar\n\nrevisar(ejecutar)")
lista = next((c for c in nb.cells if c.get("id") == "revisar"), None)
if lista is None:
    lista = new_code_cell(LISTA)
    lista.id = "revisar"
else:
    nb.cells.remove(lista)
    lista.source = LISTA
nb.cells.insert(nb.cells.index(celdas["ejecutar"]) + 1, lista)
nbformat.write(nb, RUTA)
