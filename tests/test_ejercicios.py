"""Los ejercicios de la lección y las pruebas visibles del desafío: lo que dicen, que no paran el cuaderno
cuando no deben y que, cuando paran, lo cuentan sin traza (en un núcleo de verdad)."""

import contextlib
import gc
import io

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbclient import NotebookClient

from harness import (ENTORNO, FUNCIONES, HERRAMIENTAS, FueraDelGuion, añadir_y_fallar, error, incumple, leer, listar,
                     llamada, muestra, resultado, una_y_dos)
from harness.aula.ejercicios import (A_CLASIFICAR, CASOS_DEL_CRITERIO, Escapada, NoPasa, clase_de, comprobar_clases,
                                     comprobar_contestacion, comprobar_criterio, como_herramienta, en_prueba)
from harness.salmorejo import VISTO
from nucleos import NucleoPorFicheros
from referencia import ejecutar_a_medias, ejecutar_correcto

@pytest.fixture(scope="module", autouse=True)
def sin_el_contador_de_hypothesis():
    """Hypothesis deja en gc.callbacks un contador para el resto de la sesión. La alarma con que
    harness.revision.vigilancia corta un ejecutar sin fin (en test_revision) puede saltar dentro de él, y ahí
    Python la ignora con un aviso: se quita al acabar este módulo."""
    antes = list(gc.callbacks)
    yield
    gc.callbacks[:] = antes


BUENO_TRAS_EL_2 = [error("t2", "no existe el fichero 'recetas/salmorejo.txt'"), resultado("t3", leer(ENTORNO, "lista.txt"))]


def dice(capsys, n, mensaje):
    comprobar_contestacion(n, mensaje)
    return capsys.readouterr().out


# Ejercicio 1

def test_el_mensaje_bueno_lo_acepta_el_propio_modelo_guionizado(capsys):
    salida = dice(capsys, 2, BUENO_TRAS_EL_2)
    assert salida.startswith("✔ Es el mensaje que espera el guion tras el turno 2")
    assert "sigue con su turno 3: t4 → listar(carpeta='recetas/')" in salida
    for n in (1, 3):
        assert dice(capsys, n, list(VISTO[n - 1])).startswith("✔")


@pytest.mark.parametrize("mensaje, pista", [
    ([..., ...], "Aún no has escrito nada"),
    ([], "Aún no has escrito nada"),
    ("t2, t3", "Aquí va la lista de bloques del mensaje"),
    (("usuario", BUENO_TRAS_EL_2), "Aquí va solo la lista de bloques, sin el par ('usuario', …)"),
    ([BUENO_TRAS_EL_2[0]], "El turno 2 tiene 2 llamadas (t2, t3) y tu mensaje, 1 bloque"),
    (BUENO_TRAS_EL_2[::-1], "debe contestar a 't2', la primera llamada del turno"),
    ([BUENO_TRAS_EL_2[0], ...], "Te falta el bloque 2, el de t3"),
    ([resultado("t2", "no existe el fichero 'recetas/salmorejo.txt'"), BUENO_TRAS_EL_2[1]],
     "ha fallado: su observación se hace con error"),
    ([BUENO_TRAS_EL_2[0], error("t3", "pan, leche, patatas")], "ha salido bien: su observación se hace con resultado"),
    ([error("t2", "FileNotFoundError: no existe el fichero 'recetas/salmorejo.txt'"), BUENO_TRAS_EL_2[1]],
     "el contenido es su mensaje, tal cual"),
    ([BUENO_TRAS_EL_2[0], resultado("t3", "lista.txt")], "el contenido es lo que devuelve la herramienta, tal cual"),
    ([error("t2", "no se ha ejecutado: no existe el fichero 'recetas/salmorejo.txt'"), BUENO_TRAS_EL_2[1]],
     "«no se ha ejecutado: » es solo para las llamadas que no cumplen su esquema, y esta lo cumple"),
    ([BUENO_TRAS_EL_2[0], dict(BUENO_TRAS_EL_2[1], visto=True)], "El modelo guionizado no lo acepta"),
    ([BUENO_TRAS_EL_2[0], "pan, leche, patatas"], "no es una observación"),
    ([[BUENO_TRAS_EL_2[0]], [BUENO_TRAS_EL_2[1]]], "El bloque 1 es una lista: todas las observaciones van juntas"),
])
def test_cada_equivocacion_del_ejercicio_1_tiene_su_pista(capsys, mensaje, pista):
    salida = dice(capsys, 2, mensaje)
    assert salida.startswith("✘") and pista in salida, salida
    if "no lo acepta" not in salida:  # la pista no da la respuesta: ningún contenido que no hayas escrito tú
        assert not [b["content"] for b in VISTO[1] if b["content"] not in repr(mensaje) and b["content"] in salida]


