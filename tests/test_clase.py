"""Una clase corregida con `make grade` (course/corregir.py) en varios procesos, con nbgrader de verdad.

Las notas se comparan con dos referencias independientes: la `nota` de cada entrega de ejemplo
y lo que da `nbgrader autograde` secuencial sobre las mismas entregas en otro curso. El informe
(course/informe.py) se contrasta con los cuadernos corregidos, leídos aquí por otro camino.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from course import CUADERNO, TAREA, corregir, informe
from course.entregas import escribir_entrega, leer_ejemplo
from cursos import MAXIMO_CALIFICADO as MAXIMO, copiar_curso, modo_del_cuestionario, nbgrader

# Dos entregas de cada tipo que termina (elena espera a sus topes: la prueba de make grade la cubre).
CLASE = {"ana-1": "ana", "ana-2": "ana", "bruno": "bruno", "carla": "carla", "dario": "dario"}
ROTA = "rota"  # un .ipynb que no es JSON: nbgrader no puede ni leerlo


def _montar(raiz):
    # Con el cuestionario calificado, para que el informe tenga respuestas que contar.
    modo_del_cuestionario(copiar_curso(raiz), "calificado")
    hecho = nbgrader(raiz, "generate_assignment", TAREA, "--force")
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    for estudiante, ejemplo in CLASE.items():
        respuestas = leer_ejemplo(corregir.EJEMPLOS / (ejemplo + ".toml"))["respuestas"]
        escribir_entrega(raiz / "release" / TAREA / CUADERNO, respuestas, raiz / "submitted" / estudiante / TAREA)
    rota = raiz / "submitted" / ROTA / TAREA
    rota.mkdir(parents=True)
    (rota / CUADERNO).write_text('{"cells": [ esto no es un cuaderno', encoding="utf-8")
    return raiz


@pytest.fixture(scope="module")
def clase(tmp_path_factory):
    """La clase corregida con `python -m course.corregir --trabajos 2`; devuelve (raíz, salida, código)."""
    raiz = _montar(tmp_path_factory.mktemp("clase") / "curso")
    hecho = subprocess.run([sys.executable, "-m", "course.corregir", "--raiz", str(raiz), "--trabajos", "2"],
                           cwd=raiz, capture_output=True, text=True, timeout=1200)
    return raiz, hecho.stdout + hecho.stderr, hecho.returncode


def test_cada_entrega_tiene_su_nota_y_la_rota_no_para_a_las_demas(clase):
    raiz, salida, codigo = clase
    notas = corregir.notas(raiz)
    for estudiante, ejemplo in CLASE.items():
        assert notas[estudiante] == (leer_ejemplo(corregir.EJEMPLOS / (ejemplo + ".toml"))["nota"], MAXIMO), estudiante
    # La rota no para a nadie: se corrige con un cero, y su retroalimentación dice por qué.
    assert codigo == 0, salida
    assert re.search(r"%s\s+0\.0 / %g puntos" % (ROTA, MAXIMO), salida), salida
    retro = (raiz / "feedback" / ROTA / TAREA / (TAREA + ".html")).read_text(encoding="utf-8")
    assert "Avisos del corrector" in retro


def test_mismas_notas_que_nbgrader_secuencial(clase, tmp_path):
    raiz, _, _ = clase
    secuencial = _montar(tmp_path / "curso")
    nbgrader(secuencial, "autograde", TAREA, "--force")
    sin_la_rota = lambda notas: {e: n for e, n in notas.items() if e != ROTA}  # noqa: E731
    assert sin_la_rota(corregir.notas(secuencial)) == sin_la_rota(corregir.notas(raiz))
    assert len(sin_la_rota(corregir.notas(raiz))) == len(CLASE)


def test_un_solo_gradebook_sin_escrituras_perdidas(clase):
    raiz, _, _ = clase
    assert [p.name for p in raiz.rglob("gradebook.db")] == ["gradebook.db"]
    with Gradebook("sqlite:///%s" % (raiz / "gradebook.db")) as gb:
        pruebas = [c.name for c in gb.find_notebook(TAREA, TAREA).grade_cells]
        assert len(pruebas) == 12  # ocho ejecutar-* y cuatro pregunta-*
        for estudiante in CLASE:
            notas = gb.find_submission_notebook(TAREA, TAREA, estudiante).grades
            assert sorted(g.name for g in notas) == sorted(pruebas)
            assert all(g.auto_score is not None for g in notas), estudiante
    csv = (raiz / "exports" / "notas.csv").read_text(encoding="utf-8").splitlines()
    # La rota también está, con un cero: es lo que nbgrader apunta a una entrega que no puede leer.
    assert csv[0].startswith("assignment,") and len(csv) == 1 + len(CLASE) + 1
    assert any(",%s," % ROTA in fila and fila.endswith(",0.0,%.1f" % MAXIMO) for fila in csv)
    for estudiante in CLASE:
        assert (raiz / "feedback" / estudiante / TAREA / (TAREA + ".html")).exists()


def test_la_salida_en_espanol_nombra_a_cada_estudiante_sin_avisos_de_checksum(clase):
    raiz, salida, _ = clase
    assert "6 entregas de %s, en 2 procesos." % TAREA in salida
    assert "Corrigiendo:" in salida and "quedan" in salida
    for estudiante in CLASE:
        assert re.search(r"%s\s+\d+\.\d / %g puntos" % (re.escape(estudiante), MAXIMO), salida), estudiante
    assert "Notas en exports/notas.csv." in salida and "Informe de la clase en exports/informe.html." in salida
    registro = (raiz / "exports" / "registro.txt").read_text(encoding="utf-8")
    assert "=== ana-1: bien" in registro
    assert "checksum" not in registro and "checksum" not in salida


# --------------------------------------------------------------------------- el informe

def _fallos_en_los_cuadernos(raiz):
    """{grade_id: cuántos no la pasan}, según las salidas de error de los cuadernos corregidos.

    La entrega rota no tiene cuaderno corregido: nbgrader le apunta un cero, así que las falla todas.
    """
    fallos = {}
    with Gradebook("sqlite:///%s" % (raiz / "gradebook.db")) as gb:
        for nota in gb.find_submission_notebook(TAREA, TAREA, ROTA).grades:
            fallos[nota.name] = int((nota.score or 0) < nota.max_score)
    for estudiante in CLASE:
        nb = nbformat.read(raiz / "autograded" / estudiante / TAREA / CUADERNO, as_version=4)
        for celda in nb.cells:
            gid = celda.metadata.get("nbgrader", {}).get("grade_id", "")
            if gid.startswith(("ejecutar-", "pregunta-")) and celda.metadata["nbgrader"].get("grade"):
                fallos.setdefault(gid, 0)
                fallos[gid] += any(s.output_type == "error" for s in celda.outputs)
    return fallos


def test_el_informe_cuenta_los_fallos_de_cada_prueba_oculta(clase):
    raiz, _, _ = clase
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    assert "<html lang='es'>" in html and "Informe de la clase" in html
    assert html.count("src=\"data:image/png;base64,") >= 2 + 4  # notas, pruebas y una por pregunta
    fallos = _fallos_en_los_cuadernos(raiz)
    assert len(fallos) == 12
    for gid, n in fallos.items():
        assert "<code>%s</code></td><td class=\"n\">" % gid in html
        assert re.search(r"<code>%s</code></td><td class=\"n\">[\d.]+</td><td class=\"n\">%d de %d</td>"
                         % (re.escape(gid), n, len(CLASE) + 1), html), gid


def test_el_informe_cuenta_lo_que_eligio_la_clase_en_el_cuestionario(clase):
    raiz, _, _ = clase
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    cuentas = re.findall(r"<p class='cuenta'>(.*?)</p>", html)
    assert len(cuentas) == 4
    # La pregunta 3 es verdadero o falso: se cuenta aquí desde los ficheros de ejemplo.
    falso = sum("False" in leer_ejemplo(corregir.EJEMPLOS / (e + ".toml"))["respuestas"]["respuesta-3"]
                for e in CLASE.values())
    assert "falso: %d" % falso in cuentas[2] and "verdadero: %d" % (len(CLASE) - falso) in cuentas[2]


def test_el_informe_enlaza_la_retroalimentacion_de_cada_estudiante(clase):
    raiz, _, _ = clase
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    enlaces = re.findall(r"<a href='([^']+)'>retroalimentación</a>", html)
    assert len(enlaces) == len(CLASE) + 1  # la rota también: su retroalimentación dice por qué no puntúa
    for enlace in enlaces:
        assert (raiz / "exports" / enlace).resolve().exists(), enlace


def test_el_informe_muestra_los_diagnosticos_del_corrector(clase, tmp_path):
    """Con `metadata.curso.diagnosticos` en las celdas ejecutar-* (lo pone el corrector), salen contados."""
    raiz, _, _ = clase
    copia = tmp_path / "copia"
    for parte in ("autograded", "feedback"):
        shutil.copytree(raiz / parte, copia / parte)
    shutil.copy(raiz / "gradebook.db", copia)
    for estudiante in ("bruno", "dario"):
        ruta = copia / "autograded" / estudiante / TAREA / CUADERNO
        nb = nbformat.read(ruta, as_version=4)
        for celda in nb.cells:
            if celda.metadata.get("nbgrader", {}).get("grade_id") in ("ejecutar-salmorejo", "ejecutar-excepciones"):
                celda.metadata["curso"] = {"diagnosticos": ["captura-solo-un-tipo"]}
        nbformat.write(nb, ruta)
    html = informe.escribir_informe(copia).read_text(encoding="utf-8")
    # Una vez por estudiante, aunque le reste en dos celdas, y quiénes.
    assert re.search(r"<code>captura-solo-un-tipo</code></td><td>[^<]*</td><td class=\"n\">2</td><td>bruno, dario</td>", html)


def test_el_informe_cuenta_estudiantes_y_no_celdas(clase):
    """Bruno entrega el código de partida, y la rota se corrige como sin contestar: una equivocación de cada
    uno, aunque les quite los puntos de las ocho celdas."""
    raiz, _, _ = clase
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    assert re.search(r"<code>sin-empezar</code></td><td>[^<]*</td><td class=\"n\">2</td><td>bruno, rota</td>", html)


def test_el_informe_marca_la_respuesta_correcta(clase):
    from course.cuestionario import PREGUNTAS
    raiz, _, _ = clase
    cuentas = re.findall(r"<p class='cuenta'>(.*?)</p>", (raiz / "exports" / "informe.html").read_text(encoding="utf-8"))
    for n, cuenta in zip(sorted(PREGUNTAS), cuentas):
        correcta = PREGUNTAS[n]["correcta"]
        buenas = {"falso" if correcta is False else "verdadero"} if isinstance(correcta, bool) else set(correcta)
        elegidas = {o.replace("✔ ", "").strip() for o in re.findall(r"([^:·]+):", cuenta)}
        marcadas = {o.strip() for o in re.findall(r"✔ ([^:·]+):", cuenta)}
        assert marcadas and marcadas == buenas & elegidas, (n, cuenta)
