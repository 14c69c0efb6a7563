"""La conversación del salmorejo: la que la lección recorre y el corrector vuelve a pasar por el bucle.

Las llamadas t1 y t2 están mal a propósito. Lo que espera el guion tras cada turno es lo que
debe contestar un harness correcto.
"""

from .bloques import error, llamada, resultado, texto
from .entorno import ENTORNO, listar

INICIO = [
    ("sistema", "Trabajas con los ficheros del usuario mediante tus herramientas."),
    ("usuario", "Añade a lista.txt lo que falta para el salmorejo."),
]

FINAL = "No hay receta de salmorejo, solo de gazpacho y de tortilla. No he cambiado lista.txt."

RESPUESTAS = [
    [texto("Leo la receta y la lista."),
     llamada("t1", "leer", rutas=["recetas/salmorejo.txt", "lista.txt"])],
    [llamada("t2", "leer", ruta="recetas/salmorejo.txt"),
     llamada("t3", "leer", ruta="lista.txt")],
    [llamada("t4", "listar", carpeta="recetas/")],
    [texto(FINAL)],
]

VISTO = [
    [error("t1", "no se ha ejecutado: falta el campo 'ruta'")],
    [error("t2", "no existe el fichero 'recetas/salmorejo.txt'"), resultado("t3", ENTORNO["lista.txt"])],
    [resultado("t4", listar(ENTORNO, "recetas/"))],
    None,
]
