"""Configuración de nbgrader para el curso. Las órdenes normales de nbgrader se lanzan desde esta carpeta."""

import os

from nbgrader.converters import GenerateAssignment

import course

c = get_config()  # noqa: F821 (nbgrader la define al cargar este fichero)

RAIZ = os.path.dirname(os.path.abspath(__file__))

c.CourseDirectory.course_id = "harness-de-agentes"
c.CourseDirectory.root = RAIZ

# El cuestionario, en uno de dos modos (después de cambiarlo: `make release`):
# - "formativo" (el de siempre): cada pregunta es un widget que se comprueba al momento; 0 puntos.
# - "calificado": el estudiante escribe cada respuesta en su celda y el corrector la puntúa al entregar.
c.Cuestionario.modo = "formativo"
# El preprocesador que lo aplica va el primero, antes de que nbgrader guarde las celdas en el gradebook.
c.GenerateAssignment.preprocessors = ["course.cuestionario.Cuestionario",
                                      *GenerateAssignment.class_traits()["preprocessors"].make_dynamic_default()]

# Lo que ve el estudiante donde estaba la solución.
c.ClearSolutions.code_stub = {"python": "# TU CÓDIGO AQUÍ\n"
                                        "raise NotImplementedError(\"falta tu respuesta: escríbela en lugar de esta línea\")"}
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

# La retroalimentación, con los rótulos en español: course/plantillas/retroalimentacion.
c.HTMLExporter.template_name = "retroalimentacion"
c.HTMLExporter.extra_template_basedirs = [os.path.join(os.path.dirname(course.__file__), "plantillas")]
