"""La lista de comprobación `revisar(ejecutar)`: con las entregas del catálogo, y en el cuaderno de release con un núcleo de verdad."""

import gc
import linecache
import re
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from course import CUADERNO, RAIZ, TAREA
from harness import llamada
from harness.revision.diagnosticos import EQUIVOCACION, NoCumple
from harness.revision import CLAUSULAS, DE_LOS_FALLOS, DIAGNOSTICOS, PRUEBAS, REGLA, revisar
from harness.revision.vigilancia import Espia, probar
from nucleos import NucleoPorFicheros
from referencia import espacio_del_cuaderno

CATALOGO = Path(__file__).resolve().parent / "catalogo"


def _ejecutar(nombre, codigo=None):
    """El `ejecutar` de una entrega del catálogo (o de `codigo`), definido como en el cuaderno (que guarda el
    código de cada celda en linecache, y así una traza sabe qué dice cada línea)."""
    espacio = espacio_del_cuaderno()
    if codigo is None:
        codigo = (CATALOGO / (nombre + ".py")).read_text(encoding="utf-8")
    linecache.cache[nombre] = (len(codigo), None, codigo.splitlines(True), nombre)
    exec(compile(codigo, nombre, "exec"), espacio)
    return espacio["ejecutar"]


# «✔ Regla 3 · excepciones: …», o una línea para varias que no puntúan por lo mismo:
# «✘ esquema y guiones (Regla 2 y Conversaciones enteras): …».
_LINEA = re.compile(r"([✔✘]) (?:(?:%s) · )?([a-z-]+(?:, [a-z-]+)*(?: y [a-z-]+)?)(?: \([^)]*\))?: "
                    % "|".join(map(re.escape, set(REGLA.values()))))


def _lineas(ejecutar, capsys):
    """{cláusula: línea ✔ o ✘ que la nombra} de lo que imprime revisar, y todo lo impreso."""
    revisar(ejecutar)
    salida = capsys.readouterr().out
    lineas = {}
    for linea in salida.splitlines():
        hecho = _LINEA.match(linea)
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


@pytest.mark.parametrize("nombre", sorted(f.stem for f in CATALOGO.glob("mal_*.py")
                                           if f.stem not in ("mal_sintaxis", "mal_sin_empezar")))
def test_ninguna_respuesta_mal_pasa_la_lista_entera(nombre, capsys):
    """La lista no dice «todo bien» a una entrega que pierde puntos al corregir, y nombra cada cláusula."""
    lineas, salida = _lineas(_ejecutar(nombre), capsys)
    assert set(lineas) == set(CLAUSULAS), salida
    assert _fallidas(lineas), salida


def test_cada_linea_empieza_por_la_regla_del_contrato_que_mira(capsys):
    lineas, salida = _lineas(_ejecutar("correcto_try_except"), capsys)
    for nombre, linea in lineas.items():
        assert linea.startswith("✔ %s · %s: " % (REGLA[nombre], nombre)), salida
    # Las reglas son las seis del contrato, en la lección; y cada una la mira alguna cláusula.
    numeros = {int(n) for regla in REGLA.values() for n in re.findall(r"\d+", regla)}
    assert numeros == set(range(1, 7)), REGLA


def test_sin_empezar_es_una_sola_linea(capsys):
    """Con el código de partida no hay nada que repasar: una línea que dice qué hacer, y ninguna más."""
    revisar(_ejecutar("mal_sin_empezar"))
    salida = capsys.readouterr().out
    assert salida.startswith("✘ Aún no has escrito tu parte: ejecutar sigue lanzando NotImplementedError.")
    assert salida.count("\n") == 1, salida


