"""Captura `Exception as exc` y guarda str(exc) en una variable con nombre antes de devolver el error.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    herramienta = FUNCIONES[ll["name"]]
    argumentos = dict(ll["input"])
    try:
        contenido = herramienta(entorno, **argumentos)
    except Exception as exc:
        mensaje = str(exc) or exc.__class__.__name__
        return error(ll["id"], mensaje)
    return resultado(ll["id"], contenido)
