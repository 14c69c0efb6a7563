"""`nbgrader zip_collect` con las descargas de Moodle y de Canvas: cada entrega, a quien la subió.

Dos complementos de nbgrader, enchufados en `nbgrader_config.py`:

- `ExtraerDelLMS` (`ZipCollectApp.extractor_plugin`) abre cada descarga del LMS de
  `downloaded/<tarea>/archive/` y reparte sus ficheros por participante, según el nombre que les
  pone el LMS: Moodle, «Nombre Apellidos_123456_assignsubmission_file/…» (en carpetas desde Moodle 4.1;
  «…_file_/…» de 3.1 a 4.0; sin carpetas, «…_file_cuaderno.ipynb»); Canvas,
  «apellidosnombre[_LATE]_12345_67890_….ipynb». El número es el del participante en el LMS,
  y se casa con la columna `lms_user_id` del roster; solo si no está, con el nombre (en cualquier
  escritura, sin mayúsculas, acentos ni signos), y un nombre que casa con varios no se adivina. Una
  descarga que no dice de quién es cada entrega (entregas en grupo de Moodle 4.1 o después,
  calificación anónima de Canvas) no se recoge, y se dice por qué. Lo que subió cada uno se abre
  aparte (también sus .zip, .tar y .gz, con topes de ficheros, de bytes, de razón de compresión y de
  anidamiento: course/limites.py) y de ahí se toma su cuaderno, se llame como se llame; su texto en
  línea cuenta como un fichero más de lo que subió. En `extracted/<estudiante>/` queda ese cuaderno
  con el nombre de la tarea o, si no hay cuaderno que corregir, `no-corregido.txt` con el motivo;
  nada más de lo que subió, así que ni un `timestamp.txt` suyo ni un archivo anidado llegan a otra
  carpeta. La hora de la entrega nunca depende de cuándo se descargó (course/horas.py): sale de la hoja de
  calificaciones de Moodle que se deja junto a la descarga, o de las fechas de sus ficheros si la descarga
  guarda la de cada uno (en la zona horaria `zona_horaria`), y se guarda como fecha de ese fichero; si no se
  sabe, queda `hora-desconocida.txt` con el porqué, y la entrega va sin hora y sin descuento por retraso.
- `RecolectorLMS` (`ZipCollectApp.collector_plugin`) lee esa carpeta para nbgrader, que deja cada
  entrega en `submitted/<estudiante>/<tarea>/` con su `timestamp.txt` (o, sin hora, con `hora-desconocida.txt`).

Un participante que no está en el roster, o cuyo nombre casa con varios, se recoge como
`lms-<número>` (dado de alta en el gradebook con el nombre del LMS), con un aviso: nunca en la fila
de otro. Una subida rota o sospechosa solo es problema de quien la subió.
"""

import csv
import datetime
import functools
import gzip
import io
import json
import os
import re
import tarfile
import unicodedata
import zipfile
from typing import NamedTuple, Optional
from zoneinfo import ZoneInfo

from nbgrader.api import Gradebook
from nbgrader.plugins import ExtractorPlugin, FileNameCollectorPlugin
from traitlets import Unicode

from . import HORA_DESCONOCIDA, NO_CORREGIDO, cuaderno, horas, limites

# Los nombres que ponen los LMS a cada fichero de su descarga (docs/lms.md dice de qué versión y de qué código sale
# cada forma). Moodle («Descargar todas las entregas») antepone «Nombre Apellidos_123456», con los «_» del nombre
# cambiados por espacios (así que el nombre nunca lleva «_»), y el complemento de entrega que guardó el fichero:
#   en carpetas, Moodle 4.1 y después:  «Nombre Apellidos_123456_assignsubmission_file/ruta/cuaderno.ipynb»
#   en carpetas, Moodle 3.1 a 4.0:      «Nombre Apellidos_123456_assignsubmission_file_/ruta/cuaderno.ipynb»
#   sin carpetas, todas las versiones:  «Nombre Apellidos_123456_assignsubmission_file_cuaderno.ipynb»
# (y «assignsubmission_onlinetext» para el texto en línea). Con entregas en grupo, desde Moodle 4.1 el prefijo es el
# del grupo, «Grupo A_<número del grupo>», o, para quien no tiene grupo, «Grupo predeterminado» sin número.
MOODLE = re.compile(r"^(?P<nombre>[^_/]*)_(?P<lms_id>\d+)_assignsubmission_(?P<tipo>[a-z][a-z0-9]*)"
                    r"(?P<carpeta>_?/|_)(?P<fichero>.+)\Z", re.S)
