"""Copia el entorno antes del try, fuera de él, y ejecuta la herramienta en la copia.

Lo que escribe se pierde en la copia: eso resta, en escrituras. Cuando el disco de una prueba falla al
leer un fichero, la excepción sale de la copia, fuera del try; con el diccionario de la lección la copia
no fallaría, así que no se cobra como una excepción que deja la llamada sin respuesta, sino como lo que
es, trabajar en una copia (lo mismo que si copiara dentro del try).

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
        return error(ll["id"], str(e) or type(e).__name__)
