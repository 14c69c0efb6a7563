"""El formgrader de nbgrader, en español y con las notas del CSV, en JupyterLab y en un Chromium de verdad.

Una clase corregida con `make grade` (course/corregir.py) en un curso temporal, con roster y fecha de
entrega: quien entrega bien y a tiempo, quien entrega a medias, quien entrega tarde (el descuento por
retraso), un cuaderno roto (no se corrige) y quien no entrega. El profesor abre el formgrader desde el
menú Curso de JupyterLab y recorre cada página, con sus ventanas: ni un texto inglés de nbgrader
(tests/ingles.py), y cada nota es la de exports/notas.csv. Pone una nota a mano, que llega al gradebook
y, exportada otra vez, al CSV, y el formgrader sigue diciendo lo mismo que el CSV. La barra «Crear
tarea» está en español y dice sobre cuántos puntos será la nota.

Sin procesos (nivel rápido): las huellas de lo que se usa de nbgrader, que cada cadena del catálogo
de sus guiones esté en ellos, las plantillas pintadas en español y los puntos de la versión publicada.

La maquinaria (servidor, navegador, artefactos de los fallos) es la de navegador.py y conftest.py.
Solo esta prueba: `.venv/bin/python -m pytest tests/test_formgrader.py -v`.
"""

import csv
import hashlib
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from nbgrader.api import Gradebook

import ingles
import navegador as nv
from course import CUADERNO, RAIZ, TAREA, corregir, formgrader, gradebook
from course import informe as informe_
from course.entregas import escribir_entrega, leer_ejemplo
from cursos import MAXIMO, MAXIMO_CALIFICADO, nbgrader

# La clase: (ejemplo de course/ejemplos cuyas respuestas entrega, hora de la entrega). Tomás entrega las de
# Carla dos días tarde: nbgrader le da 10 de 12 y el CSV, con el descuento de un punto por día, 8. Luisa
# entrega las de Bruno, que apenas puntúan, tres días tarde: su descuento (3) pasa de sus puntos.
PLAZO = "2026-03-01 22:59:00 UTC"
CLASE = {"ana": ("ana", "2026-03-01 10:00:00 UTC"), "carla": ("carla", "2026-03-01 11:00:00 UTC"),
         "tomas": ("carla", "2026-03-03 10:00:00 UTC"), "luisa": ("bruno", "2026-03-04 10:00:00 UTC")}
TARDE, ROTA, SIN_ENTREGA, MUY_TARDE, DIAS_MUY_TARDE = "tomas", "rota", "nadie", "luisa", 3
ROSTER = [("ana", "Ana", "García"), ("carla", "Carla", "Ruiz"), ("tomas", "Tomás", "Tarde"), ("rota", "Rosa", "Roto"),
          ("nadie", "Nadia", "Ausente"), ("luisa", "Luisa", "Lenta")]
PRUEBA = "ejecutar-guiones"  # vale dos puntos
# Lo que se puede leer tal cual en una página en español: nombres de programas, de ficheros y de opciones.
NOMBRES_PROPIOS = {"nbgrader", "nbgrader_config.py", "course_id", "MathJax", "Markdown", "JupyterHub", "Jupyter"}
MATHJAX_MINIMO = """window.MathJax = {Hub: {Queue: function () {}, Config: function () {}, Configured: function () {},
  Startup: {signal: {Interest: function (f) { setTimeout(function () { f("End"); }, 0); }}}}};"""


# =========================================================================== sin procesos

def _instalado(relativa):
    import nbgrader as nbg

    return Path(nbg.__file__).parent / relativa


def test_lo_que_se_usa_de_nbgrader_no_ha_cambiado():
    """Si nbgrader cambia uno de estos ficheros, hay que revisar lo nuestro (course/formgrader/__init__.py,
    ORIGINALES dice qué) y apuntar su huella nueva."""
    huellas = {r: hashlib.sha256(_instalado(r).read_bytes()).hexdigest() if _instalado(r).exists() else "no está"
               for r in formgrader.ORIGINALES}
    assert huellas == formgrader.ORIGINALES


def test_cada_cadena_del_catalogo_esta_en_su_guion():
    guiones = formgrader.guiones_de_nbgrader()
    assert set(formgrader.catalogo()) <= {p.name for p in guiones.glob("*.js")}
    for nombre in formgrader.catalogo():
        traducido, faltan = formgrader.traducir(nombre, (guiones / nombre).read_text(encoding="utf-8"))
        assert faltan == [], (nombre, faltan)
    # Los valores de estado que compara el guion no se traducen: solo lo que se pinta.
    asignaciones = formgrader.guion("manage_assignments.js")[0].decode()
    assert 'status === "draft"' in asignaciones and '.text("sin publicar")' in asignaciones


def _ingles_del_formgrader():
    enteros, trozos = ingles.de_formgrader(sys.prefix)
    return enteros - NOMBRES_PROPIOS, trozos


