"""JupyterLab en español entero: los catálogos de course/traduccion/ y `make lab` visto en Chromium.

El paquete de idioma oficial deja en inglés dos tercios de las cadenas de JupyterLab 4.5 («Run»,
«Tabs», «Idle», «Modified»…) y trae algunas traducciones cambiadas de sitio. course/traduccion/
completa y corrige el paquete instalado; estas pruebas comprueban que lo hace bien, que se puede
repetir y que un estudiante que abre la lección con `make lab` no ve menús ni estados en inglés.
"""

import gettext
import json
import os
import re
import shutil
import sys
import urllib.error
import urllib.request

import pytest
from babel.messages.mofile import read_mo

from course import RAIZ
from course.traduccion import cadenas, completar
from ingles import de_jupyterlab, de_nbgrader

MARCADORES = re.compile(r"%\d+|\{[^{}\s]*\}")


def _instalado(dominio="jupyterlab"):
    with (completar.carpeta_del_paquete() / f"{dominio}.mo").open("rb") as f:
        return gettext.GNUTranslations(f)


# --------------------------------------------------------------------------- los catálogos

def test_los_catalogos_conservan_marcadores_y_plurales():
    leidos = completar.catalogos()
    assert {"jupyterlab", "notebook"} <= set(leidos)
    malos = []
    for dominio, catalogo in leidos.items():
        for mensaje in completar.traducciones(catalogo):
            ids = list(mensaje.id) if isinstance(mensaje.id, (list, tuple)) else [mensaje.id]
            formas = list(mensaje.string) if isinstance(mensaje.string, (list, tuple)) else [mensaje.string]
            if len(ids) != len(formas):
                malos.append(f"{mensaje.id!r}: {len(ids)} formas en inglés y {len(formas)} en español")
                continue
            for n, (ident, forma) in enumerate(zip(ids, formas)):
                # El singular de un plural puede decir «esta celda» en vez de «%1 celda».
                if set(MARCADORES.findall(forma)) != set(MARCADORES.findall(ident)) and not (n == 0 and len(ids) > 1):
                    malos.append(f"{ident!r} → {forma!r}: marcadores distintos")
                if ident.endswith("…") != forma.endswith("…"):
                    malos.append(f"{ident!r} → {forma!r}: puntos suspensivos")
    assert not malos, "\n".join(malos)


def test_toda_la_interfaz_de_jupyterlab_tiene_espanol():
    """Cada cadena traducible del JupyterLab instalado (menús, estados, diálogos, ajustes) tiene su
    español en el paquete completado. Si falla tras subir JupyterLab: python -m course.traduccion.cadenas."""
    completar.completar()
    faltan = cadenas.sin_traducir()
    assert not faltan, f"{len(faltan)} cadenas sin español, por ejemplo: " + ", ".join(
        repr(i) for _, _, i in sorted(faltan)[:20])


def test_la_busqueda_de_cadenas_no_se_queda_vacia():
    """La prueba de arriba solo vale si se encuentran las cadenas: las del código de la aplicación y las
    de los esquemas de ajustes, que se eligen con una función no pública de jupyterlab_server."""
    todas = cadenas.cadenas_de_jupyterlab()
    assert ("jupyterlab", "menu", "Run") in todas
    assert ("jupyterlab", "schema", "Cell Toolbar") in todas
    assert sum(contexto == "schema" for _, contexto, _ in todas) > 100, len(todas)


def test_corrige_las_traducciones_cambiadas_de_sitio():
    completar.completar()
    lab = _instalado()
    assert lab.pgettext("menu", "Run") == "Ejecutar"
    assert lab.pgettext("menu", "Tabs") == "Pestañas"
    assert lab.gettext("Idle") == "Inactivo"
    assert lab.gettext("Modified") == "Modificado"
    # En el paquete 4.5.post3 estas tres llevan la traducción de otra cadena.
    assert "vista" not in lab.gettext("Create a new notebook").lower()
    assert lab.gettext("Console") != "Ejecutar el texto seleccionado o la línea actual en la consola"
    assert lab.gettext("Collapse Selected Outputs") != lab.gettext("Collapse All Outputs")
    datos = json.loads((completar.carpeta_del_paquete() / "jupyterlab.json").read_text(encoding="utf-8"))
    assert datos["menu\x04Run"] == ["Ejecutar"] and datos["Idle"] == ["Inactivo"]


