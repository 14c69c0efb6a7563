"""El catálogo de entregas de `ejecutar` y los mutantes del de referencia, corregidos con nbgrader de verdad.

Cada fichero de tests/catalogo/ es lo que un estudiante escribiría en la celda de respuesta
`ejecutar`. Su docstring dice en la primera línea qué hace; en la línea `esperado:`, cuántos puntos
merece en cada celda de prueba `ejecutar-*`; y, si el corrector no le da eso, en una línea
`discrepancia: CELDAS | motivo` en qué celdas y por qué creemos que se equivoca el corrector
(esas celdas se comprueban aparte, como fallos esperados, y avisan cuando el corrector cambia);
en la línea `diagnóstico:`, qué equivocaciones tiene que reconocer el corrector (`ninguno` si es
correcta), por su nombre de `course.calificacion.DIAGNOSTICOS`.

Los mutantes (tests/mutantes.py) son la solución del cuaderno fuente con una equivocación o dos,
cada uno con lo que merece según la rúbrica (docs/calificacion.md). Todos pasan por el corrector de
confianza en su jaula, que es quien decide las celdas `ejecutar-*` en la clase; unos pocos, además, por
la clase entera, y dan lo mismo (la rúbrica la mira el corrector: el núcleo y nbgrader ya los prueban
las demás entregas, y así la clase tiene unos 35 cuadernos menos que corregir).

El módulo monta un curso temporal, genera la tarea, entrega un cuaderno por fichero y por mutante
(con el cuestionario bien contestado, sacado de las soluciones del cuaderno fuente), unos pocos con
el cuestionario cambiado, las trampas y las entregas raras, corrige toda la clase de una vez con
`make grade` (`python -m course.corregir`: los preprocesadores de `nbgrader autograde` y
`generate_feedback`, en varios procesos) y compara con las notas del gradebook.
"""

import contextlib
import csv
import json
from html import unescape
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import NamedTuple

import nbformat
import psutil
import pytest
from nbgrader.api import Gradebook

from course import CUADERNO, RAIZ, TAREA, gradebook, limites
from course.entregas import escribir_entrega, soluciones
from entregas_raras import raras
from harness.revision.diagnosticos import EQUIVOCACION
from mutantes import mutantes
from nucleos import validar

CATALOGO = Path(__file__).resolve().parent / "catalogo"
NBGRADER = Path(sys.executable).with_name("nbgrader")
PREGUNTAS = ["pregunta-%d" % n for n in range(1, 5)]
ESQUELETO = ("# TU CÓDIGO AQUÍ", 'raise NotImplementedError("falta tu respuesta: escríbela en lugar de esta línea")')  # el code_stub de nbgrader_config.py


class Entrega(NamedTuple):
    codigo: str          # la celda de respuesta entera, tal cual
    descripcion: str     # qué hace, en una línea
    esperado: dict       # grade_id → puntos que merece
    discrepancias: dict  # grade_id → por qué el corrector no le da lo esperado
    diagnosticos: set    # los nombres de las equivocaciones que debe reconocer el corrector


def leer_entrega(fichero):
    codigo = fichero.read_text()
    cabecera = codigo.split('"""')[1]
    esperado = re.search(r"^esperado:(.*)$", cabecera, re.M).group(1).split()
    discrepancias = {}
    for celdas, motivo in re.findall(r"^discrepancia:([^|]*)\|(.*)$", cabecera, re.M):
        discrepancias.update({"ejecutar-" + c: motivo.strip() for c in celdas.split()})
    diagnosticos = re.search(r"^diagnóstico:(.*)$", cabecera, re.M)
    diagnosticos = set(diagnosticos.group(1).split()) - {"ninguno"} if diagnosticos else set()
    return Entrega(codigo, cabecera.strip().splitlines()[0],
                   {"ejecutar-" + k: float(v) for k, v in (p.split("=") for p in esperado)}, discrepancias, diagnosticos)


ENTREGAS = {f.stem: leer_entrega(f) for f in sorted(CATALOGO.glob("*.py"))}
# Los intentos de trampa (tests/trampas/), corregidos en la misma pasada que las entregas honestas.
# Entregan el cuestionario sin contestar: de una trampa se espera un 0 en todo.
TRAMPAS = {"trampa_" + f.stem: leer_entrega(f) for f in sorted((CATALOGO.parent / "trampas").glob("*.py"))}
PUERTOS_ESPIA = range(8888, 8898)  # los que prueba tests/trampas/red.py
# Las entregas raras a nivel de cuaderno y de carpeta (tests/trampas/entregas/), en la misma pasada.
RARAS = raras()
# Y los mutantes del ejecutar de referencia, cada uno con la nota que le da la rúbrica (tests/mutantes.py).
MUTANTES = mutantes()
# Los que además se entregan y se corrigen en la clase: los que las pruebas de la retroalimentación leen, y uno
# de cada manera de no contestar (se cuelga, copia el entorno, no mira el esquema).
MUTANTES_EN_LA_CLASE = ["errata", "relanza", "traga-todo", "esquema-como-resultado+error-como-resultado",
                        "sin-return", "objeto+strip", "reintenta-siempre", "copia", "sin-esquema"]
TRABAJOS = 3  # procesos de la corrección de la clase: dos núcleos y uno más, como `make grade`


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