class _SinElCuaderno(ingles._Textos):
    """Los textos de una página sin lo que es del cuaderno (su código, sus salidas, su Markdown): solo lo de nbgrader."""

    DEL_CUADERNO = {"highlight", "output_area", "text_cell_render"}
    VACIAS = {"br", "hr", "img", "input", "link", "meta", "source", "wbr", "col", "area", "base", "embed", "param"}

    def __init__(self):
        super().__init__()
        self._dentro = 0

    def handle_starttag(self, etiqueta, atributos):
        if etiqueta in self.VACIAS:
            if not self._dentro:
                super().handle_starttag(etiqueta, atributos)
            return
        if self._dentro or self.DEL_CUADERNO & set((dict(atributos).get("class") or "").split()):
            self._dentro += 1
            return
        super().handle_starttag(etiqueta, atributos)

    def handle_endtag(self, etiqueta):
        if self._dentro and etiqueta not in self.VACIAS:
            self._dentro -= 1
        else:
            super().handle_endtag(etiqueta)

    def handle_data(self, datos):
        if not self._dentro:
            super().handle_data(datos)


def _textos_de_html(html):
    lector = _SinElCuaderno()
    lector.feed(html)
    return lector.textos


def test_las_plantillas_se_pintan_en_espanol():
    """Cada plantilla nuestra, pintada con el entorno que pone la extensión, sin un texto inglés de las de nbgrader
    y pidiendo solo guiones que existen."""
    from jinja2 import FileSystemLoader
    from nbgrader.server_extensions.formgrader import handlers

    entorno = formgrader.entorno_de_plantillas(FileSystemLoader([handlers.template_path]))
    variables = dict(base_url="/b", url_prefix=".", windows=False, course_id="curso", exchange="/x", exchange_missing=True,
                     current_config="{}", default_timezone="+0000", course_dir="/c", assignment_id=TAREA,
                     notebook_id=TAREA, student_id="ana", error_code=500,
                     resources=dict(base_url="/b", assignment_id=TAREA, notebook_id=TAREA, submission_id="x", index=0,
                                    total=3, student="ana", last_name="García", first_name="Ana", notebook_path="p",
                                    filename="/c/autograded/ana/x.ipynb"))
    enteros, trozos = _ingles_del_formgrader()
    plantillas = sorted(p.name for p in formgrader.PLANTILLAS.glob("*.tpl"))
    for nombre in plantillas:
        html = entorno.get_template(nombre).render(**variables)
        assert ingles.a_la_vista_con_trozos(_textos_de_html(html), enteros, trozos) == [], nombre
        for guion in re.findall(r'src="/b%s/([^"]+)"' % formgrader.GUIONES, html):
            assert formgrader.guion(guion) is not None, (nombre, guion)
        if nombre.startswith(("manage", "gradebook")):
            assert 'id="main-table"' in html and 'lang="es"' in html, nombre
        if nombre == "formgrade_404.tpl":  # nada que corregir: sin formgrade.js, que espera el MathJax de corregir
            assert "/formgrade.js" not in html and "Entrega 1 de 3" in html
    # Las páginas que pinta nbgrader son todas nuestras.
    de_nbgrader = {p.name for p in Path(handlers.template_path).glob("*.tpl")}
    assert de_nbgrader <= set(plantillas)


def test_la_pagina_de_corregir_se_pinta_en_espanol():
    """La plantilla de nbconvert de la página de corregir, sobre el cuaderno de source/ (con sus celdas de nbgrader)."""
    exportador = formgrader.pagina_de_corregir(None)
    recursos = dict(base_url="/b", assignment_id=TAREA, notebook_id=TAREA, submission_id="x", index=1, total=3,
                    student="ana", last_name="García", first_name="Ana", notebook_path="p")
    html, _ = exportador.from_filename(str(RAIZ / "source" / TAREA / CUADERNO), resources=recursos)
    enteros, trozos = _ingles_del_formgrader()
    textos = _textos_de_html(html)
    assert ingles.a_la_vista_con_trozos(textos, enteros, trozos) == []
    assert not [t for t in textos if re.match(r"\s*(In|Out)\s*\[", t)]
    for espanol in ("Respuesta del estudiante", "Todos los puntos", "Ningún punto", "Siguiente →", "← Anterior",
                    "Entrega 2 de 3"):
        assert espanol in html, espanol
    assert 'class="score tabbable" id="%s"' % PRUEBA in html


def test_la_pagina_de_corregir_no_ejecuta_nada_de_la_entrega():
    """Una entrega con un script en su Markdown, en una salida HTML y en una salida JavaScript: la página del
    profesor no lleva ninguno (solo los suyos, los del formgrader)."""
    nb = nbformat.read(RAIZ / "release" / TAREA / CUADERNO, as_version=4)
    trampa = "<script>window.robado = document.cookie</script><img src=x onerror='window.robado = 1'>"
    nb.cells.append(nbformat.v4.new_markdown_cell("hola " + trampa))
    nb.cells.append(nbformat.v4.new_code_cell("x", outputs=[
        nbformat.v4.new_output("display_data", {"text/html": trampa, "text/plain": "x"}),
        nbformat.v4.new_output("display_data", {"application/javascript": "window.robado = 2", "text/plain": "x"})]))
    recursos = dict(base_url="/b", assignment_id=TAREA, notebook_id=TAREA, submission_id="x", index=0, total=1,
                    student="ana", last_name=None, first_name=None, notebook_path="p")
    html, _ = formgrader.pagina_de_corregir(None).from_notebook_node(nb, resources=recursos)
    assert "robado" not in html and "onerror" not in html
    assert "hola" in html


