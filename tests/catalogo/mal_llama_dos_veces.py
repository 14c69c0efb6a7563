"""Ejecuta la función una vez para ver si lanza y otra vez para quedarse con lo que devuelve.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=0 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ejecuta-dos-veces
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    funcion = FUNCIONES[ll["name"]]
    try:
        funcion(entorno, **ll["input"])
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
    return resultado(ll["id"], funcion(entorno, **ll["input"]))
