"""Guarda el fallo en una variable y sale pronto en cada caso, sin anidar nada dentro del try.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""


def ejecutar(ll, entorno):
    if incumple(ll):
        return error(ll["id"], "no se ha ejecutado: " + incumple(ll))
    fallo = None
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except Exception as e:
        fallo = e
    if fallo is not None:
        return error(ll["id"], str(fallo) or type(fallo).__name__)
    return resultado(ll["id"], salida)
