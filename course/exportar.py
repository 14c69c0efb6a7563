"""Lo que sale de la clase corregida hacia fuera, además del informe: las notas en exports/.

- `escribir_csv`: exports/notas.csv, el CSV de `nbgrader export` (sus columnas, y `estado`, `motivo` y `sin_hora`:
  por qué no se sabe la hora de la entrega, cuando `timestamp` está vacío y la recogida del LMS lo dice),
  escrito con el módulo csv, cada campo entre comillas y ninguno que una hoja de cálculo lea como fórmula.
- `escribir_xlsx`: exports/notas.xlsx, lo mismo en una hoja de cálculo de verdad (openpyxl), con los
  números como números y las fechas como fechas: la que abre bien un Excel en español.
- `exportar_al_lms`: lo que el LMS importa tal cual, por el número de cada estudiante en el LMS (la
  columna `lms_user_id` del roster): la hoja de calificaciones de Moodle con un comentario para cada
  uno, el CSV del libro de calificaciones de Canvas y el .zip de «Subir múltiples archivos de
  retroalimentación en un ZIP» de Moodle. Quien no tiene número se queda fuera, y se dice quién.

Los formatos, y de dónde sale cada detalle (el código y la documentación de Moodle y de Canvas), en
docs/lms.md. Todo se pinta de una `estado.Clase` ya leída: aquí no se vuelve a mirar ni el gradebook
ni un cuaderno.
"""

import csv
import datetime
import html
import os
import re
import zipfile
from pathlib import Path

from traitlets import Dict
from traitlets.config import LoggingConfigurable

from . import cuaderno, formato, gradebook
from .estado import CORREGIDO, SIN_CORREGIR, leer

# Lo que una hoja de cálculo lee como el principio de una fórmula (OWASP, «CSV Injection»), con las
# versiones de ancho completo y el salto de línea, que algunas también aceptan.
FORMULA = tuple("=+-@\t\r\n＝＋－＠")


def hojas_de_notas(raiz):
    """(exports/notas.csv, exports/notas.xlsx) del curso de `raiz`: donde los dejan `make grade` y `nbgrader export`."""
    return Path(raiz) / "exports" / "notas.csv", Path(raiz) / "exports" / "notas.xlsx"

COLUMNAS = ["assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email",
            "raw_score", "late_submission_penalty", "score", "max_score", "estado", "motivo", "sin_hora"]


def sin_formula(texto):
    """Un texto para una celda de CSV: si una hoja de cálculo lo leería como fórmula, con un apóstrofo delante."""
    texto = "" if texto is None else str(texto)
    return "'" + texto if texto.lstrip(" ").startswith(FORMULA) else texto


def filas(clase, solo=None):
    """Las filas del CSV de notas de una Clase, como las escribe nbgrader (raw_score sin el descuento; score, con
    él). Quien no se ha corregido no tiene nota (las columnas de puntos, vacías), no un cero. `solo`: los ids de
    los estudiantes del gradebook que salen (las carpetas apartadas salen siempre, para que no se pierda ninguna)."""
    for e in clase.estudiantes:
        if solo and not e.apartada and e.id not in solo:
            continue
        if e.apartada:
            yield [sin_formula(clase.tarea), clase.plazo or "", "", sin_formula(e.id), "", "", "", "", "", "",
                   clase.maximo, e.situacion, sin_formula(e.motivo), ""]
            continue
        puntos = [e.puntos, e.descuento, e.nota] if e.situacion == CORREGIDO else ["", "", ""]
        yield [sin_formula(clase.tarea), clase.plazo or "", e.entregada or "", sin_formula(e.id),
               sin_formula(e.apellidos), sin_formula(e.nombre), sin_formula(e.email), *puntos, clase.maximo,
               e.situacion, sin_formula(e.motivo), sin_formula(e.sin_hora)]


