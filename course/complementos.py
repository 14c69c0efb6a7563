"""Complementos de nbgrader para este curso, enchufados en `nbgrader_config.py`.

- `SobrescribirCeldas`: el OverwriteCells de nbgrader, sin el aviso de «checksum» en nuestras
  celdas de pruebas ocultas, donde el cambio es lo esperado.
- `DescuentoPorRetraso`: el descuento por entregar tarde, en puntos por día empezado.
- `NotasSinFormulas`: el CSV de notas de `nbgrader export` y de `make grade`, que una hoja de
  cálculo puede abrir sin riesgo.
"""

import csv
import math
import os

from nbgrader.api import MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.plugins import ExportPlugin, LateSubmissionPlugin
from nbgrader.preprocessors import OverwriteCells
from traitlets import Float


class SobrescribirCeldas(OverwriteCells):
    """OverwriteCells, callado ante el «checksum» cambiado de las celdas `ejecutar-*` y `pregunta-*`.

    Es el aviso de jupyter/nbgrader#1961: la suma de control que guarda el gradebook es la de la
    celda de source/, con sus pruebas ocultas; la del estudiante se calculó sin ellas en release/.
    Así que en cada celda con pruebas ocultas la suma «ha cambiado» siempre, nbgrader avisa y
    pone la celda de source/, que es lo que debe hacer. Además, esas celdas las decide el
    corrector de confianza (course/aislado), no lo que el estudiante deje escrito en ellas.
    Cualquier otro cambio (tipo de celda, bloqueo, puntos, otras celdas) se sigue avisando.
    """

    def report_change(self, name, attr, old, new):
        if attr == "checksum" and name.startswith(("ejecutar-", "pregunta-")):
            self.log.debug("La celda %s trae las pruebas ocultas de source/ (suma de control esperada).", name)
            return
        super().report_change(name, attr, old, new)


def nota_con_descuento(entrega):
    """La nota que cuenta de una entrega del gradebook: sus puntos menos el descuento por retraso, sin bajar de
    cero, como la columna `score` del CSV de nbgrader. La terminal de `make grade`, el informe y el CSV dan esta."""
    return max(0.0, entrega.score - (entrega.late_submission_penalty or 0.0))


class DescuentoPorRetraso(LateSubmissionPlugin):
    """Resta `puntos_por_dia` por cada día (o parte) de retraso, sin bajar de cero."""

    puntos_por_dia = Float(1.0, help="Puntos que se restan por cada día empezado de retraso.").tag(config=True)

    def late_submission_penalty(self, student_id, score, total_seconds_late):
        dias = math.ceil(total_seconds_late / 86400)
        descuento = min(score, dias * self.puntos_por_dia)
        self.log.info("%s entrega con %d día(s) de retraso: se restan %g puntos.", student_id, dias, descuento)
        return descuento


# Lo que una hoja de cálculo lee como el principio de una fórmula (OWASP, «CSV Injection»), con las
# versiones de ancho completo y el salto de línea, que algunas también aceptan.
FORMULA = tuple("=+-@\t\r\n＝＋－＠")


def sin_formula(texto):
    """Un texto para una celda de CSV: si una hoja de cálculo lo leería como fórmula, con un apóstrofo delante."""
    texto = "" if texto is None else str(texto)
    return "'" + texto if texto.lstrip(" ").startswith(FORMULA) else texto


class NotasSinFormulas(ExportPlugin):
    """El CSV de notas, escrito con el módulo csv: cada campo entre comillas y ninguno con una fórmula.

    Las columnas de nbgrader y dos más: `estado` (corregido, no corregido o sin entrega) y `motivo`.
    Quien no se ha corregido no tiene nota (las columnas de puntos, vacías), no un cero. Las carpetas
    de submitted/ que no son de ningún estudiante (se han apartado por su nombre) también salen, con
    su motivo, para que no se pierda ninguna.
    """

    COLUMNAS = ["assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email",
                "raw_score", "late_submission_penalty", "score", "max_score", "estado", "motivo"]

    def export(self, gradebook):
        from .clase import CORREGIDO, SIN_CORREGIR, entregas, estado

        raiz = CourseDirectory(config=self.config).root
        # Sin --to, en el mismo sitio que las de `make grade` (nbgrader las dejaría en grades.csv, en la raíz).
        destino = self.to or os.path.join(raiz, "exports", "notas.csv")
        os.makedirs(os.path.dirname(os.path.abspath(destino)), exist_ok=True)
        self.log.info("Notas en %s", destino)
        with open(destino, "w", newline="", encoding="utf-8") as f:
            escritor = csv.writer(f, quoting=csv.QUOTE_ALL)
            escritor.writerow(self.COLUMNAS)
            for tarea in gradebook.assignments:
                if self.assignment and tarea.name not in self.assignment:
                    continue
                for alumno in gradebook.students:
                    if self.student and alumno.id not in self.student:
                        continue
                    try:
                        entrega = gradebook.find_submission(tarea.name, alumno.id)
                    except MissingEntry:
                        entrega = None
                    situacion, motivo = estado(raiz, tarea.name, alumno.id, entrega is not None)
                    # Como las de nbgrader: raw_score es la nota sin descontar; score, con el descuento.
                    puntos = ([entrega.score, entrega.late_submission_penalty, nota_con_descuento(entrega)]
                              if entrega is not None and situacion == CORREGIDO else ["", "", ""])
                    escritor.writerow([sin_formula(tarea.name), tarea.duedate or "",
                                       entrega.timestamp if entrega is not None and entrega.timestamp else "",
                                       sin_formula(alumno.id), sin_formula(alumno.last_name),
                                       sin_formula(alumno.first_name), sin_formula(alumno.email),
                                       *puntos, tarea.max_score, situacion, sin_formula(motivo)])
                for e in entregas(raiz, tarea.name):
                    if e.apartada:
                        escritor.writerow([sin_formula(tarea.name), tarea.duedate or "", "", sin_formula(e.estudiante),
                                           "", "", "", "", "", "", tarea.max_score, SIN_CORREGIR,
                                           sin_formula("carpeta apartada: " + e.apartada)])
