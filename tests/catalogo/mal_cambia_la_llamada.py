"""Apunta en la llamada del modelo que ya la ha atendido (llamada["atendida"] = True): cambia el turno del modelo que guarda la conversación.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=0 resultados=1 escrituras=1 guiones=2
diagnóstico: cambia-la-llamada
"""

def ejecutar(ll, entorno):
    ll["atendida"] = True
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
