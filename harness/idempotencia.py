"""Ejecutar una herramienta una vez y dos, para ver si repetirla cambia algo."""

from .entorno import ENTORNO, caracteres


def añadir(entorno, ruta, contenido):
    """Pega `contenido` detrás de lo que ya tenga el fichero. No es del entorno: está para compararla con escribir."""
    antes = entorno.get(ruta, "")
    entorno[ruta] = antes + contenido
    return "%s: %s más (ahora tiene %d)" % (ruta, caracteres(len(contenido)), len(entorno[ruta]))


def añadir_y_fallar(entorno, ruta, contenido):
    """Como añadir, pero lanza después de escribir: un fallo que llega con el trabajo ya hecho."""
    añadir(entorno, ruta, contenido)
    raise TimeoutError("el disco no ha confirmado la escritura en %s" % ruta)


def una_y_dos(f, **argumentos):
    """El entorno tras ejecutar `f` una vez y tras ejecutarla dos, cada uno desde una copia de ENTORNO."""
    una, dos = dict(ENTORNO), dict(ENTORNO)
    f(una, **argumentos)
    for _ in range(2):
        f(dos, **argumentos)
    return una, dos