def test_el_contenido_de_un_error_de_esquema_tiene_su_propia_pista(capsys):
    salida = dice(capsys, 1, [error("t1", "falta el campo 'ruta'")])
    assert "«no se ha ejecutado: » y el motivo que da incumple" in salida


@settings(max_examples=200, deadline=None)
@given(n=st.integers(-2, 6), mensaje=st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.just(...),
    lambda hijos: st.lists(hijos, max_size=3) | st.dictionaries(
        st.sampled_from(["type", "tool_use_id", "content", "is_error", "x"]), hijos, max_size=4), max_leaves=8))
def test_el_ejercicio_1_no_lanza_nunca_y_contesta_con_una_linea_de_veredicto(n, mensaje):
    """Con «Ejecutar todas las celdas», un ejercicio a medio hacer no puede parar el cuaderno."""
    import contextlib
    import io

    salida = io.StringIO()
    with contextlib.redirect_stdout(salida):
        comprobar_contestacion(n, mensaje)
    assert salida.getvalue().startswith(("✔", "✘"))
    assert salida.getvalue().startswith("✔") == (n in (1, 2, 3) and mensaje == VISTO[n - 1]
                                                   and _mismos_tipos(mensaje, VISTO[n - 1]))


def _mismos_tipos(a, b):
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return all(_mismos_tipos(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return all(_mismos_tipos(x, y) for x, y in zip(a, b))
    return True


# Ejercicio 2

BUENAS = {"c1": "esquema", "c2": "excepción", "c3": "bien", "c4": "esquema", "c5": "bien"}


def test_las_llamadas_del_ejercicio_2_tienen_una_clase_de_cada_y_trampas():
    """Las clases salen de ejecutar las llamadas de verdad; una carpeta vacía y un fichero nuevo no son fallos."""
    assert {ll["id"]: clase_de(ll)[0] for ll in A_CLASIFICAR} == BUENAS
    assert clase_de(A_CLASIFICAR[2])[0] == "bien" and "notas/menu.txt" not in ENTORNO


def test_el_ejercicio_2_acierta_con_las_buenas_y_admite_mayusculas_y_sin_tilde(capsys):
    comprobar_clases(BUENAS)
    salida = capsys.readouterr().out
    assert salida.count("✔ ") == 5 and "✘" not in salida and salida.rstrip().endswith("Las 5, bien clasificadas.")
    comprobar_clases(dict(BUENAS, c2=" Excepcion "))
    assert capsys.readouterr().out.rstrip().endswith("Las 5, bien clasificadas.")


@pytest.mark.parametrize("clases, pista", [
    (dict.fromkeys(BUENAS, ...), "✘ Aún no has clasificado ninguna"),
    ("esquema", "Aquí va un diccionario"),
    (dict(BUENAS, c3="excepción"), "has escrito «excepción», y es «bien». Cumple su esquema, se ejecuta"),
    (dict(BUENAS, c2="esquema"), "lanza FileNotFoundError"),
    (dict(BUENAS, c4="bien"), "incumple dice: el campo 'patron' debe ser un texto"),
    (dict(BUENAS, c1="error"), "'error' no es ninguna de las tres"),
    (dict(BUENAS, c5=...), "aún sin contestar"),
])
def test_cada_equivocacion_del_ejercicio_2_dice_lo_que_pasa_de_verdad(capsys, clases, pista):
    comprobar_clases(clases)
    salida = capsys.readouterr().out
    assert salida.startswith("✘") or "\n✘" in salida
    assert pista in salida, salida


@settings(max_examples=100, deadline=None)
@given(clases=st.one_of(st.none(), st.integers(), st.dictionaries(
    st.sampled_from(["c1", "c2", "c3", "c4", "c5", "x"]), st.one_of(st.text(max_size=10), st.none(), st.just(...),
                                                                    st.sampled_from(["esquema", "excepción", "bien"])))))
def test_el_ejercicio_2_no_lanza_nunca(clases):
    import contextlib
    import io

    salida = io.StringIO()
    with contextlib.redirect_stdout(salida):
        comprobar_clases(clases)
    assert salida.getvalue().startswith(("✔", "✘"))


def test_los_comentarios_de_la_celda_del_ejercicio_2_son_sus_llamadas():
    """La celda del cuaderno enseña cada llamada en un comentario: las mismas, en el mismo orden."""
    from course import CUADERNO, RAIZ, TAREA
    fuente = next(c.source for c in nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4).cells
                  if c.get("id") == "ejercicio-2-codigo")
    for ll in A_CLASIFICAR:
        assert '"%s": ...,  # %s' % (ll["id"], muestra(ll).split(" → ")[1]) in fuente, ll


# Ejercicio 3

def criterio(observacion, idempotente):
    return idempotente or (observacion["is_error"] and observacion["content"].startswith("no se ha ejecutado: "))


def test_el_criterio_bueno_acierta_los_seis_casos(capsys):
    comprobar_criterio(criterio)
    salida = capsys.readouterr().out
    assert salida.count("✔ ") == len(CASOS_DEL_CRITERIO) == 6 and "✘" not in salida
    assert salida.rstrip().endswith("Tu función acierta los 6 casos.")


def test_un_criterio_que_lee_el_prefijo_en_lugar_de_is_error_falla_un_caso(capsys):
    """El caso de sacar: un resultado cuyo texto empieza por «no se ha ejecutado: ». Solo is_error lo decide."""
    comprobar_criterio(lambda o, i: i or o["content"].startswith("no se ha ejecutado: "))
    salida = capsys.readouterr().out
    assert salida.count("✘ ") == 1 and "✘ sacar, que salió bien" in salida and "Mira is_error antes que el texto" in salida


def test_los_casos_del_criterio_son_los_de_la_leccion():
    """El caso de añadir_y_fallar es su error de verdad, y los idempotentes lo son según una_y_dos."""
    try:
        añadir_y_fallar(dict(ENTORNO), "lista.txt", ", tomates")
    except TimeoutError as e:
        lanzado = str(e)
    assert error("a2", lanzado) in [o for _, o, _, _ in CASOS_DEL_CRITERIO]
    una, dos = una_y_dos(listar, carpeta="recetas/")
    assert una == dos


@pytest.mark.parametrize("mala, cuantas_mal, pista", [
    (lambda o, i: True, 3, "el error salió durante la ejecución"),
    (lambda o, i: i, 1, "«no se ha ejecutado: » asegura que la función no llegó a ejecutarse"),
    (lambda o, i: i or not o["is_error"], 3, "la llamada ya ha hecho su trabajo"),
    (lambda o, i: o["cosa"], 6, "tu función ha lanzado KeyError"),
])
def test_cada_criterio_equivocado_dice_en_que_casos_y_por_que(capsys, mala, cuantas_mal, pista):
    comprobar_criterio(mala)
    salida = capsys.readouterr().out
    assert salida.count("✘ ") == cuantas_mal and pista in salida, salida
    assert "acierta los" not in salida
    assert salida.rstrip().endswith("Aciertas %d de 6 casos." % (6 - cuantas_mal)), salida


def test_un_criterio_equivocado_dice_lo_que_dice_el_y_lo_que_toca(capsys):
    comprobar_criterio(lambda o, i: True)
    salida = capsys.readouterr().out
    assert ("✘ añadir_y_fallar, que escribió y después lanzó: tu función dice que se puede repetir, pero no es "
            "seguro: el error salió durante la ejecución") in salida, salida
    comprobar_criterio(lambda o, i: False)
    salida = capsys.readouterr().out
    assert "✘ leer un fichero que no existe: tu función dice que no se puede repetir, pero sí se puede: " in salida, salida


def test_el_criterio_sin_escribir_lo_dice_una_vez_y_no_lanza(capsys):
    def puede_repetirse(observacion, idempotente):
        ...

    comprobar_criterio(puede_repetirse)
    assert capsys.readouterr().out == "✘ Tu función aún devuelve None: escribe el criterio con un return que dé True o False.\n"


# Después del desafío: añadir_y_fallar como herramienta, por un momento

def test_como_herramienta_la_pone_y_la_quita_aunque_algo_falle():
    antes, funciones = list(HERRAMIENTAS), dict(FUNCIONES)
    ll = llamada("r1", "añadir_y_fallar", ruta="lista.txt", contenido=", tomates")
    assert incumple(ll) == "no existe la herramienta 'añadir_y_fallar'"
    with pytest.raises(RuntimeError), como_herramienta(añadir_y_fallar):
        assert incumple(ll) is None and incumple(dict(ll, input={"ruta": "lista.txt"})) == "falta el campo 'contenido'"
        entorno = dict(ENTORNO)
        assert ejecutar_correcto(ll, entorno) == error("r1", "el disco no ha confirmado la escritura en lista.txt")
        assert entorno["lista.txt"] == ENTORNO["lista.txt"] + ", tomates"
        raise RuntimeError("se sale del with por una excepción")
    assert HERRAMIENTAS == antes and FUNCIONES == funciones


# Las pruebas visibles del desafío

def test_en_prueba_deja_pasar_lo_que_contesta_ejecutar():
    ll = llamada("t2", "leer", ruta="recetas/salmorejo.txt")
    assert en_prueba(ejecutar_correcto)(ll, dict(ENTORNO)) == ejecutar_correcto(ll, dict(ENTORNO))


def test_lo_que_se_escapa_de_ejecutar_dice_que_con_que_llamada_y_en_que_linea():
    with pytest.raises(Escapada) as fallo:
        en_prueba(ejecutar_a_medias)(llamada("t2", "leer", ruta="recetas/salmorejo.txt"), dict(ENTORNO))
    texto = str(fallo.value)
    assert texto.startswith("tu ejecutar ha dejado salir FileNotFoundError: no existe el fichero 'recetas/salmorejo.txt'")
    assert "con la llamada t2 → leer(ruta='recetas/salmorejo.txt'), en la línea" in texto
    assert "return resultado(ll[\"id\"], FUNCIONES[ll[\"name\"]](entorno, **ll[\"input\"]))" in texto
    assert isinstance(fallo.value.__cause__, FileNotFoundError)
    assert fallo.value._render_traceback_()[0].startswith("\x1b[0;31m✘ No pasa:\x1b[0m tu ejecutar")

    def sin_escribir(llamada, entorno):
        raise NotImplementedError("falta tu respuesta")

    with pytest.raises(Escapada, match="tu ejecutar aún está sin escribir: con la llamada t1"):
        en_prueba(sin_escribir)(llamada("t1", "leer", ruta="lista.txt"), dict(ENTORNO))


def _repite_sin_fin(llamada, entorno):
    """Un ejecutar que repite la llamada que falla hasta que salga bien (nunca, si la herramienta lanza)."""
    while True:
        try:
            return resultado(llamada["id"], FUNCIONES[llamada["name"]](entorno, **llamada["input"]))
        except Exception:
            pass


def test_en_el_navegador_sin_alarmas_una_llamada_que_no_acaba_tambien_se_corta(monkeypatch):
    """Pyodide no tiene alarmas (ni SIGALRM ni setitimer): el tope mira el reloj en cada línea, y en revisar y en
    las pruebas visibles un ejecutar que repite sin fin se corta igual, con el mismo mensaje (issue 36)."""
    import signal
    import sys

    from harness.aula.ejercicios import NoTermina
    from harness.revision import revisar
    monkeypatch.setattr(sys, "platform", "emscripten")
    for falta in ("setitimer", "SIGALRM"):
        monkeypatch.delattr(signal, falta, raising=False)
    with pytest.raises(NoTermina, match="tu ejecutar no ha terminado en 1 segundo con la llamada t2"):
        en_prueba(_repite_sin_fin)(llamada("t2", "leer", ruta="recetas/salmorejo.txt"), dict(ENTORNO))
    assert sys.gettrace() is None  # el trazador se quita al salir
    try:  # y no deja la excepción del except que cortó como contexto de las de después
        raise ValueError("después")
    except ValueError as despues:
        assert despues.__context__ is None, repr(despues.__context__)
    assert en_prueba(ejecutar_correcto)(llamada("t3", "leer", ruta="lista.txt"), dict(ENTORNO)) == \
        resultado("t3", ENTORNO["lista.txt"])
    salida = io.StringIO()
    with contextlib.redirect_stdout(salida):
        revisar(_repite_sin_fin)
    assert "no ha terminado en 1 segundo" in salida.getvalue(), salida.getvalue()


@pytest.mark.usefixtures("procesos")
def test_las_quejas_se_ven_sin_traza_en_un_nucleo_de_verdad():
    """IPython enseña FueraDelGuion, Escapada y NoPasa con su _render_traceback_: unas líneas, sin traza."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in [
        "from harness import *\nfrom harness.aula.ejercicios import NoPasa, en_prueba\nfrom harness.salmorejo import *",
        "bucle(ModeloGuionizado(guion_de(INICIO, RESPUESTAS, VISTO)), INICIO, dict(ENTORNO), 10,\n"
        "      lambda ll, e: resultado(ll['id'], 'lo que sea'))",
        "def ejecutar(ll, entorno):\n    return FUNCIONES[ll['name']](entorno, **ll['input'])\n\n"
        "en_prueba(ejecutar)(llamada('t2', 'leer', ruta='no.txt'), dict(ENTORNO))",
        "raise NoPasa('cuando leer lanza X, debería llegar esto\\ny ha llegado aquello.')",
    ]]
    NotebookClient(nb, kernel_manager_class=NucleoPorFicheros, kernel_name="python3", timeout=60, allow_errors=True).execute()
    errores = [[o for o in c.outputs if o.output_type == "error"] for c in nb.cells[1:]]
    assert [e[0].ename for e in errores] == ["FueraDelGuion", "Escapada", "NoPasa"]
    for (salida,) in errores:
        traza = "\n".join(salida.traceback)
        assert "Traceback" not in traza and "File " not in traza and "bucle.py" not in traza, traza
        assert len(traza.splitlines()) <= 8, traza
    assert "✘ Queja del modelo guionizado" in errores[0][0].traceback[0]
    assert "turno 1: lo que ha contestado el harness" in errores[0][0].traceback[0]
    assert "en la línea 2 de tu celda: return FUNCIONES" in errores[1][0].traceback[0]
