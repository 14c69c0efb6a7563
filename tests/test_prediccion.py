"""Las predicciones de «Predice y ejecuta» (harness.aula.predice): se apuntan una vez, antes de ejecutar; la
celda del experimento las compara con lo que ha pasado, y lo apuntado y lo comparado quedan en la copia
que se guarda con el cuaderno, que se ve sin núcleo."""

import re

import pytest

from harness.aula.prediccion import Prediccion

OPCIONES = ["en el turno 1", "en el turno 2", "en ninguno: llega al final"]


def _texto(html):
    return re.sub(r"<[^>]+>", "", html)


def test_sin_apuntar_la_comparacion_dice_lo_que_ha_pasado(capsys):
    p = Prediccion("¿En qué turno se corta?", OPCIONES)
    p.comparar("en el turno 2")
    assert capsys.readouterr().out == "Predicción: no la has apuntado. Ha pasado esto: en el turno 2.\n"
    assert "no la has apuntado" in _texto(p.html()) and "vuelve a ejecutar esta celda" in _texto(p.html())
    assert p.eleccion.disabled and p.boton.disabled  # visto lo que pasa, ya no es una predicción


def test_apuntar_sin_elegir_pide_una_opcion_y_no_apunta_nada():
    p = Prediccion("¿En qué turno se corta?", OPCIONES)
    p.apuntar()
    assert p.apuntada is None and "Elige una opción" in p.estado.value and not p.boton.disabled


def test_lo_apuntado_no_se_cambia_y_la_comparacion_acierta_o_no(capsys):
    p = Prediccion("¿En qué turno se corta?", OPCIONES)
    p.eleccion.value = "en el turno 1"
    p.boton.click()
    assert p.apuntada == "en el turno 1" and p.eleccion.disabled and p.boton.disabled
    p.comparar("en el turno 2")
    assert capsys.readouterr().out == "✘ Predicción: en el turno 1. Ha pasado otra cosa: en el turno 2.\n"
    q = Prediccion("¿En qué turno se corta?", OPCIONES)
    q.eleccion.value = "en el turno 2"
    q.apuntar()
    q.comparar("en el turno 2")
    assert capsys.readouterr().out == "✔ Predicción: en el turno 2. Es lo que ha pasado.\n"


def test_las_opciones_pueden_ser_valores_con_su_texto(capsys):
    p = Prediccion("¿Cuáles dejan algo distinto?", {(): "ninguna", ("añadir",): "solo añadir"})
    p.eleccion.value = ("añadir",)
    p.apuntar()
    p.comparar(("añadir",))
    assert capsys.readouterr().out == "✔ Predicción: solo añadir. Es lo que ha pasado.\n"
    # Lo que ha pasado y no estaba entre las opciones se dice tal cual.
    Prediccion("¿Cuál?", ["a"]).comparar("b")
    assert capsys.readouterr().out.endswith("Ha pasado esto: b.\n")


def test_la_copia_guardada_lleva_la_pregunta_lo_apuntado_y_la_comparacion():
    p = Prediccion("¿Llega a ejecutarse `t3`?", ["sí", "no"])
    datos = p._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in datos and "<script" not in datos["text/html"]
    assert "<code>t3</code>" in datos["text/html"] and "Elige una opción y pulsa «Apuntar»" in _texto(datos["text/html"])
    p.eleccion.value = "sí"
    p.apuntar()
    p.comparar("no")
    copia = _texto(p._repr_mimebundle_()["text/html"])
    assert "sí ← tu predicción" in copia and "✘ Predicción: sí. Ha pasado otra cosa: no." in copia
    assert p.texto() == "¿Llega a ejecutarse `t3`? ✘ Predicción: sí. Ha pasado otra cosa: no."


@pytest.mark.parametrize("opciones", [OPCIONES, {1: "uno", 2: "dos"}])
def test_cada_opcion_es_una_de_la_lista(opciones):
    p = Prediccion("¿?", opciones)
    assert [v for _, v in p.eleccion.options] == list(dict.fromkeys(opciones))
