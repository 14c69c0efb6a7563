"""Los plazos de entrega, del gradebook del profesor a la pestaña «Tareas» de cada estudiante.

El gradebook es del profesor (en su casa, privada): el servidor de un estudiante no puede leer la
fecha de entrega de una tarea. Las órdenes del profesor que publican en el intercambio
(`release_assignment`, `collect`, `release_feedback`, con las clases de course/intercambio.py) dejan
en la carpeta del curso del intercambio, que es suya, un `plazos.json` con la fecha de cada tarea;
`ListaConPlazos`, la lista de tareas de nbgrader en el servidor del estudiante, la añade a cada
tarea (`plazo`) y dice de cada entrega si llegó tarde (`tarde`).

Este fichero va tal cual, como módulo suelto (`curso_harness_plazos`), al entorno de Python del hub,
que es el de los estudiantes: solo usa nbgrader y la biblioteca estándar, y no sabe nada de la
corrección. La hora de una entrega que ve el estudiante es la suya (la de `nbgrader submit`); la que
cuenta para la nota la fija la recogida del profesor, que no se fía de ella (course/intercambio.py).
"""

import json
import os
import stat

from nbgrader.exchange.default.list import ExchangeList
from nbgrader.utils import parse_utc

PLAZOS = "plazos.json"   # en <intercambio>/<curso>/
TOPE = 256 * 1024        # bytes que se leen de él
FORMATO = "%Y-%m-%d %H:%M:%S UTC"


def leer_plazos(carpeta_del_curso):
    """{tarea: fecha de entrega (texto, en UTC) o None} del plazos.json del curso; {} si no hay uno válido."""
    try:
        fd = os.open(os.path.join(carpeta_del_curso, PLAZOS), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return {}
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return {}
        try:
            datos = json.loads(f.read(TOPE + 1)[:TOPE].decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return {}
    if not isinstance(datos, dict):
        return {}
    return {t: f for t, f in datos.items() if isinstance(t, str) and (f is None or isinstance(f, str))}


def escribir_plazos(carpeta_del_curso, plazos):
    """Escribe {tarea: fecha (datetime en UTC, sin zona) o None} en el plazos.json del curso, de una vez."""
    datos = {t: (f.strftime(FORMATO) if f is not None else None) for t, f in sorted(plazos.items())}
    nuevo = os.path.join(carpeta_del_curso, "." + PLAZOS + ".nuevo")
    with open(nuevo, "w", encoding="utf-8") as f:
        json.dump(datos, f, ensure_ascii=False, indent=1)
    os.chmod(nuevo, 0o644)  # lo leen todos los estudiantes; solo lo escribe el profesor
    os.replace(nuevo, os.path.join(carpeta_del_curso, PLAZOS))


def _fecha(texto):
    try:
        return parse_utc(texto)
    except (ValueError, OverflowError, TypeError):
        return None


class ListaConPlazos(ExchangeList):
    """La lista de tareas de nbgrader, con el plazo de cada tarea y, en cada entrega, si llegó tarde."""

    def parse_assignments(self):
        tareas = super().parse_assignments()
        cursos = {}
        for tarea in tareas:
            curso = tarea.get("course_id")
            if curso not in cursos:
                cursos[curso] = leer_plazos(os.path.join(self.root, curso)) if isinstance(curso, str) else {}
            plazo = cursos[curso].get(tarea.get("assignment_id"))
            tarea["plazo"] = plazo
            limite = _fecha(plazo) if plazo else None
            for entrega in tarea.get("submissions", []):
                hora = _fecha(entrega.get("timestamp"))
                entrega["tarde"] = bool(limite and hora and hora > limite)
        return tareas
