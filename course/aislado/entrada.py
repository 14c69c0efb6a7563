"""Lo que entra en la corrección: cada entrega se lee con cuidado y se corrige sobre el cuaderno de release.

nbgrader corrige el cuaderno que encuentra en `submitted/` tal cual, y una sola entrega rara puede
parar la corrección de toda la clase (una celda duplicada, jupyter/nbgrader#1083; un
`schema_version` desconocido; un JSON roto; una carpeta con un salto de línea en su nombre). Aquí:

- `LectorDeEntregas` lee el `.ipynb` sin seguir enlaces, sin abrir nada que no sea un fichero
  normal y con un tope de tamaño; si no se puede leer, la entrega sigue como un cuaderno vacío con
  el motivo anotado.
- `SanearEntrega` rehace el cuaderno a partir del de release (el que recibió el estudiante): solo
  se toma de la entrega el código de cada celda de respuesta, buscada por su `grade_id`, y lo que
  han guardado los widgets del cuestionario formativo (validado, a los metadatos: no puntúa, lo
  lee el informe de la clase). Nada más de la entrega (metadatos, salidas, celdas añadidas, orden)
  llega a la corrección. Lo que se ha tenido que decidir (una respuesta duplicada, movida,
  convertida en texto, perdida) se le dice al estudiante en una celda de avisos al principio de su
  retroalimentación, y en el registro.
- `LectorDeEntregas`, además, hace que su corrección aparte, con una línea clara en la salida, las
  carpetas que nbgrader no sabe manejar (`motivo_para_apartar`: también `make grade` las aparta), y
  que de la carpeta entregada solo lea el cuaderno y los sellos de `nbgrader submit`: lo único de
  nbgrader que no se puede configurar (course/ajustes.py, entregas_limpias).
- `motivo_sin_corregir` dice por qué una carpeta no tiene un cuaderno que corregir (el motivo que dejó
  la recogida del LMS, o que el cuaderno falta o no se puede leer): `make grade`, el CSV y el informe
  la marcan «no corregido» con ese motivo.
"""

import json
import os
import re
import stat

import nbformat
from nbconvert.exporters import NotebookExporter
from nbconvert.exporters.exporter import ResourcesDict
from nbformat.v4 import new_markdown_cell, new_notebook
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor

from course import HORA_DESCONOCIDA, NO_CORREGIDO, cuaderno, limites
from course.ajustes import entregas_limpias
from course.cuestionario import registro, registros_de_la_celda
from course.recoleccion import mostrar

AVISOS = "curso_avisos"  # clave de los metadatos del cuaderno con lo que se ha notado al leerlo
CUESTIONARIO = "curso_cuestionario"  # y con lo que han guardado los widgets del cuestionario formativo
# Lo que `nbgrader submit` deja junto al cuaderno: la hora de la entrega y un secreto por entrega.
SELLOS = ("timestamp.txt", "submission_secret.txt")


