"""Numera sus propias observaciones en vez de usar el id de la llamada, así que el modelo no sabe a qué llamada contesta cada una.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: no-es-un-tool-result
"""
import itertools

_numeros = itertools.count(1)


def ejecutar(ll, entorno):
    id = "r%d" % next(_numeros)
    motivo = incumple(ll)
    if motivo is not None:
        return error(id, "no se ha ejecutado: " + motivo)
    try:
        return resultado(id, FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(id, str(e) or type(e).__name__)
