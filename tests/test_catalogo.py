"""El catálogo de entregas de `ejecutar`, corregido con `nbgrader autograde` de verdad.

Cada fichero de tests/catalogo/ es lo que un estudiante escribiría en la celda de respuesta
`ejecutar`. Su docstring dice en la primera línea qué hace; en la línea `esperado:`, cuántos puntos
merece en cada celda de prueba `ejecutar-*`; y, si el corrector no le da eso, en una línea
`discrepancia: CELDAS | motivo` en qué celdas y por qué creemos que se equivoca el corrector
(esas celdas se comprueban aparte, como fallos esperados, y avisan cuando el corrector cambia).

El módulo monta un curso temporal, genera la tarea, entrega un cuaderno por fichero (con el
cuestionario bien contestado, sacado de las soluciones del cuaderno fuente) y unos pocos con el
cuestionario cambiado, corrige todo con una sola llamada a `nbgrader autograde` y compara con
las notas del gradebook.
"""

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import nbformat
import pytest
from nbgrader.api import Gradebook

from course import CUADERNO, RAIZ, TAREA
from course.entregas import escribir_entrega, soluciones
from cursos import modo_del_cuestionario

CATALOGO = Path(__file__).resolve().parent / "catalogo"
NBGRADER = Path(sys.executable).with_name("nbgrader")
PREGUNTAS = ["pregunta-%d" % n for n in range(1, 5)]
ESQUELETO = ("# TU CÓDIGO AQUÍ", 'raise NotImplementedError("falta tu respuesta: escríbela en lugar de esta línea")')  # el code_stub de nbgrader_config.py


class Entrega(NamedTuple):
    codigo: str          # la celda de respuesta entera, tal cual
    descripcion: str     # qué hace, en una línea
    esperado: dict       # grade_id → puntos que merece
    discrepancias: dict  # grade_id → por qué el corrector no le da lo esperado


def leer_entrega(fichero):
    codigo = fichero.read_text()
    cabecera = codigo.split('"""')[1]
    esperado = re.search(r"^esperado:(.*)$", cabecera, re.M).group(1).split()
    discrepancias = {}
    for celdas, motivo in re.findall(r"^discrepancia:([^|]*)\|(.*)$", cabecera, re.M):
        discrepancias.update({"ejecutar-" + c: motivo.strip() for c in celdas.split()})
    return Entrega(codigo, cabecera.strip().splitlines()[0],
                   {"ejecutar-" + k: float(v) for k, v in (p.split("=") for p in esperado)}, discrepancias)


ENTREGAS = {f.stem: leer_entrega(f) for f in sorted(CATALOGO.glob("*.py"))}
# Los intentos de trampa (tests/trampas/), corregidos en la misma pasada que las entregas honestas.
# Entregan el cuestionario sin contestar: de una trampa se espera un 0 en todo.
TRAMPAS = {"trampa_" + f.stem: leer_entrega(f) for f in sorted((CATALOGO.parent / "trampas").glob("*.py"))}
PUERTOS_ESPIA = range(8888, 8898)  # los que prueba tests/trampas/red.py


def _espia():
    """Un puerto de escucha en la máquina del profesor, el primero libre de los que prueba la trampa de red."""
    for puerto in PUERTOS_ESPIA:
        with contextlib.suppress(OSError):
            return socket.create_server(("127.0.0.1", puerto))
    pytest.skip("ningún puerto libre entre %d y %d para la trampa de red" % (PUERTOS_ESPIA[0], PUERTOS_ESPIA[-1]))


def _celdas(cuaderno):
    """grade_id → celda, para las celdas de nbgrader del cuaderno."""
    return {c.metadata["nbgrader"]["grade_id"]: c for c in cuaderno.cells
            if "grade_id" in c.metadata.get("nbgrader", {})}


def _sin_cabecera(codigo):
    """La entrega sin su docstring: lo que queda en la celda si el estudiante no la hubiera escrito."""
    return codigo.split('"""', 2)[2].lstrip("\n")


