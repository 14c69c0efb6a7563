"""El intercambio de nbgrader (el camino del hub) sin fiarse de lo que los estudiantes escriben en él.

Con el intercambio de nbgrader, cada estudiante deja su entrega en `<intercambio>/<curso>/inbound/`,
en una carpeta que se llama `<estudiante>+<tarea>+<hora>+<azar>`. El `nbgrader collect` de serie se
fía de ese nombre: cualquiera entrega a nombre de otro (`nbgrader submit --student=…`), adelanta su
hora con el nombre o con `timestamp.txt`, hace que se copien a su entrega las soluciones del
profesor con un enlace simbólico, o para la recogida de toda la clase con un bucle de enlaces.

`RecogidaDelIntercambio` (`ExchangeFactory.collect` en nbgrader_config.py) recoge así:

- **Quién**: la carpeta es del estudiante que la creó, según el sistema de ficheros (su dueño, el uid);
  una que dice ser de otro, o de alguien que no está en el roster del gradebook, se aparta con una
  línea en español, y no compite con las del estudiante al que nombra.
- **Cuándo**: la hora de la entrega es la del último cambio (ctime) de la carpeta y de lo que se
  recoge de ella, que el estudiante no puede poner antes (nadie salvo root cambia un ctime hacia
  atrás); nunca la del nombre ni la de su `timestamp.txt`. Se escribe la nuestra en `submitted/`.
- **Qué**: solo los cuadernos de la tarea (los de release/) y su `submission_secret.txt`, si son
  ficheros normales del propio estudiante y caben en sus topes; nada se abre siguiendo un enlace, así
  que ni las soluciones ni un bucle llegan a la recogida. Si no queda cuaderno, la entrega queda
  «no corregida» con el motivo (como en el camino del LMS).
- **Sin parar a nadie**: lo que falle con una carpeta (permisos, tipos raros) solo aparta esa carpeta.
  Los nombres se escriben escapados (sin caracteres de control) en la terminal y en el registro.

Además, la carpeta del curso del intercambio tiene que ser del profesor (si no, nada se recoge: alguien
la ha cambiado) y el intercambio, tener el bit «sticky» (si no, se avisa), para que un estudiante no
pueda renombrarla ni cambiarla por otra. `PublicarTarea` y `PublicarRetroalimentacion` son las de
nbgrader, y además ponen el bit «sticky» en `inbound/` (nadie borra ni renombra la entrega de otro) y
publican los plazos de entrega para la pestaña «Tareas» (course/hub/plazos.py), como la recogida.
"""

import datetime
import os
import pwd
import re
import secrets
import shutil
import stat
import tempfile

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.exchange.abc import ExchangeCollect as ABCExchangeCollect
from nbgrader.exchange.default import Exchange, ExchangeReleaseAssignment, ExchangeReleaseFeedback

from . import NO_CORREGIDO, limites
from .hub.plazos import escribir_plazos

SECRETO = "submission_secret.txt"
SELLO_DE_HORA = "timestamp.txt"
FORMATO_DE_HORA = "%Y-%m-%d %H:%M:%S.%f UTC"  # el de `nbgrader submit`, en UTC
_SECRETO_VALIDO = re.compile(r"[0-9a-f]{32,256}")


def visible(texto, largo=120):
    """Un nombre que viene de un estudiante, para una terminal, un registro o una página: los caracteres
    de control, de formato y los bytes que no son texto, escritos como escapes (\\n, \\x1b, \\udcff…)."""
    limpio = "".join(c if c.isprintable() and c != "\\" else c.encode("unicode_escape", "backslashreplace").decode("ascii")
                     for c in str(texto))
    return limpio if len(limpio) <= largo else limpio[:largo - 1] + "…"


def _usuario(uid):
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return None


def _hora(ns):
    """La hora (naive, en UTC, como las de nbgrader) de un st_ctime_ns."""
    return datetime.datetime.fromtimestamp(ns / 1e9, datetime.timezone.utc).replace(tzinfo=None)


class _Entrega:
    """Una carpeta de inbound/ que es de la tarea, con su estudiante ya comprobado."""

    def __init__(self, nombre, estudiante, uid, hora):
        self.nombre, self.estudiante, self.uid, self.hora = nombre, estudiante, uid, hora


