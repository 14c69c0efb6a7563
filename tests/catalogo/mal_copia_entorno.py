"""Copia el entorno dentro del try y ejecuta la herramienta en la copia: lo que escribe se pierde.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=0 guiones=2
diagnóstico: trabaja-en-una-copia
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        copia = dict(entorno)
        return resultado(ll["id"], FUNCIONES[ll["name"]](copia, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