def leer_acotado(ruta, tope):
    """(hasta tope+1 bytes de un fichero normal, None) o (None, por qué no), sin seguir enlaces ni colgarse."""
    for tramo in (ruta, os.path.dirname(ruta), os.path.dirname(os.path.dirname(ruta))):
        if os.path.islink(tramo):
            return None, "la entrega es un enlace simbólico, no un cuaderno tuyo"
    try:
        # O_NONBLOCK: una tubería con el nombre del cuaderno no cuelga la lectura.
        fd = os.open(ruta, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None, "el cuaderno entregado no se puede abrir"
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, "lo entregado con el nombre del cuaderno no es un fichero normal"
        return f.read(tope + 1), None


def leer_cuaderno(ruta):
    """(el JSON de la entrega, None) o (None, por qué no se puede leer), sin seguir enlaces ni colgarse."""
    crudo, problema = leer_acotado(ruta, limites.CUADERNO_ENTREGADO)
    if problema:
        return None, problema
    if len(crudo) > limites.CUADERNO_ENTREGADO:
        return None, "el cuaderno ocupa más de %d MB" % (limites.CUADERNO_ENTREGADO // limites.MIB)
    try:
        return json.loads(crudo.decode("utf-8")), None
    except (ValueError, RecursionError):
        return None, "el fichero entregado no es un cuaderno de Jupyter válido (su JSON está roto)"


def _texto(fuente):
    """El código de una celda tal como lo guarda Jupyter (texto o lista de líneas), o None."""
    if isinstance(fuente, str):
        return fuente
    if isinstance(fuente, list) and all(isinstance(l, str) for l in fuente):
        return "".join(fuente)
    return None


def normalizar(datos, problema=None):
    """Un cuaderno v4 mínimo con lo único que se mira de una entrega: tipo, código y grade_id de cada celda."""
    nb = new_notebook()
    registros = []  # lo que han guardado los widgets del cuestionario formativo al pulsar «Comprobar»
    celdas = datos.get("cells") if isinstance(datos, dict) else None
    if problema is None and not isinstance(celdas, list):
        problema = "el fichero entregado no tiene las celdas de un cuaderno"
    for celda in (celdas or [])[:limites.CELDAS_ENTREGADAS]:
        if not isinstance(celda, dict):
            continue
        fuente = _texto(celda.get("source"))
        if fuente is None:
            continue
        nueva = nbformat.from_dict({"cell_type": "raw", "source": fuente, "metadata": {}})
        nueva["tipo_entregado"] = celda.get("cell_type") if isinstance(celda.get("cell_type"), str) else ""
        metadatos = celda.get("metadata")
        nbgrader = metadatos.get("nbgrader") if isinstance(metadatos, dict) else None
        if isinstance(nbgrader, dict) and isinstance(nbgrader.get("grade_id"), str):
            nueva.metadata["grade_id_entregado"] = nbgrader["grade_id"]
        nb.cells.append(nueva)
        registros += registros_de_la_celda(celda)
    nb.metadata[AVISOS] = [problema] if problema else []
    ultimos = {registro(r)[0]: r for r in registros if registro(r)}  # de cada pregunta, el último
    nb.metadata[CUESTIONARIO] = [ultimos[n] for n in sorted(ultimos)]
    return nb


class LectorDeEntregas(NotebookExporter):
    """El exportador de `nbgrader autograde`: lee cada cuaderno con `leer_cuaderno` en vez de confiar en él.

    En la primera pasada (la de `submitted/`) entrega a los preprocesadores un cuaderno normalizado;
    en la segunda lee el que ha escrito la primera en `autograded/`, que ya es nuestro.
    nbgrader lo crea una vez por corrección, con ella de `parent`: entonces la ajusta (`entregas_limpias`).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from nbgrader.converters import Autograde

        if isinstance(self.parent, Autograde):
            entregas_limpias(self.parent, motivo_para_apartar, _copiar_sellos, _olvidar_la_hora)

    def from_filename(self, filename, resources=None, **kw):
        if resources is None:
            resources = ResourcesDict()
        if not resources.get("metadata"):
            resources["metadata"] = ResourcesDict()
        ruta, nombre = os.path.split(filename)
        resources["metadata"].update(name=os.path.splitext(nombre)[0], path=ruta)
        datos, problema = leer_cuaderno(filename)
        if _es_de_la_correccion(filename, self.config) and problema is None:
            return self.from_notebook_node(nbformat.reads(json.dumps(datos), as_version=4), resources, **kw)
        return self.from_notebook_node(normalizar(datos, problema), resources, **kw)


def _es_de_la_correccion(ruta, config):
    """Si `ruta` está en autograded/, donde solo escribe la corrección."""
    curso = CourseDirectory(config=config)
    autograded = os.path.abspath(os.path.join(curso.root, curso.autograded_directory))
    return os.path.abspath(ruta).startswith(autograded + os.sep)


def _nombre(grade_id):
    """El nombre que define la celda de respuesta `grade_id`: `ejecutar`, `respuesta_1`…, si lo es."""
    nombre = grade_id.replace("-", "_")
    return nombre if nombre.isidentifier() else None


def _define(fuente, nombre):
    return re.search(r"^(def\s+%s\s*\(|%s\s*=)" % (nombre, nombre), fuente, re.M) is not None


def elegir_respuesta(celdas, grade_id, esqueleto, de_release=frozenset()):
    """(código de la respuesta `grade_id` en `celdas` normalizadas, avisos). Sin respuesta: (None, avisos).

    Con varias celdas de ese grade_id (copiar y pegar, «Duplicar celda»), cuenta la última que el
    estudiante ha cambiado; si ninguna tiene el grade_id (se perdió la marca), la celda de código
    que define el nombre de la respuesta y no es una del cuaderno de release (`de_release`: sus
    códigos), para no corregir como suyo el código que le da la lección.
    """
    avisos = []
    candidatas = [c for c in celdas if c.metadata.get("grade_id_entregado") == grade_id]
    nombre = _nombre(grade_id)
    if not candidatas and nombre:
        candidatas = [c for c in celdas if c.tipo_entregado == "code" and _define(c.source, nombre)
                      and c.source.strip() not in de_release]
        if candidatas:
            avisos.append("La celda de tu respuesta «%s» había perdido su marca de nbgrader: se ha corregido la "
                          "celda que define `%s`." % (grade_id, nombre))
    if not candidatas:
        if celdas:  # si no hay ninguna celda, ya se ha dicho por qué
            avisos.append("No se encuentra tu respuesta «%s»: se corrige como sin contestar." % grade_id)
        return None, avisos
    if len(candidatas) > 1:
        avisos.append("Tu cuaderno tiene %d celdas con la respuesta «%s» (¿una copia?): se ha corregido la "
                      "última que cambiaste." % (len(candidatas), grade_id))
    cambiadas = [c for c in candidatas if c.source.strip() != esqueleto.strip()]
    elegida = (cambiadas or candidatas)[-1]
    if elegida.tipo_entregado != "code":
        avisos.append("La celda de tu respuesta «%s» estaba convertida en texto: se ha corregido como "
                      "código." % grade_id)
    if len(elegida.source.encode()) > limites.CODIGO_RESPUESTA:
        avisos.append("Tu respuesta «%s» ocupa más de %d kB: se corrige como sin contestar."
                      % (grade_id, limites.CODIGO_RESPUESTA // limites.KIB))
        return None, avisos
    return elegida.source, avisos


class SanearEntrega(NbGraderPreprocessor):
    """Rehace la entrega sobre el cuaderno de release: de la entrega solo cuenta el código de sus respuestas."""

    def preprocess(self, nb, resources):
        datos = resources["nbgrader"]
        curso = CourseDirectory(parent=self)
        ruta = os.path.join(curso.format_path(curso.release_directory, ".", datos["assignment"]),
                            datos["notebook"] + ".ipynb")
        nuevo = nbformat.read(ruta, as_version=4)
        avisos = ["No se ha podido leer tu cuaderno: %s. Se corrige como sin contestar." % p
                  for p in nb.metadata.get(AVISOS, [])]
        celdas = [c for c in nb.cells if "tipo_entregado" in c]
        de_release = {c.source.strip() for c in nuevo.cells}
        usadas = set()
        for celda in nuevo.cells:
            if celda.cell_type == "code":
                celda.outputs, celda.execution_count = [], None
            nbgrader = celda.metadata.get("nbgrader", {})
            if nbgrader.get("solution"):
                fuente, suyos = elegir_respuesta(celdas, nbgrader["grade_id"], celda.source, de_release)
                avisos += suyos
                if fuente is not None:
                    celda.source = fuente
                    usadas.add(fuente)
        anadidas = [c for c in celdas if c.tipo_entregado == "code" and "grade_id_entregado" not in c.metadata
                    and c.source.strip() and c.source.strip() not in de_release and c.source not in usadas]
        if anadidas:
            avisos.append("Las celdas de código que has añadido (%d) no se ejecutan al corregir: solo cuenta el "
                          "código de tus celdas de respuesta." % len(anadidas))
        for aviso in avisos:
            self.log.warning("%s: %s", datos["student"], aviso)
        if avisos:
            nuevo.cells.insert(0, new_markdown_cell(
                "**Avisos del corrector sobre tu entrega**\n\n" + "\n".join("- " + a for a in avisos)))
        # Las respuestas comprobadas del cuestionario formativo (0 puntos) van a los metadatos del cuaderno
        # corregido, donde las lee el informe de la clase: sus celdas se vuelven a ejecutar y las perderían.
        if nb.metadata.get(CUESTIONARIO):
            nuevo.metadata.setdefault("curso", {})["cuestionario"] = nb.metadata[CUESTIONARIO]
        return nuevo, resources


COMODINES = set("*?[]")  # nbgrader busca las entregas con glob: en un nombre, serían un patrón


def motivo_para_apartar(carpeta):
    """Por qué nbgrader no puede corregir la carpeta submitted/<estudiante>/<tarea> de una entrega, o None si puede."""
    nombre = os.path.basename(os.path.dirname(carpeta))
    try:
        nombre.encode("utf-8")
    except UnicodeEncodeError:
        return "su nombre tiene bytes que no son texto UTF-8"
    if any(ord(c) < 32 or c == "\x7f" for c in carpeta):
        return "su nombre tiene un salto de línea o un carácter de control"
    if COMODINES & set(nombre):
        return "su nombre tiene caracteres comodín (* ? [ ]), que nbgrader tomaría por un patrón de otros nombres"
    if nombre.startswith("."):
        return "su nombre empieza por un punto (es una carpeta oculta)"
    for tramo in (carpeta, os.path.dirname(carpeta)):
        if os.path.islink(tramo) or not os.path.isdir(tramo):
            return "es un enlace simbólico, no una carpeta"
    sello = os.path.join(carpeta, "timestamp.txt")
    if os.path.lexists(sello):
        info = os.lstat(sello)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limites.SELLO:
            return "su timestamp.txt no es un fichero de texto corto"
        try:
            from nbgrader.utils import parse_utc
            with open(sello, encoding="utf-8") as f:
                texto = f.read().strip()
            if texto:
                parse_utc(texto)
        except (ValueError, OSError, UnicodeDecodeError, OverflowError):
            return "su timestamp.txt no tiene una fecha"
    return None


def motivo_sin_corregir(carpeta):
    """Por qué la entrega de submitted/<estudiante>/<tarea> no tiene un cuaderno que corregir, o None si lo tiene.

    Lo dice el `no-corregido.txt` que deja la recogida del LMS (course/recoleccion.py), o se ve aquí:
    no está el cuaderno de la tarea, o no se puede leer como cuaderno (con los topes de `leer_cuaderno`).
    """
    # El motivo va a la terminal del profesor (make grade), al CSV y al informe: lo que viene de la entrega (el
    # texto de la nota, los nombres de sus ficheros) va sin caracteres de control ni bytes que no son texto.
    nota = os.path.join(carpeta, NO_CORREGIDO)
    if os.path.lexists(nota):
        datos, problema = leer_acotado(nota, limites.NOTA_SIN_CORREGIR)
        texto = datos[:limites.NOTA_SIN_CORREGIR].decode("utf-8", "replace") if datos else ""
        return problema or mostrar(" ".join(texto.split()), limites.NOTA_SIN_CORREGIR) or \
            "la recogida no encontró un cuaderno"
    nombre = cuaderno(os.path.basename(os.path.normpath(carpeta)))  # la carpeta se llama como su tarea
    ruta = os.path.join(carpeta, nombre)
    if not os.path.lexists(ruta):
        otros = sorted(n for n in os.listdir(carpeta) if n not in SELLOS)[:5]
        return "no hay %s en la carpeta de la entrega%s" % (
            nombre, " (hay: %s)" % ", ".join("«%s»" % mostrar(n, 60) for n in otros) if otros else "")
    datos, problema = leer_cuaderno(ruta)
    if problema is None and not (isinstance(datos, dict) and isinstance(datos.get("cells"), list)):
        problema = "el fichero entregado no tiene las celdas de un cuaderno"
    return problema


def _copiar_sellos(origen, destino):
    """Los SELLOS de `origen` a `destino`, los que sean ficheros normales y cortos (nunca enlaces ni tuberías)."""
    for nombre in SELLOS:
        sello, problema = leer_acotado(os.path.join(origen, nombre), limites.SELLO)
        if problema is None and len(sello) <= limites.SELLO:
            os.makedirs(destino, exist_ok=True)
            with open(os.path.join(destino, nombre), "wb") as f:
                f.write(sello)


def _olvidar_la_hora(curso, tarea, estudiante):
    """Si la recogida del LMS no sabe la hora de esta entrega (deja hora-desconocida.txt y ningún timestamp.txt),
    el gradebook tampoco: nbgrader, sin timestamp.txt, deja la hora que tuviera, y la de una recogida anterior
    (la de una descarga, por ejemplo) seguiría quitando puntos por un retraso que nadie sabe."""
    from nbgrader.api import Gradebook

    carpeta = curso.format_path(curso.submitted_directory, estudiante, tarea)
    if not os.path.lexists(os.path.join(carpeta, HORA_DESCONOCIDA)) or os.path.lexists(os.path.join(carpeta, SELLOS[0])):
        return
    with Gradebook(curso.db_url, curso.course_id) as gb:
        entrega = gb.find_submission(tarea, estudiante)
        if entrega.timestamp is not None:
            entrega.timestamp = None
            gb.db.commit()
