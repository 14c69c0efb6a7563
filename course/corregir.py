"""`make grade`: la tarea de principio a fin, con nbgrader, en todos los núcleos.

    python -m course.corregir [--trabajos N] [--demo]

Regenera release/, corrige cada entrega de submitted/ y escribe su retroalimentación en
feedback/, repartiendo los estudiantes entre N procesos (por defecto, uno por núcleo y uno más;
también `TRABAJOS=N`), y después exporta las notas a exports/notas.csv y el informe de la clase a
exports/informe.html. Una barra de progreso dice qué estudiante se está corrigiendo y cuánto falta.

Lo que no hace falta pagar con cada entrega se paga una vez: cada proceso carga nbgrader y la
configuración del curso una sola vez y corrige con su API (la misma que usa el formgrader) una
entrega detrás de otra; la retroalimentación se genera en el mismo proceso, justo después; el
CSV y el informe, al final, sin lanzar más órdenes. Las notas son las de `nbgrader autograde`:
son sus preprocesadores, con la configuración del curso.

Un solo gradebook (SQLite) con varios procesos escribiendo: se pone en modo WAL, cada conexión
espera su turno hasta limites.ESPERA_AL_GRADEBOOK segundos, y una entrega que aun así choca con un
«database is locked» se vuelve a corregir. Una entrega que rompe algo no para a las demás.

Sin entregas en submitted/, se corrige un curso de demostración en demo/ (carpeta ignorada por
git, con su propio gradebook) con las entregas de ejemplo de course/ejemplos/: nunca se mezclan
con la clase de verdad. `make limpiar-demo` lo borra.
"""

import argparse
import logging
import multiprocessing
import os
import queue
import shutil
import sqlite3
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import NamedTuple

from . import CUADERNO, NO_CORREGIDO, RAIZ, TAREA, gradebook, limites, recoleccion
from .aislado import entrada
from .entregas import escribir_entrega, leer_ejemplo
from .grabaciones import CARPETA, GuionRechazado, conversaciones_grabadas

EJEMPLOS = Path(__file__).resolve().parent / "ejemplos"
DEMO = "demo"               # el curso de demostración, dentro de la raíz (ignorado por git)


def trabajos_por_defecto():
    """Uno por núcleo disponible, más uno (o lo que diga TRABAJOS).

    El de más llena el núcleo mientras otro proceso espera a que arranque el núcleo de Python de
    su entrega: medido con 40 entregas en 2 núcleos, 3 procesos tardan un 15 % menos que 2.
    """
    if os.environ.get("TRABAJOS"):
        return max(1, int(os.environ["TRABAJOS"]))
    try:
        nucleos = len(os.sched_getaffinity(0))
    except AttributeError:
        nucleos = os.cpu_count() or 1
    return nucleos + 1


# --------------------------------------------------------------------------- nbgrader en este proceso

class Curso:
    """nbgrader con la configuración del curso de `raiz`, cargado una vez en este proceso."""

    def __init__(self, raiz):
        from nbgrader.apps.api import NbGraderAPI
        from nbgrader.auth import Authenticator
        from nbgrader.coursedir import CourseDirectory
        from sqlalchemy.engine import make_url
        from traitlets.config import PyFileConfigLoader

        self.raiz = Path(raiz).resolve()
        url = make_url(gradebook(self.raiz))
        self.db = url.database  # el fichero, para ponerlo en modo WAL durante la corrección
        config = PyFileConfigLoader("nbgrader_config.py", path=str(self.raiz)).load_config()
        config.CourseDirectory.root = str(self.raiz)
        config.CourseDirectory.db_url = url.update_query_dict({"timeout": str(limites.ESPERA_AL_GRADEBOOK)}).render_as_string()
        # Con las salidas ya recogidas, el núcleo de cada entrega se cierra sin esperarlo.
        config.Execute.shutdown_kernel = "immediate"
        self.config = config
        # Los mensajes de nbgrader van al registro de cada entrega, no a la pantalla.
        self.log = logging.getLogger("curso.correccion")
        self.log.propagate = False
        if not self.log.handlers:
            self.log.addHandler(logging.NullHandler())
        self.log.setLevel(logging.INFO)
        self.coursedir = CourseDirectory(config=config, log=self.log)
        self.api = NbGraderAPI(self.coursedir, Authenticator(config=config, log=self.log),
                               config=config, log=self.log)

    def gradebook(self):
        from nbgrader.api import Gradebook
        return Gradebook(self.coursedir.db_url, self.coursedir.course_id)

    def generar_release(self):
        return self.api.generate_assignment(TAREA, force=True)

    def autocorregir(self, estudiante):
        for intento in range(limites.REINTENTOS):
            hecho = self.api.autograde(TAREA, estudiante, force=True, create=True)
            if hecho["success"] or "database is locked" not in hecho.get("error", "") + hecho.get("log", ""):
                return hecho
            time.sleep(0.5 * (intento + 1))
        return hecho

    def retroalimentar(self, estudiante):
        """generate_feedback de un estudiante, con la plantilla del curso (la API pondría la suya)."""
        from nbgrader.converters import GenerateFeedback
        from nbgrader.utils import capture_log, temp_attrs

        with temp_attrs(self.coursedir, assignment_id=TAREA, student_id=estudiante):
            app = GenerateFeedback(coursedir=self.coursedir, parent=self.api, exporter_class=_html_compilado())
            app.force = True
            return capture_log(app)

    def nota(self, estudiante):
        with self.gradebook() as gb:
            entrega = gb.find_submission(TAREA, estudiante)
            return entrega.score, entrega.max_score

    def exportar(self, destino):
        from .complementos import NotasSinFormulas

        Path(destino).parent.mkdir(parents=True, exist_ok=True)
        with self.gradebook() as gb:
            NotasSinFormulas(to=str(destino), config=self.config, log=self.log).export(gb)


