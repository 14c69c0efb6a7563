"""El curso en un JupyterHub de verdad (`make hub`), con el intercambio de nbgrader, en Chromium.

Un solo hub (course/hub: JupyterHub de PyPI, configurable-http-proxy de npm, usuarios del sistema
con PAM) y un solo navegador, y el recorrido entero en un fixture del módulo:

1. la profesora entra y, en una terminal de su JupyterLab, publica la tarea (`release_assignment`);
2. Ana entra, descarga la tarea en la pestaña «Tareas», contesta, valida con el botón de la barra
   y entrega; la profesora pone la fecha de entrega (ya pasada); Carla valida desde «Tareas» antes de
   contestar (el código de partida no pasa), contesta y entrega tarde;
3. la profesora recoge (`collect`), corrige con `make grade` (en la jaula, con el descuento por
   retraso) y publica la retroalimentación (`release_feedback`);
4. cada estudiante descarga su retroalimentación en «Tareas».

Las pruebas miran lo que ha quedado (notas, ficheros, permisos) y lo que cada persona ha visto:
ninguna etiqueta inglesa conocida de JupyterLab, de nbgrader ni de JupyterHub (tests/ingles.py).

Dora, del roster, no usa el navegador: desde su cuenta intenta entregar a nombre de Ana (con `nbgrader
submit --student`, con una carpeta que es un enlace a las soluciones y con un nombre con caracteres de
control), y Ana conserva su nota.

Necesita root (crea usuarios del sistema: profe-prueba, ana-prueba, carla-prueba y dora-prueba; los
borra al acabar), npm y Chromium. El entorno del hub se guarda entre ejecuciones en
$TMPDIR/curso-harness-hub-pruebas (la primera vez tarda unos minutos).
Solo esta prueba: `.venv/bin/python -m pytest tests/test_hub.py -v`.
"""

import ast
import contextlib
import csv
import datetime
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import pytest

import cuentas
import ingles
import navegador as nv
from course import CUADERNO, RAIZ, TAREA, gradebook, hub as curso_hub
from course.corregir import EJEMPLOS
from course.entregas import leer_ejemplo, rellenar

PROFESORA = "profe-prueba"
ANA, CARLA = "ana-prueba", "carla-prueba"   # con las respuestas de course/ejemplos/ana.toml y carla.toml
DORA = "dora-prueba"                        # del roster, no entra en el navegador: intenta entregar por Ana
USUARIOS = (PROFESORA, ANA, CARLA, DORA)
ROSTER = [(ANA, "Ana", "Prueba Uno"), (CARLA, "Carla", "Prueba Dos"), (DORA, "Dora", "Prueba Tres")]
DESTINO = cuentas.DESTINO
RUTA = f"{TAREA}/{CUADERNO}"
ESPERA_ORDEN = 600    # una orden de la profesora en su terminal (make grade corrige las dos entregas)
# El recorrido entero, con el entorno del hub si hay que rehacerlo (unos minutos): pasado esto, pytest-timeout
# para la prueba, que falla en vez de colgarse.
pytestmark = pytest.mark.timeout(2700)
# Un nombre propio, que sale tal cual en español (el título de las páginas del hub).
NOMBRES_PROPIOS = {"JupyterHub"}


# =========================================================================== el hub

@pytest.fixture(scope="module")
def hub(chromium, procesos):
    if os.geteuid() != 0:
        nv.saltar_o_fallar("El JupyterHub del curso necesita root (crea usuarios del sistema) / needs root.")
    if not shutil.which("npm"):
        nv.saltar_o_fallar("Falta npm, para configurable-http-proxy: apt-get install npm / npm is missing.")
    with cuentas.cerrojo():
        # Lo de una ejecución anterior, fuera; el entorno y el proxy se guardan (tardan en hacerse).
        cuentas.borrar(*USUARIOS)
        for resto in ("casas", "intercambio", "estado", "config-estudiante", "programa"):
            shutil.rmtree(DESTINO / resto, ignore_errors=True)
        (DESTINO / "casas").mkdir()
        (DESTINO / "casas").chmod(0o755)
        roster = DESTINO / "roster.csv"
        # Como lo guarda una hoja de cálculo en español: con la marca BOM y con «;».
        roster.write_text("id;first_name;last_name;email\n" + "".join(f"{i};{n};{a};\n" for i, n, a in ROSTER),
                          encoding="utf-8-sig")
        dicho = io.StringIO()
        try:
            # Un `pip install .` (no editable) del curso en el entorno de todos, como lo haría un administrador: make
            # hub lo tiene que desinstalar (si no, cualquier estudiante leería las pruebas ocultas en site-packages).
            _instalar_el_curso_sin_editable(curso_hub.Hub(DESTINO))
            with contextlib.redirect_stdout(dicho):
                curso_hub.main(["--destino", str(DESTINO), "--profesor", PROFESORA, "--roster", str(roster),
                                "--casas", str(DESTINO / "casas"), "--solo-preparar"])
            preparado = curso_hub.Hub(DESTINO)
            claves = dict(l.split(" ", 1) for l in (preparado.estado / "claves.txt").read_text().splitlines())
            puerto = nv.puerto_libre()
            proceso = curso_hub.arrancar(preparado, puerto)
        except SystemExit as fallo:
            cuentas.borrar(*USUARIOS)
            pytest.fail(f"make hub no ha podido preparar o arrancar el hub: {fallo}\n{dicho.getvalue()}")
        try:
            yield {"hub": preparado, "url": f"http://127.0.0.1:{puerto}", "claves": claves, "dicho": dicho.getvalue(),
                   "casas": {n: DESTINO / "casas" / n for n in USUARIOS}, "proceso": proceso}
        finally:
            curso_hub.parar(proceso)
            cuentas.borrar(*USUARIOS)