def _respuestas_buenas():
    """respuesta-N → (fuente de la solución sin las marcas de nbgrader, valor de respuesta_N)."""
    todas = soluciones(nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4))
    buenas = {}
    for n in range(1, 5):
        nombres = {}
        exec(todas["respuesta-%d" % n], nombres)
        buenas["respuesta-%d" % n] = (todas["respuesta-%d" % n], nombres["respuesta_%d" % n])
    return buenas


def _cuestionarios_cambiados(buenas):
    """Estudiantes con el `ejecutar` correcto y una respuesta cambiada: id → (respuestas, notas del cuestionario)."""
    q1, q4 = buenas["respuesta-1"][1], buenas["respuesta-4"][1]
    a_medias = set(sorted(q4)[1:]) if len(q4) > 1 else q4 | {next(l for l in "abcd" if l not in q4)}
    return {
        "cuestionario-1-mal": ({"respuesta-1": "respuesta_1 = %r" % ("a" if q1 != "a" else "b")}, {"pregunta-1": 0}),
        "cuestionario-4-a-medias": ({"respuesta-4": "respuesta_4 = %r" % a_medias}, {"pregunta-4": 0}),
        "cuestionario-1-mayuscula": ({"respuesta-1": "respuesta_1 = %r" % q1.upper()}, {"pregunta-1": 1}),
    }


def _nbgrader(curso, *argumentos):
    orden = [str(NBGRADER), *argumentos, "--CourseDirectory.root=%s" % curso]
    # nbgrader lanza `alembic` por su nombre al crear el gradebook: el bin del venv tiene que estar en PATH.
    entorno = dict(os.environ, PATH=os.pathsep.join([str(NBGRADER.parent), os.environ.get("PATH", "")]))
    salida = subprocess.run(orden, cwd=curso, env=entorno, capture_output=True, text=True, timeout=1800)
    assert salida.returncode == 0, "nbgrader %s ha fallado:\n%s\n%s" % (
        " ".join(argumentos), salida.stdout[-3000:], salida.stderr[-5000:])


def _avisa(request, linea):
    """Escribe en la terminal aunque pytest esté capturando la salida."""
    captura = request.config.pluginmanager.getplugin("capturemanager")
    with captura.global_and_fixture_disabled() if captura else contextlib.nullcontext():
        print(linea, flush=True)


