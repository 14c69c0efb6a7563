"""Un curso de verdad en una carpeta temporal, para que las pruebas no escriban en el repositorio."""

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat

from course import CUADERNO, RAIZ, TAREA


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


def publicar(raiz, modo):
    """Un curso en `raiz` con la tarea generada por nbgrader, con el cuestionario en modo `modo`.
    Las pruebas no lo llaman: piden el fixture `publicado` (conftest.py), que lo hace una vez por modo."""
    modo_del_cuestionario(copiar_curso(raiz), modo)
    hecho = nbgrader(raiz, "generate_assignment", TAREA, "--force")
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    return raiz


# El modo del cuestionario del curso, tal como lo fija nbgrader_config.py, y lo que vale la tarea en él.
MODO = re.search(r'^c\.Cuestionario\.modo = "(\w+)"', (RAIZ / "nbgrader_config.py").read_text(encoding="utf-8"),
                 re.M).group(1)


def _puntos(prefijos):
    fuente = nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4)
    return sum(c.metadata["nbgrader"].get("points", 0) for c in fuente.cells
               if c.metadata.get("nbgrader", {}).get("grade_id", "").startswith(prefijos))


MAXIMO = _puntos(("ejecutar-", "pregunta-") if MODO == "calificado" else ("ejecutar-",))
MAXIMO_CALIFICADO = _puntos(("ejecutar-", "pregunta-"))  # con el cuestionario calificado


def nota_del_ejemplo(ruta):
    """La nota esperada de una entrega de ejemplo de course/ejemplos en el modo del curso."""
    ejemplo = tomllib.loads(Path(ruta).read_text(encoding="utf-8"))
    return ejemplo["nota"] if MODO == "calificado" else ejemplo["nota_formativo"]
