"""Construye el error en el except pero se olvida del return: con una herramienta que falla, devuelve None.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: no-contesta
Ninguna prueba puntúa: la llamada que falla no recibe observación, y esa era la parte del desafío.
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        error(ll["id"], str(e) or type(e).__name__)