# (entrega, la cláusula cuya línea lleva ✘, la equivocación que nombra).
EQUIVOCACIONES = [
    ("mal_a_medias_lanza", "contesta", "lanza-al-fallar"),
    ("mal_relanza", "contesta", "lanza-otra-excepcion"),
    ("mal_devuelve_none", "contesta", "no-contesta"),
    ("mal_tupla", "contesta", "no-es-un-tool-result"),
    ("mal_reintenta_siempre", "contesta", "reintenta"),
    ("mal_traga_error", "avisa", "nunca-avisa"),
    ("mal_mensaje_propio", "avisa", "nunca-avisa"),
    ("mal_solo_filenotfound", "contesta", "solo-la-traza"),
    ("mal_solo_la_traza", "contesta", "solo-la-traza"),
    ("mal_copia_fuera_del_try", "escrituras", "trabaja-en-una-copia"),
    ("mal_quita_el_id", "sin-arreglos", "cambia-la-llamada"),
    ("mal_mensaje_sin_tipo", "excepciones", "no-dice-el-tipo"),
    ("mal_todo_error", "avisa", "todo-es-error"),
    ("mal_contenido_vacio", "excepciones", "contenido-vacio"),
    ("mal_contenido_en_lista", "excepciones", "contenido-no-es-texto"),
    ("mal_no_se_ha_ejecutado", "excepciones", "no-se-ha-ejecutado-al-fallar"),
    ("mal_reintenta", "una-vez", "reintenta"),
    ("mal_reintenta_transitorios", "una-vez", "reintenta"),
    ("mal_llama_dos_veces", "una-vez", "ejecuta-dos-veces"),
    ("mal_guarda_respuestas", "una-vez", "respuesta-guardada"),
    ("mal_arregla_rutas", "salmorejo", "arregla-la-llamada"),
    ("mal_busca_parecido", "sin-arreglos", "arregla-la-llamada"),
    ("mal_cambia_la_llamada", "sin-arreglos", "cambia-la-llamada"),
    ("mal_sin_prefijo", "esquema", "motivo-sin-prefijo"),
    ("mal_sin_esquema", "esquema", "ejecuta-sin-esquema"),
    ("mal_strip", "resultados", "resultado-cambiado"),
    ("mal_copia_entorno", "escrituras", "trabaja-en-una-copia"),
]


@pytest.mark.parametrize("nombre, clausula, diagnostico", EQUIVOCACIONES)
def test_la_linea_de_la_clausula_nombra_la_equivocacion(nombre, clausula, diagnostico, capsys):
    lineas, salida = _lineas(_ejecutar(nombre), capsys)
    assert lineas[clausula].startswith("✘ %s · %s: %s" % (REGLA[clausula], clausula,
                                                         CLAUSULAS[clausula].__doc__.rstrip("."))), salida
    d = DIAGNOSTICOS[diagnostico]
    assert salida.count("%s%s. %s" % (EQUIVOCACION, d.etiqueta, d.leccion)) == 1, salida
    assert "(%s)" % diagnostico not in salida, salida  # el nombre corto es para los informes, no para el estudiante
    # Una equivocación resta una vez: las demás cláusulas puntúan, o no puntúan por lo que ya dice esa línea
    # (sin respuesta, o sin la idea de la lección), en una sola línea que remite a ella.
    otras = _fallidas(lineas) - {clausula}
    if clausula == "contesta":
        assert otras == set(CLAUSULAS) - {"contesta"}, salida
    elif clausula == "avisa":  # todo como error también se equivoca en los resultados, su casa
        assert otras <= set(DE_LOS_FALLOS) | ({"resultados"} if diagnostico == "todo-es-error" else set()), salida
    else:
        assert not otras, salida
    remiten = {l for n, l in lineas.items() if n in otras and "Lo explica «%s · %s», arriba." % (REGLA[clausula], clausula) in l}
    assert len(remiten) <= 1 and all(l.startswith("✘ ") for l in remiten), salida


# Una excepción que sale del código del estudiante: se dice su línea, y si es un raise dentro del except
# (relanza el fallo) o cualquier otra línea (una errata, un return olvidado).
_CON_EXCEPT = '''def ejecutar(llamada, entorno):
    motivo = incumple(llamada)
    if motivo is not None:
        return error(llamada["id"], "no se ha ejecutado: " + motivo)
    try:
        devuelto = FUNCIONES[llamada["name"]](entorno, **llamada["input"])
    except Exception as e:
        %s
    return resultado(llamada["id"], devuelto)
'''


