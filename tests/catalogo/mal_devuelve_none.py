"""No contesta nada: ejecutar devuelve None con cualquier llamada, así que ni siquiera lanza.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: no-contesta
"""


def ejecutar(llamada, entorno):
    return None
