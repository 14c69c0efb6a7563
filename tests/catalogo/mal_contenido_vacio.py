"""Devuelve str(e) tal cual también cuando la excepción no trae mensaje: un error con el contenido vacío, que la API rechaza.

esperado: salmorejo=1 esquema=1 excepciones=0 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: contenido-vacio
"""

def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e))
