"""`make hub`: el curso en un JupyterHub de verdad, en 127.0.0.1, con el intercambio de nbgrader.

    sudo make hub
    python -m course.hub [--destino D] [--puerto P] [--profesor NOMBRE] [--estudiantes A B ...] [--solo-preparar]

Prepara (la primera vez tarda unos minutos; después, segundos) y arranca un JupyterHub de PyPI con
configurable-http-proxy de npm, en el que:

- cada persona es un usuario del sistema (los crea la preparación, si no existen) y entra con su
  contraseña (PAM); su servidor corre con su usuario y en su carpeta personal, que solo ella puede
  leer: cada estudiante ve solo su trabajo;
- nbgrader está configurado como dice su documentación para JupyterHub («One Class, One
  Grader»): un intercambio común (DESTINO/intercambio, escribible por todos), el identificador del
  curso en la configuración global, y el profesor con su copia del curso en ~/curso-harness y su
  ~/.jupyter/nbgrader_config.py apuntando a ella;
- los papeles van por grupos de JupyterHub, con los nombres que usa nbgrader: formgrade-<curso>
  para el profesor (formgrader, crear tareas) y nbgrader-<curso> para los estudiantes (sin ellos);
- todos ven JupyterLab en español, sin noticias, con la extensión del curso («Validar», «Tareas»,
  el menú «Curso») y con `harness` instalado; el paquete del curso (`course`, donde están las
  claves del cuestionario) no está en su entorno: solo en la copia del profesor.

Necesita root (crear usuarios y arrancar un servidor con el usuario de cada uno), npm y node.
"""

import argparse
import hashlib
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

from .. import RAIZ, entorno, paquete
from ..estudiantes.empezar import AJUSTE_DE_IDIOMA
from ..traduccion.completar import completar

AQUI = Path(__file__).resolve().parent
CONFIGURACION = AQUI / "jupyterhub_config.py"
PLANTILLAS = AQUI / "plantillas"
DESTINO = Path("/srv/curso-harness")
PROFESOR = "profesora"
ESTUDIANTES = ("ana", "bruno")
PUERTO = 8000
CURSO = "harness-de-agentes"        # el course_id de nbgrader_config.py
COPIA = "curso-harness"             # la carpeta del curso en la casa del profesor
# La lista de tareas de nbgrader con los plazos de entrega, para los estudiantes (course/hub/plazos.py).
MODULO_DE_PLAZOS = "curso_harness_plazos"
LISTA_CON_PLAZOS = MODULO_DE_PLAZOS + ".ListaConPlazos"
# configurable-http-proxy 5 pide node 20; con un node más viejo (Debian 12 trae el 18), la 4.6.
PROXY = {20: "configurable-http-proxy@5.3.0", 0: "configurable-http-proxy@4.6.3"}
# El Python del sistema: un entorno hecho desde un Python bajo /root (pyenv) no lo pueden usar los demás.
PYTHON_DEL_SISTEMA = "/usr/bin/python3"
# Lo que el profesor necesita en su copia del curso para `make grade` y las órdenes de nbgrader.
PIEZAS_DEL_CURSO = ["Makefile", "pyproject.toml", "nbgrader_config.py", "README.md", "docs", "harness", "course",
                    "source", "release"]
ARRANQUE = 120    # segundos que se espera a que el hub conteste
PARADA = 20       # segundos que se espera a que pare (para también los servidores de los usuarios)


def avisar(mensaje):
    print(mensaje, flush=True)


def _orden(argumentos, **opciones):
    """Una orden de la preparación; si falla, su salida y un error en español."""
    hecho = subprocess.run([str(a) for a in argumentos], capture_output=True, text=True, **opciones)
    if hecho.returncode != 0:
        raise SystemExit(f"{hecho.stdout}{hecho.stderr}\nHa fallado: {' '.join(map(str, argumentos))}")
    return hecho