def escribir_csv(destino, clases, solo=None):
    """exports/notas.csv (o `destino`) con las filas de cada Clase de `clases`."""
    os.makedirs(os.path.dirname(os.path.abspath(destino)), exist_ok=True)
    with open(destino, "w", newline="", encoding="utf-8") as f:
        escritor = csv.writer(f, quoting=csv.QUOTE_ALL)
        escritor.writerow(COLUMNAS)
        for clase in clases:
            escritor.writerows(filas(clase, solo))
    return destino


def exportar_notas(raiz, clase, config):
    """exports/notas.csv y notas.xlsx, como los escribe `nbgrader export`: cada tarea del gradebook; la de `clase`,
    de ella (ya leída). Los escriben `make grade` y `make informe`."""
    from nbgrader.api import Gradebook

    raiz = Path(raiz)
    with Gradebook(gradebook(raiz)) as gb:
        clases = [clase if t.name == clase.tarea else leer(raiz, t.name, gb, detalles=False)
                  for t in gb.assignments]
    csv_, xlsx = hojas_de_notas(raiz)
    escribir_csv(csv_, clases)
    escribir_xlsx(xlsx, clases, formato.zona_horaria(config))
    return csv_


# --------------------------------------------------------------------------- exports/notas.xlsx

XLSX = [("tarea", 26), ("plazo", 18), ("entregada", 18), ("estudiante", 16), ("apellidos", 20), ("nombre", 16),
        ("email", 24), ("puntos", 9), ("descuento por retraso", 11), ("nota", 9), ("máximo", 9), ("estado", 14),
        ("motivo", 50), ("número en el LMS", 12), ("sin hora de entrega: por qué", 50)]


def escribir_xlsx(destino, clases, zona, solo=None):
    """exports/notas.xlsx: las filas de notas.csv, con los números como números, las fechas en la hora de `zona`
    y el número de cada uno en el LMS. Los textos van como texto: ninguno se lee como una fórmula."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    libro = Workbook()
    hoja = libro.active
    hoja.title = "Notas"
    hoja.append([nombre for nombre, _ in XLSX])
    for celda in hoja[1]:
        celda.font = Font(bold=True)
    for i, (_, ancho) in enumerate(XLSX, start=1):
        hoja.column_dimensions[get_column_letter(i)].width = ancho
    for clase in clases:
        for e in clase.estudiantes:
            if solo and not e.apartada and e.id not in solo:
                continue
            corregido = e.situacion == CORREGIDO
            valores = [clase.tarea, _local(clase.plazo, zona), None if e.apartada else _local(e.entregada, zona),
                       e.id, e.apellidos, e.nombre, e.email,
                       e.puntos if corregido else None, (e.descuento or 0.0) if corregido else None,
                       e.nota if corregido else None, clase.maximo, e.situacion, e.motivo, e.numero_del_lms or None,
                       e.sin_hora]
            valores = [_para_xlsx(v) for v in valores]
            hoja.append(valores)
            for celda, valor in zip(hoja[hoja.max_row], valores):
                if isinstance(valor, str):
                    celda.data_type = "s"  # un texto que empieza por «=» sigue siendo texto, no una fórmula
                elif isinstance(valor, datetime.datetime):
                    celda.number_format = "dd/mm/yyyy hh:mm"
    hoja.freeze_panes = "A2"
    hoja.auto_filter.ref = hoja.dimensions
    os.makedirs(os.path.dirname(os.path.abspath(destino)), exist_ok=True)
    libro.save(destino)
    return destino


def _para_xlsx(valor):
    """Un texto sin los caracteres de control que el formato xlsx no admite: cada uno, escrito como \\x01."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    if not isinstance(valor, str):
        return valor
    return ILLEGAL_CHARACTERS_RE.sub(lambda c: "\\x%02x" % ord(c.group()), valor)


def _local(momento, zona):
    """Una fecha del gradebook (UTC, sin zona) en la hora de `zona`, sin zona: como la guarda una hoja de cálculo."""
    if momento is None:
        return None
    return momento.replace(tzinfo=datetime.timezone.utc).astimezone(zona).replace(tzinfo=None)