@pytest.fixture(scope="module")
def corregido(tmp_path_factory, request):
    """Monta el curso, entrega todo y lo corrige una sola vez; devuelve las notas y dónde está todo."""
    curso = tmp_path_factory.mktemp("curso")
    shutil.copy(RAIZ / "nbgrader_config.py", curso)
    modo_del_cuestionario(curso, "calificado")  # el cuestionario también lo decide el corrector de confianza
    shutil.copytree(RAIZ / "source", curso / "source")
    _nbgrader(curso, "generate_assignment", TAREA, "--force")
    ruta_release = curso / "release" / TAREA / CUADERNO
    release = nbformat.read(ruta_release, as_version=4)

    def entregar(estudiante, respuestas):
        escribir_entrega(ruta_release, respuestas, curso / "submitted" / estudiante / TAREA)

    buenas = _respuestas_buenas()
    cuestionario = {grade_id: fuente for grade_id, (fuente, _) in buenas.items()}
    todo_bien = dict.fromkeys(PREGUNTAS, 1.0)
    esperado = {}
    for estudiante, entrega in ENTREGAS.items():
        entregar(estudiante, dict(cuestionario, ejecutar=_sin_cabecera(entrega.codigo)))
        esperado[estudiante] = dict(entrega.esperado, **todo_bien)
    correcto = ENTREGAS["correcto_try_except"]
    for estudiante, (cambios, notas) in _cuestionarios_cambiados(buenas).items():
        entregar(estudiante, dict(cuestionario, ejecutar=_sin_cabecera(correcto.codigo), **cambios))
        esperado[estudiante] = dict(correcto.esperado, **dict(todo_bien, **notas))
    sin_contestar = dict.fromkeys(PREGUNTAS, 0.0)
    for estudiante, trampa in TRAMPAS.items():
        entregar(estudiante, {"ejecutar": _sin_cabecera(trampa.codigo)})
        esperado[estudiante] = dict(trampa.esperado, **sin_contestar)
    # Un cuestionario tramposo: respuestas que se declaran iguales a cualquier cosa.
    igual_a_todo = ("class _Todo(str):\n    __eq__ = lambda self, otro: True\n    __hash__ = str.__hash__\n"
                    "    lower = strip = lambda self: self\n")
    entregar("trampa_cuestionario_igual_a_todo", dict(
        {"respuesta-%d" % n: igual_a_todo + "respuesta_%d = _Todo('a')" % n for n in range(1, 5)},
        ejecutar=_sin_cabecera(correcto.codigo)))
    esperado["trampa_cuestionario_igual_a_todo"] = dict(correcto.esperado, **sin_contestar)

    espia = _espia()
    espia.settimeout(0)
    inicio = time.monotonic()
    _nbgrader(curso, "autograde", TAREA, "--force")
    segundos = time.monotonic() - inicio
    try:
        espia.accept()
        conexiones = 1
    except (BlockingIOError, OSError):
        conexiones = 0
    espia.close()
    _avisa(request, "\nnbgrader autograde: %d cuadernos en %.0f s (%.1f s por cuaderno)"
           % (len(esperado), segundos, segundos / len(esperado)))

    notas, totales = {}, {}
    with Gradebook("sqlite:///%s" % (curso / "gradebook.db")) as gb:
        maximos = {c.name: c.max_score for c in gb.find_notebook(TAREA, TAREA).grade_cells}
        for estudiante in esperado:
            notas[estudiante] = {g.name: g.score for g in gb.find_submission_notebook(TAREA, TAREA, estudiante).grades}
            envio = gb.find_submission(TAREA, estudiante)
            totales[estudiante] = (envio.score, envio.max_score)
    return {"curso": curso, "release": release, "esperado": esperado, "notas": notas,
            "totales": totales, "maximos": maximos, "conexiones": conexiones}


def _salida_de_error(corregido, estudiante, celda):
    cuaderno = nbformat.read(corregido["curso"] / "autograded" / estudiante / TAREA / CUADERNO, as_version=4)
    return [o for o in _celdas(cuaderno)[celda].outputs if o.output_type == "error"]


# El catálogo en sí

def test_el_catalogo_tiene_variedad():
    correctos = [e for e in ENTREGAS if e.startswith("correcto_")]
    malos = [e for e in ENTREGAS if e.startswith("mal_")]
    assert len(correctos) >= 8 and len(malos) >= 15 and len(correctos) + len(malos) == len(ENTREGAS)
    for estudiante, entrega in ENTREGAS.items():
        assert entrega.descripcion and set(entrega.discrepancias) <= set(entrega.esperado), estudiante
        ceros = [c for c, v in entrega.esperado.items() if v == 0]
        assert (not ceros) if estudiante.startswith("correcto_") else ceros, estudiante


def test_las_celdas_del_catalogo_son_las_del_cuaderno(corregido):
    """Cada entrega da nota a todas las celdas ejecutar-* y sólo a ellas, sin pasar de su máximo."""
    maximos = corregido["maximos"]
    assert set(maximos) - {c for c in maximos if c.startswith("ejecutar-")} == set(PREGUNTAS)
    for estudiante, entrega in ENTREGAS.items():
        assert set(entrega.esperado) == {c for c in maximos if c.startswith("ejecutar-")}, estudiante
        assert all(v <= maximos[c] for c, v in entrega.esperado.items()), estudiante
        if estudiante.startswith("correcto_"):
            assert entrega.esperado == {c: m for c, m in maximos.items() if c.startswith("ejecutar-")}, estudiante


def test_la_entrega_sin_empezar_es_el_esqueleto_de_release(corregido):
    esqueleto = _celdas(corregido["release"])["ejecutar"].source
    assert _sin_cabecera(ENTREGAS["mal_sin_empezar"].codigo).strip() == esqueleto.strip()