MOODLE_SIN_NUMERO = re.compile(r"^(?P<nombre>[^_/]*)_assignsubmission_(?P<tipo>[a-z][a-z0-9]*)(?:_?/|_).")
# Canvas («Download Submissions», lib/content_zipper.rb), sin carpetas: «apellidosnombre[_LATE]_12345_67890_x.ipynb»
# (número del estudiante, número del adjunto, nombre del fichero: «x-1.ipynb» si lo subió otra vez), «…_12345_text.html»
# y «…_12345_link.html» para texto y enlace; con calificación anónima, «[LATE_]anon_<código>_…», sin número. El número
# del estudiante es lo primero que es solo cifras entre «_», como lo lee el propio Canvas al subirle comentarios en un zip.
CANVAS = re.compile(r"^(?P<nombre>[^/]*?)(?P<tarde>_late)?_(?P<lms_id>\d+)_\d+_(?P<fichero>[^/]+)\Z", re.I)
CANVAS_TEXTO = re.compile(r"^(?P<nombre>[^/]*?)(?P<tarde>_late)?_(?P<lms_id>\d+)_(?P<fichero>(?:text|link)\.html)\Z",
                          re.I)
CANVAS_ANONIMA = re.compile(r"^(?:LATE_)?anon_[1-9A-HJ-NP-Za-km-z]{5}_")  # el código: 5 caracteres en base58
BLOQUE = 1024 * 1024


def normalizar(texto):
    """Un nombre para casarlo con otro: sin mayúsculas, acentos, espacios ni signos, en cualquier escritura.

    Pasa por mayúsculas antes de casefold para que dé lo mismo con el nombre en mayúsculas o en
    minúsculas (la ı sin punto del turco, en mayúscula, es una I).
    """
    return "".join(c for c in unicodedata.normalize("NFKD", texto.upper().casefold()) if c.isalnum())


def mostrar(texto, largo=80):
    """Un nombre que viene de una subida, para un mensaje: sin caracteres de control y acotado."""
    limpio = "".join(c if c.isprintable() else "?" for c in str(texto))
    return limpio if len(limpio) <= largo else limpio[:largo - 1] + "…"


# --------------------------------------------------------------------------- quién es quién

class Miembro(NamedTuple):
    """De quién es un fichero de la descarga del LMS, según el nombre que le ha puesto el LMS."""

    nombre: str            # el nombre del participante en el LMS
    numero: Optional[str]  # su número en el LMS; None si la descarga no lo dice
    ruta: str              # dónde está el fichero dentro de lo que subió
    subido: bool           # un fichero que subió (no el texto en línea que el LMS escribe al descargar)
    sin_numero: Optional[str] = None  # por qué la descarga no dice quién es, cuando no lo dice


def participante(nombre_del_miembro):
    """El Miembro de un fichero de la descarga del LMS, por su nombre; None si no es de ninguna entrega."""
    hallado = MOODLE.match(nombre_del_miembro)
    if hallado:
        return Miembro(hallado["nombre"], hallado["lms_id"], hallado["fichero"], hallado["tipo"] == "file")
    hallado = MOODLE_SIN_NUMERO.match(nombre_del_miembro)
    if hallado:
        return Miembro(hallado["nombre"], None, nombre_del_miembro, hallado["tipo"] == "file",
                       "una tarea de Moodle con entregas en grupo: desde Moodle 4.1 cada carpeta lleva el nombre y el "
                       "número del grupo, no los de quien entregó, y los que no tienen grupo van juntos, sin número")
    if CANVAS_ANONIMA.match(nombre_del_miembro):
        return Miembro("", None, nombre_del_miembro, True, "una tarea de Canvas con calificación anónima: "
                       "cada entrega lleva un código en lugar del número y del nombre del estudiante")
    hallado = CANVAS.match(nombre_del_miembro)
    if hallado:
        return Miembro(hallado["nombre"], hallado["lms_id"], hallado["fichero"], True)
    hallado = CANVAS_TEXTO.match(nombre_del_miembro)
    if hallado:
        return Miembro(hallado["nombre"], hallado["lms_id"], hallado["fichero"], False)
    return None


def forma(nombre_del_miembro):
    """(forma, si Canvas la marca tarde) del nombre de un fichero de la descarga, que dice qué fecha lleva en el zip:
    horas.MOODLE_41, MOODLE_31, MOODLE_PLANO o CANVAS; (None, False) si no es de ninguna entrega con número."""
    hallado = MOODLE.match(nombre_del_miembro)
    if hallado:
        return {"/": horas.MOODLE_41, "_/": horas.MOODLE_31}.get(hallado["carpeta"], horas.MOODLE_PLANO), False
    if not CANVAS_ANONIMA.match(nombre_del_miembro) and not MOODLE_SIN_NUMERO.match(nombre_del_miembro):
        hallado = CANVAS.match(nombre_del_miembro) or CANVAS_TEXTO.match(nombre_del_miembro)
        if hallado:
            return horas.CANVAS, bool(hallado["tarde"])
    return None, False


