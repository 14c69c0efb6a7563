"""La lista de comprobación de `ejecutar`, la misma en el cuaderno y al corregir. No hace falta leerlo
para seguir la lección.

- casos.py: los casos de las pruebas, hechos con una semilla a partir de los esquemas de las herramientas;
- clausulas.py: cada cláusula del contrato, una función que prueba `ejecutar` con unos casos;
- diagnosticos.py: las equivocaciones que se reconocen, y qué enseña la lección en su lugar;
- vigilancia.py: lo que `ejecutar` le hace al entorno de la prueba, con tope de tiempo;
- reglas.py: `repasar` las pasa todas y `reglas` decide qué puntúa;
- cuaderno.py: `revisar(ejecutar)`, una línea ✔ o ✘ por cláusula con unos casos de muestra.
"""

from .clausulas import CLAUSULAS, CONVERSACIONES, PRUEBAS, REGLA, conversaciones, cuenta_el_fallo
from .casos import generar
from .cuaderno import MUESTRA, SALMOREJO, revisar
from .diagnosticos import DIAGNOSTICOS, EQUIVOCACION, NoCumple
from .reglas import DE_LOS_FALLOS, Veredicto, reglas, repasar
from .vigilancia import SEGUNDOS, Espia, probar

__all__ = ["revisar", "repasar", "reglas", "Veredicto", "CLAUSULAS", "CONVERSACIONES", "PRUEBAS", "DE_LOS_FALLOS",
           "REGLA", "MUESTRA", "SALMOREJO", "conversaciones", "DIAGNOSTICOS", "EQUIVOCACION", "NoCumple", "SEGUNDOS",
           "probar", "Espia", "generar", "cuenta_el_fallo"]
