"""Las piezas que `nbgrader_config.py` pone en la corrección de nbgrader.

- `EjecutarEnJaula` sustituye al Execute de nbgrader: el cuaderno del estudiante corre en un
  núcleo dentro de una jaula, y si el núcleo muere o se cuelga, la entrega sigue corrigiéndose.
  Las celdas `ejecutar-*` y `pregunta-*` no se le mandan nunca; cada celda tiene su tope de
  tiempo y el cuaderno entero otro (course/limites.py); una celda que se pasa se interrumpe
  con un mensaje al núcleo, dentro de la jaula, y lo dice en español en su salida.
- `VeredictosDeConfianza`, justo antes de guardar las notas, decide cada celda `ejecutar-*` y
  `pregunta-*` fuera de ese núcleo y escribe el veredicto como su salida. Lo que el código del
  estudiante haya hecho con esas celdas en su núcleo no cuenta.
"""

import ast
import contextlib
import html
import io
import os
import re
import tempfile
import threading
import time

import zmq

from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbconvert.filters.markdown_mistune import markdown2html_mistune
from nbformat.v4 import new_output
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Bool

from course import DECIDIDAS, EJECUTAR, RESPUESTA, calificacion, cuestionario, grade_id, limites
from course.ajustes import NucleoPorMensajes, SalidaContada
from course.calificacion import Suspenso

from . import jaula
from .cliente import CodigoAislado, en_segundos


class NucleoEnJaula(NucleoPorMensajes):
    """Un núcleo de Python en una jaula: sin red, viendo solo la carpeta de su cuaderno.

    Habla con nbgrader por sockets de fichero (transporte ipc), porque sin red no tiene ni la interfaz
    local. Los sockets están dentro de la jaula, en su /tmp (un tmpfs con tope): la jaula no puede
    escribir nada en el disco del profesor. nbgrader llega a ellos por /proc/<pid>/root, la raíz de la
    jaula vista desde fuera. Se interrumpe con un mensaje (`interrupt_request`), no con una señal: la
    señal le llegaría a bubblewrap, que moriría con el núcleo dentro.

    Lo que corre en la jaula no escribe en la terminal ni en el registro de quien corrige: su entrada y sus
    salidas son /dev/null (`Jaula(callada=True)`). Mientras vive, un vigía (`_Vigia`) mira cuánto crece la
    memoria de este proceso con sus mensajes, y lo mata si pasa de limites.MEMORIA_DE_LOS_MENSAJES.
    """

    ver_su_salida = Bool(False, config=True, help=(
        "Solo para depurar el núcleo (tests/test_nucleo.py, con su --debug): su stdout y su stderr van a los de "
        "nbgrader. Escribe allí lo que quiera la entrega: nunca para corregir una clase."))

    creadas = []  # los núcleos de este proceso cuya carpeta privada y cuyo grupo de control aún no se han deshecho
    SOCKETS = "/tmp/nucleo"  # los sockets, dentro de la jaula: /tmp/nucleo-1, /tmp/nucleo-2...

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._privada = tempfile.mkdtemp(prefix="nucleo-")  # solo para el fichero de conexión, que se ve de solo lectura
        self._jaula = None
        NucleoEnJaula.creadas.append(self)
        self.transport = "ipc"
        self.connection_file = os.path.join(self._privada, "conexion.json")
        self.ip = self.SOCKETS
        self._carpeta = None  # la del cuaderno, que nbclient pasa a start_kernel como cwd
        self.vigia = None     # el que mira la memoria de este proceso mientras el núcleo vive
        # Un mensaje del núcleo más grande que esto ni se lee: zmq corta la conexión y nbclient sigue.
        self.context.setsockopt(zmq.MAXMSGSIZE, limites.MENSAJE_DEL_NUCLEO)

    async def start_kernel(self, **kw):
        self._carpeta = kw.get("cwd") or os.getcwd()
        self.ip = self.SOCKETS  # el fichero de conexión, para el núcleo, con la ruta de dentro
        return await super().start_kernel(**kw)

    def antes_de_conectar(self):
        # Lanzado el núcleo y antes de conectarse a él (jupyter_client abre entonces su canal de control, el de
        # las interrupciones): la misma ruta vista desde fuera, por la raíz del núcleo, ya en la jaula.
        self.ip = "/proc/%d/root%s" % (_dentro_de_la_jaula(self.provisioner.process.pid), self.SOCKETS)
        self.vigia = _Vigia(self.provisioner.process)

    def format_kernel_cmd(self, extra_arguments=None):
        """La orden del núcleo, dentro de la jaula.

        El núcleo trabaja en la carpeta de su cuaderno, pero esa carpeta es, en la jaula, un tmpfs con
        tope: lo que escriba (enlaces, tuberías, ficheros, árboles sin fondo) no toca el disco ni llega
        a autograded/, y se va con la jaula. Los ficheros de la tarea se ven, de solo lectura; los
        cuadernos no (el corregido lleva las pruebas ocultas).
        """
        carpeta = self._carpeta or os.getcwd()
        if self._jaula is not None:
            self._jaula.cerrar()
        self._jaula = jaula.Jaula(legibles=[self.connection_file, *_ficheros_de_la_tarea(carpeta)],
                                  carpeta=carpeta, en_memoria=[carpeta], callada=not self.ver_su_salida)
        return self._jaula.orden(super().format_kernel_cmd(extra_arguments))

    def deshacer(self):
        """Borra la carpeta privada y el grupo de control de la jaula (el núcleo ya no está)."""
        if self.vigia is not None:
            self.vigia.parar()
        if self._jaula is not None:
            self._jaula.cerrar()
        jaula.borrar(self._privada)


