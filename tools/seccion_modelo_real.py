"""Pone en el cuaderno fuente la sección optativa «Tu ejecutar con un modelo de verdad» (idempotente).

Sus celdas llevan la marca `"seccion": "modelo-de-verdad"` en los metadatos: se quitan las que haya
y se ponen las de aquí justo antes de la celda «Lo que viene» (o al final, si no está). Ninguna es
de nbgrader y ninguna llama a la API al ejecutarse: la conversación empieza al pulsar un botón.
Uso: .venv/bin/python tools/seccion_modelo_real.py && make release
"""
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell

from course import CUADERNO, RAIZ, TAREA

RUTA = RAIZ / "source" / TAREA / CUADERNO
MARCA = "modelo-de-verdad"

PRESENTACION = """\
## Optativo: tu `ejecutar` con un modelo de verdad

Hasta aquí el modelo ha sido un guion: sabía de antemano qué iba a pedir y qué tenía que recibir. En esta sección, el mismo `bucle` y tu `ejecutar` trabajan con Claude, un modelo de verdad, a través de la API de Mensajes de Anthropic y su SDK oficial para Python (el paquete `anthropic`). `ModeloClaude` tiene la forma de `ModeloGuionizado`: recibe la conversación y las herramientas, y devuelve los bloques de su turno. Lo único distinto es quién contesta. Eso sí, nadie le ha contado que `recetas/salmorejo.txt` no existe: lo que haga cuando le llegue el error lo decide él, y no tiene por qué coincidir con el guion.

Esta sección no cuenta para la nota y no se ejecuta sola: ni con «Ejecutar todas las celdas», ni al pulsar «Validar», ni al corregir. La conversación empieza cuando pulsas el botón.

- **Lo que hace falta.** Una clave de la API de Anthropic en la variable de entorno `ANTHROPIC_API_KEY` (o un token en `ANTHROPIC_AUTH_TOKEN`), definida en la terminal desde la que abres JupyterLab. Si JupyterLab ya estaba abierto, ciérralo y vuelve a abrirlo desde esa terminal: reiniciar el núcleo no basta, porque el núcleo hereda las variables de JupyterLab. Las claves se crean en la consola de Anthropic, <https://console.anthropic.com>, en «API Keys». La versión del navegador, la que no necesita instalar nada, no puede usarla.
- **Lo que cuesta.** Se paga por tokens: los de entrada (en cada turno se envían otra vez las herramientas y toda la conversación) y los de salida (lo que escribe el modelo). La conversación del salmorejo son unos cuatro turnos y unos pocos miles de tokens; con el modelo que usa esta sección, menos de un céntimo. El gasto tiene dos topes, `max_tokens` por turno y un número máximo de turnos por conversación, y al acabar cada conversación verás cuántos tokens se han gastado, en total y turno a turno, según los cuenta la propia API en cada turno que devuelve (`usage`).

> **Predice.** Antes de pulsar: ¿pedirá el modelo la receta con un campo que no existe, como el del guion? Cuando le llegue `no existe el fichero 'recetas/salmorejo.txt'`, ¿qué hará: buscar otra receta, preguntarte o rendirse?"""

PREPARACION = """\
# Solo prepara el botón: la conversación empieza al pulsarlo. conversar(encargo, ejecutar), en
# harness/aula/claude.py, pasa el encargo por el bucle con tu ejecutar y enseña la conversación en el visor.
from IPython.display import display

from harness.aula import al_pulsar, conversar, que_falta
from harness.salmorejo import INICIO

falta = que_falta()
if falta:
    print("Con una clave, aquí habría un botón para hablar con un modelo de verdad. Ahora no se hace "
          "nada, y el resto de la lección no lo necesita.\\n" + falta)
else:
    salmorejo_de_verdad = al_pulsar("Hablar con el modelo: el encargo del salmorejo",
                                    lambda: conversar(INICIO[1][1], ejecutar))
    display(salmorejo_de_verdad)"""

TU_PETICION = """\
Compara la conversación con la del guion. Puede que el modelo no se equivoque nunca, o que se equivoque de otra manera; lo interesante es qué hace después de cada error: ¿corrige la llamada, pide otra cosa o se rinde y lo explica? Mira también la última línea, los tokens de entrada de cada turno: como cada turno vuelve a enviar la conversación entera, crecen de uno a otro.

### Un encargo tuyo

Escribe en la caja lo que quieras pedir sobre los ficheros del entorno y pulsa el botón. Cada encargo empieza con una copia nueva de `ENTORNO`, así que lo que escriba el modelo no se queda en ninguna parte. Para ver errores, pide algo que no esté: una receta que no existe, una carpeta mal escrita, una búsqueda que no encuentra nada."""

PETICION = """\
if falta:
    print("Tampoco aquí: hace falta lo mismo que en la celda de arriba.")
else:
    tu_encargo = al_pulsar("Enviar mi encargo", lambda encargo: conversar(encargo, ejecutar),
                           encargo="Copia en notas/cena.txt los ingredientes de la paella.")
    display(tu_encargo)"""


def celdas():
    """Las celdas de la sección, con su marca y con ids fijos."""
    hechas = [new_markdown_cell(PRESENTACION), new_code_cell(PREPARACION), new_markdown_cell(TU_PETICION),
              new_code_cell(PETICION)]
    for i, celda in enumerate(hechas, start=1):
        celda.id = "%s-%d" % (MARCA, i)
        celda.metadata["seccion"] = MARCA
    return hechas


def poner(nb):
    """Quita de `nb` las celdas de la sección que tenga y pone las de ahora antes de «Lo que viene»."""
    nb.cells = [c for c in nb.cells if c.metadata.get("seccion") != MARCA]
    donde = next((i for i, c in enumerate(nb.cells)
                  if c.cell_type == "markdown" and c.source.lstrip("# ").startswith("Lo que viene")), len(nb.cells))
    nb.cells[donde:donde] = celdas()
    return nb


if __name__ == "__main__":
    nbformat.write(poner(nbformat.read(RUTA, as_version=4)), RUTA)
