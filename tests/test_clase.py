"""Una clase corregida con `make grade` (course/corregir.py) en varios procesos, con nbgrader de verdad.

Las notas se comparan con dos referencias independientes: la `nota` de cada entrega de ejemplo
y lo que da `nbgrader autograde` secuencial sobre las mismas entregas en otro curso. El informe
(course/informe.py) se contrasta con los cuadernos corregidos, leídos aquí por otro camino.
"""

import csv
import re
from collections import Counter
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbgrader.api import Gradebook

from course import CUADERNO, RAIZ, TAREA, calificacion, corregir, estado, gradebook, informe
from course.entregas import escribir_entrega, leer_ejemplo
from course.estado import notas as notas_de
from cursos import MAXIMO_CALIFICADO as MAXIMO, nbgrader

# Dos entregas de cada tipo que termina (elena espera a sus topes: la prueba de make grade la cubre).
CLASE = {"ana-1": "ana", "ana-2": "ana", "bruno": "bruno", "carla": "carla", "dario": "dario"}
ROTA = "rota"  # un .ipynb que no es JSON: no se corrige, y el CSV, la salida y el informe dicen por qué
# Eva lo tiene todo bien menos una llamada que solo sale en una conversación oculta (la primera de las que
# genera course/calificacion.py): la rompe en su turno 2. El informe tiene que decir cuál y en qué turno.
EVA = "eva"
_CONVERSACION = calificacion.casos()["guiones"][0]
TORTILLA = _CONVERSACION[0][-1][1]  # lo que pide el usuario en ella
_DEL_TURNO_2 = next(b["id"] for b in _CONVERSACION[1][1] if b["type"] == "tool_use")
TODOS = [*CLASE, EVA]


def _respuestas_de_eva():
    respuestas = dict(leer_ejemplo(corregir.EJEMPLOS / "ana.toml")["respuestas"])
    respuestas["ejecutar"] = respuestas["ejecutar"].replace(
        "    motivo = incumple(llamada)\n",
        "    if llamada[\"id\"] == %r:\n        return resultado(%r, \"hecho\")\n    motivo = incumple(llamada)\n"
        % (_DEL_TURNO_2, _DEL_TURNO_2))
    assert "hecho" in respuestas["ejecutar"]
    return respuestas


