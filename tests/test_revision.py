"""La lista de comprobación `revisar(ejecutar)`: con las entregas del catálogo, y en el cuaderno de release con un núcleo de verdad."""

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from course import CUADERNO, RAIZ, TAREA
from harness.revision import CLAUSULAS, DIAGNOSTICOS, revisar

CATALOGO = Path(__file__).resolve().parent / "catalogo"


def _ejecutar(nombre):
    """El `ejecutar` de una entrega del catálogo, definido como en el cuaderno."""
    espacio = {"__name__": "__main__"}
    exec("from harness import *", espacio)
    exec(compile((CATALOGO / (nombre + ".py")).read_text(encoding="utf-8"), nombre, "exec"), espacio)
    return espacio["ejecutar"]


def _lineas(ejecutar, capsys):
    """Las líneas ✔ y ✘ que imprime revisar, y todo lo impreso."""
    revisar(ejecutar)
    salida = capsys.readouterr().out
    return [l for l in salida.splitlines() if l.startswith(("✔", "✘"))], salida


@pytest.mark.parametrize("nombre", sorted(f.stem for f in CATALOGO.glob("correcto_*.py")))
def test_una_respuesta_correcta_cumple_cada_clausula(nombre, capsys):
    lineas, salida = _lineas(_ejecutar(nombre), capsys)
    assert len(lineas) == len(CLAUSULAS) and all(l.startswith("✔") for l in lineas), salida
    assert "%d de %d cláusulas cumplidas" % (len(CLAUSULAS), len(CLAUSULAS)) in salida


@pytest.mark.parametrize("nombre", sorted(f.stem for f in CATALOGO.glob("mal_*.py") if f.stem != "mal_sintaxis"))
def test_ninguna_respuesta_mal_pasa_la_lista_entera(nombre, capsys):
    """La lista no dice «todo bien» a una entrega que pierde puntos al corregir, y da una línea por cláusula."""
    lineas, salida = _lineas(_ejecutar(nombre), capsys)
    assert len(lineas) == len(CLAUSULAS), salida
    assert any(l.startswith("✘") for l in lineas), salida


# (entrega, la cláusula cuya línea lleva ✘, la equivocación que nombra). Las cláusulas, por su docstring.
EQUIVOCACIONES = [
    ("mal_sin_empezar", "contesta", "sin-empezar"),
    ("mal_a_medias_lanza", "contesta", "lanza-al-fallar"),
    ("mal_devuelve_none", "contesta", "no-contesta"),
    ("mal_tupla", "contesta", "no-es-un-tool-result"),
    ("mal_reintenta_siempre", "contesta", "reintenta"),
    ("mal_solo_filenotfound", "excepciones", "captura-solo-un-tipo"),
    ("mal_repr", "excepciones", "contenido-repr"),
    ("mal_tipo_y_mensaje", "excepciones", "prefijo-en-el-mensaje"),
    ("mal_no_se_ha_ejecutado", "excepciones", "no-se-ha-ejecutado-al-fallar"),
    ("mal_traga_error", "excepciones", "error-como-resultado"),
    ("mal_mensaje_propio", "excepciones", "mensaje-cambiado"),
    ("mal_reintenta", "una-vez", "reintenta"),
    ("mal_reintenta_transitorios", "una-vez", "reintenta"),
    ("mal_llama_dos_veces", "una-vez", "ejecuta-dos-veces"),
    ("mal_arregla_rutas", "sin-arreglos", "arregla-la-llamada"),
    ("mal_busca_parecido", "sin-arreglos", "arregla-la-llamada"),
    ("mal_sin_prefijo", "esquema", "motivo-sin-prefijo"),
    ("mal_sin_esquema", "esquema", "ejecuta-sin-esquema"),
    ("mal_strip", "resultados", "resultado-cambiado"),
    ("mal_vacio_es_error", "resultados", "vacio-es-error"),
    ("mal_copia_entorno", "escrituras", "trabaja-en-una-copia"),
]


