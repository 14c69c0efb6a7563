"""Todos los topes que impone la corrección, en un solo sitio. Cámbialos aquí y solo aquí.

Los de esta lección: sus celdas tardan décimas de segundo y cada llamada a `ejecutar`,
milésimas. Un bucle sin fin cuesta a la clase unos pocos segundos, no minutos; una entrega
entera, con lo que sea que tenga dentro, está acotada por la suma de los topes de reloj.
nbgrader_config.py, course/aislado y course/calificacion.py los leen de aquí.
"""

# Tiempo de reloj, en segundos.
CELDA = 1                   # una celda del cuaderno en el núcleo enjaulado; pasado, se interrumpe (entero: nbgrader)
INTERRUPCION = 2            # lo que se espera a que una celda interrumpida se pare antes de dar el núcleo por perdido
VALIDAR = 15                # una celda al pulsar Validate (nbgrader validate, sin jaula): no es la corrección
CUADERNO = 10               # todas las celdas de un cuaderno juntas en el núcleo; agotado, las demás no se ejecutan
ARRANQUE_NUCLEO = 120       # lo que puede tardar en arrancar el núcleo enjaulado (es la máquina, no el estudiante)
ARRANQUE_JAULA = 30         # lo que puede tardar en arrancar el proceso del corrector en su jaula (ídem)
CARGA = 2                   # cargar la celda de respuesta `ejecutar` en la jaula del corrector
LLAMADA = 1                 # una llamada a `ejecutar` (o leer una respuesta del cuestionario) en esa jaula
LLAMADA_AGOTADA = 0.5       # una llamada a `ejecutar` de una respuesta que ya se ha quedado sin tiempo una vez
COMPROBACIONES = 10         # todas las comprobaciones de una entrega juntas; agotado, las que faltan suspenden
ALARMA = LLAMADA + 1        # respaldo en calificacion.py: la alarma del proceso de confianza por si la jaula no corta

# Tiempo de CPU, en segundos.
CPU = 120                   # para todo lo que corra en una jaula, sumado
