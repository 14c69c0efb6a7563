"""Sólo captura FileNotFoundError: cualquier otra excepción de la función sigue saliendo de ejecutar.

esperado: salmorejo=3 esquema=1 excepciones=0 una-vez=0 resultados=1 escrituras=1 guiones=1
Lanza con alguna llamada en vez de contestarla, y una llamada sin observación tampoco cuenta
como ejecutada «una vez»: pierde también ese punto.
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except FileNotFoundError as e:
        return error(ll["id"], str(e))
