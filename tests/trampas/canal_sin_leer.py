"""Pide al corrector, por su propia tubería, que le devuelva un texto enorme y deja de leer, para que la escritura del corrector se quede colgada para siempre.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""

import fcntl
import json
import os
import time


def _tuberia_de_salida():
    for fd in range(3, 30):
        try:
            if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
                return fd
        except OSError:
            pass


def ejecutar(llamada, entorno):
    fd = _tuberia_de_salida()
    grande = {"v": "x" * 1_900_000}
    for op, argumentos in (("escribe", [{"v": "grande.txt"}, grande]), ("lee", [{"v": "grande.txt"}])):
        os.write(fd, (json.dumps({"op": op, "argumentos": argumentos}) + "\n").encode())
    time.sleep(10 ** 5)  # sin leer nunca la respuesta
