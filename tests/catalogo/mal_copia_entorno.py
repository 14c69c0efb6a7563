"""Ejecuta sobre una copia del entorno "por seguridad", así que lo que escribe escribir se pierde.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=0 guiones=2
diagnóstico: trabaja-en-una-copia
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    copia = dict(entorno)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](copia, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e))
