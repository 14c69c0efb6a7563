"""El cuestionario: la clave (qué aprueba, qué suspende y qué se le dice al estudiante), el formato
común a la comprobación visible y al corrector, el widget formativo y la lectura de respuestas."""

import re

import nbformat
import pytest
from nbclient import NotebookClient

from course.calificacion import Suspenso
from course.cuestionario import PREGUNTAS, celda_formativa, corregir, respuestas_del_cuaderno
from harness import ENTORNO, bucle, idempotencia, llamada, texto
from harness.aula import como_herramienta
from harness.aula.cuestionario import RESPUESTA_MIME, FormatoNoValido, _Pregunta, interpretar
from nucleos import NucleoPorFicheros
from referencia import ejecutar_correcto

CLAVE = {n: dict(p, opciones=p["explicaciones"]) for n, p in PREGUNTAS.items()}  # opción → por qué

CORRECTAS = {n: p["correcta"] for n, p in PREGUNTAS.items()}  # test_la_clave_marca_justo_lo_que… la comprueba
INCORRECTAS = [(1, "a"), (1, "b"), (1, "d"), (2, "a"), (2, "b"), (2, "c"), (3, True),
               (4, {"a"}), (4, {"d"}), (4, {"a", "b", "d"}), (4, {"a", "c", "d"}), (4, {"b", "c"}),
               (4, {"a", "b", "c", "d"}), (4, set())]


def suspende(n, respuesta):
    """El mensaje de Suspenso que da `corregir`; falla si no suspende."""
    with pytest.raises(Suspenso) as e:
        corregir(n, respuesta)
    return str(e.value)


def test_suspenso_es_un_assertionerror():
    assert issubclass(Suspenso, AssertionError)


# La clave, contra lo que hace de verdad la biblioteca de la lección con el ejecutar de referencia
# (tests/referencia.py): cada opción afirma algo que se puede comprobar, y la respuesta buena marca
# justo las opciones que se cumplen.

