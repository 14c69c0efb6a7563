"""`make grade`: una tarea de principio a fin, con nbgrader, en todos los núcleos.

    python -m course.corregir [--tarea TAREA] [--trabajos N] [--demo] [--raiz RAIZ]

Regenera release/<tarea>/, corrige cada entrega de submitted/*/<tarea>/ y escribe su
retroalimentación en feedback/, repartiendo los estudiantes entre N procesos (por defecto, uno por
núcleo y uno más; también `TRABAJOS=N`), y después exporta las notas a exports/notas.csv y el informe
de la clase a exports/informe.html (course/clase.py). La tarea, por defecto, es la de la lección;
cualquier otra carpeta de source/ se corrige igual, con `--tarea` (`make grade TAREA=...`).

Sin entregas de la lección en submitted/, se corrige el curso de demostración en demo/ con las entregas
de ejemplo de course/ejemplos/ (course/demo.py): nunca se mezclan con la clase de verdad.
"""

import argparse
import sys
from pathlib import Path

from . import RAIZ, TAREA
from .clase import corregir_clase
from .estado import entregas
from .demo import DEMO, EJEMPLOS, preparar_demo
from .grabaciones import por_que_no_se_corrige


def main(raiz=RAIZ, trabajos=None, demo=False, tarea=TAREA):
    raiz = Path(raiz)
    motivo = por_que_no_se_corrige()  # un guion grabado que no vale suspendería a todos: antes de empezar, no después
    if motivo:
        print(motivo, file=sys.stderr)
        return 1
    if tarea == TAREA and (demo or not entregas(raiz, tarea)):
        if not demo:
            print("No hay entregas en submitted/: se corrige el curso de demostración en %s/, con su propio "
                  "gradebook y las entregas de ejemplo de %s/ (`make limpiar-demo` lo borra)."
                  % (DEMO, EJEMPLOS.relative_to(RAIZ)))
        raiz = preparar_demo(raiz)
    elif demo:
        print("El curso de demostración es de la tarea de la lección, %s." % TAREA, file=sys.stderr)
        return 2
    return 0 if corregir_clase(raiz, tarea, trabajos).bien else 1


def _cli():
    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("--tarea", default=TAREA, help="la tarea: su carpeta en source/ (por defecto, %s)" % TAREA)
    opciones.add_argument("--trabajos", type=int, default=None, help="procesos (por defecto, uno por núcleo y uno más)")
    opciones.add_argument("--demo", action="store_true", help="corregir el curso de demostración aunque haya entregas")
    opciones.add_argument("--raiz", type=Path, default=RAIZ, help="la raíz del curso")
    a = opciones.parse_args()
    return main(a.raiz, a.trabajos, a.demo, a.tarea)


if __name__ == "__main__":
    sys.exit(_cli())