class Hub:
    """Las carpetas de un JupyterHub del curso preparado en `destino`."""

    def __init__(self, destino):
        self.destino = Path(destino).resolve()
        self.entorno = self.destino / "entorno"          # JupyterHub y el entorno de cada usuario
        self.proxy = self.destino / "proxy"              # configurable-http-proxy (npm)
        self.intercambio = self.destino / "intercambio"  # el intercambio de nbgrader, de todos
        self.estudiante = self.destino / "config-estudiante"  # configuración de Jupyter de los estudiantes
        self.estado = self.destino / "estado"            # base de datos y secretos del hub: solo root
        self.datos = self.estado / "hub.json"
        self.registro = self.estado / "jupyterhub.log"

    @property
    def python(self):
        return self.entorno / "bin" / "python"

    def leer(self):
        return json.loads(self.datos.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- el entorno de todos

def _dependencias():
    """Lo que se instala en el entorno del hub: las dependencias del curso y las del extra `hub`."""
    proyecto = tomllib.loads((RAIZ / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return proyecto["dependencies"] + proyecto["optional-dependencies"]["hub"]


def _receta():
    """Huella de lo que lleva el entorno: si cambia, se rehace."""
    h = hashlib.sha256(json.dumps(_dependencias()).encode())
    for fichero in sorted([paquete.PROPIOS / "pyproject.toml", *(RAIZ / "harness").rglob("*.py"),
                           *entorno.EXTENSION.rglob("*")]):
        if fichero.is_file():
            h.update(str(fichero.relative_to(RAIZ)).encode() + b"\0" + fichero.read_bytes())
    return h.hexdigest()


def preparar_entorno(hub):
    """El entorno de Python del hub y de cada usuario: JupyterHub, JupyterLab, nbgrader y el paquete
    de los estudiantes (harness y la extensión del curso; sin `course`). Solo se rehace si cambia."""
    receta = _receta()
    huella = hub.entorno / ".receta"
    if huella.exists() and huella.read_text() == receta and hub.python.exists():
        return
    avisar("  - El entorno de Python de todos (JupyterHub, JupyterLab, nbgrader, harness); unos minutos...")
    shutil.rmtree(hub.entorno, ignore_errors=True)
    python = PYTHON_DEL_SISTEMA if os.path.exists(PYTHON_DEL_SISTEMA) else sys.executable
    hecho = subprocess.run([python, "-m", "venv", hub.entorno], capture_output=True, text=True)
    if hecho.returncode != 0 and "ensurepip" in hecho.stdout + hecho.stderr and shutil.which("apt-get"):
        _orden(["apt-get", "install", "-y", "-qq", "python3-venv"], env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
        shutil.rmtree(hub.entorno, ignore_errors=True)
        hecho = subprocess.run([python, "-m", "venv", hub.entorno], capture_output=True, text=True)
    if hecho.returncode != 0:
        raise SystemExit(hecho.stdout + hecho.stderr + "\nNo se ha podido crear el entorno de Python del hub.")
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(paquete.construir(destino=tmp)) as z:
            z.extractall(tmp)
        _orden([hub.python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                *_dependencias(), Path(tmp) / paquete.NOMBRE])
    huella.write_text(receta)


def preparar_proxy(hub):
    """configurable-http-proxy, de npm, en su propia carpeta (la versión que va con el node de aquí)."""
    npm, node = shutil.which("npm"), shutil.which("node")
    if not (npm and node):
        raise SystemExit("JupyterHub necesita configurable-http-proxy, que se instala con npm y corre con "
                         "node: apt-get install npm")
    version = int(_orden([node, "--version"]).stdout.strip().lstrip("v").split(".")[0])
    paquete_npm = next(p for minimo, p in sorted(PROXY.items(), reverse=True) if version >= minimo)
    marca = hub.proxy / ".version"
    if marca.exists() and marca.read_text() == paquete_npm:
        return
    avisar(f"  - {paquete_npm}, de npm")
    shutil.rmtree(hub.proxy, ignore_errors=True)
    hub.proxy.mkdir(parents=True)
    _orden([npm, "install", "--prefix", hub.proxy, "--no-audit", "--no-fund", "--loglevel=error", paquete_npm])
    marca.write_text(paquete_npm)


# Para los estudiantes, lo que la documentación de nbgrader deja solo al profesor: el formgrader,
# la lista de cursos y la barra de crear tareas (ni sus extensiones de servidor ni las de JupyterLab).
CONFIG_ESTUDIANTE = {
    "jupyter_server_config.json": {"ServerApp": {"jpserver_extensions": {
        "nbgrader.server_extensions.formgrader": False, "nbgrader.server_extensions.course_list": False}}},
    "labconfig/page_config.json": {"disabledExtensions": {
        "@jupyter/nbgrader:formgrader": True, "@jupyter/nbgrader:create-assignment": True}},
}
# Para todos: la terminal de JupyterLab sin `bash -l`, que cambiaría el PATH por el del sistema y
# dejaría fuera nbgrader y el Python del entorno.
CONFIG_SERVIDOR = {"ServerApp": {"terminado_settings": {"shell_command": ["/bin/bash"]}}}


def configurar(hub):
    """Español, extensión, nbgrader y papeles en el entorno del hub."""
    entorno.idioma_por_defecto(hub.entorno)
    completar(entorno.carpeta_de_traduccion(hub.entorno))
    entorno.configurar_nbgrader(hub.entorno, hub.intercambio, **{"CourseDirectory.course_id": CURSO,
                                                                 "ExchangeFactory.list": LISTA_CON_PLAZOS})
    instalar_plazos(hub)
    (hub.entorno / "etc" / "jupyter" / "jupyter_server_config.json").write_text(json.dumps(CONFIG_SERVIDOR, indent=2))
    for nombre, datos in CONFIG_ESTUDIANTE.items():
        fichero = hub.estudiante / nombre
        fichero.parent.mkdir(parents=True, exist_ok=True)
        fichero.write_text(json.dumps(datos, indent=2))
    for carpeta in (hub.destino, hub.estudiante, hub.estudiante / "labconfig"):
        carpeta.chmod(0o755)


def instalar_plazos(hub):
    """La lista de tareas con sus plazos (course/hub/plazos.py), como módulo suelto del entorno de todos."""
    destino, = hub.entorno.glob("lib/python3*/site-packages")
    shutil.copyfile(AQUI / "plazos.py", destino / (MODULO_DE_PLAZOS + ".py"))


def preparar_intercambio(raiz, profesor, curso=CURSO):
    """El intercambio de nbgrader en `raiz`: lo escriben todos, con el bit «sticky» (nadie borra ni renombra lo
    que no es suyo), y la carpeta del curso ya creada y del profesor, antes de que otro la cree con ese nombre."""
    raiz = Path(raiz)
    raiz.mkdir(parents=True, exist_ok=True)
    raiz.chmod(0o1777)
    carpeta = raiz / curso
    usuario = pwd.getpwnam(profesor)
    if not os.path.lexists(carpeta):
        carpeta.mkdir()
        os.chown(carpeta, usuario.pw_uid, usuario.pw_gid)
    info = os.lstat(carpeta)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != usuario.pw_uid:
        raise SystemExit(f"{carpeta} no es una carpeta de {profesor}: la ha creado otro usuario. Mira qué tiene, "
                         "bórrala y vuelve a preparar el hub.")
    carpeta.chmod(0o755)
    return carpeta


# --------------------------------------------------------------------------- las personas

def crear_usuario(nombre, casa=None, clave=None):
    """El usuario del sistema `nombre` (si no existe) con su casa privada. Devuelve la contraseña
    que se le ha puesto, o None si ya existía y no se ha pedido otra."""
    try:
        pwd.getpwnam(nombre)
        nuevo = False
    except KeyError:
        opciones = ["--home-dir", casa] if casa else []
        _orden(["useradd", "--create-home", "--shell", "/bin/bash", "--user-group", *opciones, nombre])
        nuevo = True
    Path(pwd.getpwnam(nombre).pw_dir).chmod(0o700)
    if clave is None and nuevo:
        clave = secrets.token_urlsafe(9)
    if clave is not None:
        _orden(["chpasswd"], input=f"{nombre}:{clave}\n")
    return clave


def _de(nombre, *rutas):
    """Las rutas, de `nombre` (como si las hubiera creado él)."""
    usuario = pwd.getpwnam(nombre)
    for ruta in rutas:
        for raiz, carpetas, ficheros in os.walk(ruta):
            for dentro in [raiz, *(os.path.join(raiz, f) for f in carpetas + ficheros)]:
                os.lchown(dentro, usuario.pw_uid, usuario.pw_gid)


def copia_del_profesor(hub, profesor):
    """La copia del curso del profesor (~/curso-harness) y su ~/.jupyter/nbgrader_config.py.

    Su .venv es el entorno del hub: `make grade` y las órdenes de nbgrader funcionan en su terminal
    sin instalar nada. Una copia que ya existe no se toca (puede tener entregas y notas).
    """
    casa = Path(pwd.getpwnam(profesor).pw_dir)
    copia = casa / COPIA
    if not copia.exists():
        ignorar = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", "node_modules", "package-lock.json")
        copia.mkdir()
        for pieza in PIEZAS_DEL_CURSO:
            origen = RAIZ / pieza
            if origen.is_dir():
                shutil.copytree(origen, copia / pieza, ignore=ignorar)
            else:
                shutil.copy2(origen, copia / pieza)
        (copia / ".venv").symlink_to(hub.entorno, target_is_directory=True)
        _de(profesor, copia)
    # La marca de `make install` en el entorno del hub, más nueva que el pyproject.toml de la copia:
    # `make grade` no intenta instalar (no podría: el entorno es de root).
    (hub.entorno / ".instalado").touch()
    config = casa / ".jupyter" / "nbgrader_config.py"
    config.parent.mkdir(exist_ok=True)
    config.write_text(
        "# Escrito por `make hub` (course/hub): el curso de este profesor, como pide la documentación de\n"
        "# nbgrader para JupyterHub. Su configuración se lee también fuera de su carpeta (el formgrader\n"
        "# arranca en la casa del profesor).\n"
        "c = get_config()  # noqa: F821\n"
        f"c.CourseDirectory.root = {str(copia)!r}\n"
        f"load_subconfig({str(copia / 'nbgrader_config.py')!r})  # noqa: F821\n", encoding="utf-8")
    _de(profesor, config.parent)
    return copia


# --------------------------------------------------------------------------- preparar y arrancar

def preparar(destino=DESTINO, profesor=PROFESOR, estudiantes=ESTUDIANTES, casas=None, claves=None):
    """Deja listo un JupyterHub del curso en `destino`; devuelve su Hub y {usuario nuevo: contraseña}.

    `casas`: la carpeta donde crear las casas de los usuarios nuevos (por defecto, la del sistema);
    `claves`: {usuario: contraseña} para ponérsela (las pruebas); a un usuario nuevo sin ella se le
    pone una al azar, que se escribe en destino/estado/claves.txt (solo root la lee).
    """
    if os.geteuid() != 0:
        raise SystemExit("make hub necesita root: crea usuarios y arranca el servidor de cada uno con su "
                         "usuario. Prueba con: sudo make hub")
    hub = Hub(destino)
    avisar(f"Preparando el JupyterHub del curso en {hub.destino}...")
    hub.destino.mkdir(parents=True, exist_ok=True)
    hub.estado.mkdir(mode=0o700, exist_ok=True)
    preparar_entorno(hub)
    preparar_proxy(hub)
    configurar(hub)
    avisar("  - Los usuarios del curso")
    nuevas = {}
    for nombre in [profesor, *estudiantes]:
        casa = Path(casas) / nombre if casas else None
        clave = crear_usuario(nombre, casa, (claves or {}).get(nombre))
        if clave:
            nuevas[nombre] = clave
    copia_del_profesor(hub, profesor)
    preparar_intercambio(hub.intercambio, profesor)
    if nuevas and not claves:
        fichero = hub.estado / "claves.txt"
        with open(fichero, "a", encoding="utf-8") as f:
            f.writelines(f"{nombre} {clave}\n" for nombre, clave in nuevas.items())
        fichero.chmod(0o600)
    hub.datos.write_text(json.dumps({
        "curso": CURSO, "profesor": profesor, "estudiantes": list(estudiantes), "copia": COPIA,
        "entorno": str(hub.entorno), "proxy": str(hub.proxy / "node_modules" / ".bin" / "configurable-http-proxy"),
        "config_estudiante": str(hub.estudiante), "plantillas": str(PLANTILLAS), "estado": str(hub.estado),
        "idioma": AJUSTE_DE_IDIOMA,
    }, indent=2))
    return hub, nuevas


def _puerto_libre():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def arrancar(hub, puerto=PUERTO, salida=None):
    """Arranca el JupyterHub de `hub` en 127.0.0.1:`puerto` (en su propio grupo de procesos) y espera
    a que conteste. Devuelve el proceso; su registro (en inglés, de JupyterHub) va a `salida`."""
    variables = {
        "PATH": f"{hub.entorno / 'bin'}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "LANG": "C.UTF-8", "HOME": "/root",
        "CURSO_HUB": str(hub.datos), "CURSO_HUB_PUERTOS": f"{puerto},{_puerto_libre()},{_puerto_libre()}",
    }
    salida = Path(salida or hub.registro)
    with open(salida, "ab") as registro:
        proceso = subprocess.Popen([hub.entorno / "bin" / "jupyterhub", "-f", CONFIGURACION], cwd=hub.estado,
                                   env=variables, stdin=subprocess.DEVNULL, stdout=registro,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    limite = time.monotonic() + ARRANQUE
    while time.monotonic() < limite:
        if proceso.poll() is not None:
            raise SystemExit(f"JupyterHub ha terminado al arrancar (código {proceso.returncode}); mira {salida}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{puerto}/hub/api/", timeout=5) as r:
                if r.status == 200:
                    return proceso
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(0.5)
    parar(proceso)
    raise SystemExit(f"JupyterHub no ha contestado en {ARRANQUE} s; mira {salida}")


def parar(proceso):
    """Para el hub: con SIGTERM para también el proxy y el servidor de cada usuario."""
    for senal, espera in ((signal.SIGTERM, PARADA), (signal.SIGKILL, 5)):
        if proceso.poll() is not None:
            return
        try:
            os.killpg(proceso.pid, senal)
        except ProcessLookupError:
            return
        try:
            proceso.wait(timeout=espera)
        except subprocess.TimeoutExpired:
            continue


def main(argumentos=None):
    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("--destino", type=Path, default=DESTINO, help=f"dónde se prepara (por defecto, {DESTINO})")
    opciones.add_argument("--puerto", type=int, default=PUERTO, help=f"el puerto, en 127.0.0.1 (por defecto, {PUERTO})")
    opciones.add_argument("--profesor", default=PROFESOR, help=f"el usuario del profesor (por defecto, {PROFESOR})")
    opciones.add_argument("--estudiantes", nargs="+", default=list(ESTUDIANTES), help="los usuarios de los estudiantes")
    opciones.add_argument("--solo-preparar", action="store_true", help="preparar y no arrancar")
    a = opciones.parse_args(argumentos)
    hub, nuevas = preparar(a.destino, a.profesor, a.estudiantes)
    for nombre, clave in nuevas.items():
        avisar(f"  Usuario nuevo: {nombre}, contraseña {clave} (apuntada en {hub.estado / 'claves.txt'})")
    avisar(f"El profesor es {a.profesor}; su copia del curso está en ~{a.profesor}/{COPIA}. "
           f"Estudiantes: {', '.join(a.estudiantes)}.")
    if a.solo_preparar:
        return 0
    proceso = arrancar(hub, a.puerto)
    avisar(f"JupyterHub del curso en http://127.0.0.1:{a.puerto}/ (su registro: {hub.registro}). "
           "Para pararlo, Ctrl+C.")
    # El hub va en su propia sesión: Ctrl+C (o un SIGTERM) llega aquí, y aquí se para todo.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        proceso.wait()
    except KeyboardInterrupt:
        pass
    finally:
        avisar("Parando el JupyterHub y los servidores de los usuarios...")
        parar(proceso)
    return 0
