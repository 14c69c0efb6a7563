"""`make lab`: abre la lección en JupyterLab, en español, tal como la ve un estudiante.
`make profesor`: JupyterLab en la raíz del curso con lo del profesor (formgrader, crear tareas).

`make lab` abre el mismo entorno que el `empezar.py` del paquete de los estudiantes: sin formgrader, sin
la barra de crear tareas ni nada de corregir en el menú «Curso» (empezar.configuracion_de_estudiante). La
primera vez copia el cuaderno de release/ a trabajo/, para que lo que escriba quien lo pruebe no toque el
que genera nbgrader. Cada uno guarda sus pestañas en su propio espacio de trabajo.
"""

import shutil
import sys

from .entorno import preparar
from .estudiantes.empezar import abrir_lab
from . import CUADERNO, RAIZ, TAREA


def main(argumentos):
    profesor = "--profesor" in argumentos
    argumentos = [a for a in argumentos if a != "--profesor"]
    try:
        preparar(sys.prefix)  # español, la extensión del curso y el intercambio (course/entorno.py)
    except OSError as error:  # un entorno de solo lectura: JupyterLab abre igual, tal cual está
        print(f"Aviso: no se ha podido preparar el entorno de JupyterLab ({error}).")
    if profesor:  # el cuaderno con soluciones y pruebas ocultas, el que se edita
        fuente = RAIZ / "source" / TAREA / CUADERNO
        return abrir_lab(sys.executable, fuente.relative_to(RAIZ) if fuente.exists() else None, RAIZ, argumentos,
                         estudiante=False)
    trabajo = RAIZ / "trabajo" / TAREA
    if not trabajo.exists():
        shutil.copytree(RAIZ / "release" / TAREA, trabajo)
    return abrir_lab(sys.executable, (trabajo / CUADERNO).relative_to(RAIZ), RAIZ, argumentos)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
