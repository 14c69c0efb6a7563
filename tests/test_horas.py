"""La hora de cada entrega recogida del LMS (course/horas.py), buscada con Hypothesis.

La hoja de calificaciones de Moodle, como la escribe Moodle (tests/lms.py, `hoja_de_moodle`) en español o en
inglés y en cualquier zona horaria, da de cada participante una hora que nunca es anterior a la de verdad (como
mucho, el último segundo de su minuto o la segunda pasada de la hora que se repite): con ella, una entrega tardía
nunca sale a tiempo, y una de un minuto antes del plazo nunca sale tarde. Una fila mala solo pierde la suya. Y las
fechas de un zip que se escribe al descargarlo nunca se toman por las de las entregas.
"""

import csv
import datetime
import io
import random
from zoneinfo import ZoneInfo

import pytest
from hypothesis import assume, given, settings, strategies as st

from course import horas
from course.horas import CANVAS, MOODLE_31, MOODLE_41, MOODLE_PLANO, Entrada, fechas_de_descarga, leer_hoja
from lms import hoja_de_moodle

UTC = datetime.timezone.utc
ZONAS = ["Europe/Madrid", "America/Santiago", "America/Mexico_City", "Australia/Lord_Howe", "Europe/London",
         "America/Bogota", "UTC"]
INSTANTES = st.datetimes(min_value=datetime.datetime(2005, 1, 1), max_value=datetime.datetime(2037, 12, 31),
                         timezones=st.just(UTC))
NUMEROS = st.integers(1, 10**7).map(str)


def _local(instante, zona):
    """El instante como lo ve quien descarga la hoja en `zona`: su hora local, sin zona."""
    return instante.astimezone(ZoneInfo(zona)).replace(tzinfo=None)


def _repetida(local, zona):
    """Si esa hora local existe dos veces (la noche en que se retrasa el reloj)."""
    return len({local.replace(tzinfo=ZoneInfo(zona), fold=f).utcoffset() for f in (0, 1)}) > 1


@settings(max_examples=300, deadline=None)
@given(entregas=st.dictionaries(NUMEROS, st.none() | INSTANTES, min_size=1, max_size=8), zona=st.sampled_from(ZONAS),
       idioma=st.sampled_from(["es", "en"]), cerca=st.integers(-150, 150))
def test_la_hoja_nunca_adelanta_una_entrega_ni_retrasa_la_de_un_minuto_antes(entregas, zona, idioma, cerca):
    # El plazo, cerca de una de las entregas, en un minuto justo (como lo ponen Moodle y nbgrader).
    alguna = next((h for h in entregas.values() if h is not None), datetime.datetime(2026, 3, 1, tzinfo=UTC))
    plazo = (alguna + datetime.timedelta(seconds=cerca)).replace(second=0, microsecond=0)
    hoja, problema = leer_hoja(hoja_de_moodle([(n, "Nombre, Apellido", None if h is None else _local(h, zona))
                                               for n, h in entregas.items()], idioma), zona)
    assert problema is None and hoja.malas == {} and hoja.sin_participante == []
    assert set(hoja.horas) == {str(int(n)) for n in entregas}
    for numero, de_verdad in entregas.items():
        leida = hoja.horas[str(int(numero))]
        if de_verdad is None:
            assert leida is None  # «-»: Moodle no tiene entrega suya
            continue
        de_verdad = de_verdad.replace(microsecond=0)
        assert leida >= de_verdad
        holgura = datetime.timedelta(minutes=61 if _repetida(_local(de_verdad, zona), zona) else 1)
        assert leida - de_verdad < holgura
        if de_verdad > plazo:
            assert leida > plazo  # tarde de verdad: tarde en la hoja
        if de_verdad < plazo - datetime.timedelta(minutes=1) and not _repetida(_local(de_verdad, zona), zona):
            assert leida <= plazo  # a tiempo de verdad, con su minuto entero antes del plazo: a tiempo


@settings(max_examples=200, deadline=None)
@given(entregas=st.dictionaries(NUMEROS, INSTANTES, min_size=2, max_size=8), zona=st.sampled_from(ZONAS),
       malas=st.sets(st.sampled_from(["mañana", "32 de marzo de 2026, 10:00", "1 de marzo de 2026, 13:00 PM", "10:15",
                                      "=HIPERVINCULO(\"x\")", "1 de brumario de 2026, 10:00"]), min_size=1),
       semilla=st.integers(0, 2**32))
def test_una_fila_mala_solo_pierde_la_hora_de_su_participante(entregas, zona, malas, semilla):
    buenas = [(n, "x", _local(h, zona)) for n, h in entregas.items()]
    estropeadas = random.Random(semilla).sample(range(len(buenas)), min(len(malas), len(buenas) - 1))
    filas = [(n, x, sorted(malas)[i % len(malas)] if i in estropeadas else h) for i, (n, x, h) in enumerate(buenas)]
    sana, _ = leer_hoja(hoja_de_moodle(buenas), zona)
    hoja, problema = leer_hoja(hoja_de_moodle(filas), zona)
    assert problema is None
    mal = {str(int(buenas[i][0])) for i in estropeadas}
    assert set(hoja.malas) == mal and all("no es" in m for m in hoja.malas.values()), hoja.malas
    assert hoja.horas == {n: h for n, h in sana.horas.items() if n not in mal}