def test_la_entrega_con_el_codigo_inicial_lo_conserva_entero(corregido):
    iniciales = [l for l in _celdas(corregido["release"])["ejecutar"].source.splitlines()
                 if l.strip() and l.strip() not in ESQUELETO]
    entrega = _sin_cabecera(ENTREGAS["correcto_codigo_inicial"].codigo).splitlines()
    assert all(l in entrega for l in iniciales)
    posiciones = [entrega.index(l) for l in iniciales]
    assert posiciones == sorted(posiciones), "el código inicial no está en su orden"


# Las notas

def test_cada_entrega_saca_la_nota_esperada_en_cada_celda(corregido):
    fallos = []
    for estudiante, esperado in corregido["esperado"].items():
        obtenido = corregido["notas"][estudiante]
        discrepancias = ENTREGAS[estudiante].discrepancias if estudiante in ENTREGAS else {}
        for celda, puntos in sorted(esperado.items()):
            if celda not in discrepancias and obtenido.get(celda) != puntos:
                fallos.append("  %-30s %-22s esperado %-3g obtenido %s" % (estudiante, celda, puntos, obtenido.get(celda)))
    assert not fallos, "%d notas distintas de las esperadas:\n%s" % (len(fallos), "\n".join(fallos))


def test_las_entregas_correctas_sacan_la_nota_maxima(corregido):
    fallos = ["  %s: %g de %g" % (e, *corregido["totales"][e]) for e in corregido["esperado"]
              if e.startswith(("correcto_", "cuestionario-1-mayuscula")) and corregido["totales"][e][0] != corregido["totales"][e][1]]
    assert not fallos, "entregas correctas sin la nota máxima:\n" + "\n".join(fallos)


DISCREPANCIAS = [pytest.param(e, c, marks=pytest.mark.xfail(strict=True, reason=m), id="%s-%s" % (e, c))
                 for e, entrega in ENTREGAS.items() for c, m in entrega.discrepancias.items()]


if DISCREPANCIAS:  # sólo mientras haya alguna
    @pytest.mark.parametrize("estudiante, celda", DISCREPANCIAS)
    def test_discrepancia_con_el_corrector(corregido, estudiante, celda):
        """Lo que creemos que debería dar el corrector y hoy no da. Si pasa, el corrector ha cambiado: quita la línea."""
        assert corregido["notas"][estudiante][celda] == ENTREGAS[estudiante].esperado[celda]


# Lo que lee el estudiante

@pytest.mark.parametrize("estudiante, celda", [
    ("mal_repr", "ejecutar-excepciones"),
    ("mal_a_medias_lanza", "ejecutar-salmorejo"),
    ("mal_copia_entorno", "ejecutar-escrituras"),
    ("mal_reintenta_siempre", "ejecutar-una-vez"),
    ("mal_sin_empezar", "ejecutar-resultados"),
    ("cuestionario-4-a-medias", "pregunta-4"),
    ("mal_tupla", "ejecutar-resultados"),
])
def test_una_celda_que_suspende_lo_explica_en_español(corregido, estudiante, celda):
    """La salida de error es un Suspenso con el motivo en español, no un volcado de AssertionError."""
    errores = _salida_de_error(corregido, estudiante, celda)
    assert len(errores) == 1, errores
    assert errores[0].ename == "Suspenso", (errores[0].ename, errores[0].evalue)
    traza = "\n".join(errores[0].traceback)
    assert "Traceback" not in traza and "AssertionError" not in traza, traza
    assert re.search(r"\b(se esperaba|debería|debe|no ha terminado|has respondido|has marcado|ha lanzado)\b",
                     errores[0].evalue), errores[0].evalue


@pytest.mark.parametrize("estudiante", ["mal_reintenta_siempre", "mal_reintenta_siempre_base"])
def test_el_bucle_infinito_suspende_por_tiempo_y_no_cuelga(corregido, estudiante):
    """También si se traga BaseException: el tope de cada llamada no depende de que el estudiante lo deje pasar."""
    for celda in ("ejecutar-salmorejo", "ejecutar-excepciones", "ejecutar-guiones"):
        errores = _salida_de_error(corregido, estudiante, celda)
        assert errores and "no ha terminado en" in errores[0].evalue, (celda, errores)


