"""Lo que hace un profesor con su LMS, de verdad: roster, fecha de entrega, la descarga de Moodle o Canvas,
`nbgrader zip_collect` y `make grade` (course/corregir.py), en un curso de una carpeta temporal."""

import csv
import datetime
import io
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from zoneinfo import ZoneInfo

from course import TAREA
from cursos import copiar_curso, nbgrader

MADRID = ZoneInfo("Europe/Madrid")
PLAZO = datetime.datetime(2026, 3, 1, 23, 59, tzinfo=MADRID)
A_TIEMPO = datetime.datetime(2026, 3, 1, 10, 15)    # hora de Madrid, como la guarda el .zip del LMS
# Para medir memoria: nbgrader de verdad, que al salir dice el máximo de memoria residente que ha usado.
# Con VmHWM, el de su propia memoria: ru_maxrss arrastra, tras el exec, el del proceso que lo lanzó.
MEDIDO = ("import atexit, re, runpy, sys\n"
          "pico = lambda: int(re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read()).group(1))\n"
          "atexit.register(lambda: sys.stderr.write('MEMORIA %d\\n' % pico()))\n"
          "sys.argv = ['nbgrader'] + sys.argv[1:]\n"
          "runpy.run_module('nbgrader', run_name='__main__', alter_sys=True)\n")


def montar(raiz, roster):
    """Un curso con el roster [(id, nombre, apellidos, email, lms_user_id)] y la fecha de entrega.

    release/ es la copia del repositorio (la misma que genera nbgrader: test_curso lo comprueba) y la
    tarea aún no está generada: `make grade` la genera al empezar, y un `generate_assignment` antes
    sería uno de más.
    """
    copiar_curso(raiz)
    with open(raiz / "roster.csv", "w", newline="", encoding="utf-8") as f:
        escritor = csv.writer(f)
        escritor.writerow(["id", "first_name", "last_name", "email", "lms_user_id"])
        escritor.writerows(roster)
    plazo = PLAZO.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    for orden in (["db", "student", "import", "roster.csv"], ["db", "assignment", "add", TAREA, "--duedate=" + plazo]):
        hecho = nbgrader(raiz, *orden)
        assert hecho.returncode == 0, (orden, hecho.stdout + hecho.stderr)
    return raiz


# Las formas de los nombres de «Descargar todas las entregas» de Moodle (docs/lms.md): en carpetas, la de Moodle 4.1 y
# después (lo de por defecto) y la de 3.1 a 4.0; sin carpetas, la de todas las versiones.
MOODLE_FORMAS = ("carpetas", "carpetas-3.1", "plano")


def limpio_de_moodle(texto):
    """clean_filename de Moodle (lib/moodlelib.php, PARAM_FILE): sin caracteres de control ni &<>"`|':\\/; «.» y «..»
    se quedan en nada."""
    texto = re.sub(r"[\x00-\x1f\x7f&<>\"`|':\\/]", "", texto)
    return "" if texto in (".", "..") else texto


def moodle(nombre, numero, fichero, forma="carpetas", complemento="file", grupo=None):
    """El nombre que da Moodle («Descargar todas las entregas») a un fichero de la entrega de un participante.

    `nombre`: su nombre completo (o «Participante», con la identidad oculta); `forma`: una de MOODLE_FORMAS;
    `complemento`: «file» (un fichero subido, que puede ir en subcarpetas: «a/b.ipynb») u «onlinetext» (el texto en
    línea, «onlinetext.html», y sus imágenes); `grupo`: en una tarea con entregas en grupo de antes de Moodle 4.1, el
    del equipo, que va delante del nombre («Grupo A-Ana García»). Como en mod/assign (locallib.php hasta 4.0,
    classes/downloader.php desde 4.1): los «_» del nombre, espacios; cada parte, con clean_filename; sin carpetas,
    solo el nombre del fichero.
    """
    assert grupo is None or forma != "carpetas", "desde Moodle 4.1, una entrega en grupo es del grupo: moodle_de_grupo"
    prefijo = limpio_de_moodle(("%s-" % grupo if grupo is not None else "") + nombre).replace("_", " ") + "_%s" % numero
    partes = [p for p in (limpio_de_moodle(p) for p in fichero.split("/")) if p]
    assert partes, "Moodle no guarda un fichero sin nombre: %r" % fichero
    if forma == "plano":
        return "%s_assignsubmission_%s_%s" % (prefijo, complemento, partes[-1])
    return "%s_assignsubmission_%s%s/%s" % (prefijo, complemento, "_" if forma == "carpetas-3.1" else "",
                                             "/".join(partes if complemento == "file" else partes[-1:]))


