"""Un curso con dos tareas: la de la lección y `doble`, una tarea mínima que no es de esta lección.

Nada del curso sabe de `doble`: su carpeta en source/ basta. Se publica, se recoge de una descarga de
Moodle y se corrige con nbgrader de verdad, con `make grade TAREA=doble` (python -m course.corregir
--tarea doble) y con `nbgrader autograde doble`, y la tarea de la lección, a su lado, no se toca.
"""

import csv
import datetime
import os
import shutil
import subprocess
import sys
import zipfile

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
from nbgrader.api import Gradebook

from course import RAIZ, TAREA, gradebook
from course.entregas import escribir_entrega
from lms import MADRID, PLAZO, moodle

DOBLE = "doble"
CUADERNO = DOBLE + ".ipynb"
BIEN, MAL, LENTA = "def doble(x):\n    return 2 * x\n", "def doble(x):\n    return x + 2\n", \
    "def doble(x):\n    while True:\n        pass\n"
# Por la descarga de Moodle: Ana a tiempo, Bruno un día tarde (un punto menos). A mano, en submitted/: el
# resto, y dos carpetas que nbgrader no sabe manejar, que se apartan.
ROSTER = [("ana", "Ana", "García", "", "101"), ("bruno", "Bruno", "Ruiz", "", "202")]
SUBIDAS = {"ana": (101, "Ana García", BIEN, PLAZO - datetime.timedelta(hours=2)),
           "bruno": (202, "Bruno Ruiz", BIEN, PLAZO + datetime.timedelta(hours=5))}
A_MANO = {"mal": MAL, "lenta": LENTA, "basura": BIEN}
NOTAS = {"ana": 2.0, "bruno": 1.0, "mal": 1.0, "lenta": 0.0, "basura": 2.0}  # x + 2 acierta doble(2)
APARTADAS = {"con\nsalto": "salto de línea", "enlace": "enlace simbólico"}


def _nbgrader(tipo, grade_id, puntos=0):
    return {"nbgrader": {"grade": tipo == "prueba", "grade_id": grade_id, "locked": tipo != "respuesta",
                         "schema_version": 3, "solution": tipo == "respuesta", "task": False,
                         **({"points": puntos} if tipo == "prueba" else {})}}


def cuaderno_doble():
    """El cuaderno fuente de `doble`: una respuesta y dos pruebas, de un punto cada una."""
    return new_notebook(cells=[
        new_markdown_cell("# Doble\n\nEscribe `doble(x)`, que devuelve el doble de `x`."),
        new_code_cell("def doble(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION",
                      metadata=_nbgrader("respuesta", "doble")),
        new_code_cell("assert doble(2) == 4", metadata=_nbgrader("prueba", "doble-dos", 1)),
        new_code_cell("assert doble(5) == 10", metadata=_nbgrader("prueba", "doble-cinco", 1)),
    ], metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})


def _orden(raiz, *orden):
    """Una orden de verdad en el curso de `raiz`, con el bin del entorno delante (nbgrader lanza alembic)."""
    entorno = dict(os.environ, PATH=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]))
    return subprocess.run([sys.executable, *orden], cwd=raiz, env=entorno, capture_output=True, text=True,
                          timeout=900)


def _bien(hecho):
    assert hecho.returncode == 0, hecho.stdout[-3000:] + hecho.stderr[-3000:]
    return hecho.stdout + hecho.stderr


def _entregar(raiz, carpeta, codigo):
    """El cuaderno de release de `doble` del curso de `raiz` con la respuesta `codigo`, en `carpeta`."""
    escribir_entrega(raiz / "release" / DOBLE / CUADERNO, {"doble": codigo}, carpeta)
    return carpeta


