"""Lo que hace un profesor con su LMS, de verdad: roster, fecha de entrega, la descarga de Moodle o Canvas,
`nbgrader zip_collect` y `make grade` (course/corregir.py), en un curso de una carpeta temporal."""

import csv
import datetime
import io
import subprocess
import sys
import tarfile
import zipfile
from zoneinfo import ZoneInfo

from course import TAREA
from cursos import copiar_curso, nbgrader

MADRID = ZoneInfo("Europe/Madrid")
PLAZO = datetime.datetime(2026, 3, 1, 23, 59, tzinfo=MADRID)
A_TIEMPO = datetime.datetime(2026, 3, 1, 10, 15)    # hora de Madrid, como la guarda el .zip del LMS
# Para medir memoria: nbgrader de verdad, que al salir dice el máximo de memoria residente que ha usado.
# Con VmHWM, el de su propia memoria: ru_maxrss arrastra, tras el exec, el del proceso que lo lanzó.
MEDIDO = ("import atexit, re, runpy, sys\n"
          "pico = lambda: int(re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read()).group(1))\n"
          "atexit.register(lambda: sys.stderr.write('MEMORIA %d\\n' % pico()))\n"
          "sys.argv = ['nbgrader'] + sys.argv[1:]\n"
          "runpy.run_module('nbgrader', run_name='__main__', alter_sys=True)\n")


def montar(raiz, roster):
    """Un curso con el roster [(id, nombre, apellidos, email, lms_user_id)] y la fecha de entrega.

    release/ es la copia del repositorio (la misma que genera nbgrader: test_curso lo comprueba) y la
    tarea aún no está generada: `make grade` la genera al empezar, y un `generate_assignment` antes
    sería uno de más.
    """
    copiar_curso(raiz)
    with open(raiz / "roster.csv", "w", newline="", encoding="utf-8") as f:
        escritor = csv.writer(f)
        escritor.writerow(["id", "first_name", "last_name", "email", "lms_user_id"])
        escritor.writerows(roster)
    plazo = PLAZO.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    for orden in (["db", "student", "import", "roster.csv"], ["db", "assignment", "add", TAREA, "--duedate=" + plazo]):
        hecho = nbgrader(raiz, *orden)
        assert hecho.returncode == 0, (orden, hecho.stdout + hecho.stderr)
    return raiz


def moodle(nombre, numero, fichero):
    """El nombre que da Moodle («Descargar todas las entregas», en carpetas) a un fichero subido."""
    return "%s_%s_assignsubmission_file_/%s" % (nombre, numero, fichero)


def canvas(nombre, numero, fichero, tarde=False):
    """El nombre que da Canvas («Download Submissions») a un fichero subido."""
    return "%s%s_%s_%s_%s" % (nombre, "_LATE" if tarde else "", numero, 9000 + int(numero), fichero)


def comprimido(miembros, nivel=6):
    """Los bytes de un .zip con {nombre: bytes}."""
    memoria = io.BytesIO()
    with zipfile.ZipFile(memoria, "w", zipfile.ZIP_DEFLATED, compresslevel=nivel) as z:
        for nombre, datos in miembros.items():
            z.writestr(nombre, datos)
    return memoria.getvalue()


def tar_gz(miembros):
    """Los bytes de un .tar.gz con {nombre: bytes}."""
    memoria = io.BytesIO()
    with tarfile.open(fileobj=memoria, mode="w:gz") as t:
        for nombre, datos in miembros.items():
            info = tarfile.TarInfo(nombre)
            info.size = len(datos)
            t.addfile(info, io.BytesIO(datos))
    return memoria.getvalue()


def descarga(raiz, nombre, miembros):
    """Deja en downloaded/<tarea>/archive/ la descarga del LMS: un .zip con {nombre: (bytes, hora de Madrid)}."""
    archivo = raiz / "downloaded" / TAREA / "archive"
    archivo.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archivo / nombre, "w", zipfile.ZIP_DEFLATED) as z:
        for miembro, (datos, hora) in miembros.items():
            info = zipfile.ZipInfo(miembro, date_time=hora.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, datos)


def recoger(raiz, *opciones):
    """`nbgrader zip_collect` de verdad; devuelve (proceso, memoria residente máxima en bytes)."""
    hecho = subprocess.run([sys.executable, "-c", MEDIDO, "zip_collect", TAREA, *opciones], cwd=raiz,
                           capture_output=True, text=True, timeout=600)
    memoria = [int(l.split()[1]) * 1024 for l in hecho.stderr.splitlines() if l.startswith("MEMORIA ")]
    return hecho, memoria[-1] if memoria else None


def corregir(raiz, trabajos=None):
    """`make grade` (python -m course.corregir) de verdad sobre el curso de `raiz`."""
    orden = [sys.executable, "-m", "course.corregir", "--raiz", str(raiz)]
    return subprocess.run(orden + (["--trabajos", str(trabajos)] if trabajos else []), cwd=raiz,
                          capture_output=True, text=True, timeout=1500)


def filas(raiz):
    """Las filas de exports/notas.csv leídas con el módulo csv: {student_id: fila}."""
    with open(raiz / "exports" / "notas.csv", newline="", encoding="utf-8") as f:
        leidas = list(csv.DictReader(f))
    resultado = {sin_apostrofo(f["student_id"]): f for f in leidas}
    assert len(resultado) == len(leidas), "dos filas del CSV con el mismo estudiante"
    return resultado


def sin_apostrofo(celda):
    """El texto de una celda del CSV tal como era antes de neutralizar una fórmula."""
    from course.exportar import FORMULA
    return celda[1:] if celda.startswith("'") and celda[1:].lstrip(" ").startswith(FORMULA) else celda