def moodle_de_grupo(grupo, numero_del_grupo, fichero, complemento="file"):
    """El nombre que da Moodle 4.1 y después a un fichero de una entrega en grupo, en carpetas: el del grupo y su número
    o, con `grupo` None, el de quienes no tienen grupo («Grupo predeterminado», sin número)."""
    prefijo = ("%s_%s" % (grupo.replace("_", " "), numero_del_grupo)) if grupo is not None else "Grupo predeterminado"
    return "%s_assignsubmission_%s/%s" % (limpio_de_moodle(prefijo), complemento, fichero)


def _canvas_limpio(texto):
    """sanitize_file_name de Canvas (lib/content_zipper.rb): solo lo que Ruby llama [[:word:]] (letras, marcas,
    cifras decimales y «_»)."""
    import unicodedata
    return "".join(c for c in texto if unicodedata.category(c)[0] in "LM" or unicodedata.category(c) in ("Nd", "Pc"))


def canvas(nombre, numero, fichero, tarde=False, adjunto=None):
    """El nombre que da Canvas («Download Submissions») a un fichero subido, como lib/content_zipper.rb: `nombre` es el
    «sortable name» («Ruiz, Bruno»; uno ya limpio, «ruizbruno», se queda igual), en minúsculas y sin signos; «_LATE»
    si llegó tarde; el número del estudiante y el del adjunto; el nombre del fichero («cuaderno-1.ipynb» si lo subió
    otra vez), con \\/:*?"<>| cambiados por «_»."""
    nombre = re.sub(r"^(\d+)$", r"\1", re.sub(r"_(\d+)_", r"\1", nombre)).lower()
    prefijo = _canvas_limpio("_".join([nombre] + (["LATE"] if tarde else []) + [str(numero)]))
    return "%s_%s_%s" % (prefijo, adjunto or 9000 + int(numero), re.sub(r'[\x00/\\:*?"<>|]+', "_", fichero))


def canvas_de_texto(nombre, numero, enlace=False, tarde=False):
    """El nombre que da Canvas a una entrega de texto en línea («…_text.html») o de enlace («…_link.html»)."""
    nombre = re.sub(r"_(\d+)_", r"\1", nombre).lower()
    return "%s_%s" % (_canvas_limpio("_".join([nombre] + (["LATE"] if tarde else []) + [str(numero)])),
                      "link.html" if enlace else "text.html")


def canvas_anonima(codigo, adjunto, fichero, tarde=False):
    """El nombre que da Canvas a un fichero subido a una tarea con calificación anónima: un código, sin número ni
    nombre del estudiante."""
    return "%sanon_%s_%s_%s" % ("LATE_" if tarde else "", codigo, adjunto, fichero)


def comprimido(miembros, nivel=6):
    """Los bytes de un .zip con {nombre: bytes}."""
    memoria = io.BytesIO()
    with zipfile.ZipFile(memoria, "w", zipfile.ZIP_DEFLATED, compresslevel=nivel) as z:
        for nombre, datos in miembros.items():
            z.writestr(nombre, datos)
    return memoria.getvalue()


def tar_gz(miembros):
    """Los bytes de un .tar.gz con {nombre: bytes}."""
    memoria = io.BytesIO()
    with tarfile.open(fileobj=memoria, mode="w:gz") as t:
        for nombre, datos in miembros.items():
            info = tarfile.TarInfo(nombre)
            info.size = len(datos)
            t.addfile(info, io.BytesIO(datos))
    return memoria.getvalue()


def descarga(raiz, nombre, miembros):
    """Deja en downloaded/<tarea>/archive/ la descarga del LMS: un .zip con {nombre: (bytes, hora de Madrid)}."""
    archivo = raiz / "downloaded" / TAREA / "archive"
    archivo.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archivo / nombre, "w", zipfile.ZIP_DEFLATED) as z:
        for miembro, (datos, hora) in miembros.items():
            info = zipfile.ZipInfo(miembro, date_time=hora.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, datos)


