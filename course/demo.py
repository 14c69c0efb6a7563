"""El curso de demostración: la tarea de la lección con las entregas de ejemplo de course/ejemplos/.

`make demo` (y `make grade` sin entregas en submitted/) lo corrige en demo/, una carpeta ignorada
por git con su propio gradebook, para ver todo el recorrido sin tocar la clase de verdad.
`make limpiar-demo` lo borra. Cada ejemplo (un .toml) es una situación típica, con su nota.
"""

import shutil
from pathlib import Path

from . import RAIZ, TAREA, cuaderno
from .entregas import escribir_entrega, leer_ejemplo

EJEMPLOS = Path(__file__).resolve().parent / "ejemplos"  # entregas de ejemplo de la tarea de la lección
DEMO = "demo"  # la carpeta del curso de demostración, dentro de la raíz


def preparar_demo(raiz=RAIZ):
    """Un curso de demostración en raiz/demo/: la configuración, source/ y release/ del curso y las entregas de ejemplo."""
    demo = Path(raiz) / DEMO
    shutil.rmtree(demo, ignore_errors=True)
    demo.mkdir(parents=True)
    shutil.copy(Path(raiz) / "nbgrader_config.py", demo)
    for carpeta in ("source", "release"):
        shutil.copytree(Path(raiz) / carpeta, demo / carpeta, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    entregar_ejemplos(demo)
    return demo


def entregar_ejemplos(raiz):
    """Copia las entregas de ejemplo en raiz/submitted/, hechas con el cuaderno de release de ahora."""
    release = Path(raiz) / "release" / TAREA / cuaderno(TAREA)
    for ejemplo in sorted(EJEMPLOS.glob("*.toml")):
        escribir_entrega(release, leer_ejemplo(ejemplo)["respuestas"], Path(raiz) / "submitted" / ejemplo.stem / TAREA)
