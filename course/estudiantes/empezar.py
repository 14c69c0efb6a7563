"""Prepara el curso y abre la lección en JupyterLab: `python3 empezar.py`.

La primera vez crea un entorno virtual en .venv e instala lo necesario (unos minutos);
las siguientes solo abre JupyterLab. Con `--preparar` instala y no abre nada.
Funciona en Linux, macOS y Windows, y abre siempre el JupyterLab de su propio
entorno, aunque en el PATH haya otro (conda, otro entorno virtual).
"""

import json
import os
import secrets
import socket
import subprocess
import sys
import urllib.parse
import venv
from pathlib import Path

AQUI = Path(__file__).resolve().parent
# Lo del profesor (crear tareas, corregir) no hace falta aquí; el botón «Validar» sí. Sin el plugin del
# formgrader, tampoco vuelve a abrirse sola una pestaña suya guardada en un espacio de trabajo (daba 404).
SOLO_PROFESOR = ["@jupyter/nbgrader:create-assignment", "@jupyter/nbgrader:menu", "@jupyter/nbgrader:formgrader",
                 "@jupyter/nbgrader:course-list", "@jupyter/nbgrader:assignment-list"]
SERVIDOR_PROFESOR = ["nbgrader.server_extensions.formgrader", "nbgrader.server_extensions.course_list",
                     "nbgrader.server_extensions.assignment_list"]
SIN_TAREAS = "cursoHarnessSinTareas"  # la opción de la página que lee course/extension/index.js


# Los ajustes de JupyterLab de todos los entornos del curso: este, el de `make lab` y `make install`
# (course/entorno.py), el de `make hub` y el sitio sin instalación (course/lite.py) los toman de aquí.
AJUSTE_DE_IDIOMA = {"locale": "es_ES"}  # el mismo idioma que traduccion/completar.py
AJUSTES = {
    "@jupyterlab/translation-extension:plugin": AJUSTE_DE_IDIOMA,
    # Sin la ventana de noticias ni el aviso de actualizaciones.
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    # JupyterLab 4.5 traduce los submenús del menú principal, pero no los del menú contextual:
    # «Open With» del explorador de archivos saldría en inglés. Se le da aquí su etiqueta.
    "@jupyterlab/application-extension:context-menu": {"contextMenu": [
        {"type": "submenu", "selector": '.jp-DirListing-item[data-isdir="false"]', "rank": 1.3,
         "submenu": {"id": "jp-contextmenu-open-with", "label": "Abrir con", "items": []}}]},
}


# Los enlaces del menú Ayuda sobre el kernel los manda ipykernel, en inglés y a bibliotecas que la
# lección no usa; estos, en el entorno del curso, los cambian por documentación que sí sirve.
MARCA_KERNEL = "# Escrito por el curso del harness (empezar.py, make lab)."
AYUDA_DEL_KERNEL = MARCA_KERNEL + """
c.IPythonKernel.help_links = [
    {"text": "Documentación de Python", "url": "https://docs.python.org/es/3/"},
    {"text": "Documentación de IPython", "url": "https://ipython.readthedocs.io/en/stable/"},
    {"text": "Documentación de ipywidgets", "url": "https://ipywidgets.readthedocs.io/en/stable/"},
]
"""


def idioma_por_defecto(prefijo):
    """Deja JupyterLab en español y sin noticias en el entorno `prefijo`, salvo lo que ya se haya elegido."""
    ajustes = Path(prefijo) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    actuales = json.loads(ajustes.read_text()) if ajustes.exists() else {}
    for plugin, valores in AJUSTES.items():
        actuales.setdefault(plugin, valores)
    ajustes.parent.mkdir(parents=True, exist_ok=True)
    ajustes.write_text(json.dumps(actuales, indent=2))
    kernel = Path(prefijo) / "etc" / "ipython" / "ipython_kernel_config.py"
    if not kernel.exists() or kernel.read_text(encoding="utf-8").startswith(MARCA_KERNEL):
        kernel.parent.mkdir(parents=True, exist_ok=True)
        kernel.write_text(AYUDA_DEL_KERNEL, encoding="utf-8")


def ajustes_de_usuario(prefijo):
    """La carpeta de ajustes de usuario de JupyterLab dentro del entorno `prefijo`, con el español
    elegido. overrides.json solo cambia el valor por defecto, que ve el navegador; el servidor lee
    el idioma de los ajustes de usuario, y con él traduce el editor de configuración."""
    carpeta = Path(prefijo) / "share" / "jupyter" / "lab" / "user-settings"
    idioma = carpeta / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings"
    if not idioma.exists():
        idioma.parent.mkdir(parents=True, exist_ok=True)
        idioma.write_text(json.dumps(AJUSTE_DE_IDIOMA, indent=2))
    return carpeta


