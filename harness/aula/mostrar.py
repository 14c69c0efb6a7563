"""Ayudas para enseñar cosas en el cuaderno."""

import inspect


def codigo(*objetos):
    """El código fuente de funciones o clases de la biblioteca, con colores, para leerlo en el cuaderno."""
    from IPython.display import Code
    return Code("\n\n".join(inspect.getsource(o) for o in objetos), language="python")
