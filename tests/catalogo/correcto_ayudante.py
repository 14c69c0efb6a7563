"""Define en la misma celda una función auxiliar que ejecuta y convierte la excepción en (ok, texto).

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""


def _intentar(funcion, entorno, argumentos):
    """(True, lo devuelto) si la función sale bien; (False, su mensaje) si lanza."""
    try:
        return True, funcion(entorno, **argumentos)
    except Exception as e:
        return False, str(e) or type(e).__name__


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    bien, contenido = _intentar(FUNCIONES[ll["name"]], entorno, ll["input"])
    return resultado(ll["id"], contenido) if bien else error(ll["id"], contenido)
