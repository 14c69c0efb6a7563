"""Usa json, que el cuaderno importa en una celda anterior, sin importarlo en su celda: vale en el cuaderno ejecutado de arriba abajo, y vale igual en la corrección.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        argumentos = json.loads(json.dumps(ll["input"]))
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **argumentos))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
