"""Quita la comprobación del esquema y confía en que la función lance: la llamada mal formada se ejecuta.

esperado: salmorejo=1 esquema=0 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ejecuta-sin-esquema
"""


def ejecutar(ll, entorno):
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
