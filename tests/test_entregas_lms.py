"""Una clase entera por el camino del LMS, con lo que suben los estudiantes de verdad, honestos y no.

Como lo haría un profesor siguiendo el README: roster con la columna `lms_user_id` (`nbgrader db
student import`), fecha de entrega, la tarea (que `make grade` genera al empezar), una descarga de Moodle y otra de Canvas en
`downloaded/<tarea>/archive/` (descargadas después del plazo: Moodle 4.1 y Canvas fechan cada fichero con la
hora de la descarga) junto a la hoja de calificaciones de Moodle, `nbgrader zip_collect` y `make grade`
(course/corregir.py), todo de verdad y en una sola pasada. Cada subida hostil solo cambia su propia fila: los honestos (también
los de nombres en cirílico, griego o chino, o los que entregan lo que descarga el sitio sin
instalar) sacan todos sus puntos; los hostiles, su nota o «no corregido» con el motivo.
"""

import datetime
import re
import shutil
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from nbgrader.api import Gradebook

from course import CUADERNO, HORA_DESCONOCIDA, NO_CORREGIDO, TAREA, corregir, gradebook
from course.entregas import escribir_entrega, leer_ejemplo
from cursos import MAXIMO, nbgrader, nota_del_ejemplo
from lms import (A_TIEMPO, FORMAS_DE_DESCARGA, MADRID, PLAZO, canvas, canvas_anonima, canvas_importa, comprimido,
                 corregir as make_grade, descarga, descarga_de_la_clase, filas, hoja_de_moodle, montar, moodle,
                 moodle_de_grupo, moodle_importa_hoja, moodle_importa_zip, recoger, sin_apostrofo, tar_gz)

TARDE = datetime.datetime(2026, 3, 4, 10, 0, 20)  # dos días y algo tarde: tres días empezados
DESCARGA = datetime.datetime(2026, 3, 5, 9, 30)   # cuando el profesor descarga las entregas, después del plazo
A_TIEMPO_EN_LA_HOJA = A_TIEMPO + datetime.timedelta(seconds=59)  # la hoja da minutos: se toma el último segundo
NO_SE_NOMBRAN = "=HYPERLINK(\"http://ejemplo.org\",\"pulsa\")"
ROSTER = [
    ("agarcia", "Ana", "García López", "ana@example.org", "101"),
    ("bruiz", "Bruno", "Ruiz", "bruno@example.org", ""),             # sin número: por su nombre
    ("ivan", "Иван", "Петров", "ivan@example.org", ""),              # cirílico, por su nombre
    ("olga", "Ольга", "Смирнова", "olga@example.org", ""),           # cirílico, por su nombre
    ("eleni", "Ελένη", "Παπαδοπούλου", "eleni@example.org", "103"),
    ("wang", "王", "芳", "wang@example.org", "104"),
    ("lucia", "Lucía", "Lite", "lucia@example.org", "105"),         # lo que descarga el sitio sin instalar
    ("tomas", "Tomás", "Tarde", "tomas@example.org", "106"),        # tarde, con un timestamp.txt suyo
    ("nadia", "Nadia", "Nada", "nadia@example.org", "107"),         # no entrega nada
    ("teo", "Teo", "Truncado", "teo@example.org", "108"),
    ("fausto", "Fausto", "Falso", "fausto@example.org", "109"),
    ("nico", "Nico", "Nido", "nico@example.org", "110"),
    ("bea", "Bea", "Bomba", "bea@example.org", "111"),
    ("mia", "Mía", "Miles", "mia@example.org", "112"),
    ("coma", "Juan, \"el listo\"", "Pérez\nagarcia,x,y,z,16", "coma@example.org", "113"),
    ("formula", NO_SE_NOMBRAN, "+1+2", "@SUM(1+1)", "114"),
    ("tere", "Tere", "Texto", "tere@example.org", "115"),          # solo escribe un texto en línea
    ("pperez1", "Pablo", "Pérez", "p1@example.org", ""),             # dos con el mismo nombre y sin número
    ("pperez2", "Pablo", "Pérez", "p2@example.org", ""),
    ("carmen", "Carmen", "Canvas", "carmen@example.org", "303"),    # por Canvas, a tiempo
]
HONESTOS = ["agarcia", "bruiz", "carmen", "ivan", "olga", "eleni", "wang", "lucia", "coma", "formula", "lms-120",
            "lms-199"]
# De quién no se sabe la hora de entrega, y por qué: ninguno de ellos pierde puntos por retraso.
SIN_HORA = {"bruiz": "Canvas la marca como entregada tarde (LATE)", "carmen": "Canvas pone a cada fichero",
            "coma": "su fila de la hoja de calificaciones no da una hora", "lms-199": "no está en la hoja de calificaciones"}
NO_CORREGIDOS = {"teo": "roto", "fausto": "no es un archivo", "bea": "bomba de descompresión", "mia": "ficheros", "rota": "JSON",
                 "tere": "ningún cuaderno (.ipynb)"}
APARTADAS = {"*": "comodín", "mal\\xff": "UTF-8", ".oculta": "punto"}


