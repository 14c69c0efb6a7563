"""Antes de escribir guarda, fuera del try, lo que tenía el fichero (una papelera propia): leer el entorno por su cuenta no es un fallo de la herramienta.

Con el diccionario de la lección esa lectura no falla; si el disco de una prueba falla al leer ese fichero,
no se le cobra a la respuesta.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""

PAPELERA = []


def ejecutar(llamada, entorno):
    motivo = incumple(llamada)
    if motivo is not None:
        return error(llamada["id"], "no se ha ejecutado: " + motivo)
    entrada = llamada["input"]
    if llamada["name"] == "escribir":
        PAPELERA.append((entrada["ruta"], entorno.get(entrada["ruta"])))
    try:
        devuelto = FUNCIONES[llamada["name"]](entorno, **entrada)
    except Exception as e:
        return error(llamada["id"], str(e) or type(e).__name__)
    return resultado(llamada["id"], devuelto)
