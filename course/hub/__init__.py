"""`make hub`: el curso en un JupyterHub de verdad, con el intercambio de nbgrader.

    sudo make hub [ROSTER=roster.csv]
    python -m course.hub [--destino D] [--puerto P] [--profesor NOMBRE] [--roster CSV] [--solo-preparar]
                         [--en-primer-plano]

Prepara (la primera vez tarda unos minutos; después, segundos) y arranca un JupyterHub de PyPI con
configurable-http-proxy de npm, en 127.0.0.1: como servicio de systemd donde la máquina arrancó con
systemd (y dice cómo pararlo), y si no, aquí mismo hasta Ctrl+C. En él:

- cada persona es un usuario del sistema: el profesor (administrador del hub) y cada estudiante del
  roster (el CSV de `nbgrader db student import`, que también se importa al gradebook). La preparación
  crea los que faltan, con una contraseña al azar que solo se escribe en DESTINO/estado/claves.txt
  (que solo root lee); entran con ella (PAM). Cada servidor corre con su usuario y en su casa, que
  solo él puede leer: cada estudiante ve solo su trabajo;
- nbgrader está configurado como dice su documentación para JupyterHub («One Class, One Grader»):
  un intercambio común (DESTINO/intercambio, escribible por todos, con el bit «sticky», y la carpeta
  del curso ya del profesor), el identificador del curso en la configuración global, y el profesor con
  su copia del curso en ~/curso-harness y su ~/.jupyter/nbgrader_config.py apuntando a ella. Su
  `nbgrader collect` no se fía de los nombres de las carpetas (course/intercambio.py);
- los papeles van por grupos de JupyterHub, con los nombres que usa nbgrader: formgrade-<curso>
  para el profesor (formgrader, crear tareas) y nbgrader-<curso> para los estudiantes (sin ellos);
- todos ven JupyterLab en español, sin noticias, con la extensión del curso («Validar», «Tareas» con
  los plazos, el menú «Curso») y con `harness` instalado; el paquete del curso (`course`: la corrección
  y la clave del cuestionario) no está en su entorno, solo en la copia del profesor (la preparación lo
  comprueba con el usuario de un estudiante en cada Python que puede usar, y desinstala un `pip install .`
  del entorno del hub), y la copia del curso del administrador se cierra a los demás usuarios: el hub no
  lee nada de ella al correr;
- jupyterhub-idle-culler para los servidores que llevan una hora sin actividad, y el registro del
  hub rota por tamaño (course/hub/registro.py).

Necesita root (crear usuarios y arrancar un servidor con el usuario de cada uno), npm y node.
"""

import argparse
import contextlib
import csv
import hashlib
import io
import json
import os
import pwd
import re
import secrets
import shlex
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

from .. import CURSO, RAIZ, entorno, paquete
from ..estudiantes.empezar import AJUSTE_DE_IDIOMA
from ..traduccion.completar import completar

AQUI = Path(__file__).resolve().parent
CONFIGURACION = AQUI / "jupyterhub_config.py"
PLANTILLAS = AQUI / "plantillas"
REGISTRO = AQUI / "registro.py"
DESTINO = Path("/srv/curso-harness")
PROFESOR = "profesora"
ROSTER = AQUI / "roster-de-ejemplo.csv"
SERVICIO = "curso-harness-hub.service"
INACTIVIDAD = 3600  # segundos sin actividad tras los que jupyterhub-idle-culler para el servidor de un usuario
PUERTO = 8000
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
PARADA = 60       # segundos que se espera a que pare (para también los servidores de los usuarios)


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
        self.programa = self.destino / "programa"        # la configuración y las plantillas que lee el hub
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
    instalar_paquete_de_estudiantes(hub, *_dependencias())
    huella.write_text(receta)


def instalar_paquete_de_estudiantes(hub, *otros):
    """El paquete de los estudiantes (harness y la extensión del curso, sin `course`) en el entorno del hub."""
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(paquete.construir(destino=tmp)) as z:
            z.extractall(tmp)
        _orden([hub.python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                *otros, Path(tmp) / paquete.NOMBRE])


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
    usuario = pwd.getpwnam(nombre)
    casa = Path(usuario.pw_dir)
    if not casa.exists():  # un usuario que ya existía sin su casa: se le hace
        casa.mkdir(parents=True)
        os.chown(casa, usuario.pw_uid, usuario.pw_gid)
    casa.chmod(0o700)
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


# --------------------------------------------------------------------------- el roster