class RecogidaDelIntercambio(Exchange, ABCExchangeCollect):
    """`nbgrader collect` que atribuye cada entrega por su dueño en el sistema y la fecha por su ctime."""

    # ------------------------------------------------------------------ qué hay

    def init_src(self):
        curso, tarea = self.coursedir.course_id, self.coursedir.assignment_id
        if not curso:
            self.fail("Falta el identificador del curso: ponlo en nbgrader_config.py (CourseDirectory.course_id) "
                      "o usa --course.")
        self.course_path = os.path.join(self.root, curso)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        self._comprobar_el_intercambio()
        with Gradebook(self.coursedir.db_url, curso) as gb:
            self.roster = {s.id for s in gb.students}
            try:
                self.duedate = gb.find_assignment(tarea).duedate
            except MissingEntry:
                self.duedate = None
        if not self.roster:
            self.log.warning("El gradebook no tiene estudiantes: todas las entregas se apartan. Importa el roster "
                             "(nbgrader db student import roster.csv) y recoge otra vez.")
        self.cuadernos = self._cuadernos_de_la_tarea()
        solo = self.coursedir.student_id if self.coursedir.student_id not in ("", "*") else None
        separador = "+" + tarea + "+"
        por_estudiante = {}
        with os.scandir(self.inbound_path) as carpetas:
            nombres = sorted(c.name for c in carpetas)
        for nombre in nombres:
            estudiante, hay, _ = nombre.partition(separador)
            if not hay or (solo is not None and estudiante != solo):
                continue  # de otra tarea, o de otro estudiante que el pedido
            try:
                entrega, motivo = self._mirar(nombre, estudiante)
            except OSError as error:
                entrega, motivo = None, "no se puede mirar (%s)" % visible(error.strerror or error)
            if motivo:
                self.log.warning("Entrega apartada, sin recoger: «%s»: %s. Las demás se recogen.", visible(nombre), motivo)
                continue
            por_estudiante.setdefault(estudiante, []).append(entrega)
        self.src_records = [self._elegir(entregas) for _, entregas in sorted(por_estudiante.items())]

    def _comprobar_el_intercambio(self):
        """La carpeta del curso y su inbound/, carpetas de verdad y del profesor; el intercambio, con el bit «sticky»."""
        for carpeta in (self.course_path, self.inbound_path):
            try:
                info = os.lstat(carpeta)
            except FileNotFoundError:
                self.fail("No hay entregas que recoger: falta %s (¿se ha publicado la tarea con "
                          "nbgrader release_assignment?)" % carpeta)
            if not stat.S_ISDIR(info.st_mode):
                self.fail("%s no es una carpeta (¿un enlace?): alguien la ha cambiado; no se recoge nada. "
                          "Mírala antes de seguir." % carpeta)
            if not self.coursedir.groupshared and info.st_uid != os.geteuid():
                self.fail("%s no es tuya (es de «%s»): alguien la ha cambiado; no se recoge nada. Mírala antes de "
                          "seguir." % (carpeta, visible(_usuario(info.st_uid) or info.st_uid)))
        if not os.stat(self.root).st_mode & stat.S_ISVTX:
            self.log.warning("El intercambio %s no tiene el bit «sticky»: un estudiante podría renombrar la carpeta del "
                             "curso y poner otra en su lugar. Arréglalo con: chmod +t %s", self.root, self.root)
        _con_sticky(self.inbound_path, self.log)

    def _cuadernos_de_la_tarea(self):
        """Los nombres de los cuadernos de la tarea (los de release/); si no está, se acepta cualquier .ipynb."""
        publicada = self.coursedir.format_path(self.coursedir.release_directory, ".", self.coursedir.assignment_id)
        try:
            return {n for n in os.listdir(publicada) if n.endswith(".ipynb")} or None
        except OSError:
            return None

    def _mirar(self, nombre, estudiante):
        """(la entrega, None) o (None, por qué se aparta) de la carpeta `nombre` de inbound/."""
        if estudiante not in self.roster:
            return None, "«%s» no está en el roster del curso (el gradebook)" % visible(estudiante)
        ruta = os.path.join(self.inbound_path, nombre)
        info = os.lstat(ruta)
        if stat.S_ISLNK(info.st_mode):
            return None, "es un enlace simbólico, no una carpeta"
        if not stat.S_ISDIR(info.st_mode):
            return None, "no es una carpeta"
        dueno = _usuario(info.st_uid)
        if dueno != estudiante:
            return None, "dice ser de «%s», pero la ha creado «%s»" % (
                visible(estudiante), visible(dueno if dueno is not None else "uid %d" % info.st_uid))
        return _Entrega(nombre, estudiante, info.st_uid, self._hora_de(ruta)), None

    def _hora_de(self, ruta):
        """El ctime más reciente de la carpeta y de los ficheros que se recogerían de ella (sin seguir enlaces)."""
        ultima = os.lstat(ruta).st_ctime_ns
        for nombre in self._que_se_recoge():
            try:
                ultima = max(ultima, os.lstat(os.path.join(ruta, nombre)).st_ctime_ns)
            except OSError:
                pass
        return _hora(ultima)

    def _que_se_recoge(self):
        return [*(sorted(self.cuadernos) if self.cuadernos else []), SECRETO]

    def _elegir(self, entregas):
        """La entrega que cuenta de un estudiante: la última; con --before-duedate, la última dentro de plazo."""
        entregas = sorted(entregas, key=lambda e: e.hora, reverse=True)
        if self.before_duedate and self.duedate is not None:
            a_tiempo = [e for e in entregas if e.hora <= self.duedate]
            if a_tiempo:
                return a_tiempo[0]
        return entregas[0]

    def init_dest(self):
        pass

    # ------------------------------------------------------------------ recoger

    def copy_files(self):
        tarea = self.coursedir.assignment_id
        if not self.src_records:
            self.log.warning("No hay entregas de «%s» que recoger.", tarea)
        else:
            self.log.info("Recogiendo %d entregas de «%s».", len(self.src_records), tarea)
        for entrega in self.src_records:
            try:
                self._recoger(entrega)
            except OSError as error:
                self.log.error("No se ha podido recoger la entrega de %s: %s. Las demás se recogen.",
                               entrega.estudiante, visible(error))
        publicar_plazos(self)

    def _recoger(self, entrega):
        destino = self.coursedir.format_path(self.coursedir.submitted_directory, entrega.estudiante,
                                             self.coursedir.assignment_id)
        if os.path.isdir(destino):
            try:
                anterior = self.coursedir.get_existing_timestamp(destino)
            except Exception:  # un timestamp.txt roto en submitted/: se rehace con --update
                anterior = None
            nueva = (self.update and (anterior is None or entrega.hora > anterior)) or (
                self.before_duedate and anterior != entrega.hora)
            if not nueva:
                self.log.info("%s: ya recogida%s.", entrega.estudiante,
                              "; no hay una más nueva" if self.update else " (con --update se cambia por la más nueva)")
                return
        ficheros, hora, problemas = self._leer(entrega)
        for problema in problemas:
            self.log.warning("%s, «%s»: %s.", entrega.estudiante, visible(entrega.nombre), problema)
        os.makedirs(os.path.dirname(destino), exist_ok=True)
        nueva = tempfile.mkdtemp(prefix=".recogiendo-", dir=os.path.dirname(destino))
        try:
            if not any(n.endswith(".ipynb") for n in ficheros):
                motivo = "; ".join(problemas) or "no hay ningún cuaderno de la tarea en la entrega"
                ficheros[NO_CORREGIDO] = (motivo + "\n").encode("utf-8")
            if SECRETO not in ficheros:
                # release_feedback lo necesita para nombrar su retroalimentación: sin él fallaría para toda la clase.
                ficheros[SECRETO] = secrets.token_hex(64).encode("ascii")
            ficheros[SELLO_DE_HORA] = hora.strftime(FORMATO_DE_HORA).encode("ascii")
            for nombre, datos in ficheros.items():
                with open(os.path.join(nueva, nombre), "wb") as f:
                    f.write(datos)
            os.chmod(nueva, 0o755)
            if os.path.lexists(destino):
                shutil.rmtree(destino) if os.path.isdir(destino) and not os.path.islink(destino) else os.remove(destino)
            os.rename(nueva, destino)
        finally:
            shutil.rmtree(nueva, ignore_errors=True)
        self.log.info("Recogida la entrega de %s (%s).", entrega.estudiante, hora.strftime("%Y-%m-%d %H:%M:%S UTC"))

    def _leer(self, entrega):
        """({nombre: bytes} de lo que se recoge, la hora de la entrega, [problemas]) de la carpeta de `entrega`.

        Todo se abre desde la carpeta ya abierta, sin seguir enlaces, y la hora se vuelve a mirar después de
        leer: un cambio durante la recogida solo puede hacerla más tarde."""
        ruta = os.path.join(self.inbound_path, entrega.nombre)
        try:
            carpeta = os.open(ruta, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError as error:
            return {}, entrega.hora, ["la carpeta entregada no se puede abrir (%s)" % visible(error.strerror)]
        ficheros, problemas = {}, []
        try:
            ultima = os.fstat(carpeta).st_ctime_ns
            try:
                presentes = set(os.listdir(carpeta))
            except OSError as error:
                return {}, entrega.hora, ["la carpeta entregada no se puede leer (%s)" % visible(error.strerror)]
            if self.cuadernos:
                faltan = sorted(self.cuadernos - presentes)
                problemas += ["falta «%s»" % n for n in faltan]
                buscados = sorted(self.cuadernos & presentes)
            else:  # sin release/: cualquier cuaderno con un nombre normal
                buscados = sorted(n for n in presentes if n.endswith(".ipynb") and n.isprintable() and n[:1] != ".")
            for nombre in buscados + ([SECRETO] if SECRETO in presentes else []):
                datos, problema, cambio = _leer_fichero(carpeta, nombre, entrega.uid)
                ultima = max(ultima, cambio or 0)
                if problema:
                    problemas.append("«%s» no se recoge: %s" % (visible(nombre), problema))
                elif nombre == SECRETO and not _SECRETO_VALIDO.fullmatch(datos.decode("ascii", "replace").strip()):
                    problemas.append("su %s no es el de nbgrader: su retroalimentación no le llegará por el "
                                     "intercambio" % SECRETO)
                else:
                    ficheros[nombre] = datos
            ultima = max(ultima, os.fstat(carpeta).st_ctime_ns)
        finally:
            os.close(carpeta)
        return ficheros, max(entrega.hora, _hora(ultima)), problemas


def _leer_fichero(carpeta, nombre, uid):
    """(bytes, None, ctime) de un fichero normal de `uid` dentro de la carpeta abierta, o (None, por qué no, ctime)."""
    tope = limites.SELLO if nombre == SECRETO else limites.CUADERNO_ENTREGADO
    try:
        fd = os.open(nombre, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=carpeta)
    except OSError as error:
        try:
            info = os.lstat(nombre, dir_fd=carpeta)
        except OSError:
            return None, "no se puede abrir", None
        return None, "es un enlace simbólico" if stat.S_ISLNK(info.st_mode) else "no se puede abrir (%s)" % visible(
            error.strerror), info.st_ctime_ns
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, "no es un fichero normal", info.st_ctime_ns
        if info.st_uid != uid:
            return None, "no lo ha creado quien entrega (es de «%s»)" % visible(_usuario(info.st_uid) or info.st_uid), \
                info.st_ctime_ns
        datos = f.read(tope + 1)
        cambio = os.fstat(fd).st_ctime_ns
    if len(datos) > tope:
        return None, "ocupa más de %d bytes" % tope, cambio
    return datos, None, cambio


def _con_sticky(carpeta, log):
    """El bit «sticky» en `carpeta` (si es del que ejecuta): nadie borra ni renombra lo que no es suyo."""
    try:
        info = os.lstat(carpeta)
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & stat.S_ISVTX:
            os.chmod(carpeta, stat.S_IMODE(info.st_mode) | stat.S_ISVTX)
    except OSError as error:
        log.warning("No se ha podido poner el bit «sticky» en %s: %s", carpeta, error)


def publicar_plazos(intercambio):
    """El plazos.json del curso en el intercambio, con las fechas de entrega del gradebook (course/hub/plazos.py)."""
    carpeta = os.path.join(intercambio.root, intercambio.coursedir.course_id)
    try:
        if os.lstat(carpeta).st_uid != os.geteuid():
            return
        with Gradebook(intercambio.coursedir.db_url, intercambio.coursedir.course_id) as gb:
            plazos = {t.name: t.duedate for t in gb.assignments}
        escribir_plazos(carpeta, plazos)
    except Exception as error:  # sin plazos publicados, la pestaña Tareas no los enseña: nada más
        intercambio.log.warning("No se han podido publicar los plazos de entrega en %s: %s", carpeta, error)


class PublicarTarea(ExchangeReleaseAssignment):
    """`nbgrader release_assignment`, y además el bit «sticky» en inbound/ y los plazos publicados."""

    def copy_files(self):
        super().copy_files()
        _con_sticky(os.path.join(self.root, self.coursedir.course_id, "inbound"), self.log)
        publicar_plazos(self)


class PublicarRetroalimentacion(ExchangeReleaseFeedback):
    """`nbgrader release_feedback`, y además los plazos publicados."""

    def copy_files(self):
        super().copy_files()
        publicar_plazos(self)
