"""Escribe a mano los dict tool_result, sin llamar a resultado ni a error.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""


def ejecutar(ll, entorno):
    observacion = {"type": "tool_result", "tool_use_id": ll["id"]}
    motivo = incumple(ll)
    if motivo is not None:
        observacion["content"] = "no se ha ejecutado: " + motivo
        observacion["is_error"] = True
        return observacion
    try:
        observacion["content"] = FUNCIONES[ll["name"]](entorno, **ll["input"])
        observacion["is_error"] = False
    except Exception as e:
        observacion["content"] = str(e) or type(e).__name__
        observacion["is_error"] = True
    return observacion
