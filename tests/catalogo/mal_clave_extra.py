"""Añade al error de ejecución una clave de más con el tipo de la excepción.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: no-es-un-tool-result
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        observacion = error(ll["id"], str(e) or type(e).__name__)
        observacion["tipo"] = type(e).__name__
        return observacion
