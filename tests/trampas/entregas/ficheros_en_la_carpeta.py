"""Junto a un cuaderno bueno, deja enlaces a las soluciones y al gradebook, una tubería, un fichero disperso de 50 GB y un árbol de carpetas muy hondo.

nbgrader copiaba los demás ficheros de la entrega a autograded/ (y de ahí a la retroalimentación)
siguiendo los enlaces: la copia del cuaderno fuente llegaba al estudiante; la tubería colgaba la copia.

esperado: todo
"""

import os

from entregas_raras import escribir, fuente, respondido


def entregar(carpeta, release, buena):
    escribir(carpeta, respondido(release, buena))
    curso = carpeta.parents[2]
    os.symlink(fuente(carpeta), carpeta / "soluciones.ipynb")
    os.symlink(fuente(carpeta), carpeta / "soluciones.txt")
    os.symlink(curso / "gradebook.db", carpeta / "gradebook.txt")
    os.symlink(curso / "source", carpeta / "fuente")
    os.mkfifo(carpeta / "tuberia.txt")
    with open(carpeta / "disperso.bin", "wb") as f:
        f.truncate(50 * 1024 ** 3)
    hondo = carpeta / "arbol"
    for _ in range(900):
        hondo = hondo / "d"
    hondo.mkdir(parents=True)
