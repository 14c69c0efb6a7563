"""Trata un resultado vacío (buscar sin coincidencias, carpeta vacía) como un error.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=0 escrituras=1 guiones=2
diagnóstico: vacio-es-error
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        salida = FUNCIONES[ll["name"]](entorno, **ll["input"])
    except Exception as e:
        return error(ll["id"], str(e))
    if not salida:
        return error(ll["id"], "la herramienta no ha devuelto nada")
    return resultado(ll["id"], salida)
