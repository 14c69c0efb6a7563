"""Ejecutar una herramienta una vez y dos, para ver si repetirla cambia algo."""

from .entorno import ENTORNO


def añadir(entorno, ruta, contenido):
    """Sólo para comparar, no es del entorno: pega `contenido` al final del fichero."""
    entorno[ruta] = entorno.get(ruta, "") + contenido
    return "añadidos %d caracteres a %s" % (len(contenido), ruta)


def una_y_dos(f, **argumentos):
    """El entorno tras ejecutar `f` una vez y tras ejecutarla dos, cada uno desde una copia de ENTORNO."""
    una, dos = dict(ENTORNO), dict(ENTORNO)
    f(una, **argumentos)
    for _ in range(2):
        f(dos, **argumentos)
    return una, dos
