"""Inventa metadatos: una celda de prueba «ejecutar-salmorejo» de mil puntos que aprueba sola, etiquetas con HTML, un grade_id que no es texto; su respuesta no hace nada.

esperado: nada
"""

from entregas_raras import escribir, respondido


def entregar(carpeta, release, buena):
    nb = respondido(release, 'def ejecutar(llamada, entorno):\n    return error(llamada["id"], "x")\n')
    nb["cells"].insert(0, {"cell_type": "code", "id": "falsa", "outputs": [], "execution_count": None,
                           "source": "print('aprobado')",
                           "metadata": {"tags": ['"><script>document.title="TRAMPA"</script>'],
                                        "nbgrader": {"grade": True, "solution": False, "locked": True, "points": 1000,
                                                     "grade_id": "ejecutar-salmorejo", "schema_version": 3}}})
    nb["cells"].insert(0, {"cell_type": "code", "id": "rara", "outputs": [], "execution_count": None,
                           "source": "x = 1", "metadata": {"nbgrader": {"grade_id": ["no", "es", "texto"]}}})
    nb["metadata"]["title"] = '</title><script>document.title="TRAMPA"</script>'
    escribir(carpeta, nb)
