"""`make lab`: abre la lección en JupyterLab, en español, tal como la ve un estudiante.

La primera vez copia el cuaderno de release/ a trabajo/, para que lo que escriba quien lo
pruebe no toque el que genera nbgrader.
"""

import shutil
import sys

from .entorno import preparar
from .estudiantes.empezar import abrir_lab
from . import CUADERNO, RAIZ, TAREA


def main(argumentos):
    trabajo = RAIZ / "trabajo" / TAREA
    if not trabajo.exists():
        shutil.copytree(RAIZ / "release" / TAREA, trabajo)
    try:
        preparar(sys.prefix)  # español, la extensión del curso y el intercambio (course/entorno.py)
    except OSError as error:  # un entorno de solo lectura: JupyterLab abre igual, tal cual está
        print(f"Aviso: no se ha podido preparar el entorno de JupyterLab ({error}).")
    return abrir_lab(sys.executable, (trabajo / CUADERNO).relative_to(RAIZ), RAIZ, argumentos)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