# --------------------------------------------------------------------------- lo que importa el LMS

class ExportarAlLMS(LoggingConfigurable):
    """Ajustes de las exportaciones al LMS (en nbgrader_config.py, `c.ExportarAlLMS....`)."""

    canvas = Dict(help="El título de cada tarea en el libro de calificaciones de Canvas, {tarea: título}. Con el "
                       "número de la tarea en Canvas entre paréntesis («Errores (4321)»), Canvas la encuentra "
                       "aunque se llame distinto; sin él, por el título; si no, crea una columna nueva.").tag(config=True)


# Moodle busca las columnas de la hoja de calificaciones por su título en el idioma de quien la sube
# (mod/assign/feedback/offline/importgradeslib.php): van en español y en inglés, y Moodle lee las suyas.
MOODLE = {"id": ("Identificador", "Identifier"), "nota": ("Calificación", "Grade"),
          "cambio": ("Última modificación (calificación)", "Last modified (grade)"),
          "comentario": ("Comentarios de retroalimentación", "Feedback comments")}
# Moodle escribe «Participante» (en español) o «Participant » (en inglés) delante del número, y al importar
# quita tantos caracteres como tiene esa palabra en su idioma: 12 en los dos.
PARTICIPANTE = "Participante"
LMS = ("moodle-calificaciones.csv", "moodle-retroalimentacion.zip", "canvas-calificaciones.csv")  # en exports/


def para_el_lms(clase):
    """(quienes van al LMS, quienes no tienen número en el LMS): de los estudiantes que han entregado algo."""
    entregaron = [e for e in clase.estudiantes if not e.apartada and e.situacion in (CORREGIDO, SIN_CORREGIR)]
    return [e for e in entregaron if e.numero_del_lms], [e for e in entregaron if not e.numero_del_lms]


def _nota(x):
    """Una nota para un CSV que importa un LMS: punto decimal, sin ceros de más («8», «10.5»)."""
    return ("%.2f" % x).rstrip("0").rstrip(".")


def comentario(clase, e, etiquetas):
    """El comentario de retroalimentación de Moodle de un estudiante (HTML, como lo guarda Moodle)."""
    if e.situacion != CORREGIDO:
        return "<p>Tu entrega no se ha podido corregir: %s. Habla con tu profesor.</p>" % html.escape(e.motivo or "")
    partes = ["<p>Nota: %s de %s" % (formato.numero(e.nota), formato.numero(clase.maximo))]
    if e.descuento:
        partes.append(" (ya con %s menos por entregar %s tarde)" % (formato.numero(e.descuento), formato.dias(e.dias_tarde)))
    partes.append(".</p>")
    if e.equivocaciones:
        partes.append("<p>Lo que te ha costado puntos:</p><ul>%s</ul>" % "".join(
            "<li>%s</li>" % html.escape(etiquetas.get(d, d)) for d in e.equivocaciones))
    for c in e.conversaciones:
        partes.append("<p>La conversación «%s» %s.</p>" % (html.escape(c.peticion), _donde(c)))
    partes.append("<p>La retroalimentación entera, prueba a prueba, va en el archivo de retroalimentación de esta "
                  "tarea.</p>")
    return "".join(partes)


def _donde(c):
    return "se rompe en el turno %d" % c.turno if c.turno else "llega al final, pero no como espera su guion"


def escribir_moodle_csv(destino, clase, etiquetas, ahora=None):
    """La hoja de calificaciones de Moodle («Subir la hoja de calificaciones»), con un comentario para cada uno."""
    ahora = (ahora or datetime.datetime.now(datetime.timezone.utc)).strftime("%Y-%m-%d %H:%M:%S UTC")
    van, _ = para_el_lms(clase)
    with open(destino, "w", newline="", encoding="utf-8") as f:
        escritor = csv.writer(f)
        escritor.writerow([*MOODLE["id"], "Nombre completo", "Correo", *MOODLE["nota"], "Calificación máxima",
                           *MOODLE["cambio"], *MOODLE["comentario"]])
        for e in sorted(van, key=lambda e: int(e.numero_del_lms)):
            nota = _nota(e.nota) if e.situacion == CORREGIDO else ""
            texto = comentario(clase, e, etiquetas)
            escritor.writerow([PARTICIPANTE + e.numero_del_lms] * 2 + [
                sin_formula(e.nombre_completo), sin_formula(e.email), nota, nota, _nota(clase.maximo), ahora, ahora,
                texto, texto])
    return destino


