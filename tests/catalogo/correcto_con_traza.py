"""Imprime cada llamada y su observación mientras trabaja (para depurar); lo que devuelve es el correcto.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""


def ejecutar(ll, entorno):
    print("→", ll["id"], ll["name"], ll["input"])
    motivo = incumple(ll)
    if motivo is not None:
        observacion = error(ll["id"], "no se ha ejecutado: " + motivo)
    else:
        try:
            observacion = resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
        except Exception as e:
            observacion = error(ll["id"], str(e) or type(e).__name__)
    print("←", "ERROR" if observacion["is_error"] else "", repr(observacion["content"]))
    return observacion
