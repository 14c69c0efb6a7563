"""Lo que cuesta a los demás una bomba de procesos: la clase corregida con y sin ella, en la misma máquina.

    .venv/bin/python bench/bomba.py [--honestas 6] [--rondas 2] [--trabajos 2]

Monta dos cursos temporales con las mismas entregas honestas (las de ejemplo que terminan); el segundo
lleva, además y las primeras de la cola, dos bombas: una en el núcleo del cuaderno (la celda de la respuesta
se reproduce sin fin) y otra en la jaula del corrector (cada llamada a `ejecutar` se reproduce sin fin).
Corrige los dos por turnos, como `make grade` (course/clase.py, `trabajos` procesos), y da, por ronda, la
mediana y el máximo de lo que ha tardado cada entrega honesta en cada curso, la razón de las medianas y si
las honestas han sacado las mismas notas. No es una prueba: los tiempos bailan con la carga; la razón, menos.
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from course import CUADERNO, RAIZ, TAREA
from course.clase import corregir_en_paralelo
from course.entregas import escribir_entrega, leer_ejemplo

sys.path.insert(0, str(RAIZ / "tests"))
from cursos import copiar_curso, nbgrader  # noqa: E402

HONESTAS = ["ana", "bruno", "carla", "dario"]
_BOMBA = ("import os\n"
          "def _bomba():\n"
          "    while True:\n"
          "        try:\n"
          "            os.fork()\n"
          "        except OSError:\n"
          "            pass\n")
BOMBAS = {
    # En el núcleo del cuaderno (IPython), no en el corrector: la celda de la respuesta acaba lanzándola.
    "bomba-nucleo": "\n" + _BOMBA + "try:\n    get_ipython\nexcept NameError:\n    pass\nelse:\n    _bomba()\n",
    # En la jaula del corrector: cada llamada a ejecutar.
    "bomba-corrector": "\n" + _BOMBA + "_ejecutar = ejecutar\n"
                       "def ejecutar(llamada, entorno):\n    _bomba()\n",
}


def _curso(destino, honestas, con_bombas):
    raiz = copiar_curso(destino)
    hecho = nbgrader(raiz, "generate_assignment", TAREA, "--force")
    assert hecho.returncode == 0, hecho.stderr
    release = raiz / "release" / TAREA / CUADERNO
    estudiantes = []
    if con_bombas:
        buena = leer_ejemplo(RAIZ / "course" / "ejemplos" / "ana.toml")["respuestas"]
        for nombre, añadido in BOMBAS.items():
            escribir_entrega(release, dict(buena, ejecutar=buena["ejecutar"] + añadido), raiz / "submitted" / nombre / TAREA)
            estudiantes.append(nombre)
    for i in range(honestas):
        ejemplo = HONESTAS[i % len(HONESTAS)]
        respuestas = leer_ejemplo(RAIZ / "course" / "ejemplos" / (ejemplo + ".toml"))["respuestas"]
        estudiante = "%s-%02d" % (ejemplo, i)
        escribir_entrega(release, respuestas, raiz / "submitted" / estudiante / TAREA)
        estudiantes.append(estudiante)
    return raiz, estudiantes


def main():
    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("--honestas", type=int, default=6)
    opciones.add_argument("--rondas", type=int, default=2)
    opciones.add_argument("--trabajos", type=int, default=2)
    a = opciones.parse_args()
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]
    os.environ["TQDM_DISABLE"] = "1"  # sin la barra de progreso de cada corrección: solo las líneas de abajo
    with tempfile.TemporaryDirectory() as tmp:
        cursos = {"sin bombas": _curso(Path(tmp) / "sin", a.honestas, False),
                  "con bombas": _curso(Path(tmp) / "con", a.honestas, True)}
        medianas, notas = {n: [] for n in cursos}, {n: [] for n in cursos}
        for ronda in range(a.rondas):
            orden = list(cursos) if ronda % 2 == 0 else list(cursos)[::-1]
            for nombre in orden:
                raiz, estudiantes = cursos[nombre]
                resultados = corregir_en_paralelo(raiz, TAREA, estudiantes, a.trabajos)
                honestas = {e: r for e, r in resultados.items() if e not in BOMBAS}
                segundos = [r.segundos for r in honestas.values()]
                medianas[nombre].append(statistics.median(segundos))
                notas[nombre].append({e: r.nota for e, r in honestas.items()})
                bombas = ", ".join("%s %.1f s (%s)" % (e, resultados[e].segundos, resultados[e].nota)
                                   for e in BOMBAS if e in resultados)
                print("ronda %d, %s: honestas mediana %.1f s, máximo %.1f s%s"
                      % (ronda + 1, nombre, medianas[nombre][-1], max(segundos), "; " + bombas if bombas else ""),
                      flush=True)
        iguales = all(n == notas["sin bombas"][0] for lista in notas.values() for n in lista)
        razon = statistics.median(medianas["con bombas"]) / statistics.median(medianas["sin bombas"])
        print("%d honestas en %d procesos: con bombas / sin bombas = %.2f; notas de las honestas idénticas: %s"
              % (a.honestas, a.trabajos, razon, "sí" if iguales else "NO"))
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if iguales else 1


if __name__ == "__main__":
    sys.exit(main())
