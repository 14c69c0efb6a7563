"""Los ejecutar de referencia de las pruebas. La biblioteca no tiene ninguno: es el ejercicio."""

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
