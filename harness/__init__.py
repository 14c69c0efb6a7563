"""harness: lo que un agente con herramientas necesita alrededor del modelo, en piezas pequeñas.

Todo lo de las lecciones anteriores está aquí. `ejecutar` no está: es el ejercicio. Para leerlo,
en este orden: bloques.py (los bloques de un mensaje), entorno.py (los ficheros, sus herramientas
y sus esquemas), guionizado.py (el modelo que sigue un guion), bucle.py (el bucle),
salmorejo.py (la conversación de la lección) e idempotencia.py (una vez y dos).

Las dos carpetas de dentro no hace falta leerlas: aula/ son los instrumentos del cuaderno
(visor, explorador, ejercicios, cuestionario, un modelo de verdad) y revision/ es la lista de
comprobación de `ejecutar`, la misma que usa el corrector.
"""

from .bloques import error, llamada, muestra, problemas, resultado, texto
from .bucle import bucle
from .entorno import ENTORNO, FUNCIONES, HERRAMIENTAS, buscar, escribir, incumple, leer, listar
from .guionizado import FueraDelGuion, ModeloGuionizado, guion_de
from .idempotencia import añadir, añadir_y_fallar, una_y_dos

# El modelo de verdad también se importa desde aquí (harness.ModeloClaude); vive en aula/, con lo que
# no hace falta leer, y no carga el SDK de anthropic hasta que se crea uno.
from .aula.claude import ModeloClaude, guion_desde  # noqa: E402

__all__ = [
    "texto", "llamada", "resultado", "error", "muestra", "problemas",
    "ENTORNO", "HERRAMIENTAS", "FUNCIONES", "leer", "listar", "buscar", "escribir", "incumple",
    "ModeloGuionizado", "FueraDelGuion", "guion_de", "bucle", "añadir", "añadir_y_fallar", "una_y_dos",
    "ModeloClaude", "guion_desde",
]
