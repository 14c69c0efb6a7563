"""Honesta: copia el código de su respuesta a una celda nueva (sin los metadatos de nbgrader) y borra la original.

esperado: todo
aviso: había perdido su marca de nbgrader
"""

from entregas_raras import celda, escribir, respondido


def entregar(carpeta, release, buena):
    nb = respondido(release, buena)
    i, respuesta = celda(nb, "ejecutar")
    nb["cells"][i] = {"cell_type": "code", "id": "nueva", "metadata": {}, "source": respuesta["source"],
                      "outputs": [], "execution_count": None}
    escribir(carpeta, nb)
