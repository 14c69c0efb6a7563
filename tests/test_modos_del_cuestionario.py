"""Los dos modos del cuestionario, de principio a fin con nbgrader de verdad.

Para cada modo se monta un curso temporal con `c.Cuestionario.modo` puesto, se genera la tarea,
se entregan unos cuadernos, se corrigen con `nbgrader autograde` (en la jaula, como siempre), se
genera la retroalimentación y se mira el gradebook, la release y el HTML.

- formativo: widgets con la clave en su celda; el cuestionario no puntúa (máximo 12).
- calificado: celdas respuesta-N / pregunta-N que decide el corrector (máximo 16); ni la release
  ni `harness` dejan ver la clave.
"""

import html as htmllib
import re
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from course import CUADERNO, RAIZ, TAREA, gradebook
from course import informe
from course.cuestionario import IMPORTA, PREGUNTAS, respuestas_del_cuaderno
from course.entregas import escribir_entrega, soluciones
from cursos import nbgrader
from harness.aula.cuestionario import RESPUESTA_MIME
from nucleos import validar

BUENAS = soluciones(nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4))
MALAS = {"respuesta-1": 'respuesta_1 = "a"', "respuesta-2": 'respuesta_2 = "d"',
         "respuesta-3": "respuesta_3 = True", "respuesta-4": 'respuesta_4 = "a, b, d"'}


def _textos_de_la_clave():
    """Las frases que delatarían la clave: cada explicación y cada idea del cuestionario."""
    return [t for p in PREGUNTAS.values() for t in [p["idea"], *p["explicaciones"].values()]]


@pytest.fixture(scope="module", params=["formativo", "calificado"])
def curso(request, publicado, tmp_path_factory):
    modo = request.param
    raiz = publicado(tmp_path_factory.mktemp(modo), modo)
    release = raiz / "release" / TAREA / CUADERNO
    entregas = {"todo-bien": BUENAS, "cuestionario-mal": dict(BUENAS, **MALAS),
                "sin-contestar": {}, "comprobado": BUENAS}
    for estudiante, respuestas in entregas.items():
        escribir_entrega(release, respuestas, raiz / "submitted" / estudiante / TAREA)
    _comprobar_en_los_widgets(raiz / "submitted" / "comprobado" / TAREA / CUADERNO)
    for orden in (["autograde", TAREA, "--force"], ["generate_feedback", TAREA, "--force"]):
        hecho = nbgrader(raiz, *orden)
        assert hecho.returncode == 0, hecho.stdout[-3000:] + hecho.stderr[-5000:]
    notas = {}
    with Gradebook(gradebook(raiz)) as gb:
        celdas = {c.name: c.max_score for c in gb.find_notebook(TAREA, TAREA).grade_cells}
        for estudiante in entregas:
            envio = gb.find_submission(TAREA, estudiante)
            notas[estudiante] = (envio.score, envio.max_score,
                                 {g.name: g.score for g in gb.find_submission_notebook(TAREA, TAREA, estudiante).grades})
    return {"modo": modo, "raiz": raiz, "release": release, "celdas": celdas, "notas": notas}


# Lo que deja JupyterLab en la salida de cada widget del cuestionario al pulsar «Comprobar» y guardar
# (tests/test_navegador.py y tests/test_lite.py lo ven en un navegador de verdad), y dos registros falsos.
COMPROBADAS = {1: ["b"], 3: [False], 4: ["a", "d"]}
FALSOS = [{"pregunta": True, "respuesta": ["c"]}, {"pregunta": 2, "respuesta": ["z"]}, {"pregunta": 9, "respuesta": []}]


def _comprobar_en_los_widgets(ruta):
    nb = nbformat.read(ruta, as_version=4)
    for celda in nb.cells:
        n = celda.metadata.get("cuestionario")
        if celda.cell_type == "code" and n in PREGUNTAS:
            datos = {"text/plain": "Pregunta %d del cuestionario" % n, "text/html": "<div>la copia</div>",
                     "application/vnd.jupyter.widget-view+json": {"model_id": "x%d" % n, "version_major": 2,
                                                                  "version_minor": 0}}
            registros = [{"pregunta": n, "respuesta": COMPROBADAS[n]}] if n in COMPROBADAS else FALSOS
            celda.outputs = [nbformat.v4.new_output("display_data", data=dict(datos, **{RESPUESTA_MIME: r}))
                             for r in registros]
    nbformat.write(nb, ruta)


def _retroalimentacion(curso, estudiante):
    html = (curso["raiz"] / "feedback" / estudiante / TAREA / (TAREA + ".html")).read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", html)


def test_la_release_es_valida_y_lleva_el_cuestionario_del_modo(curso):
    release = nbformat.read(curso["release"], as_version=4)
    nbformat.validate(release)
    preguntas = sorted(c for c in curso["celdas"] if c.startswith("pregunta-"))
    widgets = [c for c in release.cells if c.cell_type == "code" and re.match(r"# Pregunta \d, formativa", c.source)]
    [importa] = [c.source for c in release.cells if c.get("id") == "cuestionario-importa"]
    if curso["modo"] == "calificado":
        assert preguntas == ["pregunta-%d" % n for n in PREGUNTAS] and not widgets
        assert all(curso["celdas"][p] == 1 for p in preguntas)
        assert importa == IMPORTA["calificado"]
    else:
        assert preguntas == [] and len(widgets) == len(PREGUNTAS)
        assert all(c.metadata["jupyter"]["source_hidden"] for c in widgets)
        assert importa == IMPORTA["formativo"] == "from harness.aula.cuestionario import pregunta"


