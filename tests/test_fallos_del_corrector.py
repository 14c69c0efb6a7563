"""Cuando el corrector de confianza falla, se apunta, se cuenta y se dice: nunca se calla.

Un fallo real: una celda de prueba `ejecutar-*` que el corrector no conoce (una tarea del profesor que usa
ese prefijo para una prueba suya). Su veredicto suspende con ErrorDelCorrector, y ni «qué comprueba» ni
sus diagnósticos se pueden anotar. Cada cosa va al registro de nbgrader y a los metadatos del cuaderno
corregido; de ahí la cuenta la clase (course/estado.py), y la dicen la terminal y el informe.
"""

import datetime
import logging
import zoneinfo

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from course import CUADERNO, RAIZ, TAREA, calificacion
from course.aislado import corrector
from course.aislado.corrector import FALLOS, VeredictosDeConfianza
from course.clase import avisos_de_la_lectura
from course.entregas import soluciones
from course.estado import CORREGIDO, Clase, Estudiante, _leer_detalles
from course.informe import html_del_informe
from referencia import ejecutar_correcto

DESCONOCIDA = "ejecutar-no-existe"


def _prueba(grade_id):
    return new_code_cell("comprobar(%r)" % grade_id.partition("-")[2], metadata={"nbgrader": {
        "grade": True, "grade_id": grade_id, "points": 1, "solution": False, "locked": True, "schema_version": 3}})


def test_una_prueba_que_el_corrector_no_conoce_suspende_y_cada_fallo_se_apunta():
    fallos = []
    salida = corrector._salida(lambda: corrector._decidir(DESCONOCIDA, ejecutar_correcto, {}), fallos, DESCONOCIDA)
    celda = _prueba(DESCONOCIDA)
    corrector._anota(celda, ejecutar_correcto, fallos)
    assert [s["ename"] for s in salida] == ["ErrorDelCorrector"]  # suspende: un fallo del corrector no regala puntos
    assert fallos == ["ejecutar-no-existe (el veredicto): KeyError: 'no-existe'",
                      "ejecutar-no-existe (qué comprueba): KeyError: 'no-existe'",
                      "ejecutar-no-existe (los diagnósticos): KeyError: 'no-existe'"]
    # Sin diagnósticos no se inventa una lista vacía: el informe dice que esta entrega no los trae.
    assert "diagnosticos" not in celda.metadata["curso"]


def test_una_prueba_que_el_corrector_conoce_no_apunta_nada():
    fallos = []
    celda = _prueba("ejecutar-salmorejo")
    salida = corrector._salida(lambda: corrector._decidir("ejecutar-salmorejo", ejecutar_correcto, {}), fallos,
                               "ejecutar-salmorejo")
    corrector._anota(celda, ejecutar_correcto, fallos)
    nb = new_notebook()
    corrector._anota_el_resumen(nb, ejecutar_correcto, fallos)
    assert fallos == [] and salida[0]["output_type"] == "stream"
    assert celda.metadata["curso"]["diagnosticos"] == [] and nb.metadata["curso"]["resumen"]["equivocaciones"] == []


class _JaulaQueNoArranca:
    """Un fallo metido a propósito en el lado de confianza: una respuesta aparte (calificacion.RespuestaAparte)
    cuya jaula lanza al cargarla, en lugar de decir por qué no carga como hace CodigoAislado."""

    respaldo = 1.0

    def cargar(self):
        raise OSError("bwrap: no se puede crear el espacio de nombres")

    def ejecutar(self, llamada, entorno):
        raise AssertionError("no se llega aquí: no ha cargado")


def test_sin_resumen_la_retroalimentacion_sale_igual_y_el_fallo_se_apunta():
    assert isinstance(_JaulaQueNoArranca(), calificacion.RespuestaAparte)
    fallos, nb = [], new_notebook()
    corrector._anota_el_resumen(nb, _JaulaQueNoArranca(), fallos)
    assert "resumen" not in nb.metadata.get("curso", {})
    assert fallos == ["la retroalimentación (el resumen): OSError: bwrap: no se puede crear el espacio de nombres"]


def _clase(*estudiantes):
    return Clase(TAREA, 12.0, None, {"ejecutar-salmorejo": 2.0}, list(estudiantes))