@pytest.fixture(scope="module")
def curso(procesos, tmp_path_factory):
    """El curso con las dos tareas, `doble` recogida de Moodle y corregida con `make grade TAREA=doble`."""
    raiz = tmp_path_factory.mktemp("dos-tareas")
    shutil.copy(RAIZ / "nbgrader_config.py", raiz)
    shutil.copytree(RAIZ / "source" / TAREA, raiz / "source" / TAREA)
    (raiz / "source" / DOBLE).mkdir()
    nbformat.write(cuaderno_doble(), raiz / "source" / DOBLE / CUADERNO)
    with open(raiz / "roster.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([("id", "first_name", "last_name", "email", "lms_user_id"), *ROSTER])
    plazo = PLAZO.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    for orden in (["db", "student", "import", "roster.csv"], ["db", "assignment", "add", DOBLE, "--duedate=" + plazo],
                  ["generate_assignment", DOBLE, "--force"]):
        _bien(_orden(raiz, "-m", "nbgrader", *orden))

    archivo = raiz / "downloaded" / DOBLE / "archive"
    archivo.mkdir(parents=True)
    with zipfile.ZipFile(archivo / "moodle.zip", "w") as z:
        for numero, nombre, codigo, hora in SUBIDAS.values():
            subido = _entregar(raiz, raiz / "subidas" / nombre, codigo) / CUADERNO
            # Una descarga de Moodle de 3.1 a 4.0, que guarda la fecha de cada fichero: la de su entrega (la de 4.1 y
            # después lleva la de la descarga, y necesita la hoja de calificaciones al lado: test_entregas_lms).
            z.writestr(zipfile.ZipInfo(moodle(nombre, numero, "mi cuaderno.ipynb", "carpetas-3.1"),
                                       date_time=hora.astimezone(MADRID).timetuple()[:6]), subido.read_bytes())
    recogida = _bien(_orden(raiz, "-m", "nbgrader", "zip_collect", DOBLE))

    for estudiante, codigo in A_MANO.items():
        _entregar(raiz, raiz / "submitted" / estudiante / DOBLE, codigo)
    basura = raiz / "submitted" / "basura" / DOBLE
    os.symlink(raiz / "source" / DOBLE / CUADERNO, basura / "soluciones.txt")
    os.mkfifo(basura / "tuberia.txt")
    (basura / "submission_secret.txt").write_text("secreto")
    _entregar(raiz, raiz / "submitted" / "con\nsalto" / DOBLE, BIEN)
    (raiz / "submitted" / "enlace").mkdir()
    os.symlink(raiz / "submitted" / "ana" / DOBLE, raiz / "submitted" / "enlace" / DOBLE)

    grade = _orden(raiz, "-m", "course.corregir", "--raiz", str(raiz), "--tarea", DOBLE, "--trabajos", "2")
    return {"raiz": raiz, "recogida": recogida, "salida": _bien(grade)}


def _notas(raiz):
    with Gradebook(gradebook(raiz)) as gb:
        return {s.student_id: s.score - s.late_submission_penalty for s in gb.assignment_submissions(DOBLE)}


def test_make_grade_corrige_otra_tarea_sin_cambiar_nada_del_curso(curso):
    raiz = curso["raiz"]
    assert _notas(raiz) == NOTAS
    for estudiante in NOTAS:
        assert (raiz / "feedback" / estudiante / DOBLE / "doble.html").exists(), estudiante
    assert "%d entregas de doble, en 2 procesos." % len(NOTAS) in curso["salida"]
    # La lección, a su lado, ni se publica ni se corrige, ni se monta el curso de demostración.
    assert not (raiz / "release" / TAREA).exists() and not (raiz / "demo").exists()
    assert not list(raiz.glob("autograded/*/" + TAREA))


def test_las_carpetas_imposibles_se_apartan_y_solo_el_cuaderno_y_sus_sellos_llegan(curso):
    for nombre, motivo in APARTADAS.items():
        assert any(nombre.split("\n")[-1] in l and "apartada, sin corregir" in l and motivo in l
                   for l in curso["salida"].splitlines()), (nombre, curso["salida"])
    assert sorted(os.listdir(curso["raiz"] / "autograded" / "basura" / DOBLE)) == [CUADERNO, "submission_secret.txt"]


def test_la_recogida_del_lms_y_el_csv_son_de_la_tarea_que_se_dice(curso):
    raiz = curso["raiz"]
    for estudiante in SUBIDAS:
        assert sorted(os.listdir(raiz / "submitted" / estudiante / DOBLE)) == [CUADERNO, "timestamp.txt"]
    with open(raiz / "exports" / "notas.csv", newline="", encoding="utf-8") as f:
        filas = list(csv.DictReader(f))
    assert {f["assignment"] for f in filas} == {DOBLE}
    corregidos = {f["student_id"]: float(f["score"]) for f in filas if f["estado"] == "corregido"}
    assert corregidos == NOTAS
    assert {f["student_id"].split("\n")[-1] for f in filas if f["estado"] == "no corregido"} == {"salto", "enlace"}
    informe = (raiz / "exports" / "informe.html").read_text(encoding="utf-8")
    assert "Informe de la clase: <code>doble</code>" in informe and "feedback/ana/doble/doble.html" in informe
    assert "<code>doble-cinco</code>" in informe  # sus pruebas, con cuántos las fallan
    # Sin cuestionario en la tarea, ninguna gráfica de preguntas sin contestar: una frase.
    assert "Ningún cuaderno corregido trae respuestas del cuestionario" in informe and "class='cuenta'" not in informe


def test_nbgrader_autograde_de_otra_tarea_da_las_mismas_notas_y_aparta_las_mismas_carpetas(curso):
    raiz = curso["raiz"]
    salida = _bien(_orden(raiz, "-m", "nbgrader", "autograde", DOBLE, "--force"))
    assert _notas(raiz) == NOTAS
    apartadas = [l for l in salida.splitlines() if "Entrega apartada, sin corregir" in l]
    assert len(apartadas) == len(APARTADAS) and all(any(m in l for l in apartadas) for m in APARTADAS.values()), salida