def _instalar_el_curso_sin_editable(hub):
    curso_hub.preparar_entorno(hub)
    with tempfile.TemporaryDirectory() as tmp:
        fuente, ruedas = Path(tmp) / "fuente", Path(tmp) / "ruedas"
        fuente.mkdir()
        for nombre in ("pyproject.toml", "README.md"):
            shutil.copy(RAIZ / nombre, fuente)
        for nombre in ("course", "harness"):
            shutil.copytree(RAIZ / nombre, fuente / nombre, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w",
                        ruedas, fuente], check=True, capture_output=True, cwd=fuente)
        subprocess.run([hub.python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", *ruedas.glob("*.whl")],
                       check=True, capture_output=True)
    instalado = subprocess.run([hub.python, "-I", "-c", "import course.calificacion as c; print(c.__file__)"],
                               capture_output=True, text=True, cwd="/")
    assert str(hub.entorno) in instalado.stdout, instalado.stdout + instalado.stderr


# =========================================================================== gestos

class Recorrido:
    """Lo que pasa y lo que se ve: las páginas abiertas y el texto de cada cosa vista."""

    def __init__(self, navegador, hub):
        self.navegador, self.hub = navegador, hub
        self.paginas = {}
        self.vistos = []       # (quién, dónde, texto)
        self.validaciones = {}
        self.consola = []
        self.tareas_al_final = {}     # el texto de «Tareas» de cada estudiante con su retroalimentación
        self.retroalimentaciones = {}  # (dirección, texto) de la página que abre «ver la retroalimentación»
        self.idiomas = {}             # el lang de cada página del hub vista

    def ver(self, quien, donde, texto):
        self.vistos.append((quien, donde, texto))

    def entrar(self, usuario):
        contexto = self.navegador.new_context(viewport={"width": 1400, "height": 1000}, locale="es-ES")
        pagina = contexto.new_page()
        pagina.set_default_timeout(nv.ESPERA_UI * 1000)
        pagina.on("console", lambda m: self.consola.append(f"[{usuario}] [{m.type}] {m.text}"))
        self.paginas[usuario] = pagina
        pagina.goto(f"{self.hub['url']}/hub/login")
        pagina.wait_for_selector("#login_submit")
        self.ver(usuario, "la página de entrada", pagina.locator("body").inner_text())
        pagina.fill("#username_input", usuario)
        pagina.fill("#password_input", self.hub["claves"][usuario])
        pagina.click("#login_submit")
        try:  # la página de espera sale mientras arranca su servidor (si no está listo antes)
            pagina.wait_for_url("**/spawn-pending/**", timeout=10_000)
            self.ver(usuario, "la espera del servidor", pagina.locator("body").inner_text())
        except Exception:
            pass
        pagina.wait_for_selector("#jp-main-dock-panel", timeout=curso_hub.ARRANQUE * 1000)
        # El menú «Curso» sale cuando la extensión sabe qué hay en el servidor.
        pagina.locator("#jp-menu-panel .lm-MenuBar-itemLabel", has_text="Curso").wait_for()
        self.ver(usuario, "JupyterLab", pagina.locator("body").inner_text())
        return pagina

    def menu_curso(self, usuario):
        """Las etiquetas del menú «Curso» de `usuario`."""
        pagina = self.paginas[usuario]
        curso = pagina.locator("#jp-menu-panel .lm-MenuBar-item", has_text="Curso")
        curso.click()
        etiquetas = [e for e in pagina.locator(".lm-Menu:visible .lm-Menu-item:visible .lm-Menu-itemLabel").all_inner_texts() if e]
        curso.click()  # se cierra como se ha abierto (con Escape la barra de menús se queda activa)
        self.ver(usuario, "el menú Curso", "\n".join(etiquetas))
        return etiquetas

    def en_la_terminal(self, orden, n):
        """Escribe `orden` en la terminal de la profesora (en su copia del curso) y espera a que acabe;
        devuelve su salida.

        Lo que sale en la terminal se dibuja en un canvas: la orden deja su salida y su código de
        salida en ficheros de la casa de la profesora, que la prueba lee como root.
        """
        pagina = self.paginas[PROFESORA]
        casa = self.hub["casas"][PROFESORA]
        salida, fin = casa / f".orden-{n}.txt", casa / f".orden-{n}.fin"
        pagina.locator(".jp-Terminal:visible").click()
        pagina.keyboard.type(f"(cd ~/{curso_hub.COPIA} && {orden}) 2>&1 | tee ~/{salida.name}; "
                             f"echo ${{PIPESTATUS[0]}} > ~/{fin.name}\n")
        limite = time.monotonic() + ESPERA_ORDEN
        while not (fin.exists() and fin.read_text().strip()):
            assert time.monotonic() < limite, f"«{orden}» no ha acabado en {ESPERA_ORDEN} s"
            time.sleep(1)
        texto = salida.read_text(errors="replace")
        assert fin.read_text().strip() == "0", f"«{orden}» ha fallado:\n{texto[-5000:]}"
        return texto

    def tareas(self, usuario):
        """Abre (o trae delante) la pestaña «Tareas» de `usuario` y la devuelve."""
        pagina = self.paginas[usuario]
        pestana = pagina.locator(".lm-TabBar-tab[data-id='curso-harness-tareas-pestana']")
        if pestana.count():
            pestana.click()
        else:
            nv.ejecutar_orden_del_menu(pagina, "curso-harness:tareas")
        return pagina.locator(".curso-tareas:visible")

    def hacer_la_tarea(self, usuario, ejemplo, desde_tareas):
        """Descarga, contesta con las respuestas de `ejemplo`, valida y entrega. Con `desde_tareas`, valida desde
        «Tareas» antes de contestar (el código de partida no pasa) y vuelve al cuaderno para contestar."""
        pagina = self.paginas[usuario]
        tareas = self.tareas(usuario)
        publicada = tareas.locator(f".curso-seccion[data-estado='released'] .curso-tarea[data-tarea='{TAREA}']")
        publicada.wait_for()
        self.ver(usuario, "Tareas, antes de descargar", tareas.inner_text())
        publicada.locator(".curso-descargar").click()
        descargada = tareas.locator(f".curso-seccion[data-estado='fetched'] .curso-tarea[data-tarea='{TAREA}']")
        descargada.wait_for()
        self.ver(usuario, "Tareas, con la tarea descargada", tareas.inner_text())
        if desde_tareas:
            self.validar(usuario, ".curso-tareas:visible .curso-seccion[data-estado='fetched'] .curso-validar")
            tareas = self.tareas(usuario)
        tareas.locator(f".curso-seccion[data-estado='fetched'] .curso-tarea[data-tarea='{TAREA}'] .curso-abrir").click()
        nv.esperar_cuaderno(pagina)
        casa = self.hub["casas"][usuario]
        celdas = nv.celdas_por_grade_id(casa / RUTA)
        respuestas = {g: r for g, r in leer_ejemplo(EJEMPLOS / ejemplo)["respuestas"].items() if g in celdas}
        nv.contestar(pagina, casa, RUTA, respuestas)
        barra = pagina.locator(f"{nv.CUADERNO} .jp-NotebookPanel-toolbar")
        ayudas = barra.locator("[title]").evaluate_all("els => els.map(e => e.title.replace(/ \\(.*\\)$/, ''))")
        self.ver(usuario, "la barra del cuaderno", "\n".join([barra.inner_text(), *ayudas]))
        if not desde_tareas:
            self.validar(usuario, nv.VALIDAR)
        tareas = self.tareas(usuario)
        tareas.locator(f".curso-seccion[data-estado='fetched'] .curso-tarea[data-tarea='{TAREA}'] .curso-entregar").click()
        tareas.locator(f".curso-seccion[data-estado='submitted'] .curso-tarea[data-tarea='{TAREA}']").wait_for()
        self.ver(usuario, "Tareas, con la tarea entregada", tareas.inner_text())

    def validar(self, usuario, boton):
        self.validaciones[usuario] = nv.validar(self.paginas[usuario], boton)
        self.ver(usuario, "la ventana de Validar", self.validaciones[usuario][2])

    def retroalimentacion(self, usuario):
        """Descarga la retroalimentación en «Tareas» y pulsa «ver la retroalimentación»."""
        tareas = self.tareas(usuario)
        tareas.locator(".curso-actualizar").click()
        boton = tareas.locator(".curso-descargar-retroalimentacion")
        boton.wait_for()
        self.ver(usuario, "Tareas, con retroalimentación para descargar", tareas.inner_text())
        boton.click()
        enlace = tareas.locator(".curso-ver-retroalimentacion")
        enlace.wait_for()
        self.ver(usuario, "Tareas, con la retroalimentación descargada", tareas.inner_text())
        self.tareas_al_final[usuario] = tareas.inner_text()
        # «ver la retroalimentación» abre la página del cuaderno, tal cual, en otra pestaña del navegador.
        with self.paginas[usuario].context.expect_page() as nueva:
            enlace.first.click()
        pagina = nueva.value
        pagina.wait_for_load_state()
        self.retroalimentaciones[usuario] = (pagina.url, pagina.locator("body").inner_text())
        self.ver(usuario, "la retroalimentación", self.retroalimentaciones[usuario][1])
        pagina.close()

    def pagina_del_hub(self, usuario, ruta, donde, listo="body"):
        """Abre `ruta` del hub en otra pestaña de `usuario`; devuelve la página (con su idioma y su texto vistos)."""
        pagina = self.paginas[usuario].context.new_page()
        pagina.goto(f"{self.hub['url']}{ruta}")
        pagina.locator(listo).first.wait_for()
        self.idiomas[f"{usuario}, {donde}"] = pagina.evaluate("document.documentElement.lang")
        self.ver(usuario, donde, pagina.locator("body").inner_text())
        return pagina

    def guardar_artefactos(self, nombre):
        for usuario, pagina in self.paginas.items():
            consola = [l for l in self.consola if l.startswith(f"[{usuario}]")]
            print("artefactos:", *nv.guardar_artefactos(f"{nombre}-{usuario}", pagina, consola), sep="\n  ")
        registro = self.hub["hub"].registro
        if registro.exists():
            shutil.copy(registro, nv.ARTEFACTOS / f"{nombre}-jupyterhub.log")


@pytest.fixture(scope="module")
def recorrido(hub, navegador):
    """El recorrido entero (ver el principio del módulo), una vez, con un solo navegador."""
    r = Recorrido(navegador, hub)
    try:
        # 1. La profesora publica la tarea desde una terminal de su JupyterLab.
        profesora = r.entrar(PROFESORA)
        r.menu_profesora = r.menu_curso(PROFESORA)
        r.noticias = profesora.locator(".jp-Notification-Toast-info, .Toastify__toast").count()
        nv.ejecutar_orden_del_menu(profesora, "terminal:create-new")
        profesora.wait_for_selector(".jp-Terminal:visible .xterm-screen")
        r.en_la_terminal(f"nbgrader release_assignment {TAREA}", 1)

        # 2. Ana entrega a tiempo; se cierra el plazo; Carla entrega tarde.
        r.entrar(ANA)
        r.menu_ana = r.menu_curso(ANA)
        r.hacer_la_tarea(ANA, "ana.toml", desde_tareas=False)
        # El plazo, en segundos enteros y ya pasado para Carla: después de la entrega de Ana.
        plazo = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=1)
                 ).strftime("%Y-%m-%d %H:%M:%S UTC")
        r.en_la_terminal(f'nbgrader db assignment add {TAREA} --duedate="{plazo}"', 2)
        r.entrar(CARLA)
        r.hacer_la_tarea(CARLA, "carla.toml", desde_tareas=True)
        # Dora, desde su cuenta: una entrega hostil de cada clase (_trampas_de_dora).
        r.trampas, r.intentos = _trampas_de_dora(hub)

        # 3. Recoger, corregir en la jaula y publicar la retroalimentación, con su usuario (no es root).
        r.quien_corrige = r.en_la_terminal("id -un; id -u", 4).split()
        r.correccion = r.en_la_terminal(
            f"nbgrader collect {TAREA} && make grade && nbgrader release_feedback {TAREA}", 3)

        # 4. Cada estudiante descarga la suya.
        for estudiante in (ANA, CARLA):
            r.retroalimentacion(estudiante)

        # El formgrader de la profesora, en otra pestaña del navegador (en un iframe, no: JupyterHub no deja).
        with profesora.context.expect_page() as nueva:
            nv.ejecutar_orden_del_menu(profesora, "curso-harness:formgrader")
        r.formgrader = nueva.value
        r.formgrader.wait_for_load_state()
        r.formgrader.locator("body", has_text=TAREA).wait_for()
        r.formgrader_estudiantes = r.paginas[ANA].request.get(
            f"{hub['url']}/user/{ANA}/formgrader/api/status").status
        r.roster_en_el_formgrader = r.formgrader.request.get(
            f"{hub['url']}/user/{PROFESORA}/formgrader/api/students").json()

        # Las páginas del hub: las de la profesora (que lo administra) y parar el servidor desde el inicio.
        admin = r.pagina_del_hub(PROFESORA, "/hub/admin", "la administración del hub", "#usuarios tr[data-usuario]")
        r.usuarios_en_admin = admin.locator("#usuarios tbody").inner_text()
        r.servicios = admin.evaluate("pedirAlHub('services')")
        r.usuarios_de_la_api = admin.evaluate("pedirAlHub('users')")
        admin.close()
        r.pagina_del_hub(PROFESORA, "/hub/token", "las claves de la API", "#pedir-clave").close()
        r.pagina_del_hub(PROFESORA, "/hub/no-existe", "una página que no existe").close()
        inicio = r.pagina_del_hub(ANA, "/hub/home", "el inicio del hub", "#stop")
        inicio.click("#stop")
        inicio.locator("#start", has_text="Arrancar mi servidor").wait_for(timeout=curso_hub.PARADA * 1000)
        r.ver(ANA, "el inicio del hub, con el servidor parado", inicio.locator("body").inner_text())
        inicio.close()
    except BaseException:
        r.guardar_artefactos("test_hub")
        raise
    yield r


