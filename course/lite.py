"""`make lite`: la lección en el navegador sin instalar nada, en dist/lite/.

Un sitio estático de JupyterLite (jupyterlite-core con el núcleo de Pyodide) que lleva dentro
todo lo que carga la página: la interfaz en español, el cuaderno publicado, Pyodide (el paquete
`pyodide` de npm) y las ruedas de Python que usa el núcleo (de PyPI), entre ellas la de harness,
construida desde este repositorio con pip. El pyodide-lock.json del sitio lo escribe el paquete
`pyodide-lock` a partir de esas ruedas. Ninguna petición sale del sitio: sirve cualquier
alojamiento estático, también sin red.

Las descargas se guardan en build/lite-cache/ (fuera de git): la segunda vez no hace falta red.
Y si nada de lo que construye el sitio ha cambiado (ENTRADAS y los paquetes instalados, anotados
en dist/lite.entradas.json), `make lite` no hace nada; para forzarlo, se borra dist/lite/.
"""

import functools
import hashlib
import importlib.metadata
import json
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
from pathlib import Path

from packaging.utils import canonicalize_name, parse_wheel_filename
from pyodide_lock import PyodideLockSpec
from pyodide_lock.utils import add_wheels_to_spec

from . import CUADERNO, RAIZ, TAREA
from .estudiantes.empezar import AJUSTES
from .traduccion.completar import IDIOMA, completar as completar_traduccion

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
# traen). El núcleo lo pide al arrancar; en su lugar va una rueda `sqlite3` que, al importarla,
# dice que no está (ModuleNotFoundError), e IPython funciona sin historial, como cuando falta.
SIN_SQLITE3 = ("El módulo sqlite3 no está en el sitio sin instalación: Pyodide solo lo publica "
               "compilado en su propio archivo, que el sitio no lleva.")
# Lo que se pide a PyPI (con sus dependencias). Las versiones que trae el bloqueo de Pyodide
# mandan (-c): son las probadas con este Pyodide.
PEDIDOS = ["micropip", "packaging", "ipython", "jedi", "comm", "ipywidgets>=8.1,<9"]
# Las ruedas de juguete del núcleo sustituyen a estas (el núcleo trae las suyas, sin servidor).
DEL_NUCLEO = {"ipykernel", "piplite", "pyodide-kernel", "widgetsnbextension"}
# Ficheros del paquete de npm que carga la página (el resto: mapas, tipos, consolas de ejemplo).
DE_NPM = ["pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
          "package.json"]
# Extensiones del entorno que no tienen sentido sin servidor: nbgrader, los plugins de la del curso que
# llaman a sus puntos de acceso (Validar, Tareas, Crear tarea) y «abrir en Notebook». Los otros dos de la del
# curso (la copia de los widgets; los textos de la barra y «Preparando Python…») sí van.
SIN_SERVIDOR = ["@jupyter/nbgrader", "curso-harness:validar", "curso-harness:tareas", "curso-harness:crear-tarea",
                "@jupyter-notebook/lab-extension"]
# Lo que decide el sitio, además de los paquetes instalados: si nada cambia, no se reconstruye.
# (PYODIDE y PEDIDOS, que deciden las descargas, están en este fichero; los ajustes de JupyterLab, los
# de todos los entornos del curso, en empezar.py.)
ENTRADAS = ["course/lite.py", "course/estudiantes/empezar.py", "course/traduccion", "harness", "pyproject.toml",
            f"release/{TAREA}/{CUADERNO}"]


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
    return {canonicalize_name(p.name): p.version for p in bloqueo.packages.values()
            if p.file_name.endswith("-none-any.whl")}


