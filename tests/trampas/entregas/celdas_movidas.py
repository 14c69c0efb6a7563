"""Honesta: mueve la respuesta al principio y desordena las celdas de prueba.

esperado: todo
"""

from entregas_raras import celda, escribir, respondido


def entregar(carpeta, release, buena):
    nb = respondido(release, buena)
    i, respuesta = celda(nb, "ejecutar")
    del nb["cells"][i]
    nb["cells"].insert(0, respuesta)
    pruebas = [c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id", "").startswith("ejecutar-")]
    resto = [c for c in nb["cells"] if c not in pruebas]
    nb["cells"] = resto[:5] + pruebas[::-1] + resto[5:]
    escribir(carpeta, nb)