def asignar(participantes, roster):
    """{número del LMS: (id del estudiante, aviso o None)} para los participantes {número: nombre del LMS}.

    `roster`: (id, nombre, apellidos, lms_user_id) de cada estudiante del gradebook. Primero por
    número; si no, por nombre, entre los estudiantes sin número (otro con número no es él); un
    nombre que casa con varios, o dos participantes que casan con el mismo, no se adivinan.
    """
    por_numero = {}
    for id_, _, _, lms in roster:
        if lms:
            por_numero.setdefault(str(lms).strip(), []).append(id_)
    sin_numero = [(id_, {normalizar((n or "") + (a or "")), normalizar((a or "") + (n or ""))} - {""})
                  for id_, n, a, lms in roster if not lms and not id_.startswith("lms-")]
    ids = {id_ for id_, *_ in roster}
    asignados, por_nombre = {}, {}
    for numero, nombre in participantes.items():
        if len(por_numero.get(numero, [])) == 1:
            asignados[numero] = (por_numero[numero][0], None)
            continue
        buscado = normalizar(nombre)
        casan = [id_ for id_, formas in sin_numero if buscado and buscado in formas]
        if len(casan) == 1:
            por_nombre.setdefault(casan[0], []).append(numero)
        nuevo = "lms-" + numero
        if len(por_numero.get(numero, [])) > 1:
            aviso = "el número %s está en el roster de varios estudiantes (%s)" % (numero, ", ".join(por_numero[numero]))
        elif len(casan) > 1:
            aviso = "«%s» casa con varios estudiantes del roster (%s)" % (mostrar(nombre), ", ".join(casan))
        elif not casan:
            aviso = "«%s» (número %s) no está en el roster" % (mostrar(nombre), numero)
        else:
            aviso = None
        asignados[numero] = (nuevo, aviso)
    for id_, numeros in por_nombre.items():
        for numero in numeros:
            if len(numeros) == 1:
                asignados[numero] = (id_, None)
            else:
                asignados[numero] = ("lms-" + numero, "varios participantes (%s) casan con %s del roster"
                                     % (", ".join(numeros), id_))
    for numero, (id_, aviso) in list(asignados.items()):
        if aviso and id_ in ids and id_.startswith("lms-"):
            asignados[numero] = (id_, None)  # ya se dio de alta en una recogida anterior
    return asignados


# --------------------------------------------------------------------------- abrir con topes

class SubidaRechazada(Exception):
    """Algo que un estudiante subió no se abre (roto, bomba, demasiado grande): el mensaje dice por qué."""


class TopeDeLaSubida(SubidaRechazada):
    """Lo que subió un participante, entero, pasa de un tope: no se sigue leyendo nada suyo."""


ARCHIVOS = (".zip", ".gz", ".tgz", ".tar")


