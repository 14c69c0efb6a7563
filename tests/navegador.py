"""Un JupyterLab de verdad y un Chromium de verdad, para la prueba de navegador.

Aquí está solo la maquinaria (copia del curso, servidor, artefactos de los fallos y los gestos de
JupyterLab y de nbgrader); el navegador y la pestaña son fixtures de conftest.py, y lo propio de la
lección está en test_navegador.py.

Los selectores no dependen del idioma de la interfaz: atributos data-command, clases CSS de
JupyterLab y de nbgrader, y el estado del núcleo que da la API REST del servidor.
"""

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

RAIZ = Path(__file__).resolve().parent.parent
ARTEFACTOS = Path(__file__).resolve().parent / "artefactos"
CHROMIUM = "/usr/bin/chromium"
ARGUMENTOS_CHROMIUM = ["--headless", "--no-sandbox", "--disable-gpu",
                       "--disable-background-networking", "--disable-component-update"]
# Lo que el curso necesita para que un cuaderno y el Validate de nbgrader funcionen.
PIEZAS_DEL_CURSO = ["nbgrader_config.py", "harness", "course", "release", "source"]

# Topes (segundos). Generosos, para una máquina de 2 núcleos, pero acotados: nada espera para siempre.
ARRANQUE_SERVIDOR = 90
PARADA_SERVIDOR = 15
ESPERA_UI = 60            # que aparezca algo en la página
ESPERA_NUCLEO = 120       # que el núcleo termine de ejecutar todo el cuaderno
ESPERA_VALIDAR = 240      # Validate ejecuta el cuaderno entero en un núcleo nuevo
INSTALAR_CHROMIUM = 900
# El tope de cada prueba entera (pytest-timeout) está en conftest.py: TOPE_DE_NAVEGADOR.


# --------------------------------------------------------------------------- Chromium

def saltar_o_fallar(mensaje):
    """Sin navegador se salta la prueba, salvo en CI (variable CI definida), donde falla."""
    if os.environ.get("CI"):
        pytest.fail(mensaje + " (CI está definida: no se salta / CI is set: not skipping)")
    pytest.skip(mensaje)


def asegurar_playwright():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        saltar_o_fallar("Falta playwright (pip install -e '.[test]') / playwright is not installed.")


def asegurar_chromium():
    """Chromium de Debian: si falta, lo instala root; si no, se salta la prueba (o falla en CI)."""
    if os.path.exists(CHROMIUM):
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        entorno = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for orden in (["apt-get", "update", "-qq"],
                      ["apt-get", "install", "-y", "-qq", "chromium", "chromium-driver"]):
            subprocess.run(orden, env=entorno, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=INSTALAR_CHROMIUM, check=False)
        if os.path.exists(CHROMIUM):
            return
    mensaje = (f"No hay Chromium en {CHROMIUM}: instálalo con "
               "`sudo apt-get install chromium chromium-driver` / "
               f"Chromium not found at {CHROMIUM}: install it with "
               "`sudo apt-get install chromium chromium-driver`.")
    saltar_o_fallar(mensaje)


# --------------------------------------------------------------------------- el curso, en una copia

def copiar_curso(destino):
    """Copia lo necesario del curso a `destino`: la prueba nunca escribe en el repositorio."""
    ignorar = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints", "*.pyc")
    for pieza in PIEZAS_DEL_CURSO:
        origen = RAIZ / pieza
        if origen.is_dir():
            shutil.copytree(origen, destino / pieza, ignore=ignorar)
        elif origen.exists():
            shutil.copy2(origen, destino / pieza)
    return destino


