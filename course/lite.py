"""`make lite`: la lección en el navegador sin instalar nada, en dist/lite/.

Un sitio estático de JupyterLite (jupyterlite-core con el núcleo de Pyodide) que lleva dentro
todo lo que carga la página: la interfaz en español, el cuaderno publicado, Pyodide (el paquete
`pyodide` de npm) y las ruedas de Python que usa el núcleo (de PyPI), entre ellas la de harness,
construida desde este repositorio. Ninguna petición sale del sitio: sirve cualquier alojamiento
estático, también sin red.

Las descargas se guardan en build/lite-cache/ (fuera de git): la segunda vez no hace falta red.
"""

import base64
import email.parser
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

from . import CUADERNO, RAIZ, TAREA
from .traduccion.completar import completar as completar_traduccion

# La versión de Pyodide que espera jupyterlite-pyodide-kernel 0.7.2 (su PYODIDE_VERSION).
PYODIDE = "0.29.3"
CACHE = RAIZ / "build" / "lite-cache"
DESTINO = RAIZ / "dist" / "lite"
# Lo que el núcleo carga al arrancar (worker.ts: micropip, piplite y estos cinco), harness y los
# widgets. Todo se precarga desde el fichero de bloqueo propio: el núcleo no pide nada a PyPI.
# Los nombres van como los escribe el núcleo (0.7.2: "pyodide_kernel" y "sqlite3").
PRECARGA = ["micropip", "piplite", "sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi", "ipython",
            "ipywidgets", "harness"]
# El módulo sqlite3 de Pyodide es una rueda compilada que solo publica Pyodide (ni npm ni PyPI la
# traen). El núcleo lo pide al arrancar; va una rueda vacía en su lugar e IPython funciona sin
# historial (lo que ya hace cuando no hay sqlite3).
SIN_REGISTRO = ["sqlite3"]
# Lo que se pide a PyPI (con sus dependencias). Las versiones que trae el bloqueo de Pyodide
# mandan (-c): son las probadas con este Pyodide.
PEDIDOS = ["micropip", "packaging", "ipython", "jedi", "comm", "ipywidgets>=8.1,<9"]
# Las ruedas de juguete del núcleo sustituyen a estas (el núcleo trae las suyas, sin servidor).
DEL_NUCLEO = {"ipykernel", "piplite", "pyodide-kernel", "widgetsnbextension"}
# Ficheros del paquete de npm que carga la página (el resto: mapas, tipos, consolas de ejemplo).
DE_NPM = ["pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
          "package.json"]
# Pyodide evalúa las dependencias de cada rueda en este entorno (Python 3.13 sobre Emscripten).
ENTORNO_PYODIDE = {"python_version": "3.13", "python_full_version": "3.13.2", "sys_platform": "emscripten",
                   "platform_system": "Emscripten", "os_name": "posix", "platform_machine": "wasm32",
                   "implementation_name": "cpython", "platform_python_implementation": "CPython",
                   "platform_release": "", "platform_version": "", "implementation_version": "3.13.2"}
# Extensiones del entorno que no tienen sentido sin servidor (nbgrader y la del curso, que llama a sus
# puntos de acceso; «abrir en Notebook»).
SIN_SERVIDOR = ["@jupyter/nbgrader", "curso-harness", "@jupyter-notebook/lab-extension"]
AJUSTES = {
    "@jupyterlab/translation-extension:plugin": {"locale": "es_ES"},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}


def avisar(mensaje):
    print(mensaje, flush=True)


# --------------------------------------------------------------------------- descargas (con caché)

