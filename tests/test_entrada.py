"""La lectura de una entrega (course/aislado/entrada.py), sin nbgrader: lo de toda la clase está en test_catalogo."""

import json
import os

from course import CUADERNO, RAIZ, TAREA, limites
from course.aislado.entrada import elegir_respuesta, leer_cuaderno, normalizar

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
