"""Los dos niveles de las pruebas (conftest.py): una prueba lenta no cae en el rápido sin que se vea.

Se pasa pytest de verdad, con el conftest.py de estas pruebas, sobre unas pruebas de ejemplo en una
carpeta temporal.
"""

import json
import os
import re
import shlex
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


# Los dos niveles de make test (Makefile): primero el rápido (rapido y cuaderno), y el lento solo si pasa.

RAIZ = Path(__file__).resolve().parent.parent
# Lo que make no tiene que hacer para ver las órdenes de las pruebas: instalar, bubblewrap y el sitio.
SIN_PREPARAR = ["-o", ".venv/.instalado", "-o", "bwrap", "-o", "lite"]


def _niveles_de_make_test():
    """Las expresiones -m de cada pytest que lanza `make test`, en su orden."""
    hecho = subprocess.run(["make", "-n", *SIN_PREPARAR, "test"], cwd=RAIZ, capture_output=True, text=True,
                           check=True, timeout=60)
    ordenes = [shlex.split(linea) for linea in hecho.stdout.splitlines() if " -m pytest " in linea]
    return [orden[orden.index("-m", orden.index("pytest")) + 1] for orden in ordenes]


def _recogidas(expresion):
    """(las pruebas de tests/ que elige `-m expresion`, cuántas hay en total)."""
    hecho = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                            "-m", expresion], cwd=RAIZ, capture_output=True, text=True, timeout=300)
    cuenta = re.search(r"^(\d+)(?:/(\d+))? tests? collected", hecho.stdout, re.M)
    assert hecho.returncode == 0 and cuenta, hecho.stdout[-3000:] + hecho.stderr[-3000:]
    elegidas = {linea for linea in hecho.stdout.splitlines() if linea.startswith("tests/") and "::" in linea}
    assert len(elegidas) == int(cuenta.group(1))
    return elegidas, int(cuenta.group(2) or cuenta.group(1))


def test_make_test_pasa_cada_prueba_una_vez_primero_las_rapidas_y_el_cuaderno(procesos):
    rapido, lento = _niveles_de_make_test()
    primero, total = _recogidas(rapido)
    despues, total_ = _recogidas(lento)
    assert total == total_ and not primero & despues and len(primero) + len(despues) == total
    # En el rápido, el cuaderno de la lección ejecutado: la fuente con su solución y la release.
    assert {"tests/test_curso.py::test_la_fuente_se_ejecuta_entera_sin_errores",
            "tests/test_curso.py::test_la_release_se_ejecuta_entera_y_solo_fallan_las_pruebas_que_esperan_la_respuesta",
            "tests/test_harness.py::test_la_libreria_no_define_ejecutar"} <= primero
    assert "tests/test_curso.py::test_validate_acepta_la_fuente" in despues


PRUEBAS_DE_LOS_NIVELES = {
    "test_rapida.py": '''
import os

def test_rapida():
    with open("orden.txt", "a") as f:
        f.write("rapida\\n")
    assert os.environ.get("ROMPER") != "rapida"
''',
    "test_cuaderno.py": '''
import pytest

@pytest.fixture(scope="session")
def leccion_ejecutada(procesos):
    return {}

def test_cuaderno(leccion_ejecutada):
    with open("orden.txt", "a") as f:
        f.write("cuaderno\\n")
''',
    "test_lenta.py": '''
import pytest

@pytest.mark.usefixtures("procesos")
def test_lenta():
    with open("orden.txt", "a") as f:
        f.write("lenta\\n")
''',
}


def test_el_nivel_lento_empieza_cuando_acaba_el_rapido_y_solo_si_pasa(procesos, tmp_path):
    """`make test` de verdad, con el Makefile y el conftest.py del curso, sobre tres pruebas de ejemplo."""
    shutil.copy(RAIZ / "Makefile", tmp_path)
    (tmp_path / "tests").mkdir()
    shutil.copy(Path(__file__).with_name("conftest.py"), tmp_path / "tests")
    for nombre, codigo in PRUEBAS_DE_LOS_NIVELES.items():
        (tmp_path / "tests" / nombre).write_text(codigo, encoding="utf-8")

    def make_test(**entorno):
        (tmp_path / "orden.txt").unlink(missing_ok=True)
        hecho = subprocess.run(["make", *SIN_PREPARAR, "BIN=" + os.path.dirname(sys.executable),
                                "PROCESOS_DE_PRUEBAS=2", "test"], cwd=tmp_path, env=dict(os.environ, **entorno),
                               capture_output=True, text=True, timeout=300)
        return hecho.returncode, (tmp_path / "orden.txt").read_text().split(), hecho.stdout + hecho.stderr

    codigo, orden, salida = make_test()
    assert codigo == 0 and sorted(orden[:2]) == ["cuaderno", "rapida"] and orden[2:] == ["lenta"], salida
    # Lo que tarda cada fichero, apuntado por nivel: el orden del reparto de cada uno sale de lo suyo.
    cache = tmp_path / ".pytest_cache" / "v" / "curso-harness"
    assert set(json.loads((cache / "duraciones-rapido-or-cuaderno").read_text())) == {"tests/test_rapida.py",
                                                                                       "tests/test_cuaderno.py"}
    assert set(json.loads((cache / "duraciones-lento-and-not-cuaderno").read_text())) == {"tests/test_lenta.py"}
    codigo, orden, salida = make_test(ROMPER="rapida")
    assert codigo != 0 and sorted(orden) == ["cuaderno", "rapida"], salida
