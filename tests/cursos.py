"""Un curso de verdad en una carpeta temporal, para que las pruebas no escriban en el repositorio."""

import shutil
import subprocess
import sys
from pathlib import Path

from course import RAIZ


def copiar_curso(destino):
    """Copia en `destino` lo que un profesor tiene en la raíz del curso (sin entregas ni gradebook)."""
    destino = Path(destino)
    destino.mkdir(parents=True, exist_ok=True)
    shutil.copy(RAIZ / "nbgrader_config.py", destino)
    for carpeta in ("source", "release"):
        shutil.copytree(RAIZ / carpeta, destino / carpeta, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return destino


def modo_del_cuestionario(raiz, modo):
    """Pone el cuestionario del curso en `raiz` en modo "formativo" o "calificado" (antes de generar la tarea)."""
    with open(Path(raiz) / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write('\nc.Cuestionario.modo = "%s"\n' % modo)
    return raiz


def nbgrader(raiz, *argumentos, timeout=1200):
    """Una orden de nbgrader de verdad, desde la raíz del curso `raiz`."""
    return subprocess.run([sys.executable, "-m", "nbgrader", *argumentos], cwd=raiz,
                          capture_output=True, text=True, timeout=timeout)
