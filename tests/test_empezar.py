"""El paquete para estudiantes y `empezar.py`, como los usa un estudiante que ya tiene otro
JupyterLab en el PATH (otro entorno virtual, conda).

Se descomprime el paquete, se prepara con `python3 empezar.py` con el entorno del profesor (el
.venv de este repositorio, con su JupyterLab) y un `jupyter` falso delante en el PATH, y se
arranca: tiene que abrirse el JupyterLab del paquete, en español, sin tocar el del profesor.
"""

import hashlib
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from course import CUADERNO, TAREA, paquete

PROFESOR = Path(sys.prefix)
ESC = "\x1b["


def _huella(prefijo):
    """Contenido de la configuración de Jupyter de un entorno: lo que empezar.py no debe tocar."""
    huella = {}
    for base in (prefijo / "etc" / "jupyter", prefijo / "share" / "jupyter" / "lab" / "settings"):
        for f in sorted(base.rglob("*")) if base.exists() else []:
            if f.is_file():
                huella[str(f)] = hashlib.sha256(f.read_bytes()).hexdigest()
    return huella


@pytest.fixture(scope="module")
def otro_path(tmp_path_factory):
    """Un PATH con un `jupyter` falso delante (anota si alguien lo llama) y el entorno del profesor."""
    falso = tmp_path_factory.mktemp("otro-jupyter")
    anotaciones = falso / "llamadas.txt"
    for nombre in ("jupyter", "jupyter-lab", "jupyter-labextension", "jupyter-server"):
        guion = falso / nombre
        guion.write_text(f"#!/bin/sh\necho \"{nombre} $*\" >> {anotaciones}\nexit 3\n")
        guion.chmod(0o755)
    path = os.pathsep.join([str(falso), str(PROFESOR / "bin"), os.environ.get("PATH", "")])
    return path, anotaciones


@pytest.fixture(scope="module")
def preparado(procesos, tmp_path_factory, otro_path):
    """El paquete descomprimido y preparado con `empezar.py --preparar`, con otro JupyterLab en el PATH."""
    tmp = tmp_path_factory.mktemp("paquete")
    with zipfile.ZipFile(paquete.construir(destino=tmp)) as z:
        z.extractall(tmp)
    carpeta = tmp / paquete.NOMBRE
    path, anotaciones = otro_path
    antes = _huella(PROFESOR)
    entorno = dict(os.environ, PATH=path, VIRTUAL_ENV=str(PROFESOR))
    hecho = subprocess.run([sys.executable, "empezar.py", "--preparar"], cwd=carpeta, capture_output=True,
                           text=True, timeout=900, env=entorno)
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    return carpeta, hecho.stdout + hecho.stderr, antes, entorno, anotaciones


def test_la_preparacion_no_toca_otro_entorno_y_habla_en_espanol(preparado):
    carpeta, salida, antes, _, anotaciones = preparado
    assert _huella(PROFESOR) == antes, "empezar.py ha cambiado la configuración del entorno del profesor"
    assert not anotaciones.exists(), "empezar.py ha llamado al jupyter del PATH:\n" + anotaciones.read_text()
    assert ESC not in salida, repr(salida)
    assert "Preparando el curso (solo la primera vez" in salida and "Preparado." in salida, salida
    for ingles in ("Disabling", "Enabling", "Successfully", "Requirement already", "WARNING"):
        assert ingles not in salida, salida
    # Lo del profesor, quitado en el entorno del paquete; el botón Validar (el de la extensión del
    # curso, en español, que sustituye al de nbgrader), no.
    python = carpeta / ".venv" / "bin" / "python"
    extensiones = subprocess.run([python, "-m", "jupyterlab.labextensions", "list"], capture_output=True,
                                 text=True, env=preparado[3])
    lista = extensiones.stdout + extensiones.stderr
    activas, apagadas = lista.split("Disabled")[0], lista.split("Disabled")[-1]
    assert "@jupyter/nbgrader:create-assignment" in apagadas
    assert "curso-harness v" in activas and "curso-harness" not in apagadas, lista
    assert "@jupyter/nbgrader:validate-assignment" in apagadas, lista
    ajustes = json.loads((carpeta / ".venv" / "share" / "jupyter" / "lab" / "settings" / "overrides.json").read_text())
    assert ajustes["@jupyterlab/translation-extension:plugin"]["locale"] == "es_ES"
    assert ajustes["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    # El paquete de idioma de su entorno, completado con traduccion/ (lo que le falta a 4.5.post3).
    paquete, = (carpeta / ".venv").glob("lib/python3*/site-packages/jupyterlab_language_pack_es_ES")
    cadenas = json.loads((paquete / "locale" / "es_ES" / "LC_MESSAGES" / "jupyterlab.json").read_text())
    assert cadenas["menu\x04Run"] == ["Ejecutar"] and cadenas["Idle"] == ["Inactivo"]
    assert "Documentación de Python" in (carpeta / ".venv" / "etc" / "ipython" / "ipython_kernel_config.py").read_text()


def test_validate_funciona_en_el_paquete(preparado):
    carpeta, *_ , entorno, _ = preparado
    python = carpeta / ".venv" / "bin" / "python"
    validado = subprocess.run([python, "-m", "nbgrader", "validate", TAREA + "/" + CUADERNO], cwd=carpeta,
                              capture_output=True, text=True, timeout=300, env=entorno)
    assert "VALIDATION FAILED" in validado.stdout, validado.stdout + validado.stderr
    assert "ModuleNotFoundError" not in validado.stdout


def _get(url, tope=5):
    with urllib.request.urlopen(url, timeout=tope) as r:
        return r.status, r.read().decode()


def test_empezar_abre_el_jupyterlab_del_paquete_y_no_otro(preparado):
    import navegador as nv

    carpeta, _, antes, entorno, anotaciones = preparado
    despues = []
    with nv.lab_de_una_orden([sys.executable, "empezar.py", "--no-browser"], carpeta, entorno,
                             "empezar.py", despues) as (salida, base, ruta, token):
        assert "Abriendo la lección en JupyterLab" in salida and ESC not in salida, salida
        assert ruta == "/lab/tree/" + TAREA + "/" + CUADERNO
        # El servidor es el del entorno del paquete: la página dice de dónde sirve JupyterLab.
        _, pagina = _get(f"{base}/lab?token={token}")
        datos = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                                     pagina, re.S).group(1))
        estaticos = Path(datos["staticDir"]).resolve()
        assert (carpeta / ".venv").resolve() in estaticos.parents, datos["staticDir"]
        # Las pestañas, en un espacio de trabajo del paquete: nunca vuelve a abrirse una de otro curso.
        assert Path(datos["workspacesDir"]).resolve().parent == (carpeta / ".venv" / "share" / "jupyter" / "lab").resolve(), datos
        # En español, y sin el formgrader (eso es del profesor).
        _, idioma = _get(f"{base}/lab/api/settings/@jupyterlab/translation-extension:plugin?token={token}")
        # overrides.json del entorno del paquete: cambia el valor por defecto del esquema.
        assert json.loads(idioma)["schema"]["properties"]["locale"]["default"] == "es_ES", idioma
        # Y en los ajustes de usuario del entorno, que son los que lee el servidor para traducir.
        assert json.loads(idioma)["settings"]["locale"] == "es_ES", idioma
        with pytest.raises(urllib.error.HTTPError) as error:
            _get(f"{base}/formgrader?token={token}")
        assert error.value.code == 404
        # El explorador de ficheros empieza en la carpeta del paquete, donde están harness/ y la lección.
        _, raiz = _get(f"{base}/api/contents?token={token}")
        assert {"harness", TAREA} <= {e["name"] for e in json.loads(raiz)["content"]}
        with urllib.request.urlopen(f"{base}/?token={token}", timeout=5) as r:
            assert r.url.startswith(f"{base}{ruta}?file-browser-path=/"), r.url
    assert _huella(PROFESOR) == antes
    assert not anotaciones.exists(), anotaciones.read_text()
    # En la terminal del estudiante, después de la dirección, ninguna línea informativa en inglés de JupyterLab
    # («[I … LabApp] JupyterLab extension loaded from…»): solo avisos, si los hay.
    assert not re.search(r"^\[I ", despues[0], re.M), despues[0]