def ruedas_de_pypi(bloqueo, cache=CACHE):
    """Las ruedas de Python puro de PEDIDOS y sus dependencias, de PyPI, para el Python de Pyodide."""
    restricciones = "".join(f"{n}=={v}\n" for n, v in sorted(_puros_del_bloqueo(bloqueo).items()))
    clave = hashlib.sha256(("\n".join(PEDIDOS) + restricciones).encode()).hexdigest()[:12]
    carpeta = cache / f"ruedas-{clave}"
    if (carpeta / ".completo").exists():
        return sorted(carpeta.glob("*.whl"))
    shutil.rmtree(carpeta, ignore_errors=True)
    carpeta.mkdir(parents=True)
    (carpeta / "restricciones.txt").write_text(restricciones)
    python = ".".join(bloqueo.info.python.split(".")[:2])
    avisar("Descargando de PyPI las ruedas del núcleo...")
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                    "--only-binary=:all:", "--platform", "any", "--implementation", "py", "--abi", "none",
                    "--python-version", python, "-c", str(carpeta / "restricciones.txt"),
                    "-d", str(carpeta), *PEDIDOS], check=True)
    (carpeta / ".completo").touch()
    return sorted(carpeta.glob("*.whl"))


def ruedas_del_nucleo():
    """Las ruedas que trae jupyterlite-pyodide-kernel (ipykernel y widgetsnbextension de juguete, piplite, el núcleo)."""
    pypi = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    ruedas = sorted(pypi.glob("*.whl"))
    # De widgetsnbextension, la 4 (la de ipywidgets 8).
    return [r for r in ruedas if not r.name.startswith("widgetsnbextension-3.")]


# --------------------------------------------------------------------------- las ruedas propias

def proyecto(carpeta, nombre, version, resumen, dependencias=()):
    """El pyproject.toml de un proyecto de Python puro con un paquete, `carpeta`/`nombre` (y sus subpaquetes)."""
    (carpeta / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=70.1"]\nbuild-backend = "setuptools.build_meta"\n\n'
        f'[project]\nname = "{nombre}"\nversion = "{version}"\ndescription = "{resumen}"\n'
        f'requires-python = ">=3.10"\ndependencies = {json.dumps(list(dependencias))}\n\n'
        f'[tool.setuptools.packages.find]\ninclude = ["{nombre}", "{nombre}.*"]\n', encoding="utf-8")
    return carpeta


def proyecto_de_harness(carpeta, raiz=RAIZ):
    """harness/, con la versión del curso, como proyecto en `carpeta`."""
    import tomllib

    shutil.copytree(raiz / "harness", carpeta / "harness", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    version = tomllib.loads((raiz / "pyproject.toml").read_text())["project"]["version"]
    return proyecto(carpeta, "harness", version, "La pequeña biblioteca del curso del harness de un agente LLM",
                    dependencias=["ipywidgets>=8.1,<9"])


def proyecto_sin_sqlite3(carpeta):
    """El paquete `sqlite3` que ocupa el sitio del módulo compilado de Pyodide (ver SIN_SQLITE3)."""
    (carpeta / "sqlite3").mkdir(parents=True)
    (carpeta / "sqlite3" / "__init__.py").write_text(
        '"""En lugar del sqlite3 de Pyodide, que el sitio sin instalación no lleva."""\n\n'
        f'raise ModuleNotFoundError({SIN_SQLITE3!r}, name="sqlite3")\n', encoding="utf-8")
    return proyecto(carpeta, "sqlite3", "0.0.0", "Sin sqlite3: el módulo compilado de Pyodide no está en ningún registro")


def ruedas_propias(destino, raiz=RAIZ):
    """Las ruedas de harness y del sqlite3 que no está, en `destino`, con una sola llamada a pip
    (con el setuptools de este entorno, --no-build-isolation: sin red)."""
    with tempfile.TemporaryDirectory() as tmp:
        proyectos = [proyecto_de_harness(Path(tmp) / "harness", raiz), proyecto_sin_sqlite3(Path(tmp) / "sqlite3")]
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
                        "--no-deps", "--no-build-isolation", "-w", str(destino), *map(str, proyectos)], check=True)
    return [next(destino.glob(f"{p.name}-*-py3-none-any.whl")) for p in proyectos]