def test_la_version_publicada_vale_los_puntos_de_la_nota():
    """Con el cuestionario formativo las celdas pregunta-N no se publican: la nota es sobre menos puntos que los
    que suman las celdas de source/. cursos.py los cuenta por su cuenta, de los grade_id."""
    from traitlets.config import Config

    celdas = nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4).cells
    formativo = formgrader.puntos_publicados(celdas, Config({"Cuestionario": {"modo": "formativo"}}))
    calificado = formgrader.puntos_publicados(celdas, Config({"Cuestionario": {"modo": "calificado"}}))
    assert calificado == {"puntos": MAXIMO_CALIFICADO, "en_el_cuaderno": MAXIMO_CALIFICADO, "fuera": [], "modo": "calificado"}
    assert formativo["puntos"] == MAXIMO_CALIFICADO - sum(c["puntos"] for c in formativo["fuera"])
    assert formativo["en_el_cuaderno"] == MAXIMO_CALIFICADO
    assert [c["grade_id"] for c in formativo["fuera"]] == ["pregunta-%d" % n for n in range(1, 5)]
    assert formgrader.puntos_publicados(celdas)["puntos"] == MAXIMO  # la configuración por defecto, la del curso


@pytest.fixture(scope="module")
def un_gradebook(tmp_path_factory, procesos):
    """Un gradebook de nbgrader de verdad (al crearlo, nbgrader lanza alembic) con una tarea de un cuaderno y una
    prueba de 4 puntos, con plazo."""
    import datetime

    db = "sqlite:///%s" % (tmp_path_factory.mktemp("gradebook") / "gradebook.db")
    plazo = datetime.datetime(2026, 3, 1, 22, 59)
    with Gradebook(db) as gb:
        gb.add_assignment("t", duedate=plazo)
        gb.add_notebook("n", "t")
        gb.add_grade_cell("p", "n", "t", max_score=4, cell_type="code")
    return db, plazo, iter(range(10**6))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(automatica=st.integers(0, 4), a_mano=st.one_of(st.none(), st.integers(0, 4)), dias=st.integers(0, 6))
def test_el_descuento_por_retraso_va_con_la_nota_de_ahora(un_gradebook, automatica, a_mano, dias):
    """nbgrader pone el descuento al corregir, y no más de los puntos de entonces. Con una nota puesta a mano después
    (más alta o más baja), descuentos_al_dia lo vuelve a poner como lo pondría nbgrader con la nota de ahora: un
    gradebook de nbgrader de verdad y su AssignLatePenalties con el complemento del curso. Cada ejemplo, con un
    estudiante nuevo; los de los ejemplos anteriores ya están al día."""
    import datetime

    from nbgrader.preprocessors import AssignLatePenalties
    from traitlets.config import Config

    from course.estado import descuento_que_cuenta, descuentos_al_dia, nota_con_descuento

    db, plazo, numeros = un_gradebook
    config = Config({"AssignLatePenalties": {"plugin_class": "course.complementos.DescuentoPorRetraso"}})
    yo = "e%d" % next(numeros)
    with Gradebook(db) as gb:
        gb.add_student(yo)
        gb.add_submission("t", yo, timestamp=plazo + datetime.timedelta(days=dias, minutes=-1 if dias else -30))
        gb.find_grade("p", "n", "t", yo).auto_score = automatica
        gb.db.commit()
    recursos = {"nbgrader": {"notebook": "n", "assignment": "t", "student": yo, "db_url": db}}
    AssignLatePenalties(config=config).preprocess(nbformat.v4.new_notebook(), recursos)  # como al corregir
    with Gradebook(db) as gb:
        assert gb.find_submission("t", yo).late_submission_penalty == min(automatica, dias)
        gb.find_grade("p", "n", "t", yo).manual_score = a_mano
        gb.db.commit()
    puntos = automatica if a_mano is None else a_mano
    with Gradebook(db) as gb:  # antes de ponerlo al día, el descuento no pasa de los puntos de ahora
        assert descuento_que_cuenta(gb.find_submission("t", yo)) == min(puntos, automatica, dias)
    cambiados = descuentos_al_dia(db, "t", config)
    with Gradebook(db) as gb:
        entrega = gb.find_submission("t", yo)
        assert (entrega.score, descuento_que_cuenta(entrega), nota_con_descuento(entrega)) == (
            puntos, min(puntos, dias), max(0, puntos - dias))
    assert cambiados == ([yo] if min(puntos, dias) != min(automatica, dias) else [])
    assert descuentos_al_dia(db, "t", config) == []  # ya al día


# =========================================================================== la clase, en el navegador

