"""Entrega una tubería con el nombre del cuaderno: quien la abra para leer se queda esperando para siempre.

esperado: sin-corregir
aviso: no es un fichero normal
"""

import os

from entregas_raras import CUADERNO


def entregar(carpeta, release, buena):
    carpeta.mkdir(parents=True)
    os.mkfifo(carpeta / CUADERNO)
