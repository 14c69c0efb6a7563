"""Deja la mitad del esquema tal cual y la envuelve con un decorador (functools.wraps) que convierte cualquier excepción en error.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""
import functools


def nunca_lanza(f):
    @functools.wraps(f)
    def envuelta(ll, entorno):
        try:
            return f(ll, entorno)
        except Exception as e:
            return error(ll["id"], str(e) or type(e).__name__)
    return envuelta


@nunca_lanza
def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
