"""Devuelve el mensaje de la excepción dentro de una lista de bloques de texto en vez de como texto.

esperado: salmorejo=1 esquema=1 excepciones=0 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: contenido-no-es-texto
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], [{"type": "text", "text": str(e) or type(e).__name__}])
