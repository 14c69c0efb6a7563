"""La lección sin instalar nada: el sitio de `make lite` (dist/lite/) en un Chromium de verdad, sin red.

El sitio se sirve en 127.0.0.1; cualquier otra dirección se corta (Playwright aborta la petición
y Chromium no resuelve ningún otro nombre). Se abre la lección, la interfaz está en español, se
ejecuta todo (Pyodide en la página), los widgets se pintan, se escriben las respuestas y el reto
y las pruebas visibles pasan; luego se descarga el cuaderno con «Archivo › Descargar», como haría
el estudiante (se llama como la tarea), se recarga la página (cada widget enseña su copia guardada), se
sube a un LMS (una descarga de Moodle con el nombre que le ha dado el navegador) y se corrige como
cualquier entrega: `nbgrader zip_collect` y `make grade` de verdad. Mientras Pyodide arranca, la barra
del cuaderno dice «Preparando Python…».

Ejecutar solo esta prueba: `.venv/bin/python -m pytest tests/test_lite.py -v`.
"""

import functools
import http.server
import json
import re
import threading
import time

import pytest

import navegador as nv
import test_navegador as tn
from course import CUADERNO, RAIZ, TAREA, lite
from cursos import MAXIMO
from lms import A_TIEMPO, corregir, descarga, filas, montar, moodle, recoger

# En la raíz del sitio: «Archivo › Descargar» da un fichero con el nombre de la tarea.
RUTA = CUADERNO
RELEASE = RAIZ / "release" / TAREA / CUADERNO
ARRANQUE_PYODIDE = 420    # cargar la página y Pyodide, y ejecutar el cuaderno, en una máquina lenta
# El sitio (si hay que construirlo), Pyodide y la corrección: pasado esto, pytest-timeout para la prueba.
pytestmark = pytest.mark.timeout(1500)
MENUS_EN_ESPAÑOL = ["Archivo", "Editar", "Ver", "Ejecutar", "Pestañas", "Configuración", "Ayuda"]
MENUS_EN_INGLES = ["File", "Edit", "View", "Run", "Tabs", "Settings", "Help"]


class _Estatico(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
                      ".json": "application/json", ".whl": "application/octet-stream"}

    def log_message(self, *argumentos):
        pass


@pytest.fixture(scope="module")
def sitio(procesos):
    """dist/lite/ servido en 127.0.0.1 (lo construye `make lite`; si falta o no está al día, se construye aquí)."""
    lite.construir()
    servidor = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Estatico, directory=str(lite.DESTINO)))
    hilo = threading.Thread(target=servidor.serve_forever, daemon=True)
    hilo.start()
    try:
        yield f"http://127.0.0.1:{servidor.server_port}"
    finally:
        servidor.shutdown()


