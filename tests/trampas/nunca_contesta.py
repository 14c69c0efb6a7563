"""Mira el entorno una vez, como haría la herramienta, y lanza sin contestar: busca el punto de «una vez».

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""


def ejecutar(llamada, entorno):
    "lista.txt" in entorno
    raise ValueError("nada")