# Lo que Dora intenta con el intercambio y con lo de la profesora, desde su cuenta y su Python: cada intento dice
# «hecho» o «no» (lo que diga el sistema), y la prueba exige «no» en todos.
_INTENTOS_DE_DORA = r"""
import json, os, sys
d = json.load(sys.stdin)
curso, raiz = d["curso"], d["raiz"]
intentos = {
    "renombrar la carpeta del curso": lambda: os.rename(curso, os.path.join(raiz, "otro")),
    "borrar la carpeta del curso": lambda: os.rmdir(curso),
    "poner otra carpeta del curso": lambda: os.mkdir(os.path.join(curso, "inbound-nuevo")),
    "renombrar inbound": lambda: os.rename(os.path.join(curso, "inbound"), os.path.join(curso, "viejo")),
    "ver las entregas de los demás": lambda: os.listdir(os.path.join(curso, "inbound")),
    "cambiar los plazos": lambda: open(os.path.join(curso, "plazos.json"), "a").close(),
    "cambiar la tarea publicada": lambda: open(os.path.join(curso, "outbound", d["tarea"], d["cuaderno"]), "a").close(),
}
for ruta in d["de_la_profesora"]:
    intentos["leer " + ruta] = lambda ruta=ruta: open(ruta, "rb").read(1)
    intentos["listar " + os.path.dirname(ruta)] = lambda ruta=ruta: os.listdir(os.path.dirname(ruta))
resultado = {}
for que, hacer in intentos.items():
    try:
        hacer()
        resultado[que] = "hecho"
    except OSError as error:
        resultado[que] = "no: " + type(error).__name__
print(json.dumps(resultado))
"""


