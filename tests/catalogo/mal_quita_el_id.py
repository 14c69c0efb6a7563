"""Saca el id de la llamada con pop: contesta con su id, pero el turno del modelo se queda con una llamada sin él.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=0 resultados=1 escrituras=1 guiones=2
diagnóstico: cambia-la-llamada
"""


def ejecutar(llamada, entorno):
    ident = llamada.pop("id")  # ya no hace falta en la llamada
    motivo = incumple(llamada)
    if motivo is not None:
        return error(ident, "no se ha ejecutado: " + motivo)
    try:
        devuelto = FUNCIONES[llamada["name"]](entorno, **llamada["input"])
    except Exception as e:
        return error(ident, str(e) or type(e).__name__)
    return resultado(ident, devuelto)