@pytest.fixture(scope="module")
def argumentos_de_chromium(argumentos_de_chromium):
    """Además de cortar cada petición: ningún nombre se resuelve salvo 127.0.0.1."""
    return argumentos_de_chromium + ["--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]


@pytest.fixture
def opciones_de_pagina():
    return {"accept_downloads": True}


@pytest.fixture
def pagina(pagina, sitio):
    """La pestaña de conftest.py, que corta (y anota en `pagina.fuera`) toda petición fuera del sitio."""
    fuera = []

    def cortar(ruta):
        fuera.append(ruta.request.url)
        ruta.abort()

    pagina.context.route(lambda url: not url.startswith(sitio + "/"), cortar)
    pagina.fuera = fuera
    return pagina


def esperar_que_termine(pagina, tope=ARRANQUE_PYODIDE):
    """Espera a que ninguna celda esté en cola ni ejecutándose ([*]), dos lecturas seguidas."""
    limite, seguidas, prompts = time.monotonic() + tope, 0, []
    while time.monotonic() < limite:
        prompts = pagina.locator(f"{nv.CELDA_DE_CODIGO} .jp-InputArea-prompt").all_text_contents()
        seguidas = seguidas + 1 if prompts and not any("*" in p for p in prompts) else 0
        if seguidas >= 2:
            return prompts
        time.sleep(1)
    raise AssertionError(f"el cuaderno no terminó en {tope} s: {prompts}")


def escribir_respuestas(pagina, respuestas):
    nb = json.loads((RAIZ / "release" / TAREA / CUADERNO).read_text(encoding="utf-8"))
    indices = {c.get("metadata", {}).get("nbgrader", {}).get("grade_id"): i for i, c in enumerate(nb["cells"])}
    celdas = pagina.locator(f"{nv.CUADERNO} .jp-Notebook .jp-Cell")
    assert celdas.count() == len(nb["cells"])
    for gid, texto in respuestas.items():
        nv.escribir_en_celda(pagina, celdas.nth(indices[gid]), texto)


def comprobar_seccion_sin_modelo(pagina):
    """La sección optativa del modelo de verdad: en el navegador dice por qué no se puede y no hace nada."""
    nb = json.loads(RELEASE.read_text(encoding="utf-8"))
    codigo = [c.get("id") for c in nb["cells"] if c["cell_type"] == "code"]
    salidas = [nv.salidas_de_celda(pagina, codigo.index("modelo-de-verdad-%d" % i)) for i in (2, 4)]
    assert "En la versión del navegador no se puede llamar a la API" in salidas[0], salidas
    assert "Tampoco aquí" in salidas[1], salidas
    assert not any("Error" in s or "Traceback" in s for s in salidas), salidas


# Apunta cada texto distinto que enseña el estado del núcleo (textos.js) desde que se carga la página: lo que
# dice mientras Pyodide arranca se ve sin tener que mirar en el momento justo.
APUNTAR_ESTADOS = """
window.estadosDelNucleo = [];
new MutationObserver(() => {
  for (const estado of document.querySelectorAll('.curso-estado-del-nucleo')) {
    const texto = estado.textContent;
    if (window.estadosDelNucleo[window.estadosDelNucleo.length - 1] !== texto) {
      window.estadosDelNucleo.push(texto);
    }
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def comprobar_la_barra_en_espanol(pagina):
    """Mientras Pyodide arranca, la barra del cuaderno dice «Preparando Python…»; después, nada (listo). Sus
    ayudas, en español: ni «Click to open kernel logs» de JupyterLite ni las de traductor nulo de JupyterLab."""
    from playwright.sync_api import expect

    from ingles import a_la_vista, de_jupyterlab

    estado = pagina.locator(f"{nv.CUADERNO} .curso-estado-del-nucleo")
    expect(estado).to_have_attribute("data-estado", "libre", timeout=ARRANQUE_PYODIDE * 1000)
    estados = pagina.evaluate("window.estadosDelNucleo")
    assert "Preparando Python…" in estados and estados[-1] == "", estados
    expect(estado).to_have_attribute("title", "Pulsa para ver el registro del núcleo")
    ayudas = pagina.locator(f"{nv.CUADERNO} .jp-Toolbar [title]").evaluate_all("els => els.map(e => e.title)")
    ayudas = [re.sub(r"\s*\([^()]*\)$", "", a) for a in ayudas]
    assert not a_la_vista(ayudas, de_jupyterlab() | {"Click to open kernel logs"}), ayudas


def test_la_leccion_sin_instalar_nada_en_espanol_y_sin_red(pagina, sitio, tmp_path):
    from playwright.sync_api import expect

    # La dirección del sitio, sin más: se abre en la lección.
    pagina.add_init_script(APUNTAR_ESTADOS)
    pagina.goto(f"{sitio}/", wait_until="domcontentloaded")
    pagina.wait_for_selector(f"{nv.CUADERNO} .jp-Notebook .jp-Cell", timeout=ARRANQUE_PYODIDE * 1000)
    expect(pagina.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")).to_contain_text(CUADERNO)
    comprobar_la_barra_en_espanol(pagina)

    # La interfaz, en español: los menús de la barra, y ninguno en inglés.
    menus = pagina.locator("#jp-menu-panel .lm-MenuBar-itemLabel, #jp-top-panel .lm-MenuBar-itemLabel")
    expect(menus.first).to_be_visible()
    etiquetas = [t.strip() for t in menus.all_text_contents()]
    for menu in MENUS_EN_ESPAÑOL:
        assert menu in etiquetas, etiquetas
    assert not set(MENUS_EN_INGLES) & set(etiquetas), etiquetas
    assert not pagina.locator(".jp-Notification-Toast:has-text('news')").count()
    tn.capturar(pagina, "lite-espanol.png")

    # Sin contestar: todo se ejecuta en Pyodide hasta la primera respuesta vacía.
    nv.ejecutar_orden_del_menu(pagina, "runmenu:run-all")
    esperar_que_termine(pagina)
    tn.comprobar_muerte_en_el_turno_2(pagina, RAIZ, RELEASE)
    tn.hacer_una_prediccion(pagina, RAIZ, RELEASE, lambda: esperar_que_termine(pagina))

    # Con una respuesta que repite sin fin la llamada que falla, Run All acaba también aquí, sin alarmas: el tope
    # de cada llamada mira el reloj (issue 36).
    escribir_respuestas(pagina, {"ejecutar": tn.REINTENTA})
    nv.ejecutar_orden_del_menu(pagina, "runmenu:run-all")
    esperar_que_termine(pagina)
    tn.lo_que_dice_una_respuesta_que_no_acaba(pagina, RAIZ, RELEASE)

    # Con las respuestas y el reto escritos: Run All llega al final (las pruebas visibles pasan).
    escribir_respuestas(pagina, tn.respuestas_correctas(RAIZ, ids=tn.las_que_hay(RAIZ, RELEASE, tn.RESPUESTAS)))
    nv.ejecutar_orden_del_menu(pagina, "runmenu:run-all")
    esperar_que_termine(pagina)
    tn.comprobar_que_corre_entero(pagina, RAIZ, RELEASE)
    tn.comprobar_explorador(pagina)
    tn.comprobar_visor(pagina)
    tn.comprobar_visor_del_estudiante(pagina)
    tn.comprobar_cuestionario(pagina)  # la pregunta 1, mal y después bien, con «Comprobar»
    comprobar_seccion_sin_modelo(pagina)

    # El estudiante guarda y descarga su cuaderno: Archivo › Descargar, con ese nombre en el menú.
    nv.guardar(pagina)
    pagina.locator("#jp-menu-panel .lm-MenuBar-item, #jp-top-panel .lm-MenuBar-item").first.click()
    elemento = pagina.locator(".lm-Menu:visible li.lm-Menu-item[data-command='docmanager:download']")
    expect(elemento.locator(".lm-Menu-itemLabel")).to_have_text("Descargar")
    with pagina.expect_download(timeout=nv.ESPERA_UI * 1000) as descargado:
        elemento.click()
    nombre = descargado.value.suggested_filename
    assert nombre == CUADERNO, f"la descarga se llama {nombre}, no como la tarea"
    cuaderno = descargado.value.path().read_bytes()
    (tmp_path / "descargado.ipynb").write_bytes(cuaderno)

    # Al recargar la página (otro núcleo, sin los modelos de los widgets), cada widget enseña su copia.
    pagina.reload(wait_until="domcontentloaded")
    pagina.wait_for_selector(f"{nv.CUADERNO} .jp-Notebook .jp-Cell", timeout=ARRANQUE_PYODIDE * 1000)
    tn.comprobar_las_copias(pagina, tmp_path / "descargado.ipynb")
    assert pagina.fuera == [], f"la página pidió fuera de 127.0.0.1: {pagina.fuera}"

    # Lo sube al LMS y se corrige como cualquier entrega: zip_collect y make grade de verdad, nota completa.
    curso = montar(tmp_path / "curso", [("lucia", "Lucía", "Sin Instalar", "", "105")])
    descarga(curso, "moodle.zip", {moodle("Lucía Sin Instalar", 105, nombre): (cuaderno, A_TIEMPO)})
    recogido, _ = recoger(curso)
    assert recogido.returncode == 0, recogido.stderr
    hecho = corregir(curso)
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    fila = filas(curso)["lucia"]
    assert (fila["estado"], float(fila["score"]), float(fila["max_score"])) == ("corregido", MAXIMO, MAXIMO), fila

    # Lo comprobado en el cuestionario formativo viaja en el cuaderno descargado, sigue en el corregido (que
    # se rehace sobre el de release) y el informe de la clase lo cuenta, con la respuesta buena marcada.
    tn.comprobar_lo_comprobado(tmp_path / "descargado.ipynb")
    tn.comprobar_lo_comprobado(curso / "autograded" / "lucia" / TAREA / CUADERNO)
    from course import informe
    from course.cuestionario import PREGUNTAS
    html = informe.escribir_informe(curso).read_text(encoding="utf-8")
    assert "✔ %s: 1" % PREGUNTAS[1]["correcta"] in re.findall(r"<p class='cuenta'>(.*?)</p>", html)[0], html


@pytest.mark.usefixtures("procesos")
def test_make_bundle_lleva_el_sitio_para_alojarlo(tmp_path):
    import zipfile

    from course import paquete

    lite.construir()
    with zipfile.ZipFile(paquete.sitio(destino=tmp_path)) as z:
        nombres = set(z.namelist())
    base = paquete.NOMBRE_SITIO + "/"
    for necesario in ("index.html", "lab/index.html", "jupyter-lite.json", "static/pyodide/pyodide.asm.wasm",
                      "static/pyodide/pyodide-lock.json", f"files/{RUTA}", "api/translations/es_ES.json"):
        assert base + necesario in nombres, necesario
    assert any(n.startswith(base + "static/pyodide/harness-") and n.endswith(".whl") for n in nombres)
