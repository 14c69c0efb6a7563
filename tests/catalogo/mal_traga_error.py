"""Se traga la excepción y devuelve su mensaje como un resultado normal, con is_error falso.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=1 escrituras=1 guiones=0
diagnóstico: error-como-resultado nunca-avisa

Ninguna excepción de la herramienta vuelve como un error que diga qué ha pasado: sin la idea de la
lección, las pruebas de los fallos no puntúan; quedan las de los resultados y las escrituras.
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return resultado(ll["id"], str(e))