class Subida:
    """Lo que subió un participante, leído con topes: sus cuadernos y lo que no se ha podido abrir."""

    def __init__(self, nombre):
        self.nombre = nombre
        self.fecha_fiable = None   # la más tardía de sus ficheros subidos, de una descarga que guarda la de cada uno
        self.por_que_no = None     # por qué las fechas de sus ficheros en la descarga no son las de su entrega
        self.de_moodle = self.tarde_en_canvas = False
        self.hora = horas.Hora(None, None, None)  # la de su entrega, cuando se han leído todas las descargas
        self.cuadernos, self.rechazos, self.vistos = [], [], []
        self.ficheros, self.bytes = limites.ENTRADAS_DE_SUBIDA, limites.BYTES_DE_SUBIDA
        self.comprimido = 0  # los bytes que subió, tal como están en la descarga del LMS
        self.expandido = 0   # los bytes que ha añadido descomprimir lo que subió
        self.agotada = None

    def fechar(self, hora, subido, forma, por_que_no):
        """Cuenta la fecha de un fichero de la descarga. Solo es la de su entrega si lo subió (el texto en línea lo
        escribe el LMS al descargar) y si la descarga guarda la de cada fichero (`por_que_no`, si no)."""
        self.de_moodle = self.de_moodle or forma != horas.CANVAS
        if not subido:
            self.por_que_no = self.por_que_no or "su texto en línea lleva la hora de la descarga"
        elif por_que_no:
            self.por_que_no = por_que_no
        else:
            self.fecha_fiable = max(self.fecha_fiable or hora, hora)

    def mirar(self, ruta, abrir, comprimido, hora, profundidad=0):
        """Un fichero subido (`abrir()` da su contenido): un cuaderno se guarda; en un archivo se mira dentro."""
        if self.agotada or _es_basura(ruta):
            return
        try:
            self._mirar(ruta, abrir, comprimido, hora, profundidad)
        except TopeDeLaSubida as e:
            self.agotada = str(e)
        except SubidaRechazada as e:
            self.rechazos.append(str(e))
        except Exception as e:  # zipfile, tarfile, gzip y zlib fallan de muchas maneras con un archivo roto
            self.rechazos.append("«%s» no se puede abrir: está roto o cortado (%s)" % (mostrar(ruta), type(e).__name__))

    def _mirar(self, ruta, abrir, comprimido, hora, profundidad):
        self.ficheros -= 1
        if self.ficheros < 0:
            raise TopeDeLaSubida("lo que subiste tiene más de %d ficheros (contando los de dentro de tus archivos)"
                                 % limites.ENTRADAS_DE_SUBIDA)
        if len(self.vistos) < 5:
            self.vistos.append(ruta)
        cuaderno = ruta.lower().endswith(".ipynb")
        with abrir() as f:
            cabeza = f.read(512)
            tipo = _tipo(cabeza)
            if not cuaderno and tipo is None:
                if ruta.lower().endswith(ARCHIVOS):
                    raise SubidaRechazada("«%s» no es un archivo .zip, .tar ni .gz que se pueda abrir" % mostrar(ruta))
                return  # otro fichero cualquiera: ni se lee
            if not cuaderno and profundidad >= limites.PROFUNDIDAD_DE_ARCHIVOS:
                raise SubidaRechazada("«%s» está dentro de demasiados archivos, uno dentro de otro" % mostrar(ruta))
            tope = limites.CUADERNO_ENTREGADO if cuaderno else limites.ARCHIVO_ANIDADO
            datos = self._leer(f, cabeza, tope, comprimido, ruta)
        if cuaderno:
            self.cuadernos.append((ruta, hora, datos))
        elif tipo == "zip":
            with zipfile.ZipFile(io.BytesIO(datos)) as z:
                if len(z.infolist()) > self.ficheros:
                    raise TopeDeLaSubida("«%s» tiene %d ficheros: más de los %d que se miran de una entrega"
                                         % (mostrar(ruta), len(z.infolist()), limites.ENTRADAS_DE_SUBIDA))
                for info in z.infolist():
                    if not info.is_dir():
                        self.mirar(ruta + "/" + nombre_del_miembro(info), functools.partial(z.open, info),
                                   info.compress_size, hora, profundidad + 1)
        elif tipo == "gz":  # se descomprime entero (con topes) y se mira lo de dentro: un .tar o un fichero
            interno = re.sub(r"\.t?gz$", "", ruta, flags=re.I)
            interno += ".tar" if ruta.lower().endswith(".tgz") else ""
            tope = limites.CUADERNO_ENTREGADO if interno.lower().endswith(".ipynb") else tope
            with gzip.GzipFile(fileobj=io.BytesIO(datos)) as g:
                contenido = self._leer(g, b"", tope, len(datos), ruta)
            self.mirar(interno, functools.partial(io.BytesIO, contenido), len(contenido), hora, profundidad + 1)
        else:
            with tarfile.open(fileobj=io.BytesIO(datos), mode="r:") as t:
                for miembro in t:
                    if miembro.isreg():
                        self.mirar(ruta + "/" + miembro.name, functools.partial(t.extractfile, miembro),
                                   miembro.size, hora, profundidad + 1)
                    else:
                        self.ficheros -= 1

    def _leer(self, flujo, cabeza, tope, comprimido, ruta):
        """El contenido de `flujo` (tras `cabeza`, ya leída), o SubidaRechazada en cuanto pasa de un tope."""
        trozos, leidos = [cabeza], len(cabeza)
        self.bytes -= len(cabeza)
        while True:
            if self.bytes < 0:
                raise TopeDeLaSubida("lo que subiste ocupa más de %d MB descomprimido"
                                     % (limites.BYTES_DE_SUBIDA // limites.MIB))
            if leidos > tope:
                bomba = leidos > limites.RAZON_DE_COMPRESION * max(comprimido, 1)
                raise SubidaRechazada("«%s» ocupa más de %d MB descomprimido: se ha dejado sin abrir%s"
                                      % (mostrar(ruta), tope // limites.MIB,
                                         " (es una bomba de descompresión: %d veces lo que ocupa comprimido)"
                                         % (leidos // max(comprimido, 1)) if bomba else ""))
            # Lo que se ha expandido al descomprimir (volver a leer lo ya descomprimido, o un .tar, no expande).
            expandido = self.expandido + max(0, leidos - comprimido)
            if expandido > limites.RAZON_DESDE and expandido > limites.RAZON_DE_COMPRESION * max(self.comprimido, 1):
                raise TopeDeLaSubida("lo que subiste ocupa, descomprimido, más de %d MB y más de %d veces lo que ocupa "
                                     "comprimido: es una bomba de descompresión"
                                     % (limites.RAZON_DESDE // limites.MIB, limites.RAZON_DE_COMPRESION))
            trozo = flujo.read(BLOQUE)
            if not trozo:
                self.expandido = expandido
                return b"".join(trozos)
            leidos += len(trozo)
            self.bytes -= len(trozo)
            trozos.append(trozo)


def _es_basura(ruta):
    """Lo que añaden los compresores y Jupyter, que no es de la entrega: __MACOSX/, ._x, .ipynb_checkpoints/."""
    partes = ruta.split("/")
    return any(p in ("__MACOSX", ".ipynb_checkpoints") for p in partes) or partes[-1].startswith("._")


def _tipo(cabeza):
    """zip, gz o tar por los primeros bytes (no por el nombre, que elige quien sube); None si no es un archivo."""
    if cabeza[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if cabeza[:2] == b"\x1f\x8b":
        return "gz"
    if cabeza[257:262] == b"ustar":
        return "tar"
    return None


def nombre_del_miembro(info):
    """El nombre de un fichero de un .zip: en UTF-8 aunque el .zip no lo marque (como hacen muchos compresores)."""
    if info.flag_bits & 0x800:
        return info.filename
    try:
        return info.filename.encode("cp437").decode("utf-8")
    except UnicodeError:
        return info.filename


# --------------------------------------------------------------------------- qué cuaderno es

def ids_de_release(ruta):
    """Los grade_id del cuaderno de release: lo que distingue el cuaderno de la tarea de otro."""
    with open(ruta, encoding="utf-8") as f:
        nb = json.load(f)
    return {c.get("metadata", {}).get("nbgrader", {}).get("grade_id") for c in nb.get("cells", [])} - {None}


def _parecido(datos, ids):
    """Cuántas celdas de la tarea (por su grade_id) tiene un cuaderno subido; -1 si no es un cuaderno."""
    try:
        nb = json.loads(datos.decode("utf-8"))
        return len(ids & {c["metadata"]["nbgrader"]["grade_id"] for c in nb["cells"]
                          if isinstance(c, dict) and isinstance(c.get("metadata"), dict)
                          and isinstance(c["metadata"].get("nbgrader"), dict)
                          and isinstance(c["metadata"]["nbgrader"].get("grade_id"), str)})
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return -1


def elegir_cuaderno(candidatos, ids):
    """(bytes del cuaderno que se corrige, None) o (None, motivo). `candidatos`: [(ruta, hora, bytes)].

    Si hay uno, ese, se llame como se llame; si hay varios, el que tiene más celdas de la tarea
    (`ids`, sus grade_id); entre los que empatan, el más reciente; si aún empatan, no se adivina.
    """
    if not candidatos:
        return None, None
    if len(candidatos) == 1:
        return candidatos[0][2], None
    puntuados = sorted(((_parecido(d, ids), hora, ruta, d) for ruta, hora, d in candidatos),
                       key=lambda p: (p[0], p[1]), reverse=True)
    mejor = puntuados[0]
    empatados = [p for p in puntuados if (p[0], p[1]) == (mejor[0], mejor[1]) and p[3] != mejor[3]]
    if mejor[0] <= 0 or empatados:
        return None, ("hay %d cuadernos y no se sabe cuál es la entrega: %s"
                      % (len(candidatos), ", ".join("«%s»" % mostrar(r, 60) for _, _, r, _ in puntuados[:5])))
    return mejor[3], None


# --------------------------------------------------------------------------- los complementos de nbgrader

class ExtraerDelLMS(ExtractorPlugin):
    """El extractor de `nbgrader zip_collect`: de cada descarga del LMS, un cuaderno (o un motivo) por participante."""

    zona_horaria = Unicode("Europe/Madrid", help="Zona horaria de las horas que guarda el .zip del LMS.").tag(config=True)

    def extract(self, archive_path, extracted_path):
        coursedir = self.parent.coursedir
        nombre = cuaderno(coursedir.assignment_id)
        release = os.path.join(coursedir.format_path(coursedir.release_directory, ".", coursedir.assignment_id), nombre)
        ids = ids_de_release(release) if os.path.exists(release) else set()
        subidas = self._leer_descargas(archive_path)
        self._poner_horas(subidas)
        with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
            roster = [(s.id, s.first_name, s.last_name, s.lms_user_id) for s in gb.students]
            asignados = asignar({n: s.nombre for n, s in subidas.items()}, roster)
            for numero, subida in sorted(subidas.items()):
                estudiante, aviso = asignados[numero]
                if aviso:
                    self.log.warning("%s: se recoge como «%s». Para que cuente como suya, pon %s en la columna "
                                     "lms_user_id de su fila del roster, quita lo recogido a nombre de «%s» "
                                     "(nbgrader db student remove %s --force y la carpeta submitted/%s) y vuelve a "
                                     "recoger con --force.", aviso, estudiante, numero, estudiante, estudiante, estudiante)
                if not any(s.id == estudiante for s in gb.students):
                    gb.add_student(estudiante, first_name=mostrar(subida.nombre, 200))
                self._dejar(extracted_path, estudiante, subida, ids, nombre)

    def _leer_descargas(self, archive_path):
        """{número del LMS: Subida} de todas las descargas de archive/; las hojas de calificaciones (.csv), aparte."""
        subidas, self.hojas = {}, []
        for raiz, carpetas, ficheros in os.walk(archive_path):
            carpetas.sort()
            for fichero in sorted(ficheros):
                if fichero.lower().endswith(".csv"):
                    self.hojas.append(os.path.join(raiz, fichero))
                    continue
                try:
                    with zipfile.ZipFile(os.path.join(raiz, fichero)) as z:
                        self._leer_descarga(z, fichero, subidas)
                except (zipfile.BadZipFile, OSError, EOFError) as e:
                    self.log.error("%s no es una descarga del LMS que se pueda abrir (%s): se salta. Las entregas "
                                   "van en el .zip que da el LMS, sin abrirlo.", fichero, e)
        return subidas

    def _leer_descarga(self, z, fichero, subidas):
        miembros = z.infolist()
        if len(miembros) > limites.ENTRADAS_DE_DESCARGA:
            self.log.error("%s tiene %d ficheros (el tope es %d): se salta.", fichero, len(miembros),
                           limites.ENTRADAS_DE_DESCARGA)
            return
        quienes = [(info, None if info.is_dir() else participante(nombre_del_miembro(info))) for info in miembros]
        sin_numero = [q for _, q in quienes if q is not None and q.numero is None]
        if sin_numero:
            # Un fichero sin número delata la descarga entera: en ella, ningún número es el de un estudiante.
            self.log.error("%s es de %s (por ejemplo, «%s»). Esta descarga no dice de quién es cada entrega, y "
                           "aquí no se adivina: no se recoge nada de ella. Copia cada cuaderno a mano a "
                           "submitted/<estudiante>/%s/ (docs/lms.md).", fichero, sin_numero[0].sin_numero,
                           mostrar(sin_numero[0].ruta), self.parent.coursedir.assignment_id)
            return
        # Qué dicen de la hora las fechas de esta descarga: las de cada entrega, o la del momento de descargarla.
        entradas = [(info, quien, forma(nombre_del_miembro(info)), fecha_del_zip(info.date_time, self.zona_horaria))
                    for info, quien in quienes if quien is not None]
        de_descarga = horas.fechas_de_descarga([horas.Entrada(f, q.numero, h, q.subido) for _, q, (f, _), h in entradas])
        for por_que in sorted(set(de_descarga.values())):
            self.log.warning("%s: sus fechas no son las de cada entrega: %s. No se usan para el descuento por retraso.",
                             fichero, por_que)
        for info, quien in quienes:
            if quien is None and not info.is_dir():
                self.log.warning("%s: «%s» no parece una entrega de Moodle ni de Canvas: se salta.",
                                 fichero, mostrar(nombre_del_miembro(info)))
        for info, quien, (forma_, tarde), hora in entradas:
            subida = subidas.setdefault(quien.numero, Subida(quien.nombre))
            por_que_no = de_descarga.get(forma_)
            if quien.subido and not por_que_no:
                hora = fecha_del_zip(info.date_time, self.zona_horaria, self.log)  # ahora sí, con su aviso si es dudosa
            subida.fechar(hora, quien.subido, forma_, por_que_no)
            subida.tarde_en_canvas = subida.tarde_en_canvas or tarde
            subida.comprimido += info.compress_size
            subida.mirar(quien.ruta, functools.partial(z.open, info), info.compress_size, hora)

    def _poner_horas(self, subidas):
        """La hora de la entrega de cada participante (course/horas.py): de las hojas de calificaciones de Moodle que
        haya junto a las descargas, de las fechas de la descarga si son las de cada entrega, o ninguna, diciendo por
        qué y cómo darla."""
        de_moodle = {n for n, s in subidas.items() if s.de_moodle}
        hojas = horas.Hojas()
        for ruta in self.hojas:
            fichero = os.path.basename(ruta)
            with open(ruta, "rb") as f:
                hoja, problema = horas.leer_hoja(f.read(limites.HOJA_DE_CALIFICACIONES + 1), self.zona_horaria)
            if problema is None and os.path.getsize(ruta) > limites.HOJA_DE_CALIFICACIONES:
                problema = "ocupa más de %d MB" % (limites.HOJA_DE_CALIFICACIONES // limites.MIB)
            if problema is None and de_moodle and not de_moodle & (set(hoja.horas) | set(hoja.malas)):
                problema = ("ninguno de sus %d participantes tiene entrega en las descargas de Moodle de esta carpeta: "
                            "¿es la de otra tarea?" % len(set(hoja.horas) | set(hoja.malas)))
            if problema:
                self.log.error("%s no es una hoja de calificaciones de Moodle que se pueda usar: %s. No se toma ninguna "
                               "hora de ella.", fichero, problema)
                continue
            hojas.sumar(fichero, hoja)
            for id_ in hoja.sin_participante[:5]:
                self.log.warning("%s: «%s» no es el identificador de un participante («Participante123456»): se salta "
                                 "su fila.", fichero, mostrar(id_))
            self.log.info("%s: la hora de %d entregas, de su columna «Última modificación (entrega)».", fichero,
                          sum(h is not None for h in hoja.horas.values()))
        for numero, subida in subidas.items():
            subida.hora = horas.elegir(numero, subida.de_moodle, hojas, subida.fecha_fiable, subida.por_que_no,
                                       subida.tarde_en_canvas)
        sin_hora = sorted(n for n, s in subidas.items() if s.hora.hora is None)
        if hojas.leidas:
            for numero in sin_hora:
                if subidas[numero].de_moodle:
                    self.log.warning("%s (número %s): sin hora de entrega: %s.", mostrar(subidas[numero].nombre),
                                     numero, subidas[numero].hora.sin_hora)
        if sin_hora:
            self.log.warning("%s sin hora, y sin descuento por retraso (el informe dice por qué). %s.",
                             "1 entrega se recoge" if len(sin_hora) == 1 else "%d entregas se recogen" % len(sin_hora),
                             horas.COMO_DAR_LAS_HORAS.format(tarea=self.parent.coursedir.assignment_id))

    def _dejar(self, extracted_path, estudiante, subida, ids, nombre):
        """extracted/<estudiante>/ con su cuaderno (como `nombre`) o con el motivo de no tenerlo, fechado con la hora del LMS."""
        datos, motivo = (None, subida.agotada) if subida.agotada else elegir_cuaderno(subida.cuadernos, ids)
        if datos is None and motivo is None:
            motivo = "; ".join(subida.rechazos[:3]) or "no hay ningún cuaderno (.ipynb) en lo que subiste" + (
                " (hay: %s)" % ", ".join("«%s»" % mostrar(v, 60) for v in subida.vistos) if subida.vistos else "")
        for rechazo in subida.rechazos if datos is not None else []:
            self.log.warning("%s: %s (se corrige su cuaderno igualmente).", estudiante, rechazo)
        carpeta = os.path.join(extracted_path, estudiante)
        os.makedirs(carpeta, exist_ok=True)
        destino = os.path.join(carpeta, nombre if datos is not None else NO_CORREGIDO)
        with open(destino, "wb") as f:
            f.write(datos if datos is not None else (motivo + "\n").encode("utf-8"))
        if subida.hora.hora is None:  # sin hora: RecolectorLMS no la da, y el informe dice por qué
            with open(os.path.join(carpeta, HORA_DESCONOCIDA), "w", encoding="utf-8") as f:
                f.write(subida.hora.sin_hora + "\n")
        else:
            os.utime(destino, (subida.hora.hora.timestamp(), subida.hora.hora.timestamp()))
        if motivo:
            self.log.error("%s: sin cuaderno que corregir: %s.", estudiante, motivo)


def hora_del_lms(fecha, zona, log=None):
    """La hora en UTC de una fecha local del .zip del LMS (sin zona: el .zip no la guarda) en la zona `zona`.

    La noche del cambio de hora, una hora local puede existir dos veces (la que se repite en otoño) o
    ninguna (la que se salta en primavera). Se toma siempre la lectura más tardía de las dos: así nunca
    sale a tiempo una entrega que quizá llegó tarde (docs/amenazas.md).
    """
    hora, dudosa = horas.mas_tardia(fecha, zona)
    if dudosa and log is not None:
        log.warning("La hora %s del LMS cae en el cambio de hora de %s: se toma la más tardía de sus dos lecturas "
                    "(%s UTC), que nunca favorece a una entrega tardía.",
                    datetime.datetime(*fecha).strftime("%Y-%m-%d %H:%M:%S"), zona, hora.strftime("%Y-%m-%d %H:%M:%S"))
    return hora


def fecha_del_zip(fecha, zona, log=None):
    """La hora en UTC de la fecha `fecha` de una entrada de un zip: la más tardía que cabe en ella.

    Un zip guarda la fecha de cada fichero como MS-DOS, con los segundos de dos en dos (PHP y Python los
    redondean hacia abajo): un fichero de las 23:59:01 lleva 23:59:00. Se toma el segundo impar, el último
    de los dos, con la hora local leída como en `hora_del_lms`.
    """
    return hora_del_lms(fecha, zona, log) + datetime.timedelta(seconds=1 - fecha[5] % 2)


class RecolectorLMS(FileNameCollectorPlugin):
    """El recolector de `nbgrader zip_collect`: lee `extracted/<estudiante>/` tal como lo deja `ExtraerDelLMS`."""

    def collect(self, submitted_file):
        estudiante = os.path.basename(os.path.dirname(submitted_file))
        fichero = os.path.basename(submitted_file)
        if fichero not in (cuaderno(self.parent.coursedir.assignment_id), NO_CORREGIDO, HORA_DESCONOCIDA):
            self.log.warning("%s no lo ha dejado ExtraerDelLMS: se salta.", submitted_file)
            return None
        if fichero == HORA_DESCONOCIDA or os.path.exists(os.path.join(os.path.dirname(submitted_file), HORA_DESCONOCIDA)):
            return {"student_id": estudiante, "file_id": fichero}  # sin hora: sin timestamp.txt
        hora = datetime.datetime.fromtimestamp(os.stat(submitted_file).st_mtime, datetime.timezone.utc)
        return {"student_id": estudiante, "file_id": fichero, "timestamp": hora.strftime("%Y-%m-%d %H:%M:%S UTC")}


# --------------------------------------------------------------------------- el roster

SEPARADORES = (",", ";", "\t")


def leer_roster(datos):
    """(filas, None) o (None, por qué no se lee) de un roster en CSV: [{columna: valor}], sin filas vacías.

    Lo lee como lo guarde una hoja de cálculo: en UTF-8 con o sin BOM (Excel lo pone al guardar «CSV UTF-8»)
    o en UTF-16 con BOM («Texto Unicode»), con comas, puntos y comas (Excel en español) o tabuladores, y con
    finales de línea de Windows. Lo demás (otra codificación, sin columna `id`) no se adivina: se dice.
    """
    if datos.startswith((b"\xff\xfe", b"\xfe\xff")):
        codificacion = "utf-16"
    else:
        codificacion = "utf-8-sig"
    try:
        texto = datos.decode(codificacion)
    except UnicodeDecodeError:
        return None, ("no está en UTF-8: guárdalo desde la hoja de cálculo como «CSV UTF-8 (delimitado por comas)» "
                      "y vuelve a importarlo")
    lineas = texto.splitlines()
    cabecera = next((l for l in lineas if l.strip()), "")
    separador = max(SEPARADORES, key=cabecera.count)
    filas = list(csv.reader(io.StringIO(texto, newline=""), delimiter=separador))
    columnas = [c.strip() for c in (filas[0] if filas else [])]
    if "id" not in columnas:
        return None, ("su primera línea (%s) no tiene la columna «id»: la cabecera debe ser "
                      "id,first_name,last_name,email,lms_user_id" % mostrar(cabecera, 120))
    leidas = []
    for fila in filas[1:]:
        if not any(c.strip() for c in fila):
            continue
        if len(fila) > len(columnas) and any(c.strip() for c in fila[len(columnas):]):
            return None, ("la fila %s tiene más campos que la cabecera (¿un «%s» dentro de un nombre, sin comillas?)"
                          % (mostrar(separador.join(fila), 80), separador))
        leidas.append(dict(zip(columnas, fila)))
    return leidas, None