# Un nombre de usuario del sistema (el de useradd): cada estudiante del roster entra con su id.
NOMBRE_DE_USUARIO = re.compile(r"[a-z_][a-z0-9_-]{0,31}")
COLUMNAS = ("id", "first_name", "last_name", "email", "lms_user_id")  # las que lee `nbgrader db student import`


def leer_roster(ruta):
    """Las filas ({columna: valor}) del roster CSV, como lo toma `nbgrader db student import`: la columna `id`
    y, si están, first_name, last_name, email y lms_user_id. Admite la marca BOM y el «;» de una hoja de cálculo.
    Un roster que no sirve para crear usuarios termina con un error en español que dice qué línea falla."""
    try:
        texto = Path(ruta).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise SystemExit(f"No se puede leer el roster {ruta}: {error}")
    primera = texto.splitlines()[0] if texto.strip() else ""
    lector = csv.DictReader(io.StringIO(texto), delimiter=";" if primera.count(";") > primera.count(",") else ",")
    if "id" not in (lector.fieldnames or []):
        raise SystemExit(f"El roster {ruta} no tiene la columna «id» en su primera línea (la cabecera: "
                         f"{','.join(COLUMNAS)}).")
    filas, vistos = [], set()
    for numero, fila in enumerate(lector, start=2):
        ident = (fila.get("id") or "").strip()
        if not ident:
            continue
        if not NOMBRE_DE_USUARIO.fullmatch(ident):
            raise SystemExit(f"Roster {ruta}, línea {numero}: «{ident}» no sirve como nombre de usuario del sistema "
                             "(minúsculas sin acentos, cifras, «-» y «_», empezando por una letra; 32 como mucho).")
        if ident in vistos:
            raise SystemExit(f"Roster {ruta}, línea {numero}: «{ident}» está dos veces.")
        vistos.add(ident)
        filas.append({c: (fila.get(c) or "").strip() for c in COLUMNAS if c in lector.fieldnames})
    if not filas:
        raise SystemExit(f"El roster {ruta} no tiene ningún estudiante.")
    return filas


def _como(usuario, orden, cwd, hub, comprobar=True):
    """Una orden de la preparación con el usuario del sistema `usuario` (sin nada de root), con el entorno del hub."""
    u = pwd.getpwnam(usuario)
    variables = {"HOME": u.pw_dir, "USER": usuario, "LOGNAME": usuario, "LANG": "C.UTF-8",
                 "PATH": f"{hub.entorno / 'bin'}:/usr/local/bin:/usr/bin:/bin"}
    opciones = dict(user=u.pw_uid, group=u.pw_gid, extra_groups=[], env=variables, cwd=cwd)
    if not comprobar:
        return subprocess.run([str(a) for a in orden], capture_output=True, text=True, **opciones)
    return _orden(orden, **opciones)


def importar_roster(hub, profesor, filas):
    """El roster en el gradebook del profesor (roster.csv de su copia y `nbgrader db student import`):
    el formgrader y las notas muestran los nombres, y la recogida sabe quién es de la clase."""
    copia = Path(pwd.getpwnam(profesor).pw_dir) / COPIA
    roster = copia / "roster.csv"
    columnas = [c for c in COLUMNAS if c in filas[0]]
    with open(roster, "w", encoding="utf-8", newline="") as f:
        escritor = csv.DictWriter(f, columnas)
        escritor.writeheader()
        escritor.writerows(filas)
    _de(profesor, roster)
    _como(profesor, [hub.entorno / "bin" / "nbgrader", "db", "student", "import", "roster.csv"], copia, hub)


# --------------------------------------------------------------------------- lo que lee el hub al correr

def instalar_programa(hub):
    """La configuración, las plantillas y el registro del hub, copiados a DESTINO/programa: el hub no lee
    nada de la copia del curso del administrador, que se cierra a los demás usuarios (`cerrar_copia`)."""
    nuevo = hub.destino / ".programa-nuevo"
    shutil.rmtree(nuevo, ignore_errors=True)
    nuevo.mkdir()
    for pieza in (CONFIGURACION, REGISTRO):
        shutil.copy(pieza, nuevo / pieza.name)
    shutil.copytree(PLANTILLAS, nuevo / PLANTILLAS.name)
    for raiz, carpetas, ficheros in os.walk(nuevo):
        os.chmod(raiz, 0o755)
        for f in ficheros:
            os.chmod(os.path.join(raiz, f), 0o644)
    shutil.rmtree(hub.programa, ignore_errors=True)
    nuevo.rename(hub.programa)


