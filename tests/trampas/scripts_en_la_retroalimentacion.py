"""Deja en sus salidas scripts para el navegador de quien abra la retroalimentación: HTML, JavaScript, SVG, markdown con enlaces javascript:.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""

from IPython.display import HTML, SVG, Javascript, Markdown, display


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")


display(HTML('<script>document.title = "TRAMPA-1"</script><img src="x" onerror="document.title = \'TRAMPA-2\'">'
             '<a href="javascript:document.title = \'TRAMPA-3\'">pulsa</a><iframe src="javascript:1"></iframe>'))
display(Javascript('document.title = "TRAMPA-4"'))
display(SVG('<svg xmlns="http://www.w3.org/2000/svg" onload="document.title = \'TRAMPA-5\'">'
            '<script>document.title = "TRAMPA-6"</script></svg>'))
display(Markdown('[pulsa](javascript:document.title="TRAMPA-7") <script>document.title = "TRAMPA-8"</script>'))
print('<script>document.title = "TRAMPA-9"</script>')
