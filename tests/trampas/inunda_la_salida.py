"""Imprime sin parar, para llenar la memoria o el disco de quien corrige.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")


while True:
    print("x" * 10000)