# Lo que Dora añade a su respuesta: se ejecuta al corregir, en la jaula, y dice qué ha podido leer.
RESPUESTA_CON_SONDA = "ejecutar"
_DESDE_LA_JAULA = """for ruta in %r:
    try:
        with open(ruta, "rb") as f:
            print("LEÍDO", ruta, f.read(20))
    except OSError as error:
        print("sin leer", ruta, type(error).__name__)
"""


def _de_la_profesora(hub):
    """Lo que ningún estudiante debe leer: el cuaderno fuente, el gradebook y la clave de la copia de la profesora, las
    contraseñas del hub y el trabajo de Ana."""
    copia = hub["casas"][PROFESORA] / curso_hub.COPIA
    return [copia / "source" / TAREA / CUADERNO, copia / "gradebook.db", copia / "course" / "cuestionario.py",
            hub["hub"].estado / "claves.txt", hub["casas"][ANA] / RUTA]


def _trampas_de_dora(hub):
    """Lo que hace Dora desde su cuenta antes de que la profesora recoja, una entrega hostil de cada clase:

    - entrega a nombre de Ana con la orden de nbgrader (un cuaderno sin contestar);
    - entrega lo suyo (las respuestas de ana.toml) ya cerrado el plazo, y después cambia el nombre de su carpeta,
      su timestamp.txt y las fechas de sus ficheros al año 2000;
    - deja una carpeta que es un enlace a las soluciones de la profesora, otra que es un enlace a sí misma (un
      bucle), una suya con un bucle en lugar del cuaderno, otra a nombre de alguien que no está en el roster y
      otra a nombre de Ana con caracteres de control (que, escritos tal cual en la terminal, la borrarían);
    - intenta renombrar o cambiar la carpeta del curso en el intercambio y leer lo de la profesora.

    Devuelve los nombres de las carpetas y el resultado de cada intento."""
    entorno = hub["hub"].entorno
    for orden in (["nbgrader", "fetch_assignment", TAREA], ["nbgrader", "submit", TAREA, f"--student={ANA}"]):
        hecho = cuentas.como(DORA, orden, entorno)
        assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    # Lo suyo, contestado, fuera de plazo (la profesora ya lo ha cerrado); al final de su respuesta, un trozo que, al
    # corregir (en la jaula, con el usuario de la profesora), intenta leer lo de la profesora y de Ana.
    suyo = hub["casas"][DORA] / RUTA
    respuestas = {g: r for g, r in leer_ejemplo(EJEMPLOS / "ana.toml")["respuestas"].items()
                  if g in nv.celdas_por_grade_id(suyo)}
    respuestas[RESPUESTA_CON_SONDA] += "\n\n" + _DESDE_LA_JAULA % [str(r) for r in _de_la_profesora(hub)]
    contestado = nbformat.writes(rellenar(nbformat.read(suyo, as_version=4), respuestas))
    hecho = cuentas.como(DORA, ["python", "-c", f"import sys; open({str(suyo)!r}, 'w', encoding='utf-8').write("
                                                "sys.stdin.read())"], entorno, entrada=contestado)
    assert hecho.returncode == 0, hecho.stderr
    hecho = cuentas.como(DORA, ["nbgrader", "submit", TAREA], entorno)
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    # nbgrader submit dice dónde ha dejado la entrega (inbound/ no se puede listar: solo así sabe su nombre).
    entregada, = re.findall(r"Destination: (\S.*\+\S+)$", hecho.stdout + hecho.stderr, re.M)
    inbound = hub["hub"].intercambio / curso_hub.CURSO / "inbound"
    fuente = hub["casas"][PROFESORA] / curso_hub.COPIA / "source" / TAREA
    viejo = "2000-01-01 00:00:00.000000 UTC"
    nombres = {
        "enlace": f"{DORA}+{TAREA}+{viejo}+enlace",
        "bucle": f"{DORA}+{TAREA}+{viejo}+bucle",
        "bucle dentro": f"{DORA}+{TAREA}+{viejo}+bucle-dentro",
        "fuera del roster": f"intruso-prueba+{TAREA}+{viejo}+intruso",
        "control": f"{ANA}\x1b[2J\x1b[H+{TAREA}+{viejo}+control",
        "adelantada": f"{DORA}+{TAREA}+{viejo}+{entregada.rsplit('+', 1)[1]}",
    }
    hecho = cuentas.como(DORA, ["python", "-c", (
        "import os, shutil\n"
        f"inbound, n, viejo = {str(inbound)!r}, {nombres!r}, {viejo!r}\n"
        f"os.symlink({str(fuente)!r}, os.path.join(inbound, n['enlace']))\n"
        "os.symlink(os.path.join(inbound, n['bucle']), os.path.join(inbound, n['bucle']))\n"
        "os.mkdir(os.path.join(inbound, n['bucle dentro']))\n"
        f"os.symlink({CUADERNO!r}, os.path.join(inbound, n['bucle dentro'], {CUADERNO!r}))\n"
        "for quien in ('fuera del roster', 'control'):\n"
        "    os.mkdir(os.path.join(inbound, n[quien]))\n"
        f"    shutil.copy({str(suyo)!r}, os.path.join(inbound, n[quien]))\n"
        # Su entrega tardía, con la fecha del año 2000 en el nombre, en timestamp.txt y en sus ficheros (la última
        # que cambia, un tic del reloj del sistema de ficheros después: es la que cuenta de las suyas).
        "import time; time.sleep(0.1)\n"
        "adelantada = os.path.join(inbound, n['adelantada'])\n"
        f"os.rename({entregada!r}, adelantada)\n"
        "with open(os.path.join(adelantada, 'timestamp.txt'), 'w') as f:\n"
        "    f.write(viejo)\n"
        "for nombre in os.listdir(adelantada) + ['.']:\n"
        "    os.utime(os.path.join(adelantada, nombre), (946684800, 946684800))\n")], entorno)
    assert hecho.returncode == 0, hecho.stderr
    datos = json.dumps({"curso": str(inbound.parent), "raiz": str(inbound.parent.parent), "tarea": TAREA,
                        "cuaderno": CUADERNO, "de_la_profesora": [str(r) for r in _de_la_profesora(hub)]})
    hecho = cuentas.como(DORA, ["python", "-c", _INTENTOS_DE_DORA], entorno, entrada=datos)
    assert hecho.returncode == 0, hecho.stderr
    return nombres, json.loads(hecho.stdout)


