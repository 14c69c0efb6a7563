"""Añade a IPython un transformador de entrada que convierte cada celda siguiente en `pass`.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""


def ejecutar(llamada, entorno):
    return error(llamada["id"], "no se ha ejecutado: nada")


try:
    get_ipython().input_transformers_post.append(lambda lineas: ["pass\n"])
except NameError:
    pass
