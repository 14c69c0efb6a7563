"""El lado de confianza, acotado: lo que una respuesta hace no agranda ni la memoria de quien corrige ni lo
que se escribe de ella.

Un proceso de la corrección de la clase (course/trabajador.py, el mismo que usa `make grade`) corrige
la clase dos veces seguidas, con una respuesta hostil la primera de cada vuelta, y su memoria se mide
desde fuera (psutil) entre entrega y entrega.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import psutil
import pytest

from course import CUADERNO, TAREA, limites
from course.entregas import escribir_entrega
from course.aislado.corrector import acotado

pytestmark = pytest.mark.usefixtures("procesos")

BUENA = (Path(__file__).parent / "catalogo" / "correcto_try_except.py").read_text(encoding="utf-8")
BUENA = BUENA.split('"""', 2)[2].lstrip("\n")  # sin la cabecera del catálogo
assert BUENA.count("def ejecutar(ll, entorno):\n") == 1

# Cada llamada a una herramienta con un argumento de casi 2 MB viaja al corrector (para apuntar que la
# herramienta corre); cuando la prueba hace fallar a la herramienta, el corrector lanza una excepción
# de sus casos ocultos, que es la misma para todos los estudiantes. Se repite en cada llamada que falla.
HOSTIL_MEMORIA = '''
GRANDE = "x" * 1_900_000

def _cargar(entorno):
    try:
        FUNCIONES["leer"](entorno, GRANDE)
    except FileNotFoundError:
        return  # la herramienta de verdad: esta prueba no la hace fallar
    except Exception:
        for _ in range(25):
            try:
                FUNCIONES["leer"](entorno, GRANDE)
            except Exception:
                pass

''' + BUENA.replace("def ejecutar(ll, entorno):\n", "def ejecutar(ll, entorno):\n    _cargar(entorno)\n", 1)

# Parece honesta, pero cuando la herramienta falla lanza una excepción con un texto enorme: cada veredicto
# que la cita, y el resumen, lo llevarían entero.
HOSTIL_TEXTOS = BUENA.replace("def ejecutar(ll, entorno):\n", '''def ejecutar(ll, entorno):
    if ll["name"] == "escribir":
        raise ValueError("y" * 900_000)
''', 1)

CLASE = ["hostil-memoria", "honesta-1", "hostil-textos", "honesta-2"]
RESPUESTAS = {"hostil-memoria": HOSTIL_MEMORIA, "hostil-textos": HOSTIL_TEXTOS, "honesta-1": BUENA,
              "honesta-2": BUENA, "calentar": BUENA}

# Un proceso de la corrección, como los de `make grade`: dice «listo <estudiante>» tras cada entrega y espera
# una línea antes de la siguiente, para que la prueba mida su memoria entre una y otra.
TRABAJADOR = """
import json, os, sys
from course import trabajador
canal = os.fdopen(os.dup(1), "w")  # lo que escriben los núcleos, que heredan el 1, no se mezcla con esto
os.dup2(2, 1)
curso = trabajador.Curso(sys.argv[1], sys.argv[2])
for estudiante in sys.argv[3:]:
    r = trabajador.corregir_una(curso, estudiante)
    print(json.dumps({"estudiante": estudiante, "nota": r.nota, "motivo": r.motivo}), file=canal, flush=True)
    sys.stdin.readline()
"""


@pytest.fixture(scope="module")
def clase(publicado, tmp_path_factory):
    """La clase corregida dos veces por un mismo proceso: (curso, [(estudiante, nota, memoria residente)])."""
    curso = publicado(tmp_path_factory.mktemp("acotado") / "curso")
    release = curso / "release" / TAREA / CUADERNO
    for estudiante, codigo in RESPUESTAS.items():
        escribir_entrega(release, {"ejecutar": codigo}, curso / "submitted" / estudiante / TAREA)
    orden = ["calentar"] + CLASE + CLASE
    # Los trozos grandes, cada uno en su propia proyección de memoria: al soltarlos vuelven al sistema, y la
    # memoria residente dice lo que el proceso aún tiene, no lo que tuvo.
    entorno = dict(os.environ, MALLOC_MMAP_THRESHOLD_=str(256 * limites.KIB))
    proceso = subprocess.Popen([sys.executable, "-c", TRABAJADOR, str(curso), TAREA, *orden], cwd=curso, env=entorno,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    medidas = []
    try:
        for _ in orden:
            hecho = json.loads(proceso.stdout.readline())
            medidas.append((hecho["estudiante"], hecho["nota"], psutil.Process(proceso.pid).memory_info().rss))
            proceso.stdin.write("\n")
            proceso.stdin.flush()
        proceso.wait(timeout=60)
    finally:
        proceso.kill()
    return curso, medidas


def test_una_respuesta_hostil_no_deja_crecer_la_memoria_de_quien_corrige(clase):
    _, medidas = clase
    calentado = medidas[0][2]
    primera, segunda = medidas[len(CLASE)][2], medidas[2 * len(CLASE)][2]
    subidas = ["%s %+.0f MB" % (e, (m - calentado) / limites.MIB) for e, _, m in medidas]
    # Sin las trazas de las excepciones compartidas, cada vuelta dejaba cientos de MB más.
    assert primera - calentado < 100 * limites.MIB, subidas
    assert segunda - primera < 50 * limites.MIB, subidas


def test_junto_a_las_hostiles_las_honestas_sacan_todos_sus_puntos(clase):
    _, medidas = clase
    notas = {}
    for estudiante, nota, _ in medidas:
        notas.setdefault(estudiante, set()).add(nota)
    maximo = notas["calentar"]
    assert len(maximo) == 1 and None not in maximo
    assert notas["honesta-1"] == notas["honesta-2"] == maximo, notas


def test_lo_que_se_escribe_de_una_respuesta_tiene_tope_y_dice_donde_se_ha_cortado(clase):
    curso, _ = clase
    corregido = curso / "autograded" / "hostil-textos" / TAREA / CUADERNO
    retro = next((curso / "feedback" / "hostil-textos" / TAREA).glob("*.html"))
    release = (curso / "release" / TAREA / CUADERNO).stat().st_size
    # Sin topes, cada veredicto que cita la excepción llevaba sus 1,9 MB (y el resumen otros tantos).
    celdas = 30
    assert corregido.stat().st_size < release + limites.SALIDA_POR_CUADERNO + celdas * 3 * limites.TEXTO_DEL_CORRECTOR
    assert retro.stat().st_size < 2 * (release + celdas * 3 * limites.TEXTO_DEL_CORRECTOR) + limites.SALIDA_POR_CUADERNO
    nb = nbformat.read(corregido, as_version=4)
    cortados = [s for c in nb.cells for s in c.get("outputs", []) if "cortado: este texto tenía" in s.get("evalue", "")]
    assert cortados
    assert "cortado: este texto tenía" in retro.read_text(encoding="utf-8")


def test_acotado_deja_los_textos_cortos_como_estan_y_corta_los_largos_con_una_nota():
    assert acotado("hola") == "hola"
    largo = acotado("z" * (limites.TEXTO_DEL_CORRECTOR + 5))
    assert largo.startswith("z" * limites.TEXTO_DEL_CORRECTOR) and "tenía %d caracteres" % (limites.TEXTO_DEL_CORRECTOR + 5) in largo
