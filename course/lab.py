"""`make lab`: abre la lección en JupyterLab, en español, tal como la ve un estudiante.

La primera vez copia el cuaderno de release/ a trabajo/, para que lo que escriba quien lo
pruebe no toque el que genera nbgrader.
"""

import shutil
import sys

from .estudiantes.empezar import abrir_lab, idioma_por_defecto
from .traduccion.completar import completar
from . import CUADERNO, RAIZ, TAREA


def main(argumentos):
    trabajo = RAIZ / "trabajo" / TAREA
    if not trabajo.exists():
        shutil.copytree(RAIZ / "release" / TAREA, trabajo)
    idioma_por_defecto(sys.prefix)
    try:
        completar()  # el español que le falta al paquete de idioma (course/traduccion/)
    except OSError as error:  # un entorno de solo lectura: JupyterLab abre igual, con el paquete tal cual
        print(f"Aviso: no se ha podido completar la traducción de JupyterLab ({error}).")
    return abrir_lab(sys.executable, (trabajo / CUADERNO).relative_to(RAIZ), RAIZ, argumentos)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
