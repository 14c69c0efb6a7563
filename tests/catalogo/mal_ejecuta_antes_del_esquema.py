"""Ejecuta la función antes de mirar el esquema y solo después decide qué observación devolver.

esperado: salmorejo=1 esquema=0 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ejecuta-sin-esquema
"""


def ejecutar(ll, entorno):
    fallo = None
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except Exception as e:
        fallo = str(e) or type(e).__name__
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    if fallo is not None:
        return error(ll["id"], fallo)
    return resultado(ll["id"], salida)