# =========================================================================== las pruebas

def test_la_profesora_publica_y_tiene_su_menu_en_espanol(recorrido, hub):
    assert recorrido.menu_profesora == ["Tareas", "Corregir y poner notas (formgrader)",
                                        "Crear una tarea (barra lateral de nbgrader)"], recorrido.menu_profesora
    assert recorrido.noticias == 0, "no debe salir la ventana de noticias"
    publicada = hub["hub"].intercambio / curso_hub.CURSO / "outbound" / TAREA / CUADERNO
    assert publicada.exists()


def test_los_estudiantes_no_tienen_lo_del_profesor(recorrido):
    assert recorrido.menu_ana == ["Tareas"], recorrido.menu_ana
    assert recorrido.formgrader_estudiantes == 404


def test_validar_dice_en_espanol_si_pasa_o_no(recorrido):
    bien, clases, texto = recorrido.validaciones[ANA]
    assert bien and "validation-success" in clases.split(), texto
    assert "pasa todas las pruebas que puedes ver" in texto
    bien, clases, texto = recorrido.validaciones[CARLA]
    assert not bien and "validation-failed" in clases.split(), texto
    assert "no pasa" in texto


def _notas(hub):
    from nbgrader.api import Gradebook

    copia = hub["casas"][PROFESORA] / curso_hub.COPIA
    with Gradebook(gradebook(copia)) as gb:
        return {e: (s.score, s.late_submission_penalty) for e in (ANA, CARLA, DORA)
                for s in [gb.find_submission(TAREA, e)]}


def test_make_grade_corrige_lo_recogido_con_el_descuento_por_retraso(recorrido, hub):
    # Corrige la profesora, sin ser root: la jaula sin privilegios (espacio de usuarios) da a Ana su nota entera.
    assert recorrido.quien_corrige[0] == PROFESORA and recorrido.quien_corrige[1] != "0", recorrido.quien_corrige
    notas = _notas(hub)
    assert notas[ANA] == (leer_ejemplo(EJEMPLOS / "ana.toml")["nota_formativo"], 0), (notas, recorrido.correccion[-6000:])
    carla = leer_ejemplo(EJEMPLOS / "carla.toml")["nota_formativo"]
    assert notas[CARLA] == (carla, 1), f"Carla entrega tarde: un punto de descuento ({notas})"
    # En las notas que exporta make grade, la de Carla ya lleva el descuento.
    with open(hub["casas"][PROFESORA] / curso_hub.COPIA / "exports" / "notas.csv", encoding="utf-8") as f:
        filas = list(csv.DictReader(f))
    exportadas = {fila["student_id"]: float(fila["score"]) for fila in filas if fila["score"]}
    assert exportadas == {ANA: notas[ANA][0], CARLA: carla - 1, DORA: notas[DORA][0] - notas[DORA][1]}, exportadas
    # Nadie de fuera del roster tiene fila (las filas sin nota son las del roster que no han entregado: ninguna).
    assert {f["student_id"] for f in filas} == {ANA, CARLA, DORA}, filas
    assert ANA in recorrido.correccion and CARLA in recorrido.correccion, recorrido.correccion[-3000:]
    # Lo ha decidido el corrector de confianza (course/aislado), que deja sus diagnósticos en cada celda.
    corregido = hub["casas"][PROFESORA] / curso_hub.COPIA / "autograded" / CARLA / TAREA / CUADERNO
    celdas = nv.celdas_por_grade_id(corregido)
    assert any("curso" in c["metadata"] for g, c in celdas.items() if g.startswith("ejecutar-")), corregido


def test_cada_estudiante_recibe_su_retroalimentacion_y_solo_ve_lo_suyo(recorrido, hub):
    notas = _notas(hub)
    for estudiante in (ANA, CARLA):
        casa = hub["casas"][estudiante]
        html, = (casa / TAREA / "feedback").glob(f"*/{TAREA}.html")
        assert f"{notas[estudiante][0]:g}" in html.read_text(encoding="utf-8")
        entregadas = [t for quien, donde, t in recorrido.vistos
                      if quien == estudiante and donde == "Tareas, con la retroalimentación descargada"]
        assert entregadas and entregadas[-1].count("Entregada el") == 1, entregadas
        assert oct(casa.stat().st_mode & 0o777) == "0o700"
    # Carla no puede leer la casa de Ana ni las entregas del intercambio.
    for ajena in (hub["casas"][ANA], hub["hub"].intercambio / curso_hub.CURSO / "inbound"):
        hecho = subprocess.run(["su", "-s", "/bin/sh", CARLA, "-c", f"ls {ajena}"], capture_output=True, text=True)
        assert hecho.returncode != 0, f"{CARLA} puede ver {ajena}: {hecho.stdout}"


def test_nadie_ve_etiquetas_en_ingles(recorrido, hub):
    entorno = hub["hub"].entorno
    conocidas = (ingles.de_jupyterlab() | ingles.de_nbgrader(entorno) | ingles.de_jupyterhub(entorno)) - NOMBRES_PROPIOS
    vistas = {f"{quien}, {donde}": ingles.a_la_vista([texto], conocidas) for quien, donde, texto in recorrido.vistos}
    assert {donde for quien, donde, _ in recorrido.vistos} >= {
        "la página de entrada", "JupyterLab", "el menú Curso", "Tareas, con la tarea descargada",
        "la ventana de Validar", "Tareas, con la retroalimentación descargada"}
    assert not {k: v for k, v in vistas.items() if v}, {k: v for k, v in vistas.items() if v}


