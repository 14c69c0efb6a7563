"""Entrega, en vez del cuaderno, un enlace simbólico al cuaderno fuente del profesor (con las soluciones).

Con la corrección de nbgrader tal cual, sacaba todos los puntos.

esperado: sin-corregir
aviso: enlace simbólico
"""

import os

from entregas_raras import CUADERNO, fuente


def entregar(carpeta, release, buena):
    carpeta.mkdir(parents=True)
    os.symlink(fuente(carpeta), carpeta / CUADERNO)