def pyodide_de_npm(cache=CACHE):
    """El paquete `pyodide` de npm, descomprimido en la caché. Devuelve su carpeta `package/`."""
    carpeta = cache / f"pyodide-{PYODIDE}"
    if (carpeta / "package" / "pyodide.mjs").exists():
        return carpeta / "package"
    npm = shutil.which("npm")
    if not npm:
        raise SystemExit("Hace falta npm para traer Pyodide (Debian: apt-get install npm).")
    cache.mkdir(parents=True, exist_ok=True)
    avisar(f"Descargando pyodide@{PYODIDE} de npm...")
    salida = subprocess.run([npm, "pack", f"pyodide@{PYODIDE}", "--silent", "--pack-destination", str(cache)],
                            check=True, capture_output=True, text=True).stdout.split()
    tgz = cache / salida[-1]
    tmp = carpeta.with_suffix(".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    with tarfile.open(tgz) as t:
        t.extractall(tmp, filter="data")
    shutil.rmtree(carpeta, ignore_errors=True)
    tmp.rename(carpeta)
    tgz.unlink()
    return carpeta / "package"


def _puros_del_bloqueo(bloqueo):
    """{nombre: versión} de las ruedas de Python puro del bloqueo de Pyodide."""
    return {canonicalize_name(p["name"]): p["version"] for p in bloqueo["packages"].values()
            if p["file_name"].endswith("-none-any.whl")}


def ruedas_de_pypi(bloqueo, cache=CACHE):
    """Las ruedas de Python puro de PEDIDOS y sus dependencias, de PyPI, para Python 3.13."""
    restricciones = "".join(f"{n}=={v}\n" for n, v in sorted(_puros_del_bloqueo(bloqueo).items()))
    clave = hashlib.sha256(("\n".join(PEDIDOS) + restricciones).encode()).hexdigest()[:12]
    carpeta = cache / f"ruedas-{clave}"
    if (carpeta / ".completo").exists():
        return sorted(carpeta.glob("*.whl"))
    shutil.rmtree(carpeta, ignore_errors=True)
    carpeta.mkdir(parents=True)
    (carpeta / "restricciones.txt").write_text(restricciones)
    avisar("Descargando de PyPI las ruedas del núcleo...")
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                    "--only-binary=:all:", "--platform", "any", "--implementation", "py", "--abi", "none",
                    "--python-version", "3.13", "-c", str(carpeta / "restricciones.txt"),
                    "-d", str(carpeta), *PEDIDOS], check=True)
    (carpeta / ".completo").touch()
    return sorted(carpeta.glob("*.whl"))


def rueda_de_harness(destino, raiz=RAIZ):
    """Construye la rueda de harness/ (solo esa carpeta, con pip wheel) en `destino`."""
    version = _version_del_curso(raiz)
    with tempfile.TemporaryDirectory() as tmp:
        proyecto = Path(tmp) / "harness"
        shutil.copytree(raiz / "harness", proyecto / "harness",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        (proyecto / "pyproject.toml").write_text(
            '[build-system]\nrequires = ["setuptools>=68"]\nbuild-backend = "setuptools.build_meta"\n\n'
            f'[project]\nname = "harness"\nversion = "{version}"\n'
            'description = "La pequeña biblioteca del curso del harness de un agente LLM"\n'
            'requires-python = ">=3.10"\ndependencies = ["ipywidgets>=8.1,<9"]\n\n'
            '[tool.setuptools]\npackages = ["harness"]\n')
        destino.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
                        "--no-deps", "-w", str(destino), str(proyecto)], check=True)
    return next(destino.glob(f"harness-{version}-py3-none-any.whl"))


