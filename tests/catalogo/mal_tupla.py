"""Devuelve una tupla (id, contenido, es_error) en vez del dict tool_result.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: no-es-un-tool-result
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return ll["id"], "no se ha ejecutado: " + motivo, True
    try:
        return ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]), False
    except Exception as e:
        return ll["id"], str(e) or type(e).__name__, True
