"""Complementos de nbgrader para este curso, enchufados en `nbgrader_config.py`.

- `DescuentoPorRetraso`: el descuento por entregar tarde, en puntos por día empezado.
- `NotasSinFormulas`: `nbgrader export`, que escribe el CSV de notas como `make grade`
  (course/exportar.py), de la clase leída una vez (course/estado.py).
"""

from nbgrader.coursedir import CourseDirectory
from nbgrader.plugins import ExportPlugin, LateSubmissionPlugin
from traitlets import Float

from .formato import zona_horaria
from .estado import dias_de_retraso, descuentos_al_dia, leer, nota_con_descuento  # noqa: F401 (nota_con_descuento, también aquí: vivía en este módulo)
from .exportar import FORMULA, escribir_csv, escribir_xlsx, hojas_de_notas, sin_formula  # noqa: F401 (FORMULA y sin_formula vivían aquí)


class DescuentoPorRetraso(LateSubmissionPlugin):
    """Resta `puntos_por_dia` por cada día (o parte) de retraso, sin bajar de cero."""

    puntos_por_dia = Float(1.0, help="Puntos que se restan por cada día empezado de retraso.").tag(config=True)

    def late_submission_penalty(self, student_id, score, total_seconds_late):
        dias = dias_de_retraso(total_seconds_late)
        descuento = min(score, dias * self.puntos_por_dia)
        self.log.info("%s entrega con %d día(s) de retraso: se restan %g puntos.", student_id, dias, descuento)
        return descuento


class NotasSinFormulas(ExportPlugin):
    """`nbgrader export`: exports/notas.csv (course/exportar.py), de la clase de cada tarea del gradebook.

    Las columnas de nbgrader y dos más: `estado` (corregido, no corregido o sin entrega) y `motivo`.
    Sin `--to`, en el mismo sitio que el de `make grade` (nbgrader lo dejaría en grades.csv, en la raíz), y
    con exports/notas.xlsx al lado, la misma hoja para una hoja de cálculo.
    """

    def export(self, gradebook):
        raiz = CourseDirectory(config=self.config).root
        csv_, xlsx = hojas_de_notas(raiz)
        destino = self.to or str(csv_)
        self.log.info("Notas en %s", destino)
        tareas = [t.name for t in gradebook.assignments if not self.assignment or t.name in self.assignment]
        for tarea in tareas:  # con una nota puesta a mano, el descuento por retraso que toca con ella
            descuentos_al_dia(CourseDirectory(config=self.config).db_url, tarea, self.config)
        gradebook.db.expire_all()
        clases = [leer(raiz, tarea, gradebook, detalles=False) for tarea in tareas]
        escribir_csv(destino, clases, self.student)
        if not self.to:  # y la misma hoja, para abrirla con doble clic en una hoja de cálculo en español
            escribir_xlsx(xlsx, clases, zona_horaria(self.config), self.student)