@pytest.fixture(scope="module")
def clase(procesos, tmp_path_factory):
    """La clase recogida y corregida; devuelve (raíz, zip_collect, memoria de zip_collect, make grade)."""
    raiz = montar(tmp_path_factory.mktemp("lms") / "curso", ROSTER)
    fuera = raiz.parent / "entrega"
    escribir_entrega(raiz / "release" / TAREA / CUADERNO, leer_ejemplo(corregir.EJEMPLOS / "ana.toml")["respuestas"], fuera)
    nb = (fuera / CUADERNO).read_bytes()
    bomba = comprimido({CUADERNO: b" " * (64 * 1024 * 1024), "otra.zip": comprimido({"a.zip": comprimido({"b": b"0" * 10**7})})}, 9)
    # La descarga de Moodle 4.1 y después, en carpetas (lo de por defecto); test_subidas.py prueba las demás formas.
    moodle_ = {
        moodle("Ana García López", 101, CUADERNO): (nb, A_TIEMPO),
        # Su texto en línea lo escribe Moodle al descargar, con esa hora: no es la de su entrega.
        moodle("Ana García López", 101, "onlinetext.html", complemento="onlinetext"): (b"<p>Adjunto</p>", TARDE),
        moodle("Tere Texto", 115, "onlinetext.html", complemento="onlinetext"): (b"<p>Mi respuesta</p>", A_TIEMPO),
        moodle("Иван Петров", 201, CUADERNO): (nb, A_TIEMPO),
        moodle("Ольга Смирнова", 202, "лабораторная.ipynb"): (nb, A_TIEMPO),
        moodle("Ελένη Παπαδοπούλου", 103, CUADERNO): (nb, A_TIEMPO),
        moodle("王 芳", 104, CUADERNO): (nb, A_TIEMPO),
        moodle("Lucía Lite", 105, TAREA + "_" + CUADERNO): (nb, A_TIEMPO),
        moodle("Tomás Tarde", 106, "entrega.zip"): (comprimido({CUADERNO: nb, "timestamp.txt": b"2026-03-01 09:00:00 UTC"}), TARDE),
        moodle("Tomás Tarde", 106, "timestamp.txt"): (b"2026-03-01 09:00:00 UTC", TARDE),
        moodle("Teo Truncado", 108, "entrega.zip"): (comprimido({CUADERNO: nb})[:400], A_TIEMPO),
        moodle("Fausto Falso", 109, "entrega.zip"): (b"esto no es un zip", A_TIEMPO),
        moodle("Fausto Falso", 109, "entrega.ipynb.gz"): (b"ni esto un gzip", A_TIEMPO),
        # Nico sube archivos con entregas para otros (Nadia no ha entregado nada; Ana, sí) y un .tar.gz con la suya.
        moodle("Nico Nido", 110, "para-otros.zip"): (comprimido({moodle("Nadia Nada", 107, CUADERNO): b"{}",
                                                                 moodle("Ana García López", 101, CUADERNO): b"{}",
                                                                 canvas("nadianada", 107, CUADERNO): b"{}"}), A_TIEMPO),
        moodle("Nico Nido", 110, "mio.tar.gz"): (tar_gz({"carpeta/" + CUADERNO: nb}), A_TIEMPO),
        moodle("Bea Bomba", 111, "bomba.zip"): (bomba, A_TIEMPO),
        moodle("Mía Miles", 112, "miles.zip"): (comprimido({canvas("x%d" % i, 5000 + i, CUADERNO): b"{}"
                                                            for i in range(2000)}), A_TIEMPO),
        moodle("Juan, \"el listo\" Pérez", 113, CUADERNO): (nb, A_TIEMPO),
        moodle("Excel", 114, CUADERNO): (nb, A_TIEMPO),
        moodle("Pablo Pérez", 120, CUADERNO): (nb, A_TIEMPO),     # casa con dos del roster: no se adivina
        moodle("Zoe Zeta", 199, CUADERNO): (nb, A_TIEMPO),        # no está en el roster
    }
    # Moodle 4.1 y después fechan cada fichero de la descarga con la hora en que se escribe: la de la descarga, para todos.
    horas_de_verdad = {re.search(r"_(\d+)_assignsubmission_", n).group(1): h for n, (_, h) in moodle_.items()}
    moodle_ = {n: (datos, DESCARGA + datetime.timedelta(seconds=2 * i)) for i, (n, (datos, _)) in enumerate(moodle_.items())}
    descarga(raiz, "moodle.zip", moodle_)
    # Y la hoja de calificaciones de esa tarea, junto al zip: la hora de cada entrega, la que Moodle usa para decir si es
    # tardía. Juan tiene una fila que no es una fecha (solo pierde él su hora); Zoe no está (¿otro grupo?); Nadia, sin entrega.
    horas_de_verdad.update({"101": A_TIEMPO + datetime.timedelta(seconds=20), "106": TARDE, "107": None, "113": "mañana"})
    del horas_de_verdad["199"]
    (raiz / "downloaded" / TAREA / "archive" / "Calificaciones-curso-tarea-41.csv").write_bytes(
        hoja_de_moodle([(n, "x", h) for n, h in sorted(horas_de_verdad.items())]))
    # Una hoja de otra tarea: ninguno de sus participantes está en la descarga, así que no se usa.
    (raiz / "downloaded" / TAREA / "archive" / "Calificaciones-otra-tarea.csv").write_bytes(
        hoja_de_moodle([("9001", "y", TARDE), ("9002", "z", TARDE)], "en"))
    # Canvas fecha cada fichero con la hora en que hace el zip; «LATE» dice que Bruno entregó tarde, pero no cuánto.
    descarga(raiz, "canvas.zip", {canvas("Ruiz, Bruno", 302, TAREA + "-1.ipynb", tarde=True): (nb, DESCARGA),
                                  canvas("Canvas, Carmen", 303, TAREA + ".ipynb"): (nb, DESCARGA)})
    # Dos descargas que no dicen de quién es cada entrega: la de una tarea de Moodle 4.1 con entregas en grupo (el 101 es
    # el número de un grupo, no el de Ana) y la de una tarea de Canvas con calificación anónima (el 12345 es un código).
    escribir_entrega(raiz / "release" / TAREA / CUADERNO, leer_ejemplo(corregir.EJEMPLOS / "carla.toml")["respuestas"],
                     raiz.parent / "otra")
    otro = (raiz.parent / "otra" / CUADERNO).read_bytes()
    descarga(raiz, "moodle-grupos.zip", {moodle_de_grupo("Grupo A", 101, CUADERNO): (otro, TARDE),
                                         moodle_de_grupo(None, None, CUADERNO): (otro, TARDE)})
    descarga(raiz, "canvas-anonima.zip", {canvas_anonima("12345", 9101, CUADERNO): (otro, TARDE),
                                          canvas_anonima("Ab3dE", 9102, CUADERNO, tarde=True): (otro, TARDE)})
    (raiz / "downloaded" / TAREA / "archive" / "no-es-del-lms.zip").write_bytes(b"ni siquiera un zip")
    recogido, memoria = recoger(raiz)
    # Una corrección anterior (de antes de la hoja, con una versión del curso que tomaba la fecha del zip) dejó en el
    # gradebook la hora de la descarga como la de Juan: ahora que no se sabe, no debe quedarse ni quitarle puntos.
    hecho = nbgrader(raiz, "generate_assignment", TAREA, "--force")
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    with Gradebook(gradebook(raiz)) as gb:
        gb.update_or_create_submission(TAREA, "coma", timestamp=DESCARGA.replace(tzinfo=MADRID).astimezone(
            datetime.timezone.utc))
    # Lo que un profesor copia a mano en submitted/: carpetas con nombres imposibles y un cuaderno roto.
    for nombre in (b"*", b"mal\xff", b".oculta"):
        carpeta = raiz / "submitted" / nombre.decode("utf-8", "surrogateescape") / TAREA
        carpeta.mkdir(parents=True)
        (carpeta / CUADERNO).write_bytes(nb)
    (raiz / "submitted" / "rota" / TAREA).mkdir(parents=True)
    (raiz / "submitted" / "rota" / TAREA / CUADERNO).write_text('{"cells": [ esto no es', encoding="utf-8")
    return raiz, recogido, memoria, make_grade(raiz)


