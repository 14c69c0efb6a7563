"""Ejecuta la herramienta en otro hilo (concurrent.futures) y espera su resultado: la excepción vuelve con él.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""
from concurrent.futures import ThreadPoolExecutor

_HILOS = ThreadPoolExecutor(max_workers=1)


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    pendiente = _HILOS.submit(FUNCIONES[ll["name"]], entorno, **ll["input"])
    try:
        return resultado(ll["id"], pendiente.result())
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