# =========================================================================== el intercambio y lo que ven los estudiantes

def test_lo_que_deja_dora_a_nombre_de_otros_se_aparta_y_ana_conserva_su_nota(recorrido):
    salida, trampas = recorrido.correccion, recorrido.trampas
    assert f"dice ser de «{ANA}», pero la ha creado «{DORA}»" in salida, salida[-3000:]
    for enlace in ("enlace", "bucle"):
        assert f"«{trampas[enlace]}»: es un enlace simbólico, no una carpeta" in salida, salida[-3000:]
    assert f"«{trampas['fuera del roster']}»: «intruso-prueba» no está en el roster" in salida, salida[-3000:]
    escapado = trampas["control"].replace("\x1b", "\\x1b")
    assert f"«{escapado}»: «{ANA}\\x1b[2J\\x1b[H» no está en el roster" in salida, salida[-3000:]
    apartadas = [l for l in salida.splitlines() if "Entrega apartada" in l]
    assert len(apartadas) == 5 and not any("\x1b" in l for l in apartadas), apartadas
    # Las notas de Ana y Carla son las suyas (test_make_grade_corrige_lo_recogido_con_el_descuento_por_retraso).


def test_dora_entrega_tarde_aunque_cambie_el_nombre_y_las_fechas(recorrido, hub):
    """Su entrega llegó cerrado el plazo; el nombre de su carpeta, su timestamp.txt y las fechas de sus ficheros dicen
    el año 2000, y aun así cuenta como tarde, con la hora en que la hizo. (Su nota es la que el corrector da a su
    respuesta, que además intenta leer ficheros: solo su fila.)"""
    from nbgrader.api import Gradebook

    copia = hub["casas"][PROFESORA] / curso_hub.COPIA
    hora = (copia / "submitted" / DORA / TAREA / "timestamp.txt").read_text()
    assert not hora.startswith("2000"), hora
    with Gradebook(gradebook(copia)) as gb:
        entrega = gb.find_submission(TAREA, DORA)
        assert entrega.timestamp > datetime.datetime(2001, 1, 1) and entrega.total_seconds_late > 0, (
            entrega.timestamp, entrega.total_seconds_late)


def test_dora_no_cambia_el_intercambio_ni_lee_lo_de_la_profesora(recorrido, hub):
    intentos = recorrido.intentos
    assert len(intentos) >= 13, intentos
    hechos = {que: r for que, r in intentos.items() if not r.startswith("no: ")}
    assert not hechos, f"{DORA} ha podido: {hechos}"
    # Tampoco su cuaderno al corregirse, en la jaula de la profesora (que no es root: un espacio de usuarios).
    corregido = nbformat.read(hub["casas"][PROFESORA] / curso_hub.COPIA / "autograded" / DORA / TAREA / CUADERNO,
                              as_version=4)
    celda, = [c for c in corregido.cells if c.metadata.get("nbgrader", {}).get("grade_id") == RESPUESTA_CON_SONDA]
    salida = "".join(o.get("text", "") for o in celda.get("outputs", []))
    lineas = [l for l in salida.splitlines() if "leer" in l or "LEÍDO" in l]
    assert len(lineas) == len(_de_la_profesora(hub)) and all(l.startswith("sin leer ") for l in lineas), celda


def test_tareas_ensena_el_plazo_y_si_cada_entrega_llego_tarde(recorrido):
    for estudiante, cuando in ((ANA, "dentro de plazo"), (CARLA, "fuera de plazo")):
        texto = recorrido.tareas_al_final[estudiante]
        assert "plazo:" in texto and cuando in texto, texto


def test_ver_la_retroalimentacion_abre_su_pagina(recorrido, hub):
    notas = _notas(hub)
    for estudiante in (ANA, CARLA):
        direccion, texto = recorrido.retroalimentaciones[estudiante]
        assert direccion.endswith(f"/{TAREA}.html") and f"/user/{estudiante}/files/" in direccion, direccion
        assert f"{notas[estudiante][0]:g}" in texto, texto[:2000]


def test_el_formgrader_tiene_los_nombres_del_roster(recorrido):
    nombres = {e["id"]: (e["first_name"], e["last_name"]) for e in recorrido.roster_en_el_formgrader}
    assert nombres == {i: (n, a) for i, n, a in ROSTER}, nombres


def test_la_profesora_administra_el_hub_que_para_los_servidores_inactivos(recorrido):
    admins = {u["name"] for u in recorrido.usuarios_de_la_api if u["admin"]}
    assert admins == {PROFESORA}, admins
    for usuario in USUARIOS:
        assert usuario in recorrido.usuarios_en_admin, recorrido.usuarios_en_admin
    inactivos, = [s for s in recorrido.servicios.values() if s["name"] == "inactivos"]
    assert "jupyterhub_idle_culler" in " ".join(inactivos["command"]), inactivos
    assert inactivos["pid"] and os.path.exists(f"/proc/{inactivos['pid']}"), inactivos  # en marcha
    with open(f"/proc/{inactivos['pid']}/cmdline", "rb") as f:
        assert b"jupyterhub_idle_culler" in f.read()


def test_las_paginas_del_hub_son_espanolas(recorrido):
    assert recorrido.idiomas and set(recorrido.idiomas.values()) == {"es"}, recorrido.idiomas
    vistas = {donde for _, donde, _ in recorrido.vistos}
    assert {"la administración del hub", "las claves de la API", "una página que no existe",
            "el inicio del hub, con el servidor parado", "la retroalimentación"} <= vistas, vistas


def test_las_plantillas_del_hub_son_todas_del_curso(hub):
    """Cada página de JupyterHub tiene su plantilla en español en course/hub/plantillas/."""
    de_jupyterhub = {p.name for p in (hub["hub"].entorno / "share" / "jupyterhub" / "templates").glob("*.html")}
    nuestras = {p.name for p in curso_hub.PLANTILLAS.glob("*.html")}
    assert de_jupyterhub <= nuestras, de_jupyterhub - nuestras
    for plantilla in curso_hub.PLANTILLAS.glob("*.html"):
        assert 'lang="en"' not in plantilla.read_text(encoding="utf-8"), plantilla


def test_las_contrasenas_solo_estan_en_claves_txt(hub):
    claves = hub["hub"].estado / "claves.txt"
    assert oct(claves.stat().st_mode & 0o777) == "0o600"
    assert set(hub["claves"]) == set(USUARIOS), sorted(hub["claves"])
    dicho = hub["dicho"]
    assert "claves.txt" in dicho and not any(c in dicho for c in hub["claves"].values()), dicho
    registro = hub["hub"].registro.read_text(errors="replace")
    assert registro and not any(c in registro for c in hub["claves"].values())


