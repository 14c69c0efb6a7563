"""Muestra un display en mil sitios y luego lo actualiza con un texto enorme, para que el cuaderno corregido pese gigas.

Cada update_display cambia el contenido en todos los sitios donde se ve ese display: sin contarlo
así, un tope por salida no lo para.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""

from IPython.display import HTML, display, update_display


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")


for _vez in range(1000):
    display(HTML("<b>cargando</b>"), display_id="inundacion")
for _vez in range(20):
    update_display(HTML("<p>%s</p>" % ("x" * 1_000_000)), display_id="inundacion")
display(HTML("y" * 20_000_000))  # un solo mensaje enorme, más grande que el tope de un mensaje del núcleo
