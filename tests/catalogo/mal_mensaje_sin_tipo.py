"""Pone el mensaje de la excepción tras una frase propia: vale si tiene mensaje, pero sin él no dice qué excepción ha sido.

esperado: salmorejo=1 esquema=1 excepciones=0 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: no-dice-el-tipo
"""


def ejecutar(llamada, entorno):
    motivo = incumple(llamada)
    if motivo is not None:
        return error(llamada["id"], "no se ha ejecutado: " + motivo)
    try:
        devuelto = FUNCIONES[llamada["name"]](entorno, **llamada["input"])
    except Exception as e:
        return error(llamada["id"], "la herramienta %s ha fallado: %s" % (llamada["name"], e))
    return resultado(llamada["id"], devuelto)
