"""Pide memoria sin fin hasta tumbar el proceso.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")


_montones = []
while True:
    _montones.append(bytearray(50 * 1024 ** 2))
