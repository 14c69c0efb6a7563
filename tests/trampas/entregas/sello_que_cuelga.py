"""Su timestamp.txt es una tubería: nbgrader lo abre para leer la hora de entrega y se queda esperando.

esperado: apartada
aviso: timestamp.txt
"""

import os

from entregas_raras import escribir, respondido


def entregar(carpeta, release, buena):
    escribir(carpeta, respondido(release, buena))
    os.mkfifo(carpeta / "timestamp.txt")
