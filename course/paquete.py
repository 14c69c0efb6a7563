"""`make bundle`: lo que el profesor reparte a los estudiantes, en dist/.

Lleva los cuadernos de release/, la biblioteca harness y una preparación de una sola orden
(`python3 empezar.py`). Nada de source/ ni de la corrección.
"""

import sys
import zipfile
from pathlib import Path

from . import RAIZ
from .entorno import EXTENSION

NOMBRE = "curso-harness-estudiante"
NOMBRE_SITIO = "curso-harness-sitio"
PROPIOS = Path(__file__).resolve().parent / "estudiantes"
TRADUCCION = Path(__file__).resolve().parent / "traduccion"


def _contenido(raiz):
    """(ruta en el paquete, fichero) de todo lo que se reparte."""
    yield "LEEME.md", PROPIOS / "LEEME.md"
    yield "empezar.py", PROPIOS / "empezar.py"
    yield "pyproject.toml", PROPIOS / "pyproject.toml"
    # Lo que completa el español de JupyterLab: el guion y sus catálogos.
    for fichero in [TRADUCCION / "completar.py", *sorted(TRADUCCION.glob("*.po"))]:
        yield "traduccion/" + fichero.name, fichero
    # La extensión del curso, ya construida: pyproject.toml la instala con harness.
    for fichero in sorted(EXTENSION.rglob("*")):
        if fichero.is_file():
            yield "labextension/" + fichero.relative_to(EXTENSION).as_posix(), fichero
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


def sitio(origen=None, destino=None):
    """El sitio sin instalación (dist/lite/, de `make lite`) en un .zip, para alojarlo en cualquier
    servidor estático. Devuelve su ruta, o None si el sitio no está construido."""
    origen = Path(origen or RAIZ / "dist" / "lite")
    if not (origen / "index.html").exists():
        return None
    destino = Path(destino or RAIZ / "dist")
    destino.mkdir(parents=True, exist_ok=True)
    comprimido = destino / (NOMBRE_SITIO + ".zip")
    with zipfile.ZipFile(comprimido, "w", zipfile.ZIP_DEFLATED) as z:
        for fichero in sorted(origen.rglob("*")):
            if fichero.is_file():
                z.write(fichero, "%s/%s" % (NOMBRE_SITIO, fichero.relative_to(origen).as_posix()))
    return comprimido


if __name__ == "__main__":
    ruta = construir()
    print("Paquete para estudiantes: %s" % ruta.relative_to(RAIZ))
    print("Se descomprime y se abre con: python3 empezar.py")
    web = sitio()
    if web:
        print("Sitio sin instalación, para alojar: %s" % web.relative_to(RAIZ))
        print("Se descomprime en cualquier servidor estático y se abre su index.html")
    sys.exit(0)