def _corregir_medido(curso, trabajos=TRABAJOS):
    """La clase entera con `make grade` (python -m course.corregir: nbgrader en varios procesos), midiendo lo
    que la corrección deja y gasta: memoria, disco, procesos y su salida.

    Lo que se mide: el máximo de memoria residente del proceso principal y el de cualquier proceso que haya
    lanzado (los que corrigen, sus jaulas, sus núcleos); lo que queda en su carpeta temporal (TMPDIR) al
    terminar; los procesos que siguen vivos con la marca que llevan en su entorno todos los que lanza.
    """
    tmp, marca, medidas = curso / "tmp-de-la-correccion", uuid.uuid4().hex, curso / "medidas.json"
    tmp.mkdir()
    envoltura = ("import atexit, json, resource, sys\n"
                 "def medir():\n"
                 "    json.dump({'propia': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,\n"
                 "               'hijos': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024},\n"
                 "              open(%r, 'w'))\n"
                 "atexit.register(medir)\n"
                 "from course import corregir\n"  # importado, no como __main__: sus procesos lo encuentran
                 "sys.exit(corregir._cli())\n" % str(medidas))
    entorno = dict(os.environ, TMPDIR=str(tmp), MARCA_DE_LA_CORRECCION=marca)
    orden = [sys.executable, "-c", envoltura, "--raiz", str(curso), "--trabajos", str(trabajos)]
    entorno["PATH"] = os.pathsep.join([str(NBGRADER.parent), os.environ.get("PATH", "")])
    salida = subprocess.run(orden, cwd=curso, env=entorno, capture_output=True, text=True, timeout=3600)
    assert (curso / "exports" / "notas.csv").exists(), "make grade no ha terminado:\n%s\n%s" % (
        salida.stdout[-3000:], salida.stderr[-5000:])
    vivos = []
    for proceso in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            if proceso.environ().get("MARCA_DE_LA_CORRECCION") == marca:
                vivos.append(" ".join(proceso.cmdline()))
    return dict(json.loads(medidas.read_text()), salida=salida.stdout + salida.stderr, vivos=vivos,
                registro=(curso / "exports" / "registro.txt").read_text(encoding="utf-8"),
                en_tmp=sorted(str(p) for p in tmp.iterdir()))


def _bytes(carpeta):
    return sum(p.lstat().st_size for p in Path(carpeta).rglob("*") if p.is_file() and not p.is_symlink())


def _avisa(request, linea):
    """Escribe en la terminal aunque pytest esté capturando la salida."""
    captura = request.config.pluginmanager.getplugin("capturemanager")
    with captura.global_and_fixture_disabled() if captura else contextlib.nullcontext():
        print(linea, flush=True)


@pytest.fixture(scope="module")
def corregido(publicado, tmp_path_factory, request):
    """Monta el curso, entrega todo y lo corrige una sola vez; devuelve las notas y dónde está todo."""
    # Con el cuestionario calificado: también lo decide el corrector de confianza.
    curso = publicado(tmp_path_factory.mktemp("curso"), "calificado")
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
    # Las entregas raras: la respuesta buena (o ninguna) en cuadernos y carpetas de todas las formas.
    release_json = json.loads(ruta_release.read_text(encoding="utf-8"))
    raras, apartadas, sin_corregir = {}, {}, {}
    for estudiante, rara in RARAS.items():
        otro = rara.entregar(curso / "submitted" / estudiante / TAREA, release_json, _sin_cabecera(correcto.codigo))
        if rara.esperado in ("apartada", "sin-corregir"):
            (apartadas if rara.esperado == "apartada" else sin_corregir)[otro or estudiante] = rara
            continue
        raras[otro or estudiante] = rara
        ceros = dict.fromkeys(correcto.esperado, 0.0)
        esperado[otro or estudiante] = dict(correcto.esperado if rara.esperado == "todo" else ceros, **sin_contestar)

    # Los mutantes del ejecutar de referencia (tests/mutantes.py), con el cuestionario bien contestado.
    for nombre in MUTANTES_EN_LA_CLASE:
        entregar("mutante_" + nombre, dict(cuestionario, ejecutar=MUTANTES[nombre].codigo))
        esperado["mutante_" + nombre] = dict(MUTANTES[nombre].esperado, **todo_bien)

    espia = _espia()
    espia.settimeout(0)
    inicio = time.monotonic()
    medido = _corregir_medido(curso)
    segundos = time.monotonic() - inicio
    try:
        espia.accept()
        conexiones = 1
    except (BlockingIOError, OSError):
        conexiones = 0
    espia.close()
    _avisa(request, "\nmake grade (%d procesos): %d cuadernos en %.0f s (%.1f s por cuaderno)"
           % (TRABAJOS, len(esperado), segundos, segundos / len(esperado)))

    notas, totales = {}, {}
    with Gradebook(gradebook(curso)) as gb:
        maximos = {c.name: c.max_score for c in gb.find_notebook(TAREA, TAREA).grade_cells}
        for estudiante in esperado:
            notas[estudiante] = {g.name: g.score for g in gb.find_submission_notebook(TAREA, TAREA, estudiante).grades}
            envio = gb.find_submission(TAREA, estudiante)
            totales[estudiante] = (envio.score, envio.max_score)
        corregidas = {s.student_id for s in gb.assignment_submissions(TAREA)}
        apartadas_en_el_gradebook = [e for e in list(apartadas) + list(sin_corregir) if e in corregidas]
    return {"curso": curso, "release": release, "esperado": esperado, "notas": notas,
            "totales": totales, "maximos": maximos, "conexiones": conexiones, "medido": medido,
            "segundos": segundos, "raras": raras, "apartadas": apartadas, "sin_corregir": sin_corregir,
            "apartadas_en_el_gradebook": apartadas_en_el_gradebook}


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
    """Cada entrega da nota a todas las celdas ejecutar-* y solo a ellas, sin pasar de su máximo."""
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


