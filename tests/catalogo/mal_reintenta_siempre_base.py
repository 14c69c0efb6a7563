"""Reintenta en bucle hasta que la función no lance y captura BaseException, así que ni una interrupción lo para.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: reintenta
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    while True:
        try:
            return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
        except BaseException:
            pass