def rueda_vacia(nombre, destino):
    """Una rueda sin módulos, que ocupa el sitio de un paquete que ningún registro publica."""
    destino.mkdir(parents=True, exist_ok=True)
    rueda = destino / f"{nombre}-0.0.0-py3-none-any.whl"
    info = f"{nombre}-0.0.0.dist-info"
    ficheros = {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {nombre}\nVersion: 0.0.0\n"
                            "Summary: Vacía: el módulo de Pyodide no está en ningún registro\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: curso-harness\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    registro = []
    for ruta, texto in ficheros.items():
        resumen = base64.urlsafe_b64encode(hashlib.sha256(texto.encode()).digest()).rstrip(b"=").decode()
        registro.append(f"{ruta},sha256={resumen},{len(texto.encode())}")
    ficheros[f"{info}/RECORD"] = "\n".join(registro + [f"{info}/RECORD,,"]) + "\n"
    with zipfile.ZipFile(rueda, "w") as z:
        for ruta, texto in ficheros.items():
            z.writestr(zipfile.ZipInfo(ruta, (2020, 1, 1, 0, 0, 0)), texto)
    return rueda


def _version_del_curso(raiz):
    import tomllib
    return tomllib.loads((raiz / "pyproject.toml").read_text())["project"]["version"]


def ruedas_del_nucleo():
    """Las ruedas que trae jupyterlite-pyodide-kernel (ipykernel y widgetsnbextension de juguete, piplite, el núcleo)."""
    pypi = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    ruedas = sorted(pypi.glob("*.whl"))
    # De widgetsnbextension, la 4 (la de ipywidgets 8).
    return [r for r in ruedas if not r.name.startswith("widgetsnbextension-3.")]


# --------------------------------------------------------------------------- el bloqueo de Pyodide

def _metadatos(rueda):
    with zipfile.ZipFile(rueda) as z:
        nombre = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
        meta = email.parser.Parser().parsestr(z.read(nombre).decode("utf-8"))
        raices = set()
        for n in z.namelist():
            primero = n.split("/")[0]
            if primero.endswith((".dist-info", ".data")):
                continue
            if "/" in n:
                raices.add(primero)
            elif n.endswith(".py"):
                raices.add(n[:-3])
    return meta, sorted(raices)


def _dependencias(meta, disponibles):
    deps = []
    for linea in meta.get_all("Requires-Dist") or []:
        req = Requirement(linea)
        if req.marker and not req.marker.evaluate(dict(ENTORNO_PYODIDE, extra="")):
            continue
        nombre = canonicalize_name(req.name)
        if nombre not in disponibles:
            raise SystemExit(f"Falta la rueda de {nombre}, que pide {meta['Name']}.")
        deps.append(nombre)
    return sorted(set(deps))


def entrada_del_bloqueo(rueda, disponibles):
    meta, raices = _metadatos(rueda)
    nombre, version, _, _ = parse_wheel_filename(rueda.name)
    return {
        "name": str(nombre), "version": str(version), "file_name": rueda.name, "install_dir": "site",
        "sha256": hashlib.sha256(rueda.read_bytes()).hexdigest(), "package_type": "package",
        "imports": raices, "depends": _dependencias(meta, disponibles), "unvendored_tests": False,
        "shared_library": False,
    }


def bloqueo_propio(bloqueo_npm, ruedas):
    """El pyodide-lock.json del sitio: la cabecera del de Pyodide y una entrada por rueda local."""
    disponibles = {canonicalize_name(parse_wheel_filename(r.name)[0]): r for r in ruedas}
    paquetes = {n: entrada_del_bloqueo(r, disponibles) for n, r in sorted(disponibles.items())}
    return {"info": bloqueo_npm["info"], "packages": paquetes}


# --------------------------------------------------------------------------- el sitio

def preparar_fuente(fuente, raiz=RAIZ, cache=CACHE):
    """La carpeta que lee `jupyter lite build`: configuración, cuaderno, Pyodide y ruedas."""
    shutil.rmtree(fuente, ignore_errors=True)
    estatico = fuente / "static" / "pyodide"
    estatico.mkdir(parents=True)
    npm = pyodide_de_npm(cache)
    for nombre in DE_NPM:
        shutil.copy2(npm / nombre, estatico / nombre)
    bloqueo_npm = json.loads((npm / "pyodide-lock.json").read_text())

    de_pypi = [r for r in ruedas_de_pypi(bloqueo_npm, cache)
               if canonicalize_name(parse_wheel_filename(r.name)[0]) not in DEL_NUCLEO]
    ruedas = (de_pypi + ruedas_del_nucleo() + [rueda_de_harness(cache / "harness", raiz)]
              + [rueda_vacia(n, cache / "vacias") for n in SIN_REGISTRO])
    for rueda in ruedas:
        shutil.copy2(rueda, estatico / rueda.name)
    bloqueo = bloqueo_propio(bloqueo_npm, [estatico / r.name for r in ruedas])
    faltan = [p for p in PRECARGA if canonicalize_name(p) not in bloqueo["packages"]]
    assert not faltan, f"sin rueda para precargar: {faltan}"
    (estatico / "pyodide-lock.json").write_text(json.dumps(bloqueo, indent=1, ensure_ascii=False))

    ficheros = fuente / "files" / TAREA
    ficheros.mkdir(parents=True)
    shutil.copy2(raiz / "release" / TAREA / CUADERNO, ficheros / CUADERNO)

    # El sitio se abre en la lección: el espacio de trabajo por defecto la tiene abierta (lo que el
    # estudiante cambie después se guarda en su navegador).
    (fuente / "workspaces").mkdir()
    (fuente / "workspaces" / "default.jupyterlab-workspace").write_text(json.dumps(espacio_de_trabajo(), indent=2))
    (fuente / "overrides.json").write_text(json.dumps(AJUSTES, indent=2))
    (fuente / "jupyter-lite.json").write_text(json.dumps({
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Errores como observaciones",
            "disabledExtensions": SIN_SERVIDOR,
            "litePluginSettings": {
                "@jupyterlite/pyodide-kernel-extension:kernel": {
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {"packages": PRECARGA},
                },
            },
        },
    }, indent=2))
    (fuente / "jupyter_lite_config.json").write_text(json.dumps({
        "LiteBuildConfig": {"contents": ["files"], "no_sourcemaps": True, "no_unused_shared_packages": True},
    }, indent=2))
    return fuente


