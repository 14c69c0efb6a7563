"""harness: lo que un agente con herramientas necesita alrededor del modelo, en piezas pequeñas.

Todo lo de las lecciones anteriores está aquí. `ejecutar` no está: es el ejercicio.
"""

from .bloques import error, llamada, muestra, resultado, texto
from .bucle import bucle
from .claude import ModeloClaude, guion_desde
from .entorno import ENTORNO, FUNCIONES, HERRAMIENTAS, buscar, escribir, incumple, leer, listar
from .guionizado import FueraDelGuion, ModeloGuionizado, guion_de
from .idempotencia import añadir, añadir_y_fallar, una_y_dos
from .mostrar import codigo

__all__ = [
    "texto", "llamada", "resultado", "error", "muestra",
    "ENTORNO", "HERRAMIENTAS", "FUNCIONES", "leer", "listar", "buscar", "escribir", "incumple",
    "ModeloGuionizado", "FueraDelGuion", "guion_de", "bucle", "añadir", "añadir_y_fallar", "una_y_dos", "codigo",
    "ModeloClaude", "guion_desde",
]
