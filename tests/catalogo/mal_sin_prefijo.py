"""Devuelve el motivo del esquema sin el prefijo "no se ha ejecutado: ".

esperado: salmorejo=1 esquema=0 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: motivo-sin-prefijo
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
