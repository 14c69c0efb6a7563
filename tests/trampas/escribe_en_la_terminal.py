"""Escribe en la salida de verdad de su proceso (la de nbgrader: la terminal del profesor o exports/procesos.txt) una línea de registro falsa, caracteres de control y un mega.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""

import os
import sys

_FALSA = "\x1b[2J\x1b[H\x1b]0;TRAMPA-EN-LA-TERMINAL\x07[AutogradeApp | INFO] TRAMPA-EN-LA-TERMINAL: 12/12\n"


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")


for _fd in (1, 2):  # los descriptores: en el núcleo, ipykernel copia lo que llega a ellos en los suyos de antes
    try:
        os.write(_fd, _FALSA.encode())
    except OSError:
        pass
for _flujo in (sys.__stdout__, sys.__stderr__):
    try:
        _flujo.write(_FALSA)
        _flujo.flush()
    except (OSError, ValueError, AttributeError):
        pass
os.system("echo TRAMPA-EN-LA-TERMINAL desde otro proceso >&2")
for _ in range(16):
    try:
        os.write(1, b"TRAMPA-EN-LA-TERMINAL " + b"x" * 65536)
    except OSError:
        break
