"""Configuración de nbgrader para el curso. Las órdenes normales de nbgrader se lanzan desde esta carpeta."""

import os

import course

c = get_config()  # noqa: F821 (nbgrader la define al cargar este fichero)

RAIZ = os.path.dirname(os.path.abspath(__file__))

c.CourseDirectory.course_id = "harness-de-agentes"
c.CourseDirectory.root = RAIZ

# Lo que ve el estudiante donde estaba la solución.
c.ClearSolutions.code_stub = {"python": "# TU CÓDIGO AQUÍ\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "TU RESPUESTA AQUÍ"

# Las celdas de esta lección tardan milésimas. El tope por celda acota un bucle sin fin del
# estudiante al ejecutar su cuaderno; las notas no dependen de él: cada llamada a `ejecutar`
# tiene su propio tope de segundos en el corrector.
c.Execute.timeout = 15
c.Execute.interrupt_on_timeout = True
c.Execute.startup_timeout = 120
# Sin guardar el estado de los widgets, la retroalimentación HTML muestra su copia estática.
c.Execute.store_widget_state = False

# La corrección que el código del estudiante no alcanza (course/aislado): su cuaderno corre en
# un núcleo enjaulado, y cada celda ejecutar-* y pregunta-* la decide, fuera de ese núcleo, el
# corrector de confianza, justo antes de que nbgrader guarde las notas.
c.Autograde.autograde_preprocessors = [
    "course.aislado.corrector.EjecutarEnJaula",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "course.aislado.corrector.VeredictosDeConfianza",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]

# La retroalimentación, con los rótulos en español: course/plantillas/retroalimentacion. Sólo
# para generate_feedback (también el del formgrader): la página de corregir a mano del
# formgrader usa su propia plantilla, y con esta no se abriría.
c.GenerateFeedback.HTMLExporter.template_name = "retroalimentacion"
c.GenerateFeedback.HTMLExporter.extra_template_basedirs = [os.path.join(os.path.dirname(course.__file__), "plantillas")]

# El aviso «Attribute 'checksum' … has changed!» de cada celda con pruebas ocultas
# (jupyter/nbgrader#1961) es lo esperado en nuestras celdas: se calla ahí (course/complementos.py).
c.Autograde.sanitize_preprocessors = [
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "course.complementos.SobrescribirCeldas",
    "nbgrader.preprocessors.CheckCellMetadata",
]

# Entregar tarde resta un punto por día empezado de retraso (con una fecha de entrega en el
# gradebook: `nbgrader db assignment add errores-como-observaciones --duedate=...`).
c.AssignLatePenalties.plugin_class = "course.complementos.DescuentoPorRetraso"
c.DescuentoPorRetraso.puntos_por_dia = 1.0

# `nbgrader zip_collect`: las descargas de Moodle y de Canvas (course/complementos.py).
c.ZipCollectApp.collector_plugin = "course.complementos.RecolectorLMS"
