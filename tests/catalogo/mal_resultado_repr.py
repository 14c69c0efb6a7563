"""Convierte lo devuelto con repr() antes de ponerlo en el resultado, y le añade comillas.

esperado: salmorejo=0 esquema=1 excepciones=2 una-vez=1 resultados=0 escrituras=0 guiones=0
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except Exception as e:
        return error(ll["id"], str(e))
    return resultado(ll["id"], repr(salida))
