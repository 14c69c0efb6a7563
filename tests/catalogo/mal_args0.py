"""Usa e.args[0] como mensaje: falla con excepciones sin mensaje (IndexError) y pierde los demás argumentos.

esperado: salmorejo=1 esquema=1 excepciones=0 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: lanza-tu-codigo
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], e.args[0])
