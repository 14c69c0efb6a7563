"""Cambia el mensaje de la excepción por uno genérico suyo, así que el modelo no sabe qué ha fallado.

esperado: salmorejo=1 esquema=1 excepciones=0 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: mensaje-cambiado
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception:
        return error(ll["id"], "la herramienta ha fallado")
