"""Los ejecutar de referencia de las pruebas. La biblioteca no tiene ninguno: es el ejercicio."""

import functools

import nbformat

from harness import FUNCIONES, error, incumple, resultado


def ejecutar_correcto(ll, entorno):
    """El contrato entero: nunca lanza."""
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)  # la API no acepta un error vacío


def ejecutar_a_medias(ll, entorno):
    """El de la primera celda de la lección: el esquema contesta, la ejecución aún lanza."""
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))


@functools.cache
def _antes_de_la_respuesta():
    from course import CUADERNO, RAIZ, TAREA
    from course.aislado.corrector import importaciones_de_antes
    from course.aislado.servidor import antes_de_la_respuesta
    return antes_de_la_respuesta(importaciones_de_antes(nbformat.read(RAIZ / "release" / TAREA / CUADERNO, as_version=4)))


def espacio_del_cuaderno():
    """Un espacio de nombres como el del cuaderno al llegar a la celda de respuesta (harness y lo que importan las
    celdas de antes, como `json`): el mismo con el que la jaula del corrector carga la respuesta."""
    return dict(_antes_de_la_respuesta())
