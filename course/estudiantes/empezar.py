"""Prepara el curso y abre la lección en JupyterLab: `python3 empezar.py`.

La primera vez crea un entorno virtual en .venv e instala lo necesario (unos minutos);
las siguientes sólo abre JupyterLab. Con `--preparar` instala y no abre nada.
Funciona en Linux, macOS y Windows.
"""

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

AQUI = Path(__file__).resolve().parent
LECCION = Path("errores-como-observaciones") / "errores-como-observaciones.ipynb"
# Lo del profesor (crear tareas, corregir) no hace falta aquí; el botón Validate sí.
SOLO_PROFESOR = ["@jupyter/nbgrader:create-assignment", "@jupyter/nbgrader:menu",
                 "@jupyter/nbgrader:course-list", "@jupyter/nbgrader:assignment-list"]
SERVIDOR_PROFESOR = ["nbgrader.server_extensions.formgrader", "nbgrader.server_extensions.course_list",
                     "nbgrader.server_extensions.assignment_list"]


def idioma_por_defecto(prefijo):
    """Deja JupyterLab en español en el entorno `prefijo`, salvo que ya se haya elegido otro idioma."""
    ajustes = Path(prefijo) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    actuales = json.loads(ajustes.read_text()) if ajustes.exists() else {}
    actuales.setdefault("@jupyterlab/translation-extension:plugin", {"locale": "es_ES"})
    ajustes.parent.mkdir(parents=True, exist_ok=True)
    ajustes.write_text(json.dumps(actuales, indent=2))


def abrir_lab(python, cuaderno, carpeta, extra=()):
    """Abre `cuaderno` en JupyterLab con el Python de `python`; como root hace falta --allow-root."""
    raiz = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return subprocess.call([str(python), "-m", "jupyter", "lab", str(cuaderno), *raiz, *extra], cwd=carpeta)


def _python_del_entorno(entorno):
    return entorno / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def main(argumentos):
    entorno = AQUI / ".venv"
    python = _python_del_entorno(entorno)
    instalado = entorno / ".instalado"
    if not instalado.exists():
        print("Preparando el curso (sólo la primera vez, tarda unos minutos)...")
        venv.create(entorno, with_pip=True)
        subprocess.check_call([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
        subprocess.check_call([str(python), "-m", "pip", "install", "--quiet", str(AQUI)])
        jupyter = [str(python), "-m", "jupyter"]
        subprocess.check_call([*jupyter, "labextension", "disable", "--level=sys_prefix", *SOLO_PROFESOR])
        for extension in SERVIDOR_PROFESOR:
            subprocess.check_call([*jupyter, "server", "extension", "disable", "--sys-prefix", extension])
        idioma_por_defecto(entorno)
        instalado.touch()
    if "--preparar" in argumentos:
        print("Preparado. Para abrir la lección: python3 empezar.py")
        return 0
    return abrir_lab(python, LECCION, AQUI, argumentos)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
