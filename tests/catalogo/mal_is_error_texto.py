"""Pone is_error como el texto "true" o "false", como se escriben en JSON, en vez de un booleano.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: no-es-un-tool-result
"""


def ejecutar(ll, entorno):
    observacion = {"type": "tool_result", "tool_use_id": ll["id"], "is_error": "true"}
    motivo = incumple(ll)
    if motivo is not None:
        observacion["content"] = "no se ha ejecutado: " + motivo
        return observacion
    try:
        observacion["content"] = FUNCIONES[ll["name"]](entorno, **ll["input"])
        observacion["is_error"] = "false"
    except Exception as e:
        observacion["content"] = str(e) or type(e).__name__
    return observacion
