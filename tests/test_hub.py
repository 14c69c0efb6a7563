"""El curso en un JupyterHub de verdad (`make hub`), con el intercambio de nbgrader, en Chromium.

Un solo hub (course/hub: JupyterHub de PyPI, configurable-http-proxy de npm, usuarios del sistema
con PAM) y un solo navegador, y el recorrido entero en un fixture del módulo:

1. la profesora entra y, en una terminal de su JupyterLab, publica la tarea (`release_assignment`);
2. Ana entra, descarga la tarea en la pestaña «Tareas», contesta, valida con el botón de la barra
   y entrega; la profesora pone la fecha de entrega (ya pasada); Carla hace lo mismo, valida desde
   «Tareas» y entrega tarde;
3. la profesora recoge (`collect`), corrige con `make grade` (en la jaula, con el descuento por
   retraso) y publica la retroalimentación (`release_feedback`);
4. cada estudiante descarga su retroalimentación en «Tareas».

Las pruebas miran lo que ha quedado (notas, ficheros, permisos) y lo que cada persona ha visto:
ninguna etiqueta inglesa conocida de JupyterLab, de nbgrader ni de JupyterHub (tests/ingles.py).

Necesita root (crea usuarios del sistema: profe-prueba, ana-prueba, carla-prueba; los borra al
acabar), npm y Chromium. El entorno del hub se guarda entre ejecuciones en
$TMPDIR/curso-harness-hub-pruebas (la primera vez tarda unos minutos).
Solo esta prueba: `.venv/bin/python -m pytest tests/test_hub.py -v`.
"""

import csv
import datetime
import fcntl
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import ingles
import navegador as nv
from course import CUADERNO, TAREA, gradebook, hub as curso_hub
from course.corregir import EJEMPLOS
from course.entregas import leer_ejemplo

PROFESORA = "profe-prueba"
ANA, CARLA = "ana-prueba", "carla-prueba"   # con las respuestas de course/ejemplos/ana.toml y carla.toml
DESTINO = Path(tempfile.gettempdir()) / "curso-harness-hub-pruebas"
RUTA = f"{TAREA}/{CUADERNO}"
ESPERA_ORDEN = 600    # una orden de la profesora en su terminal (make grade corrige las dos entregas)
# El recorrido entero, con el entorno del hub si hay que rehacerlo (unos minutos): pasado esto, pytest-timeout
# para la prueba, que falla en vez de colgarse.
pytestmark = pytest.mark.timeout(2700)
# Un nombre propio, que sale tal cual en español (el título de las páginas del hub).
NOMBRES_PROPIOS = {"JupyterHub"}


# =========================================================================== el hub

def _borrar_usuarios():
    for nombre in (PROFESORA, ANA, CARLA):
        try:
            pwd.getpwnam(nombre)
        except KeyError:
            continue
        subprocess.run(["userdel", nombre], capture_output=True, check=False)


@pytest.fixture(scope="module")
def hub(chromium):
    if os.geteuid() != 0:
        nv.saltar_o_fallar("El JupyterHub del curso necesita root (crea usuarios del sistema) / needs root.")
    if not shutil.which("npm"):
        nv.saltar_o_fallar("Falta npm, para configurable-http-proxy: apt-get install npm / npm is missing.")
    DESTINO.mkdir(exist_ok=True)
    with open(DESTINO / ".cerrojo", "w") as cerrojo:
        fcntl.flock(cerrojo, fcntl.LOCK_EX)  # dos ejecuciones a la vez compartirían usuarios y carpetas
        # Lo de una ejecución anterior, fuera; el entorno y el proxy se guardan (tardan en hacerse).
        _borrar_usuarios()
        for resto in ("casas", "intercambio", "estado", "config-estudiante"):
            shutil.rmtree(DESTINO / resto, ignore_errors=True)
        (DESTINO / "casas").mkdir()
        for carpeta in (DESTINO, DESTINO / "casas"):
            carpeta.chmod(0o755)
        claves = {nombre: secrets.token_urlsafe(12) for nombre in (PROFESORA, ANA, CARLA)}
        try:
            preparado, _ = curso_hub.preparar(DESTINO, PROFESORA, [ANA, CARLA], casas=DESTINO / "casas", claves=claves)
            puerto = nv.puerto_libre()
            proceso = curso_hub.arrancar(preparado, puerto)
        except SystemExit as fallo:
            _borrar_usuarios()
            pytest.fail(f"make hub no ha podido preparar o arrancar el hub: {fallo}")
        try:
            yield {"hub": preparado, "url": f"http://127.0.0.1:{puerto}", "claves": claves,
                   "casas": {n: DESTINO / "casas" / n for n in claves}}
        finally:
            curso_hub.parar(proceso)
            _borrar_usuarios()


