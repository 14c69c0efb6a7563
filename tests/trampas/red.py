"""Intenta sacar las pruebas por la red (y, si no puede, deja un ejecutar que no hace nada).

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""

import socket

for _puerto in range(8888, 8898):  # donde escuche alguien en la máquina del profesor
    try:
        socket.create_connection(("127.0.0.1", _puerto), timeout=0.2).sendall(b"hola")
    except OSError:
        pass


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")
