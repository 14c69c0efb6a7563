"""Contesta a mano a los dos fallos de la traza del salmorejo (el campo rutas y el fichero que no existe), sin incumple y sin un except general.

Cualquier otra llamada mal hecha, o una herramienta que lanza otra cosa, sale de ejecutar: no contesta a
las llamadas básicas, y no puntúa nada.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=0 guiones=0
diagnóstico: solo-la-traza
"""

def ejecutar(ll, entorno):
    entrada = ll["input"]
    if "rutas" in entrada:
        return error(ll["id"], "no se ha ejecutado: falta el campo 'ruta'")
    if ll["name"] == "leer" and entrada["ruta"] not in entorno:
        return error(ll["id"], "no existe el fichero %r" % entrada["ruta"])
    return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **entrada))