def test_con_un_python_antiguo_lo_dice_en_español_antes_de_instalar_nada():
    sys.path.insert(0, str(paquete.PROPIOS))
    try:
        import empezar
    finally:
        sys.path.remove(str(paquete.PROPIOS))
    with pytest.raises(SystemExit, match=r"El curso necesita Python 3\.11 o posterior, y este es Python 3\.10\."):
        empezar.comprobar_python((3, 10, 12))
    empezar.comprobar_python((3, 11, 0))
    # La misma versión en los tres sitios que la dicen: empezar.py, el pyproject.toml del paquete y LEEME.md.
    minimo = "%d.%d" % empezar.PYTHON_MINIMO
    assert 'requires-python = ">=%s"' % minimo in (paquete.PROPIOS / "pyproject.toml").read_text(encoding="utf-8")
    assert "Python %s o posterior" % minimo in (paquete.PROPIOS / "LEEME.md").read_text(encoding="utf-8")


def test_la_configuracion_de_estudiante_apaga_lo_del_profesor_y_se_puede_repetir(tmp_path):
    """Lo que `make lab` y empezar.py le pasan a JupyterLab (JUPYTER_CONFIG_PATH): sin las extensiones de
    JupyterLab ni las de servidor del profesor; la segunda vez no reescribe nada."""
    sys.path.insert(0, str(paquete.PROPIOS))
    try:
        import empezar
    finally:
        sys.path.remove(str(paquete.PROPIOS))
    carpeta = empezar.configuracion_de_estudiante(tmp_path)
    pagina = json.loads((carpeta / "labconfig" / "page_config.json").read_text())
    assert pagina == {"disabledExtensions": {e: True for e in empezar.SOLO_PROFESOR}, "cursoHarnessSinTareas": True}
    assert {"@jupyter/nbgrader:create-assignment", "@jupyter/nbgrader:formgrader"} <= set(empezar.SOLO_PROFESOR)
    assert "@jupyter/nbgrader:validate-assignment" not in empezar.SOLO_PROFESOR  # el botón Validar, sí
    servidor, = (carpeta / "jupyter_server_config.d").glob("*.json")
    extensiones = json.loads(servidor.read_text())["ServerApp"]["jpserver_extensions"]
    assert extensiones == {e: False for e in empezar.SERVIDOR_PROFESOR}
    assert "nbgrader.server_extensions.formgrader" in extensiones
    assert not any("validate_assignment" in e for e in extensiones)
    antes = {f: f.stat().st_mtime_ns for f in carpeta.rglob("*.json")}
    assert empezar.configuracion_de_estudiante(tmp_path) == carpeta
    assert {f: f.stat().st_mtime_ns for f in carpeta.rglob("*.json")} == antes