_HTML = None


def _html_compilado():
    """El HTMLExporter de nbconvert, con su entorno de Jinja compartido dentro de este proceso.

    generate_feedback crea un exportador por entrega, y cada uno volvería a leer y compilar las
    plantillas (un tercio de lo que cuesta la retroalimentación); con la misma configuración, el
    entorno compilado de la primera entrega sirve para todas. Los filtros que dependen de cada
    cuaderno (resaltado, widgets) nbconvert los vuelve a registrar antes de cada conversión.
    """
    global _HTML
    if _HTML is None:
        from nbconvert.exporters import HTMLExporter

        class HTMLCompilado(HTMLExporter):
            _entornos = {}

            def _create_environment(self):
                clave = (tuple(self.template_paths), self.template_name, self.template_file)
                if clave not in self._entornos:
                    self._entornos[clave] = super()._create_environment()
                return self._entornos[clave]

        _HTML = HTMLCompilado
    return _HTML


# --------------------------------------------------------------------------- un proceso de trabajo

_CURSO = None
_AVISOS = None


def _iniciar_trabajador(raiz, avisos):
    global _CURSO, _AVISOS
    # Lo que los núcleos y las bibliotecas escriben por su cuenta (avisos de SQLAlchemy, el
    # arranque de ipykernel) no ensucia la barra: va a exports/procesos.txt.
    (Path(raiz) / "exports").mkdir(exist_ok=True)
    salida = os.open(Path(raiz) / "exports" / "procesos.txt", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(salida, 1)
    os.dup2(salida, 2)
    _CURSO, _AVISOS = Curso(raiz), avisos


def _avisar(estudiante, estado):
    try:
        _AVISOS.put_nowait((estudiante, estado))
    except Exception:
        pass


def corregir_uno(estudiante):
    """Autocorrige una entrega y genera su retroalimentación. Nunca lanza: devuelve lo que pasó."""
    inicio = time.monotonic()
    resultado = {"estudiante": estudiante, "bien": False, "nota": None, "maximo": None, "registro": ""}
    try:
        _avisar(estudiante, "corrigiendo")
        hecho = _CURSO.autocorregir(estudiante)
        resultado["autograde"] = time.monotonic() - inicio
        resultado["registro"] = hecho.get("log", "") + hecho.get("error", "")
        if not hecho["success"]:
            resultado["motivo"] = "nbgrader no ha podido corregir la entrega"
            return resultado
        _avisar(estudiante, "retroalimentación")
        antes = time.monotonic()
        hecho = _CURSO.retroalimentar(estudiante)
        resultado["retroalimentacion"] = time.monotonic() - antes
        resultado["registro"] += hecho.get("log", "") + hecho.get("error", "")
        resultado["nota"], resultado["maximo"] = _CURSO.nota(estudiante)
        resultado["bien"] = bool(hecho["success"])
        if not hecho["success"]:
            resultado["motivo"] = "corregida, pero sin retroalimentación"
    except Exception as e:  # lo que sea: esta entrega queda marcada y las demás siguen
        resultado["motivo"] = "%s: %s" % (type(e).__name__, e)
    finally:
        resultado["segundos"] = time.monotonic() - inicio
    return resultado


# --------------------------------------------------------------------------- el reparto

def _preparar_gradebook(curso, estudiantes):
    """Antes de repartir: el gradebook en modo WAL y cada estudiante dado de alta, desde un solo proceso."""
    with curso.gradebook() as gb:
        for estudiante in estudiantes:
            if not any(s.id == estudiante for s in gb.students):
                gb.add_student(estudiante)
    with sqlite3.connect(curso.db) as conexion:
        conexion.execute("PRAGMA journal_mode=WAL")


def _barra(total):
    from tqdm import tqdm

    return tqdm(total=total, unit="entrega", desc="Corrigiendo", dynamic_ncols=True, file=sys.stdout,
                mininterval=0.2 if sys.stdout.isatty() else 10,
                bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                           "[{elapsed} hechos, quedan {remaining}]{postfix}")


def corregir_en_paralelo(raiz, estudiantes, trabajos, mostrar=print):
    """{estudiante: resultado} de corregir_uno, con `trabajos` procesos y una barra de progreso."""
    contexto = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    avisos = contexto.Queue()
    resultados, en_curso, pendientes = {}, {}, list(estudiantes)
    barra = _barra(len(estudiantes))

    def leer_avisos():
        while True:
            try:
                estudiante, estado = avisos.get_nowait()
            except queue.Empty:
                break
            if estudiante not in resultados:
                en_curso[estudiante] = estado
        barra.set_postfix_str(", ".join("%s (%s)" % e for e in sorted(en_curso.items())), refresh=True)

    def terminar(r):
        resultados[r["estudiante"]] = r
        en_curso.pop(r["estudiante"], None)
        barra.write(_linea(r))
        barra.update(1)

    rondas = 0
    while pendientes and rondas < 2:  # una segunda ronda solo si un proceso ha muerto
        rondas += 1
        with ProcessPoolExecutor(max_workers=min(trabajos, len(pendientes)), mp_context=contexto,
                                 initializer=_iniciar_trabajador, initargs=(raiz, avisos)) as grupo:
            futuros = {grupo.submit(corregir_uno, e): e for e in pendientes}
            pendientes = []
            while futuros:
                hechos, _ = wait(futuros, timeout=0.5, return_when=FIRST_COMPLETED)
                leer_avisos()
                for futuro in hechos:
                    estudiante = futuros.pop(futuro)
                    try:
                        terminar(futuro.result())
                    except BrokenProcessPool:
                        pendientes.append(estudiante)
    for estudiante in pendientes:
        terminar({"estudiante": estudiante, "bien": False, "nota": None, "segundos": 0, "registro": "",
                  "motivo": "el proceso que la corregía ha muerto dos veces"})
    barra.set_postfix_str("")
    barra.close()
    return resultados


def _linea(r):
    if r.get("nota") is not None:
        texto = "%-22s %5.1f / %g puntos" % (r["estudiante"], r["nota"], r["maximo"])
    else:
        texto = "%-22s sin nota" % r["estudiante"]
    if not r["bien"]:
        texto += "   ¡ojo! %s" % r.get("motivo", "algo ha fallado")
    return texto + "   (%.1f s)" % r["segundos"]


# --------------------------------------------------------------------------- la clase de principio a fin

def preparar_demo(raiz=RAIZ):
    """Un curso de demostración en raiz/demo/: la configuración, source/ y release/ del curso y las entregas de ejemplo."""
    demo = Path(raiz) / DEMO
    shutil.rmtree(demo, ignore_errors=True)
    demo.mkdir(parents=True)
    shutil.copy(Path(raiz) / "nbgrader_config.py", demo)
    for carpeta in ("source", "release"):
        shutil.copytree(Path(raiz) / carpeta, demo / carpeta, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    entregar_ejemplos(demo)
    return demo


def entregar_ejemplos(raiz):
    """Copia las entregas de ejemplo en raiz/submitted/, hechas con el cuaderno de release de ahora."""
    release = Path(raiz) / "release" / TAREA / CUADERNO
    for ejemplo in sorted(EJEMPLOS.glob("*.toml")):
        escribir_entrega(release, leer_ejemplo(ejemplo)["respuestas"], Path(raiz) / "submitted" / ejemplo.stem / TAREA)


class Entrega(NamedTuple):
    """Una carpeta de submitted/: su estudiante y, si no se corrige, por qué."""
    estudiante: str       # el nombre de la carpeta (con los bytes que no son texto, escapados)
    apartada: str | None  # por qué nbgrader no puede ni mirarla (su nombre, un enlace…): no es un estudiante
    motivo: str | None    # por qué no tiene un cuaderno que corregir


def entregas(raiz, colocar=False):
    """Las entregas de la tarea en submitted/, por nombre de carpeta: las que se corrigen y las que no, y por qué.

    Sin glob ni nada que lea el nombre de una carpeta como un patrón: cada nombre, tal cual (os.scandir).
    Con `colocar`, antes busca el cuaderno de quien lo llamó de otra manera (colocar_cuaderno).
    """
    carpeta = os.fsencode(Path(raiz) / "submitted")
    if not os.path.isdir(carpeta):
        return []
    resultado = []
    with os.scandir(carpeta) as dentro:
        for hijo in dentro:
            tarea = os.path.join(hijo.path, TAREA.encode())
            if not os.path.isdir(tarea):
                continue
            ruta = os.fsdecode(tarea)
            apartada = entrada.motivo_para_apartar(ruta)
            mostrable = hijo.name.decode("utf-8", "backslashreplace")  # un byte que no es texto, como \xff
            if colocar and not apartada:
                colocar_cuaderno(ruta)
            resultado.append(Entrega(mostrable, apartada, None if apartada else entrada.motivo_sin_corregir(ruta)))
    return sorted(resultado)


def colocar_cuaderno(carpeta):
    """Si falta CUADERNO en la carpeta y hay otro .ipynb que es la entrega, lo copia con ese nombre (como zip_collect)."""
    carpeta = Path(carpeta)
    if os.path.lexists(carpeta / CUADERNO) or os.path.lexists(carpeta / NO_CORREGIDO):
        return None
    candidatos = []
    for ruta in sorted(carpeta.iterdir())[:limites.CUADERNOS_EN_LA_CARPETA]:
        if ruta.suffix.lower() == ".ipynb" and not ruta.is_symlink() and ruta.is_file():
            datos, problema = entrada.leer_acotado(str(ruta), limites.CUADERNO_ENTREGADO)
            if problema is None and len(datos) <= limites.CUADERNO_ENTREGADO:
                candidatos.append((ruta.name, ruta.stat().st_mtime, datos))
    release = Path(carpeta).parents[2] / "release" / TAREA / CUADERNO
    datos, _ = recoleccion.elegir_cuaderno(candidatos, recoleccion.ids_de_release(release) if release.exists() else set())
    if datos is None:
        return None
    (carpeta / CUADERNO).write_bytes(datos)
    elegido = next(nombre for nombre, _, d in candidatos if d is datos)
    print("%s: se corrige «%s» como su %s." % (carpeta.parent.name, recoleccion.mostrar(elegido), CUADERNO))
    return elegido


SIN_ENTREGA, CORREGIDO, SIN_CORREGIR = "sin entrega", "corregido", "no corregido"


def estado(raiz, estudiante, en_el_gradebook):
    """(CORREGIDO, SIN_CORREGIR o SIN_ENTREGA, motivo o None) de un estudiante del gradebook.

    `en_el_gradebook`: si nbgrader tiene una entrega corregida suya. Una carpeta en submitted/ sin
    cuaderno que corregir, o que nbgrader no ha llegado a corregir, es «no corregido», con el motivo.
    """
    carpeta = os.path.join(raiz, "submitted", estudiante, TAREA)
    if "/" in estudiante or estudiante in (".", "..") or not os.path.isdir(carpeta):
        return (CORREGIDO, None) if en_el_gradebook else (SIN_ENTREGA, None)
    motivo = entrada.motivo_para_apartar(carpeta) or entrada.motivo_sin_corregir(carpeta)
    if motivo:
        return SIN_CORREGIR, motivo
    if not en_el_gradebook or not os.path.exists(os.path.join(raiz, "autograded", estudiante, TAREA, CUADERNO)):
        return SIN_CORREGIR, "nbgrader no ha llegado a corregirla (sus mensajes, en exports/registro.txt)"
    return CORREGIDO, None


def notas(raiz=RAIZ):
    """{estudiante: (puntos, máximo)} de la tarea, leídos del gradebook."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(gradebook(raiz)) as gb:
        maximo = gb.find_assignment(TAREA).max_score
        resultado = {}
        for estudiante in gb.students:
            try:
                resultado[estudiante.id] = (gb.find_submission(TAREA, estudiante.id).score, maximo)
            except MissingEntry:
                pass
        return resultado


def corregir_clase(raiz, trabajos=None, informe=True):
    """Release, autograde + retroalimentación en paralelo, CSV e informe. Devuelve (bien, resultados)."""
    raiz = Path(raiz).resolve()
    trabajos = trabajos or trabajos_por_defecto()
    curso = Curso(raiz)
    hecho = curso.generar_release()
    if not hecho["success"]:
        print(hecho.get("log", "") + hecho.get("error", ""))
        print("No se ha podido generar la versión del estudiante (release/): se para aquí.")
        return False, {}
    todas = entregas(raiz, colocar=True)
    if not todas:
        print("No hay entregas en %s." % (raiz / "submitted"))
        return True, {}
    for e in todas:
        if e.apartada:
            print("%-22s apartada, sin corregir: %s." % (e.estudiante, e.apartada))
        elif e.motivo:
            print("%-22s no corregido: %s." % (e.estudiante, e.motivo))
    estudiantes = [e.estudiante for e in todas if not e.apartada and not e.motivo]
    _preparar_gradebook(curso, [e.estudiante for e in todas if not e.apartada])
    print("%d entregas de %s, en %d proceso%s." % (len(estudiantes), TAREA, trabajos, "s" * (trabajos != 1)))
    resultados = corregir_en_paralelo(raiz, estudiantes, trabajos) if estudiantes else {}
    with sqlite3.connect(curso.db) as conexion:  # de vuelta a un solo fichero, como lo deja nbgrader
        conexion.execute("PRAGMA journal_mode=DELETE")
    _guardar_registro(raiz, resultados)
    corregidas = [r for r in resultados.values() if "retroalimentacion" in r]
    if corregidas:
        print("Por entrega, de media: %.1f s de autograde y %.2f s de retroalimentación."
              % (sum(r["autograde"] for r in corregidas) / len(corregidas),
                 sum(r["retroalimentacion"] for r in corregidas) / len(corregidas)))

    csv = raiz / "exports" / "notas.csv"
    curso.exportar(csv)
    print("Notas en %s." % csv.relative_to(raiz))
    if informe:
        from .informe import escribir_informe
        ruta = escribir_informe(raiz)
        print("Informe de la clase en %s." % ruta.relative_to(raiz))
    fallidas = sorted(e for e, r in resultados.items() if not r["bien"])
    if fallidas:
        print("No se han podido corregir del todo: %s. Sus mensajes están en exports/registro.txt; "
              "las demás entregas están corregidas." % ", ".join(fallidas))
    return not fallidas, resultados


def _guardar_registro(raiz, resultados):
    """Lo que nbgrader ha dicho de cada entrega, en exports/registro.txt (en inglés: es de nbgrader)."""
    (raiz / "exports").mkdir(exist_ok=True)
    with open(raiz / "exports" / "registro.txt", "w", encoding="utf-8") as f:
        for estudiante, r in sorted(resultados.items()):
            f.write("=== %s: %s\n%s\n" % (estudiante, "bien" if r["bien"] else r.get("motivo", "mal"), r["registro"]))


def main(raiz=RAIZ, trabajos=None, demo=False):
    raiz = Path(raiz)
    try:  # un guion grabado que no vale suspendería a todos: antes de empezar, no después
        conversaciones_grabadas()
    except GuionRechazado as e:
        print("No se corrige: un guion grabado de %s no vale.\n  %s" % (CARPETA, e), file=sys.stderr)
        return 1
    if demo or not entregas(raiz):
        if not demo:
            print("No hay entregas en submitted/: se corrige el curso de demostración en %s/, con su propio "
                  "gradebook y las entregas de ejemplo de course/ejemplos/ (`make limpiar-demo` lo borra)." % DEMO)
        raiz = preparar_demo(raiz)
    bien, _ = corregir_clase(raiz, trabajos)
    return 0 if bien else 1


def _cli():
    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("--trabajos", type=int, default=None, help="procesos (por defecto, uno por núcleo y uno más)")
    opciones.add_argument("--demo", action="store_true", help="corregir el curso de demostración aunque haya entregas")
    opciones.add_argument("--raiz", type=Path, default=RAIZ, help="la raíz del curso")
    a = opciones.parse_args()
    return main(a.raiz, a.trabajos, a.demo)


if __name__ == "__main__":
    sys.exit(_cli())