def test_completar_se_repite_sin_cambios_y_sobrevive_a_una_reinstalacion(tmp_path):
    carpeta = tmp_path / "LC_MESSAGES"
    shutil.copytree(completar.carpeta_del_paquete(), carpeta)
    # Como recién instalado por pip: los ficheros del paquete, sin mezclar.
    for original in carpeta.glob("*.original"):
        original.replace(carpeta / original.name.removesuffix(".original"))
    paquete = (carpeta / "jupyterlab.mo").read_bytes()
    assert completar.completar(carpeta) > 0
    # Nada de la hora en lo mezclado (babel pondría la de ahora como fecha de creación): otra vez, al
    # minuto siguiente, saldrían otros bytes.
    with (carpeta / "jupyterlab.mo.original").open("rb") as f, (carpeta / "jupyterlab.mo").open("rb") as g:
        assert read_mo(g).creation_date.replace(tzinfo=None) == read_mo(f).revision_date.replace(tzinfo=None)
    mezclado = {f.name: f.read_bytes() for f in carpeta.iterdir()}
    assert completar.completar(carpeta) == 0, "la segunda vez no debe reescribir nada"
    assert (carpeta / "jupyterlab.mo.original").read_bytes() == paquete
    # pip reinstala el paquete: vuelven sus ficheros y la siguiente ejecución deja lo mismo.
    shutil.copy(carpeta / "jupyterlab.mo.original", carpeta / "jupyterlab.mo")
    shutil.copy(carpeta / "jupyterlab.json.original", carpeta / "jupyterlab.json")
    completar.completar(carpeta)
    assert {f.name: f.read_bytes() for f in carpeta.iterdir()} == mezclado


def test_el_paquete_de_los_estudiantes_lleva_la_traduccion(tmp_path):
    import zipfile

    from course import paquete

    with zipfile.ZipFile(paquete.construir(destino=tmp_path)) as z:
        nombres = set(z.namelist())
    base = paquete.NOMBRE + "/traduccion/"
    assert {base + "completar.py", base + "jupyterlab.po", base + "notebook.po"} <= nombres


# --------------------------------------------------------------------------- make lab, en Chromium

ESPERA = 120


# El espacio de trabajo de siempre de un usuario que ya ha usado JupyterLab en otro sitio: un fichero del
# repositorio y el formgrader abiertos. `make lab` no debe volver a abrir ninguno de los dos.
ESPACIO_VIEJO = {"data": {"layout-restorer:data": {"main": {"dock": {
    "type": "tab-area", "currentIndex": 0, "widgets": ["editor:README.md", "nbgrader-formgrader:nbgrader-formgrader"]}}},
    "editor:README.md": {"data": {"path": "README.md", "factory": "Editor"}},
    "nbgrader-formgrader:nbgrader-formgrader": {"data": {}}}, "metadata": {"id": "default"}}


@pytest.fixture(scope="module")
def make_lab(procesos, tmp_path_factory):
    """Lo que arranca `make lab` (python -m course.lab), sin abrir navegador, con sus ajustes de usuario y su
    espacio de trabajo (los del entorno, que elige course.lab). La configuración de Jupyter del usuario
    (JUPYTER_CONFIG_DIR) es una de prueba, con ESPACIO_VIEJO como espacio de trabajo de siempre."""
    import navegador as nv
    from jupyterlab_server.workspaces_handler import slugify

    privado = tmp_path_factory.mktemp("make-lab")
    espacios = privado / "config" / "lab" / "workspaces"
    espacios.mkdir(parents=True)
    (espacios / (slugify("default") + ".jupyterlab-workspace")).write_text(json.dumps(ESPACIO_VIEJO))
    entorno = dict(os.environ, JUPYTER_CONFIG_DIR=str(privado / "config"), JUPYTER_RUNTIME_DIR=str(privado / "runtime"))
    for propia in ("JUPYTER_TOKEN", "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR"):
        entorno.pop(propia, None)
    with nv.lab_de_una_orden([sys.executable, "-m", "course.lab", "--no-browser"], RAIZ, entorno,
                             "make lab") as (_, base, ruta, token):
        yield f"{base}{ruta}?token={token}"


