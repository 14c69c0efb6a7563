"""Configuración de nbgrader para el curso. Las órdenes normales de nbgrader se lanzan desde esta carpeta.

Solo da valores: las piezas del curso van por su nombre, y nbgrader las importa en el proceso que las usa.
Lo que no tiene opción y cambia código de nbgrader está en course/ajustes.py, sujeto a su versión.
"""

import os
import sys

from nbgrader.converters import GenerateAssignment

RAIZ = os.path.dirname(os.path.abspath(__file__))
# El paquete `course` de esta carpeta, también con un Python que no lo tiene instalado (el del
# JupyterHub de `make hub`, que es el de los estudiantes) y desde cualquier carpeta (el formgrader).
if RAIZ not in sys.path:
    sys.path.insert(0, RAIZ)

from course import CURSO, ajustes, limites  # noqa: E402
from course.aislado import retroalimentacion  # noqa: E402

c = get_config()  # noqa: F821 (nbgrader la define al cargar este fichero)

c.CourseDirectory.course_id = CURSO
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

# Los topes de tiempo, todos en course/limites.py. Las celdas de esta lección tardan décimas de
# segundo: al corregir, el tope por celda acota un bucle sin fin del estudiante, que se interrumpe y
# sigue con la celda siguiente. Las notas no dependen de él: las decide el corrector de confianza,
# que tiene sus propios topes por llamada a `ejecutar` y por entrega. Validate, en el ordenador del
# estudiante, usa el Execute de nbgrader con un tope holgado.
c.Execute.timeout = limites.VALIDAR
c.EjecutarEnJaula.timeout = limites.CELDA
c.Execute.interrupt_on_timeout = True
c.EjecutarEnJaula.iopub_timeout = limites.INTERRUPCION
c.Execute.startup_timeout = limites.ARRANQUE_NUCLEO
# Sin guardar el estado de los widgets, la retroalimentación HTML muestra su copia estática.
c.Execute.store_widget_state = False

# Cada entrega se lee con cuidado y se rehace sobre el cuaderno de release (course/aislado/entrada.py):
# de ella solo cuenta el código de sus celdas de respuesta, y una entrega rara (celdas duplicadas,
# movidas o sin marcas, metadatos desconocidos, un JSON roto, un enlace, una carpeta con un nombre
# imposible) solo cambia su propia nota: las demás se corrigen igual. El lector, además, aparta las
# carpetas imposibles y lee solo el cuaderno y los sellos (course/ajustes.py, entregas_limpias).
c.Autograde.exporter_class = "course.aislado.entrada.LectorDeEntregas"
# Un guion grabado que no vale (course/guiones/, course/grabaciones.py) suspendería a todos en ejecutar-guiones:
# autograde (la orden y el botón del formgrader) se para antes de corregir a nadie y dice por qué, como
# `make grade`. nbgrader crea ese exportador, con sus preprocesadores, una vez y antes de las entregas.
c.LectorDeEntregas.preprocessors = ["course.grabaciones.ComprobarGuiones"]
c.Autograde.sanitize_preprocessors = [
    "course.aislado.entrada.SanearEntrega",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "course.ajustes.SobrescribirCeldas",  # OverwriteCells, callado ante el checksum de nuestras celdas (nbgrader#1961)
    "nbgrader.preprocessors.CheckCellMetadata",
]

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

# La retroalimentación, con los rótulos en español: course/plantillas/retroalimentacion. Solo
# para generate_feedback (también el del formgrader): la página de corregir a mano del
# formgrader usa su propia plantilla, y con esta no se abriría.
c.GenerateFeedback.HTMLExporter.template_name = "retroalimentacion"
c.GenerateFeedback.HTMLExporter.extra_template_basedirs = [os.path.join(os.path.dirname(limites.__file__), "plantillas")]

# Nada de una entrega se ejecuta en el navegador de quien abre la retroalimentación: sin salidas
# JavaScript ni vistas de widgets, y el HTML del markdown y de las salidas limpio (nh3), bajo una
# política de seguridad que no deja correr ningún script (course/aislado/retroalimentacion.py).
c.GenerateFeedback.HTMLExporter.sanitize_html = True
c.GenerateFeedback.HTMLExporter.filters = {  # y el código, coloreado con topes: course/aislado/retroalimentacion.py
    nombre: "course.aislado.retroalimentacion." + filtro.__name__ for nombre, filtro in retroalimentacion.FILTROS.items()}

# Entregar tarde resta un punto por día empezado de retraso (con una fecha de entrega en el
# gradebook: `nbgrader db assignment add errores-como-observaciones --duedate=...`).
c.AssignLatePenalties.plugin_class = "course.complementos.DescuentoPorRetraso"
c.DescuentoPorRetraso.puntos_por_dia = 1.0

# `nbgrader export` (y el CSV de `make grade`): con el módulo csv, sin fórmulas para la hoja de cálculo, y
# quién no se ha corregido y por qué (course/complementos.py).
c.ExportApp.plugin_class = "course.complementos.NotasSinFormulas"

# `nbgrader db student import`: el roster como lo guarde una hoja de cálculo (con el BOM de Excel, con «;»), o
# un motivo en español si no se puede leer (course/recoleccion.py). nbgrader no tiene opción para esto: es la
# única línea que no da un valor, y solo cambia esa orden (course/ajustes.py).
ajustes.leer_el_roster_con("course.recoleccion.leer_roster")

# El intercambio de nbgrader (el camino del hub, course/intercambio.py): `nbgrader collect` atribuye
# cada entrega por el dueño de su carpeta en el sistema y la fecha por su ctime (que nadie puede
# adelantar), sin seguir enlaces y apartando lo que no es del roster; publicar una tarea o la
# retroalimentación deja además los plazos de entrega para la pestaña «Tareas» de los estudiantes.
c.ExchangeFactory.collect = "course.intercambio.RecogidaDelIntercambio"
c.ExchangeFactory.release_assignment = "course.intercambio.PublicarTarea"
c.ExchangeFactory.release_feedback = "course.intercambio.PublicarRetroalimentacion"

# `nbgrader zip_collect`: las descargas de Moodle y de Canvas, cada entrega a quien la subió, por su
# número de participante (la columna lms_user_id del roster) y con la hora del LMS (course/recoleccion.py).
c.ZipCollectApp.extractor_plugin = "course.recoleccion.ExtraerDelLMS"
c.ZipCollectApp.collector_plugin = "course.recoleccion.RecolectorLMS"