# Las descargas de toda una clase, con la fecha que cada LMS pone a cada fichero del zip (docs/lms.md, «What the download
# says about time»): Moodle hasta 4.0 copia la del fichero guardado (ZipArchive::addFile), que es de cuando se entregó;
# Moodle 4.1 y después (ZipStream) y Canvas (rubyzip, Zip::DOSTime.now), la del momento en que escriben cada fichero al
# hacer el zip. Sin carpetas, los nombres de Moodle son los mismos en todas sus versiones: solo cambian las fechas.
FORMAS_DE_DESCARGA = ("moodle-4.1", "moodle-3.1", "moodle-plano-antes-de-4.1", "moodle-plano-4.1", "canvas")
CON_LA_HORA_DE_LA_DESCARGA = ("moodle-4.1", "moodle-plano-4.1", "canvas")


def descarga_de_la_clase(forma, entregas, momento, plazo=PLAZO):
    """{nombre en el zip: (bytes, fecha local)} de la descarga en la forma `forma` (una de FORMAS_DE_DESCARGA) hecha en
    `momento` (hora local, sin zona, como la guarda el zip), con las entregas [(nombre, número, bytes, hora local de la
    entrega)]. El LMS escribe los ficheros uno tras otro, un par de segundos cada uno; Canvas pone «LATE» en el nombre
    de quien entregó después del plazo."""
    miembros = {}
    for i, (nombre, numero, datos, hora) in enumerate(entregas):
        escrito = momento + datetime.timedelta(seconds=2 * i)
        fecha = escrito if forma in CON_LA_HORA_DE_LA_DESCARGA else hora
        if forma == "canvas":
            miembros[canvas(nombre, numero, TAREA + ".ipynb", tarde=hora.replace(tzinfo=MADRID) > plazo)] = (datos, fecha)
        else:
            carpetas = {"moodle-4.1": "carpetas", "moodle-3.1": "carpetas-3.1"}.get(forma, "plano")
            miembros[moodle(nombre, numero, TAREA + ".ipynb", carpetas)] = (datos, fecha)
    return miembros


