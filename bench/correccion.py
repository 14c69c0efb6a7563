"""Cuánto cuesta la corrección aislada frente a nbgrader tal cual, con las mismas entregas honestas.

    .venv/bin/python bench/correccion.py [--estudiantes 12] [--rondas 3]

Monta dos cursos temporales idénticos salvo en la configuración de autograde: el del curso
(núcleo enjaulado y veredictos de confianza) y el de nbgrader sin tocar. Corrige las mismas
entregas en los dos, por turnos y varias rondas, y da la razón de las medianas. No es una prueba:
en una máquina de dos núcleos los tiempos bailan, así que sólo la razón tiene sentido.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from course import CUADERNO, RAIZ, TAREA
from course.entregas import escribir_entrega, leer_ejemplo

sys.path.insert(0, str(RAIZ / "tests"))
from cursos import copiar_curso  # noqa: E402

HONESTAS = ["ana", "bruno", "carla", "dario"]  # las de ejemplo que terminan; elena espera a sus topes
NBGRADER_TAL_CUAL = """
# Línea base: el autograde de nbgrader sin las piezas del curso.
c.Autograde.autograde_preprocessors = [
    "nbgrader.preprocessors.Execute", "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor", "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades", "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
"""


def _curso(destino, estudiantes, base):
    raiz = copiar_curso(destino)
    if base:
        with open(raiz / "nbgrader_config.py", "a") as f:
            f.write(NBGRADER_TAL_CUAL)
    entorno = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", TAREA, "--force"], cwd=raiz,
                   check=True, capture_output=True, env=entorno)
    for i in range(estudiantes):
        ejemplo = HONESTAS[i % len(HONESTAS)]
        respuestas = leer_ejemplo(RAIZ / "course" / "ejemplos" / (ejemplo + ".toml"))["respuestas"]
        escribir_entrega(raiz / "release" / TAREA / CUADERNO, respuestas,
                         raiz / "submitted" / ("%s-%02d" % (ejemplo, i)) / TAREA)
    return raiz, entorno


def _corrige(raiz, entorno):
    inicio = time.perf_counter()
    subprocess.run([sys.executable, "-m", "nbgrader", "autograde", TAREA, "--force"], cwd=raiz,
                   check=True, capture_output=True, env=entorno)
    return time.perf_counter() - inicio


def main():
    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("--estudiantes", type=int, default=12)
    opciones.add_argument("--rondas", type=int, default=3)
    a = opciones.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        curso, entorno = _curso(Path(tmp) / "curso", a.estudiantes, base=False)
        base, _ = _curso(Path(tmp) / "base", a.estudiantes, base=True)
        tiempos = {"curso": [], "base": []}
        for ronda in range(a.rondas):
            # Por turnos, alternando quién empieza, para que el ruido de la máquina caiga en los dos.
            for nombre, raiz in ([("curso", curso), ("base", base)] if ronda % 2 == 0
                                 else [("base", base), ("curso", curso)]):
                tiempos[nombre].append(_corrige(raiz, entorno))
            print("ronda %d: curso %.1f s, nbgrader tal cual %.1f s"
                  % (ronda + 1, tiempos["curso"][-1], tiempos["base"][-1]), flush=True)
        razon = statistics.median(tiempos["curso"]) / statistics.median(tiempos["base"])
        print("%d entregas: corrección aislada / nbgrader tal cual = %.2f (el objetivo es como mucho 1.5)"
              % (a.estudiantes, razon))
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if razon <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