def espacio_de_trabajo(ruta=f"{TAREA}/{CUADERNO}"):
    """El espacio de trabajo `default` de JupyterLab con el cuaderno de `ruta` abierto."""
    return {"data": {"layout-restorer:data": {"main": {"dock": {"type": "tab-area", "currentIndex": 0,
                                                                "widgets": [f"notebook:{ruta}"]},
                                                       "current": f"notebook:{ruta}"}},
                     f"notebook:{ruta}": {"data": {"path": ruta, "factory": "Notebook"}},
                     "file-browser-filebrowser:cwd": {"path": TAREA}},
            "metadata": {"id": "default"}}


def traducir(destino, idioma="es_ES"):
    """Traduce los esquemas de ajustes del sitio (títulos de menús, barras de herramientas).

    Un servidor de JupyterLab traduce cada esquema al servirlo; JupyterLite los sirve tal cual, y
    por eso «Run» o «Tabs» se quedarían en inglés. Se traducen aquí, una vez, con la función de
    jupyterlab_server y el paquete de idioma ya completado (course/traduccion/).
    """
    from jupyterlab_server.translation_utils import DEFAULT_DOMAIN, translator

    translator.set_locale(idioma)
    paquete = translator.load(DEFAULT_DOMAIN)

    def uno(esquema):
        nuevo = dict(esquema)
        translator._translate_schema_strings(paquete, nuevo)
        return nuevo

    for fichero in sorted((destino / "build" / "schemas").rglob("*.json")):
        datos = json.loads(fichero.read_text(encoding="utf-8"))
        if isinstance(datos, list):  # all.json, all_federated.json: [{id, raw, schema, ...}]
            for entrada in datos:
                if isinstance(entrada, dict) and isinstance(entrada.get("schema"), dict):
                    entrada["schema"] = uno(entrada["schema"])
        elif isinstance(datos, dict) and ("properties" in datos or "jupyter.lab.menus" in datos):
            datos = uno(datos)
        else:
            continue
        fichero.write_text(json.dumps(datos, ensure_ascii=False), encoding="utf-8")


def construir(raiz=RAIZ, destino=DESTINO, cache=CACHE):
    """Construye el sitio en `destino` y devuelve su ruta."""
    completar_traduccion()  # el .json que copia el sitio y el .mo de traducir(), ya en español entero
    fuente = preparar_fuente(cache / "fuente", raiz, cache)
    shutil.rmtree(destino, ignore_errors=True)
    avisar("Construyendo el sitio con jupyter lite build...")
    hecho = subprocess.run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(fuente),
                            "--output-dir", str(destino)], cwd=fuente, capture_output=True, text=True)
    if hecho.returncode != 0:
        sys.stderr.write(hecho.stdout + hecho.stderr)
        raise SystemExit(f"jupyter lite build terminó con el código {hecho.returncode}")
    # La base de datos de doit es del que construye, no del sitio.
    for sobra in destino.glob(".jupyterlite.doit.db*"):
        sobra.unlink()
    traducir(destino)
    return destino


if __name__ == "__main__":
    sitio = construir()
    print(f"Sitio sin instalación: {sitio.relative_to(RAIZ)}/ (ábrelo desde cualquier servidor estático,")
    print(f"por ejemplo: python3 -m http.server -d {sitio.relative_to(RAIZ)} 8000)")
