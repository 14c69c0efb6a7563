"""Usa try/except/else: el resultado solo se construye en el else, cuando la función no ha lanzado.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""


def ejecutar(llamada, entorno):
    id = llamada["id"]
    motivo = incumple(llamada)
    if motivo is not None:
        return error(id, "no se ha ejecutado: " + motivo)
    funcion = FUNCIONES[llamada["name"]]
    try:
        salida = funcion(entorno, **llamada["input"])
    except Exception as e:
        return error(id, str(e) or type(e).__name__)
    else:
        return resultado(id, salida)
