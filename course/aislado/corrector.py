"""Las piezas que `nbgrader_config.py` pone en la corrección de nbgrader.

- `EjecutarEnJaula` sustituye al Execute de nbgrader: el cuaderno del estudiante corre en un
  núcleo dentro de una jaula, y si el núcleo muere o se cuelga, la entrega sigue corrigiéndose.
- `VeredictosDeConfianza`, justo antes de guardar las notas, decide cada celda `ejecutar-*` y
  `pregunta-*` fuera de ese núcleo y escribe el veredicto como su salida. Lo que el código del
  estudiante haya hecho con esas celdas en su núcleo no cuenta.
"""

import contextlib
import io
import os
import tempfile

import zmq

from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat.v4 import new_output
from nbgrader.preprocessors import Execute, NbGraderPreprocessor

from course import calificacion, cuestionario, limites
from course.calificacion import Suspenso

from . import jaula
from .cliente import CodigoAislado


class NucleoEnJaula(AsyncKernelManager):
    """Un núcleo de Python en una jaula: sin red, viendo sólo la carpeta de su cuaderno.

    Habla con nbgrader por sockets de fichero (transporte ipc) en una carpeta propia, porque
    sin red no tiene ni la interfaz local.
    """

    creadas = []  # las carpetas privadas de los núcleos de este proceso que aún no se han borrado

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._privada = tempfile.mkdtemp(prefix="nucleo-")
        NucleoEnJaula.creadas.append(self._privada)
        self.transport = "ipc"
        self.connection_file = os.path.join(self._privada, "conexion.json")
        self.ip = os.path.join(self._privada, "k")
        # Un mensaje del núcleo más grande que esto ni se lee: zmq corta la conexión y nbclient sigue.
        self.context.setsockopt(zmq.MAXMSGSIZE, limites.MENSAJE_DEL_NUCLEO)

    async def _async_pre_start_kernel(self, **kw):
        orden, kw = await super()._async_pre_start_kernel(**kw)
        carpeta = kw.get("cwd") or os.getcwd()
        # El núcleo trabaja en la carpeta de su cuaderno, pero esa carpeta es, en la jaula, un tmpfs con
        # tope: lo que escriba (enlaces, tuberías, ficheros, árboles sin fondo) no toca el disco ni llega
        # a autograded/, y se va con la jaula. Los ficheros de la tarea se ven, de solo lectura; los
        # cuadernos no (el corregido lleva las pruebas ocultas).
        return jaula.orden(orden, escribibles=[self._privada], legibles=_ficheros_de_la_tarea(carpeta),
                           carpeta=carpeta, en_memoria=carpeta), kw

    async def _async_cleanup_resources(self, restart=False):
        await super()._async_cleanup_resources(restart=restart)
        if not restart:
            jaula.borrar(self._privada)


def _ficheros_de_la_tarea(carpeta):
    """(fuera, dentro) de cada fichero normal de la carpeta del cuaderno, sin cuadernos ni enlaces."""
    pares = []
    with os.scandir(carpeta) as entradas:
        for entrada in entradas:
            if (entrada.is_file(follow_symlinks=False) and not entrada.name.endswith(".ipynb")
                    and "\n" not in entrada.name and len(pares) < 100):
                pares.append((entrada.path, entrada.path))
    return pares