def test_un_estudiante_no_puede_leer_ni_importar_nada_de_la_correccion(recorrido, hub):
    """Lo que lee el hub o el servidor de un estudiante al correr no tiene pruebas ocultas, soluciones, la clave
    del cuestionario ni la corrección: lo comprueba Ana, con su usuario, en todo lo que puede leer del hub."""
    entorno = hub["hub"].entorno
    fuente = RAIZ / "source" / TAREA / CUADERNO
    # 0. El `pip install .` sin editable que había en el entorno de todos se ha desinstalado, y lo ha dicho; ningún
    #    Python que pueda ejecutar Ana importa `course` ni tiene curso-harness instalado.
    assert "se desinstala" in hub["dicho"], hub["dicho"]
    assert curso_hub.el_curso_a_la_vista(hub["hub"], ANA) == []
    # 1. Ni la copia del curso del administrador ni `course`, desde su terminal.
    for orden in (["cat", fuente], ["cat", RAIZ / "course" / "cuestionario.py"],
                  ["python", "-c", "import course"],
                  ["python", "-c", f"import sys; sys.path.insert(0, {str(RAIZ)!r}); import course.calificacion"]):
        hecho = cuentas.como(ANA, orden, entorno)
        assert hecho.returncode != 0, f"{ANA} puede: {orden}\n{hecho.stdout[:500]}"
    # 2. Ningún fichero que pueda leer (del hub, de su Python, de la casa de la profesora, de la copia del
    #    administrador) tiene un trozo de las pruebas ocultas, de las soluciones, de la clave o de la corrección.
    marcas = _marcas_de_lo_que_no_es_suyo()
    hecho = cuentas.como(ANA, ["python", "-c", "import json, sys; print(json.dumps(sys.path))"], entorno)
    caminos = [p for p in json.loads(hecho.stdout) if p and os.path.isdir(p)]
    donde = [DESTINO, RAIZ, hub["casas"][PROFESORA], *caminos]
    busca = cuentas.como(ANA, ["grep", "-rlsF", *(a for m in marcas for a in ("-e", m)), *donde], entorno)
    # Su retroalimentación enseña las pruebas ocultas: es lo que se quiere (docs/amenazas.md), y es solo suya.
    suya = f"{hub['casas'][ANA] / TAREA / 'feedback'}/"
    ajenas = [l for l in busca.stdout.splitlines() if not l.startswith(suya)]
    assert not ajenas, f"{ANA} puede leer lo que no es suyo en:\n" + "\n".join(ajenas[:30])
    # Y las marcas son de verdad: root las encuentra en la copia de la profesora.
    busca = subprocess.run(["grep", "-rlsF", *(a for m in marcas for a in ("-e", m)),
                            hub["casas"][PROFESORA] / curso_hub.COPIA], capture_output=True, text=True)
    encontradas = busca.stdout.splitlines()
    assert any(l.endswith(f"source/{TAREA}/{CUADERNO}") for l in encontradas), encontradas
    assert any(l.endswith("course/cuestionario.py") for l in encontradas), encontradas
    assert any(l.endswith("course/calificacion.py") for l in encontradas), encontradas


def _marcas_de_lo_que_no_es_suyo():
    """Líneas que solo están en las pruebas ocultas y las soluciones del cuaderno fuente, en la clave del
    cuestionario (course/cuestionario.py) y en la corrección (course/calificacion.py): no en release/ ni en harness/."""
    publico = (RAIZ / "release" / TAREA / CUADERNO).read_text(encoding="utf-8")
    publico += "".join(p.read_text(encoding="utf-8") for p in (RAIZ / "harness").rglob("*.py"))
    fuente = json.loads((RAIZ / "source" / TAREA / CUADERNO).read_text(encoding="utf-8"))
    privadas = ["".join(c["source"]) for c in fuente["cells"]
                if "### BEGIN HIDDEN TESTS" in "".join(c["source"]) or "### BEGIN SOLUTION" in "".join(c["source"])]
    privadas += [(RAIZ / "course" / n).read_text(encoding="utf-8") for n in ("cuestionario.py", "calificacion.py")]
    marcas = []
    for texto in privadas:
        lineas = [l.strip() for l in texto.splitlines()
                  if len(l.strip()) > 40 and "BEGIN" not in l and "END" not in l and l.strip() not in publico]
        marcas += lineas[:3]
    assert len(marcas) >= 6, marcas
    return marcas


def test_el_registro_del_hub_rota_por_tamano(procesos, tmp_path):
    registro = tmp_path / "hub.log"
    hecho = subprocess.run([sys.executable, curso_hub.REGISTRO, "--tamano", "2000", "--copias", "2", registro, "--",
                            sys.executable, "-c", "for i in range(1000): print('línea', i)"], capture_output=True)
    assert hecho.returncode == 0, hecho.stderr
    ficheros = sorted(p.name for p in tmp_path.iterdir())
    assert ficheros == ["hub.log", "hub.log.1", "hub.log.2"], ficheros
    assert all((tmp_path / f).stat().st_size <= 2000 for f in ficheros)
    assert registro.read_text(encoding="utf-8").splitlines()[-1] == "línea 999"


def test_la_unidad_de_systemd_es_valida(hub, procesos, tmp_path):
    if not shutil.which("systemd-analyze"):
        pytest.skip("sin systemd-analyze")
    unidad = tmp_path / curso_hub.SERVICIO
    unidad.write_text(curso_hub.unidad(hub["hub"], 8000, [8001, 8002]), encoding="utf-8")
    hecho = subprocess.run(["systemd-analyze", "verify", unidad], capture_output=True, text=True)
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    assert f"ExecStart={hub['hub'].python} " in unidad.read_text()


