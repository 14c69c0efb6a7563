"""Ejecuta sobre una copia del entorno "por seguridad", así que lo que escribe escribir se pierde.

esperado: salmorejo=3 esquema=1 excepciones=0 una-vez=0 resultados=1 escrituras=0 guiones=0
La copia se hace fuera del try: si el disco falla al leerlo, ejecutar lanza, y eso también
incumple el contrato (nunca lanza). Por eso pierde además los puntos de excepciones, y el de una-vez: una llamada que
no recibe su observación no cuenta como ejecutada una vez.
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
