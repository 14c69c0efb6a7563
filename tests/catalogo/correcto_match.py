"""Elige la herramienta con match sobre el nombre y la entrada, y llama a cada una con sus argumentos por nombre.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""

def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        match ll:
            case {"name": "leer", "input": {"ruta": ruta}}:
                devuelto = leer(entorno, ruta)
            case {"name": "listar", "input": {"carpeta": carpeta}}:
                devuelto = listar(entorno, carpeta=carpeta)
            case {"name": "buscar", "input": {"patron": patron}}:
                devuelto = buscar(entorno, patron)
            case {"name": "escribir", "input": {"ruta": ruta, "contenido": contenido}}:
                devuelto = escribir(entorno, ruta, contenido)
    except Exception as e:
        return error(ll["id"], f"{type(e).__name__}: {e}")
    return resultado(ll["id"], devuelto)
