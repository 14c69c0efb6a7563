"""Configuración de nbgrader para el curso. Las órdenes normales de nbgrader se lanzan desde esta carpeta."""

import os

c = get_config()  # noqa: F821 (nbgrader la define al cargar este fichero)

RAIZ = os.path.dirname(os.path.abspath(__file__))

c.CourseDirectory.course_id = "harness-de-agentes"
c.CourseDirectory.root = RAIZ

# Lo que ve el estudiante donde estaba la solución.
c.ClearSolutions.code_stub = {"python": "# TU CÓDIGO AQUÍ\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "TU RESPUESTA AQUÍ"

# Cada prueba acota con su propio reloj cada llamada a `ejecutar` (unos segundos);
# este tope es la red de seguridad por celda, para un núcleo que no contesta.
c.Execute.timeout = 60
c.Execute.interrupt_on_timeout = True
c.Execute.startup_timeout = 120
