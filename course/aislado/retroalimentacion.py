"""El HTML de la retroalimentación, sin nada que se ejecute: lo que viene de una entrega pasa por nh3.

`nbgrader generate_feedback` pinta el cuaderno corregido con la plantilla del curso
(course/plantillas/retroalimentacion). Con `HTMLExporter.sanitize_html` (nbgrader_config.py) las
salidas JavaScript y las vistas de widgets no se pintan, y el HTML de las salidas y del markdown
pasa por el filtro `clean_html`, que aquí es `limpiar_html`. Además, la página lleva una política de
seguridad (CSP) que no deja ejecutar ningún script ni cargar nada de fuera.

Colorear el código tampoco puede costar lo que quiera la entrega: el analizador de IPython de Pygments (el
del cuaderno, `ipython3`) tarda el cuadrado de una línea como `a.a.a…` (16 000 pares, 13 s; los 256 kB de una
respuesta, unos 20 minutos), y un bloque de código en una salida Markdown elige cualquier analizador de
Pygments por su nombre. `colorear` y `markdown_acotado` colorean solo Python, con el analizador de Python, y
solo hasta limites.CODIGO_A_COLOREAR caracteres por bloque y COLOREADO_POR_PAGINA por página (cada elemento
coloreado es una etiqueta más que escribir y limpiar); lo demás sale como texto, sin colores.
`FILTROS` son los tres, para la retroalimentación (nbgrader_config.py) y la página del formgrader.
"""

import html

import nh3
from jinja2 import pass_context
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

from course import limites

# Lo que la retroalimentación no necesita se va: scripts, formularios, marcos, SVG en línea, estilos.
ETIQUETAS = nh3.ALLOWED_TAGS | {"span", "div", "pre", "code", "table", "thead", "tbody", "tr", "th", "td",
                                 "details", "summary", "img", "figure", "figcaption"}
ATRIBUTOS = {**nh3.ALLOWED_ATTRIBUTES, "*": {"class", "style", "title"}, "img": {"src", "alt", "width", "height"},
             "a": {"href", "title"},
             # El id de cada título: el resumen de la retroalimentación enlaza con la sección que hay que releer.
             **{"h%d" % n: {"id"} for n in range(1, 7)}}
ESTILOS = {"color", "background-color", "font-weight", "font-style", "font-family", "font-size",
           "text-align", "text-decoration", "white-space", "border", "border-collapse", "border-radius",
           "padding", "margin", "display", "width", "max-width", "vertical-align"}


def _atributo(etiqueta, atributo, valor):
    """Solo las imágenes pueden traer datos en línea (data:); un enlace no."""
    if atributo in ("href", "src") and valor.strip().lower().startswith("data:"):
        return valor if etiqueta == "img" and valor.strip().lower().startswith("data:image/") else None
    return valor


def limpiar_html(html):
    """`html` sin scripts, manejadores de eventos, URL javascript: ni nada que se ejecute."""
    html = html.decode() if isinstance(html, bytes) else str(html)
    return nh3.clean(html, tags=ETIQUETAS, attributes=ATRIBUTOS, attribute_filter=_atributo,
                     url_schemes={"http", "https", "mailto", "data"}, filter_style_properties=ESTILOS,
                     clean_content_tags={"script", "style"})


_PYTHON = {"python", "python3", "py", "py3", "ipython", "ipython3"}
_colorear_python = Highlight2HTML(pygments_lexer="python3")


def _cabe(contexto, codigo):
    """Si `codigo` se colorea: cabe en el tope de un bloque y en lo que queda del de la página (que descuenta)."""
    recursos = contexto.get("resources")
    gastado = recursos.get("curso_coloreado", 0) if isinstance(recursos, dict) else 0
    if len(codigo) > limites.CODIGO_A_COLOREAR or gastado + len(codigo) > limites.COLOREADO_POR_PAGINA:
        return False
    if isinstance(recursos, dict):
        recursos["curso_coloreado"] = gastado + len(codigo)
    return True


@pass_context
def colorear(contexto, codigo, language=None, metadata=None):
    """El filtro `highlight_code`: el código de una celda coloreado como Python, o sin colores si no cabe."""
    if not _cabe(contexto, codigo):
        return '<div class="highlight"><pre>%s</pre></div>' % html.escape(codigo, quote=False)
    return _colorear_python(codigo)


class _MarkdownAcotado(IPythonRenderer):
    """El Markdown de nbconvert, con cada bloque de código coloreado como en `colorear`."""

    def __init__(self, contexto, **opciones):
        super().__init__(**opciones)
        self.contexto = contexto

    def block_code(self, code, info=None):
        lenguaje = info.strip().split(None, 1)[0].lower() if info and info.strip() else ""
        if lenguaje in _PYTHON and _cabe(self.contexto, code):
            return super().block_code(code, "python3")
        return super().block_code(code, None)  # sin analizador: el texto, escapado


@pass_context
def markdown_acotado(contexto, fuente):
    """El filtro `markdown2html` (el de HTMLExporter, con sus valores de serie) con `_MarkdownAcotado`."""
    celda = contexto.get("cell", {})
    renderer = _MarkdownAcotado(contexto, escape=False, attachments=celda.get("attachments", {}),
                                path=contexto.get("resources", {}).get("metadata", {}).get("path", ""))
    return MarkdownWithMath(renderer=renderer).render(fuente)


FILTROS = {"clean_html": limpiar_html, "highlight_code": colorear, "markdown2html": markdown_acotado}