def cerrar_copia(raiz=RAIZ):
    """La copia del curso del administrador, cerrada a los demás usuarios de la máquina: tiene source/ (las
    soluciones y las pruebas ocultas), la clave del cuestionario y el código de la corrección. Devuelve si
    estaba abierta."""
    modo = stat.S_IMODE(os.stat(raiz).st_mode)
    if not modo & 0o007:
        return False
    os.chmod(raiz, modo & ~0o007)
    return True


# Lo que mira, con el usuario de un estudiante, cada Python que puede usar: si encuentra el paquete `course`
# (o una instalación de curso-harness, la de `pip install .`), dice dónde. Va con -I: sin la carpeta actual
# ni variables de entorno, como arranca Python fuera de una carpeta del curso.
_BUSCAR_EL_CURSO = """
import importlib.util, importlib.metadata, json, os
vistos = []
try:
    spec = importlib.util.find_spec("course")
except Exception:
    spec = None
if spec is not None:
    vistos.append(os.path.dirname(spec.origin or "") or str(list(spec.submodule_search_locations or [])))
for d in importlib.metadata.distributions(name="curso-harness"):
    vistos.append(str(d.locate_file("")))
print(json.dumps(vistos))
"""


def pythons_de_un_estudiante(hub):
    """Los Python que un estudiante puede ejecutar en su terminal del hub: el del entorno y los del sistema."""
    vistos, pythons = set(), []
    for python in (hub.python, PYTHON_DEL_SISTEMA, shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin")):
        if python and os.path.exists(python) and os.path.abspath(python) not in vistos:
            vistos.add(os.path.abspath(python))
            pythons.append(str(python))
    return pythons


def el_curso_a_la_vista(hub, usuario):
    """[(python, dónde)] de cada Python que `usuario` puede ejecutar y que le deja importar `course` o le enseña
    una instalación de curso-harness: con ella, ese estudiante leería las pruebas ocultas, la clave del
    cuestionario y la corrección."""
    encontrados = []
    for python in pythons_de_un_estudiante(hub):
        hecho = _como(usuario, [python, "-I", "-c", _BUSCAR_EL_CURSO], "/", hub, comprobar=False)
        try:
            rutas = json.loads(hecho.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            continue
        encontrados += [(python, r) for r in rutas]
    return encontrados


def esconder_el_curso(hub, usuario):
    """Ningún Python que pueda usar un estudiante tiene el paquete `course`. Del entorno del hub (un `pip
    install .` en él) se desinstala; de otro Python, no se toca lo que ha instalado el administrador: make hub
    se para y dice cómo quitarlo."""
    a_la_vista = el_curso_a_la_vista(hub, usuario)
    if any(python == str(hub.python) for python, _ in a_la_vista):
        avisar("  - El entorno del hub tenía instalado el paquete del curso (curso-harness): se desinstala, porque "
               "cualquier estudiante podría leer las pruebas ocultas, la clave del cuestionario y la corrección.")
        _orden([hub.python, "-m", "pip", "uninstall", "--yes", "--quiet", "curso-harness"])
        for carpeta in hub.entorno.glob("lib/python3*/site-packages/course"):
            shutil.rmtree(carpeta)
        # Desinstalarlo se lleva también la extensión del curso, que los dos paquetes ponen en el mismo sitio.
        instalar_paquete_de_estudiantes(hub, "--no-deps", "--force-reinstall")
        a_la_vista = el_curso_a_la_vista(hub, usuario)
    if a_la_vista:
        donde = "\n".join(f"  {python}: {ruta}" for python, ruta in a_la_vista)
        raise SystemExit("Un estudiante puede importar el paquete del curso (pruebas ocultas, clave del cuestionario, "
                         f"corrección) con estos Python:\n{donde}\nQuítalo (por ejemplo, sudo {a_la_vista[0][0]} -m pip "
                         "uninstall curso-harness) y vuelve a hacer make hub.")


# --------------------------------------------------------------------------- preparar y arrancar

def preparar(destino=DESTINO, profesor=PROFESOR, roster=ROSTER, casas=None):
    """Deja listo un JupyterHub del curso en `destino`, con los estudiantes del `roster` (CSV); devuelve su
    Hub y la lista de usuarios nuevos, cuyas contraseñas (al azar) quedan en destino/estado/claves.txt, que
    solo root puede leer, y en ningún otro sitio.

    `casas`: la carpeta donde crear las casas de los usuarios nuevos (por defecto, la del sistema).
    """
    if os.geteuid() != 0:
        raise SystemExit("make hub necesita root: crea usuarios y arranca el servidor de cada uno con su "
                         "usuario. Prueba con: sudo make hub")
    filas = leer_roster(roster)
    estudiantes = [f["id"] for f in filas]
    if profesor in estudiantes:
        raise SystemExit(f"«{profesor}» es el profesor y está también en el roster: quítalo del roster.")
    hub = Hub(destino)
    avisar(f"Preparando el JupyterHub del curso en {hub.destino}...")
    hub.destino.mkdir(parents=True, exist_ok=True)
    hub.estado.mkdir(mode=0o700, exist_ok=True)
    hub.estado.chmod(0o700)
    preparar_entorno(hub)
    preparar_proxy(hub)
    configurar(hub)
    instalar_programa(hub)
    avisar("  - Los usuarios del curso")
    nuevas = {}
    for nombre in [profesor, *estudiantes]:
        clave = crear_usuario(nombre, Path(casas) / nombre if casas else None)
        if clave:
            nuevas[nombre] = clave
    if nuevas:
        claves = hub.estado / "claves.txt"
        descriptor = os.open(claves, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(descriptor, "a", encoding="utf-8") as f:
            f.writelines(f"{nombre} {clave}\n" for nombre, clave in nuevas.items())
        claves.chmod(0o600)
    esconder_el_curso(hub, estudiantes[0])
    copia_del_profesor(hub, profesor)
    importar_roster(hub, profesor, filas)
    preparar_intercambio(hub.intercambio, profesor)
    hub.datos.write_text(json.dumps({
        "curso": CURSO, "profesor": profesor, "estudiantes": estudiantes, "copia": COPIA,
        "entorno": str(hub.entorno), "proxy": str(hub.proxy / "node_modules" / ".bin" / "configurable-http-proxy"),
        "config_estudiante": str(hub.estudiante), "plantillas": str(hub.programa / PLANTILLAS.name),
        "estado": str(hub.estado), "idioma": AJUSTE_DE_IDIOMA, "inactividad": INACTIVIDAD,
    }, indent=2))
    return hub, list(nuevas)


def _puerto_libre():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _orden_del_hub(hub):
    """La orden que arranca el hub: JupyterHub con la configuración de DESTINO/programa, y su salida (la de todos
    sus procesos) al registro, que rota por tamaño (course/hub/registro.py)."""
    return [hub.python, hub.programa / REGISTRO.name, hub.registro, "--",
            hub.entorno / "bin" / "jupyterhub", "-f", hub.programa / CONFIGURACION.name]


def _variables(hub, puertos):
    return {"PATH": f"{hub.entorno / 'bin'}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "LANG": "C.UTF-8", "HOME": "/root", "CURSO_HUB": str(hub.datos),
            "CURSO_HUB_PUERTOS": ",".join(map(str, puertos))}


def _esperar(hub, puerto, vivo):
    """Espera a que el hub conteste en `puerto`; `vivo()` dice si su proceso sigue."""
    limite = time.monotonic() + ARRANQUE
    while time.monotonic() < limite:
        if not vivo():
            raise SystemExit(f"JupyterHub ha terminado al arrancar; mira {hub.registro}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{puerto}/hub/api/", timeout=5) as r:
                if r.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(0.5)
    raise SystemExit(f"JupyterHub no ha contestado en {ARRANQUE} s; mira {hub.registro}")


def arrancar(hub, puerto=PUERTO):
    """Arranca el JupyterHub de `hub` en 127.0.0.1:`puerto` (en su propio grupo de procesos) y espera a que
    conteste. Devuelve el proceso; su registro (en inglés, de JupyterHub) va a DESTINO/estado/jupyterhub.log."""
    proceso = subprocess.Popen([str(a) for a in _orden_del_hub(hub)], cwd=hub.estado,
                               env=_variables(hub, [puerto, _puerto_libre(), _puerto_libre()]),
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        _esperar(hub, puerto, lambda: proceso.poll() is None)
    except SystemExit:
        parar(proceso)
        raise
    return proceso


def parar(proceso):
    """Para el hub: con SIGTERM (que el registro le pasa a JupyterHub) para también el proxy, los servicios y el
    servidor de cada usuario. Si en PARADA segundos no ha parado, se matan él y todo lo que ha lanzado."""
    if proceso.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proceso.pid, signal.SIGTERM)
        try:
            proceso.wait(timeout=PARADA)
            return
        except subprocess.TimeoutExpired:
            pass
    for pid in [*_descendientes(proceso.pid), proceso.pid]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    proceso.wait(timeout=5)


def _descendientes(pid):
    """Los procesos que ha lanzado `pid` (y los que han lanzado estos...), aunque estén en otra sesión."""
    padres = {}
    for p in os.listdir("/proc"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{p}/stat") as f:
                padres[int(p)] = int(f.read().rsplit(")", 1)[1].split()[1])
    encontrados, pendientes = [], [pid]
    while pendientes:
        hijos = [h for h, padre in padres.items() if padre == pendientes.pop()]
        encontrados += hijos
        pendientes += hijos
    return encontrados


# --------------------------------------------------------------------------- como servicio de systemd

def hay_systemd():
    """Si esta máquina arrancó con systemd (lo que mira sd_booted)."""
    return os.path.isdir("/run/systemd/system")


def unidad(hub, puerto, puertos_internos):
    """El texto de la unidad de systemd que arranca el hub al encender la máquina y lo rearranca si cae."""
    orden = " ".join(shlex.quote(str(a)) for a in _orden_del_hub(hub))
    variables = "\n".join(f"Environment={shlex.quote(f'{k}={v}')}"
                          for k, v in _variables(hub, [puerto, *puertos_internos]).items())
    return f"""# Escrita por `make hub` (course/hub): el JupyterHub del curso en {hub.destino}.
[Unit]
Description=JupyterHub del curso del harness ({hub.destino})
After=network-online.target
Wants=network-online.target

[Service]
ExecStart={orden}
WorkingDirectory={hub.estado}
{variables}
# SIGTERM solo al registro, que se lo pasa a JupyterHub: este para el proxy y los servidores de los usuarios.
KillMode=mixed
TimeoutStopSec={PARADA + 10}
Restart=on-failure
RestartSec=5

[Install]
WantedBy=multi-user.target
"""


def instalar_servicio(hub, puerto):
    """Instala y arranca la unidad de systemd del hub; espera a que conteste."""
    ruta = Path("/etc/systemd/system") / SERVICIO
    ruta.write_text(unidad(hub, puerto, [_puerto_libre(), _puerto_libre()]), encoding="utf-8")
    _orden(["systemctl", "daemon-reload"])
    _orden(["systemctl", "enable", SERVICIO])
    _orden(["systemctl", "restart", SERVICIO])
    _esperar(hub, puerto, lambda: subprocess.run(["systemctl", "is-failed", "--quiet", SERVICIO]).returncode != 0)
    return ruta


def main(argumentos=None):
    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("--destino", type=Path, default=DESTINO, help=f"dónde se prepara (por defecto, {DESTINO})")
    opciones.add_argument("--puerto", type=int, default=PUERTO, help=f"el puerto, en 127.0.0.1 (por defecto, {PUERTO})")
    opciones.add_argument("--profesor", default=PROFESOR, help=f"el usuario del profesor (por defecto, {PROFESOR})")
    opciones.add_argument("--roster", type=Path, default=ROSTER,
                          help="el roster, un CSV como el de `nbgrader db student import` (id,first_name,last_name,"
                               "email,lms_user_id): cada id es un estudiante y su usuario")
    opciones.add_argument("--solo-preparar", action="store_true", help="preparar y no arrancar")
    opciones.add_argument("--en-primer-plano", action="store_true",
                          help="arrancarlo aquí hasta Ctrl+C, aunque la máquina tenga systemd")
    opciones.add_argument("--casas", type=Path, help=argparse.SUPPRESS)  # las pruebas: casas en su carpeta
    a = opciones.parse_args(argumentos)
    hub, nuevos = preparar(a.destino, a.profesor, a.roster, casas=a.casas)
    if nuevos:
        avisar(f"  Usuarios nuevos: {', '.join(nuevos)}. Sus contraseñas están en {hub.estado / 'claves.txt'} "
               "(solo root puede leerlo): dale a cada uno la suya.")
    if cerrar_copia():
        avisar(f"  Tu copia del curso ({RAIZ}) ya no la pueden leer los demás usuarios de esta máquina (chmod o-rwx): "
               "tiene las soluciones, las pruebas ocultas y la clave del cuestionario.")
    avisar(f"El profesor es {a.profesor} (administrador del hub); su copia del curso está en ~{a.profesor}/{COPIA}. "
           f"Estudiantes, del roster: {len(hub.leer()['estudiantes'])}.")
    if a.solo_preparar:
        return 0
    if hay_systemd() and not a.en_primer_plano:
        ruta = instalar_servicio(hub, a.puerto)
        avisar(f"JupyterHub del curso en http://127.0.0.1:{a.puerto}/, como servicio de systemd ({ruta}): arranca "
               f"solo al encender la máquina. Su registro: {hub.registro}.\n"
               f"Para pararlo: sudo systemctl stop {SERVICIO}  (y para que no vuelva a arrancar: "
               f"sudo systemctl disable {SERVICIO}).")
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
