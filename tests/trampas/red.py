"""Intenta sacar las pruebas por la red (y, si no puede, deja un ejecutar que no hace nada).

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""

import socket

try:
    socket.create_connection(("127.0.0.1", 8888), timeout=1).sendall(b"hola")
except OSError:
    pass


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")
