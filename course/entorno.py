"""El entorno de Jupyter del curso, tal como lo abre el profesor: `make install` lo deja así en .venv/.

    python -m course.entorno [PREFIJO]

- JupyterLab en español y sin la ventana de noticias (los ajustes de empezar.py), con la
  traducción completada (course/traduccion/).
- La extensión del curso (course/extension/, ya construida) a la vista de JupyterLab: «Validar»,
  la pestaña «Tareas» y el menú «Curso», en español; y la de servidor (course/formgrader), con el
  formgrader en español y las notas que cuentan.
- nbgrader con un intercambio que existe, para que el formgrader no avise de que falta y
  `release_assignment` funcione; en un JupyterHub (`make hub`) es el de todos los usuarios.

Todo se escribe dentro del entorno (PREFIJO, por defecto el de este Python) y se puede repetir.
"""

import json
import sys
from pathlib import Path

from .estudiantes.empezar import ajustes_de_usuario, idioma_por_defecto
from .traduccion.completar import IDIOMA, PAQUETE, completar

EXTENSION = Path(__file__).resolve().parent / "extension" / "labextension"
NOMBRE_EXTENSION = "curso-harness"
MARCA = "# Escrito por el curso del harness (course/entorno.py): se rehace al preparar el entorno."


def carpeta_de_extensiones(prefijo):
    return Path(prefijo) / "share" / "jupyter" / "labextensions"


def enlazar_extension(prefijo):
    """La extensión del curso en el entorno `prefijo`, como enlace a la de este repositorio.

    Una instalación normal (pip install, sin -e) ya la copia: va en los data-files de pyproject.toml.
    La instalación editable de `make install` no copia data-files, y el enlace hace además que
    `make extension` se vea sin reinstalar (es lo que hace `jupyter labextension develop`).
    """
    destino = carpeta_de_extensiones(prefijo) / NOMBRE_EXTENSION
    if destino.is_symlink() and destino.resolve() == EXTENSION:
        return destino
    if destino.exists() and not destino.is_symlink():
        return destino  # la ha copiado pip: ya está
    destino.parent.mkdir(parents=True, exist_ok=True)
    if destino.is_symlink():
        destino.unlink()
    destino.symlink_to(EXTENSION, target_is_directory=True)
    return destino


def configurar_nbgrader(prefijo, intercambio, **mas):
    """El nbgrader_config.py del entorno `prefijo`: el intercambio (y lo que se pase en `mas`, como
    "CourseDirectory.course_id"). Es la configuración global de la que habla la documentación de
    nbgrader para JupyterHub; la del curso (nbgrader_config.py de la raíz) se lee después y manda."""
    lineas = [MARCA, "c = get_config()  # noqa: F821", f"c.Exchange.root = {str(intercambio)!r}"]
    lineas += [f"c.{opcion} = {valor!r}" for opcion, valor in mas.items()]
    fichero = Path(prefijo) / "etc" / "jupyter" / "nbgrader_config.py"
    if fichero.exists() and not fichero.read_text(encoding="utf-8").startswith(MARCA):
        print(f"Aviso: {fichero} no es del curso; no se toca. El intercambio de nbgrader será el que diga.")
        return fichero
    fichero.parent.mkdir(parents=True, exist_ok=True)
    fichero.write_text("\n".join(lineas) + "\n", encoding="utf-8")
    return fichero


# Lo mismo que hace `make lab` (empezar.abrir_lab), para un `jupyter lab` a secas en este entorno.
AJUSTES_DEL_SERVIDOR = MARCA + """
import os

# Los ajustes de usuario de JupyterLab, dentro del entorno: el servidor lee de ellos el idioma con
# el que traduce el editor de configuración. Un JUPYTERLAB_SETTINGS_DIR elegido a mano manda.
if "JUPYTERLAB_SETTINGS_DIR" not in os.environ:
    c.LabApp.user_settings_dir = {carpeta!r}  # noqa: F821
"""


def ajustes_del_servidor(prefijo):
    """jupyter_server_config.py del entorno `prefijo`, con los ajustes de usuario en español del entorno."""
    fichero = Path(prefijo) / "etc" / "jupyter" / "jupyter_server_config.py"
    if fichero.exists() and not fichero.read_text(encoding="utf-8").startswith(MARCA):
        print(f"Aviso: {fichero} no es del curso; no se toca.")
        return fichero
    fichero.parent.mkdir(parents=True, exist_ok=True)
    fichero.write_text(AJUSTES_DEL_SERVIDOR.format(carpeta=str(ajustes_de_usuario(prefijo))), encoding="utf-8")
    return fichero


def extension_de_servidor(prefijo):
    """El formgrader en español (course/formgrader), activado como extensión del servidor de Jupyter del entorno."""
    fichero = Path(prefijo) / "etc" / "jupyter" / "jupyter_server_config.d" / f"{NOMBRE_EXTENSION}.json"
    fichero.parent.mkdir(parents=True, exist_ok=True)
    datos = json.dumps({"ServerApp": {"jpserver_extensions": {"course.formgrader": True}}}, indent=2) + "\n"
    if not fichero.exists() or fichero.read_text(encoding="utf-8") != datos:
        fichero.write_text(datos, encoding="utf-8")
    return fichero


def carpeta_de_traduccion(prefijo):
    """La carpeta de catálogos del paquete de idioma instalado en el entorno `prefijo`."""
    for sitio in sorted(Path(prefijo).glob("lib/python3*/site-packages")):
        carpeta = sitio / PAQUETE / "locale" / IDIOMA / "LC_MESSAGES"
        if carpeta.is_dir():
            return carpeta
    return None


def preparar(prefijo=sys.prefix):
    """Deja el entorno `prefijo` listo para el profesor (ver el principio de este módulo)."""
    prefijo = Path(prefijo)
    idioma_por_defecto(prefijo)
    ajustes_del_servidor(prefijo)
    carpeta = carpeta_de_traduccion(prefijo)
    if carpeta:
        completar(carpeta)
    enlazar_extension(prefijo)
    extension_de_servidor(prefijo)
    intercambio = prefijo / "share" / "nbgrader" / "intercambio"
    intercambio.mkdir(parents=True, exist_ok=True)
    configurar_nbgrader(prefijo, intercambio)


if __name__ == "__main__":
    preparar(sys.argv[1] if len(sys.argv) > 1 else sys.prefix)
    sys.exit(0)