def test_la_clave_solo_la_ve_el_estudiante_en_modo_formativo(curso):
    release = nbformat.read(curso["release"], as_version=4)
    # Lo que un estudiante tiene a mano: su cuaderno y el paquete harness.
    alcanzable = "".join(c.source for c in release.cells) + "".join(
        p.read_text(encoding="utf-8") for p in (RAIZ / "harness").glob("*.py"))
    escondidas = [t for t in _textos_de_la_clave() if t not in alcanzable and repr(t) not in alcanzable]
    if curso["modo"] == "calificado":
        assert escondidas == _textos_de_la_clave()
        assert not [c.source for c in release.cells if "corregir(" in c.source or "course." in c.source]
    else:
        assert escondidas == [p["idea"] for p in PREGUNTAS.values()]  # la idea clave va solo en la corrección


def test_las_notas_de_cada_modo(curso):
    ejecutar = sum(m for c, m in curso["celdas"].items() if c.startswith("ejecutar-"))
    cuestionario = len(PREGUNTAS) if curso["modo"] == "calificado" else 0
    assert ejecutar == 12
    assert curso["notas"]["todo-bien"][:2] == (ejecutar + cuestionario, ejecutar + cuestionario)
    assert curso["notas"]["sin-contestar"][0] == 0
    puntos, maximo, por_celda = curso["notas"]["cuestionario-mal"]
    if curso["modo"] == "calificado":
        # 1, 3 y 4 mal (la 4, a todo o nada); la 2 bien.
        assert {c: v for c, v in por_celda.items() if c.startswith("pregunta-")} == {
            "pregunta-1": 0, "pregunta-2": 1, "pregunta-3": 0, "pregunta-4": 0}
        assert puntos == ejecutar + 1
    else:
        assert puntos == maximo == ejecutar


def html_a_texto(html):
    """El texto que se lee en una página (sin etiquetas del resaltado de código ni entidades)."""
    return htmllib.unescape(re.sub(r"<[^>]+>", "", html))


def test_la_retroalimentacion_sin_nucleo_enseña_preguntas_respuestas_y_explicaciones(curso):
    html = _retroalimentacion(curso, "cuestionario-mal")
    for p in PREGUNTAS.values():
        assert p["enunciado"].split("`")[0].strip() in html
    if curso["modo"] == "calificado":
        texto = html_a_texto(html)
        assert 'respuesta_1 = "a"' in texto and 'respuesta_4 = "a, b, d"' in texto  # lo que contestó el estudiante
        assert "has respondido la a" in html and "Idea clave" in html
        for explicacion in (PREGUNTAS[1]["explicaciones"]["a"], PREGUNTAS[2]["explicaciones"]["d"]):
            assert explicacion.split("`")[0][:60].lower() in texto.lower()
    else:
        # La copia estática de cada widget: opciones y explicaciones (en la corrección nadie ha pulsado nada).
        assert html.count("Sin comprobar.") == len(PREGUNTAS)
        leido = html_a_texto(html)
        for p in PREGUNTAS.values():
            for explicacion in p["explicaciones"].values():
                assert explicacion.replace("`", "") in leido


def test_respuestas_del_cuaderno_lee_lo_que_lee_el_corrector(curso):
    entregado = nbformat.read(curso["raiz"] / "submitted" / "cuestionario-mal" / TAREA / CUADERNO, as_version=4)
    leidas = respuestas_del_cuaderno(entregado)
    assert set(leidas) == set(PREGUNTAS)
    if curso["modo"] == "calificado":
        assert leidas == {1: "a", 2: "d", 3: True, 4: frozenset("abd")}
    else:
        assert leidas == dict.fromkeys(PREGUNTAS)  # nadie ha pulsado «Comprobar» en este cuaderno


def test_validate_de_la_release_sin_contestar(curso, tmp_path):
    copia = tmp_path / CUADERNO
    copia.write_bytes(curso["release"].read_bytes())
    fallos = [f["source"] for f in validar(copia).get("failed", [])]
    esperados = 2 + (len(PREGUNTAS) if curso["modo"] == "calificado" else 0)  # y las dos pruebas visibles del desafío
    assert len(fallos) == esperados, fallos
    assert sum("bucle(" in f for f in fallos) == 1 and sum("DiscoQueFalla" in f for f in fallos) == 1


def test_lo_comprobado_en_el_cuestionario_formativo_llega_al_informe(curso):
    """Lo que el estudiante comprobó con cada widget sigue en su cuaderno corregido (que se rehace sobre el de
    release y se vuelve a ejecutar) y el informe de la clase lo cuenta, con la buena marcada; 0 puntos.
    Los registros falsos (otra pregunta, otra opción, un booleano por número) no cuentan."""
    corregido = nbformat.read(curso["raiz"] / "autograded" / "comprobado" / TAREA / CUADERNO, as_version=4)
    leidas = respuestas_del_cuaderno(corregido)
    if curso["modo"] == "calificado":  # aquí cuentan las celdas de respuesta, y no hay widgets
        assert leidas == {1: "c", 2: "d", 3: False, 4: frozenset("ad")}
        return
    assert leidas == {1: "b", 2: None, 3: False, 4: frozenset("ad")}
    assert curso["notas"]["comprobado"][0] == curso["notas"]["todo-bien"][0]  # no cambia la nota
    html = informe.escribir_informe(curso["raiz"]).read_text(encoding="utf-8")
    cuentas = re.findall(r"<p class='cuenta'>(.*?)</p>", html)
    assert cuentas == ["(sin contestar): 3 · b: 1", "(sin contestar): 4", "(sin contestar): 3 · ✔ falso: 1",
                       "(sin contestar): 3 · ✔ a: 1 · ✔ d: 1"], cuentas
