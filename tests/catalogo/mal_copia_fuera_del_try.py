"""Copia el entorno antes del try, fuera de él, y ejecuta la herramienta en la copia.

La copia lee todos los ficheros: cuando el disco falla al leer uno, la excepción sale de esa línea, fuera
del try, y la llamada básica que falla se queda sin respuesta.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: lanza-tu-codigo
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    copia = dict(entorno)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](copia, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
