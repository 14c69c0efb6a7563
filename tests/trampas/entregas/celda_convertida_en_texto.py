"""Honesta: sin querer, convierte la celda de su respuesta en markdown (la tecla M) antes de entregar.

esperado: todo
aviso: convertida en texto
"""

from entregas_raras import celda, escribir, respondido


def entregar(carpeta, release, buena):
    nb = respondido(release, buena)
    _, respuesta = celda(nb, "ejecutar")
    respuesta["cell_type"] = "markdown"
    respuesta.pop("outputs"), respuesta.pop("execution_count")
    escribir(carpeta, nb)