@pytest.fixture(scope="module")
def curso(tmp_path_factory, chromium):
    base = tmp_path_factory.mktemp("formgrader")
    raiz = base / "curso"
    raiz.mkdir()
    nv.copiar_curso(raiz)
    nv.preparar_ajustes(base / "privado")
    with open(raiz / "roster.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([("id", "first_name", "last_name"), *ROSTER])
    for orden in (["db", "student", "import", "roster.csv"], ["db", "assignment", "add", TAREA, "--duedate=" + PLAZO]):
        hecho = nbgrader(raiz, *orden)
        assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    for estudiante, (ejemplo, hora) in CLASE.items():
        carpeta = raiz / "submitted" / estudiante / TAREA
        escribir_entrega(raiz / "release" / TAREA / CUADERNO,
                         leer_ejemplo(corregir.EJEMPLOS / (ejemplo + ".toml"))["respuestas"], carpeta)
        (carpeta / "timestamp.txt").write_text(hora, encoding="utf-8")
    rota = raiz / "submitted" / ROTA / TAREA
    rota.mkdir(parents=True)
    (rota / CUADERNO).write_text('{"cells": [ esto no es un cuaderno', encoding="utf-8")
    bien, _ = corregir.corregir_clase(raiz, trabajos=2, informe=False)
    assert bien
    return raiz


@pytest.fixture(scope="module")
def servidor(curso):
    with nv.Servidor(curso, curso.parent / "privado") as srv:
        yield srv


def _csv(curso):
    with open(curso / "exports" / "notas.csv", newline="", encoding="utf-8") as f:
        return {fila["student_id"]: fila for fila in csv.DictReader(f) if fila["assignment"] == TAREA}


def _abrir_formgrader(pagina, servidor):
    # Sin red, el MathJax que la página de corregir pide a un CDN no llega y su código de inicio se
    # corta a medias: se sirve uno mínimo, que solo avisa de que ha cargado.
    pagina.context.route("**/mathjax/**", lambda ruta: ruta.fulfill(body=MATHJAX_MINIMO,
                                                                   content_type="application/javascript"))
    errores = []
    pagina.on("pageerror", lambda e: errores.append(str(e)))
    pagina.goto(f"{servidor.url}/lab?token={servidor.token}&reset", wait_until="domcontentloaded")
    pagina.wait_for_selector("#jp-main-dock-panel", timeout=nv.ESPERA_UI * 1000)
    nv.ejecutar_orden_del_menu(pagina, "curso-harness:formgrader")  # el menú Curso (course/extension/)
    return _marco(pagina), errores


def _marco(pagina):
    """El iframe del formgrader dentro de JupyterLab (la labextension le pone id formgrader-iframe)."""
    pagina.locator("#formgrader-iframe iframe").wait_for(state="attached")
    limite = time.monotonic() + nv.ESPERA_UI
    while time.monotonic() < limite:  # el iframe existe antes de empezar a cargar su página
        for marco in pagina.frames:
            if "/formgrader" in marco.url:
                return marco
        pagina.wait_for_timeout(200)  # no time.sleep: Playwright solo atiende sus eventos dentro de sus llamadas
    raise AssertionError("JupyterLab no ha abierto el formgrader: %s" % [m.url for m in pagina.frames])


def _ir(marco, servidor, ruta):
    """Abre una página del formgrader en su iframe y espera a que nbgrader haya pintado su tabla."""
    from playwright.sync_api import expect

    marco.goto(f"{servidor.url}/formgrader/{ruta}")
    tabla = marco.locator("#main-table")
    if tabla.count():
        expect(tabla).not_to_contain_text("Cargando", timeout=nv.ESPERA_UI * 1000)


# Cada texto a la vista, por separado (el de un botón no se junta con el del de al lado), y los de ayuda y de
# accesibilidad. Sin lo que es del cuaderno en la página de corregir: su código, sus salidas y su Markdown.
_A_LA_VISTA = """() => {
  const delCuaderno = '.highlight, .output_area, .text_cell_render';
  const textos = [];
  const recorrido = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = recorrido.nextNode(); n; n = recorrido.nextNode()) {
    const e = n.parentElement;
    if (n.textContent.trim() && e && e.getClientRects().length && !e.closest(delCuaderno) &&
        !['SCRIPT', 'STYLE'].includes(e.tagName) && getComputedStyle(e).visibility !== 'hidden') {
      textos.push(n.textContent);
    }
  }
  for (const e of document.querySelectorAll('[title], [placeholder], [aria-label], [data-original-title]')) {
    for (const a of ['title', 'placeholder', 'aria-label', 'data-original-title']) {
      if (e.getAttribute(a)) textos.push(e.getAttribute(a));
    }
  }
  return textos;
}"""


def _lo_visible(marco):
    """Los textos a la vista, uno por uno, y el título de la pestaña."""
    return [marco.title(), *marco.evaluate(_A_LA_VISTA)]


def _en_ingles(textos):
    enteros, trozos = _ingles_del_formgrader()
    return ingles.a_la_vista_con_trozos(textos, enteros, trozos)


def _numero(texto):
    return float(texto.replace(".", "").replace(",", ".")) if "," in texto else float(texto)


NOTA = re.compile(r"^([\d.,]+) / ([\d.,]+)(?: \(([\d.,]+) − ([\d.,]+) por retraso\))?$")


def _nota_como_en_el_csv(celda, fila):
    """La nota de una celda del formgrader dice lo mismo que la fila del CSV de ese estudiante."""
    celda = " ".join(celda.split())
    if fila["estado"] == "corregido":
        m = NOTA.match(celda)
        assert m, (fila["student_id"], celda)
        nota, maximo, puntos, descuento = (None if g is None else _numero(g) for g in m.groups())
        assert (nota, maximo) == (float(fila["score"]), float(fila["max_score"])), (fila["student_id"], celda)
        assert (puntos, descuento) == ((float(fila["raw_score"]), float(fila["late_submission_penalty"]))
                                       if float(fila["late_submission_penalty"]) else (None, None)), (fila["student_id"], celda)
    elif fila["estado"] == "no corregido":
        assert celda.startswith("no corregido") and fila["motivo"] in celda, (fila["student_id"], celda)
        assert not re.search(r"\d / \d", celda), (fila["student_id"], celda)  # ni un 0 / 12
    else:
        assert celda == "sin entrega", (fila["student_id"], celda)


def _filas(marco, clave, columna):
    """{texto de la celda `clave`: texto de la celda `columna`} de la tabla de la página."""
    return dict(zip(marco.locator(f"#main-table td.{clave}").all_inner_texts(),
                    marco.locator(f"#main-table td.{columna}").all_inner_texts()))


def test_cada_pagina_del_formgrader_en_espanol_y_con_las_notas_del_csv(pagina, servidor, curso):
    from playwright.sync_api import expect

    notas = _csv(curso)
    assert notas[TARDE]["estado"] == "corregido" and float(notas[TARDE]["late_submission_penalty"]) > 0
    assert notas[ROTA]["estado"] == "no corregido" and notas[SIN_ENTREGA]["estado"] == "sin entrega"
    marco, errores = _abrir_formgrader(pagina, servidor)
    vistas = {}

    # «Tareas», con sus dos paneles abiertos, y las ventanas de añadir una tarea y de editar la que hay.
    expect(marco.locator("#main-table")).to_contain_text(TAREA, timeout=nv.ESPERA_UI * 1000)
    for panel in ("#collapseOne", "#collapseConfig"):
        marco.locator(f"a[href='{panel}']").click()
        expect(marco.locator(panel)).to_be_visible()
    assert marco.locator("#main-table td.status").inner_text() == "sin publicar"
    vistas["Tareas"] = _lo_visible(marco)
    for abrir, ventana in (("a[onclick*='createAssignmentModal']", "#add-assignment-modal"),
                           ("#main-table td.edit a", "#edit-assignment-modal")):
        marco.locator(abrir).click()
        expect(marco.locator(ventana)).to_be_visible()
        vistas[ventana] = _lo_visible(marco)
        marco.locator(f"{ventana} button.btn-danger").click()
        expect(marco.locator(ventana)).to_have_count(0)

    # Las entregas de la tarea: estado y nota de cada una, como en el CSV.
    _ir(marco, servidor, f"manage_submissions/{TAREA}")
    vistas["Entregas"] = _lo_visible(marco)
    entregas = _filas(marco, "student-id", "score")
    assert set(entregas) == set(CLASE) | {ROTA}
    for estudiante, celda in entregas.items():
        if notas[estudiante]["estado"] == "no corregido":
            estado = _filas(marco, "student-id", "status")[estudiante]
            assert estado == "no corregido" and celda == notas[estudiante]["motivo"], (estado, celda)
        else:
            _nota_como_en_el_csv(celda, notas[estudiante])

    # «Estudiantes»: toda la clase, quien no entrega también; y las ventanas de añadir y de editar.
    _ir(marco, servidor, "manage_students")
    vistas["Estudiantes"] = _lo_visible(marco)
    clase = _filas(marco, "id", "score")
    assert set(clase) == set(notas)
    for estudiante, celda in clase.items():
        _nota_como_en_el_csv(celda, notas[estudiante])
    nombres = dict(zip(marco.locator("#main-table td.id").all_inner_texts(),
                       marco.locator("#main-table td.name").all_inner_texts()))
    assert nombres[TARDE] == "Tarde, Tomás"
    for abrir, ventana in (("a[onclick*='createStudentModal']", "#add-student-modal"),
                           ("#main-table td.edit a", "#edit-student-modal")):
        marco.locator(abrir).first.click()
        expect(marco.locator(ventana)).to_be_visible()
        vistas[ventana] = _lo_visible(marco)
        marco.locator(f"{ventana} button.btn-danger").click()
        expect(marco.locator(ventana)).to_have_count(0)

    # Un estudiante: sus tareas y sus cuadernos; el que llegó tarde y el del cuaderno roto.
    for estudiante in (TARDE, ROTA, SIN_ENTREGA):
        _ir(marco, servidor, f"manage_students/{estudiante}")
        vistas[f"Estudiantes › {estudiante}"] = _lo_visible(marco)
        _nota_como_en_el_csv(_filas(marco, "name", "score")[
            TAREA + {"no corregido": " (no corregido)", "sin entrega": " (sin entrega)"}.get(notas[estudiante]["estado"], "")],
            notas[estudiante])
    _ir(marco, servidor, f"manage_students/{TARDE}/{TAREA}")
    vistas["Estudiantes › la tarea de uno"] = _lo_visible(marco)
    _nota_como_en_el_csv(_filas(marco, "name", "score")[TAREA], notas[TARDE])

    # «Corregir a mano»: la media de la tarea (la de las corregidas, como el informe), sus cuadernos y sus entregas.
    corregidas = [float(f["score"]) for f in notas.values() if f["estado"] == "corregido"]
    media = "%s / %s" % tuple(f"{x:.2f}".rstrip("0").rstrip(".").replace(".", ",")
                              for x in (sum(corregidas) / len(corregidas), float(notas[TARDE]["max_score"])))
    _ir(marco, servidor, "gradebook")
    vistas["Corregir a mano"] = _lo_visible(marco)
    assert _filas(marco, "name", "score")[TAREA].startswith(media + " (%d corregidas)" % len(corregidas))
    _ir(marco, servidor, f"gradebook/{TAREA}")
    vistas["Corregir a mano › la tarea"] = _lo_visible(marco)
    assert _filas(marco, "name", "avg-score")[CUADERNO.removesuffix(".ipynb")].startswith(media)
    _ir(marco, servidor, f"gradebook/{TAREA}/{CUADERNO.removesuffix('.ipynb')}")
    vistas["Corregir a mano › las entregas"] = _lo_visible(marco)
    marco.locator("#toggle_names").click()
    expect(marco.locator("#toggle_names")).to_have_text("Ocultar todos los nombres")
    vistas["Corregir a mano › las entregas, con los nombres"] = _lo_visible(marco)
    por_nombre = {"%s, %s" % (f["last_name"], f["first_name"]): f for f in notas.values()}
    filas = marco.locator("#main-table tr")
    assert filas.count() == len(CLASE)
    for i in range(filas.count()):
        nombre = filas.nth(i).locator("td.name a.name-shown").inner_text()
        _nota_como_en_el_csv(filas.nth(i).locator("td.score").inner_text(), por_nombre[nombre])

    # La página de corregir la entrega del que llegó tarde: su nota arriba, las ayudas y los atajos de teclado.
    with Gradebook(gradebook(curso)) as gb:
        id_tarde = gb.find_submission_notebook(CUADERNO.removesuffix(".ipynb"), TAREA, TARDE).id
    marco.goto(f"{servidor.url}/formgrader/submissions/{id_tarde}")
    expect(marco.locator("#curso-nota")).to_contain_text("nota de la entrega", timeout=nv.ESPERA_UI * 1000)
    _nota_como_en_el_csv(marco.locator("#curso-nota").inner_text().split("nota de la entrega:")[1], notas[TARDE])
    expect(marco.locator(f"input.score#{PRUEBA}")).to_have_attribute("placeholder", re.compile(r"\d"))
    vistas["La entrega de uno"] = _lo_visible(marco)
    marco.locator(".help").click()
    expect(marco.locator("#help-dialog")).to_be_visible()
    vistas["Atajos de teclado"] = _lo_visible(marco)
    assert "Ctrl + Mayús + F" in marco.locator("#help-dialog").inner_text()

    # La entrega de alguien cuyo cuaderno corregido ya no está en autograded/: la página que lo dice.
    with Gradebook(gradebook(curso)) as gb:
        id_ana = gb.find_submission_notebook(CUADERNO.removesuffix(".ipynb"), TAREA, "ana").id
    corregido = curso / "autograded" / "ana" / TAREA / CUADERNO
    apartado = corregido.rename(corregido.with_suffix(".apartado"))
    try:
        marco.goto(f"{servidor.url}/formgrader/submissions/{id_ana}")
        expect(marco.locator("#notebook-container")).to_contain_text("No está el cuaderno corregido",
                                                                     timeout=nv.ESPERA_UI * 1000)
        vistas["La entrega de uno, sin su cuaderno corregido"] = _lo_visible(marco)
    finally:
        apartado.rename(corregido)

    # Generar la versión de los estudiantes desde «Tareas»: la ventana de lo hecho (sin el registro de
    # nbgrader, que es lo que escribe nbgrader tal cual, como en una terminal).
    _ir(marco, servidor, "manage_assignments")
    marco.locator("#main-table td.assign a").click()
    expect(marco.locator("#success-modal")).to_be_visible(timeout=nv.ESPERA_UI * 1000)
    vistas["Generar: hecho"] = _ventana_sin_registro(marco, "#success-modal")
    _cerrar(marco, "#success-modal")

    # Los botones de cada entrega: generar la retroalimentación de una, publicarla (sin intercambio del hub,
    # la ventana de error dice por qué y qué hacer) y «Corregir» el cuaderno roto, que nbgrader corrige como
    # sin contestar: sigue «no corregido» en cada página, como en el CSV.
    _ir(marco, servidor, f"manage_submissions/{TAREA}")
    for boton, estudiante, ventana in (("generate-feedback", "ana", "#success-modal"), ("release-feedback", "ana", "#error-modal"),
                                       ("autograde", ROTA, "#success-modal")):
        marco.locator(f"#main-table tr:has(td.student-id:text-is('{estudiante}')) td.{boton} a").click()
        expect(marco.locator(ventana)).to_be_visible(timeout=nv.ESPERA_UI * 1000)
        vistas[f"{boton} de {estudiante}"] = _ventana_sin_registro(marco, ventana)
        if ventana == "#error-modal":
            expect(marco.locator(f"{ventana} .curso-porque")).to_contain_text("LMS")
        _cerrar(marco, ventana)
    expect(marco.locator(f"#main-table tr:has(td.student-id:text-is('{ROTA}')) td.status")).to_have_text("no corregido")
    _ir(marco, servidor, f"gradebook/{TAREA}/{CUADERNO.removesuffix('.ipynb')}")
    marco.locator("#toggle_names").click()
    filas = marco.locator("#main-table tr")
    assert filas.count() == len(CLASE) + 1  # la rota, ya en el gradebook
    for i in range(filas.count()):
        _nota_como_en_el_csv(filas.nth(i).locator("td.score").inner_text(),
                             por_nombre[filas.nth(i).locator("td.name a.name-shown").inner_text()])
    vistas["Corregir a mano › las entregas, con la rota"] = _lo_visible(marco)

    en_ingles = {donde: _en_ingles(textos) for donde, textos in vistas.items()}
    assert {donde: t for donde, t in en_ingles.items() if t} == {}
    assert errores == [], errores


def _ventana_sin_registro(marco, ventana):
    """Los textos a la vista de una ventana de lo hecho o de error, sin lo que ha escrito nbgrader (su registro y
    el error de Python, tal cual, como en una terminal): el título, lo que dice, los rótulos y el botón."""
    return [marco.locator(f"{ventana} .modal-title").inner_text(),
            *marco.locator(f"{ventana} .modal-body p").all_inner_texts(),
            *marco.locator(f"{ventana} .panel-heading").all_inner_texts(),
            marco.locator(f"{ventana} .modal-footer").inner_text()]


def _cerrar(marco, ventana):
    from playwright.sync_api import expect

    marco.locator(f"{ventana} .modal-footer button").click()
    expect(marco.locator(ventana)).to_have_count(0)


def test_la_barra_crear_tarea_en_espanol_y_sobre_los_puntos_de_la_nota(pagina, servidor, curso):
    from playwright.sync_api import expect

    maximo = float(_csv(curso)[TARDE]["max_score"])  # sobre lo que es la nota, en el CSV
    pagina.goto(servidor.abrir(f"source/{TAREA}/{CUADERNO}"))
    nv.esperar_cuaderno(pagina)
    nv.ejecutar_orden_del_menu(pagina, "curso-harness:crear-tarea")  # el menú Curso
    barra = pagina.locator("#nbgrader-create_assignemnt")
    expect(barra.locator(".nbgrader-CellWidget").first).to_be_visible(timeout=nv.ESPERA_UI * 1000)
    sobre = barra.locator(".curso-puntos-de-la-nota .curso-sobre")
    expect(sobre).to_have_text("La nota será sobre %g puntos." % maximo, timeout=nv.ESPERA_UI * 1000)
    fuera = barra.locator(".curso-puntos-de-la-nota .curso-fuera").inner_text()
    assert "suman %g" % MAXIMO_CALIFICADO in fuera and "pregunta-4" in fuera and "formativo" in fuera, fuera
    assert barra.locator(".nbgrader-TotalPointsInput").input_value() == "%g" % MAXIMO_CALIFICADO
    textos = [barra.inner_text(), *barra.locator("option").all_inner_texts(),
              *barra.locator("[title]").evaluate_all("els => els.map(e => e.title)")]
    conocidas = ingles.de_nbgrader(sys.prefix) - NOMBRES_PROPIOS
    assert ingles.a_la_vista(textos, conocidas) == []
    assert "Respuesta corregida automáticamente" in barra.locator("option").all_inner_texts()
    assert "Tipo:" in barra.inner_text() and "Puntos:" in barra.inner_text()


def test_el_profesor_pone_una_nota_a_mano_y_el_formgrader_sigue_diciendo_lo_del_csv(pagina, servidor, curso):
    from playwright.sync_api import expect

    marco, _ = _abrir_formgrader(pagina, servidor)
    with Gradebook(gradebook(curso)) as gb:
        nota = gb.find_grade(PRUEBA, CUADERNO.removesuffix(".ipynb"), TAREA, TARDE)
        id_entrega, automatica, antes = nota.notebook.id, nota.auto_score, gb.find_submission(TAREA, TARDE).score
        assert nota.manual_score is None
    marco.goto(f"{servidor.url}/formgrader/submissions/{id_entrega}")
    casilla = marco.locator(f"input.score#{PRUEBA}")
    expect(casilla).to_have_attribute("placeholder", "%g" % automatica, timeout=nv.ESPERA_UI * 1000)
    nueva = 0.5 if automatica != 0.5 else 1.5
    casilla.fill("%g" % nueva)
    casilla.press("Tab")

    def en_el_gradebook():
        with Gradebook(gradebook(curso)) as gb:
            assert gb.find_grade(PRUEBA, CUADERNO.removesuffix(".ipynb"), TAREA, TARDE).manual_score == nueva
            assert gb.find_submission(TAREA, TARDE).score == antes - automatica + nueva

    nv.esperar_en_disco(en_el_gradebook)
    hecho = nbgrader(curso, "export")  # el CSV de `make grade`, otra vez
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    fila = _csv(curso)[TARDE]
    assert float(fila["raw_score"]) == antes - automatica + nueva
    # La nota de arriba se ha releído al guardar; la lista de entregas, al abrirla.
    expect(marco.locator("#curso-nota")).to_contain_text("%s / " % f"{float(fila['score']):g}".replace(".", ","))
    _ir(marco, servidor, f"manage_submissions/{TAREA}")
    _nota_como_en_el_csv(_filas(marco, "student-id", "score")[TARDE], fila)


def test_una_nota_a_mano_de_quien_entrego_tarde_sigue_llevando_su_descuento(pagina, servidor, curso):
    """Luisa entrega tres días tarde casi sin puntos. El profesor le da todos los puntos a mano: el descuento de sus
    tres días se le resta igual (no el que cabía en los puntos de la corrección), en el formgrader, en el CSV y en
    su retroalimentación."""
    from playwright.sync_api import expect

    with Gradebook(gradebook(curso)) as gb:
        cuaderno = gb.find_submission_notebook(CUADERNO.removesuffix(".ipynb"), TAREA, MUY_TARDE)
        id_entrega, antes = cuaderno.id, cuaderno.score
        pruebas = [(g.name, g.max_score) for g in cuaderno.grades if g.max_score and (g.score or 0) < g.max_score]
    assert antes < DIAS_MUY_TARDE and pruebas, (antes, pruebas)
    assert float(_csv(curso)[MUY_TARDE]["score"]) == 0
    marco, _ = _abrir_formgrader(pagina, servidor)
    marco.goto(f"{servidor.url}/formgrader/submissions/{id_entrega}")
    expect(marco.locator("#curso-nota")).to_contain_text("nota de la entrega", timeout=nv.ESPERA_UI * 1000)
    for prueba, puntos in pruebas:
        casilla = marco.locator(f"input.score#{prueba}")
        casilla.fill("%g" % puntos)
        casilla.press("Tab")

    def todos_los_puntos():
        with Gradebook(gradebook(curso)) as gb:
            assert gb.find_submission(TAREA, MUY_TARDE).score == MAXIMO

    nv.esperar_en_disco(todos_los_puntos)
    expect(marco.locator("#curso-nota")).to_contain_text(
        "%g / %g (%g − %g por retraso)" % (MAXIMO - DIAS_MUY_TARDE, MAXIMO, MAXIMO, DIAS_MUY_TARDE))
    # Lo que dice el README tras poner una nota a mano: make informe. La retroalimentación de quien tiene algo a
    # mano, las notas, el informe y lo del LMS, otra vez y con la misma nota.
    hecho = subprocess.run([sys.executable, "-m", "course.informe", str(curso), "--tarea", TAREA], cwd=curso,
                           capture_output=True, text=True)
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    assert re.search(r"quien tiene algo puesto a mano: .*\b%s\b" % MUY_TARDE, hecho.stdout), hecho.stdout
    fila = _csv(curso)[MUY_TARDE]
    assert [float(fila[c]) for c in ("raw_score", "late_submission_penalty", "score")] == [
        MAXIMO, DIAS_MUY_TARDE, MAXIMO - DIAS_MUY_TARDE], fila
    retro = (curso / "feedback" / MUY_TARDE / TAREA / CUADERNO.replace(".ipynb", ".html")).read_text(encoding="utf-8")
    resumen = " ".join(re.sub(r"<[^>]+>", " ", retro.split('id="resumen"')[1].split("</table>")[0]).split())
    assert "%s: %g de %g puntos" % (CUADERNO.removesuffix(".ipynb"), MAXIMO - DIAS_MUY_TARDE, MAXIMO) in resumen, resumen
    assert "Penalización por entregar tarde −%g" % DIAS_MUY_TARDE in resumen, resumen
    informe = (curso / "exports" / "informe.html").read_text(encoding="utf-8")
    suya = re.search(r'<tr id="%s">(.*?)</tr>' % re.escape(informe_.ancla(MUY_TARDE)), informe, re.S).group(1)
    celdas = [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in re.findall(r"<td[^>]*>(.*?)</td>", suya, re.S)]
    assert celdas[2] == "%g" % (MAXIMO - DIAS_MUY_TARDE) and celdas[4:6] == ["%d" % DIAS_MUY_TARDE] * 2, celdas
