"""El flujo de entrega que documenta nbgrader, de un curso vacío a las notas, con órdenes de verdad.

Roster desde CSV (`nbgrader db student import`), fecha de entrega (`nbgrader db assignment add
--duedate`), una descarga de Moodle y otra de Canvas recogidas con `nbgrader zip_collect` y el
recolector del curso (course/complementos.py), y `make grade` (course/corregir.py): la entrega
tardía pierde sus puntos por día y el CSV de notas lleva los nombres del roster.
"""

import csv
import datetime
import io
import subprocess
import sys
import zipfile
from zoneinfo import ZoneInfo

import pytest

from course import CUADERNO, TAREA, corregir
from course.entregas import escribir_entrega, leer_ejemplo
from cursos import MAXIMO, copiar_curso, nbgrader

ROSTER = """id,first_name,last_name,email
agarcia,Ana,García López,ana@example.org
bruiz,Bruno,Ruiz,bruno@example.org
"""
MADRID = ZoneInfo("Europe/Madrid")
PLAZO = datetime.datetime(2026, 3, 1, 23, 59, tzinfo=MADRID)
A_TIEMPO = datetime.datetime(2026, 3, 1, 10, 15)           # hora de Madrid, como la guarda el .zip
TARDE = datetime.datetime(2026, 3, 3, 12, 0)               # un día y medio tarde: dos días empezados


def _zip(ruta, miembros):
    with zipfile.ZipFile(ruta, "w") as z:
        for nombre, (contenido, hora) in miembros.items():
            z.writestr(zipfile.ZipInfo(nombre, date_time=hora.timetuple()[:6]), contenido)


@pytest.fixture(scope="module")
def curso(tmp_path_factory):
    raiz = copiar_curso(tmp_path_factory.mktemp("lms") / "curso")
    (raiz / "roster.csv").write_text(ROSTER, encoding="utf-8")
    for orden in (["db", "student", "import", "roster.csv"],
                  ["db", "assignment", "add", TAREA,
                   "--duedate=%s" % PLAZO.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")],
                  ["generate_assignment", TAREA, "--force"]):
        hecho = nbgrader(raiz, *orden)
        assert hecho.returncode == 0, (orden, hecho.stdout + hecho.stderr)

    # Las dos descargas, hechas con la respuesta de Ana (todos los puntos) para que solo cuente el retraso.
    entrega = raiz.parent / "entrega"
    escribir_entrega(raiz / "release" / TAREA / CUADERNO,
                     leer_ejemplo(corregir.EJEMPLOS / "ana.toml")["respuestas"], entrega)
    cuaderno = (entrega / CUADERNO).read_bytes()
    archivo = raiz / "downloaded" / TAREA / "archive"
    archivo.mkdir(parents=True)
    _zip(archivo / "moodle.zip", {"Ana García López_101_assignsubmission_file_/" + CUADERNO: (cuaderno, A_TIEMPO)})
    _zip(archivo / "canvas.zip", {"ruizbruno_LATE_202_303_%s-1.ipynb" % TAREA: (cuaderno, TARDE)})

    recogido = nbgrader(raiz, "zip_collect", TAREA)
    assert recogido.returncode == 0, recogido.stdout + recogido.stderr
    hecho = subprocess.run([sys.executable, "-m", "course.corregir", "--raiz", str(raiz)], cwd=raiz,
                           capture_output=True, text=True, timeout=900)
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    return raiz


def test_zip_collect_deja_cada_entrega_con_su_estudiante_del_roster_y_su_hora(curso):
    for estudiante, hora in (("agarcia", A_TIEMPO), ("bruiz", TARDE)):
        carpeta = curso / "submitted" / estudiante / TAREA
        assert (carpeta / CUADERNO).exists(), estudiante
        esperada = hora.replace(tzinfo=MADRID).astimezone(datetime.timezone.utc)
        guardada = (carpeta / "timestamp.txt").read_text().strip()
        assert guardada.startswith(esperada.strftime("%Y-%m-%d %H:%M:%S")), (estudiante, guardada)
    assert sorted(p.name for p in (curso / "submitted").iterdir()) == ["agarcia", "bruiz"]


def test_las_notas_llevan_los_nombres_y_el_descuento_por_retraso(curso):
    filas = {f["student_id"]: f for f in csv.DictReader(io.StringIO((curso / "exports" / "notas.csv").read_text("utf-8")))}
    assert set(filas) == {"agarcia", "bruiz"}
    assert (filas["agarcia"]["first_name"], filas["agarcia"]["last_name"]) == ("Ana", "García López")
    assert (filas["bruiz"]["first_name"], filas["bruiz"]["last_name"]) == ("Bruno", "Ruiz")
    retraso = TARDE.replace(tzinfo=MADRID) - PLAZO
    dias = -(-retraso.total_seconds() // 86400)
    assert float(filas["agarcia"]["late_submission_penalty"]) == 0
    assert float(filas["agarcia"]["score"]) == float(filas["agarcia"]["raw_score"]) == MAXIMO
    assert float(filas["bruiz"]["raw_score"]) == MAXIMO
    assert float(filas["bruiz"]["late_submission_penalty"]) == dias * 1.0
    assert float(filas["bruiz"]["score"]) == MAXIMO - dias
    html = (curso / "exports" / "informe.html").read_text(encoding="utf-8")
    assert "García López" in html
