"""`make bundle`: lo que el profesor reparte a los estudiantes, en dist/.

Lleva los cuadernos de release/, la biblioteca harness y una preparación de una sola orden
(`python3 empezar.py`). Nada de source/ ni de la corrección.
"""

import sys
import zipfile
from pathlib import Path

from . import RAIZ
NOMBRE = "curso-harness-estudiante"
PROPIOS = Path(__file__).resolve().parent / "estudiantes"


def _contenido(raiz):
    """(ruta en el paquete, fichero) de todo lo que se reparte."""
    yield "LEEME.md", PROPIOS / "LEEME.md"
    yield "empezar.py", PROPIOS / "empezar.py"
    yield "pyproject.toml", PROPIOS / "pyproject.toml"
    for base in (raiz / "harness", raiz / "release"):
        for fichero in sorted(base.rglob("*")):
            if fichero.is_file() and "__pycache__" not in fichero.parts and ".ipynb_checkpoints" not in fichero.parts:
                dentro = fichero.relative_to(raiz)
                yield str(dentro.relative_to("release") if base.name == "release" else dentro), fichero


def construir(raiz=RAIZ, destino=None):
    """Escribe el .zip del paquete y devuelve su ruta."""
    destino = Path(destino or raiz / "dist")
    destino.mkdir(parents=True, exist_ok=True)
    paquete = destino / (NOMBRE + ".zip")
    with zipfile.ZipFile(paquete, "w", zipfile.ZIP_DEFLATED) as z:
        for nombre, fichero in _contenido(raiz):
            z.write(fichero, "%s/%s" % (NOMBRE, nombre))
    return paquete


if __name__ == "__main__":
    ruta = construir()
    print("Paquete para estudiantes: %s" % ruta.relative_to(RAIZ))
    print("Se descomprime y se abre con: python3 empezar.py")
    sys.exit(0)
