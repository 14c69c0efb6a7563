"""Los instrumentos del cuaderno. No hace falta leerlo para seguir la lección.

Los widgets (el visor de conversaciones, el explorador de idempotencia y un botón), las
comprobaciones de los ejercicios y de las pruebas visibles, un modelo de verdad (Claude) con la
interfaz del guionizado, y cómo se enseña todo en HTML. El cuestionario está en
`harness.aula.cuestionario`, que se importa aparte: al importarlo en un cuaderno, instala su pista
para las respuestas sin comillas.
"""

from .claude import ModeloClaude, conversar, guion_desde, que_falta
from .ejercicios import Escapada, NoPasa, comprobar_contestacion, comprobar_regla, en_prueba
from .mostrar import codigo
from .widgets import al_pulsar, explorador, visor

__all__ = ["visor", "explorador", "al_pulsar", "codigo", "comprobar_contestacion", "comprobar_regla", "en_prueba",
           "NoPasa", "Escapada", "ModeloClaude", "guion_desde", "conversar", "que_falta"]
