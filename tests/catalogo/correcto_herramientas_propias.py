"""Define sus propias copias de las cuatro herramientas (como las de la lección) y las pone en su tabla: hacen lo mismo, y el entorno lo ve.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""

def mi_leer(entorno, ruta):
    if ruta not in entorno:
        raise FileNotFoundError("no existe el fichero %r" % ruta)
    return entorno[ruta]


def mi_listar(entorno, carpeta):
    return listar(entorno, carpeta)


def mi_escribir(entorno, ruta, contenido):
    entorno[ruta] = contenido
    return escribir({}, ruta, contenido)  # el mismo texto de vuelta, sin volver a escribir


MIAS = {"leer": mi_leer, "listar": mi_listar, "buscar": lambda entorno, patron: buscar(entorno, patron),
        "escribir": mi_escribir}


def ejecutar(ll, entorno):
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        devuelto = MIAS[ll["name"]](entorno, **ll["input"])
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
    return resultado(ll["id"], devuelto)
