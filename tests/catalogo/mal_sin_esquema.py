"""Quita la comprobación del esquema y confía en que la función lance: la llamada mal formada se ejecuta.

esperado: salmorejo=0 esquema=0 excepciones=2 una-vez=1 resultados=1 escrituras=1 guiones=0
"""


def ejecutar(ll, entorno):
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e))
