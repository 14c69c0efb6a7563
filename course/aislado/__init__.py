"""La corrección que el código del estudiante no puede tocar.

nbgrader ejecuta el cuaderno del estudiante en un núcleo metido en una jaula (bubblewrap: sin
red, sin ver el curso ni a los demás, con límites de CPU y memoria). Después, fuera de ese
núcleo, el corrector de confianza decide cada celda `ejecutar-*` y `pregunta-*`: habla con el
código del estudiante, encerrado en otra jaula, solo con datos (llamadas y entornos de ida,
observaciones de vuelta), y escribe el veredicto como salida de la celda.
"""
