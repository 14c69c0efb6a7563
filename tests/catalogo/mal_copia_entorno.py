"""Ejecuta sobre una copia del entorno "por seguridad", así que lo que escribe escribir se pierde.

esperado: salmorejo=3 esquema=1 excepciones=2 una-vez=1 resultados=1 escrituras=0 guiones=0
discrepancia: excepciones | el corrector provoca sus excepciones en cuanto algo toca el entorno, también al copiarlo con dict(entorno) antes del try: le dice que ejecutar ha lanzado PermissionError al leer lista.txt (un fallo que un entorno de verdad no da al copiarse) y le quita los 2 puntos de excepciones a quien sí convierte en error todo lo que lanza la herramienta; su fallo ya lo cuentan escrituras y guiones
"""


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    copia = dict(entorno)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](copia, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e))
