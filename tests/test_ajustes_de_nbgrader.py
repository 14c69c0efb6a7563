"""Lo que el curso ajusta de nbgrader fuera de su configuración (course/aislado/entrada.py), sujeto a su versión."""

import hashlib
import importlib
import inspect

from nbgrader.converters import Autograde, GenerateAssignment, GenerateFeedback
from nbgrader.converters.base import BaseConverter

from course import recoleccion
from course.aislado import entrada


def _metodo(nombre):
    modulo, clase, metodo = nombre.rsplit(".", 2)
    return inspect.unwrap(getattr(getattr(importlib.import_module(modulo), clase), metodo))


def test_lo_ajustado_de_nbgrader_es_el_codigo_que_se_leyo_al_ajustarlo():
    """Si nbgrader cambia uno de estos métodos, el ajuste puede haber dejado de valer: hay que volver a leerlo
    (course/aislado/entrada.py, ajustar_autograde) y apuntar su huella nueva en AJUSTADO."""
    entrada.ajustar_autograde()
    recoleccion.ajustar_importacion()
    ajustado = dict(entrada.AJUSTADO, **recoleccion.AJUSTADO)
    huellas = {nombre: hashlib.sha256(inspect.getsource(_metodo(nombre)).encode()).hexdigest() for nombre in ajustado}
    assert huellas == ajustado


def test_el_ajuste_solo_toca_autograde_y_una_vez():
    entrada.ajustar_autograde()
    entrada.ajustar_autograde()
    for metodo in ("init_notebooks", "init_assignment"):
        ajustado = getattr(Autograde, metodo)
        assert ajustado.__code__.co_filename == entrada.__file__
        assert ajustado.__wrapped__.__code__.co_filename != entrada.__file__  # envuelve a nbgrader, y una vez
        for otra in (BaseConverter, GenerateAssignment, GenerateFeedback):
            assert getattr(otra, metodo).__code__.co_filename != entrada.__file__


def test_el_ajuste_del_roster_solo_toca_la_importacion_de_estudiantes_y_una_vez():
    from nbgrader.apps.dbapp import DbGenericImportApp, DbStudentImportApp

    recoleccion.ajustar_importacion()
    recoleccion.ajustar_importacion()
    ajustado = DbStudentImportApp.start
    assert ajustado.__code__.co_filename == recoleccion.__file__
    assert ajustado.__wrapped__ is DbGenericImportApp.start  # envuelve a nbgrader, y una vez
