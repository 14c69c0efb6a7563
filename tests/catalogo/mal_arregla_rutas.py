"""Arregla por su cuenta la llamada a leer con `rutas` (lee la primera) en vez de contar el error del esquema.

Solo arregla la forma de t1, que las pruebas ocultas no repiten: se nota en la traza del salmorejo.

esperado: salmorejo=0 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: arregla-la-llamada
"""


def ejecutar(ll, entorno):
    if ll["name"] == "leer" and "rutas" in ll["input"] and "ruta" not in ll["input"]:
        ll = dict(ll, input={"ruta": ll["input"]["rutas"][0]})
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