def test_make_lab_es_el_jupyterlab_de_un_estudiante(make_lab, navegador):
    """`make lab` abre lo mismo que el empezar.py del paquete: sin formgrader, sin la barra de crear tareas ni
    menú «Curso» de corregir, y en su propio espacio de trabajo: no vuelve a abrir nada del de siempre."""
    base, token = make_lab.split("/lab/")[0], make_lab.rsplit("=", 1)[1]
    for ruta in ("/formgrader", "/formgrader/api/status", "/courses"):
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(f"{base}{ruta}?token={token}", timeout=10)
        assert error.value.code == 404, ruta
    pagina = navegador.new_page(viewport={"width": 1400, "height": 900})
    preguntas = []  # lo que pide la página al servidor de nbgrader: en el JupyterLab del estudiante, nada
    pagina.on("request", lambda p: preguntas.append(p.url) if re.search(r"/(courses|formgrader)\b", p.url) else None)
    try:
        pagina.goto(make_lab)
        pagina.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=ESPERA * 1000)
        # Con el núcleo libre, JupyterLab ya ha restaurado el espacio de trabajo.
        pagina.locator(".jp-StatusBar-Widget", has_text="Inactivo").first.wait_for(timeout=ESPERA * 1000)
        pestanas = [t.strip() for t in pagina.locator("#jp-main-dock-panel .lm-TabBar-tab").all_inner_texts()]
        assert pestanas == ["errores-como-observaciones.ipynb"], pestanas
        laterales = pagina.locator(".jp-SideBar .lm-TabBar-tab").evaluate_all("ts => ts.map(t => t.dataset.id)")
        assert "nbgrader-create_assignemnt" not in laterales, laterales
        assert not pagina.locator("#curso-harness-menu, .lm-MenuBar-itemLabel:text-is('Curso')").count()
        # Ni pregunta por las tareas o el formgrader: cada 404 saldría, en inglés, en la terminal del estudiante.
        assert preguntas == [], preguntas
    finally:
        pagina.close()


def test_make_lab_traduce_el_editor_de_configuracion(make_lab):
    """El servidor traduce los esquemas de ajustes (el editor de configuración) con el idioma de
    los ajustes de usuario: course.lab lo deja elegido en los del entorno."""
    base, token = make_lab.split("/lab/")[0], make_lab.rsplit("=", 1)[1]
    with urllib.request.urlopen(f"{base}/lab/api/settings/@jupyterlab/cell-toolbar-extension:plugin"
                                f"?token={token}", timeout=10) as r:
        esquema = json.loads(r.read().decode())["schema"]
    assert esquema["title"] == _instalado().pgettext("schema", "Cell Toolbar") != "Cell Toolbar", esquema["title"]
    titulos = {nombre: propiedad.get("title") for nombre, propiedad in esquema["properties"].items()}
    assert titulos["showToolbar"] == _instalado().pgettext("settings", "Show cell toolbar") != "Show cell toolbar", titulos


def _etiquetas_del_menu(pagina):
    """Las etiquetas del menú abierto y de sus submenús (cada submenú se abre al pasar por encima)."""
    vistas = pagina.locator(".lm-Menu:visible .lm-Menu-itemLabel").all_inner_texts()
    submenus = pagina.locator(".lm-Menu:visible li.lm-Menu-item[data-type='submenu']")
    for i in range(submenus.count()):
        try:
            submenus.nth(i).hover(timeout=2000)
            pagina.wait_for_timeout(400)
            vistas += pagina.locator(".lm-Menu:visible .lm-Menu-itemLabel").all_inner_texts()
        except Exception:  # un submenú que se cierra al abrir otro: sus etiquetas ya están vistas
            pass
    return vistas