def entorno_propio(python):
    """Variables para los procesos del entorno de `python`: su carpeta bin delante en PATH y nada
    que haga mirar otro Python (PYTHONPATH, PYTHONHOME); sin colores si no hay terminal."""
    variables = dict(os.environ)
    bin_ = str(Path(python).parent)
    variables["PATH"] = os.pathsep.join([bin_, variables.get("PATH", "")])
    for otra in ("PYTHONPATH", "PYTHONHOME", "__PYVENV_LAUNCHER__"):
        variables.pop(otra, None)
    if not sys.stdout.isatty():
        variables.update(NO_COLOR="1", TERM="dumb", PIP_NO_COLOR="1")
        variables.pop("FORCE_COLOR", None)
    return variables


def _puerto_libre():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def leccion(carpeta):
    """El cuaderno de la tarea que trae el paquete (cada tarea, una carpeta con un cuaderno de su nombre),
    relativo a `carpeta`; si trae varias, None: JupyterLab se abre en la carpeta, con todas a la vista."""
    tareas = [c for c in sorted(Path(carpeta).glob("*/*.ipynb")) if c.stem == c.parent.name]
    return tareas[0].relative_to(carpeta) if len(tareas) == 1 else None


def configuracion_de_estudiante(prefijo):
    """La configuración de Jupyter que deja JupyterLab como lo ve un estudiante, en una carpeta del entorno
    `prefijo` que solo lee `abrir_lab` (con JUPYTER_CONFIG_PATH, que manda sobre la del entorno): sin lo del
    profesor (SOLO_PROFESOR, SERVIDOR_PROFESOR). Así `make lab`, en el entorno del profesor, abre lo mismo
    que este guion en el suyo, y un `jupyter lab` a secas sigue siendo el del profesor."""
    carpeta = Path(prefijo) / "etc" / "jupyter-estudiante"
    ficheros = {
        # SIN_TAREAS le dice a la extensión del curso que aquí no están ni las tareas ni el formgrader: así no
        # pregunta por ellos, y la terminal del estudiante no se llena de 404 en inglés.
        carpeta / "labconfig" / "page_config.json": {"disabledExtensions": dict.fromkeys(SOLO_PROFESOR, True),
                                                     SIN_TAREAS: True},
        carpeta / "jupyter_server_config.d" / "curso-harness-estudiante.json":
            {"ServerApp": {"jpserver_extensions": dict.fromkeys(SERVIDOR_PROFESOR, False)}},
    }
    for fichero, datos in ficheros.items():
        texto = json.dumps(datos, indent=2)
        if not fichero.exists() or fichero.read_text(encoding="utf-8") != texto:
            fichero.parent.mkdir(parents=True, exist_ok=True)
            fichero.write_text(texto, encoding="utf-8")
    return carpeta


def abrir_lab(python, cuaderno, carpeta, extra=(), estudiante=True):
    """Abre `cuaderno` (o, con None, solo el explorador) en el JupyterLab del Python `python` (nunca otro
    del PATH), con el explorador de ficheros en `carpeta`, donde se ve harness/. Como root hace falta
    --allow-root.

    Con `estudiante` (lo normal), sin nada del profesor (configuracion_de_estudiante). Las pestañas abiertas
    se guardan en un espacio de trabajo del entorno, uno para el estudiante y otro para el profesor: nunca
    en el de siempre del usuario, de donde volvían a abrirse pestañas de otros cursos o del formgrader."""
    raiz = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    puerto, token = _puerto_libre(), secrets.token_hex(16)
    ruta = "/lab/tree/" + urllib.parse.quote(Path(cuaderno).as_posix()) if cuaderno else "/lab"
    prefijo = Path(python).parent.parent
    variables = entorno_propio(python)
    if "JUPYTERLAB_SETTINGS_DIR" not in variables:  # si no se ha elegido otra, la del entorno
        variables["JUPYTERLAB_SETTINGS_DIR"] = str(ajustes_de_usuario(prefijo))
    espacios = []
    if "JUPYTERLAB_WORKSPACES_DIR" not in variables:
        quien = "estudiante" if estudiante else "profesor"
        espacios = [f"--LabApp.workspaces_dir={prefijo / 'share' / 'jupyter' / 'lab' / ('workspaces-' + quien)}"]
    if estudiante:
        variables["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
            filter(None, [str(configuracion_de_estudiante(prefijo)), variables.get("JUPYTER_CONFIG_PATH")]))
    orden = [str(python), "-m", "jupyterlab", f"--ServerApp.root_dir={carpeta}",
             f"--LabApp.default_url={ruta}?file-browser-path=/", f"--ServerApp.port={puerto}",
             "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
             "--ServerApp.log_level=WARN", "--LabApp.log_level=WARN", "--LabApp.news_url=None", *espacios, *raiz,
             *extra]
    print(("Abriendo la lección en JupyterLab." if estudiante else "Abriendo JupyterLab con las herramientas del profesor.")
          + " Si el navegador no se abre solo, copia esta dirección:")
    print(f"    http://localhost:{puerto}{ruta}?token={token}")
    print("Para terminar, cierra la pestaña y pulsa Ctrl+C aquí.", flush=True)
    try:
        return subprocess.call(orden, cwd=carpeta, env=variables)
    except KeyboardInterrupt:
        return 0


