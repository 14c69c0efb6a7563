"""Deja la ejecución como en la primera celda de la lección: contesta al esquema, pero la excepción de la función aún sale de ejecutar.

esperado: salmorejo=0 esquema=1 excepciones=0 una-vez=0 resultados=1 escrituras=1 guiones=0
Lanza con alguna llamada en vez de contestarla, y una llamada sin observación tampoco cuenta
como ejecutada «una vez»: pierde también ese punto.
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
