"""Escribe a mano las observaciones con is_error como entero (1 o 0) en vez de True o False.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: no-es-un-tool-result
"""


def _observacion(id, contenido, fallo):
    return {"type": "tool_result", "tool_use_id": id, "content": contenido, "is_error": int(fallo)}


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return _observacion(ll["id"], "no se ha ejecutado: " + motivo, True)
    try:
        return _observacion(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]), False)
    except Exception as e:
        return _observacion(ll["id"], str(e) or type(e).__name__, True)