def test_make_lab_muestra_menus_y_estados_en_espanol(make_lab, navegador):
    import navegador as nv

    ingles = de_jupyterlab() | de_nbgrader(sys.prefix)
    vistas = {}
    pagina = navegador.new_page(viewport={"width": 1400, "height": 900})
    preguntas = []  # lo que pide la página al servidor de nbgrader: en el JupyterLab del estudiante, nada
    pagina.on("request", lambda p: preguntas.append(p.url) if re.search(r"/(courses|formgrader)\b", p.url) else None)
    try:
        pagina.goto(make_lab)
        pagina.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=ESPERA * 1000)
        # El núcleo arranca y queda libre: su estado se lee en la barra de estado.
        pagina.locator(".jp-StatusBar-Widget", has_text="Inactivo").first.wait_for(timeout=ESPERA * 1000)
        barra = pagina.locator("#jp-menu-panel .lm-MenuBar-itemLabel").all_inner_texts()
        # Sin «Curso» ni «Nbgrader»: es el JupyterLab de un estudiante (el «Curso» del profesor: test_hub.py).
        assert barra == ["Archivo", "Editar", "Ver", "Ejecutar", "Kernel", "Pestañas", "Configuración", "Ayuda"], barra
        elementos = pagina.locator("#jp-menu-panel .lm-MenuBar-item")
        for i, titulo in enumerate(barra):
            elementos.nth(i).click()
            vistas[f"menú {titulo}"] = _etiquetas_del_menu(pagina)
            pagina.keyboard.press("Escape")
            pagina.keyboard.press("Escape")
        pagina.locator(".jp-NotebookPanel .jp-Cell").first.click(button="right")
        vistas["menú contextual de una celda"] = _etiquetas_del_menu(pagina)
        pagina.keyboard.press("Escape")
        pagina.locator(".jp-DirListing-item").first.click(button="right")
        vistas["menú contextual del explorador"] = _etiquetas_del_menu(pagina)
        pagina.keyboard.press("Escape")
        vistas["barra de estado"] = pagina.locator(".jp-StatusBar-Widget").all_inner_texts()
        vistas["explorador de archivos"] = pagina.locator(".jp-DirListing-header").all_inner_texts()
        # Las ayudas de los botones llevan el atajo detrás: «Cortar esta celda (X)».
        vistas["ayudas de los botones"] = [re.sub(r"\s*\([^()]*\)$", "", t or "") for t in
                                           pagina.locator(".jp-Toolbar [title], .lm-TabBar-tab[title]")
                                           .evaluate_all("els => els.map(e => e.title)")]
        noticias = pagina.locator(".jp-Notification-Toast-info, .Toastify__toast").count()
    except Exception:
        nv.guardar_artefactos("test_idioma-make_lab", pagina)
        raise
    finally:
        pagina.close()
    en_ingles = {donde: sorted({t for texto in textos for t in texto.split("\n") if t.strip() in ingles})
                 for donde, textos in vistas.items()}
    en_ingles = {donde: textos for donde, textos in en_ingles.items() if textos}
    assert not en_ingles, f"textos en inglés: {en_ingles}"
    todo = "\n".join(t for textos in vistas.values() for t in textos)
    for espanol in ("Modo: Comando", "Modificado", "Cortar la celda", "Ejecutar todas las celdas", "Abrir con",
                    "Cerrar todas las pestañas", "Documentación de Python", "Habilitar el depurador", "Más comandos"):
        assert espanol in todo, f"falta «{espanol}»"
    assert noticias == 0, "no debe salir la ventana de noticias"


@pytest.mark.usefixtures("procesos")
def test_jupyter_lab_a_secas_es_el_del_profesor(tmp_path):
    """`jupyter lab` sin más, en el .venv de `make install` y desde la raíz de un curso (README, paso 6):
    en español (también el editor de configuración), sin noticias, con el formgrader y sin su aviso
    de que falta el intercambio. Sobre una copia del curso: el formgrader crea su gradebook."""
    import secrets
    import signal
    import subprocess
    import time

    import navegador as nv

    (tmp_path / "curso").mkdir()
    curso = nv.copiar_curso(tmp_path / "curso")
    puerto, token = nv.puerto_libre(), secrets.token_hex(16)
    entorno = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
                   JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "espacios"))
    for propia in ("JUPYTER_TOKEN", "JUPYTERLAB_SETTINGS_DIR", "JUPYTER_CONFIG_DIR"):
        entorno.pop(propia, None)
    orden = [os.path.join(os.path.dirname(sys.executable), "jupyter"), "lab", "--no-browser",
             f"--ServerApp.port={puerto}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}"]
    if os.geteuid() == 0:
        orden.append("--allow-root")
    proceso = subprocess.Popen(orden, cwd=curso, env=entorno, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.STDOUT, start_new_session=True)

    def pedir(ruta):
        with urllib.request.urlopen(f"http://127.0.0.1:{puerto}{ruta}?token={token}", timeout=30) as r:
            return r.read().decode()

    try:
        limite = time.monotonic() + ESPERA
        while True:
            try:
                pedir("/api/status")
                break
            except OSError:
                assert proceso.poll() is None and time.monotonic() < limite, "jupyter lab no ha arrancado"
                time.sleep(0.5)
        idioma = json.loads(pedir("/lab/api/settings/@jupyterlab/translation-extension:plugin"))
        assert idioma["settings"]["locale"] == "es_ES", idioma["settings"]
        avisos = json.loads(pedir("/lab/api/settings/@jupyterlab/apputils-extension:notification"))
        assert avisos["schema"]["properties"]["fetchNews"]["default"] == "false"
        esquema = json.loads(pedir("/lab/api/settings/@jupyterlab/cell-toolbar-extension:plugin"))["schema"]
        assert esquema["title"] != "Cell Toolbar", esquema["title"]
        formgrader = pedir("/formgrader/manage_assignments")
        assert 'id="warning-' not in formgrader, "el formgrader avisa de algo (¿falta el intercambio?)"
    finally:
        os.killpg(proceso.pid, signal.SIGINT)
        try:
            proceso.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proceso.pid, signal.SIGKILL)
