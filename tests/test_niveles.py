"""Los dos niveles de las pruebas (conftest.py): una prueba lenta no cae en el rápido sin que se vea.

Se pasa pytest de verdad, con el conftest.py de estas pruebas, sobre unas pruebas de ejemplo en una
carpeta temporal.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EJEMPLO = '''
import subprocess
import sys

import pytest


def lanzar():
    return subprocess.run([sys.executable, "-c", "print(1)"], capture_output=True, text=True, check=True).stdout


def test_sin_procesos():
    assert sum(range(4)) == 6


def test_lanza_sin_pedirlo():
    assert lanzar() == "1\\n"


def test_lanza_y_se_traga_el_fallo():
    try:
        lanzar()
    except Exception:
        pass


@pytest.fixture
def lanzado(procesos):
    return lanzar()


def test_lanza_en_un_fixture_que_pide_procesos(lanzado):
    assert lanzado == "1\\n"


@pytest.mark.usefixtures("procesos")
def test_lanza_y_pide_procesos():
    assert lanzar() == "1\\n"
'''


def _pytest(carpeta, *opciones):
    """{prueba: resultado} y la salida de pytest sobre las pruebas de ejemplo."""
    hecho = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", *opciones],
                           cwd=carpeta, capture_output=True, text=True, timeout=300)
    resultados = dict((p, r) for r, p in re.findall(r"^(PASSED|FAILED) test_ejemplo\.py::(\w+)", hecho.stdout, re.M))
    return resultados, hecho.stdout


@pytest.fixture(scope="module")
def carpeta(procesos, tmp_path_factory):
    carpeta = tmp_path_factory.mktemp("niveles")
    shutil.copy(Path(__file__).with_name("conftest.py"), carpeta)
    (carpeta / "test_ejemplo.py").write_text(EJEMPLO, encoding="utf-8")
    return carpeta


def test_lanzar_un_proceso_sin_pedir_procesos_falla_aunque_la_prueba_se_trague_el_fallo(carpeta):
    resultados, salida = _pytest(carpeta)
    assert resultados == {"test_sin_procesos": "PASSED", "test_lanza_sin_pedirlo": "FAILED",
                          "test_lanza_y_se_traga_el_fallo": "FAILED", "test_lanza_en_un_fixture_que_pide_procesos": "PASSED",
                          "test_lanza_y_pide_procesos": "PASSED"}, salida
    for prueba in ("test_lanza_sin_pedirlo", "test_lanza_y_se_traga_el_fallo"):
        assert re.search(r"test_ejemplo\.py::%s lanza un proceso \(\S*python\S* -c print\(1\)\) sin pedir el fixture "
                         r"`procesos`" % prueba, salida), salida


def test_el_nivel_de_cada_prueba_sale_de_sus_fixtures(carpeta):
    rapidas, _ = _pytest(carpeta, "-m", "rapido", "-p", "no:xdist")  # como `make test-rapido`
    lentas, _ = _pytest(carpeta, "-m", "lento")
    assert set(rapidas) == {"test_sin_procesos", "test_lanza_sin_pedirlo", "test_lanza_y_se_traga_el_fallo"}
    assert lentas == {"test_lanza_en_un_fixture_que_pide_procesos": "PASSED", "test_lanza_y_pide_procesos": "PASSED"}


# El reparto de make test (conftest.py, UnFicheroCadaVez): un proceso no recibe otro fichero hasta acabar el suyo.

ANOTAR = '''
import os
import time


def anotar(nombre, segundos=0):
    time.sleep(segundos)
    with open("reparto.txt", "a") as f:
        f.write("%s %s\\n" % (os.environ["PYTEST_XDIST_WORKER"], nombre))
'''


def test_un_proceso_no_recibe_otro_fichero_hasta_acabar_el_suyo(procesos, tmp_path):
    """Un fichero de dos pruebas que tarda es el primero de la cola; los otros tres, rápidos. Con el reparto de
    pytest-xdist, el proceso del largo se llevaba ya el siguiente y lo dejaba esperando; aquí, los tres van al otro
    proceso, que está libre. Falla también si pytest-xdist cambia lo que conftest.py sustituye."""
    from xdist.scheduler import LoadFileScheduling

    assert callable(getattr(LoadFileScheduling, "_reschedule", None)) and callable(LoadFileScheduling._pending_of)
    shutil.copy(Path(__file__).with_name("conftest.py"), tmp_path)
    (tmp_path / "anotar.py").write_text(ANOTAR, encoding="utf-8")
    (tmp_path / "test_a_largo.py").write_text(
        "from anotar import anotar\n\ndef test_1():\n    anotar('a', 3)\n\ndef test_2():\n    anotar('a')\n",
        encoding="utf-8")
    for nombre in "bcd":
        (tmp_path / ("test_%s.py" % nombre)).write_text(
            "from anotar import anotar\n\ndef test_1():\n    anotar(%r)\n" % nombre, encoding="utf-8")
    hecho = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "--dist", "loadfile",
                            "--no-loadscope-reorder"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    reparto = [linea.split() for linea in (tmp_path / "reparto.txt").read_text().splitlines()]
    proceso_del_largo = {proceso for proceso, fichero in reparto if fichero == "a"}
    assert len(proceso_del_largo) == 1 and len(reparto) == 5, reparto
    assert all(proceso not in proceso_del_largo for proceso, fichero in reparto if fichero != "a"), reparto