def _puntos_de(grade_id):
    fuente = nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4)
    return next(c.metadata["nbgrader"]["points"] for c in fuente.cells
                if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def _montar(publicado, raiz):
    # Con el cuestionario calificado, para que el informe tenga respuestas que contar.
    publicado(raiz, "calificado")
    for estudiante, ejemplo in CLASE.items():
        respuestas = leer_ejemplo(corregir.EJEMPLOS / (ejemplo + ".toml"))["respuestas"]
        escribir_entrega(raiz / "release" / TAREA / CUADERNO, respuestas, raiz / "submitted" / estudiante / TAREA)
    escribir_entrega(raiz / "release" / TAREA / CUADERNO, _respuestas_de_eva(), raiz / "submitted" / EVA / TAREA)
    rota = raiz / "submitted" / ROTA / TAREA
    rota.mkdir(parents=True)
    (rota / CUADERNO).write_text('{"cells": [ esto no es un cuaderno', encoding="utf-8")
    return raiz


@pytest.fixture(scope="module")
def clase(publicado, tmp_path_factory):
    """La clase corregida con `python -m course.corregir --trabajos 2`; devuelve (raíz, salida, código)."""
    raiz = _montar(publicado, tmp_path_factory.mktemp("clase") / "curso")
    hecho = subprocess.run([sys.executable, "-m", "course.corregir", "--raiz", str(raiz), "--trabajos", "2"],
                           cwd=raiz, capture_output=True, text=True, timeout=1200)
    return raiz, hecho.stdout + hecho.stderr, hecho.returncode


def test_cada_entrega_tiene_su_nota_y_la_rota_no_para_a_las_demas(clase):
    raiz, salida, codigo = clase
    notas = notas_de(raiz, TAREA)
    for estudiante, ejemplo in CLASE.items():
        assert notas[estudiante] == (leer_ejemplo(corregir.EJEMPLOS / (ejemplo + ".toml"))["nota"], MAXIMO), estudiante
    assert notas[EVA] == (MAXIMO - _puntos_de("ejecutar-guiones"), MAXIMO)
    # La rota no para a nadie ni saca un cero que parezca una nota: «no corregido», con el motivo.
    assert codigo == 0, salida
    assert re.search(r"%s\s+no corregido: el fichero entregado no es un cuaderno de Jupyter válido" % ROTA, salida), salida
    assert ROTA not in notas and not (raiz / "feedback" / ROTA).exists()


def test_mismas_notas_que_nbgrader_secuencial(clase, publicado, tmp_path):
    raiz, _, _ = clase
    secuencial = _montar(publicado, tmp_path / "curso")
    nbgrader(secuencial, "autograde", TAREA, "--force")
    sin_la_rota = lambda notas: {e: n for e, n in notas.items() if e != ROTA}  # noqa: E731
    assert sin_la_rota(notas_de(secuencial, TAREA)) == sin_la_rota(notas_de(raiz, TAREA))
    assert len(sin_la_rota(notas_de(raiz, TAREA))) == len(TODOS)


def test_un_solo_gradebook_sin_escrituras_perdidas(clase):
    raiz, _, _ = clase
    assert [p.name for p in raiz.rglob("gradebook.db")] == ["gradebook.db"]
    with Gradebook(gradebook(raiz)) as gb:
        pruebas = [c.name for c in gb.find_notebook(TAREA, TAREA).grade_cells]
        assert len(pruebas) == 12  # ocho ejecutar-* y cuatro pregunta-*
        for estudiante in CLASE:
            notas = gb.find_submission_notebook(TAREA, TAREA, estudiante).grades
            assert sorted(g.name for g in notas) == sorted(pruebas)
            assert all(g.auto_score is not None for g in notas), estudiante
    with open(raiz / "exports" / "notas.csv", newline="", encoding="utf-8") as f:
        filas = {fila["student_id"]: fila for fila in csv.DictReader(f)}
    # La rota también está, sin nota: no se ha corregido, y la fila dice por qué.
    assert len(filas) == len(TODOS) + 1
    assert (filas[ROTA]["estado"], filas[ROTA]["score"]) == ("no corregido", "") and "JSON" in filas[ROTA]["motivo"]
    assert all(filas[e]["estado"] == "corregido" for e in TODOS)
    for estudiante in TODOS:
        assert (raiz / "feedback" / estudiante / TAREA / (TAREA + ".html")).exists()


def test_nbgrader_export_a_secas_reescribe_el_mismo_csv_que_make_grade(clase):
    raiz, _, _ = clase
    csv_de_make_grade = (raiz / "exports" / "notas.csv").read_bytes()
    hecho = nbgrader(raiz, "export")
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    assert not (raiz / "grades.csv").exists()
    assert (raiz / "exports" / "notas.csv").read_bytes() == csv_de_make_grade


def test_la_salida_en_espanol_nombra_a_cada_estudiante_sin_avisos_de_checksum(clase):
    raiz, salida, _ = clase
    assert "%d entregas de %s, en 2 procesos." % (len(TODOS), TAREA) in salida
    assert "Corrigiendo:" in salida and "quedan" in salida
    for estudiante in CLASE:
        assert re.search(r"%s\s+\d+\.\d / %g puntos" % (re.escape(estudiante), MAXIMO), salida), estudiante
    assert "Notas en exports/notas.csv" in salida and "Informe de la clase en exports/informe.html." in salida
    registro = (raiz / "exports" / "registro.txt").read_text(encoding="utf-8")
    assert "=== ana-1: bien" in registro
    assert "checksum" not in registro and "checksum" not in salida


# --------------------------------------------------------------------------- el informe

def _fallos_en_los_cuadernos(raiz):
    """{grade_id: cuántos no la pasan}, según las salidas de error de los cuadernos corregidos.

    La entrega rota no se ha corregido: no cuenta (ni como fallo de todas las pruebas).
    """
    fallos = {}
    for estudiante in TODOS:
        nb = nbformat.read(raiz / "autograded" / estudiante / TAREA / CUADERNO, as_version=4)
        for celda in nb.cells:
            gid = celda.metadata.get("nbgrader", {}).get("grade_id", "")
            if gid.startswith(("ejecutar-", "pregunta-")) and celda.metadata["nbgrader"].get("grade"):
                fallos.setdefault(gid, [])
                if any(s.output_type == "error" for s in celda.outputs):
                    fallos[gid].append(estudiante)
    return fallos


def test_el_informe_cuenta_los_fallos_de_cada_prueba_oculta(clase):
    raiz, _, _ = clase
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    assert "<html lang='es'>" in html and "Informe de la clase" in html
    assert html.count("src=\"data:image/png;base64,") >= 2 + 4  # notas, pruebas y una por pregunta
    fallos = _fallos_en_los_cuadernos(raiz)
    assert len(fallos) == 12 and fallos["ejecutar-guiones"]
    for gid, quienes in fallos.items():
        fila = re.search(r"<code>%s</code></td><td class=\"n\">[\d,]+</td><td class=\"n\">(\d+) de %d</td><td>(.*?)</td>"
                         % (re.escape(gid), len(TODOS)), html)
        assert fila, gid
        # Cuántos y quiénes: cada nombre, un enlace a su fila de la tabla de estudiantes.
        assert int(fila.group(1)) == len(quienes) and re.findall(r">([^<]+)</a>", fila.group(2)) == quienes, gid
        for estudiante in quienes:
            assert '<a href="#e-%s">%s</a>' % (estudiante, estudiante) in fila.group(2)
            assert '<tr id="e-%s">' % estudiante in html
    assert "%d entregas corregidas" % len(TODOS) in html and "1 sin corregir" in html


def test_el_informe_nombra_la_conversacion_rota_y_el_turno_en_que_se_rompe(clase):
    """Eva rompe la conversación de la tortilla en su turno 2: el informe lo dice en su sección y en su fila, y la
    clase leída (course/estado.py) lo trae como dato."""
    raiz, _, _ = clase
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    assert re.search(r"<td><code>ejecutar-guiones</code></td><td>«%s»</td><td>en el turno 2</td><td class=\"n\">1</td>"
                     r"<td><a href=\"#e-eva\">eva</a></td>" % re.escape(TORTILLA), html)
    fila = re.search(r'<tr id="e-eva">.*?</tr>', html, re.S).group(0)
    assert "La conversación «%s» se rompe en el turno 2." % TORTILLA in fila
    rotas = {e.id: e.conversaciones for e in estado.leer(raiz, TAREA).corregidos}
    assert rotas[EVA] == [estado.ConversacionRota("ejecutar-guiones", TORTILLA, 2)]
    assert all(not c for e, c in rotas.items() if e != EVA)


def test_el_informe_cuenta_lo_que_eligio_la_clase_en_el_cuestionario(clase):
    raiz, _, _ = clase
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    cuentas = re.findall(r"<p class='cuenta'>(.*?)</p>", html)
    assert len(cuentas) == 4
    # La pregunta 3 es verdadero o falso: se cuenta aquí desde los ficheros de ejemplo.
    falso = sum("False" in leer_ejemplo(corregir.EJEMPLOS / (e + ".toml"))["respuestas"]["respuesta-3"]
                for e in CLASE.values()) + ("False" in _respuestas_de_eva()["respuesta-3"])
    assert "falso: %d" % falso in cuentas[2] and "verdadero: %d" % (len(TODOS) - falso) in cuentas[2]


def test_el_informe_enlaza_la_retroalimentacion_de_cada_estudiante(clase):
    raiz, _, _ = clase
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    enlaces = re.findall(r"<a href='([^']+)'>retroalimentación</a>", html)
    assert len(enlaces) == len(TODOS)  # la rota no: no se ha corregido, y su fila dice por qué
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
    assert re.search(r"<code>captura-solo-un-tipo</code></td><td>[^<]*</td><td class=\"n\">2</td>"
                     r"<td><a href=\"#e-bruno\">bruno</a>, <a href=\"#e-dario\">dario</a></td>", html)


def test_el_informe_lleva_a_todas_las_equivocaciones_no_solo_a_las_diez_primeras(clase, tmp_path):
    """Con más equivocaciones que caben en la gráfica, la tabla las tiene todas, cada una con quiénes."""
    from course.calificacion import DIAGNOSTICOS

    raiz, _, _ = clase
    copia = tmp_path / "copia"
    for parte in ("autograded", "feedback"):
        shutil.copytree(raiz / parte, copia / parte)
    shutil.copy(raiz / "gradebook.db", copia)
    nombres = sorted(DIAGNOSTICOS)[:informe.EN_LA_GRAFICA + 3]
    ruta = copia / "autograded" / "carla" / TAREA / CUADERNO
    nb = nbformat.read(ruta, as_version=4)
    for celda in nb.cells:
        if celda.metadata.get("nbgrader", {}).get("grade_id") == "ejecutar-salmorejo":
            celda.metadata["curso"] = {"diagnosticos": nombres}
    nbformat.write(nb, ruta)
    html = informe.escribir_informe(copia).read_text(encoding="utf-8")
    for nombre in nombres:
        assert re.search(r"<code>%s</code></td><td>[^<]+</td><td class=\"n\">\d+</td><td>[^\n]*"
                         r"<a href=\"#e-carla\">carla</a>" % re.escape(nombre), html), nombre
    todas = re.search(r"En la gráfica, las %d más frecuentes; en la tabla, las (\d+)\." % informe.EN_LA_GRAFICA, html)
    assert todas and int(todas.group(1)) >= len(nombres)
    assert int(todas.group(1)) == len(re.findall(r"<tr><td><code>[^<]+</code></td><td>[^<]*</td><td class=\"n\">\d+</td>",
                                                 html[html.index("Las equivocaciones más frecuentes"):]))


def test_el_informe_cuenta_estudiantes_y_no_celdas(clase):
    """Bruno entrega el código de partida: una equivocación, aunque le quite los puntos de las ocho celdas. La
    rota no se corrige («no corregido»), así que no cuenta entre las equivocaciones."""
    raiz, _, _ = clase
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    assert re.search(r"<code>sin-empezar</code></td><td>[^<]*</td><td class=\"n\">1</td><td><a href=\"#e-bruno\">bruno</a></td>",
                     html)


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


@pytest.mark.parametrize("veneno", ["respuesta enorme", "salida con forma de respuesta", "cuaderno que no es JSON"])
def test_el_cuaderno_de_uno_solo_le_quita_sus_propios_detalles_del_informe(clase, tmp_path, veneno):
    """Lo que sea que traiga un cuaderno corregido, el informe sale, y los demás estudiantes cuentan igual."""
    from harness.aula.cuestionario import RESPUESTA_MIME

    raiz, _, _ = clase
    copia = tmp_path / "copia"
    for parte in ("autograded", "feedback", "submitted"):
        shutil.copytree(raiz / parte, copia / parte)
    shutil.copy(raiz / "gradebook.db", copia)
    limpio = estado.leer(copia, TAREA)
    ruta = copia / "autograded" / "bruno" / TAREA / CUADERNO
    nb = nbformat.read(ruta, as_version=4)
    for celda in nb.cells:
        gid = celda.metadata.get("nbgrader", {}).get("grade_id", "")
        if veneno == "respuesta enorme" and gid == "respuesta-1":
            celda.source = "respuesta_1 = " + "-" * 200_000 + "1"
        if veneno == "salida con forma de respuesta" and gid == "ejecutar":
            celda.outputs = [nbformat.v4.new_output("display_data", data={RESPUESTA_MIME: d}) for d in
                             ({"pregunta": [1], "respuesta": 3}, {"pregunta": 2, "respuesta": 7}, [1, 2], {"pregunta": True})]
    nbformat.write(nb, ruta)
    if veneno == "cuaderno que no es JSON":
        ruta.write_bytes(b"[" * 100_000)
    html = informe.escribir_informe(copia).read_text(encoding="utf-8")
    assert "bruno" in html and "Cada estudiante" in html
    datos = estado.leer(copia, TAREA)
    assert [e.nota for e in datos.corregidos] == [e.nota for e in limpio.corregidos]
    cuentas = lambda clase: {n: Counter({o.clave: o.cuantos for o in ops}) for n, ops in clase.preguntas.items()}  # noqa: E731
    for pregunta, cuenta in cuentas(limpio).items():
        otros = cuentas(datos)[pregunta]
        # Como mucho, cambia lo que cuenta Bruno: una elección suya de menos (o «sin contestar» en su lugar).
        assert sum((cuenta - otros).values()) <= 1 and sum((otros - cuenta).values()) <= 1, (pregunta, cuenta, otros)