class _Mirado(dict):
    """Un entorno que apunta cada ruta por la que se pregunta (leer pregunta si existe antes de leerla)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.miradas = []

    def __contains__(self, ruta):
        self.miradas.append(ruta)
        return super().__contains__(ruta)


def _un_turno(*llamadas):
    """(lo que ha escapado del bucle o None, los mensajes que añade tras el turno, las rutas miradas) de un
    turno del modelo con `llamadas`, contestado por el ejecutar de referencia; el modelo acaba en el siguiente."""
    turnos = iter([list(llamadas), [texto("Hecho.")]])
    entorno, M = _Mirado(ENTORNO), [("usuario", "Ayúdame con la compra.")]
    try:
        _, _, M = bucle(lambda conversacion, herramientas: next(turnos), M, entorno, 5, ejecutar_correcto)
    except Exception as e:
        return e, [], entorno.miradas
    despues = [m for m in M[2:] if m[0] == "usuario"]
    return None, despues, entorno.miradas


def _observaciones(mensajes):
    return [b for _, contenido in mensajes for b in contenido if b["type"] == "tool_result"]


def _se_cumple_en_la_1():
    escapada, mensajes, miradas = _un_turno(llamada("t1", "leer", ruta="notas/compra.txt"))
    obs = _observaciones(mensajes)
    return {"a": escapada is not None,
            "b": miradas.count("notas/compra.txt") > 1,
            "c": escapada is None and len(obs) == 1 and obs[0]["is_error"] is True
                 and obs[0]["content"] == "no existe el fichero 'notas/compra.txt'",
            "d": "notas/cena.txt" in miradas or any(o["content"] == ENTORNO["notas/cena.txt"] for o in obs)}


def _se_cumple_en_la_2():
    _, mensajes, _ = _un_turno(llamada("b1", "leer", ruta="recetas/paella.txt"), llamada("b2", "listar", carpeta="recetas/"))
    obs = _observaciones(mensajes)
    return {"a": len(mensajes) == 2 and all(len(contenido) == 1 for _, contenido in mensajes),
            "b": len(mensajes) == 1 and [o["tool_use_id"] for o in obs] == ["b1"],
            "c": len(mensajes) == 1 and len(obs) == 1 and obs[0]["is_error"] is True,
            "d": len(mensajes) == 1 and [(o["tool_use_id"], o["is_error"]) for o in obs] == [("b1", True), ("b2", False)]
                 and obs[0]["content"] == "no existe el fichero 'recetas/paella.txt'"
                 and all(r in obs[1]["content"] for r in ("recetas/gazpacho.txt", "recetas/tortilla.txt"))}


def _se_cumple_en_la_3():
    _, mensajes, _ = _un_turno(llamada("t1", "buscar", patron="azafrán"))
    (obs,) = _observaciones(mensajes)
    assert obs["content"] == "ninguna línea contiene 'azafrán'"  # de verdad no encuentra nada
    return {True: obs["is_error"] is True, False: obs["is_error"] is not True}


def _se_cumple_en_la_4():
    """Tras la observación de cada opción, pedir añadir otra vez, bien escrita: ¿queda el texto una sola vez?"""
    def añadir(entorno, ruta, contenido):  # la de la opción c: se llena el disco a medio trabajo
        idempotencia.añadir(entorno, ruta, contenido)
        raise OSError("se ha llenado el disco")

    primeras = {"a": (añadir, {"ruta": "lista.txt"}),
                "b": (idempotencia.añadir, {"ruta": "lista.txt", "contenido": ", tomates"}),
                "c": (añadir, {"ruta": "lista.txt", "contenido": ", tomates"}),
                "d": (idempotencia.añadir, {"ruta": "lista.txt", "contenido": [", tomates"]})}
    cumple = {}
    for opcion, (herramienta, entrada) in primeras.items():
        entorno = dict(ENTORNO)
        with como_herramienta(herramienta):
            obs = ejecutar_correcto(llamada("p1", "añadir", **entrada), entorno)
        # La observación es la que cuenta la opción: el mismo texto y la misma marca de error.
        enunciado = PREGUNTAS[4]["opciones"][opcion]
        assert re.findall(r"`([^`]*)`", enunciado)[-1] == obs["content"], (opcion, obs)
        assert enunciado.startswith("Error") == obs["is_error"], (opcion, obs)
        with como_herramienta(idempotencia.añadir):
            ejecutar_correcto(llamada("p2", "añadir", ruta="lista.txt", contenido=", tomates"), entorno)
        cumple[opcion] = entorno["lista.txt"].count(", tomates") == 1
    return cumple


@pytest.mark.parametrize("n, se_cumple", [(1, _se_cumple_en_la_1), (2, _se_cumple_en_la_2), (3, _se_cumple_en_la_3),
                                          (4, _se_cumple_en_la_4)])
def test_la_clave_marca_justo_lo_que_hace_la_biblioteca_de_la_leccion(n, se_cumple):
    cumplen = se_cumple()
    assert set(cumplen) == set(PREGUNTAS[n]["opciones"])
    correcta = PREGUNTAS[n]["correcta"]
    assert {o for o, si in cumplen.items() if si} == (correcta if isinstance(correcta, set) else {correcta})


def test_cada_opcion_tiene_su_explicacion():
    for n, opciones in [(1, "abcd"), (2, "abcd"), (3, [True, False]), (4, "abcd")]:
        assert set(CLAVE[n]["opciones"]) == set(opciones) == set(PREGUNTAS[n]["opciones"])
        assert all(len(texto) > 40 for texto in CLAVE[n]["opciones"].values())
        assert CLAVE[n]["idea"]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_la_respuesta_correcta_aprueba_y_explica(n, capsys):
    assert corregir(n, CORRECTAS[n]) is None
    salida = capsys.readouterr()
    assert salida.out.startswith("Correcto. ")
    assert len(salida.out) > 60
    assert salida.err == ""


@pytest.mark.parametrize("n, respuesta", INCORRECTAS)
def test_cada_respuesta_incorrecta_suspende_en_espanol(n, respuesta, capsys):
    mensaje = suspende(n, respuesta)
    assert mensaje.startswith("Pregunta %d: " % n)
    assert "no es la respuesta correcta" in mensaje or "no es la correcta" in mensaje
    assert "Idea clave: " in mensaje
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("n, respuesta", [(1, "a"), (1, "b"), (1, "d"), (2, "a"), (2, "b"), (2, "c")])
def test_el_mensaje_dice_que_se_respondio_y_por_que_falla(n, respuesta):
    mensaje = suspende(n, respuesta)
    assert "has respondido la %s" % respuesta in mensaje
    assert CLAVE[n]["opciones"][respuesta] in mensaje


def test_verdadero_en_la_pregunta_3_dice_por_que_no():
    mensaje = suspende(3, True)
    assert "has respondido verdadero (True)" in mensaje
    assert CLAVE[3]["opciones"][True] in mensaje


@pytest.mark.parametrize("n, respuesta", [(1, "C"), (1, " c "), (1, "\tC\n"), (2, "D"), (2, " d")])
def test_las_letras_se_normalizan(n, respuesta, capsys):
    corregir(n, respuesta)
    assert capsys.readouterr().out.startswith("Correcto. ")


@pytest.mark.parametrize("respuesta", [{"a", "d"}, {"A", " d "}, ["d", "a"], ("a", "d"), ["a", "d", "a"],
                                       frozenset("ad"), "ad", "a, d", "A D", "d;a", " a ,d "])
def test_la_pregunta_4_admite_varias_formas(respuesta, capsys):
    corregir(4, respuesta)
    assert capsys.readouterr().out.startswith("Correcto. ")


@pytest.mark.parametrize("marcadas", [{"a"}, {"d"}, {"a", "b", "d"}])
def test_la_pregunta_4_es_todo_o_nada(marcadas):
    mensaje = suspende(4, marcadas)
    assert "todo o nada" in mensaje
    assert "Las correctas son la a y la d." in mensaje


def test_la_pregunta_4_explica_lo_que_sobra_y_lo_que_falta():
    mensaje = suspende(4, {"b", "d"})
    assert "has marcado la b y la d" in mensaje
    assert "Has marcado la b" in mensaje and CLAVE[4]["opciones"]["b"] in mensaje
    assert "No has marcado la a" in mensaje and CLAVE[4]["opciones"]["a"] in mensaje
    assert "la d," not in mensaje.split("\n", 1)[1]  # la d está bien marcada: no se comenta


def test_la_pregunta_4_sin_nada_marcado():
    assert "no has marcado ninguna opción" in suspende(4, set())
    assert "no has marcado ninguna opción" in suspende(4, "")


@pytest.mark.parametrize("n, respuesta", [(1, "e"), (1, "ab"), (1, ""), (1, 3), (1, None), (1, ["c"]),
                                          (2, "d)"), (3, "False"), (3, 0), (3, None),
                                          (4, {"a", "e"}), (4, "xyz"), (4, 4), (4, None), (4, {1, 2})])
def test_una_forma_equivocada_suspende_y_dice_como_responder(n, respuesta):
    mensaje = suspende(n, respuesta)
    assert mensaje.startswith("Pregunta %d: la respuesta debe ser" % n)
    assert repr(respuesta) in mensaje


def test_una_pregunta_que_no_existe_es_un_fallo_del_cuaderno():
    with pytest.raises(ValueError):
        corregir(5, "a")


# El formato: la comprobación visible del cuaderno y el corrector aceptan exactamente lo mismo

FORMAS = [(1, "c"), (1, " C "), (1, "e"), (1, "ab"), (1, 3), (1, None), (1, ["c"]), (2, "d)"), (3, False),
          (3, "False"), (3, 0), (4, {"a", "d"}), (4, "a, d"), (4, "ad"), (4, ["d", "a"]), (4, set()), (4, ""),
          (4, {"a", "e"}), (4, 4), (4, {1, 2})]


@pytest.mark.parametrize("n, respuesta", FORMAS)
def test_el_corrector_solo_suspende_por_formato_lo_que_interpretar_rechaza(n, respuesta):
    try:
        interpretar(n, respuesta)
        valida = True
    except FormatoNoValido:
        valida = False
    try:
        corregir(n, respuesta)
        por_formato = False
    except Suspenso as e:
        por_formato = "la respuesta debe ser" in str(e)
    assert valida != por_formato


def _ejecutado(*fuentes):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(f) for f in fuentes]
    NotebookClient(nb, kernel_manager_class=NucleoPorFicheros, timeout=60, kernel_name="python3", allow_errors=True).execute()
    return nb.cells


@pytest.mark.usefixtures("procesos")
def test_la_comprobacion_visible_en_un_nucleo_de_verdad():
    celdas = _ejecutado("from harness.aula.cuestionario import revisar_formato",
                        "respuesta_1 = c", "revisar_formato('respuesta_1')",
                        "respuesta_3 = false",
                        "respuesta_4 = 'a, d'", "revisar_formato('respuesta_4')",
                        "respuesta_2 = 'z'", "revisar_formato('respuesta_2')",
                        "x = no_existe", "def f(llamada):\n    return c\n\nf(None)")
    sin_comillas, no_existe, booleano, _, vale, _, mal, otro, en_el_desafio = [c.outputs for c in celdas[1:]]
    # Una letra sin comillas: una pista en español, no una traza en inglés.
    assert sin_comillas[0].ename == "NameError"
    assert sin_comillas[0].traceback == ['✘ NameError: c no está definido. Python ha leído c como una variable. '
                                         'Escribe la letra entre comillas: "c".']
    assert "aún no existe" in no_existe[0].evalue and "Traceback" not in "".join(no_existe[0].traceback)
    assert "True o False, con mayúscula" in booleano[0].traceback[0]
    assert vale[0].text.startswith("El formato de respuesta_4 es válido.")
    assert mal[0].ename == "FormatoNoValido" and "una sola letra entre comillas" in mal[0].evalue
    assert otro[0].ename == "NameError" and len(otro[0].traceback) > 1  # los demás NameError, como siempre
    # También una letra suelta fuera de una respuesta (en el desafío, por ejemplo): con su traza de siempre.
    assert en_el_desafio[0].ename == "NameError" and len(en_el_desafio[0].traceback) > 1
    assert "Escribe la letra entre comillas" not in "".join(en_el_desafio[0].traceback)


# El widget formativo

def _leido(html):
    """Lo que se lee en un trozo de HTML: sin etiquetas ni entidades."""
    import html as htmllib
    import re
    return htmllib.unescape(re.sub(r"<[^>]+>", "", html))


def _sin_codigo(texto):
    return texto.replace("`", "")

def _widget(n):
    p = PREGUNTAS[n]
    correctas = p["correcta"] if isinstance(p["correcta"], set) else {p["correcta"]}
    return _Pregunta(n, p["opciones"], correctas, p["explicaciones"], n == 4)


def test_el_widget_acierta_y_explica_la_opcion_marcada():
    w = _widget(1)
    w.casillas["c"].value = True
    w.contestar()
    assert "✔ Correcto." in w.salida.value
    assert _sin_codigo(PREGUNTAS[1]["explicaciones"]["c"]) in _leido(w.salida.value)
    assert w._repr_mimebundle_()[RESPUESTA_MIME] == {"pregunta": 1, "respuesta": ["c"]}


def test_el_widget_de_una_sola_opcion_desmarca_las_demas():
    w = _widget(2)
    w.casillas["a"].value = True
    w.casillas["b"].value = True
    assert [c for c, casilla in w.casillas.items() if casilla.value] == ["b"]
    w.contestar()
    assert "✘ No es correcto." in w.salida.value


def test_el_widget_de_varias_es_a_todo_o_nada_y_explica_cada_marcada():
    w = _widget(4)
    w.casillas["a"].value = True
    w.contestar()
    assert "✘ No es correcto." in w.salida.value and "todo o nada" in w.salida.value
    w.casillas["d"].value = True
    w.contestar()
    assert "✔ Correcto." in w.salida.value
    for letra in "ad":
        assert _sin_codigo(PREGUNTAS[4]["explicaciones"][letra]) in _leido(w.salida.value)


def test_el_widget_sin_marcar_nada_pide_una_opcion():
    w = _widget(3)
    w.contestar()
    assert "Marca una opción" in w.salida.value and w.marcadas is None


def test_la_copia_sin_nucleo_lleva_opciones_respuesta_y_explicaciones():
    w = _widget(3)
    assert "Sin comprobar." in w.html()
    assert all(_sin_codigo(t) in _leido(w.html()) for t in PREGUNTAS[3]["explicaciones"].values())
    w.casillas[True].value = True
    w.contestar()
    copia = w.html()
    assert "has marcado: verdadero" in copia and "✘ No es correcto." in copia
    assert _sin_codigo(PREGUNTAS[3]["opciones"][False]) in _leido(copia)


@pytest.mark.usefixtures("procesos")
def test_la_celda_formativa_se_ejecuta_y_guarda_la_respuesta_para_el_informe():
    celda = celda_formativa(4)
    celdas = _ejecutado("from harness.aula.cuestionario import pregunta", celda.source)
    datos = celdas[1].outputs[0]["data"]
    assert "application/vnd.jupyter.widget-view+json" in datos and "Sin comprobar." in datos["text/html"]
    # Lo que queda en el cuaderno guardado tras pulsar «Comprobar»: la salida actualizada lleva la respuesta.
    cuaderno = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(celda.source, outputs=[
        nbformat.v4.new_output("display_data", data={RESPUESTA_MIME: {"pregunta": 4, "respuesta": ["d", "a"]}})])])
    assert respuestas_del_cuaderno(cuaderno) == {1: None, 2: None, 3: None, 4: frozenset("ad")}


def test_respuestas_del_cuaderno_en_modo_calificado_sin_ejecutar_nada():
    def celda(n, fuente):
        return nbformat.v4.new_code_cell(fuente, metadata={"nbgrader": {"grade_id": "respuesta-%d" % n}})

    cuaderno = nbformat.v4.new_notebook(cells=[
        celda(1, "# comentario\nrespuesta_1 = ' C '"), celda(2, "respuesta_2 = c"), celda(3, "respuesta_3 = False"),
        celda(4, "respuesta_4 = set()")])
    assert respuestas_del_cuaderno(cuaderno) == {1: "c", 2: None, 3: False, 4: frozenset()}
    cuaderno.cells[3].source = "import os\nrespuesta_4 = os.system('echo no')"
    assert respuestas_del_cuaderno(cuaderno)[4] is None
