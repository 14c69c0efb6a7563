"""Comprueba el esquema y envuelve la llamada en try/except Exception, devolviendo str(e) como error (o el tipo de la excepción, si no trae mensaje).

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