if DISCREPANCIAS:  # solo mientras haya alguna
    @pytest.mark.parametrize("estudiante, celda", DISCREPANCIAS)
    def test_discrepancia_con_el_corrector(corregido, estudiante, celda):
        """Lo que creemos que debería dar el corrector y hoy no da. Si pasa, el corrector ha cambiado: quita la línea."""
        assert corregido["notas"][estudiante][celda] == ENTREGAS[estudiante].esperado[celda]


# Los diagnósticos

def test_todas_las_entregas_mal_tienen_un_diagnostico():
    from course.calificacion import DIAGNOSTICOS
    for estudiante, entrega in ENTREGAS.items():
        assert entrega.diagnosticos <= set(DIAGNOSTICOS), (estudiante, entrega.diagnosticos - set(DIAGNOSTICOS))
        assert bool(entrega.diagnosticos) == estudiante.startswith("mal_"), estudiante


def _diagnosticos(corregido, estudiante):
    """celda ejecutar-* → los nombres que el corrector ha dejado en sus metadatos."""
    cuaderno = nbformat.read(corregido["curso"] / "autograded" / estudiante / TAREA / CUADERNO, as_version=4)
    return {g: c.metadata["curso"]["diagnosticos"] for g, c in _celdas(cuaderno).items() if g.startswith("ejecutar-")}


def test_cada_equivocacion_del_catalogo_se_reconoce_por_su_nombre(corregido):
    fallos = []
    for estudiante, entrega in ENTREGAS.items():
        por_celda = _diagnosticos(corregido, estudiante)
        vistos = {d for nombres in por_celda.values() for d in nombres}
        if vistos != entrega.diagnosticos:
            fallos.append("  %-30s esperado %s, reconocido %s" % (estudiante, sorted(entrega.diagnosticos), sorted(vistos)))
        # Una celda con nota tiene la lista vacía; una sin nota, por qué, si se reconoce.
        for celda, nombres in por_celda.items():
            if corregido["notas"][estudiante][celda] == corregido["maximos"][celda] and nombres:
                fallos.append("  %-30s %s tiene nota y diagnóstico %s" % (estudiante, celda, nombres))
    assert not fallos, "diagnósticos distintos de los esperados:\n" + "\n".join(fallos)


SOLO_EN_LA_TRAZA = {"mal_arregla_rutas", "mutante_arregla-rutas"}


def test_una_equivocacion_resta_en_una_sola_celda(corregido, rubrica):
    """Salvo las que dejan sin respuesta (entonces no hay puntos en ninguna), cada una resta en su casa y solo en ella."""
    from harness.revision.diagnosticos import DIAGNOSTICOS
    casas = {d: c.casa for d, c in DIAGNOSTICOS.items() if c.casa}
    todas = {e: (x.diagnosticos, x.esperado) for e, x in ENTREGAS.items()}
    todas.update({"mutante_" + n: (m.diagnosticos, m.esperado) for n, m in MUTANTES.items()})
    for estudiante, (diagnosticos, esperado) in todas.items():
        sin_respuesta = not any(esperado.values())  # p. ej. reintenta sin fin: no contesta
        if diagnosticos and diagnosticos <= set(casas) and not sin_respuesta:
            perdidas = {c for c, v in _notas(corregido, rubrica, estudiante).items()
                        if c.startswith("ejecutar-") and v < corregido["maximos"][c]}
            # Las que solo arreglan la forma de t1, que los casos no repiten: solo se nota en la traza.
            donde = ({"ejecutar-salmorejo"} if estudiante in SOLO_EN_LA_TRAZA else
                     {"ejecutar-" + casas[d] for d in diagnosticos})
            assert perdidas == donde, (estudiante, perdidas)


def test_la_retroalimentacion_nombra_cada_equivocacion(corregido):
    """El HTML que recibe el estudiante dice qué equivocación es, con su nombre, y qué enseña la lección en su lugar."""
    from harness.revision import DIAGNOSTICOS
    fallos = []
    for estudiante, entrega in ENTREGAS.items():
        html = (corregido["curso"] / "feedback" / estudiante / TAREA / CUADERNO.replace(".ipynb", ".html")).read_text(encoding="utf-8")
        html = unescape(re.sub(r"<[^>]*>", "", html))
        for nombre in entrega.diagnosticos:
            etiqueta, leccion = DIAGNOSTICOS[nombre].etiqueta, DIAGNOSTICOS[nombre].leccion
            for trozo in (nombre, etiqueta, leccion[:40]):
                if trozo not in html:
                    fallos.append("  %-30s no dice %r" % (estudiante, trozo))
    assert not fallos, "\n".join(fallos)


# Lo que lee el estudiante

