"""Honesta: «Duplicar celda» en JupyterLab sobre la respuesta; escribe en la copia y deja la original con el esqueleto.

Con la corrección de nbgrader tal cual, DeduplicateIds vaciaba los metadatos de una de las dos y
CheckCellMetadata paraba la corrección de toda la clase (jupyter/nbgrader#1083).

esperado: todo
aviso: 2 celdas con la respuesta «ejecutar»
"""

from entregas_raras import celda, escribir, respondido


def entregar(carpeta, release, buena):
    nb = respondido(release, None)
    i, original = celda(nb, "ejecutar")
    copia = dict(original, source=buena, id="copia-de-ejecutar")
    nb["cells"].insert(i + 1, copia)
    escribir(carpeta, nb)