def test_zip_collect_no_se_para_y_cada_subida_va_a_la_carpeta_de_quien_la_subio(clase):
    raiz, recogido, _, _ = clase
    assert recogido.returncode == 0, recogido.stdout + recogido.stderr
    carpetas = sorted(p.name for p in (raiz / "submitted").iterdir())
    esperadas = sorted({e for e in HONESTOS} | {"tomas", "nico"} | set(NO_CORREGIDOS) | {"*", "mal\udcff", ".oculta"})
    assert carpetas == esperadas
    for estudiante in HONESTOS + ["tomas", "nico"]:
        sello = HORA_DESCONOCIDA if estudiante in SIN_HORA else "timestamp.txt"
        assert sorted(p.name for p in (raiz / "submitted" / estudiante / TAREA).iterdir()) == sorted([CUADERNO, sello])
    assert "no-es-del-lms.zip no es una descarga del LMS" in recogido.stderr


def test_una_descarga_que_no_dice_de_quien_es_cada_entrega_no_se_recoge(clase):
    """Entregas en grupo de Moodle 4.1 y después (carpetas con el número del grupo) y calificación anónima de Canvas: ni
    el número de un grupo ni un código se toman por el de un estudiante, y se dice por qué."""
    raiz, recogido, _, _ = clase
    assert "moodle-grupos.zip es de una tarea de Moodle con entregas en grupo" in recogido.stderr
    assert "canvas-anonima.zip es de una tarea de Canvas con calificación anónima" in recogido.stderr
    assert not (raiz / "submitted" / "lms-12345").exists()
    # Quien solo escribe un texto en línea ha entregado algo, pero nada que corregir: se dice qué hay.
    assert "«onlinetext.html»" in filas(raiz)["tere"]["motivo"]
    # Ana, la del número 101, tiene su cuaderno y su hora, no los del grupo 101.
    ana = raiz / "submitted" / "agarcia" / TAREA
    assert (ana / CUADERNO).read_bytes() == (raiz / "submitted" / "eleni" / TAREA / CUADERNO).read_bytes()
    assert (ana / "timestamp.txt").read_text().startswith(
        A_TIEMPO_EN_LA_HOJA.replace(tzinfo=MADRID).astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S"))


def test_los_honestos_sacan_todos_sus_puntos_en_cualquier_escritura(clase):
    raiz, _, _, grade = clase
    assert grade.returncode == 0, grade.stdout + grade.stderr
    notas = filas(raiz)
    completa = nota_del_ejemplo(corregir.EJEMPLOS / "ana.toml")
    for estudiante in HONESTOS:
        fila = notas[estudiante]
        assert (fila["estado"], float(fila["score"]), float(fila["max_score"])) == ("corregido", completa, MAXIMO), fila
    assert notas["nico"]["estado"] == "corregido" and float(notas["nico"]["score"]) == completa  # su .tar.gz


def test_un_nombre_que_casa_con_varios_o_con_nadie_no_se_adivina(clase):
    raiz, recogido, _, _ = clase
    notas = filas(raiz)
    assert notas["pperez1"]["estado"] == notas["pperez2"]["estado"] == "sin entrega"
    assert notas["lms-120"]["first_name"] == "Pablo Pérez" and notas["lms-199"]["first_name"] == "Zoe Zeta"
    assert "casa con varios estudiantes del roster (pperez1, pperez2)" in recogido.stderr
    assert "«Zoe Zeta» (número 199) no está en el roster" in recogido.stderr


def test_la_hora_es_la_de_la_hoja_de_moodle_y_no_la_de_un_timestamp_subido(clase):
    raiz, _, _, _ = clase
    guardada = (raiz / "submitted" / "tomas" / TAREA / "timestamp.txt").read_text().strip()
    esperada = TARDE.replace(second=59, tzinfo=MADRID).astimezone(datetime.timezone.utc)
    assert guardada.startswith(esperada.strftime("%Y-%m-%d %H:%M:%S")), guardada
    fila = filas(raiz)["tomas"]
    dias = -(-(TARDE.replace(tzinfo=MADRID) - PLAZO).total_seconds() // 86400)
    assert dias == 3
    assert float(fila["raw_score"]) == MAXIMO and float(fila["late_submission_penalty"]) == dias
    assert float(fila["score"]) == MAXIMO - dias


def test_cada_subida_hostil_solo_cambia_su_fila_y_dice_por_que(clase):
    raiz, _, _, grade = clase
    notas = filas(raiz)
    for estudiante, motivo in NO_CORREGIDOS.items():
        fila = notas[estudiante]
        assert fila["estado"] == "no corregido" and motivo in fila["motivo"], fila
        assert fila["score"] == fila["raw_score"] == "", fila  # sin nota, no un cero
        assert re.search(r"%s\s+no corregido: .*%s" % (re.escape(estudiante), re.escape(motivo)), grade.stdout), estudiante
    assert (raiz / "submitted" / "teo" / TAREA / NO_CORREGIDO).exists()
    assert notas["nadia"]["estado"] == "sin entrega" and not (raiz / "submitted" / "nadia").exists()
    for nombre, motivo in APARTADAS.items():
        assert notas[nombre]["estado"] == "no corregido" and motivo in notas[nombre]["motivo"], nombre
        assert re.search(r"%s\s+apartada, sin corregir: .*%s" % (re.escape(nombre), motivo), grade.stdout), nombre
    # El «*» no ha hecho que nadie se corrija dos veces, ni una carpeta apartada tiene nota.
    registro = (raiz / "exports" / "registro.txt").read_text(encoding="utf-8")
    assert sorted(re.findall(r"^=== ([^:]+):", registro, re.M)) == sorted(HONESTOS + ["tomas", "nico"])
    assert len(notas) == len(ROSTER) + 2 + len(APARTADAS) + 1  # lms-120, lms-199, las apartadas y la rota


def test_la_bomba_no_pasa_de_los_topes_de_memoria_ni_de_disco(clase):
    raiz, recogido, memoria, _ = clase
    assert memoria is not None and memoria < 500 * 1024 ** 2, memoria
    extraido = sum(p.stat().st_size for p in (raiz / "downloaded" / TAREA / "extracted").rglob("*") if p.is_file())
    assert extraido < 20 * len(HONESTOS) * (raiz / "submitted" / "agarcia" / TAREA / CUADERNO).stat().st_size


def test_el_csv_guarda_el_roster_tal_cual_y_sin_formulas(clase):
    raiz, _, _, _ = clase
    notas = filas(raiz)
    for id_, nombre, apellidos, email, _ in ROSTER:
        fila = notas[id_]
        assert (sin_apostrofo(fila["first_name"]), sin_apostrofo(fila["last_name"]), sin_apostrofo(fila["email"])) \
            == (nombre, apellidos, email)
    for fila in notas.values():
        for celda in fila.values():
            assert not celda.lstrip(" ").startswith(tuple("=+-@\t\r\n")), fila
    assert notas["formula"]["first_name"] == "'" + NO_SE_NOMBRAN


def test_el_informe_y_la_terminal_dan_la_nota_del_csv_ya_con_el_descuento(clase):
    raiz, _, _, grade = clase
    notas = filas(raiz)
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    tabla = html[html.index("<h2>Cada estudiante</h2>"):]
    puntos = dict(re.findall(r"<tr id=\"[^\"]+\"><td>([^<]*)</td><td>[^<]*</td><td[^>]*>([^<]*)</td>", tabla))
    corregidos = {e: float(f["score"]) for e, f in notas.items() if f["estado"] == "corregido"}
    # Con coma decimal, como se escribe en español: «10,5».
    assert {e: float(puntos[e].replace(",", ".")) for e in corregidos} == corregidos
    media = "%.1f" % round(sum(corregidos.values()) / len(corregidos), 1)
    assert "Media: <b>%s</b>" % media.replace(".", ",").removesuffix(",0") in html
    assert puntos["nadia"] == "sin entrega"  # quien no entrega también está en la tabla
    # Tomás entrega tarde: la terminal dice su nota ya con el descuento, la misma que el CSV.
    tomas = notas["tomas"]
    assert re.search(r"tomas\s+%.1f / %g puntos \(ya con %g menos por el retraso\)" % (
        float(tomas["score"]), MAXIMO, float(tomas["late_submission_penalty"])), grade.stdout), grade.stdout


def test_el_informe_cuenta_solo_a_los_corregidos_y_dice_por_que_no_los_demas(clase):
    raiz, _, _, _ = clase
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    corregidos = len(HONESTOS) + 2
    assert "%d entregas corregidas" % corregidos in html
    assert "%d sin corregir" % (len(NO_CORREGIDOS) + len(APARTADAS)) in html
    for id_, nombre, apellidos, _, _ in ROSTER[:8]:
        assert id_ in html
    assert "<td>no corregido</td>" in html and "está roto o cortado" in html
    assert "&#34;el listo&#34;" in html and "<script" not in html
    # Todos los corregidos entregan la respuesta de Ana: nadie falla una prueba oculta (los no corregidos no cuentan).
    assert re.search(r"<td class=\"n\">0 de %d</td>" % corregidos, html)


def test_la_recogida_se_repite_con_force_sin_cambiar_nada(clase, tmp_path):
    raiz, _, _, _ = clase
    copia = tmp_path / "curso"
    shutil.copytree(raiz, copia, ignore=shutil.ignore_patterns("autograded", "feedback", "exports"))
    antes = {p: p.read_bytes() for e in HONESTOS for p in (copia / "submitted" / e / TAREA).iterdir()}
    hecho, _ = recoger(copia, "--force")
    assert hecho.returncode == 0, hecho.stderr
    for ruta, datos in antes.items():
        assert ruta.read_bytes() == datos, ruta


def test_cada_fila_del_informe_dice_cuando_se_entrego_y_cuantos_dias_tarde(clase):
    """La hora de la entrega (la del LMS, en la zona del curso) y los días empezados de retraso, escritos en español."""
    raiz, _, _, _ = clase
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    assert "Plazo de entrega: 1 de marzo de 2026, 23:59." in html and "Las horas, en la de Europe/Madrid." in html
    fila = re.search(r'<tr id="e-tomas">(.*?)</tr>', html, re.S).group(1)
    celdas = re.findall(r"<td[^>]*>(.*?)</td>", fila, re.S)
    # estudiante, nombre, nota, entregada, días tarde, descuento
    assert celdas[3] == "4 de marzo de 2026, 10:00" and celdas[4] == "3" and celdas[5] == "3", celdas
    ana = re.findall(r"<td[^>]*>(.*?)</td>", re.search(r'<tr id="e-agarcia">(.*?)</tr>', html, re.S).group(1))
    assert ana[3] == "1 de marzo de 2026, 10:15" and ana[4] == "" and ana[5] == "", ana
    assert "Entregan tarde 1, y su nota ya lleva el descuento." in html


def test_la_hora_de_la_descarga_nunca_es_la_de_una_entrega(clase):
    """Las dos descargas son de después del plazo y sus fechas, las de la descarga: nadie pierde puntos por ellas. La
    hoja de calificaciones da la hora a quien está en ella; a los demás, ninguna, y se dice por qué y cómo darla."""
    raiz, recogido, _, grade = clase
    notas = filas(raiz)
    for estudiante in HONESTOS:
        assert notas[estudiante]["late_submission_penalty"] in ("", "0.0"), notas[estudiante]
    # En la terminal de zip_collect: por qué no valen las fechas de cada zip, y la hoja que no es de esta tarea.
    assert "moodle.zip: sus fechas no son las de cada entrega: Moodle 4.1 y después" in recogido.stderr
    assert "canvas.zip: sus fechas no son las de cada entrega: Canvas pone" in recogido.stderr
    assert re.search(r"Calificaciones-otra-tarea.csv no es una hoja de calificaciones de Moodle que se pueda usar: "
                     r"ninguno de sus 2 participantes", recogido.stderr)
    assert re.search(r"Juan.*\(número 113\): sin hora de entrega: su fila de la hoja de calificaciones no da una hora: "
                     r"«mañana» no es una fecha", recogido.stderr)
    assert "4 entregas se recogen sin hora, y sin descuento por retraso" in recogido.stderr
    # Quien no tiene hora: sin timestamp.txt, con el porqué, y sin hora en el CSV (ni la que dejó la recogida anterior).
    for estudiante, motivo in SIN_HORA.items():
        carpeta = raiz / "submitted" / estudiante / TAREA
        assert not (carpeta / "timestamp.txt").exists() and motivo in (carpeta / "hora-desconocida.txt").read_text()
        assert notas[estudiante]["timestamp"] == "" and notas[estudiante]["estado"] == "corregido", notas[estudiante]
        assert motivo in notas[estudiante]["sin_hora"], notas[estudiante]  # el CSV dice por qué no hay hora
    # Los demás, la de la hoja (el último segundo de su minuto), en el CSV también.
    for estudiante in set(HONESTOS) - set(SIN_HORA):
        guardada = (raiz / "submitted" / estudiante / TAREA / "timestamp.txt").read_text()
        assert guardada.startswith("2026-03-01 09:15:59"), (estudiante, guardada)
        assert notas[estudiante]["timestamp"].startswith("2026-03-01 09:15:59") and notas[estudiante]["sin_hora"] == ""
    # La terminal de make grade y el informe dicen de quién no se sabe y cómo dar las horas.
    linea = next(l for l in grade.stdout.splitlines() if "no se sabe la hora de entrega" in l)
    assert "De 4 entregas" in linea and "la hoja de calificaciones" in linea, linea
    assert set(re.search(r"\): (.*?)\. No llevan", linea).group(1).split(", ")) == set(SIN_HORA)
    html = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    assert "De 4 entregas no se sabe la hora" in html
    bruno = re.search(r'<tr id="e-bruiz">(.*?)</tr>', html, re.S).group(1)
    assert "no se sabe" in bruno and "LATE" in bruno, bruno


# --------------------------------------------------------------------------- de vuelta al LMS

def _participantes(raiz):
    """Los números de participante de la tarea en Moodle: los del roster y los de quienes subieron algo a la descarga."""
    with zipfile.ZipFile(raiz / "downloaded" / TAREA / "archive" / "moodle.zip") as z:
        descargados = {re.search(r"_(\d+)_assignsubmission_", n).group(1) for n in z.namelist()}
    return descargados | {numero for *_, numero in ROSTER if numero}


def _esperado(raiz):
    """{número del LMS: fila de notas.csv} de quienes entregaron y tienen número: los del roster y los «lms-N»."""
    numeros = {id_: numero for id_, *_, numero in ROSTER if numero}
    esperado = {}
    for id_, fila in filas(raiz).items():
        numero = numeros.get(id_) or (id_[4:] if re.fullmatch(r"lms-\d+", id_) else None)
        if numero and fila["estado"] != "sin entrega":
            esperado[numero] = fila
    return esperado


@pytest.mark.parametrize("idioma", ["es", "en"])
def test_la_hoja_de_moodle_se_importa_con_las_notas_del_csv_y_un_comentario(clase, idioma):
    """La hoja de calificaciones, subida a la tarea de Moodle de la descarga (en español o en inglés): cada participante
    con su nota, la del CSV, y un comentario; quien no se ha corregido, sin nota y con el motivo."""
    raiz, _, _, _ = clase
    importadas = moodle_importa_hoja(raiz / "exports" / "moodle-calificaciones.csv", _participantes(raiz), idioma)
    esperado = _esperado(raiz)
    assert set(importadas) == set(esperado)
    for numero, fila in esperado.items():
        nota, comentario = importadas[numero]
        if fila["estado"] == "corregido":
            assert nota == float(fila["score"]), (numero, fila)
            assert "Nota: " in comentario and "retroalimentación" in comentario
        else:
            assert nota is None and "no se ha podido corregir" in comentario, (numero, comentario)
    assert "ya con 3 menos por entregar 3 días tarde" in importadas["106"][1]  # Tomás
    assert importadas["101"][1].startswith("<p>Nota: %s de %s" % (
        ("%g" % float(esperado["101"]["score"])).replace(".", ","), ("%g" % MAXIMO).replace(".", ",")))


def test_el_zip_de_moodle_da_a_cada_participante_su_retroalimentacion(clase):
    """Cada carpeta del zip es la de un participante de la descarga, como Moodle la reconoce, con su HTML."""
    raiz, _, _, _ = clase
    importados = moodle_importa_zip(raiz / "exports" / "moodle-retroalimentacion.zip", _participantes(raiz))
    corregidos = {n: f for n, f in _esperado(raiz).items() if f["estado"] == "corregido"}
    assert set(importados) == set(corregidos)
    for numero, fila in corregidos.items():
        estudiante = sin_apostrofo(fila["student_id"])
        assert importados[numero] == {TAREA + ".html": (raiz / "feedback" / estudiante / TAREA / (TAREA + ".html")).read_bytes()}


def test_canvas_importa_las_notas_del_csv_por_su_id(clase):
    raiz, _, _, _ = clase
    titulo, puntos, notas = canvas_importa(raiz / "exports" / "canvas-calificaciones.csv")
    assert (titulo, puntos) == (TAREA, MAXIMO)
    esperado = _esperado(raiz)
    assert set(notas) == set(esperado)
    for numero, fila in esperado.items():
        assert notas[numero] == (float(fila["score"]) if fila["estado"] == "corregido" else None), (numero, fila)


def test_quien_no_tiene_numero_del_lms_se_dice_en_la_terminal_y_no_se_adivina(clase):
    raiz, _, _, grade = clase
    linea = next(l for l in grade.stdout.splitlines() if l.startswith("Sin número del LMS"))
    sin_numero = {id_ for id_, *_, numero in ROSTER if not numero} - {"pperez1", "pperez2"}  # ellos no entregan
    assert set(re.search(r": (.*)\. Pon su número", linea).group(1).split(", ")) == sin_numero | {"rota"}
    hoja = (raiz / "exports" / "moodle-calificaciones.csv").read_text(encoding="utf-8")
    canvas_ = (raiz / "exports" / "canvas-calificaciones.csv").read_text(encoding="utf-8")
    for nombre in ("Bruno", "Иван", "Ольга"):  # por su nombre sí se recogen, pero al LMS no van sin su número
        assert nombre not in hoja and nombre not in canvas_


def test_notas_xlsx_es_una_hoja_de_calculo_con_las_notas_del_csv(clase):
    """exports/notas.xlsx: la que abre bien un Excel en español. Las mismas filas que notas.csv, los números como
    números, las fechas como fechas y los textos como textos (el que empieza por «=» no es una fórmula)."""
    from openpyxl import load_workbook

    raiz, _, _, _ = clase
    hoja = load_workbook(raiz / "exports" / "notas.xlsx").active
    cabecera = [c.value for c in hoja[1]]
    filas_ = [dict(zip(cabecera, fila)) for fila in hoja.iter_rows(min_row=2)]
    csv_ = list(filas(raiz).values())
    assert [c.value for c in (f["estudiante"] for f in filas_)] == [sin_apostrofo(f["student_id"]) for f in csv_]
    for x, c in zip(filas_, csv_):
        nota = x["nota"]
        if c["score"]:
            assert nota.data_type == "n" and nota.value == float(c["score"]), (x, c)
        else:
            assert nota.value is None, (x, c)
        assert x["estado"].value == c["estado"]
    por_id = {f["estudiante"].value: f for f in filas_}
    assert por_id["formula"]["nombre"].value == NO_SE_NOMBRAN and por_id["formula"]["nombre"].data_type == "s"
    assert por_id["tomas"]["entregada"].value == TARDE.replace(second=59)
    assert por_id["tomas"]["número en el LMS"].value == "106"
    assert por_id["tomas"]["descuento por retraso"].value == 3


# --------------------------------------------------------------------------- la nota no depende de cuándo se descarga

ALUMNOS = 3  # por forma de descarga y por descarga


def _quien(j, forma, vez, alumno):
    """(id en el roster, número en el LMS) del alumno `alumno` de la descarga número `vez` (0 o 1) en la forma `forma`
    (la j-ésima): las dos descargas son de la misma clase, con los mismos cuadernos y las mismas horas, hechas en dos
    momentos distintos."""
    return "%s-%s-%d" % (forma, "ab"[vez], alumno), str(1000 * (j + 1) + 100 * vez + alumno + 1)


@pytest.fixture(scope="module")
def curso_por_descargar(procesos, tmp_path_factory):
    """Un curso con el roster de todas las descargas de la prueba, la fecha de entrega y un cuaderno que entregar."""
    roster = [(*_quien(j, forma, vez, alumno)[:1], "Alumno", "%s %d %d" % (forma, vez, alumno), "",
               _quien(j, forma, vez, alumno)[1])
              for j, forma in enumerate(FORMAS_DE_DESCARGA) for vez in (0, 1) for alumno in range(ALUMNOS)]
    return montar(tmp_path_factory.mktemp("horas") / "curso", roster)


def _descuento(raiz, estudiante):
    """(hora de la entrega en UTC o None, segundos tarde, descuento) como los calcula nbgrader al corregir: la hora de su
    timestamp.txt en el gradebook (autograde, init_assignment) y el descuento del complemento del curso sobre el máximo
    (AssignLatePenalties), solo si llega tarde."""
    from nbgrader.coursedir import CourseDirectory
    from course.complementos import DescuentoPorRetraso

    hora = CourseDirectory(root=str(raiz)).get_existing_timestamp(str(raiz / "submitted" / estudiante / TAREA))
    with Gradebook(gradebook(raiz)) as gb:
        entrega = gb.update_or_create_submission(TAREA, estudiante, **({"timestamp": hora} if hora else {}))
        tarde = entrega.total_seconds_late
    hora = hora and hora.replace(tzinfo=datetime.timezone.utc)  # nbgrader la da en UTC, sin zona
    return hora, tarde, DescuentoPorRetraso().late_submission_penalty(estudiante, MAXIMO, tarde) if tarde > 0 else 0


CERCA_DEL_PLAZO = st.one_of(st.integers(-150, 150), st.integers(-2 * 86400, 4 * 86400))


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(segundos=st.lists(CERCA_DEL_PLAZO, min_size=len(FORMAS_DE_DESCARGA) * ALUMNOS,
                         max_size=len(FORMAS_DE_DESCARGA) * ALUMNOS),
       despues=st.tuples(st.integers(0, 20 * 86400), st.integers(0, 20 * 86400)).filter(lambda d: d[0] != d[1]),
       hojas=st.fixed_dictionaries({f: st.none() | st.sampled_from(["es", "en"]) for f in FORMAS_DE_DESCARGA
                                    if f != "canvas"}))
def test_la_nota_y_el_retraso_no_dependen_de_cuando_se_descarga(curso_por_descargar, segundos, despues, hojas):
    """Cada forma de descarga de Moodle y de Canvas, hecha dos veces (Hypothesis elige cuándo, después de la última
    entrega), con la hoja de calificaciones de Moodle junto al zip o sin ella: cada alumno sale igual en las dos (su
    cuaderno, su hora o que no se sabe y por qué, y por tanto su retraso y su descuento). La hora que se usa nunca es
    anterior a la de verdad (como mucho, el último segundo de su minuto); sin hora, no hay descuento y se dice por qué."""
    base = curso_por_descargar
    nb = (base / "release" / TAREA / CUADERNO).read_bytes()
    plazo_local = PLAZO.replace(tzinfo=None)
    de_verdad = {(forma, alumno): plazo_local + datetime.timedelta(seconds=segundos[j * ALUMNOS + alumno])
                 for j, forma in enumerate(FORMAS_DE_DESCARGA) for alumno in range(ALUMNOS)}
    ultima = max(de_verdad.values())
    with tempfile.TemporaryDirectory() as tmp:
        raiz = Path(tmp) / "curso"
        shutil.copytree(base, raiz)
        archivo = raiz / "downloaded" / TAREA / "archive"
        for j, forma in enumerate(FORMAS_DE_DESCARGA):
            for vez in (0, 1):
                quienes = [_quien(j, forma, vez, alumno) for alumno in range(ALUMNOS)]
                entregas = [("Alumno %s %d %d" % (forma, vez, alumno), numero, nb, de_verdad[forma, alumno])
                            for alumno, (_, numero) in enumerate(quienes)]
                momento = ultima + datetime.timedelta(seconds=despues[vez])
                descarga(raiz, "%s-%d.zip" % (forma, vez), descarga_de_la_clase(forma, entregas, momento))
                if hojas.get(forma):
                    (archivo / ("Calificaciones-%s-%d.csv" % (forma, vez))).write_bytes(hoja_de_moodle(
                        [(numero, nombre, hora) for nombre, numero, _, hora in entregas], hojas[forma]))
        hecho, _ = recoger(raiz)
        assert hecho.returncode == 0, hecho.stderr[-3000:]
        for j, forma in enumerate(FORMAS_DE_DESCARGA):
            for alumno in range(ALUMNOS):
                una, otra = (_quien(j, forma, vez, alumno)[0] for vez in (0, 1))
                dentro = [{p.name: p.read_bytes() for p in (raiz / "submitted" / e / TAREA).iterdir()} for e in (una, otra)]
                assert dentro[0] == dentro[1], (forma, alumno, dentro[0].keys(), dentro[1].keys(), hecho.stderr[-3000:])
                assert dentro[0][CUADERNO] == nb
                hora, tarde, descuento = _descuento(raiz, una)
                assert (hora, tarde, descuento) == _descuento(raiz, otra)
                verdad = de_verdad[forma, alumno].replace(tzinfo=MADRID).astimezone(datetime.timezone.utc)
                sin_hora = dentro[0].get(HORA_DESCONOCIDA, b"").decode()
                # Con la hoja, todas las de Moodle tienen hora; sin ella, las de Moodle de 3.1 a 4.0 en carpetas y las
                # de sin carpetas cuyas fechas no van seguidas; las de Moodle 4.1 y Canvas, nunca.
                if forma == "moodle-plano-antes-de-4.1" and not hojas.get(forma):
                    # Como las guarda el zip: con los segundos de dos en dos.
                    fechas = [de_verdad[forma, a] - datetime.timedelta(seconds=de_verdad[forma, a].second % 2)
                              for a in range(ALUMNOS)]
                    seguidas = all(datetime.timedelta(0) <= b - a <= datetime.timedelta(minutes=5)
                                   for a, b in zip(fechas, fechas[1:]))
                    con_hora = not seguidas
                else:
                    con_hora = bool(hojas.get(forma)) or forma == "moodle-3.1"
                assert (hora is not None) == con_hora, (forma, hojas, sin_hora)
                if hora is None:
                    assert sin_hora.strip() and (tarde, descuento) == (0, 0), (forma, sin_hora)
                    if forma == "canvas":
                        assert ("LATE" in sin_hora) == (verdad > PLAZO), sin_hora
                    continue
                assert not sin_hora
                assert verdad <= hora < verdad + datetime.timedelta(minutes=1), (forma, verdad, hora)
                assert (tarde > 0) == (hora > PLAZO) and (descuento > 0) == (tarde > 0)
                if verdad > PLAZO:
                    assert descuento > 0  # tarde de verdad: tarde con la hora que se usa
                if verdad < PLAZO - datetime.timedelta(minutes=1):
                    assert descuento == 0  # a tiempo, con su minuto entero antes del plazo: a tiempo