class EjecutarEnJaula(Execute):
    """El Execute de nbgrader con el núcleo en la jaula. Un núcleo que muere no para la corrección."""

    maximo_salida = limites.SALIDA_POR_CELDA        # caracteres de salida que se guardan de una celda
    maximo_cuaderno = limites.SALIDA_POR_CUADERNO   # y de todo el cuaderno, actualizaciones incluidas

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("kernel_manager_class", NucleoEnJaula)
        super().__init__(*args, **kwargs)
        self._salida_por_celda, self._salida_total = {}, 0

    async def async_execute_cell(self, cell, cell_index, execution_count=None, store_history=True):
        # Las celdas que decide el corrector de confianza no se ejecutan aquí: su salida se reescribe.
        if _decide_el_corrector(cell):
            return cell
        return await super().async_execute_cell(cell, cell_index, execution_count, store_history)

    def process_message(self, msg, cell, cell_index):
        # Cada salida se cuenta antes de guardarla, también las que cambian un display ya mostrado
        # (update_display_data), que nbclient copia en cada sitio donde se ve ese display: una celda
        # que inunda su salida no llena la memoria de nbgrader ni el cuaderno corregido.
        if msg.get("msg_type") not in _SALIDAS:
            return super().process_message(msg, cell, cell_index)
        contenido = msg.get("content") or {}
        coste = _caracteres(contenido)
        transitorio = contenido.get("transient") if isinstance(contenido, dict) else None
        display_id = transitorio.get("display_id") if isinstance(transitorio, dict) else None
        if display_id:
            sitios = sum(len(v) for v in self._display_id_map.get(display_id, {}).values())
            coste *= 1 + sitios
        antes = self._salida_por_celda.get(cell_index, 0)
        self._salida_por_celda[cell_index] = antes + coste
        self._salida_total += coste
        if self._salida_por_celda[cell_index] <= self.maximo_salida and self._salida_total <= self.maximo_cuaderno:
            return super().process_message(msg, cell, cell_index)
        if antes <= self.maximo_salida and self._salida_total - coste <= self.maximo_cuaderno:  # el aviso, una vez
            cell.outputs.append(new_output("stream", name="stdout", text=(
                "\n(salida cortada: pasaba de %d caracteres en esta celda o de %d en el cuaderno)\n"
                % (self.maximo_salida, self.maximo_cuaderno))))
        return None

    def preprocess(self, nb, resources=None, km=None):
        self._salida_por_celda, self._salida_total = {}, 0
        try:
            return self._preprocesar(nb, resources, km)
        finally:
            # Un núcleo que muere o no contesta no siempre pasa por su limpieza: lo de sus carpetas
            # privadas se borra aquí, al acabar cada cuaderno, pase lo que pase.
            while NucleoEnJaula.creadas:
                jaula.borrar(NucleoEnJaula.creadas.pop())

    def _preprocesar(self, nb, resources, km):
        try:
            return super().preprocess(nb, resources, km=km)
        except jaula.FaltaBubblewrap:
            raise
        except (DeadKernelError, CellTimeoutError, RuntimeError) as e:
            motivo = ("el núcleo de Python ha muerto mientras ejecutaba el cuaderno (¿demasiada memoria, "
                      "os._exit?)" if isinstance(e, DeadKernelError) else "el núcleo de Python no contesta")
            self.log.warning("%s: %s", motivo, e)
            for celda in nb.cells:
                if celda.cell_type == "code" and not celda.get("outputs") and celda.get("execution_count") is None:
                    celda.outputs = [new_output("stream", name="stdout",
                                                text="(sin ejecutar: %s)\n" % motivo)]
            return nb, resources


_SALIDAS = {"stream", "display_data", "update_display_data", "execute_result", "error", "clear_output"}


def _caracteres(x, fondo=0):
    """Cuánto ocupa un contenido de mensaje: sus textos y sus claves, sin volver a serializarlo."""
    if isinstance(x, (str, bytes)):
        return len(x)
    if fondo > 20:
        return 1
    if isinstance(x, dict):
        return sum(len(str(k)) + _caracteres(v, fondo + 1) for k, v in x.items()) + 1
    if isinstance(x, (list, tuple)):
        return sum(_caracteres(v, fondo + 1) for v in x) + 1
    return 8


def _grade_id(celda):
    return celda.metadata.get("nbgrader", {}).get("grade_id", "")


def _decide_el_corrector(celda):
    """Si es una celda de prueba de las que decide el corrector de confianza."""
    return (celda.cell_type == "code" and celda.metadata.get("nbgrader", {}).get("grade")
            and _grade_id(celda).startswith(("ejecutar-", "pregunta-")))


def _salida(decidir):
    """Las salidas de una celda de prueba según el veredicto: texto si pasa, un error en español si no."""
    impreso = io.StringIO()
    try:
        with contextlib.redirect_stdout(impreso):
            decidir()
    except Suspenso as s:
        return [new_output("error", ename="Suspenso", evalue=str(s), traceback=s._render_traceback_())]
    except Exception as e:  # un fallo del corrector no regala puntos: la celda suspende y se dice por qué
        return [new_output("error", ename="ErrorDelCorrector", evalue=str(e),
                           traceback=["El corrector ha fallado con esta celda (%s: %s). "
                                      "Avisa a tu profesor." % (type(e).__name__, e)])]
    return [new_output("stream", name="stdout", text=impreso.getvalue())]


class VeredictosDeConfianza(NbGraderPreprocessor):
    """Decide las celdas `ejecutar-*` y `pregunta-*` con el código del estudiante encerrado y alcanzado sólo con datos."""

    def preprocess(self, nb, resources):
        respuestas = {_grade_id(c): c.source for c in nb.cells
                      if c.metadata.get("nbgrader", {}).get("solution")}
        with CodigoAislado(respuestas.get("ejecutar", "")) as codigo:
            codigo.cargar()  # antes de las comprobaciones, para que su tope de tiempo no cuente la carga
            for celda in filter(_decide_el_corrector, nb.cells):
                celda.outputs = _salida(lambda: _decidir(_grade_id(celda), codigo, respuestas))
        return nb, resources


def _decidir(grade_id, codigo, respuestas):
    """El veredicto de una celda: `ejecutar-X` es la comprobación X; `pregunta-N`, la pregunta N del cuestionario."""
    tipo, _, nombre = grade_id.partition("-")
    if tipo == "ejecutar":
        calificacion.comprobar(nombre, codigo.ejecutar)
    else:
        cuestionario.corregir(int(nombre), codigo.valor(respuestas.get("respuesta-" + nombre, ""), "respuesta_" + nombre))
