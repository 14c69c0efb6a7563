"""Solo captura FileNotFoundError: cualquier otra excepción de la función sigue saliendo de ejecutar.

esperado: salmorejo=1 esquema=1 excepciones=0 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: captura-solo-un-tipo
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except FileNotFoundError as e:
        return error(ll["id"], str(e))