@pytest.mark.parametrize("en_el_except, linea, sitio, diagnostico", [
    ('error(llamada["id"], str(e))', 9, "fuera del try", "lanza-tu-codigo"),           # falta el return
    ("return error(llamada.id, str(e))", 8, "dentro de un except", "lanza-tu-codigo"),  # una errata
    ('raise RuntimeError("no he podido: %s" % e)', 8, "dentro de un except", "lanza-otra-excepcion"),
])
def test_una_excepcion_de_tu_codigo_se_diagnostica_por_su_linea(en_el_except, linea, sitio, diagnostico, capsys):
    codigo = _CON_EXCEPT % en_el_except
    lineas, salida = _lineas(_ejecutar("<celda %s>" % diagnostico, codigo), capsys)
    assert lineas["contesta"].startswith("✘ "), salida
    assert "en la línea %d de tu respuesta, %s:\n          %s\n" % (linea, sitio, codigo.splitlines()[linea - 1].strip()) in salida
    d = DIAGNOSTICOS[diagnostico]
    assert "%s%s. %s" % (EQUIVOCACION, d.etiqueta, d.leccion) in salida, salida


def test_una_herramienta_que_falla_a_proposito_se_dice(capsys):
    """Los casos de muestra hacen fallar el disco donde en la lección no falla nunca: el mensaje lo avisa."""
    lineas, salida = _lineas(_ejecutar("mal_solo_filenotfound"), capsys)
    assert re.search(r"\(en esta prueba el disco falla a propósito al leer '[^']+', con \w+\)", salida), salida


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
    NotebookClient(cuaderno, kernel_manager_class=NucleoPorFicheros, timeout=120, kernel_name="python3", allow_errors=True,
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
    assert salida.startswith("✘ Aún no has escrito tu parte") and salida.count("✘ ") == 1, salida
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
    assert DIAGNOSTICOS["solo-la-traza"].etiqueta in celdas["revisar"][0]
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
    assert 'funcion = FUNCIONES[ll["nombre"]]' in salida and DIAGNOSTICOS["lanza-tu-codigo"].etiqueta in salida, salida
    assert "Sin respuesta" not in salida, salida


@pytest.mark.usefixtures("procesos")
def test_la_prueba_visible_de_las_excepciones_nombra_la_copia_del_entorno():
    """En una copia del entorno, leer no ve el disco que falla y no lanza: la prueba visible lo dice así, en
    lugar de quejarse de un error que el estudiante sí ha capturado."""
    fallo = _release_con("mal_copia_entorno")["ejecutar-excepciones"][1]
    assert fallo.ename == "NoPasa" and len(fallo.traceback) == 1, fallo.traceback
    assert "leer no ha llegado a lanzar PermissionError: tu ejecutar le ha pasado otro entorno (¿una copia?)" in fallo.traceback[0]


def test_una_alarma_que_cae_en_el_recolector_espera_a_la_siguiente(monkeypatch):
    """El tope de una llamada es una alarma; si cae dentro de un aviso del recolector de basura (gc.callbacks,
    Hypothesis pone uno), Python se tragaría la excepción. Se vuelve a intentar al cabo de un milisegundo, y la
    llamada se corta igual."""
    tragadas = []
    monkeypatch.setattr("sys.unraisablehook", tragadas.append)

    pendiente = []

    def aviso(fase, info):  # la primera alarma (a los 0,1 s) cae aquí dentro
        if fase == "start" and pendiente:
            pendiente.clear()
            time.sleep(0.2)

    def ejecutar(ll, entorno):
        pendiente.append(True)
        gc.collect(0)
        while True:
            time.sleep(0.01)

    gc.callbacks.append(aviso)
    try:
        with pytest.raises(NoCumple, match="no ha terminado en 0,1 segundos"):
            probar(ejecutar, llamada("toolu_01", "leer_fichero", ruta="notas.txt"), Espia(), segundos=0.1)
    finally:
        gc.callbacks.remove(aviso)
    assert tragadas == []


# Si se aplazaran siempre, la prueba no acabaría nunca: pytest-timeout la corta (con un hilo: la señal
# que usaría por defecto, SIGALRM, es la del tope).
@pytest.mark.timeout(120, method="thread")
def test_un_aviso_del_recolector_que_no_acaba_no_libra_a_la_llamada_de_su_tope(monkeypatch):
    """Las alarmas que caen en un aviso del recolector se aplazan un número acotado de veces (APLAZAR), no siempre."""
    monkeypatch.setattr("sys.unraisablehook", lambda *_: None)  # la que se traga Python, después de aplazar

    dentro = []  # el aviso solo se cuelga cuando lo llama el gc.collect de ejecutar

    def aviso(fase, info):
        while fase == "start" and dentro:
            time.sleep(0.01)

    def ejecutar(ll, entorno):
        dentro.append(True)
        gc.collect(0)
        while True:
            time.sleep(0.01)

    gc.callbacks.append(aviso)
    try:
        with pytest.raises(NoCumple, match="no ha terminado"):
            probar(ejecutar, llamada("toolu_01", "leer_fichero", ruta="notas.txt"), Espia(), segundos=0.1)
    finally:
        gc.callbacks.remove(aviso)


RETRIES = '''def ejecutar(llamada, entorno):
    motivo = incumple(llamada)
    if motivo is not None:
        return error(llamada["id"], "no se ha ejecutado: " + motivo)
    while True:  # otra vez, hasta que salga bien
        try:
            return resultado(llamada["id"], FUNCIONES[llamada["name"]](entorno, **llamada["input"]))
        except Exception:
            pass
'''


@pytest.mark.usefixtures("procesos")
def test_ejecutar_todas_las_celdas_no_se_cuelga_con_una_respuesta_que_reintenta():
    """Con una respuesta que repite sin fin la llamada que falla, cada celda acaba: revisar la corta en su
    segundo, y las pruebas visibles también, con un mensaje corto en español (issue 36)."""
    celdas = _release_con(codigo=RETRIES)
    salida, _ = celdas["revisar"]
    assert "no ha terminado en 1 segundo" in salida, salida
    for prueba in ("ejecutar-salmorejo", "ejecutar-excepciones"):
        _, fallo = celdas[prueba]
        assert fallo is not None and fallo.ename == "NoTermina" and len(fallo.traceback) == 1, (prueba, fallo)
        assert "tu ejecutar no ha terminado en 1 segundo con la llamada" in fallo.traceback[0], fallo.traceback
        assert "¿Repite la llamada que falla?" in fallo.traceback[0] and "Traceback" not in fallo.traceback[0]


def test_una_prueba_visible_acepta_cualquier_error_que_cuente_la_excepcion():
    """La prueba visible del salmorejo pasa el error de t2 al modelo guionizado con la forma de su guion
    cuando lo dice de otra manera que admite el contrato (repr, el tipo delante), y no si no lo dice."""
    from harness import ENTORNO, ModeloGuionizado, bucle, guion_de
    from harness.aula import en_prueba
    from harness.salmorejo import FINAL, INICIO, RESPUESTAS, VISTO
    for nombre in ("correcto_repr", "correcto_tipo_y_mensaje"):
        modelo = ModeloGuionizado(guion_de(INICIO, RESPUESTAS, VISTO))
        assert bucle(modelo, INICIO, dict(ENTORNO), 10, en_prueba(_ejecutar(nombre)))[:2] == ("fin", FINAL), nombre
    from harness import FueraDelGuion
    with pytest.raises(FueraDelGuion):
        modelo = ModeloGuionizado(guion_de(INICIO, RESPUESTAS, VISTO))
        bucle(modelo, INICIO, dict(ENTORNO), 10, en_prueba(_ejecutar("mal_no_se_ha_ejecutado")))


# Los casos, generados con una semilla (harness/revision/casos.py)

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from harness.revision import generar  # noqa: E402
from harness.revision.clausulas import _clase  # noqa: E402
from harness.entorno import incumple  # noqa: E402


def _llamadas(casos):
    """(llamada, disco) de cada caso suelto, y las llamadas de las conversaciones con el disco de cada una."""
    for nombre, lista in casos.items():
        for caso in lista:
            if nombre == "guiones":
                for turno in caso[1]:
                    yield from ((b, caso[6]) for b in turno if b["type"] == "tool_use")
            else:
                yield caso


def _forma(casos):
    """Lo que cada caso prueba, sin sus detalles: la herramienta y la clase de la llamada, dónde falla el
    disco y la clase de su excepción (sin mensaje, con varios argumentos o con un texto)."""
    def fallo(disco):
        return [(clave[0], "vacia" if not str(e) else "args" if len(e.args) > 1 else "texto")
                for clave, e in disco.fallos.items()]
    return {n: [(ll["name"] if incumple(ll) is None else "?", _clase(ll, disco), fallo(disco)) for ll, disco in lista]
            for n, lista in casos.items() if n != "guiones"}


@settings(max_examples=25, derandomize=True, deadline=None)
@given(st.integers(min_value=0, max_value=2 ** 64))
def test_ningun_caso_repite_las_dos_formas_de_fallar_de_la_traza(semilla):
    """Ni leer sin su campo 'ruta' (la forma de t1) ni leer una receta que no existe (la de t2), con
    cualquier semilla; y cada excepción dice su mensaje también en su repr (el contrato admite repr(e))."""
    casos = generar(semilla)
    for ll, disco in _llamadas(casos):
        entrada = ll["input"]
        assert not (ll["name"] == "leer" and "ruta" not in entrada), ll
        assert not (ll["name"] == "leer" and isinstance(entrada.get("ruta"), str) and entrada["ruta"].startswith("recetas")
                    and entrada["ruta"] not in disco.ficheros), ll
        for e in disco.fallos.values():
            assert str(e) in repr(e) and not isinstance(e, FileNotFoundError), e
    assert generar(semilla) == casos or str(generar(semilla)) == str(casos)  # la misma semilla, los mismos casos


@settings(max_examples=10, derandomize=True, deadline=None)
@given(st.integers(min_value=0, max_value=2 ** 64))
def test_cada_semilla_prueba_lo_mismo_con_otros_detalles(semilla):
    """La de revisar y la del corrector dan casos de la misma forma: las mismas herramientas, las mismas
    clases de llamada y de fallo, en el mismo orden."""
    from harness.revision.cuaderno import SEMILLA
    assert _forma(generar(semilla)) == _forma(generar(SEMILLA))


# Lo que dice cada línea: el nombre de lo que ha pasado, no el de otra cosa (issue 34, punto 6)

_BLOQUES_EN_EL_ESQUEMA = '''def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], [{"type": "text", "text": "no se ha ejecutado: " + motivo}])
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
'''

_RAISE_FUERA = '''def ejecutar(ll, entorno):
    if ll["name"] not in FUNCIONES:
        raise ValueError("no conozco la herramienta %s" % ll["name"])
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
'''


def test_una_lista_de_bloques_en_el_error_del_esquema_se_llama_asi(capsys):
    """Contestar al esquema con una lista de bloques no es «ejecuta una llamada que no cumple su esquema»."""
    lineas, salida = _lineas(_ejecutar("<bloques>", _BLOQUES_EN_EL_ESQUEMA), capsys)
    assert lineas["esquema"].startswith("✘ "), salida
    assert DIAGNOSTICOS["contenido-no-es-texto"].etiqueta in salida, salida
    assert DIAGNOSTICOS["ejecuta-sin-esquema"].etiqueta not in salida, salida


def test_un_raise_a_proposito_no_es_un_nombre_mal_escrito(capsys):
    """Un raise fuera de cualquier except se dice como lo que es, con su línea, y no con la pista de la errata."""
    lineas, salida = _lineas(_ejecutar("<raise>", _RAISE_FUERA), capsys)
    assert lineas["esquema"].startswith("✘ "), salida  # la llamada a una herramienta que no existe
    assert "en la línea 3 de tu respuesta, fuera del try" in salida, salida
    assert DIAGNOSTICOS["lanza-otra-excepcion"].etiqueta in salida, salida
    assert "mal escrit" not in salida, salida


@pytest.mark.parametrize("nombre", sorted(f.stem for f in CATALOGO.glob("mal_*.py")
                                           if f.stem not in ("mal_sintaxis", "mal_sin_empezar")))
def test_ninguna_linea_dice_que_espera_lo_que_ha_llegado(nombre, capsys):
    """Ni «debería contener X y contiene X» ni «se esperaba: X / ha llegado: X» con el mismo texto sin decir
    en qué se diferencian."""
    _, salida = _lineas(_ejecutar(nombre), capsys)
    for debia, hay in re.findall(r"debería contener (.+?), y contiene (.+?)\.\n", salida):
        assert debia != hay, salida
    for esperada, llegada, resto in re.findall(r"se esperaba: (.+)\n\s+ha llegado:  (.+)\n(.*)", salida):
        assert esperada != llegada or "se escriben igual" in resto, salida


@pytest.mark.parametrize("tipo", [RuntimeError, MemoryError, InterruptedError, OSError, ValueError])
def test_un_error_vacio_no_cuenta_una_excepcion_sin_mensaje(tipo):
    """La API rechaza un tool_result de error vacío: con una excepción sin mensaje, «» no vale (contenido-vacio) y
    una frase que no dice el tipo tampoco (no-dice-el-tipo); el tipo, solo o con algo más, sí."""
    from harness import error
    from harness.revision import cuenta_el_fallo
    from harness.revision.casos import Disco
    e = tipo()
    assert str(e) == ""
    assert not cuenta_el_fallo(error("t", ""), e) and not cuenta_el_fallo(error("t", "ha fallado: "), e)
    assert cuenta_el_fallo(error("t", tipo.__name__), e) and cuenta_el_fallo(error("t", repr(e)), e)
    caso = (llamada("t", "leer", ruta="lista.txt"), Disco({"lista.txt": "pan"}, {("lee", "lista.txt"): e}))
    for texto, diagnostico in (("", "contenido-vacio"), ("ha fallado: ", "no-dice-el-tipo")):
        with pytest.raises(NoCumple) as fallo:
            CLAUSULAS["excepciones"](lambda ll, entorno: _leyendo(ll, entorno, texto), [caso])
        assert fallo.value.diagnostico == diagnostico, fallo.value


def _leyendo(ll, entorno, texto):
    """Un ejecutar que ejecuta leer y, si lanza, contesta con `texto` más el mensaje."""
    from harness import FUNCIONES, error, resultado
    try:
        return resultado(ll["id"], FUNCIONES["leer"](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], texto + str(e))


def test_revisar_otra_vez_con_una_cache_dice_lo_mismo(capsys):
    """Una respuesta que guarda lo que contesta sigue con su caché llena si el estudiante vuelve a ejecutar
    revisar sin volver a ejecutar su celda: la segunda vez dice lo mismo que la primera (respuesta-guardada,
    en una-vez), no «contesta sin ejecutar la herramienta» en todas las líneas."""
    ejecutar = _ejecutar("mal_guarda_respuestas")
    primera, salida = _lineas(ejecutar, capsys)
    segunda, salida2 = _lineas(ejecutar, capsys)
    assert _fallidas(primera) == _fallidas(segunda) == {"una-vez"}, salida2
    assert DIAGNOSTICOS["respuesta-guardada"].etiqueta in salida2, salida2