def _residente():
    """La memoria residente de este proceso, en bytes (de /proc/self/statm)."""
    with open("/proc/self/statm", "rb") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class _Vigia(threading.Thread):
    """Mientras vive un núcleo, la memoria de este proceso: si crece más de limites.MEMORIA_DE_LOS_MENSAJES
    desde que arrancó, se mata la jaula y se apunta por qué en `motivo`.

    zmq recibe cada mensaje entero, con todas sus partes, antes de dárselo a nbclient, y su tope
    (MENSAJE_DEL_NUCLEO) es por parte: un núcleo que mandaba un mensaje de 40 partes de 15 MB, todas la misma
    en su memoria, hacía crecer 600 MB al proceso que corrige, y con más partes lo que quisiera. Muerta la
    jaula, zmq tira lo que tenía a medias y nbclient sigue con un núcleo muerto.
    """

    def __init__(self, proceso):
        super().__init__(name="vigia-del-nucleo", daemon=True)
        self.proceso, self.motivo, self._parar = proceso, None, threading.Event()
        self.base = _residente()
        self.start()

    def run(self):
        while not self._parar.wait(0.01):
            if _residente() - self.base > limites.MEMORIA_DE_LOS_MENSAJES:
                self.motivo = ("el núcleo ha mandado mensajes que ocupaban más de %d MB en la memoria de quien corrige, "
                               "y se ha parado" % (limites.MEMORIA_DE_LOS_MENSAJES // limites.MIB))
                with contextlib.suppress(OSError):
                    self.proceso.kill()  # bubblewrap: con él muere todo lo de la jaula
                return

    def parar(self):
        self._parar.set()


def _dentro_de_la_jaula(pid):
    """El pid de lo que corre dentro de la jaula que ha arrancado `pid` (el nieto: bubblewrap, bubblewrap, núcleo)."""
    fin = time.monotonic() + limites.ARRANQUE_NUCLEO
    while os.path.exists("/proc/%d" % pid) and time.monotonic() < fin:
        for hijo in _hijos(pid):
            nietos = _hijos(hijo)
            if nietos:
                return nietos[0]
        time.sleep(0.005)
    raise RuntimeError("la jaula del núcleo no ha arrancado")


def _hijos(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(h) for h in f.read().split()]
    except (OSError, ValueError):
        return []


def _ficheros_de_la_tarea(carpeta):
    """(fuera, dentro) de cada fichero normal de la carpeta del cuaderno, sin cuadernos ni enlaces."""
    pares = []
    with os.scandir(carpeta) as entradas:
        for entrada in entradas:
            if (entrada.is_file(follow_symlinks=False) and not entrada.name.endswith(".ipynb")
                    and "\n" not in entrada.name and len(pares) < limites.FICHEROS_DE_LA_TAREA):
                pares.append((entrada.path, entrada.path))
    return pares


class EjecutarEnJaula(SalidaContada):
    """El Execute de nbgrader con el núcleo en la jaula y la salida contada al llegar (course/ajustes.py).
    Un núcleo que muere no para la corrección."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("kernel_manager_class", NucleoEnJaula)
        # Lo que se tira al acabar no necesita un cierre amable: esperarlo costaría segundos con un núcleo colgado.
        kwargs.setdefault("shutdown_kernel", "immediate")
        # Lo que una celda imprime llega en trozos, partidos según el ritmo del núcleo: un mismo print puede
        # quedar en una salida o en dos. nbclient los junta al acabar la celda (no es un ajuste de
        # configuración), y el cuaderno corregido y la retroalimentación salen iguales con carga o sin ella.
        kwargs.setdefault("coalesce_streams", True)
        super().__init__(*args, **kwargs)
        self.timeout_func = lambda celda: self._tope  # el tope de cada celda lo fija preprocess_cell

    def reset_execution_trackers(self):
        # nbconvert la llama al empezar cada cuaderno: cada entrega empieza con su tiempo entero.
        super().reset_execution_trackers()
        self._fin_del_cuaderno = None  # cuándo se acaba el tiempo del cuaderno (se fija al empezar su primera celda)
        self._sin_nucleo = None        # por qué ya no se manda ninguna celda más al núcleo, si es así

    def preprocess_cell(self, cell, resources, index):
        # Se sustituye esta, y no async_execute_cell: nbclient ata execute_cell a su propia versión asíncrona.
        if cell.cell_type != "code" or not cell.source.strip():
            return cell, resources
        if _decide_el_corrector(cell):
            return cell, resources  # no llega al núcleo: su salida la escribe VeredictosDeConfianza
        if self._fin_del_cuaderno is None:
            self._fin_del_cuaderno = time.monotonic() + limites.CUADERNO
        queda = self._fin_del_cuaderno - time.monotonic()
        if self._sin_nucleo is None and queda <= 0:
            self._sin_nucleo = ("se ha acabado el tiempo del cuaderno (%s entre todas sus celdas)"
                                % en_segundos(limites.CUADERNO))
        if self._sin_nucleo is not None:
            cell.outputs = [_aviso("(sin ejecutar: %s)" % self._sin_nucleo)]
            return cell, resources
        self._tope = min(self.timeout, queda)  # self.timeout es limites.CELDA, por nbgrader_config.py
        motivo = (("Esta celda no ha terminado en %s y se ha interrumpido. Las celdas de esta lección "
                   "tardan décimas de segundo: ¿hay un bucle que no acaba?" % en_segundos(self.timeout))
                  if self._tope == self.timeout else
                  ("Se ha acabado el tiempo del cuaderno (%s entre todas sus celdas) y esta celda se ha "
                   "interrumpido." % en_segundos(limites.CUADERNO)))
        # Pasado el tope, nbclient interrumpe y no espera la respuesta de la celda: toma esta, que nbgrader
        # añade a su salida (tras el KeyboardInterrupt que la ha parado, si ha llegado).
        self.error_on_timeout = _tiempo_agotado(motivo)
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except CellTimeoutError:
            # Interrumpida, no se ha parado (se traga KeyboardInterrupt): el núcleo ya no sirve.
            self._sin_nucleo = "una celda anterior no se ha parado ni al interrumpirla"
            cell.outputs.append(new_output("error", **_tiempo_agotado(
                motivo + " No se ha parado ni al interrumpirla (¿captura KeyboardInterrupt o BaseException?), "
                         "así que el resto del cuaderno no se ejecuta.")))
        for salida in cell.outputs:
            if salida.get("output_type") == "error" and isinstance(salida.get("traceback"), list):
                salida["traceback"] = [_sin_rutas_del_servidor(t) if isinstance(t, str) else t
                                       for t in salida["traceback"]]
        return cell, resources

    def preprocess(self, nb, resources=None, km=None):
        try:
            return self._preprocesar(nb, resources, km)
        finally:
            # Un núcleo que muere o no contesta no siempre pasa por su limpieza: lo de sus carpetas
            # privadas se borra aquí, al acabar cada cuaderno, pase lo que pase.
            while NucleoEnJaula.creadas:
                NucleoEnJaula.creadas.pop().deshacer()

    def _preprocesar(self, nb, resources, km):
        try:
            return super().preprocess(nb, resources, km=km)
        except jaula.FaltaBubblewrap:
            raise
        except (DeadKernelError, CellTimeoutError, RuntimeError) as e:
            motivo = ("el núcleo de Python ha muerto mientras ejecutaba el cuaderno (¿demasiada memoria, "
                      "os._exit?)" if isinstance(e, DeadKernelError) else "el núcleo de Python no contesta")
            # Si lo ha parado su vigía, se dice por qué (los mensajes que mandaba), no que ha muerto sin más.
            motivo = next((n.vigia.motivo for n in NucleoEnJaula.creadas if n.vigia and n.vigia.motivo), motivo)
            self.log.warning("%s: %s", motivo, e)
            for celda in nb.cells:
                if celda.cell_type == "code" and not celda.get("outputs") and celda.get("execution_count") is None:
                    celda.outputs = [new_output("stream", name="stdout",
                                                text="(sin ejecutar: %s)\n" % motivo)]
            return nb, resources


def _aviso(texto):
    return new_output("stream", name="stdout", text=texto + "\n")


# Una ruta absoluta hasta la última de estas carpetas, que se queda: harness/…, site-packages/…, python3.11/…
_RUTA_DEL_SERVIDOR = re.compile(r"/[^\s\x1b:'\"]*/(?=(?:harness|course|site-packages|python3\.\d+)/)")


def _sin_rutas_del_servidor(texto):
    """Un trozo de una traza sin la carpeta del servidor: «harness/bucle.py:19», no «/srv/curso/harness/bucle.py:19».
    Al estudiante le importa en qué función y en qué línea estaba; las de su celda ya salen como «Cell In[N]»."""
    return _RUTA_DEL_SERVIDOR.sub("", texto)


def _tiempo_agotado(motivo):
    """El error, en español, de una celda que se ha pasado de tiempo."""
    return {"ename": "TiempoAgotado", "evalue": motivo, "traceback": ["\x1b[0;31m⏱ Tiempo agotado:\x1b[0m " + motivo]}


def importaciones_de_antes(nb, hasta=EJECUTAR):
    """Las importaciones de las celdas del cuaderno (no las de respuesta) antes de la celda `hasta`: la respuesta
    ve en la jaula los nombres que ve en el cuaderno ejecutado de arriba abajo (un `json.dumps` sin `import json`
    vale allí, porque una celda anterior lo importa, y vale aquí)."""
    importaciones = []
    for celda in nb.cells:
        if grade_id(celda) == hasta:
            break
        if celda.cell_type != "code" or celda.metadata.get("nbgrader", {}).get("solution"):
            continue
        try:
            arbol = ast.parse(celda.source)
        except SyntaxError:
            continue
        importaciones += [ast.unparse(n) for n in arbol.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    return importaciones


def _decide_el_corrector(celda):
    """Si es una celda de prueba de las que decide el corrector de confianza."""
    return (celda.cell_type == "code" and celda.metadata.get("nbgrader", {}).get("grade")
            and grade_id(celda).startswith(DECIDIDAS))


def acotado(texto, tope=limites.TEXTO_DEL_CORRECTOR):
    """`texto` con `tope` caracteres como mucho, y una nota en español donde se ha cortado."""
    if len(texto) <= tope:
        return texto
    return texto[:tope] + ("\n(… cortado: este texto tenía %d caracteres; aquí se guardan los %d primeros)"
                           % (len(texto), tope))


def _salida(decidir, fallos, donde):
    """Las salidas de una celda de prueba según el veredicto: texto si pasa, un error en español si no.

    Lo que dicen puede traer lo que devuelve o lanza el código del estudiante (una observación, el texto
    de una excepción): cada texto va acotado, para que el cuaderno corregido y la retroalimentación no
    crezcan con lo que haga una respuesta. Si falla el corrector, se apunta en `fallos`.
    """
    impreso = io.StringIO()
    try:
        with contextlib.redirect_stdout(impreso):
            decidir()
    except Suspenso as s:
        return [new_output("error", ename="Suspenso", evalue=acotado(str(s)),
                           traceback=[acotado(t) for t in s._render_traceback_()])]
    except Exception as e:  # un fallo del corrector no regala puntos: la celda suspende y se dice por qué
        fallos.append(_fallo(donde, "el veredicto", e))
        return [new_output("error", ename="ErrorDelCorrector", evalue=acotado(str(e)),
                           traceback=[acotado("El corrector ha fallado con esta celda (%s: %s). "
                                              "Avisa a tu profesor." % (type(e).__name__, e))])]
    return [new_output("stream", name="stdout", text=acotado(impreso.getvalue()))]


def _fallo(donde, que, e):
    """Una línea, en español, de algo que el corrector no ha podido hacer: dónde, qué y con qué excepción."""
    return acotado("%s (%s): %s: %s" % (donde, que, type(e).__name__, e))


# Dónde deja el corrector, en los metadatos del cuaderno corregido, lo que no ha podido hacer (una lista de líneas).
FALLOS = "fallos_del_corrector"


class VeredictosDeConfianza(NbGraderPreprocessor):
    """Decide las celdas `ejecutar-*` y `pregunta-*` con el código del estudiante encerrado y alcanzado solo con datos."""

    def preprocess(self, nb, resources):
        decididas = list(filter(_decide_el_corrector, nb.cells))
        if not decididas:  # una tarea sin celdas de este corrector: las deciden sus propias pruebas
            return nb, resources
        respuestas = {grade_id(c): c.source for c in nb.cells
                      if c.metadata.get("nbgrader", {}).get("solution")}
        fallos = []  # lo que el corrector no ha podido hacer con esta entrega, cada cosa en una línea
        with CodigoAislado(respuestas.get("ejecutar", ""), importaciones=importaciones_de_antes(nb)) as codigo:
            codigo.cargar()  # antes de las comprobaciones, para que su tope de tiempo no cuente la carga
            for celda in decididas:
                celda.outputs = _salida(lambda: _decidir(grade_id(celda), codigo, respuestas), fallos,
                                        grade_id(celda))
                _anota(celda, codigo, fallos)
            if any(grade_id(c).startswith(EJECUTAR) for c in decididas):
                _anota_el_resumen(nb, codigo, fallos)
        # Ninguno se calla: van al registro de nbgrader (exports/registro.txt con make grade) y al cuaderno
        # corregido, donde los cuenta la clase (course/estado.py) y los dicen la terminal y el informe.
        for fallo in fallos:
            self.log.warning("El corrector ha fallado en %s", fallo)
        if fallos:
            nb.metadata.setdefault("curso", {})[FALLOS] = fallos
        return nb, resources


def _anota(celda, codigo, fallos):
    """En cada celda ejecutar-* y pregunta-*, qué comprueba y, en las ejecutar-*, los nombres de las
    equivocaciones que le restan (para el resumen de la retroalimentación y el informe de la clase).
    Lo que no se puede anotar se apunta en `fallos`; el veredicto ya está escrito y no cambia."""
    tipo, _, nombre = grade_id(celda).partition("-")
    curso = celda.metadata.setdefault("curso", {})
    if tipo != "ejecutar":
        curso["comprueba"] = "Pregunta %s del cuestionario" % nombre
        return
    try:
        curso["comprueba"] = calificacion.que_comprueba(nombre)
    except Exception as e:
        fallos.append(_fallo(grade_id(celda), "qué comprueba", e))
    try:
        curso["diagnosticos"] = calificacion.diagnosticos(nombre, codigo)
    except Exception as e:  # sin diagnósticos, el informe dice que esta entrega no los trae
        fallos.append(_fallo(grade_id(celda), "los diagnósticos", e))


def _anota_el_resumen(nb, codigo, fallos):
    """En los metadatos del cuaderno, lo que la retroalimentación dice al principio (course/calificacion.py,
    resumen), con el ancla que nbconvert da al título de cada sección que hay que releer."""
    try:
        resumen = calificacion.resumen(codigo)
    except Exception as e:  # sin resumen, la retroalimentación enseña igual cada prueba con su motivo
        fallos.append(_fallo("la retroalimentación", "el resumen", e))
        return
    for equivocacion in resumen["equivocaciones"]:
        equivocacion["ancla"] = _ancla(equivocacion["releer"])
    if resumen.get("motivo"):
        resumen["motivo"] = acotado(resumen["motivo"])
    nb.metadata.setdefault("curso", {})["resumen"] = resumen


def _ancla(titulo):
    """El id que nbconvert pone al título de sección `titulo` (Markdown) en el HTML."""
    hecho = re.search(r'id="([^"]*)"', markdown2html_mistune("## " + titulo))
    return html.unescape(hecho.group(1)) if hecho else ""


def _decidir(de_la_celda, codigo, respuestas):
    """El veredicto de una celda: `ejecutar-X` es la comprobación X; `pregunta-N`, la pregunta N del cuestionario."""
    tipo, _, nombre = de_la_celda.partition("-")
    if tipo == "ejecutar":
        calificacion.comprobar(nombre, codigo)
    else:
        cuestionario.corregir(int(nombre), codigo.valor(respuestas.get(RESPUESTA + nombre, ""), "respuesta_" + nombre))
