"""Su carpeta de entrega es un enlace simbólico a la de un compañero con la respuesta buena.

esperado: apartada
aviso: es un enlace simbólico
"""

import os


def entregar(carpeta, release, buena):
    carpeta.parent.mkdir(parents=True)
    os.symlink(carpeta.parents[1] / "correcto_try_except" / carpeta.name, carpeta)
