"""Conserva el código inicial de la celda línea a línea y solo cambia el esqueleto por un try/except.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""
def ejecutar(llamada, entorno):
    """La observación que contesta a `llamada`: un tool_result con su id. De ella no sale ninguna excepción."""
    motivo = incumple(llamada)
    if motivo is not None:
        return error(llamada["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(llamada["id"], FUNCIONES[llamada["name"]](entorno, **llamada["input"]))
    except Exception as e:
        return error(llamada["id"], str(e) or type(e).__name__)
