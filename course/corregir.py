"""`make grade`: la tarea de principio a fin con las órdenes de nbgrader.

Regenera release/, corrige lo que haya en submitted/ (si está vacío, las entregas de ejemplo de
course/ejemplos/), escribe la retroalimentación en feedback/ y las notas en exports/notas.csv.
Una entrega que rompe algo no para a las demás: se dice cuál y se sigue.
"""

import subprocess
import sys
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry

from . import CUADERNO, RAIZ, TAREA
from .entregas import escribir_entrega, leer_ejemplo

EJEMPLOS = Path(__file__).resolve().parent / "ejemplos"


def nbgrader(*argumentos, raiz=RAIZ):
    """Una orden de nbgrader desde la raíz del curso; devuelve si ha acabado bien."""
    print("\n$ nbgrader " + " ".join(argumentos), flush=True)
    return subprocess.run([sys.executable, "-m", "nbgrader", *argumentos], cwd=raiz).returncode == 0


def entregar_ejemplos(raiz=RAIZ):
    """Copia las entregas de ejemplo en submitted/, hechas con el cuaderno de release de ahora."""
    release = raiz / "release" / TAREA / CUADERNO
    for ejemplo in sorted(EJEMPLOS.glob("*.toml")):
        escribir_entrega(release, leer_ejemplo(ejemplo)["respuestas"], raiz / "submitted" / ejemplo.stem / TAREA)
    print("Sin entregas en submitted/: se corrigen las %d de ejemplo." % len(list(EJEMPLOS.glob("*.toml"))))


def notas(raiz=RAIZ):
    """{estudiante: (puntos, máximo)} de la tarea, leídos del gradebook."""
    with Gradebook("sqlite:///%s" % (raiz / "gradebook.db")) as gb:
        maximo = gb.find_assignment(TAREA).max_score
        resultado = {}
        for estudiante in gb.students:
            try:
                resultado[estudiante.id] = (gb.find_submission(TAREA, estudiante.id).score, maximo)
            except MissingEntry:
                pass
        return resultado


def main(raiz=RAIZ):
    if not nbgrader("generate_assignment", TAREA, "--force", raiz=raiz):
        print("No se ha podido generar la versión del estudiante: se para aquí.")
        return 1
    entregados = raiz / "submitted"
    if not any(p.is_dir() for p in entregados.glob("*/" + TAREA)):
        entregar_ejemplos(raiz)
    bien = nbgrader("autograde", TAREA, "--force", raiz=raiz)
    bien &= nbgrader("generate_feedback", TAREA, "--force", raiz=raiz)
    (raiz / "exports").mkdir(exist_ok=True)
    bien &= nbgrader("export", "--to", str(raiz / "exports" / "notas.csv"), raiz=raiz)

    print("\nNotas de %s:" % TAREA)
    for estudiante, (puntos, maximo) in sorted(notas(raiz).items()):
        retro = raiz / "feedback" / estudiante / TAREA / (TAREA + ".html")
        print("  %-20s %5.1f / %g   %s" % (estudiante, puntos, maximo,
                                          retro.relative_to(raiz) if retro.exists() else "(sin retroalimentación)"))
    print("Notas en exports/notas.csv.")
    if not bien:
        print("Alguna orden de nbgrader ha fallado con alguna entrega: mira sus mensajes arriba. "
              "Las demás entregas están corregidas.")
    return 0 if bien else 1


if __name__ == "__main__":
    sys.exit(main())
