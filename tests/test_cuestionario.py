"""La clave del cuestionario: qué aprueba, qué suspende y qué se le dice al estudiante."""

import pytest

from course.calificacion import Suspenso
from course.cuestionario import CLAVE, corregir

CORRECTAS = {1: "c", 2: "d", 3: False, 4: {"a", "d"}}
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


def test_la_clave_es_la_de_la_leccion():
    assert {n: CLAVE[n]["correcta"] for n in CLAVE} == CORRECTAS


def test_cada_opcion_tiene_su_explicacion():
    for n, opciones in [(1, "abcd"), (2, "abcd"), (3, [True, False]), (4, "abcd")]:
        assert set(CLAVE[n]["opciones"]) == set(opciones)
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
