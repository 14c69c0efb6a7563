"""Busca la tubería por la que habla con el corrector, escribe media línea y se queda esperando, para colgarlo.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""

import fcntl
import os
import time

for _fd in range(3, 30):
    try:
        if fcntl.fcntl(_fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
            os.write(_fd, b"{")
    except OSError:
        pass
time.sleep(10 ** 5)


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")
