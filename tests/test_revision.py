"""La lista de comprobación `revisar(ejecutar)`: con las entregas del catálogo, y en el cuaderno de release con un núcleo de verdad."""

import linecache
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from course import CUADERNO, RAIZ, TAREA
from harness.revision import CLAUSULAS, DE_LOS_FALLOS, DIAGNOSTICOS, PRUEBAS, revisar

CATALOGO = Path(__file__).resolve().parent / "catalogo"


def _ejecutar(nombre):
    """El `ejecutar` de una entrega del catálogo, definido como en el cuaderno (que guarda el código de cada
    celda en linecache, y así una traza sabe qué dice cada línea)."""
    espacio = {"__name__": "__main__"}
    exec("from harness import *", espacio)
    codigo = (CATALOGO / (nombre + ".py")).read_text(encoding="utf-8")
    linecache.cache[nombre] = (len(codigo), None, codigo.splitlines(True), nombre)
    exec(compile(codigo, nombre, "exec"), espacio)
    return espacio["ejecutar"]


def _lineas(ejecutar, capsys):
    """{cláusula: línea ✔ o ✘ que la nombra} de lo que imprime revisar, y todo lo impreso."""
    revisar(ejecutar)
    salida = capsys.readouterr().out
    lineas = {}
    for linea in salida.splitlines():
        hecho = re.match(r"([✔✘]) ([a-z-]+(?:, [a-z-]+)*(?: y [a-z-]+)?): ", linea)
        if hecho:
            for nombre in re.split(r", | y ", hecho.group(2)):
                lineas[nombre] = linea
    return lineas, salida


def _fallidas(lineas):
    return {n for n, l in lineas.items() if l.startswith("✘")}


@pytest.mark.parametrize("nombre", sorted(f.stem for f in CATALOGO.glob("correcto_*.py")))
def test_una_respuesta_correcta_cumple_cada_clausula(nombre, capsys):
    lineas, salida = _lineas(_ejecutar(nombre), capsys)
    assert set(lineas) == set(CLAUSULAS) and not _fallidas(lineas), salida
    assert "puntuarían %d de las %d pruebas" % (len(PRUEBAS), len(PRUEBAS)) in salida


@pytest.mark.parametrize("nombre", sorted(f.stem for f in CATALOGO.glob("mal_*.py") if f.stem != "mal_sintaxis"))
def test_ninguna_respuesta_mal_pasa_la_lista_entera(nombre, capsys):
    """La lista no dice «todo bien» a una entrega que pierde puntos al corregir, y nombra cada cláusula."""
    lineas, salida = _lineas(_ejecutar(nombre), capsys)
    assert set(lineas) == set(CLAUSULAS), salida
    assert _fallidas(lineas), salida


