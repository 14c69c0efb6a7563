"""`make lab`: abre la lección en JupyterLab, en español, tal como la ve un estudiante.

La primera vez copia el cuaderno de release/ a trabajo/, para que lo que escriba el
estudiante no toque el que genera nbgrader.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent
TAREA = "errores-como-observaciones"


def idioma_por_defecto(prefijo=Path(sys.prefix)):
    """Deja JupyterLab en español en este entorno, salvo que alguien ya haya elegido otra cosa."""
    ajustes = prefijo / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    actuales = json.loads(ajustes.read_text()) if ajustes.exists() else {}
    actuales.setdefault("@jupyterlab/translation-extension:plugin", {"locale": "es_ES"})
    ajustes.parent.mkdir(parents=True, exist_ok=True)
    ajustes.write_text(json.dumps(actuales, indent=2))


def main(argumentos):
    trabajo = RAIZ / "trabajo" / TAREA
    if not trabajo.exists():
        shutil.copytree(RAIZ / "release" / TAREA, trabajo)
    idioma_por_defecto()
    cuaderno = trabajo / (TAREA + ".ipynb")
    orden = [sys.executable, "-m", "jupyter", "lab", str(cuaderno.relative_to(RAIZ)), *argumentos]
    return subprocess.call(orden, cwd=RAIZ)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
