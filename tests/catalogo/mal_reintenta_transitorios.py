"""Reintenta hasta tres veces los fallos que parecen pasajeros (TimeoutError, ConnectionError) antes de contestar con el error.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=0 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: reintenta
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    for intento in range(3):
        try:
            return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
        except (TimeoutError, ConnectionError) as e:
            ultimo = e
        except Exception as e:
            return error(ll["id"], str(e) or type(e).__name__)
    return error(ll["id"], str(ultimo) or type(ultimo).__name__)