def test_el_roster_se_lee_como_lo_guarda_una_hoja_de_calculo(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("id;first_name;last_name\nana;Ana;García\n\nbruno;Bruno;López\n", encoding="utf-8-sig")
    assert [f["id"] for f in curso_hub.leer_roster(roster)] == ["ana", "bruno"]
    for malo, queja in (("id,first_name\nAna María,Ana\n", "línea 2: «Ana María» no sirve"),
                        ("id\nana\nana\n", "línea 3: «ana» está dos veces"),
                        ("nombre\nana\n", "no tiene la columna «id»"),
                        ("id\n", "no tiene ningún estudiante")):
        roster.write_text(malo, encoding="utf-8")
        with pytest.raises(SystemExit, match=re.escape(queja)):
            curso_hub.leer_roster(roster)


# =========================================================================== Zero to JupyterHub, en papel

# Las claves del chart de Zero to JupyterHub que usa el config.yaml de docs/hub.md, de su esquema
# (values.schema.yaml del chart; ni el chart ni su esquema están en PyPI ni en npm). Lo que no está aquí
# es una errata o una clave que el chart no conoce, y helm la rechazaría.
CHART = {
    "singleuser": {"image": {"name", "tag", "pullPolicy"}, "defaultUrl": None, "cmd": None,
                   "networkPolicy": {"egressAllowRules": {"privateIPs"}}, "extraFiles": None,
                   "lifecycleHooks": {"postStart"}, "profileList": None, "storage": None, "uid": None,
                   "fsGid": None, "extraEnv": None},
    "hub": {"config": None, "extraConfig": None, "loadRoles": None, "db": None, "extraEnv": None},
    "cull": {"enabled", "timeout", "every", "users", "adminUsers", "removeNamedServers", "maxAge", "concurrency"},
    "proxy": {"https": None, "service": None, "secretToken": None},
}
EXTRA_FILE = {"mountPath", "stringData", "data", "binaryData", "mode"}
GRUPOS = {"profesorado": f"formgrade-{curso_hub.CURSO}", "estudiantes": f"nbgrader-{curso_hub.CURSO}"}


def _config_yaml():
    import yaml

    texto = (RAIZ / "docs" / "hub.md").read_text(encoding="utf-8")
    bloque = re.search(r"<!-- config\.yaml de Zero to JupyterHub.*?-->\n```yaml\n(.*?)```", texto, re.S)
    assert bloque, "docs/hub.md no tiene el config.yaml de Zero to JupyterHub"
    return yaml.safe_load(bloque.group(1))


def _claves(valores, esquema, donde):
    assert isinstance(valores, dict), donde
    desconocidas = set(valores) - set(esquema)
    assert not desconocidas, f"{donde}: claves que el chart no tiene: {desconocidas}"
    if isinstance(esquema, dict):
        for clave, dentro in esquema.items():
            if dentro is not None and clave in valores:
                _claves(valores[clave], dentro, f"{donde}.{clave}")


def test_el_config_yaml_de_zero_to_jupyterhub_usa_las_claves_del_chart():
    from traitlets.config import Config

    config = _config_yaml()
    _claves(config, CHART, "config.yaml")
    usuario = config["singleuser"]
    for nombre, fichero in usuario["extraFiles"].items():
        assert set(fichero) <= EXTRA_FILE and "mountPath" in fichero, nombre
    # Ningún perfil que un estudiante pueda elegir: lo de cada uno va por su grupo (group_overrides).
    assert "profileList" not in usuario
    assert config["cull"]["enabled"] is True

    # La configuración global de nbgrader en cada pod: el intercambio es ngshare; el curso, el nuestro; la lista
    # de tareas, la de los plazos que instala make hub.
    global_ = usuario["extraFiles"]["nbgrader-global"]["stringData"]
    arbol = ast.parse(global_)
    llamadas = {n.func.id for n in ast.walk(arbol) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert "configureExchange" in llamadas, global_
    asignado = {ast.unparse(n.targets[0]): ast.literal_eval(n.value) for n in arbol.body
                if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)}
    assert asignado["c.CourseDirectory.course_id"] == curso_hub.CURSO
    assert asignado["c.ExchangeFactory.list"] == curso_hub.LISTA_CON_PLAZOS
    json.loads(usuario["extraFiles"]["idioma"]["stringData"])

    # Los papeles, el ngshare del hub y sus usuarios, ejecutando los trozos de Python del chart como lo hace el hub.
    c = Config()
    for nombre, codigo in config["hub"]["extraConfig"].items():
        exec(compile(codigo, nombre, "exec"), {"c": c})
    assert c.JupyterHub.load_groups[f"formgrade-{curso_hub.CURSO}"]["users"] == ["profesora"]
    servicio, = [s for s in c.JupyterHub.services.get_value([]) if s["name"] == "ngshare"]
    assert servicio["url"].startswith("http://") and servicio["api_token"]
    assert "profesora" in config["hub"]["config"]["Authenticator"]["admin_users"]

    # El gradebook, en Postgres (db_url de nbgrader), solo para el grupo del profesorado; los estudiantes, sin el
    # formgrader (test_el_config_yaml_da_a_cada_grupo_lo_suyo lo aplica con JupyterHub de verdad).
    por_grupo = {g: o["spawner_override"]["environment"] for o in c.KubeSpawner.group_overrides.values()
                 for g in o["groups"]}
    assert set(por_grupo) == set(GRUPOS.values()), por_grupo
    assert por_grupo[GRUPOS["profesorado"]]["NBGRADER_DB_URL"].startswith("postgresql://")
    assert por_grupo[GRUPOS["estudiantes"]]["JUPYTER_CONFIG_PATH"]
    assert not any("NBGRADER_DB_URL" in e for g, e in por_grupo.items() if g != GRUPOS["profesorado"]), por_grupo


# Con el JupyterHub del entorno del hub: el Spawner de verdad aplica los group_overrides del config.yaml a un
# profesor y a un estudiante, y dice el entorno de cada uno.
_APLICAR_GRUPOS = r"""
import asyncio, json, sys, types
from jupyterhub.spawner import Spawner
from traitlets.config import Config
c = Config()
for nombre, codigo in json.load(sys.stdin).items():
    exec(compile(codigo, nombre, "exec"), {"c": c})
c.Spawner.group_overrides = c.KubeSpawner.group_overrides
entornos = {}
for grupo in sys.argv[1:]:
    usuario = types.SimpleNamespace(name="alguien", groups=[types.SimpleNamespace(name=grupo)])
    spawner = Spawner(config=c, user=usuario)
    asyncio.run(spawner.apply_group_overrides())
    entornos[grupo] = dict(spawner.environment)
print(json.dumps(entornos))
"""


def test_el_config_yaml_da_a_cada_grupo_lo_suyo(hub):
    config = _config_yaml()
    hecho = subprocess.run([hub["hub"].python, "-c", _APLICAR_GRUPOS, *GRUPOS.values(), "otro-grupo"],
                           input=json.dumps(config["hub"]["extraConfig"]), capture_output=True, text=True)
    assert hecho.returncode == 0, hecho.stderr[-3000:]
    entornos = json.loads(hecho.stdout.splitlines()[-1])
    profesorado, estudiantes = entornos[GRUPOS["profesorado"]], entornos[GRUPOS["estudiantes"]]
    assert profesorado["NBGRADER_DB_URL"].startswith("postgresql://") and "JUPYTER_CONFIG_PATH" not in profesorado
    assert estudiantes["JUPYTER_CONFIG_PATH"] and "NBGRADER_DB_URL" not in estudiantes, estudiantes
    assert "NBGRADER_DB_URL" not in entornos["otro-grupo"], entornos
