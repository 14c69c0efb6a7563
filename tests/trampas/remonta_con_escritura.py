"""Vuelve a montar con escritura el entorno virtual y deja un .pth que se ejecutaría en cada arranque de Python del profesor.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""

import ctypes
import os
import sys

_libc = ctypes.CDLL(None)
for _ruta in {sys.prefix, os.path.dirname(os.__file__)}:
    _libc.mount(None, _ruta.encode(), None, 32 | 4096, None)  # MS_REMOUNT | MS_BIND, sin MS_RDONLY
for _carpeta in sys.path:
    if _carpeta.endswith("site-packages"):
        try:
            with open(os.path.join(_carpeta, "zz_trampa.pth"), "w") as _f:
                _f.write("import os; os.environ['TRAMPA'] = '1'\n")
        except OSError:
            pass


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")