def test_la_clase_los_cuenta_y_la_terminal_y_el_informe_los_dicen(tmp_path):
    ana = Estudiante("ana", situacion=CORREGIDO, puntos=11.0, nota=11.0, equivocaciones=[],
                     fallos_del_corrector=["ejecutar-no-existe (el veredicto): KeyError: 'no-existe'",
                                           "la retroalimentación (el resumen): OSError: <sin disco>"])
    bruno = Estudiante("bruno", situacion=CORREGIDO, puntos=12.0, nota=12.0, equivocaciones=None,
                       detalles="sus detalles no se han podido leer (ValueError)")
    carla = Estudiante("carla", situacion=CORREGIDO, puntos=12.0, nota=12.0, equivocaciones=[])
    clase = _clase(ana, bruno, carla)
    assert clase.fallos_del_corrector == [("ana", ana.fallos_del_corrector)]
    assert clase.sin_detalles == [("bruno", "sus detalles no se han podido leer (ValueError)")]
    assert avisos_de_la_lectura(clase, "exports/registro.txt") == [
        "¡Ojo! El corrector ha fallado 2 veces con 1 entrega: ana. Una prueba cuyo veredicto ha fallado suspende; "
        "qué ha fallado y con qué mensaje, en el informe y en exports/registro.txt.",
        "De 1 entrega no se han podido leer los detalles (equivocaciones, respuestas del cuestionario, "
        "conversaciones): bruno. Su nota cuenta igual; el informe dice por qué en su fila."]
    assert avisos_de_la_lectura(_clase(carla), "exports/registro.txt") == []
    html = html_del_informe(clase, tmp_path, zoneinfo.ZoneInfo("Europe/Madrid"),
                            ahora=datetime.datetime(2026, 3, 1, tzinfo=datetime.timezone.utc))
    seccion = html[html.index('<h2 id="fallos-del-corrector">'):html.index("<h2>Notas</h2>")]
    assert ('<tr><td><a href="#e-ana">ana</a></td><td><code>ejecutar-no-existe (el veredicto): KeyError: '
            '&#39;no-existe&#39;</code><br><code>la retroalimentación (el resumen): OSError: &lt;sin disco&gt;</code>'
            '</td></tr>') in seccion
    assert "bruno" not in seccion and "carla" not in seccion
    assert 'id="fallos-del-corrector"' not in html_del_informe(_clase(carla), tmp_path, zoneinfo.ZoneInfo("UTC"))


@pytest.mark.usefixtures("procesos")
def test_en_la_correccion_de_verdad_van_al_registro_y_al_cuaderno_y_la_clase_los_lee(tmp_path, caplog):
    """El preprocesador de nbgrader, con la respuesta de referencia en su jaula de verdad."""
    respuesta = new_code_cell(soluciones(nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4))["ejecutar"],
                              metadata={"nbgrader": {"grade": False, "grade_id": "ejecutar", "solution": True,
                                                     "locked": False, "schema_version": 3}})
    nb = new_notebook(cells=[respuesta, _prueba("ejecutar-salmorejo"), _prueba(DESCONOCIDA)])
    registro = logging.getLogger("test-fallos-del-corrector")
    with caplog.at_level(logging.INFO, logger=registro.name):
        VeredictosDeConfianza(log=registro).preprocess(nb, {})
    assert nb.cells[1].outputs[0]["output_type"] == "stream"  # la que conoce, la decide
    assert nb.cells[2].outputs[0]["ename"] == "ErrorDelCorrector"
    esperados = ["ejecutar-no-existe (el veredicto): KeyError: 'no-existe'",
                 "ejecutar-no-existe (qué comprueba): KeyError: 'no-existe'",
                 "ejecutar-no-existe (los diagnósticos): KeyError: 'no-existe'"]
    assert nb.metadata["curso"][FALLOS] == esperados
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        (registro.name, logging.WARNING, "El corrector ha fallado en " + f) for f in esperados]
    ruta = tmp_path / CUADERNO
    nbformat.write(nb, ruta)
    ana = Estudiante("ana", situacion=CORREGIDO)
    _leer_detalles(ana, ruta)
    assert ana.fallos_del_corrector == esperados and ana.equivocaciones == []
