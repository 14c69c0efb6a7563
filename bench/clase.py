"""Una clase entera: `make grade` frente a la cadena de órdenes de nbgrader, en la misma máquina.

    .venv/bin/python bench/clase.py [--estudiantes 40] [--rondas 1] [--trabajos N]

Monta dos cursos temporales idénticos (la configuración del curso, las mismas entregas honestas)
y corrige la clase en los dos, por turnos:

- nbgrader tal cual, una orden detrás de otra: `nbgrader autograde`, `nbgrader generate_feedback`
  y `nbgrader export`;
- el nuestro: `python -m course.corregir` (release, autograde y retroalimentación repartidos entre
  los núcleos, CSV de notas e informe de la clase).

Da la razón de las medianas de tiempo de pared y comprueba que las notas son las mismas, estudiante
a estudiante. No es una prueba: los tiempos bailan con la carga de la máquina, solo la razón cuenta.
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
from course import estado
from course.entregas import escribir_entrega, leer_ejemplo

sys.path.insert(0, str(RAIZ / "tests"))
from cursos import copiar_curso  # noqa: E402

HONESTAS = ["ana", "bruno", "carla", "dario"]  # las de ejemplo que terminan; elena espera a sus topes
OBJETIVO = 0.6


def _curso(destino, estudiantes, entorno):
    raiz = copiar_curso(destino)
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", TAREA, "--force"], cwd=raiz,
                   check=True, capture_output=True, env=entorno)
    for i in range(estudiantes):
        ejemplo = HONESTAS[i % len(HONESTAS)]
        respuestas = leer_ejemplo(RAIZ / "course" / "ejemplos" / (ejemplo + ".toml"))["respuestas"]
        escribir_entrega(raiz / "release" / TAREA / CUADERNO, respuestas,
                         raiz / "submitted" / ("%s-%02d" % (ejemplo, i)) / TAREA)
    shutil.copy(raiz / "gradebook.db", raiz.parent / (raiz.name + ".db"))
    return raiz


def _limpiar(raiz):
    """Deja el curso como recién publicada la tarea: el gradebook de entonces y nada corregido."""
    for carpeta in ("autograded", "feedback", "exports"):
        shutil.rmtree(raiz / carpeta, ignore_errors=True)
    for fichero in raiz.glob("gradebook.db*"):
        fichero.unlink()
    shutil.copy(raiz.parent / (raiz.name + ".db"), raiz / "gradebook.db")


def _nbgrader_en_cadena(raiz, entorno):
    (raiz / "exports").mkdir(exist_ok=True)  # nbgrader export no crea la carpeta
    for orden in (["autograde", TAREA, "--force"], ["generate_feedback", TAREA, "--force"],
                  ["export", "--to", str(raiz / "exports" / "notas.csv")]):
        subprocess.run([sys.executable, "-m", "nbgrader", *orden], cwd=raiz, check=True,
                       capture_output=True, env=entorno)


def _el_nuestro(raiz, entorno, trabajos):
    orden = [sys.executable, "-m", "course.corregir", "--raiz", str(raiz)]
    if trabajos:
        orden += ["--trabajos", str(trabajos)]
    subprocess.run(orden, cwd=raiz, check=True, capture_output=True, env=entorno)


def main():
    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("--estudiantes", type=int, default=40)
    opciones.add_argument("--rondas", type=int, default=1)
    opciones.add_argument("--trabajos", type=int, default=None, help="procesos del nuestro (por defecto, los de make grade)")
    a = opciones.parse_args()
    entorno = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    entorno.pop("TRABAJOS", None) if a.trabajos else None
    with tempfile.TemporaryDirectory() as tmp:
        nuestro = _curso(Path(tmp) / "nuestro", a.estudiantes, entorno)
        base = _curso(Path(tmp) / "nbgrader", a.estudiantes, entorno)
        tiempos = {"nuestro": [], "nbgrader": []}
        for ronda in range(a.rondas):
            turnos = [("nuestro", nuestro), ("nbgrader", base)]
            for nombre, raiz in (turnos if ronda % 2 == 0 else turnos[::-1]):
                _limpiar(raiz)
                inicio = time.perf_counter()
                if nombre == "nuestro":
                    _el_nuestro(raiz, entorno, a.trabajos)
                else:
                    _nbgrader_en_cadena(raiz, entorno)
                tiempos[nombre].append(time.perf_counter() - inicio)
            print("ronda %d: make grade %.1f s, nbgrader en cadena %.1f s"
                  % (ronda + 1, tiempos["nuestro"][-1], tiempos["nbgrader"][-1]), flush=True)
        iguales = estado.notas(nuestro, TAREA) == estado.notas(base, TAREA)
        if not iguales:
            distintas = {e: (estado.notas(nuestro, TAREA).get(e), n) for e, n in estado.notas(base, TAREA).items() if estado.notas(nuestro, TAREA).get(e) != n}
            print("¡Las notas no coinciden! (nuestro, nbgrader):", distintas)
        informe = (nuestro / "exports" / "informe.html").exists()
        razon = statistics.median(tiempos["nuestro"]) / statistics.median(tiempos["nbgrader"])
        print("%d entregas en %d núcleos: make grade / nbgrader en cadena = %.2f (objetivo: como mucho %.1f); "
              "notas idénticas: %s; informe: %s"
              % (a.estudiantes, len(os.sched_getaffinity(0)), razon, OBJETIVO, "sí" if iguales else "NO",
                 "sí" if informe else "NO"))
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if iguales and informe and razon <= OBJETIVO else 1


if __name__ == "__main__":
    sys.exit(main())