# =========================================================================== gestos

class Recorrido:
    """Lo que pasa y lo que se ve: las páginas abiertas y el texto de cada cosa vista."""

    def __init__(self, navegador, hub):
        self.navegador, self.hub = navegador, hub
        self.paginas = {}
        self.vistos = []       # (quién, dónde, texto)
        self.validaciones = {}
        self.consola = []

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
        """Descarga, contesta con las respuestas de `ejemplo`, valida y entrega."""
        pagina = self.paginas[usuario]
        tareas = self.tareas(usuario)
        publicada = tareas.locator(f".curso-seccion[data-estado='released'] .curso-tarea[data-tarea='{TAREA}']")
        publicada.wait_for()
        self.ver(usuario, "Tareas, antes de descargar", tareas.inner_text())
        publicada.locator(".curso-descargar").click()
        descargada = tareas.locator(f".curso-seccion[data-estado='fetched'] .curso-tarea[data-tarea='{TAREA}']")
        descargada.wait_for()
        self.ver(usuario, "Tareas, con la tarea descargada", tareas.inner_text())
        descargada.locator(".curso-abrir").click()
        nv.esperar_cuaderno(pagina)
        casa = self.hub["casas"][usuario]
        celdas = nv.celdas_por_grade_id(casa / RUTA)
        respuestas = {g: r for g, r in leer_ejemplo(EJEMPLOS / ejemplo)["respuestas"].items() if g in celdas}
        nv.contestar(pagina, casa, RUTA, respuestas)
        barra = pagina.locator(f"{nv.CUADERNO} .jp-NotebookPanel-toolbar")
        ayudas = barra.locator("[title]").evaluate_all("els => els.map(e => e.title.replace(/ \\(.*\\)$/, ''))")
        self.ver(usuario, "la barra del cuaderno", "\n".join([barra.inner_text(), *ayudas]))
        if desde_tareas:
            tareas = self.tareas(usuario)
            boton = ".curso-tareas:visible .curso-seccion[data-estado='fetched'] .curso-validar"
        else:
            boton = nv.VALIDAR
        self.validaciones[usuario] = nv.validar(pagina, boton)
        self.ver(usuario, "la ventana de Validar", self.validaciones[usuario][2])
        tareas = self.tareas(usuario)
        tareas.locator(f".curso-seccion[data-estado='fetched'] .curso-tarea[data-tarea='{TAREA}'] .curso-entregar").click()
        tareas.locator(f".curso-seccion[data-estado='submitted'] .curso-tarea[data-tarea='{TAREA}']").wait_for()
        self.ver(usuario, "Tareas, con la tarea entregada", tareas.inner_text())

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
        enlace.first.click()
        pagina = self.paginas[usuario]
        pagina.locator(".jp-DirListing-item", has_text="feedback").or_(
            pagina.locator(".jp-DirListing-item", has_text=".html")).first.wait_for()
        self.ver(usuario, "el explorador de archivos", pagina.locator(".jp-FileBrowser").inner_text())

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

        # 3. Recoger, corregir en la jaula y publicar la retroalimentación.
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
    except BaseException:
        r.guardar_artefactos("test_hub")
        raise
    yield r


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
        return {e: (s.score, s.late_submission_penalty) for e in (ANA, CARLA) for s in [gb.find_submission(TAREA, e)]}


def test_make_grade_corrige_lo_recogido_con_el_descuento_por_retraso(recorrido, hub):
    notas = _notas(hub)
    assert notas[ANA] == (leer_ejemplo(EJEMPLOS / "ana.toml")["nota_formativo"], 0), notas
    carla = leer_ejemplo(EJEMPLOS / "carla.toml")["nota_formativo"]
    assert notas[CARLA] == (carla, 1), f"Carla entrega tarde: un punto de descuento ({notas})"
    # En las notas que exporta make grade, la de Carla ya lleva el descuento.
    with open(hub["casas"][PROFESORA] / curso_hub.COPIA / "exports" / "notas.csv", encoding="utf-8") as f:
        exportadas = {fila["student_id"]: float(fila["score"]) for fila in csv.DictReader(f)}
    assert exportadas == {ANA: notas[ANA][0], CARLA: carla - 1}, exportadas
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