# (entrega, la cláusula cuya línea lleva ✘, la equivocación que nombra).
EQUIVOCACIONES = [
    ("mal_sin_empezar", "contesta", "sin-empezar"),
    ("mal_a_medias_lanza", "contesta", "lanza-al-fallar"),
    ("mal_relanza", "contesta", "lanza-otra-excepcion"),
    ("mal_devuelve_none", "contesta", "no-contesta"),
    ("mal_tupla", "contesta", "no-es-un-tool-result"),
    ("mal_reintenta_siempre", "contesta", "reintenta"),
    ("mal_traga_error", "avisa", "nunca-avisa"),
    ("mal_mensaje_propio", "avisa", "nunca-avisa"),
    ("mal_solo_filenotfound", "excepciones", "captura-solo-un-tipo"),
    ("mal_repr", "excepciones", "contenido-repr"),
    ("mal_tipo_y_mensaje", "excepciones", "prefijo-en-el-mensaje"),
    ("mal_no_se_ha_ejecutado", "excepciones", "no-se-ha-ejecutado-al-fallar"),
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
    assert lineas[clausula].startswith("✘ %s: %s" % (clausula, CLAUSULAS[clausula].__doc__.rstrip("."))), salida
    d = DIAGNOSTICOS[diagnostico]
    assert salida.count("Equivocación: %s (%s). %s" % (d.etiqueta, diagnostico, d.leccion)) == 1, salida
    # Una equivocación resta una vez: las demás cláusulas puntúan, o no puntúan por lo que ya dice esa línea
    # (sin respuesta, o sin la idea de la lección), en una sola línea que remite a ella.
    otras = _fallidas(lineas) - {clausula}
    if clausula == "contesta":
        assert otras == set(CLAUSULAS) - {"contesta"}, salida
    elif clausula == "avisa":
        assert otras <= set(DE_LOS_FALLOS), salida
    else:
        assert not otras, salida
    remiten = {l for n, l in lineas.items() if n in otras and "Lo explica «%s», arriba." % clausula in l}
    assert len(remiten) <= 1 and all(l.startswith("✘ ") for l in remiten), salida


def test_mirar_el_entorno_no_es_ejecutar_la_herramienta(capsys):
    """Un `ruta in entorno` antes de llamar a leer no cuenta como una segunda ejecución."""
    lineas, salida = _lineas(_ejecutar("correcto_mira_antes"), capsys)
    assert not _fallidas(lineas), salida


def _release_con(respuesta=None, codigo=None):
    """El cuaderno de release con `respuesta` (una entrega del catálogo) o `codigo` en la celda ejecutar, ejecutado
    entero en un núcleo de verdad, sin pararse en los errores. Devuelve {id de celda: (texto impreso, error o None)}."""
    if respuesta is not None:
        codigo = (CATALOGO / (respuesta + ".py")).read_text(encoding="utf-8").split('"""', 2)[2]
    cuaderno = nbformat.read(RAIZ / "release" / TAREA / CUADERNO, as_version=4)
    for celda in cuaderno.cells:
        if celda.metadata.get("nbgrader", {}).get("grade_id") == "ejecutar" and codigo is not None:
            celda.source = codigo
    NotebookClient(cuaderno, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(RAIZ / "release" / TAREA)}}).execute()
    return {c.get("id"): ("".join(o.get("text", "") for o in c.outputs if o.output_type == "stream"),
                          next((o for o in c.outputs if o.output_type == "error"), None))
            for c in cuaderno.cells if c.cell_type == "code"}


@pytest.mark.usefixtures("procesos")
def test_la_lista_corre_en_el_cuaderno_de_release():
    salida, _ = _release_con("correcto_try_except")["revisar"]
    assert salida.count("✔ ") == len(CLAUSULAS) and "✘" not in salida, salida
    celdas = _release_con(None)  # la celda tal como llega al estudiante
    salida, _ = celdas["revisar"]
    assert "(sin-empezar)" in salida and "Sin respuesta no hay puntos" in salida, salida
    assert salida.count("✘ ") == 2, salida  # la puerta, y una línea para las demás, que remite a ella
    # La prueba visible no enseña una traza por dentro de bucle: dice qué falta, en una línea.
    _, fallo = celdas["ejecutar-salmorejo"]
    assert fallo.ename == "Escapada" and len(fallo.traceback) == 1, fallo.traceback
    assert "tu ejecutar aún está sin escribir: con la llamada t2 → leer(ruta='recetas/salmorejo.txt')" in fallo.traceback[0]


@pytest.mark.usefixtures("procesos")
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


@pytest.mark.usefixtures("procesos")
def test_en_el_cuaderno_una_excepcion_de_tu_codigo_dice_su_linea():
    """En el núcleo del estudiante, una errata fuera del try se nombra con su línea de la celda, como al corregir."""
    errata = (CATALOGO / "correcto_try_except.py").read_text(encoding="utf-8").split('"""', 2)[2].lstrip("\n")
    errata = errata.replace('FUNCIONES[ll["name"]]', 'FUNCIONES[ll["nombre"]]')
    errata = errata.replace("    try:\n", "    funcion = FUNCIONES[ll[\"nombre\"]]\n    try:\n", 1)
    linea = errata.splitlines().index('    funcion = FUNCIONES[ll["nombre"]]') + 1
    salida, _ = _release_con(codigo=errata)["revisar"]
    assert "en la línea %d de tu respuesta, fuera del try:\n" % linea in salida, salida
    assert 'funcion = FUNCIONES[ll["nombre"]]' in salida and "(lanza-tu-codigo)" in salida, salida
    assert "Sin respuesta" not in salida, salida
