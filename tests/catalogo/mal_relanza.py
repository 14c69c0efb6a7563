"""Captura la excepción pero la vuelve a lanzar envuelta en un RuntimeError con más contexto.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: lanza-otra-excepcion
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        raise RuntimeError("la herramienta %s ha fallado: %s" % (ll["name"], e)) from e