def quitar_marcas(fuente):
    """El texto de una celda de solución de nbgrader sin las líneas de marca BEGIN/END SOLUTION."""
    lineas = [l for l in fuente.splitlines()
              if l.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")]
    return "\n".join(lineas)


def celdas_por_grade_id(cuaderno):
    """{grade_id: celda} de un cuaderno .ipynb en disco."""
    nb = json.loads(Path(cuaderno).read_text(encoding="utf-8"))
    celdas = {}
    for celda in nb["cells"]:
        gid = celda.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if gid:
            celdas[gid] = celda
    return celdas


def fuente(celda):
    s = celda["source"]
    return "".join(s) if isinstance(s, list) else s


# --------------------------------------------------------------------------- el servidor

def puerto_libre():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Servidor:
    """`python -m jupyter lab` sobre una carpeta, en su propio grupo de procesos."""

    def __init__(self, raiz, ajustes):
        self.raiz = Path(raiz)
        self.puerto = puerto_libre()
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.puerto}"
        self.registro = self.raiz.parent / "servidor.log"
        self.ajustes = Path(ajustes)
        self.proceso = None

    def arrancar(self):
        orden = [sys.executable, "-m", "jupyter", "lab", "--no-browser",
                 "--ip=127.0.0.1", f"--port={self.puerto}", "--port-retries=0",
                 f"--ServerApp.token={self.token}", f"--ServerApp.root_dir={self.raiz}",
                 "--ServerApp.open_browser=False", "--LabApp.news_url=None",
                 "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
        if os.geteuid() == 0:
            orden.append("--allow-root")
        privado = self.ajustes
        entorno = dict(os.environ,
                       JUPYTERLAB_SETTINGS_DIR=str(privado / "lab-settings"),
                       JUPYTERLAB_WORKSPACES_DIR=str(privado / "lab-workspaces"),
                       JUPYTER_CONFIG_DIR=str(privado / "config"),
                       JUPYTER_RUNTIME_DIR=str(privado / "runtime"),
                       JUPYTER_DATA_DIR=str(privado / "data"),
                       # Los núcleos importan harness/ y course/ de la copia, no del repositorio.
                       PYTHONPATH=os.pathsep.join(filter(None, [str(self.raiz), os.environ.get("PYTHONPATH")])),
                       PYTHONDONTWRITEBYTECODE="1")
        entorno.pop("JUPYTER_TOKEN", None)
        with open(self.registro, "wb") as salida:
            # Desde la raíz del curso: el Validate de nbgrader lee nbgrader_config.py del cwd.
            self.proceso = subprocess.Popen(orden, cwd=self.raiz, env=entorno, stdin=subprocess.DEVNULL,
                                            stdout=salida, stderr=subprocess.STDOUT, start_new_session=True)
        limite = time.monotonic() + ARRANQUE_SERVIDOR
        while time.monotonic() < limite:
            if self.proceso.poll() is not None:
                raise RuntimeError(f"JupyterLab terminó al arrancar (código {self.proceso.returncode}):\n"
                                   + self.leer_registro())
            try:
                self.api("/api/status", tope=5)
                return self
            except (OSError, urllib.error.URLError, ValueError):
                time.sleep(0.5)
        raise RuntimeError(f"JupyterLab no contestó en {ARRANQUE_SERVIDOR} s:\n" + self.leer_registro())

    def api(self, ruta, tope=10):
        peticion = urllib.request.Request(self.url + ruta, headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(peticion, timeout=tope) as r:
            return json.loads(r.read().decode())

    def leer_registro(self):
        try:
            return self.registro.read_text(errors="replace")[-20000:]
        except OSError:
            return ""

    def __enter__(self):
        """`with Servidor(...) as srv`: arrancado; al salir, o si no llega a arrancar, parado."""
        try:
            return self.arrancar()
        except BaseException:
            self.parar()
            raise

    def __exit__(self, *excepcion):
        self.parar()

    def parar(self):
        """SIGTERM al grupo (servidor y núcleos); si no basta, SIGKILL."""
        if self.proceso is None or self.proceso.poll() is not None:
            return
        for senal, espera in ((signal.SIGINT, PARADA_SERVIDOR), (signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.proceso.pid, senal)
            except ProcessLookupError:
                return
            try:
                self.proceso.wait(timeout=espera)
                break
            except subprocess.TimeoutExpired:
                continue
        # Los núcleos comparten el grupo: que no quede ninguno.
        try:
            os.killpg(self.proceso.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def abrir(self, ruta_relativa):
        """La URL que abre un cuaderno en JupyterLab."""
        return f"{self.url}/lab/tree/{ruta_relativa}?token={self.token}&reset"

    def nucleos_ocupados(self, ruta_relativa):
        """Estado del núcleo del cuaderno según el servidor ('idle', 'busy', ... o None si no hay)."""
        for sesion in self.api("/api/sessions"):
            if sesion.get("path") == ruta_relativa and sesion.get("kernel"):
                return sesion["kernel"].get("execution_state")
        return None


@contextlib.contextmanager
def lab_de_una_orden(orden, cwd, env, nombre, resto=None):
    """Arranca una orden que abre JupyterLab y escribe su dirección (make lab, empezar.py) y espera a
    que el servidor conteste. Da (salida hasta la dirección, base, ruta, token); al salir, Ctrl+C, y lo
    que haya escrito después de la dirección se añade a la lista `resto`, si se da."""
    proceso = subprocess.Popen(orden, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        lineas = []
        while not any("?token=" in linea for linea in lineas):
            linea = proceso.stdout.readline()
            assert linea, f"{nombre} terminó sin dar la dirección:\n" + "".join(lineas)
            lineas.append(linea)
        salida = "".join(lineas)
        base, ruta, token = re.search(r"(http://localhost:\d+)(/lab/tree/\S+)\?token=(\w+)", salida).groups()
        limite = time.monotonic() + ARRANQUE_SERVIDOR
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5).close()
                break
            except (OSError, urllib.error.URLError):
                assert proceso.poll() is None and time.monotonic() < limite, f"JupyterLab no arrancó con {nombre}"
                time.sleep(0.5)
        yield salida, base, ruta, token
    finally:
        os.killpg(proceso.pid, signal.SIGINT)
        try:
            proceso.wait(timeout=PARADA_SERVIDOR + 5)
        except subprocess.TimeoutExpired:
            os.killpg(proceso.pid, signal.SIGKILL)
        if resto is not None:
            resto.append(proceso.stdout.read())


def preparar_ajustes(privado, idioma="es_ES"):
    """Ajustes de usuario de JupyterLab para la prueba: en español como `make lab`, sin noticias."""
    ajustes = Path(privado) / "lab-settings"
    for nombre, valor in {
        "@jupyterlab/translation-extension/plugin.jupyterlab-settings": {"locale": idioma},
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                            "checkForUpdates": False},
    }.items():
        fichero = ajustes / nombre
        fichero.parent.mkdir(parents=True, exist_ok=True)
        fichero.write_text(json.dumps(valor))
    for sub in ("lab-workspaces", "config", "runtime", "data"):
        (Path(privado) / sub).mkdir(parents=True, exist_ok=True)


# --------------------------------------------------------------------------- artefactos de los fallos

def nombre_de_artefacto(nodeid):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid).strip("_")[-120:]


def guardar_artefactos(nodeid, pagina=None, consola=(), servidor=None):
    """Captura de pantalla, consola del navegador y registro del servidor, en tests/artefactos/."""
    ARTEFACTOS.mkdir(parents=True, exist_ok=True)
    base = ARTEFACTOS / nombre_de_artefacto(nodeid)
    guardados = []
    if pagina is not None:
        try:
            pagina.screenshot(path=str(base) + ".png", full_page=True, timeout=15_000)
            guardados.append(str(base) + ".png")
        except Exception as e:  # la página puede estar muerta: que no tape el fallo de verdad
            consola = list(consola) + [f"[prueba] sin captura: {e!r}"]
        try:
            Path(str(base) + ".html").write_text(pagina.content(), encoding="utf-8")
            guardados.append(str(base) + ".html")
        except Exception:
            pass
    Path(str(base) + "-consola.txt").write_text("\n".join(consola) + "\n", encoding="utf-8")
    guardados.append(str(base) + "-consola.txt")
    if servidor is not None:
        Path(str(base) + "-servidor.log").write_text(servidor.leer_registro(), encoding="utf-8")
        guardados.append(str(base) + "-servidor.log")
    return guardados


# --------------------------------------------------------------------------- gestos en JupyterLab

CUADERNO = ".jp-NotebookPanel:not(.lm-mod-hidden)"
CELDA_DE_CODIGO = f"{CUADERNO} .jp-Notebook .jp-Cell.jp-CodeCell"
DIALOGO = ".jp-Dialog"
ACEPTAR = ".jp-Dialog .jp-Dialog-button.jp-mod-accept"
# El botón «Validar» de la extensión del curso (course/extension/) en la barra del cuaderno: conserva
# la clase del de nbgrader, validate-button.
VALIDAR = f"{CUADERNO} .jp-Toolbar .validate-button"
# El cuerpo de su ventana, como el de nbgrader: div#validation-message con una clase validation-*
# que dice el veredicto.
MENSAJE_VALIDAR = ".jp-Dialog #validation-message"


def esperar_cuaderno(pagina):
    """Espera a que el cuaderno esté abierto: sus celdas y, en su barra, el botón Validar."""
    pagina.wait_for_selector(f"{CUADERNO} .jp-Notebook .jp-Cell", timeout=ESPERA_UI * 1000)
    pagina.wait_for_selector(VALIDAR, timeout=ESPERA_UI * 1000)


def ejecutar_orden_del_menu(pagina, orden):
    """Ejecuta una orden de JupyterLab a través de su menú principal, buscando por data-command.

    Abre los menús de la barra uno a uno (sin leer sus etiquetas, que dependen del idioma) hasta
    encontrar el elemento con ese data-command, y lo pulsa; si no está en ninguno, lo busca en sus
    submenús (Archivo › Nuevo › Terminal).
    """
    barra = pagina.locator("#jp-menu-panel .lm-MenuBar-item, #jp-top-panel .lm-MenuBar-item")
    n = barra.count()
    assert n > 0, "no encuentro la barra de menús de JupyterLab"
    elemento = pagina.locator(f".lm-Menu:visible li.lm-Menu-item[data-command='{orden}']").first
    for en_submenus in (False, True):
        for i in range(n):
            barra.nth(i).click()
            try:
                elemento.wait_for(state="visible", timeout=1500)
            except Exception:
                if not (en_submenus and _en_un_submenu(pagina, elemento)):
                    for _ in range(2 if en_submenus else 1):  # el submenú y el menú
                        pagina.keyboard.press("Escape")
                    continue
            elemento.click()
            return
    raise AssertionError(f"ningún menú tiene la orden {orden!r}")


def _en_un_submenu(pagina, elemento):
    """Abre uno a uno los submenús del menú abierto hasta que `elemento` se ve; dice si lo ha encontrado."""
    submenus = pagina.locator(".lm-Menu:visible").first.locator("li.lm-Menu-item[data-type='submenu']")
    for j in range(submenus.count()):
        submenus.nth(j).hover()
        try:
            elemento.wait_for(state="visible", timeout=800)
            return True
        except Exception:
            continue
    return False


def esperar_nucleo_libre(pagina, servidor, ruta, tope=ESPERA_NUCLEO):
    """Espera a que ninguna celda esté en cola o ejecutándose ([*]) y el núcleo esté 'idle'.

    No se exige que todas tengan número: Run All se para en la primera celda que lanza (las de
    respuesta sin contestar lanzan NotImplementedError) y las siguientes vuelven a [ ].
    JupyterLab marca [*] todas las celdas en cola en cuanto se ordena Run All, así que no hay
    carrera con el arranque; se pide además dos lecturas seguidas iguales.
    """
    limite = time.monotonic() + tope
    ultimo, seguidas = None, 0
    while time.monotonic() < limite:
        prompts = pagina.locator(f"{CELDA_DE_CODIGO} .jp-InputArea-prompt").all_text_contents()
        en_cola = sum("*" in p for p in prompts)
        estado = servidor.nucleos_ocupados(ruta)
        ultimo = (estado, en_cola, len(prompts))
        seguidas = seguidas + 1 if prompts and not en_cola and estado == "idle" else 0
        if seguidas >= 2:
            return
        time.sleep(0.5)
    raise AssertionError(f"el núcleo no terminó en {tope} s (estado, celdas en cola, celdas): {ultimo}")


def salidas_de_celda(pagina, indice):
    """El texto de las salidas de la celda de código número `indice` (0 = la primera)."""
    celda = pagina.locator(CELDA_DE_CODIGO).nth(indice)
    return "\n".join(celda.locator(".jp-OutputArea-output").all_text_contents())


def validar(pagina, boton=VALIDAR, mirar=None):
    """Pulsa Validar (el de la barra del cuaderno, u otro `boton`), espera su diálogo, le pasa su cuerpo a
    `mirar` (si se da) y lo cierra. Devuelve (éxito, clases, texto): el texto, también el de lo plegado."""
    pagina.locator(boton).click()
    mensaje = pagina.locator(MENSAJE_VALIDAR)
    mensaje.wait_for(state="visible", timeout=ESPERA_VALIDAR * 1000)
    clases = mensaje.get_attribute("class") or ""
    texto = mensaje.text_content()
    exito = "validation-success" in clases.split()
    if mirar is not None:
        mirar(mensaje)
    pagina.locator(ACEPTAR).click()
    pagina.locator(DIALOGO).wait_for(state="detached", timeout=ESPERA_UI * 1000)
    return exito, clases, texto


def escribir_en_celda(pagina, celda, texto):
    """Reemplaza el contenido de una celda como lo haría un estudiante: clic, seleccionar todo, pegar.

    Se pega (un evento paste con el texto) en vez de teclear: al teclear, CodeMirror sangra y
    cierra paréntesis solo, y el código quedaría distinto del que se quiere probar.
    """
    editor = celda.locator(".cm-content")
    editor.scroll_into_view_if_needed(timeout=ESPERA_UI * 1000)
    editor.click()
    pagina.keyboard.press("ControlOrMeta+a")
    editor.evaluate(
        """(nodo, texto) => {
            const datos = new DataTransfer();
            datos.setData('text/plain', texto);
            nodo.dispatchEvent(new ClipboardEvent('paste', {clipboardData: datos, bubbles: true, cancelable: true}));
        }""",
        texto,
    )
    pagina.keyboard.press("Escape")  # al modo de órdenes, como quien termina de editar


def guardar(pagina):
    """Ctrl+S (docmanager:save) y espera a que la pestaña del cuaderno deje de estar modificada."""
    from playwright.sync_api import expect

    pagina.keyboard.press("ControlOrMeta+s")
    pestaña = pagina.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current")
    expect(pestaña).not_to_have_class(re.compile(r"\bjp-mod-dirty\b"), timeout=ESPERA_UI * 1000)


def contestar(pagina, curso, ruta, respuestas):
    """Escribe cada respuesta en su celda (por posición: el DOM no lleva el grade_id) y guarda."""
    nb = json.loads((curso / ruta).read_text(encoding="utf-8"))
    indices = {c.get("metadata", {}).get("nbgrader", {}).get("grade_id"): i for i, c in enumerate(nb["cells"])}
    from playwright.sync_api import expect

    celdas = pagina.locator(f"{CUADERNO} .jp-Notebook .jp-Cell")
    expect(celdas, "el navegador no muestra todas las celdas del fichero").to_have_count(
        len(nb["cells"]), timeout=ESPERA_UI * 1000)  # JupyterLab las pinta poco a poco
    for gid, texto in respuestas.items():
        escribir_en_celda(pagina, celdas.nth(indices[gid]), texto)
    guardar(pagina)

    def en_disco():  # lo escrito por la interfaz es lo que ha llegado al disco, celda a celda
        guardado = celdas_por_grade_id(curso / ruta)
        for gid, texto in respuestas.items():
            assert fuente(guardado[gid]).rstrip("\n") == texto.rstrip("\n"), (
                f"la celda {gid} no quedó como se escribió:\n{fuente(guardado[gid])!r}\n!=\n{texto!r}")

    esperar_en_disco(en_disco)


def esperar_en_disco(comprobar, tope=ESPERA_UI):
    """Repite `comprobar()` (que lanza AssertionError si aún no) hasta que pasa o se acaba el tope."""
    limite = time.monotonic() + tope
    while True:
        try:
            return comprobar()
        except (AssertionError, OSError, ValueError):
            if time.monotonic() > limite:
                raise
            time.sleep(0.5)


# --------------------------------------------------------------------------- una lección de juguete

def _celda(fuente, grade_id=None, solucion=False, prueba=False, puntos=0):
    import nbformat
    metadatos = {}
    if grade_id:
        metadatos["nbgrader"] = {"grade": prueba, "solution": solucion, "locked": prueba,
                                 "grade_id": grade_id, "schema_version": 3}
        if prueba:
            metadatos["nbgrader"]["points"] = puntos
    return nbformat.v4.new_code_cell(fuente, metadata=metadatos)


def leccion_de_juguete(curso, nombre="juguete"):
    """Un cuaderno SOURCE pequeño con la forma de la lección, y su versión publicada.

    La primera celda ejecuta la traza del salmorejo con el `ejecutar` a medias (usa harness/ de la
    copia del curso) y escribe cómo muere; luego una pregunta (`respuesta-1` / `pregunta-1`) y el
    reto (`ejecutar` / `ejecutar-salmorejo`). La versión publicada sale de los preprocesadores de
    nbgrader (quitar soluciones, bloquear, sumas de control), como en generate_assignment.
    Devuelve (source, publicado): rutas absolutas; el publicado está en trabajo/<nombre>/.
    """
    import nbformat
    from nbgrader.preprocessors import ClearSolutions, ComputeChecksums, LockCells
    from traitlets.config import Config

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = [
        _celda(
            "import copy\n"
            "from harness import ENTORNO, FUNCIONES, ModeloGuionizado, bucle, error, guion_de, incumple, resultado\n"
            "from harness.salmorejo import INICIO, RESPUESTAS, VISTO\n\n"
            "def a_medias(llamada, entorno):\n"
            "    motivo = incumple(llamada)\n"
            "    if motivo is not None:\n"
            "        return error(llamada['id'], 'no se ha ejecutado: ' + motivo)\n"
            "    return resultado(llamada['id'], FUNCIONES[llamada['name']](entorno, **llamada['input']))\n\n"
            "modelo = ModeloGuionizado(guion_de(INICIO, RESPUESTAS, VISTO))\n"
            "try:\n"
            "    bucle(modelo, INICIO, copy.deepcopy(ENTORNO), 10, a_medias)\n"
            "except Exception as fallo:\n"
            "    print('La conversación muere en el turno', modelo.turno, 'con', f'{type(fallo).__name__}: {fallo}')"),
        nbformat.v4.new_markdown_cell("¿Qué hace el harness cuando `leer` lanza? a) para, b) contesta con un error"),
        _celda("### BEGIN SOLUTION\nrespuesta_1 = \"b\"\n### END SOLUTION", "respuesta-1", solucion=True),
        _celda("assert respuesta_1 in (\"a\", \"b\")\nassert respuesta_1 == \"b\"", "pregunta-1", prueba=True, puntos=1),
        _celda(
            "def ejecutar(llamada, entorno):\n"
            "    motivo = incumple(llamada)\n"
            "    if motivo is not None:\n"
            "        return error(llamada['id'], 'no se ha ejecutado: ' + motivo)\n"
            "    ### BEGIN SOLUTION\n"
            "    try:\n"
            "        return resultado(llamada['id'], FUNCIONES[llamada['name']](entorno, **llamada['input']))\n"
            "    except Exception as e:\n"
            "        return error(llamada['id'], str(e))\n"
            "    ### END SOLUTION", "ejecutar", solucion=True),
        _celda(
            "fin, texto, M = bucle(ModeloGuionizado(guion_de(INICIO, RESPUESTAS, VISTO)), INICIO,\n"
            "                      copy.deepcopy(ENTORNO), 10, ejecutar)\n"
            "assert fin == 'fin', (fin, texto)", "ejecutar-salmorejo", prueba=True, puntos=3),
    ]
    if (curso / "harness" / "aula" / "widgets.py").exists():
        # Los dos widgets de la lección: el explorador tras la primera celda, el visor al final.
        nb.cells.insert(1, _celda("from harness.aula import explorador\nexplorador()"))
        nb.cells.append(_celda("from harness.aula import visor\nvisor(M, 'La conversación con tu ejecutar')"))
    fuente = curso / "source" / nombre / f"{nombre}.ipynb"
    fuente.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, fuente)

    config = Config()
    config.ClearSolutions.code_stub = {"python": "# TU CÓDIGO AQUÍ\n"
                                                 "raise NotImplementedError(\"falta tu respuesta: escríbela en lugar de esta línea\")"}
    copy_nb = nbformat.read(fuente, as_version=4)
    recursos = {}
    for pp in (ClearSolutions, LockCells, ComputeChecksums):
        copy_nb, recursos = pp(config=config).preprocess(copy_nb, recursos)
    publicado = curso / "trabajo" / nombre / f"{nombre}.ipynb"
    publicado.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(copy_nb, publicado)
    return fuente, publicado
