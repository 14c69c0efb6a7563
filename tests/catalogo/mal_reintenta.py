"""Si la función lanza, el harness la reintenta una vez por su cuenta antes de devolver el error.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=0 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: reintenta
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    funcion = FUNCIONES[ll["name"]]
    try:
        return resultado(ll["id"], funcion(entorno, **ll["input"]))
    except Exception:
        try:
            return resultado(ll["id"], funcion(entorno, **ll["input"]))
        except Exception as e:
            return error(ll["id"], str(e) or type(e).__name__)
