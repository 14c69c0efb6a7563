"""La celda de respuesta tal como llega en release/, sin tocar: el esquema contesta y todo lo demás lanza NotImplementedError.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: sin-empezar
"""
def ejecutar(llamada, entorno):
    """La observación que contesta a `llamada`: un tool_result con su id. De ella no sale ninguna excepción."""
    motivo = incumple(llamada)
    if motivo is not None:
        return error(llamada["id"], "no se ha ejecutado: " + motivo)
    # TU CÓDIGO AQUÍ
    raise NotImplementedError("falta tu respuesta: escríbela en lugar de esta línea")
