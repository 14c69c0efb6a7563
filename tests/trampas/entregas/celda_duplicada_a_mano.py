"""Honesta: copia y pega la respuesta terminada al final del cuaderno, con sus metadatos, y deja la de arriba a medias.

esperado: todo
aviso: 2 celdas con la respuesta «ejecutar»
"""

import copy

from entregas_raras import celda, escribir, respondido


def entregar(carpeta, release, buena):
    nb = respondido(release, buena)
    _, terminada = celda(nb, "ejecutar")
    copia = copy.deepcopy(terminada)
    copia["id"] = "pegada"
    terminada["source"] = buena.split("\n\n")[0] + "\n    # a medias\n"
    nb["cells"].append(copia)
    escribir(carpeta, nb)
