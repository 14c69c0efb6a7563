"""Contesta al corrector por su tubería con datos que no se pueden leer: anidados sin fin, claves imposibles, millones de piezas, números enormes.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""

import fcntl
import os
import time

_VENENOS = [
    b'{"devuelve": ' + b'{"list": [' * 5000 + b'{"v": 1}' + b']}' * 5000 + b'}',
    b'{"devuelve": {"dict": [[{"list": []}, {"v": 1}]]}}',
    b'{"devuelve": {"list": [' + b",".join([b'{"v": 0}'] * 220_000) + b']}}',
    b'{"devuelve": {"v": ' + b"9" * 100_000 + b'}}',
    b'{"devuelve": {"set": [{"dict": []}]}}',
    b'{"excepcion": {"tipo": ["no"], "texto": 7}}',
    b'{"devuelve": 12}',
    b'[1, 2, 3]',
]


def _tuberia_de_salida():
    for fd in range(3, 30):
        try:
            if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
                return fd
        except OSError:
            pass


def ejecutar(llamada, entorno):
    veneno = _VENENOS[sum(map(ord, str(llamada.get("id")))) % len(_VENENOS)]  # uno distinto según la llamada
    os.write(_tuberia_de_salida(), veneno + b"\n")
    time.sleep(10 ** 5)
