"""Pone en el cuaderno fuente las celdas del desafío tal como las corrige course/calificacion.py (idempotente).

Puntos de cada celda ejecutar-*, comentarios de las pruebas (con la regla del contrato de la que tratan), la
prueba visible de ejecutar-excepciones,
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
# la celda la decide course/calificacion.py). Con «except FileNotFoundError» no pasa. Su comentario, que va
# antes de la parte oculta, está en COMENTARIOS.
VISIBLES = {
    "ejecutar-salmorejo": '''
from harness.aula import en_prueba

modelo_de_prueba = ModeloGuionizado(guion_de(INICIO, RESPUESTAS, VISTO))
entorno_de_prueba = dict(ENTORNO)
como_acaba, texto_final, _ = bucle(modelo_de_prueba, INICIO, entorno_de_prueba, 10, en_prueba(ejecutar))
assert como_acaba == "fin", "La conversación debería terminar con 'fin' y ha terminado con %r." % como_acaba
assert texto_final == FINAL, "El último turno debería decir %r y dice %r." % (FINAL, texto_final)
assert entorno_de_prueba == ENTORNO, "La conversación del salmorejo no debe cambiar ningún fichero."
print("✔ La conversación del salmorejo llega al final con tu ejecutar, y los ficheros siguen igual.")''',
    "ejecutar-excepciones": '''
from harness.aula import NoPasa, en_prueba
from harness.revision import cuenta_el_fallo


class DiscoQueFalla(dict):
    \"\"\"Los ficheros de ENTORNO en un disco que sabe cuáles hay, pero lanza `fallo` al leer cualquiera.\"\"\"

    def __init__(self, fallo):
        super().__init__(ENTORNO)
        self.fallo = fallo

    def __getitem__(self, ruta):
        raise self.fallo


for fallo in (PermissionError("no tienes permiso para leer 'lista.txt'"), ValueError("lista.txt no está en UTF-8")):
    observacion = en_prueba(ejecutar)(llamada("v1", "leer", ruta="lista.txt"), DiscoQueFalla(fallo))
    if observacion == resultado("v1", ENTORNO["lista.txt"]):  # leer ha leído bien: no era este disco
        raise NoPasa("leer no ha llegado a lanzar %s: tu ejecutar le ha pasado otro entorno (¿una copia?).\\n"
                     "La herramienta trabaja en el mismo entorno que recibe ejecutar (regla 6 del contrato)."
                     % type(fallo).__name__)
    if not cuenta_el_fallo(observacion, fallo):  # un error cuyo texto lleva el mensaje de la excepción
        raise NoPasa("cuando leer lanza %s, debería llegar un error que diga %r\\ny ha llegado %s."
                     % (type(fallo).__name__, str(fallo), muestra(observacion)))
print("✔ Con PermissionError y con ValueError, tu ejecutar contesta con un error que dice qué ha pasado.")''',
}


# El comentario de cada celda de prueba con parte oculta: qué mira, y de qué regla del contrato trata
# (la numeración de la lección y de `revisar`, harness.revision.REGLA).
COMENTARIOS = {
    "ejecutar-salmorejo": "# Prueba visible, con todas las reglas del contrato: la conversación del salmorejo, entera, por el\n"
                          "# bucle con tu ejecutar. Si tu ejecutar deja salir una excepción, tarda más de un segundo en una\n"
                          "# llamada o el modelo guionizado recibe algo que no espera, lo dice en pocas líneas.\n",
    "ejecutar-esquema": "# Prueba oculta, regla 2 del contrato: llamadas que no cumplen su esquema (una herramienta que no\n"
                        "# existe, un campo que falta o que sobra, un tipo equivocado). Comprueba que no se ejecutan, que no\n"
                        "# tocan el entorno y que su error da el motivo exacto.\n",
    "ejecutar-excepciones": "# Prueba visible, regla 3 del contrato: leer, en un disco que falla al leer un fichero que sí existe,\n"
                            "# con excepciones que no son FileNotFoundError. Tu ejecutar tiene que contestar igual: un error\n"
                            "# cuyo texto lleva el mensaje de la excepción.\n"
                            "# Al corregir se añaden pruebas ocultas: las cuatro herramientas en discos que fallan con\n"
                            "# excepciones de tipos distintos, algunas sin mensaje (entonces el texto dice su tipo) y otras\n"
                            "# con varios argumentos. Ninguna debe salir de ejecutar.\n",
    "ejecutar-una-vez": "# Prueba oculta, regla 5 del contrato: cuenta cuántas veces ve el entorno el trabajo de la herramienta\n"
                        "# en cada llamada (leer su fichero, recorrer las rutas, escribir; mirar si un fichero está no cuenta).\n"
                        "# Comprueba que se ejecuta, y una vez como mucho, también cuando falla: repetir es cosa del modelo.\n",
    "ejecutar-sin-arreglos": "# Prueba oculta, regla 6 del contrato: llamadas que invitan a arreglarlas (un campo con otro nombre,\n"
                             "# un fichero con una errata). Comprueba que ejecutar no hace en el entorno nada distinto de lo que\n"
                             "# ha pedido el modelo, y que no cambia el diccionario de la llamada.\n",
    "ejecutar-resultados": "# Prueba oculta, regla 4 del contrato: llamadas que salen bien. Comprueba que lo que devuelve la\n"
                           "# herramienta llega tal cual (también con espacios a los lados, o si parece un error), y que el\n"
                           "# tool_result tiene exactamente la forma acordada (un dict, con is_error como booleano).\n",
    "ejecutar-escrituras": "# Prueba oculta, regla 6 del contrato: llamadas a escribir. Comprueba que lo escrito queda en el\n"
                           "# entorno que recibe ejecutar, no en una copia.\n",
    "ejecutar-guiones": "# Prueba oculta, con todas las reglas del contrato: otras conversaciones guionizadas que no has visto,\n"
                        "# con errores de las dos clases, pasadas por el bucle con tu ejecutar: cada llamada recibe su\n"
                        "# observación, en orden.\n",
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

LISTA = ("# La lista de comprobación, con casos de muestra: una línea ✔ o ✘ por comprobación, que empieza por\n"
         "# la regla del contrato que mira. Al corregir se usan las mismas comprobaciones con otros casos que no ves.\n"
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
