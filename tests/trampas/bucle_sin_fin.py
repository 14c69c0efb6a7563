"""Define un ejecutar que no hace nada y se queda en un bucle sin fin, esperando que el corrector se rinda.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")


while True:
    try:
        pass
    except BaseException:
        pass
