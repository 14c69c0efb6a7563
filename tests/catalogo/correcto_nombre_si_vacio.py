"""Si la excepción no trae mensaje, contesta con el nombre de su clase en un if aparte; si trae, con str(e).

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
        if not str(e):  # la API no admite un error vacío: al menos, qué excepción ha sido
            return error(ll["id"], type(e).__name__)
        return error(ll["id"], str(e))
