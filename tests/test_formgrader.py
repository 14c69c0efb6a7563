"""El formgrader de nbgrader, en JupyterLab y en un Chromium de verdad, sobre una clase corregida.

Un curso temporal con dos entregas corregidas por `make grade` (course/corregir.py); el profesor
abre el formgrader desde el menú Curso de JupyterLab, ve la tarea, la clase y las entregas,
abre una y pone a mano la nota de una prueba. La nota nueva tiene que llegar al gradebook.

La maquinaria (servidor, navegador, artefactos de los fallos) es la de navegador.py y conftest.py.
Solo esta prueba: `.venv/bin/python -m pytest tests/test_formgrader.py -v`.
"""

import time

import pytest
from nbgrader.api import Gradebook

import navegador as nv
from course import CUADERNO, TAREA, corregir, gradebook
from course.entregas import escribir_entrega, leer_ejemplo

CLASE = ("ana", "carla")
PRUEBA = "ejecutar-guiones"  # vale dos puntos
MATHJAX_MINIMO = """window.MathJax = {Hub: {Queue: function () {}, Config: function () {}, Configured: function () {},
  Startup: {signal: {Interest: function (f) { setTimeout(function () { f("End"); }, 0); }}}}};"""


@pytest.fixture(scope="module")
def curso(tmp_path_factory, chromium):
    base = tmp_path_factory.mktemp("formgrader")
    raiz = base / "curso"
    raiz.mkdir()
    nv.copiar_curso(raiz)
    nv.preparar_ajustes(base / "privado")
    for estudiante in CLASE:
        escribir_entrega(raiz / "release" / TAREA / CUADERNO,
                         leer_ejemplo(corregir.EJEMPLOS / (estudiante + ".toml"))["respuestas"],
                         raiz / "submitted" / estudiante / TAREA)
    bien, _ = corregir.corregir_clase(raiz, trabajos=2, informe=False)
    assert bien
    return raiz


@pytest.fixture(scope="module")
def servidor(curso):
    with nv.Servidor(curso, curso.parent / "privado") as srv:
        yield srv


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


def _nota_a_mano(curso, estudiante):
    """(nota a mano, nota automática) de la prueba PRUEBA y la nota total de la entrega, del gradebook."""
    with Gradebook(gradebook(curso)) as gb:
        nota = gb.find_grade(PRUEBA, TAREA, TAREA, estudiante)
        return nota.manual_score, nota.auto_score, gb.find_submission(TAREA, estudiante).score


def test_el_profesor_ve_la_clase_y_cambia_una_nota_a_mano(pagina, servidor, curso):
    from playwright.sync_api import expect

    # Sin red, el MathJax que la página de corregir pide a un CDN no llega y su código de
    # inicio se corta a medias: se sirve uno mínimo, que solo avisa de que ha cargado.
    pagina.context.route("**/*MathJax.js*", lambda ruta: ruta.fulfill(body=MATHJAX_MINIMO,
                                                                      content_type="application/javascript"))
    pagina.goto(f"{servidor.url}/lab?token={servidor.token}&reset", wait_until="domcontentloaded")
    pagina.wait_for_selector("#jp-main-dock-panel", timeout=nv.ESPERA_UI * 1000)
    nv.ejecutar_orden_del_menu(pagina, "curso-harness:formgrader")  # el menú Curso (course/extension/)
    marco = _marco(pagina)

    # La tarea, en «Manage Assignments».
    expect(marco.locator("body")).to_contain_text(TAREA, timeout=nv.ESPERA_UI * 1000)

    # La clase: los dos estudiantes, en «Manage Students».
    marco.goto(f"{servidor.url}/formgrader/manage_students")
    for estudiante in CLASE:
        expect(marco.locator("body")).to_contain_text(estudiante, timeout=nv.ESPERA_UI * 1000)

    # Las entregas del cuaderno, en «Manual Grading»; se abre una.
    marco.goto(f"{servidor.url}/formgrader/gradebook/{TAREA}/{TAREA}")
    enlaces = marco.locator("a.name-hidden")
    expect(enlaces).to_have_count(len(CLASE), timeout=nv.ESPERA_UI * 1000)
    enlaces.first.click()
    marco.wait_for_url("**/formgrader/submissions/**")
    id_entrega = marco.url.rstrip("/").split("/")[-1]
    with Gradebook(gradebook(curso)) as gb:
        estudiante = gb.find_submission_notebook_by_id(id_entrega).student.id
    assert estudiante in CLASE
    antes_manual, automatica, antes_total = _nota_a_mano(curso, estudiante)
    assert antes_manual is None

    # La casilla enseña la nota automática; el profesor pone medio punto a mano.
    casilla = marco.locator(f"input.score#{PRUEBA}")
    expect(casilla).to_have_attribute("placeholder", "%g" % automatica, timeout=nv.ESPERA_UI * 1000)
    casilla.fill("0.5")
    casilla.press("Tab")

    def en_el_gradebook():
        manual, _, total = _nota_a_mano(curso, estudiante)
        assert manual == 0.5, manual
        assert total == antes_total - automatica + 0.5, (total, antes_total, automatica)

    nv.esperar_en_disco(en_el_gradebook)
