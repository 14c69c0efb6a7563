"""Mira con `ruta in entorno` si el fichero existe antes de llamar a leer, y después lo llama igual: mirar no es ejecutar.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    if ll["name"] == "leer" and ll["input"]["ruta"] not in entorno:
        print("aviso: no existe", ll["input"]["ruta"])
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
