"""Cambia el mensaje de la excepción por uno genérico suyo, así que el modelo no sabe qué ha fallado.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=1 escrituras=1 guiones=0
diagnóstico: mensaje-cambiado nunca-avisa

Ninguna excepción de la herramienta vuelve como un error que diga qué ha pasado: sin la idea de la
lección, las pruebas de los fallos no puntúan; quedan las de los resultados y las escrituras.
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception:
        return error(ll["id"], "la herramienta ha fallado")