def _python_del_entorno(entorno):
    return entorno / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _paso(descripcion, orden, python):
    """Ejecuta un paso de la preparación sin enseñar su salida (en inglés); si falla, la enseña."""
    print("  - " + descripcion, flush=True)
    hecho = subprocess.run([str(x) for x in orden], env=entorno_propio(python), capture_output=True, text=True)
    if hecho.returncode != 0:
        print(hecho.stdout + hecho.stderr)
        raise SystemExit(f"No se ha podido {descripcion.lower()} (código {hecho.returncode}).")


def preparar(entorno):
    """Crea el entorno y lo deja listo: todo lo que se escribe queda dentro de `entorno`."""
    python = _python_del_entorno(entorno)
    print("Preparando el curso (solo la primera vez, tarda unos minutos)...", flush=True)
    venv.create(entorno, with_pip=True)
    pip = [python, "-m", "pip", "--disable-pip-version-check", "--no-color", "install", "--quiet"]
    _paso("Actualizar pip", [*pip, "--upgrade", "pip"], python)
    # Sin compilar de antemano los .pyc de todos los paquetes (casi la mitad de lo que tarda la instalación):
    # Python compila cada módulo la primera vez que lo importa, y muchos no se importan nunca.
    _paso("Instalar JupyterLab, nbgrader y la biblioteca harness", [*pip, "--no-compile", str(AQUI)], python)
    # Los módulos de cada orden, con el Python del entorno: nunca el `jupyter` que haya en el PATH.
    _paso("Quitar los menús del profesor", [python, "-m", "jupyterlab.labextensions", "disable",
                                             "--level=sys_prefix", *SOLO_PROFESOR], python)
    # Las tres en una orden: cada una carga jupyter_server y todas sus extensiones (unos 4 s).
    servidor = [python, "-m", "jupyter_server.extension.serverextension", "disable", "--sys-prefix"]
    _paso("Quitar el formgrader y las listas de cursos y tareas", [*servidor, *SERVIDOR_PROFESOR], python)
    idioma_por_defecto(entorno)


def completar_espanol(python):
    """El español que le falta al paquete de idioma de JupyterLab (traduccion/). Se repite en cada
    arranque porque una reinstalación con pip lo deshace; si falla, JupyterLab abre igual."""
    hecho = subprocess.run([str(python), str(AQUI / "traduccion" / "completar.py")],
                           env=entorno_propio(python), capture_output=True, text=True)
    if hecho.returncode != 0:
        print("Aviso: no se ha podido completar la traducción de JupyterLab; parte del menú saldrá en inglés.")
        print(hecho.stdout + hecho.stderr)


PYTHON_MINIMO = (3, 11)  # el de LEEME.md y pyproject.toml: con el que se prueba el curso


def comprobar_python(version=sys.version_info):
    """Sale con un mensaje en español si este Python es más antiguo que el que necesita el curso."""
    if tuple(version[:2]) < PYTHON_MINIMO:
        raise SystemExit("El curso necesita Python %d.%d o posterior, y este es Python %d.%d. Instala uno más "
                         "reciente (python.org) y vuelve a escribir la orden con él." % (*PYTHON_MINIMO, *version[:2]))


def main(argumentos):
    comprobar_python()
    entorno = AQUI / ".venv"
    python = _python_del_entorno(entorno)
    instalado = entorno / ".instalado"
    if not instalado.exists():
        preparar(entorno)
        instalado.touch()
    completar_espanol(python)
    if "--preparar" in argumentos:
        print("Preparado. Para abrir la lección: python3 empezar.py")
        return 0
    return abrir_lab(python, leccion(AQUI), AQUI, argumentos)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
