"""Si el fichero no existe, lee por su cuenta el de nombre más parecido (difflib) en vez de contestar con el error.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=0 resultados=1 escrituras=1 guiones=2
diagnóstico: arregla-la-llamada
"""
import difflib


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        return resultado(ll["id"], FUNCIONES[ll["name"]](entorno, **ll["input"]))
    except FileNotFoundError as e:
        parecidos = difflib.get_close_matches(ll["input"]["ruta"], list(entorno), n=1, cutoff=0.9)
        if parecidos:
            return resultado(ll["id"], leer(entorno, parecidos[0]))
        return error(ll["id"], str(e) or type(e).__name__)
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
