"""Elige la herramienta con una cadena de if sobre el nombre y llama a leer/listar/buscar/escribir directamente.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    nombre, entrada = ll["name"], ll["input"]
    try:
        if nombre == "leer":
            salida = leer(entorno, entrada["ruta"])
        elif nombre == "listar":
            salida = listar(entorno, entrada["carpeta"])
        elif nombre == "buscar":
            salida = buscar(entorno, entrada["patron"])
        else:
            salida = escribir(entorno, entrada["ruta"], entrada["contenido"])
    except Exception as e:
        return error(ll["id"], str(e) if str(e) else type(e).__name__)
    return resultado(ll["id"], salida)