# La hoja de calificaciones de Moodle («Descargar la hoja de calificaciones»: assignfeedback_offline, download_grades),
# tal como la escribe mod/assign/gradingtable.php: sus columnas, con los títulos del idioma de quien la descarga, y en
# «Última modificación (entrega)» userdate() con el formato strftimedaydatetime de ese idioma (lang/<idioma>/langconfig.php):
# el día sin cero delante, los minutos, no los segundos, y en inglés la hora de 1 a 12 con AM o PM.
HOJA = {
    "es": ["Identificador", "Nombre completo", "Dirección de correo", "Estado", "Calificación", "Calificación máxima",
           "La calificación puede ser cambiada", "Última modificación (entrega)", "Última modificación (calificación)",
           "Comentarios de retroalimentación"],
    "en": ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum grade", "Grade can be changed",
           "Last modified (submission)", "Last modified (grade)", "Feedback comments"],
}
DIAS = {"es": "lunes martes miércoles jueves viernes sábado domingo".split(),
        "en": "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()}
MESES = {"es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(),
         "en": "January February March April May June July August September October November December".split()}


def userdate(hora, idioma):
    """Una hora local (sin zona) como la escribe userdate() de Moodle en `idioma`, con strftimedaydatetime."""
    dia, mes = DIAS[idioma][hora.weekday()], MESES[idioma][hora.month - 1]
    if idioma == "es":  # '%A, %d de %B de %Y, %H:%M'
        return "%s, %d de %s de %d, %02d:%02d" % (dia, hora.day, mes, hora.year, hora.hour, hora.minute)
    return "%s, %d %s %d, %d:%02d %s" % (dia, hora.day, mes, hora.year, (hora.hour - 1) % 12 + 1, hora.minute,
                                         "AM" if hora.hour < 12 else "PM")  # '%A, %d %B %Y, %I:%M %p'


def hoja_de_moodle(filas, idioma="es"):
    """Los bytes de la hoja de calificaciones de Moodle con [(número del participante, nombre, hora local de su entrega,
    None si no entregó o un texto, que se escribe tal cual)]: CSV con BOM y comas (dataformat_csv), con comillas donde
    fputcsv las pone."""
    participante = {"es": "Participante", "en": "Participant "}[idioma]
    estado = {"es": ("Enviado para calificar", "Sin entrega"), "en": ("Submitted for grading", "No submission")}[idioma]

    def campo(texto):
        return '"%s"' % texto.replace('"', '""') if re.search(r'[,"\s]', texto) else texto

    lineas = [",".join(campo(t) for t in HOJA[idioma])]
    for numero, nombre, hora in filas:
        valores = ["%s%s" % (participante, numero), nombre, "", estado[hora is None], "", "10,00", "Sí" if idioma == "es"
                   else "Yes", "-" if hora is None else hora if isinstance(hora, str) else userdate(hora, idioma), "-", ""]
        lineas.append(",".join(campo(v) for v in valores))
    return "\ufeff".encode() + ("\n".join(lineas) + "\n").encode("utf-8")


def recoger(raiz, *opciones):
    """`nbgrader zip_collect` de verdad; devuelve (proceso, memoria residente máxima en bytes)."""
    hecho = subprocess.run([sys.executable, "-c", MEDIDO, "zip_collect", TAREA, *opciones], cwd=raiz,
                           capture_output=True, text=True, timeout=600)
    memoria = [int(l.split()[1]) * 1024 for l in hecho.stderr.splitlines() if l.startswith("MEMORIA ")]
    return hecho, memoria[-1] if memoria else None


def corregir(raiz, trabajos=None):
    """`make grade` (python -m course.corregir) de verdad sobre el curso de `raiz`."""
    orden = [sys.executable, "-m", "course.corregir", "--raiz", str(raiz)]
    return subprocess.run(orden + (["--trabajos", str(trabajos)] if trabajos else []), cwd=raiz,
                          capture_output=True, text=True, timeout=1500)


def filas(raiz):
    """Las filas de exports/notas.csv leídas con el módulo csv: {student_id: fila}."""
    with open(raiz / "exports" / "notas.csv", newline="", encoding="utf-8") as f:
        leidas = list(csv.DictReader(f))
    resultado = {sin_apostrofo(f["student_id"]): f for f in leidas}
    assert len(resultado) == len(leidas), "dos filas del CSV con el mismo estudiante"
    return resultado


def sin_apostrofo(celda):
    """El texto de una celda del CSV tal como era antes de neutralizar una fórmula."""
    from course.exportar import FORMULA
    return celda[1:] if celda.startswith("'") and celda[1:].lstrip(" ").startswith(FORMULA) else celda


# --------------------------------------------------------------------------- lo que hace el LMS con lo que le subimos
#
# Tan estrictos como el código que sustituyen (docs/lms.md dice de dónde sale cada regla): lo que Moodle o Canvas no
# leerían, aquí tampoco se lee.

# Moodle busca cada columna de la hoja por su título en el idioma de quien la sube (get_string), y quita del
# identificador tantos caracteres como tiene «Participante» / «Participant » en ese idioma.
MOODLE_IDIOMAS = {
    "es": {"id": "Identificador", "nota": "Calificación", "cambio": "Última modificación (calificación)",
           "comentario": "Comentarios de retroalimentación", "participante": "Participante", "decimal": ","},
    "en": {"id": "Identifier", "nota": "Grade", "cambio": "Last modified (grade)",
           "comentario": "Feedback comments", "participante": "Participant ", "decimal": "."},
}


def _unformat_float(texto, decimal):
    """unformat_float de Moodle (lib/moodlelib.php): sin espacios, el separador decimal del idioma por un punto."""
    texto = texto.strip()
    if texto == "":
        return None
    texto = texto.replace(" ", "").replace(decimal, ".")
    return float(texto)  # lo que no es un número, falla: Moodle lo tomaría por false


def moodle_importa_hoja(ruta, participantes, idioma):
    """{participante: (nota o None, comentario)} de una hoja de calificaciones subida a una tarea de Moodle en `idioma`
    (assignfeedback_offline: importgradeslib.php y locallib.php). `participantes`: los números de la tarea."""
    textos = MOODLE_IDIOMAS[idioma]
    contenido = Path(ruta).read_bytes().decode("utf-8").removeprefix("\ufeff")  # csv_import_reader quita el BOM
    filas_ = list(csv.reader(io.StringIO(contenido.replace("\r\n", "\n").strip())))
    cabecera = filas_[0]
    indices = {clave: (cabecera.index(textos[clave]) if textos[clave] in cabecera else -1)
               for clave in ("id", "nota", "cambio", "comentario")}
    assert min(indices["id"], indices["nota"], indices["cambio"]) >= 0, "Moodle no la importa: %r" % cabecera
    importadas = {}
    for fila in filas_[1:]:
        numero = fila[indices["id"]][len(textos["participante"]):]
        if numero not in participantes:
            continue  # get_user_id_for_uniqueid no lo encuentra
        assert numero.isdigit(), fila
        assert datetime.datetime.strptime(fila[indices["cambio"]], "%Y-%m-%d %H:%M:%S UTC"), fila  # strtotime
        comentario = fila[indices["comentario"]] if indices["comentario"] > 0 else None  # !empty($index): la 0 no vale
        assert numero not in importadas, "dos filas del participante %s" % numero
        importadas[numero] = (_unformat_float(fila[indices["nota"]], textos["decimal"]), comentario)
    return importadas


# Los tipos de complemento de una tarea de Moodle (get_plugin_by_type): la carpeta del zip tiene que nombrar uno.
MOODLE_COMPLEMENTOS = {("assignsubmission", "file"), ("assignsubmission", "onlinetext"), ("assignfeedback", "file"),
                       ("assignfeedback", "comments"), ("assignfeedback", "editpdf"), ("assignfeedback", "offline")}


def moodle_importa_zip(ruta, participantes):
    """{participante: {fichero: bytes}} de un zip subido con «Subir múltiples archivos de retroalimentación en un ZIP»
    (mod/assign/feedback/file/importziplib.php, is_valid_filename_for_import)."""
    importados = {}
    with zipfile.ZipFile(ruta) as z:
        for info in z.infolist():
            nombre = info.filename
            if info.is_dir() or nombre.rsplit("/", 1)[-1].startswith((".", "~")):
                continue
            partes = nombre.split("/")
            while partes:
                info_ = partes.pop(0).split("_", 4)  # explode('_', $pathpart, 5)
                if len(info_) < 4 or not info_[1].isdigit() or str(int(info_[1])) not in participantes:
                    continue
                if (info_[2], info_[3]) not in MOODLE_COMPLEMENTOS:
                    continue
                fichero = "/".join(([info_[4]] if len(info_) > 4 else [""]) + partes).lstrip("/")
                importados.setdefault(str(int(info_[1])), {})[fichero] = z.read(info)
                break
    return importados


def canvas_importa(ruta):
    """(título de la tarea, puntos posibles, {ID de Canvas: nota o None}) del CSV subido al libro de calificaciones
    de Canvas (app/models/gradebook_importer.rb: cabecera, fila «Points Possible», coma decimal a punto)."""
    with open(ruta, newline="", encoding="utf-8") as f:
        filas_ = list(csv.reader(f))
    cabecera = filas_[0]
    assert len(cabecera) > 3 and "Student" in cabecera[0] and "ID" in cabecera[1], cabecera
    columnas = 3
    if "SIS User ID" in cabecera[2] and "SIS Login ID" in cabecera[3]:
        columnas += 2
    assert "Section" in cabecera[columnas - 1], "Canvas no la importa: «Invalid header row»"
    tareas = cabecera[columnas:]
    assert len(tareas) == 1, tareas
    puntos, notas = None, {}
    for fila in filas_[1:]:
        if "Points Possible" in fila[0]:
            puntos = float(fila[columnas])
            continue
        valor = fila[columnas].strip()
        if re.fullmatch(r"-?[0-9.,]+%?", valor):  # el conversor decimal_comma_to_period
            partes = re.split(r"[,.]", valor)
            valor = "".join(partes[:-1]) + "." + partes[-1] if len(partes) > 1 else partes[0]
        assert fila[1].isdigit(), fila  # el ID de Canvas del estudiante: por él se le encuentra
        assert fila[1] not in notas
        notas[fila[1]] = float(valor) if valor else None
    return tareas[0], puntos, notas
