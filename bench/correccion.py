"""Cuánto cuesta corregir una entrega honesta y una que no acaba, con el curso y con nbgrader tal cual.

    .venv/bin/python bench/correccion.py [--honestas 6] [--sin-fin 2] [--rondas 3]

Monta dos cursos temporales idénticos salvo en la configuración de autograde: el del curso
(núcleo enjaulado y veredictos de confianza) y el de nbgrader sin tocar (los mismos topes de
course/limites.py para cada celda). En los dos entrega lo mismo: entregas honestas de los ejemplos
y entregas como la de Elena, cuyo `ejecutar` no acaba con un fichero que no existe. Corrige cada
curso con un solo `nbgrader autograde`, por turnos y varias rondas, y saca el coste de cada
entrega de la hora a la que nbgrader empieza con ella (su registro) hasta que empieza con la
siguiente. Da las medianas y las razones. No es una prueba: en una máquina de dos núcleos, y más
si es compartida, los tiempos bailan; las razones, menos.
"""

import argparse
import os
import re
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

HONESTAS = ["ana", "bruno", "carla", "dario"]  # las de ejemplo que terminan
SIN_FIN = "elena"                              # repite la llamada mientras falle: con un fichero que no existe, no acaba
OBJETIVO_HONESTA = 1.5                         # como mucho, veces lo que cuesta con nbgrader tal cual
OBJETIVO_SIN_FIN = 10                          # segundos, como mucho, para una entrega que no acaba
NBGRADER_TAL_CUAL = """
# Línea base: el autograde de nbgrader sin las piezas del curso.
c.Autograde.autograde_preprocessors = [
    "nbgrader.preprocessors.Execute", "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor", "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades", "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
c.Execute.timeout = limites.CELDA  # el mismo tope por celda que la corrección del curso
c.Execute.iopub_timeout = limites.INTERRUPCION
"""
EMPIEZA = re.compile(r"^(\d+\.\d+) Creating/updating student with ID '([^']+)'", re.M)


def _curso(destino, honestas, sin_fin, base):
    raiz = copiar_curso(destino)
    if base:
        with open(raiz / "nbgrader_config.py", "a") as f:
            f.write(NBGRADER_TAL_CUAL)
    entorno = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", TAREA, "--force"], cwd=raiz,
                   check=True, capture_output=True, env=entorno)
    estudiantes = ["%s-%02d" % (HONESTAS[i % len(HONESTAS)], i) for i in range(honestas)]
    estudiantes += ["%s-%02d" % (SIN_FIN, i) for i in range(sin_fin)]
    for estudiante in estudiantes:
        ejemplo = estudiante.split("-")[0]
        respuestas = leer_ejemplo(RAIZ / "course" / "ejemplos" / (ejemplo + ".toml"))["respuestas"]
        escribir_entrega(raiz / "release" / TAREA / CUADERNO, respuestas, raiz / "submitted" / estudiante / TAREA)
    return raiz, entorno


def _corrige(raiz, entorno):
    """Corrige el curso entero; devuelve {estudiante: segundos que ha costado su entrega} y el total."""
    inicio = time.time()
    salida = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", TAREA, "--force",
                             "--Application.log_format=%(created).3f %(message)s"],
                            cwd=raiz, check=True, capture_output=True, text=True, env=entorno)
    fin = time.time()
    empiezan = [(float(t), e) for t, e in EMPIEZA.findall(salida.stdout + salida.stderr)]
    empiezan.sort()
    costes = {e: siguiente - t for (t, e), (siguiente, _) in zip(empiezan, empiezan[1:] + [(fin, None)])}
    return costes, fin - inicio


def _mediana(costes, tipo):
    return statistics.median(s for e, s in costes if e.startswith(tipo))


def main():
    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("--honestas", type=int, default=6)
    opciones.add_argument("--sin-fin", type=int, default=2)
    opciones.add_argument("--rondas", type=int, default=3)
    a = opciones.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cursos = {"curso": _curso(Path(tmp) / "curso", a.honestas, a.sin_fin, base=False),
                  "base": _curso(Path(tmp) / "base", a.honestas, a.sin_fin, base=True)}
        costes = {"curso": [], "base": []}
        for ronda in range(a.rondas):
            # Por turnos, alternando quién empieza, para que el ruido de la máquina caiga en los dos.
            totales = {}
            for nombre in (["curso", "base"] if ronda % 2 == 0 else ["base", "curso"]):
                por_entrega, totales[nombre] = _corrige(*cursos[nombre])
                costes[nombre] += por_entrega.items()
            print("ronda %d: el curso entero (%d entregas) en %.1f s con la corrección aislada, %.1f s con "
                  "nbgrader tal cual" % (ronda + 1, a.honestas + a.sin_fin, totales["curso"], totales["base"]),
                  flush=True)
        shutil.rmtree(tmp, ignore_errors=True)
    filas = {tipo: (_mediana(costes["curso"], prefijo), _mediana(costes["base"], prefijo))
             for tipo, prefijo in (("honesta", tuple(HONESTAS)), ("sin fin", SIN_FIN))}
    print("\ncoste por entrega (mediana)   corrección aislada   nbgrader tal cual   razón")
    for tipo, (curso, base) in filas.items():
        print("  %-27s %15.1f s %17.1f s %9.2f" % (tipo, curso, base, curso / base))
    honesta, sin_fin = filas["honesta"][0] / filas["honesta"][1], filas["sin fin"][0]
    print("objetivos: honesta como mucho %.1f veces nbgrader tal cual (%.2f); sin fin en %d s como mucho (%.1f s)"
          % (OBJETIVO_HONESTA, honesta, OBJETIVO_SIN_FIN, sin_fin))
    return 0 if honesta <= OBJETIVO_HONESTA and sin_fin <= OBJETIVO_SIN_FIN else 1


if __name__ == "__main__":
    sys.exit(main())
