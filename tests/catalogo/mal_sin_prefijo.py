"""Devuelve el motivo del esquema sin el prefijo "no se ha ejecutado: ".

esperado: salmorejo=0 esquema=0 excepciones=2 una-vez=1 resultados=1 escrituras=1 guiones=0
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e))
