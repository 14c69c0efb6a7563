"""La lectura de una entrega (course/aislado/entrada.py), sin nbgrader: lo de toda la clase está en test_catalogo."""

import json
import os
import tempfile

from hypothesis import HealthCheck, given, settings, strategies as st

from course import CUADERNO, NO_CORREGIDO, RAIZ, TAREA, limites
from course.aislado.entrada import elegir_respuesta, leer_cuaderno, motivo_sin_corregir, normalizar

RELEASE = json.loads((RAIZ / "release" / TAREA / CUADERNO).read_text(encoding="utf-8"))


def _celdas(*celdas):
    """Celdas normalizadas a partir de (tipo, código, grade_id o None)."""
    return normalizar({"cells": [{"cell_type": t, "source": s, "metadata": {"nbgrader": {"grade_id": g}} if g else {}}
                                 for t, s, g in celdas]}).cells


def test_un_cuaderno_normal_se_lee_entero(tmp_path):
    (tmp_path / CUADERNO).write_text(json.dumps(RELEASE))
    datos, problema = leer_cuaderno(str(tmp_path / CUADERNO))
    assert problema is None and len(normalizar(datos).cells) == len(RELEASE["cells"])


def test_enlaces_tuberias_json_roto_y_ficheros_enormes_no_se_leen_y_dicen_por_que(tmp_path):
    os.symlink(RAIZ / "source" / TAREA / CUADERNO, tmp_path / "enlace.ipynb")
    os.mkfifo(tmp_path / "tuberia.ipynb")
    (tmp_path / "roto.ipynb").write_text('{"cells": [')
    (tmp_path / "hondo.ipynb").write_text("[" * 100_000 + "]" * 100_000)
    with open(tmp_path / "enorme.ipynb", "wb") as f:
        f.truncate(limites.CUADERNO_ENTREGADO + 1)
    motivos = {n: leer_cuaderno(str(tmp_path / (n + ".ipynb")))[1] for n in ("enlace", "tuberia", "roto", "hondo", "enorme")}
    assert "enlace simbólico" in motivos["enlace"] and "fichero normal" in motivos["tuberia"]
    assert "JSON" in motivos["roto"] and "JSON" in motivos["hondo"] and "ocupa más de" in motivos["enorme"]
    assert "celdas" in normalizar([1, 2]).metadata["curso_avisos"][0]


def test_de_varias_copias_cuenta_la_ultima_que_se_cambio():
    celdas = _celdas(("code", "def ejecutar(ll, e):\n    return 1\n", "ejecutar"),
                     ("code", "# TU CÓDIGO AQUÍ", "ejecutar"))
    fuente, avisos = elegir_respuesta(celdas, "ejecutar", "# TU CÓDIGO AQUÍ")
    assert fuente.endswith("return 1\n") and "2 celdas" in avisos[0]


def test_sin_marca_se_busca_por_el_nombre_pero_no_en_el_codigo_de_la_leccion():
    leccion = "def ejecutar(llamada, entorno):\n    return None\n"
    celdas = _celdas(("code", leccion, None), ("markdown", "texto", None))
    assert elegir_respuesta(celdas, "ejecutar", "stub", {leccion.strip()})[0] is None
    celdas = _celdas(("code", leccion, None), ("code", "respuesta_2 = 'b'\n", None))
    assert elegir_respuesta(celdas, "respuesta-2", "stub", {leccion.strip()})[0] == "respuesta_2 = 'b'\n"


def test_una_respuesta_demasiado_grande_no_cuenta():
    celdas = _celdas(("code", "x = 1\n#" + "x" * limites.CODIGO_RESPUESTA, "ejecutar"))
    fuente, avisos = elegir_respuesta(celdas, "ejecutar", "stub")
    assert fuente is None and "ocupa más de" in avisos[0]


# Un nombre de fichero cualquiera de Linux: bytes sin «/» ni el nulo, con caracteres de control, bytes que no son
# UTF-8 y letras de cualquier escritura.
_NOMBRES = st.one_of(st.binary(min_size=1, max_size=40),
                     st.text(min_size=1, max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass"))
                     ).map(lambda b: b.replace(b"/", b"").replace(b"\0", b"")[:255]).filter(lambda b: b not in (b"", b".", b".."))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nombres=st.lists(_NOMBRES, min_size=1, max_size=6, unique=True), nota=st.one_of(st.none(), st.binary(max_size=300)))
def test_el_motivo_de_no_corregir_no_lleva_nada_de_la_entrega_sin_escapar(nombres, nota):
    """El motivo de una carpeta sin cuaderno sale en la terminal de make grade: con los nombres de sus ficheros (o
    el texto de su no-corregido.txt) tal cual, un nombre con «\\x1b[2J» o un salto de línea borraba la pantalla o
    fabricaba una línea, y uno que no es UTF-8 podía parar make grade (con una configuración regional UTF-8,
    Python escribe en la terminal en modo estricto: UnicodeEncodeError)."""
    with tempfile.TemporaryDirectory() as temporal:
        carpeta = os.path.join(temporal, TAREA)
        os.mkdir(carpeta)
        for nombre in nombres:
            if nombre != os.fsencode(CUADERNO):
                open(os.path.join(os.fsencode(carpeta), nombre), "wb").close()
        if nota is not None:
            with open(os.path.join(carpeta, NO_CORREGIDO), "wb") as f:
                f.write(nota)
        motivo = motivo_sin_corregir(carpeta)
    assert motivo and all(c.isprintable() for c in motivo), repr(motivo)
    motivo.encode("utf-8")  # sin sustitutos (bytes que no son texto): se puede escribir en cualquier terminal
    assert len(motivo) <= limites.NOTA_SIN_CORREGIR + 500
