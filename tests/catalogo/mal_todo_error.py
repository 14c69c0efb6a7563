"""Contesta con error(...) a todas las llamadas, también a las que salen bien: is_error ya no separa lo que falla de lo que no.

Sin la idea de la lección, las pruebas de los fallos no puntúan, y la de los resultados es la casa de su
equivocación: solo queda la de las escrituras.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 sin-arreglos=0 resultados=0 escrituras=1 guiones=0
diagnóstico: exito-como-error todo-es-error
"""

def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return error(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