def test_la_hoja_en_inglés_con_am_y_pm_y_como_la_guarda_una_hoja_de_cálculo():
    filas = [("1", "a", datetime.datetime(2026, 3, 1, 0, 5)), ("2", "b", datetime.datetime(2026, 3, 1, 12, 30)),
             ("3", "c", datetime.datetime(2026, 3, 1, 23, 59))]
    en, _ = leer_hoja(hoja_de_moodle(filas, "en"), "UTC")
    assert [en.horas[n] for n in "123"] == [datetime.datetime(2026, 3, 1, h, m, 59, tzinfo=UTC)
                                            for h, m in ((0, 5), (12, 30), (23, 59))]
    # Guardada otra vez desde una hoja de cálculo en español: punto y coma, sin BOM, o en UTF-16.
    texto = hoja_de_moodle(filas).decode("utf-8-sig")
    con_punto_y_coma = io.StringIO()
    csv.writer(con_punto_y_coma, delimiter=";").writerows(csv.reader(io.StringIO(texto)))
    for datos in (con_punto_y_coma.getvalue().encode(), texto.encode("utf-16")):
        otra, problema = leer_hoja(datos, "UTC")
        assert problema is None and otra.horas == en.horas, (problema, datos[:80])


@pytest.mark.parametrize("datos, motivo", [
    (b"Identificador,Nombre completo\nParticipante1,Ana\n", "no tiene las columnas «Identificador» y «Última modificación"),
    ("id;nombre\nana;Ana Núñez\n".encode("cp1252"), "no está en UTF-8"),
    (b"", "no tiene las columnas"),
])
def test_lo_que_no_es_una_hoja_de_calificaciones_dice_por_que_en_español(datos, motivo):
    hoja, problema = leer_hoja(datos, "Europe/Madrid")
    assert hoja is None and motivo in problema


# --------------------------------------------------------------------------- las fechas de un zip

FECHA = st.datetimes(min_value=datetime.datetime(2020, 1, 1), max_value=datetime.datetime(2030, 1, 1),
                     timezones=st.just(UTC))


@settings(max_examples=300, deadline=None)
@given(inicio=FECHA, pasos=st.lists(st.integers(0, int(horas.VENTANA.total_seconds())), min_size=1, max_size=30),
       numeros=st.lists(NUMEROS, min_size=1, max_size=30), forma=st.sampled_from([MOODLE_41, MOODLE_PLANO, CANVAS]))
def test_un_zip_escrito_al_descargarlo_no_da_la_hora_de_ninguna_entrega(inicio, pasos, numeros, forma):
    """Moodle 4.1 y después y Canvas, siempre; Moodle sin carpetas, cuando sus fechas van seguidas en el orden del zip
    (lo que tarda en escribirse cada fichero) o solo hay un participante."""
    fechas, ahora = [], inicio
    for paso in pasos:
        ahora += datetime.timedelta(seconds=paso)
        fechas.append(ahora)
    entradas = [Entrada(forma, numeros[i % len(numeros)], f, True) for i, f in enumerate(fechas)]
    assert forma in fechas_de_descarga(entradas)


@settings(max_examples=300, deadline=None)
@given(fechas=st.lists(FECHA, min_size=2, max_size=30), primero=NUMEROS, segundo=NUMEROS)
def test_un_zip_con_la_hora_de_cada_fichero_la_da(fechas, primero, segundo):
    """Moodle de 3.1 a 4.0, siempre; sin carpetas, con dos participantes o más cuyas fechas no van seguidas."""
    assume(primero != segundo)
    numeros = [primero, segundo] + [primero] * (len(fechas) - 2)
    assert fechas_de_descarga([Entrada(MOODLE_31, n, f, True) for n, f in zip(numeros, fechas)]) == {}
    seguidas = all(datetime.timedelta(0) <= b - a <= horas.VENTANA for a, b in zip(fechas, fechas[1:]))
    planas = fechas_de_descarga([Entrada(MOODLE_PLANO, n, f, True) for n, f in zip(numeros, fechas)])
    assert (MOODLE_PLANO in planas) == seguidas


def test_el_texto_en_linea_no_cuenta_para_saber_que_fechas_lleva_un_zip():
    a, b = datetime.datetime(2026, 3, 1, 9, 0, tzinfo=UTC), datetime.datetime(2026, 3, 5, 9, 0, tzinfo=UTC)
    entradas = [Entrada(MOODLE_PLANO, "1", a, True), Entrada(MOODLE_PLANO, "1", b, False),
                Entrada(MOODLE_PLANO, "2", a - datetime.timedelta(hours=3), True), Entrada(MOODLE_PLANO, "2", b, False)]
    assert fechas_de_descarga(entradas) == {}
