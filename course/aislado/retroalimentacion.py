"""El HTML de la retroalimentación, sin nada que se ejecute: lo que viene de una entrega pasa por nh3.

`nbgrader generate_feedback` pinta el cuaderno corregido con la plantilla del curso
(course/plantillas/retroalimentacion). Con `HTMLExporter.sanitize_html` (nbgrader_config.py) las
salidas JavaScript y las vistas de widgets no se pintan, y el HTML de las salidas y del markdown
pasa por el filtro `clean_html`, que aquí es `limpiar_html`. Además, la página lleva una política de
seguridad (CSP) que no deja ejecutar ningún script ni cargar nada de fuera.
"""

import nh3

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
