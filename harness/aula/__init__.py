"""Los instrumentos del cuaderno. No hace falta leerlo para seguir la lección.

Los widgets (el visor de conversaciones, el explorador de idempotencia, un botón y las predicciones
de «Predice y ejecuta»), las comprobaciones de los ejercicios y de las pruebas visibles, un modelo
de verdad (Claude) con la interfaz del guionizado, y cómo se enseña todo en HTML. El cuestionario está en
`harness.aula.cuestionario`, que se importa aparte: al importarlo en un cuaderno, instala su pista
para las respuestas sin comillas.
"""

from .claude import ModeloClaude, conversar, guion_desde, que_falta
from .ejercicios import (Escapada, NoPasa, NoTermina, comprobar_clases, comprobar_contestacion, comprobar_criterio,
                         como_herramienta, en_prueba)
from .mostrar import codigo
from .prediccion import predice
from .widgets import al_pulsar, explorador, visor

__all__ = ["visor", "explorador", "al_pulsar", "predice", "codigo", "comprobar_contestacion", "comprobar_clases",
           "comprobar_criterio", "como_herramienta", "en_prueba", "NoPasa", "NoTermina", "Escapada", "ModeloClaude",
           "guion_desde", "conversar", "que_falta"]
