"""Captura la excepción pero la vuelve a lanzar envuelta en un RuntimeError con más contexto.

esperado: salmorejo=0 esquema=1 excepciones=0 una-vez=0 resultados=1 escrituras=1 guiones=0
Lanza con alguna llamada en vez de contestarla, y una llamada sin observación tampoco cuenta
como ejecutada «una vez»: pierde también ese punto.
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        raise RuntimeError("la herramienta %s ha fallado: %s" % (ll["name"], e)) from e