@pytest.mark.parametrize("nombre, clausula, diagnostico", EQUIVOCACIONES)
def test_la_linea_de_la_clausula_nombra_la_equivocacion(nombre, clausula, diagnostico, capsys):
    lineas, salida = _lineas(_ejecutar(nombre), capsys)
    titulo = CLAUSULAS[clausula].__doc__.rstrip(".")
    fallidas = [l for l in lineas if l.startswith("✘")]
    assert "✘ %s:" % titulo in fallidas, salida
    # Solo fallan esa cláusula y, si la equivocación se nota en ellas, las conversaciones enteras.
    otras = {l for l in fallidas if not l.startswith("✘ %s:" % titulo)}
    if clausula != "contesta":
        assert all(re.match(r"✘ (La traza del salmorejo|Otras conversaciones)", l) for l in otras), salida
    etiqueta, leccion = DIAGNOSTICOS[diagnostico]
    assert "Equivocación: %s (%s). %s" % (etiqueta, diagnostico, leccion) in salida


def test_mirar_el_entorno_no_es_ejecutar_la_herramienta(capsys):
    """Un `ruta in entorno` antes de llamar a leer no cuenta como una segunda ejecución."""
    lineas, salida = _lineas(_ejecutar("correcto_mira_antes"), capsys)
    assert all(l.startswith("✔") for l in lineas), salida


def _release_con(respuesta):
    """El cuaderno de release con `respuesta` (una entrega del catálogo) en la celda ejecutar, ejecutado entero
    en un núcleo de verdad, sin pararse en los errores. Devuelve {id de celda: (texto impreso, error o None)}."""
    cuaderno = nbformat.read(RAIZ / "release" / TAREA / CUADERNO, as_version=4)
    for celda in cuaderno.cells:
        if celda.metadata.get("nbgrader", {}).get("grade_id") == "ejecutar" and respuesta is not None:
            celda.source = (CATALOGO / (respuesta + ".py")).read_text(encoding="utf-8").split('"""', 2)[2]
    NotebookClient(cuaderno, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(RAIZ / "release" / TAREA)}}).execute()
    return {c.get("id"): ("".join(o.get("text", "") for o in c.outputs if o.output_type == "stream"),
                          next((o for o in c.outputs if o.output_type == "error"), None))
            for c in cuaderno.cells if c.cell_type == "code"}


def test_la_lista_corre_en_el_cuaderno_de_release():
    salida, _ = _release_con("correcto_try_except")["revisar"]
    assert salida.count("✔ ") == len(CLAUSULAS) and "✘" not in salida, salida
    celdas = _release_con(None)  # la celda tal como llega al estudiante
    salida, _ = celdas["revisar"]
    assert "(sin-empezar)" in salida and salida.count("✘ ") == len(CLAUSULAS), salida
    # La prueba visible no enseña una traza por dentro de bucle: dice qué falta, en una línea.
    _, fallo = celdas["ejecutar-salmorejo"]
    assert fallo.ename == "Escapada" and len(fallo.traceback) == 1, fallo.traceback
    assert "tu ejecutar aún está sin escribir: con la llamada t2 → leer(ruta='recetas/salmorejo.txt')" in fallo.traceback[0]


def test_except_filenotfounderror_pasa_el_salmorejo_y_no_la_prueba_visible_de_las_excepciones():
    """La respuesta que solo captura FileNotFoundError: Run All llega a revisar, que la nombra, y la
    prueba visible de las excepciones la para con su motivo, sin traza."""
    celdas = _release_con("mal_solo_filenotfound")
    ids = list(celdas)
    primera_con_error = next(i for i in ids if celdas[i][1] is not None)
    assert primera_con_error == "ejecutar-excepciones"
    assert ids.index("ejecutar") < ids.index("revisar") < ids.index(primera_con_error)
    assert "(captura-solo-un-tipo)" in celdas["revisar"][0]
    assert celdas["ejecutar-salmorejo"][0].startswith("✔ La conversación del salmorejo llega al final")
    fallo = celdas["ejecutar-excepciones"][1]
    assert fallo.ename == "Escapada" and len(fallo.traceback) == 1, fallo.traceback
    assert "tu ejecutar ha dejado salir PermissionError: no tienes permiso para leer 'lista.txt'" in fallo.traceback[0]
    assert "Traceback" not in fallo.traceback[0]
