"""Cómo se enseñan las cosas en el cuaderno: el código de la biblioteca, y el HTML de los widgets y del cuestionario.

El HTML lleva los estilos dentro de cada etiqueta y ningún JavaScript: así la copia de un widget se
ve igual sin núcleo, en el HTML de nbconvert o de nbgrader. Los colores son los del tema de
JupyterLab, con los del tema claro por si no existen (fuera de JupyterLab), y los resaltados son
semitransparentes, que se leen igual sobre fondo claro y sobre fondo oscuro. `escapar` lo usa
también el informe de la clase (course/informe.py).
"""

import html
import inspect
import re

CAJA = ("font-family: var(--jp-ui-font-family, sans-serif); font-size: 13px; line-height: 1.45; "
        "color: var(--jp-ui-font-color1, #212121)")
CELDA = "border: 1px solid var(--jp-border-color2, #e0e0e0); padding: 3px 8px; text-align: left; vertical-align: top"
CABEZA = CELDA + "; background: var(--jp-layout-color2, #eeeeee)"
CODIGO = "font-family: var(--jp-code-font-family, monospace); white-space: pre-wrap"
CAMBIADO = "rgba(255, 193, 7, 0.3)"    # ámbar: el fichero ya no es el de ENTORNO
DISTINTO = "rgba(244, 67, 54, 0.25)"   # rojo: una y dos ejecuciones no lo dejan igual
AVISO = "background: rgba(244, 67, 54, 0.15); border-left: 4px solid #e53935; padding: 4px 8px; margin: 4px 0"
BIEN = "background: rgba(76, 175, 80, 0.15); border-left: 4px solid #43a047; padding: 4px 8px; margin: 4px 0"


def escapar(s):
    """El texto `s`, listo para ir dentro de HTML, también en el valor de un atributo."""
    return html.escape(str(s))


def en_codigo(s):
    """El texto `s` en letra de código, con sus saltos de línea."""
    return '<span style="%s">%s</span>' % (CODIGO, escapar(s))


def con_codigo(s):
    """El texto `s` en HTML, con lo que va entre `comillas invertidas` como código, igual que en Markdown."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escapar(s))


def tabla(titulos, filas):
    """Una tabla HTML; cada fila es una lista de celdas (contenido en HTML, fondo o None)."""
    cabeza = "".join('<th style="%s">%s</th>' % (CABEZA, t) for t in titulos)
    cuerpo = "".join("<tr>%s</tr>" % "".join('<td style="%s; background: %s">%s</td>' % (CELDA, fondo or "none", c)
                                             for c, fondo in fila) for fila in filas)
    return '<table style="border-collapse: collapse; margin: 6px 0"><tr>%s</tr>%s</table>' % (cabeza, cuerpo)


class ConCopia:
    """Un widget (`self.caja`) que lleva también su copia en HTML (`html()`) y en texto (`texto()`)."""

    def _repr_mimebundle_(self, **kwargs):
        # Las tres formas van en la misma salida: JupyterLab con núcleo dibuja el widget, y nbconvert,
        # si el cuaderno no ha guardado el estado de los widgets, se queda con text/html.
        datos = self.caja._repr_mimebundle_(**kwargs)
        datos.update({"text/html": self.html(), "text/plain": self.texto()})
        return datos


def codigo(*objetos):
    """El código fuente de funciones o clases de la biblioteca, con colores, para leerlo en el cuaderno."""
    from IPython.display import Code
    return Code("\n\n".join(inspect.getsource(o) for o in objetos), language="python")
