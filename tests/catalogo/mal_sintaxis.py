"""Tiene un error de sintaxis (faltan los dos puntos del except), así que la celda no define nada.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: no-carga
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e
        return error(ll["id"], str(e) or type(e).__name__)
