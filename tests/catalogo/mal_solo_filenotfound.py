"""Solo captura FileNotFoundError: cualquier otra excepción de la función sigue saliendo de ejecutar.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: solo-la-traza
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except FileNotFoundError as e:
        return error(ll["id"], str(e) or type(e).__name__)