def escribir_canvas_csv(destino, clase, titulo):
    """El CSV que importa el libro de calificaciones de Canvas (Calificaciones › Importar), por el ID de Canvas."""
    van, _ = para_el_lms(clase)
    with open(destino, "w", newline="", encoding="utf-8") as f:
        escritor = csv.writer(f)
        escritor.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", titulo])
        escritor.writerow(["Points Possible", "", "", "", "", _nota(clase.maximo)])
        for e in sorted(van, key=lambda e: int(e.numero_del_lms)):
            nombre = ", ".join(filter(None, [e.apellidos, e.nombre])) or e.id
            escritor.writerow([sin_formula(nombre), e.numero_del_lms, "", "", "",
                               _nota(e.nota) if e.situacion == CORREGIDO else ""])
    return destino


def carpeta_de_moodle(e):
    """La carpeta de un estudiante en las descargas de Moodle, «Nombre Apellidos_123456_assignsubmission_file_»: la
    que Moodle reconoce al subir retroalimentación en un zip (mod/assign/feedback/file/importziplib.php)."""
    nombre = re.sub(r"[\x00-\x1f\x7f/\\:*?\"<>|]", "", e.nombre_completo.replace("_", " ")).strip() or PARTICIPANTE
    return "%s_%s_assignsubmission_file_" % (nombre, e.numero_del_lms)


def escribir_moodle_zip(destino, clase, raiz):
    """El .zip de «Subir múltiples archivos de retroalimentación en un ZIP»: la retroalimentación HTML de cada uno, en
    su carpeta. Devuelve los ids de quienes van dentro."""
    van, _ = para_el_lms(clase)
    nombre = Path(cuaderno(clase.tarea)).with_suffix(".html").name
    dentro = []
    with zipfile.ZipFile(destino, "w", zipfile.ZIP_DEFLATED) as z:
        for e in sorted(van, key=lambda e: int(e.numero_del_lms)):
            retro = Path(raiz) / "feedback" / e.id / clase.tarea / nombre
            if e.situacion == CORREGIDO and retro.is_file():
                z.write(retro, carpeta_de_moodle(e) + "/" + nombre)
                dentro.append(e.id)
    return dentro


def exportar_al_lms(raiz, clase, config=None):
    """exports/moodle-calificaciones.csv, canvas-calificaciones.csv y moodle-retroalimentacion.zip de `clase`.

    Devuelve los estudiantes que se quedan fuera por no tener número del LMS (para decirlo)."""
    from .calificacion import DIAGNOSTICOS

    ajustes = ExportarAlLMS(config=config)
    exports = Path(raiz) / "exports"
    exports.mkdir(parents=True, exist_ok=True)
    hoja, zip_, canvas = (exports / f for f in LMS)
    escribir_moodle_csv(hoja, clase, dict(DIAGNOSTICOS))
    escribir_moodle_zip(zip_, clase, raiz)
    escribir_canvas_csv(canvas, clase, ajustes.canvas.get(clase.tarea, clase.tarea))
    return para_el_lms(clase)[1]


def sin_numero(fuera):
    """La línea de la terminal que dice quién se queda fuera de las exportaciones al LMS, o None si nadie."""
    if not fuera:
        return None
    return ("Sin número del LMS, fuera de exports/moodle-* y canvas-* (su nota está en notas.csv): %s. Pon su número "
            "en la columna lms_user_id del roster (nbgrader db student import) y vuelve a exportar con `make informe`."
            % ", ".join(e.id for e in fuera))