@pytest.mark.parametrize("estudiante, celda", [
    ("mal_contenido_vacio", "ejecutar-excepciones"),
    ("mal_a_medias_lanza", "ejecutar-salmorejo"),
    ("mal_copia_entorno", "ejecutar-escrituras"),
    ("mal_reintenta_siempre", "ejecutar-salmorejo"),
    ("mal_sin_empezar", "ejecutar-salmorejo"),
    ("cuestionario-4-a-medias", "pregunta-4"),
    ("mal_tupla", "ejecutar-salmorejo"),
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
    """También si se traga BaseException: el tope de cada llamada no depende de que el estudiante lo deje pasar.
    El motivo se dice una vez, en la primera prueba; las demás, sin puntos, remiten a ella."""
    primera = _salida_de_error(corregido, estudiante, "ejecutar-salmorejo")
    assert primera and "no ha terminado en" in primera[0].evalue, primera
    for celda in ("ejecutar-excepciones", "ejecutar-guiones"):
        errores = _salida_de_error(corregido, estudiante, celda)
        assert errores and "no ha terminado en" not in errores[0].evalue, (celda, errores)
        assert "El motivo, en la prueba ejecutar-salmorejo" in errores[0].evalue, (celda, errores)


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
    with Gradebook(gradebook(corregido["curso"])) as gb:
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


def test_lo_que_escribe_una_entrega_no_llega_a_la_terminal_ni_al_registro(corregido):
    # Lo escrito en los descriptores 1 y 2 del núcleo (que ipykernel copia en los de antes, los de nbgrader) ha
    # llegado al cuaderno corregido, como salida de la celda; a lo que lee el profesor, nada.
    marca = "TRAMPA-EN-LA-TERMINAL"
    cuaderno = (corregido["curso"] / "autograded" / "trampa_escribe_en_la_terminal" / TAREA / CUADERNO).read_text()
    assert marca in cuaderno
    procesos = (corregido["curso"] / "exports" / "procesos.txt").read_text(encoding="utf-8", errors="replace")
    for donde, texto in [("exports/procesos.txt", procesos), ("la salida de make grade", corregido["medido"]["salida"]),
                         ("exports/registro.txt", corregido["medido"]["registro"])]:
        assert marca not in texto and "\x1b]0;" not in texto, donde


# Validate y autograde

HONESTAS_PARA_VALIDAR = ["correcto_try_except", "correcto_cadena_if", "correcto_clase", "correcto_repr",
                         "correcto_tipo_y_mensaje", "mal_a_medias_lanza", "mal_sin_prefijo", "mal_is_error_entero",
                         "mal_strip", "mal_sin_empezar", "mal_cambia_la_llamada"]


@pytest.mark.parametrize("estudiante", HONESTAS_PARA_VALIDAR)
def test_validate_del_estudiante_dice_lo_mismo_que_autograde(corregido, estudiante, tmp_path):
    """Con código honesto, la prueba visible del salmorejo en Validate (en el núcleo del estudiante, sin
    jaula ni pruebas ocultas) pasa exactamente cuando autograde le da los puntos del salmorejo."""
    copia = tmp_path / CUADERNO
    shutil.copy(corregido["curso"] / "submitted" / estudiante / TAREA / CUADERNO, copia)
    fallos = validar(copia).get("failed", [])
    falla_el_salmorejo = any("bucle(" in f["source"] for f in fallos)
    assert not [f for f in fallos if "respuesta_" in f["source"]], "el cuestionario está contestado"
    # La celda del salmorejo puntúa, sin que pase la prueba visible, cuando su fallo ya resta en otra celda.
    cuaderno = nbformat.read(corregido["curso"] / "autograded" / estudiante / TAREA / CUADERNO, as_version=4)
    salida = "".join(o.get("text", "") for o in _celdas(cuaderno)["ejecutar-salmorejo"].outputs)
    aprobado = (corregido["notas"][estudiante]["ejecutar-salmorejo"] == corregido["maximos"]["ejecutar-salmorejo"]
                and "no cuenta dos veces" not in salida)
    assert falla_el_salmorejo != aprobado, (estudiante, fallos)


# Entregas raras, espacio y limpieza: una entrega, tenga lo que tenga, solo cambia su propia nota

def test_hay_entregas_raras_de_cada_clase():
    assert {r.esperado for r in RARAS.values()} == {"todo", "nada", "sin-corregir", "apartada"} and len(RARAS) >= 10
    assert all(r.descripcion for r in RARAS.values())


def test_las_entregas_raras_honestas_sacan_los_puntos_de_su_respuesta(corregido):
    """Una celda duplicada, movida, sin marca o convertida en texto se corrige por la respuesta que contiene."""
    desafio = {c: m for c, m in corregido["maximos"].items() if c.startswith("ejecutar-")}
    for estudiante, rara in corregido["raras"].items():
        notas = {c: v for c, v in corregido["notas"][estudiante].items() if c.startswith("ejecutar-")}
        assert notas == (desafio if rara.esperado == "todo" else dict.fromkeys(desafio, 0.0)), (estudiante, notas)


def _avisos(corregido, estudiante):
    cuaderno = nbformat.read(corregido["curso"] / "autograded" / estudiante / TAREA / CUADERNO, as_version=4)
    primera = cuaderno.cells[0]
    return primera.source if primera.cell_type == "markdown" and "Avisos del corrector" in primera.source else ""


def test_cada_entrega_rara_lee_en_español_lo_que_se_ha_decidido(corregido):
    for estudiante, rara in corregido["raras"].items():
        if rara.aviso:
            assert rara.aviso in _avisos(corregido, estudiante), (estudiante, _avisos(corregido, estudiante))
            html = (corregido["curso"] / "feedback" / estudiante / TAREA / CUADERNO.replace(".ipynb", ".html")).read_text()
            assert rara.aviso in html, estudiante
    assert _avisos(corregido, "correcto_try_except") == ""


def test_una_carpeta_apartada_lo_dice_en_la_salida_y_las_demas_se_corrigen(corregido):
    """Cada carpeta apartada sale en la salida de `make grade` con su motivo, y no entra en el gradebook."""
    for estudiante, rara in corregido["apartadas"].items():
        linea = r"%s\s+apartada, sin corregir: [^\n]*%s" % (re.escape(estudiante.split("\n")[-1]), re.escape(rara.aviso))
        assert re.search(linea, corregido["medido"]["salida"]), (estudiante, corregido["medido"]["salida"])
    assert corregido["apartadas_en_el_gradebook"] == []
    assert len(corregido["notas"]) == len(corregido["esperado"])  # todas las demás, con su nota


def test_una_entrega_sin_cuaderno_que_corregir_es_no_corregido_con_su_motivo_y_no_un_cero(corregido):
    """Un enlace, una tubería, un JSON roto o sin fondo, un cuaderno enorme: «no corregido» en la salida y en
    exports/notas.csv, con el motivo en español y sin nota (ni un cero) en el gradebook ni en el CSV."""
    with open(corregido["curso"] / "exports" / "notas.csv", newline="", encoding="utf-8") as f:
        filas = {fila["student_id"]: fila for fila in csv.DictReader(f)}
    for estudiante, rara in corregido["sin_corregir"].items():
        assert re.search(r"%s\s+no corregido: [^\n]*%s" % (re.escape(estudiante), re.escape(rara.aviso)),
                         corregido["medido"]["salida"]), estudiante
        fila = filas[estudiante]
        assert fila["estado"] == "no corregido" and rara.aviso in fila["motivo"] and fila["score"] == "", fila
        assert estudiante not in corregido["notas"]


def test_a_autograded_y_a_la_retroalimentacion_solo_llega_el_cuaderno(corregido):
    """Ni enlaces, ni tuberías, ni copias de las soluciones, ni árboles: de la entrega solo se lee el
    cuaderno, y pasan sus sellos de `nbgrader submit` si son ficheros normales (release_feedback los usa)."""
    from course.aislado.entrada import SELLOS

    for estudiante in corregido["esperado"]:
        for paso, nombre in (("autograded", CUADERNO), ("feedback", CUADERNO.replace(".ipynb", ".html"))):
            carpeta = corregido["curso"] / paso / estudiante / TAREA
            assert sorted(p.name for p in carpeta.iterdir() if p.name not in SELLOS) == [nombre], (estudiante, paso)
            for sello in SELLOS:
                assert not (carpeta / sello).is_symlink() and not (carpeta / sello).is_dir(), (estudiante, paso, sello)


class _Etiquetas(__import__("html.parser").parser.HTMLParser):
    """Las etiquetas de una página, con sus atributos, como las ve un navegador."""

    def __init__(self):
        super().__init__()
        self.etiquetas = []

    def handle_starttag(self, etiqueta, atributos):
        self.etiquetas.append((etiqueta, dict(atributos)))


def test_la_retroalimentacion_no_ejecuta_nada_de_una_entrega(corregido):
    for estudiante in corregido["esperado"]:
        pagina = _Etiquetas()
        pagina.feed((corregido["curso"] / "feedback" / estudiante / TAREA / CUADERNO.replace(".ipynb", ".html")).read_text())
        peligrosas = [(e, a) for e, a in pagina.etiquetas if e in ("script", "iframe", "object", "embed", "svg", "base")
                      or any(n.startswith("on") for n in a)
                      or any((a.get(n) or "").strip().lower().startswith(("javascript:", "data:text")) for n in ("href", "src"))]
        assert not peligrosas, (estudiante, peligrosas[:5])
        politica = [a.get("content", "") for e, a in pagina.etiquetas
                    if e == "meta" and a.get("http-equiv", "").lower() == "content-security-policy"]
        assert politica and "script-src 'none'" in politica[0], estudiante
    # Las salidas de la trampa siguen ahí, limpias: el HTML se pinta sin su script.
    html = (corregido["curso"] / "feedback" / "trampa_scripts_en_la_retroalimentacion" / TAREA
            / CUADERNO.replace(".ipynb", ".html")).read_text()
    assert "pulsa" in html


def test_la_corrección_de_la_clase_queda_acotada_en_memoria_disco_y_procesos(corregido, request):
    medido, curso = corregido["medido"], corregido["curso"]
    _avisa(request, "memoria: nbgrader %.0f MB, su proceso hijo más grande %.0f MB; autograded/ %.1f MB"
           % (medido["propia"] / limites.MIB, medido["hijos"] / limites.MIB, _bytes(curso / "autograded") / limites.MIB))
    # Cotas holgadas (una máquina de dos núcleos cargada), no medidas de velocidad.
    assert medido["propia"] < limites.GIB, "nbgrader ha llegado a %d MB" % (medido["propia"] // limites.MIB)
    assert medido["hijos"] < limites.MEMORIA + 512 * limites.MIB
    release = (curso / "release" / TAREA / CUADERNO).stat().st_size
    for estudiante in corregido["esperado"]:
        pesa = _bytes(curso / "autograded" / estudiante)
        assert pesa < 2 * release + 2 * limites.SALIDA_POR_CUADERNO, (estudiante, pesa)
    assert corregido["segundos"] < 120 * len(corregido["esperado"])
    # Al terminar no queda nada de ninguna entrega: ni ficheros en la carpeta temporal, ni procesos.
    assert medido["en_tmp"] == []
    assert medido["vivos"] == []


# Los mutantes del ejecutar de referencia: la rúbrica, aplicada

def test_hay_mutantes_de_cada_clausula_y_parejas():
    from mutantes import OPERADORES, PAREJAS, PUNTOS
    from harness.revision.diagnosticos import DIAGNOSTICOS
    casas = {DIAGNOSTICOS[d].casa for op in OPERADORES.values() for d in op.diagnosticos}
    conversaciones = {"ejecutar-salmorejo", "ejecutar-guiones"}  # no son casa de ninguna equivocación
    assert {"ejecutar-" + c for c in casas if c} == set(PUNTOS) - conversaciones, "algún operador por cada cláusula"
    assert any(not op.casas for op in OPERADORES.values()) and len(PAREJAS) >= 15
    for nombre, mutante in MUTANTES.items():
        assert mutante.codigo != ENTREGAS["correcto_try_except"].codigo and "def ejecutar(" in mutante.codigo, nombre


@pytest.fixture(scope="module")
def rubrica(corregido):
    """mutante → {celda ejecutar-*: (puntos, diagnósticos)}, de cada mutante con el corrector de confianza en su
    jaula, como decide esas celdas VeredictosDeConfianza al corregir la clase (course/aislado/corrector.py)."""
    from course.aislado.cliente import CodigoAislado
    from course.calificacion import COMPROBACIONES, veredicto
    hechos = {}
    for nombre, mutante in MUTANTES.items():
        with CodigoAislado(mutante.codigo) as codigo:
            codigo.cargar()
            hechos[nombre] = {}
            for prueba in COMPROBACIONES:
                puntua, _, diagnosticos = veredicto(prueba, codigo)
                celda = "ejecutar-" + prueba
                hechos[nombre][celda] = (corregido["maximos"][celda] if puntua else 0.0, diagnosticos)
    return hechos


def _notas(corregido, rubrica, estudiante):
    """Los puntos de cada celda ejecutar-* de una entrega de la clase o de un mutante."""
    if estudiante.startswith("mutante_"):
        return {c: puntos for c, (puntos, _) in rubrica[estudiante.removeprefix("mutante_")].items()}
    return corregido["notas"][estudiante]


def test_en_la_clase_un_mutante_saca_lo_mismo_que_en_su_jaula(corregido, rubrica):
    """Los mutantes que también se corrigen con nbgrader: mismos puntos y diagnósticos en cada celda."""
    for nombre in MUTANTES_EN_LA_CLASE:
        notas, diagnosticos = corregido["notas"]["mutante_" + nombre], _diagnosticos(corregido, "mutante_" + nombre)
        assert {c: (notas[c], diagnosticos[c]) for c in rubrica[nombre]} == rubrica[nombre], nombre


def test_cada_mutante_saca_lo_que_le_da_la_rubrica(rubrica):
    """Celda a celda: lo que dice la rúbrica (tests/mutantes.py) de las equivocaciones que introduce cada mutante."""
    fallos = []
    for nombre, mutante in MUTANTES.items():
        notas = {c: puntos for c, (puntos, _) in rubrica[nombre].items()}
        distintas = {c: (notas[c], v) for c, v in mutante.esperado.items() if notas[c] != v}
        if distintas:
            fallos.append("  %-45s (obtenido, esperado): %s" % (nombre, distintas))
        vistos = {d for _, ds in rubrica[nombre].values() for d in ds}
        if vistos != mutante.diagnosticos:
            fallos.append("  %-45s diagnósticos %s, esperados %s" % (nombre, sorted(vistos), sorted(mutante.diagnosticos)))
    assert not fallos, "mutantes que no sacan lo que dice la rúbrica:\n" + "\n".join(fallos)


def test_sin_la_idea_de_la_leccion_no_se_llega_a_la_mitad(corregido, rubrica):
    """La idea de la lección: un ejecutar que nunca contesta a una clase de fallo con un error que diga qué ha
    pasado, o que contesta con error también a lo que sale bien, no llega a la mitad del desafío (las dos
    medidas de la issue 20: 8 y 9 de 12 antes; todo como error, 11 de 12 en la issue 34). Que una
    equivocación cueste una vez no lo levanta."""
    from mutantes import OPERADORES
    mitad = sum(v for c, v in corregido["maximos"].items() if c.startswith("ejecutar-")) / 2
    callan = [n for n in MUTANTES if any(OPERADORES[o].calla for o in n.split("+"))]
    assert {"traga-todo", "esquema-como-resultado+error-como-resultado", "error-como-resultado", "exito-como-error",
            "exito-como-error+copia"} <= set(callan)
    for nombre in callan:
        puntos = sum(p for p, _ in rubrica[nombre].values())
        assert puntos < mitad, (nombre, puntos)


def _revisar(codigo, archivo, casos):
    """Lo que dicen `repasar` y `reglas` de harness.revision (lo que usa `revisar`) de este código, en este
    proceso, sin jaula, con esos casos: {celda: (puntúa, diagnósticos)}."""
    import linecache

    from harness.revision import PRUEBAS, probar, reglas, repasar
    from referencia import espacio_del_cuaderno
    espacio = espacio_del_cuaderno()  # lo que el núcleo del estudiante ya ha importado
    linecache.cache[archivo] = (len(codigo), None, codigo.splitlines(True), archivo)
    exec(compile(codigo, archivo, "exec"), espacio)
    veredictos = reglas(repasar(lambda ll, e: probar(espacio["ejecutar"], ll, e), casos))
    return {"ejecutar-" + n: (veredictos[n].puntua, veredictos[n].diagnosticos) for n in PRUEBAS}


@pytest.fixture(scope="module")
def en_este_proceso():
    """estudiante → (veredictos de `revisar` con los casos ocultos, con los de su semilla pública), para cada
    mutante y cada entrega del catálogo. No lanza procesos, pero tarda: lo que no acaba gasta su segundo."""
    from course.calificacion import casos
    from harness.revision import MUESTRA
    codigos = {"mutante_" + n: m.codigo for n, m in MUTANTES.items()}
    codigos.update({e: _sin_cabecera(x.codigo) for e, x in ENTREGAS.items() if e != "mal_sintaxis"})
    return {e: (_revisar(c, "<%s>" % e, casos()), _revisar(c, "<%s>" % e, MUESTRA)) for e, c in codigos.items()}


def test_revisar_y_el_corrector_no_pueden_discrepar(corregido, rubrica, en_este_proceso):
    """Con los mismos casos, las reglas de `revisar` en el núcleo del estudiante dan, celda a celda, lo mismo
    que el corrector de la clase con la respuesta en su jaula: para cada mutante y cada entrega del catálogo,
    si puntúa y con qué equivocaciones."""
    fallos = []
    for estudiante, (aqui, _) in en_este_proceso.items():
        if estudiante.startswith("mutante_"):
            alli = {c: (p == corregido["maximos"][c], d) for c, (p, d) in rubrica[estudiante.removeprefix("mutante_")].items()}
        else:
            notas, diagnosticos = corregido["notas"][estudiante], _diagnosticos(corregido, estudiante)
            alli = {c: (notas[c] == corregido["maximos"][c], diagnosticos[c]) for c in aqui}
        if aqui != alli:
            fallos.append("  %-45s %s" % (estudiante, {c: (aqui[c], alli[c]) for c in aqui if aqui[c] != alli[c]}))
    assert not fallos, "revisar (aquí, alli) y el corrector discrepan:\n" + "\n".join(fallos)


@pytest.mark.usefixtures("procesos")
def test_revisar_con_su_semilla_dice_lo_que_dara_la_correccion(en_este_proceso):
    """Los casos de `revisar` no son los de la corrección, pero tienen la misma forma: a cada mutante y a cada
    entrega del catálogo les dan, celda a celda, los mismos puntos y las mismas equivocaciones."""
    distintos = {e: {c: (publica[c], oculta[c]) for c in oculta if publica[c] != oculta[c]}
                 for e, (oculta, publica) in en_este_proceso.items() if publica != oculta}
    assert not distintos, distintos


def test_la_tabla_del_readme_es_la_de_los_mutantes(rubrica):
    """docs/calificacion.md: una fila por mutante, con sus puntos, que son los que saca al corregir."""
    from mutantes import tabla
    readme = (RAIZ / "docs" / "calificacion.md").read_text(encoding="utf-8")
    assert tabla() in readme, "la tabla de mutantes de docs/calificacion.md no es la de tests/mutantes.py: python tests/mutantes.py"
    filas = dict(re.findall(r"^\| `([^`]+)` \|[^|]*\|[^|]*\| (\d+) \|$", tabla(), re.M))
    assert set(filas) == set(MUTANTES)
    for nombre, mutante in MUTANTES.items():
        obtenido = sum(p for p, _ in rubrica[nombre].values())
        assert int(filas[nombre]) == sum(mutante.esperado.values()) == obtenido, nombre


# Lo que dice la retroalimentación

def _celdas_corregidas(corregido, estudiante):
    return _celdas(nbformat.read(corregido["curso"] / "autograded" / estudiante / TAREA / CUADERNO, as_version=4))


def _textos(corregido, estudiante):
    """celda ejecutar-* → el texto de su salida (el motivo, si suspende)."""
    return {g: "".join(o.get("evalue", "") or o.get("text", "") for o in c.outputs)
            for g, c in _celdas_corregidas(corregido, estudiante).items() if g.startswith("ejecutar-")}


def test_sin_respuesta_solo_para_el_codigo_de_partida(corregido):
    """«Sin respuesta no hay puntos» solo lo lee quien no ha escrito nada; quien ha escrito algo que no llega
    a cargarse lo lee así, y quien ha escrito una respuesta que no contesta (se cuelga, lanza, devuelve
    None) lee qué ha pasado."""
    for estudiante in corregido["esperado"]:
        if estudiante.startswith(("trampa_", "rara_")):
            continue
        textos = _textos(corregido, estudiante).values()
        assert any("Sin respuesta no hay puntos" in t for t in textos) == (estudiante == "mal_sin_empezar"), estudiante
        assert any("Tu respuesta no llega a cargarse" in t for t in textos) == (estudiante == "mal_sintaxis"), estudiante


@pytest.mark.parametrize("estudiante", ["mal_sin_empezar", "mal_reintenta_siempre", "mutante_errata", "mutante_relanza",
                                        "mutante_traga-todo", "mutante_esquema-como-resultado+error-como-resultado"])
def test_lo_que_explica_varias_celdas_se_dice_una_vez(corregido, estudiante):
    """El motivo que deja sin puntos varias celdas está entero en la primera, y las demás remiten a ella."""
    textos = [t for t in _textos(corregido, estudiante).values() if t.startswith("Sin puntos, por ")]
    assert len(textos) >= 6, textos
    con_equivocacion = [t for t in textos if EQUIVOCACION in t.split("\n", 2)[-1] and "El motivo, en" not in t]
    assert len(con_equivocacion) == 1, textos
    assert all("El motivo, en la prueba ejecutar-salmorejo." in t for t in textos if t is not con_equivocacion[0])


@pytest.mark.parametrize("mutante", ["errata", "sin-return"])
def test_una_excepcion_de_tu_codigo_se_nombra_con_su_linea(corregido, mutante):
    """Un KeyError de una errata, o un UnboundLocalError de un return olvidado: lo lanza una línea del
    estudiante, fuera del try, y eso es lo que dice, con esa línea (no «vuelve a lanzar la excepción al tratar el fallo»)."""
    texto = _textos(corregido, "mutante_" + mutante)["ejecutar-salmorejo"]
    hecho = re.search(r"en la línea (\d+) de tu respuesta, fuera del try:\n\s*(.+)", texto)
    assert hecho, texto
    linea = MUTANTES[mutante].codigo.splitlines()[int(hecho.group(1)) - 1].strip()
    assert hecho.group(2).strip() == linea, (hecho.group(2), linea)
    from harness.revision.diagnosticos import DIAGNOSTICOS
    assert DIAGNOSTICOS["lanza-tu-codigo"].etiqueta in texto and DIAGNOSTICOS["lanza-otra-excepcion"].etiqueta not in texto


def _resumen_y_cuaderno(corregido, estudiante):
    html = (corregido["curso"] / "feedback" / estudiante / TAREA / CUADERNO.replace(".ipynb", ".html")).read_text()
    inicio, cuaderno = html.index('id="resumen"'), html.index('id="notebook"')
    return html[inicio:cuaderno], html


@pytest.mark.parametrize("estudiante", ["correcto_try_except", "mal_contenido_vacio", "mal_sin_empezar", "mal_reintenta_siempre",
                                        "mutante_traga-todo", "mutante_objeto+strip", "mutante_errata"])
def test_la_retroalimentacion_empieza_con_un_resumen(corregido, estudiante):
    """Antes del cuaderno: los puntos de cada prueba, un enlace a cada una que no puntúa, y cada equivocación
    con lo que conviene releer, enlazado a su sección del cuaderno."""
    resumen, html = _resumen_y_cuaderno(corregido, estudiante)
    notas = corregido["notas"][estudiante]
    for celda, puntos in notas.items():
        fila = re.search(r"<code>%s</code>(?:(?!</tr>).)*<td>([\d.]+) de ([\d.]+)</td>" % re.escape(celda), resumen, re.S)
        assert fila and float(fila.group(1)) == puntos, (celda, puntos)
        enlazada = '<a href="#%s"><code>%s</code></a>' % (celda, celda) in resumen
        assert enlazada == (puntos < corregido["maximos"][celda]), celda
        assert '<a name="%s"></a>' % celda in html  # el destino del enlace, en el cuaderno
    from harness.revision.diagnosticos import DIAGNOSTICOS
    vistos = {d for ds in _diagnosticos(corregido, estudiante).values() for d in ds}
    texto = unescape(re.sub(r"<[^>]*>", "", resumen))
    for d in vistos:
        assert "%s (%s)" % (DIAGNOSTICOS[d].etiqueta, d) in texto, d
        assert "Relee «%s»" % DIAGNOSTICOS[d].releer.replace("`", "") in texto, d
    for ancla in re.findall(r'Relee <a href="#([^"]+)"', resumen):
        assert 'id="%s"' % ancla in html, ancla  # el título de la sección, con su id
    assert bool(vistos) == ("Las equivocaciones que ha encontrado el corrector" in resumen)


def test_cada_equivocacion_remite_a_una_seccion_de_la_leccion():
    """Lo que el resumen manda releer son títulos del cuaderno fuente."""
    from harness.revision.diagnosticos import DIAGNOSTICOS
    fuente = nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4)
    titulos = {l.lstrip("#").strip() for c in fuente.cells if c.cell_type == "markdown"
               for l in c.source.splitlines() if l.startswith("#")}
    assert {d.releer for d in DIAGNOSTICOS.values()} <= titulos, {d.releer for d in DIAGNOSTICOS.values()} - titulos