# --------------------------------------------------------------------------- el bloqueo de Pyodide

def bloqueo_propio(bloqueo_npm, ruedas, carpeta):
    """El pyodide-lock.json del sitio: la cabecera del de Pyodide y una entrada por rueda (en `carpeta`).

    Las entradas (módulos, dependencias según el entorno de Pyodide, sha256) las escribe pyodide-lock.
    """
    vacio = PyodideLockSpec(info=bloqueo_npm.info, packages={})
    try:
        return add_wheels_to_spec(vacio, ruedas, base_path=carpeta)
    except RuntimeError as error:  # una dependencia sin rueda, o una rueda que no es para Pyodide
        raise SystemExit(f"No se puede escribir el pyodide-lock.json del sitio: {error}") from None


# --------------------------------------------------------------------------- lo que decide el sitio

def entradas(raiz=RAIZ):
    """{entrada: resumen} de todo lo que decide el sitio: sha256 de cada fichero de ENTRADAS y la
    versión de cada paquete instalado (las herramientas, las extensiones y el idioma de JupyterLab)."""
    vistas = {}
    for entrada in ENTRADAS:
        ruta = raiz / entrada
        ficheros = sorted(ruta.rglob("*")) if ruta.is_dir() else [ruta]
        for fichero in ficheros:
            if fichero.is_file() and not {"__pycache__", ".ipynb_checkpoints"} & set(fichero.parts):
                vistas[fichero.relative_to(raiz).as_posix()] = hashlib.sha256(fichero.read_bytes()).hexdigest()
    return vistas | _instalados()


