"""Complementos de nbgrader para este curso, enchufados en `nbgrader_config.py`.

- `SobrescribirCeldas`: el OverwriteCells de nbgrader, sin el aviso de «checksum» en nuestras
  celdas de pruebas ocultas, donde el cambio es lo esperado.
- `DescuentoPorRetraso`: el descuento por entregar tarde, en puntos por día empezado.
- `RecolectorLMS`: el recolector de `nbgrader zip_collect` para las descargas de Moodle y Canvas.
"""

import datetime
import math
import os
import re
import unicodedata
import zipfile
from zoneinfo import ZoneInfo

from nbgrader.api import Gradebook
from nbgrader.plugins import FileNameCollectorPlugin, LateSubmissionPlugin
from nbgrader.preprocessors import OverwriteCells
from traitlets import Float, Unicode


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


class DescuentoPorRetraso(LateSubmissionPlugin):
    """Resta `puntos_por_dia` por cada día (o parte) de retraso, sin bajar de cero."""

    puntos_por_dia = Float(1.0, help="Puntos que se restan por cada día empezado de retraso.").tag(config=True)

    def late_submission_penalty(self, student_id, score, total_seconds_late):
        dias = math.ceil(total_seconds_late / 86400)
        descuento = min(score, dias * self.puntos_por_dia)
        self.log.info("%s entrega con %d día(s) de retraso: se restan %g puntos.", student_id, dias, descuento)
        return descuento


def normalizar(texto):
    """Minúsculas, sin acentos ni nada que no sea letra o número: para casar nombres."""
    sin_acentos = unicodedata.normalize("NFKD", texto).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", sin_acentos.lower())


# Moodle, «Descargar todas las entregas»: una carpeta (o un prefijo) por entrega,
#   «Nombre Apellidos_123456_assignsubmission_file_/cuaderno.ipynb»
MOODLE = re.compile(r"^(?P<nombre>[^/_]+)_(?P<lms_id>\d+)_assignsubmission_file_/?(?P<fichero>[^/]+)$")
# Canvas, «Download Submissions»: un fichero por entrega, sin carpetas,
#   «apellidosnombre_LATE_12345_67890_cuaderno-1.ipynb» (LATE y el «-1» de reentrega, opcionales)
CANVAS = re.compile(r"^(?P<nombre>[a-z0-9-]+?)(?:_late)?_(?P<lms_id>\d+)_\d+_(?P<fichero>.+?)(?:-\d+)?(?P<ext>\.[^.]+)$")


class RecolectorLMS(FileNameCollectorPlugin):
    """Recolector de `nbgrader zip_collect` para las descargas de Moodle y de Canvas.

    Reconoce las dos formas de nombre (ver MOODLE y CANVAS) y devuelve el estudiante del
    gradebook que tiene ese nombre (el roster importado con `nbgrader db student import`): en
    Moodle, «Nombre Apellidos»; en Canvas, «apellidosnombre»; sin acentos ni mayúsculas. Si nadie
    del roster encaja, el identificador es el nombre normalizado y nbgrader lo da de alta.
    La hora de entrega es la del fichero dentro del .zip del LMS (la de su subida), leída en la
    zona horaria `zona_horaria`.
    """

    zona_horaria = Unicode("Europe/Madrid", help="Zona horaria de las horas que guarda el .zip del LMS.").tag(config=True)
    gradebook = Unicode("", help="URL del gradebook con el roster (por defecto, el del curso).").tag(config=True)

    def collect(self, submitted_file):
        partes = submitted_file.replace(os.sep, "/").split("/")
        # Dentro de extracted/, nbgrader deja cada .zip en una carpeta con su nombre.
        relativa = "/".join(partes[partes.index("extracted") + 1:]) if "extracted" in partes else partes[-1]
        sin_zip = relativa.split("/", 1)[1] if "/" in relativa else relativa
        hallado = MOODLE.match(sin_zip) or CANVAS.match(partes[-1].lower())
        if not hallado:
            self.log.warning("No parece una entrega de Moodle ni de Canvas: %s", submitted_file)
            return None
        fichero = hallado.group("fichero") + (hallado.groupdict().get("ext") or "")
        datos = {"student_id": self._estudiante(hallado.group("nombre")), "file_id": fichero}
        hora = self._hora(submitted_file, relativa)
        if hora:
            datos["timestamp"] = hora
        return datos

    def _estudiante(self, nombre):
        buscado = normalizar(nombre)
        for estudiante in self._roster():
            nombre_apellidos = normalizar((estudiante.first_name or "") + (estudiante.last_name or ""))
            apellidos_nombre = normalizar((estudiante.last_name or "") + (estudiante.first_name or ""))
            if buscado in (nombre_apellidos, apellidos_nombre, normalizar(estudiante.id)):
                return estudiante.id
        self.log.warning("«%s» no está en el roster: se usa «%s» como identificador.", nombre, buscado)
        return buscado

    def _roster(self):
        if not hasattr(self, "_estudiantes"):
            curso = getattr(self.parent, "coursedir", None)
            url = self.gradebook or (curso.db_url if curso else "sqlite:///" + os.path.abspath("gradebook.db"))
            with Gradebook(url) as gb:
                self._estudiantes = [type("E", (), {"id": s.id, "first_name": s.first_name, "last_name": s.last_name})
                                     for s in gb.students]
        return self._estudiantes

    def _hora(self, submitted_file, relativa):
        """La hora del miembro del .zip original, si se encuentra; si no, None."""
        if "/" not in relativa:
            return None
        nombre_zip, miembro = relativa.split("/", 1)
        extraidos = submitted_file[: -len(relativa)].rstrip("/" + os.sep)
        archivo = os.path.join(os.path.dirname(extraidos), "archive", nombre_zip + ".zip")
        if not os.path.exists(archivo):
            return None
        with zipfile.ZipFile(archivo) as z:
            try:
                info = z.getinfo(miembro)
            except KeyError:
                return None
        local = datetime.datetime(*info.date_time, tzinfo=ZoneInfo(self.zona_horaria))
        return local.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
