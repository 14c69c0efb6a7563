"""Los filtros de la retroalimentación (course/aislado/retroalimentacion.py), sin nbgrader: el código se colorea
con topes. La retroalimentación de una clase de verdad, con una entrega que lo intenta, está en test_nucleo.py."""

from hypothesis import given, settings, strategies as st
from pygments.lexers import get_all_lexers

from course import limites
from course.aislado.retroalimentacion import colorear, markdown_acotado

LENGUAJES = sorted({alias for _, aliases, _, _ in get_all_lexers() for alias in aliases})
PYTHON = {"python", "python3", "py", "py3", "ipython", "ipython3"}


def _pagina():
    """El contexto de Jinja de una página: lo único que miran los filtros son sus `resources`."""
    return {"resources": {"metadata": {"path": "."}}, "cell": {}}


def _coloreado(html):
    """Si Pygments ha pasado por el código: cada elemento va en su <span class="…">; sin colores, ninguno."""
    return '<span class="' in html


def test_el_codigo_de_una_celda_se_colorea_como_python():
    html = colorear(_pagina(), "def ejecutar(llamada, entorno):\n    return None  # %magia\n")
    assert _coloreado(html) and '<span class="k">def</span>' in html


def test_una_linea_que_el_analizador_de_ipython_tarda_el_cuadrado_en_colorear_sale_sin_colores():
    # «a.a.a…»: con el analizador de IPython, 16 000 pares tardaban 13 s y los 256 kB de una respuesta, minutos.
    linea = "def _nunca():\n    return " + "a." * 60_000 + "a\n"
    html = colorear(_pagina(), linea)
    assert not _coloreado(html) and "a." * 60_000 in html


@settings(max_examples=150, deadline=None)
@given(lenguaje=st.sampled_from(LENGUAJES).map(lambda l: l.upper() if len(l) % 2 else l),
       codigo=st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="`"), max_size=300),
       largo=st.sampled_from([0, limites.CODIGO_A_COLOREAR]))
def test_en_el_markdown_de_una_salida_solo_se_colorea_python_y_con_tope(lenguaje, codigo, largo):
    """Un bloque de código de una salida Markdown elegía cualquier analizador de Pygments por su nombre."""
    codigo = "x" + codigo + "x" * largo  # algo que colorear: un bloque vacío no tiene ningún elemento
    html = markdown_acotado(_pagina(), "```%s\n%s\n```\n" % (lenguaje, codigo))
    se_colorea = lenguaje.lower() in PYTHON and len(codigo) + 1 <= limites.CODIGO_A_COLOREAR
    assert _coloreado(html) == se_colorea, (lenguaje, len(codigo), html[:300])


def test_una_pagina_colorea_como_mucho_su_tope():
    pagina, bloque = _pagina(), "x" * (limites.CODIGO_A_COLOREAR - 1) + "\n"
    assert limites.COLOREADO_POR_PAGINA % len(bloque) == 0  # los bloques llenan la página justo
    coloreados = sum(_coloreado(markdown_acotado(pagina, "```python\n%s```\n" % bloque)) for _ in range(40))
    assert coloreados == limites.COLOREADO_POR_PAGINA // len(bloque)
    assert not _coloreado(colorear(pagina, "x = 1\n"))  # el tope es de la página: también para las celdas
    assert _coloreado(colorear(_pagina(), "x = 1\n"))