@functools.cache  # una vez por proceso: nada instala paquetes mientras se construye
def _instalados():
    """Los paquetes instalados en este entorno: los de su site-packages, no todo sys.path (al
    importarse, setuptools añade los que lleva dentro, y otro proceso no los vería)."""
    carpetas = sorted({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")})
    return {f"pip:{canonicalize_name(paquete.metadata['Name'])}": paquete.version
            for paquete in importlib.metadata.distributions(path=carpetas)}


def _corta(ruta, raiz=RAIZ):
    return ruta.relative_to(raiz) if ruta.is_relative_to(raiz) else ruta


def fichero_de_entradas(destino=DESTINO):
    """Donde se anotan las entradas con las que se construyó `destino` (a su lado, fuera del sitio)."""
    return destino.with_name(destino.name + ".entradas.json")


def anotar(vistas, destino=DESTINO):
    """Guarda junto a `destino` las entradas con las que se ha construido."""
    fichero_de_entradas(destino).write_text(json.dumps(vistas, indent=1, sort_keys=True), encoding="utf-8")


def cambios(vistas, destino=DESTINO):
    """Las entradas que han cambiado desde que se construyó `destino` ([]: está al día), o None si
    no hay sitio construido (o no se sabe con qué entradas)."""
    anotacion = fichero_de_entradas(destino)
    if not (destino / "index.html").exists() or not anotacion.exists():
        return None
    try:
        antes = json.loads(anotacion.read_text(encoding="utf-8"))
    except ValueError:
        return None
    return sorted(e for e in antes.keys() | vistas.keys() if antes.get(e) != vistas.get(e))


# --------------------------------------------------------------------------- el sitio

def preparar_fuente(fuente, raiz=RAIZ, cache=CACHE):
    """La carpeta que lee `jupyter lite build`: configuración, cuaderno, Pyodide y ruedas."""
    shutil.rmtree(fuente, ignore_errors=True)
    estatico = fuente / "static" / "pyodide"
    estatico.mkdir(parents=True)
    npm = pyodide_de_npm(cache)
    for nombre in DE_NPM:
        shutil.copy2(npm / nombre, estatico / nombre)
    bloqueo_npm = PyodideLockSpec.from_json(npm / "pyodide-lock.json")

    de_pypi = [r for r in ruedas_de_pypi(bloqueo_npm, cache)
               if canonicalize_name(parse_wheel_filename(r.name)[0]) not in DEL_NUCLEO]
    ruedas = [Path(shutil.copy2(rueda, estatico / rueda.name)) for rueda in de_pypi + ruedas_del_nucleo()]
    ruedas += ruedas_propias(estatico, raiz)
    bloqueo = bloqueo_propio(bloqueo_npm, ruedas, estatico)
    faltan = [p for p in PRECARGA if canonicalize_name(p) not in bloqueo.packages]
    if faltan:
        raise SystemExit(f"Falta la rueda de {', '.join(faltan)}, que el núcleo carga al arrancar.")
    bloqueo.to_json(estatico / "pyodide-lock.json", indent=1)

    # En la raíz del sitio, no en una carpeta de la tarea: «Archivo › Descargar» da un fichero con el nombre
    # de la ruta (el navegador cambia «/» por «_»), y así se llama como la tarea, errores-como-observaciones.ipynb.
    ficheros = fuente / "files"
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


def espacio_de_trabajo(ruta=CUADERNO):
    """El espacio de trabajo `default` de JupyterLab con el cuaderno de `ruta` abierto."""
    return {"data": {"layout-restorer:data": {"main": {"dock": {"type": "tab-area", "currentIndex": 0,
                                                                "widgets": [f"notebook:{ruta}"]},
                                                       "current": f"notebook:{ruta}"}},
                     f"notebook:{ruta}": {"data": {"path": ruta, "factory": "Notebook"}},
                     "file-browser-filebrowser:cwd": {"path": ""}},
            "metadata": {"id": "default"}}


def traducir(destino, idioma=IDIOMA):
    """Traduce los esquemas de ajustes del sitio (títulos de menús, barras de herramientas).

    Un servidor de JupyterLab traduce cada esquema al servirlo; JupyterLite los sirve tal cual, y
    por eso «Run» o «Tabs» se quedarían en inglés. Se traducen aquí, una vez, con la función con
    la que lo hace el servidor (jupyterlab_server) y el paquete de idioma ya completado
    (course/traduccion/); cada esquema, en el dominio que declara.
    """
    from jupyterlab_server.translation_utils import translator

    translator.set_locale(idioma)
    for fichero in sorted((destino / "build" / "schemas").rglob("*.json")):
        datos = json.loads(fichero.read_text(encoding="utf-8"))
        if isinstance(datos, list):  # all.json, all_federated.json: [{id, raw, schema, ...}]
            for entrada in datos:
                if isinstance(entrada, dict) and isinstance(entrada.get("schema"), dict):
                    entrada["schema"] = translator.translate_schema(entrada["schema"])
        elif isinstance(datos, dict) and ("properties" in datos or "jupyter.lab.menus" in datos):
            datos = translator.translate_schema(datos)
        else:
            continue
        fichero.write_text(json.dumps(datos, ensure_ascii=False), encoding="utf-8")


def construir(raiz=RAIZ, destino=DESTINO, cache=CACHE):
    """Construye el sitio en `destino`, si alguna de sus entradas ha cambiado, y devuelve su ruta."""
    vistas = entradas(raiz)
    cambiadas = cambios(vistas, destino)
    if cambiadas == []:
        avisar(f"{_corta(destino, raiz)}/ está al día: no ha cambiado nada de lo que lo construye.")
        return destino
    if cambiadas:
        avisar("Ha cambiado: " + ", ".join(cambiadas[:5]) + (f" y {len(cambiadas) - 5} más" if len(cambiadas) > 5 else ""))
    fichero_de_entradas(destino).unlink(missing_ok=True)
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
    anotar(vistas, destino)
    return destino


if __name__ == "__main__":
    sitio = construir()
    print(f"Sitio sin instalación: {_corta(sitio)}/ (ábrelo desde cualquier servidor estático,")
    print(f"por ejemplo: python3 -m http.server -d {_corta(sitio)} 8000)")