def test_una_entrega_correcta_no_deja_errores_en_ninguna_celda(corregido):
    cuaderno = nbformat.read(corregido["curso"] / "autograded" / "correcto_try_except" / TAREA / CUADERNO, as_version=4)
    for i, celda in enumerate(cuaderno.cells):
        assert not [o for o in celda.get("outputs", []) if o.output_type == "error"], (i, celda.source[:200])


# Las trampas

def test_hay_al_menos_diez_clases_de_trampa():
    assert len(TRAMPAS) >= 10
    for estudiante, trampa in TRAMPAS.items():
        assert trampa.descripcion and not any(trampa.esperado.values()), estudiante


def test_ninguna_trampa_gana_un_punto(corregido):
    ganados = {}
    for estudiante in [*TRAMPAS, "trampa_cuestionario_igual_a_todo"]:
        notas = corregido["notas"][estudiante]
        if estudiante == "trampa_cuestionario_igual_a_todo":
            notas = {c: v for c, v in notas.items() if c.startswith("pregunta-")}
        if any(notas.values()):
            ganados[estudiante] = {c: v for c, v in notas.items() if v}
    assert not ganados, "trampas con puntos: %s" % ganados
    correctas = [e for e in corregido["esperado"] if e.startswith("correcto_")]
    assert all(corregido["totales"][e][0] == corregido["totales"][e][1] for e in correctas)


def test_las_trampas_no_tocan_el_gradebook_ni_la_red(corregido):
    # Ninguna nota del gradebook la ha puesto nadie a mano, y nadie ha llegado al puerto espía.
    with Gradebook("sqlite:///%s" % (corregido["curso"] / "gradebook.db")) as gb:
        for envio in gb.assignment_submissions(TAREA):
            for nota in envio.notebooks[0].grades:
                assert nota.manual_score is None, (envio.student_id, nota.name, nota.manual_score)
    assert corregido["conexiones"] == 0


def test_las_trampas_no_dejan_nada_fuera_de_su_jaula(corregido):
    # Ni enlaces ni tuberías en autograded/ (el núcleo escribe en una copia que se tira), ni un .pth
    # en el entorno virtual (la jaula no puede volver a montar nada con escritura).
    raros = [p for p in (corregido["curso"] / "autograded").rglob("*") if p.is_symlink() or not (p.is_file() or p.is_dir())]
    assert not raros, raros
    assert not list(Path(sys.prefix).rglob("zz_trampa.pth"))


# Validate y autograde

HONESTAS_PARA_VALIDAR = ["correcto_try_except", "correcto_cadena_if", "correcto_clase", "mal_a_medias_lanza",
                         "mal_repr", "mal_sin_prefijo", "mal_is_error_entero", "mal_vacio_es_error", "mal_strip",
                         "mal_sin_empezar"]


@pytest.mark.parametrize("estudiante", HONESTAS_PARA_VALIDAR)
def test_validate_del_estudiante_dice_lo_mismo_que_autograde(corregido, estudiante, tmp_path):
    """Con código honesto, la prueba visible del salmorejo en Validate (en el núcleo del estudiante, sin
    jaula ni pruebas ocultas) pasa exactamente cuando autograde le da los puntos del salmorejo."""
    from nbgrader.validator import Validator

    copia = tmp_path / CUADERNO
    shutil.copy(corregido["curso"] / "submitted" / estudiante / TAREA / CUADERNO, copia)
    fallos = Validator().validate(str(copia)).get("failed", [])
    falla_el_salmorejo = any("bucle(" in f["source"] for f in fallos)
    assert not [f for f in fallos if "respuesta_" in f["source"]], "el cuestionario está contestado"
    aprobado = corregido["notas"][estudiante]["ejecutar-salmorejo"] == corregido["maximos"]["ejecutar-salmorejo"]
    assert falla_el_salmorejo != aprobado, (estudiante, fallos)
