"""Las piezas que `nbgrader_config.py` pone en la corrección de nbgrader.

- `EjecutarEnJaula` sustituye al Execute de nbgrader: el cuaderno del estudiante corre en un
  núcleo dentro de una jaula, y si el núcleo muere o se cuelga, la entrega sigue corrigiéndose.
- `VeredictosDeConfianza`, justo antes de guardar las notas, decide cada celda `ejecutar-*` y
  `pregunta-*` fuera de ese núcleo y escribe el veredicto como su salida. Lo que el código del
  estudiante haya hecho con esas celdas en su núcleo no cuenta.
"""

import contextlib
import io
import json
import os
import shutil
import tempfile

from jupyter_client.manager import AsyncKernelManager
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat.v4 import new_output
from nbgrader.preprocessors import Execute, NbGraderPreprocessor

from course import calificacion, cuestionario
from course.calificacion import Suspenso

from . import jaula
from .cliente import CodigoAislado


class NucleoEnJaula(AsyncKernelManager):
    """Un núcleo de Python en una jaula: sin red, viendo sólo la carpeta de su cuaderno.

    Habla con nbgrader por sockets de fichero (transporte ipc) en una carpeta propia, porque
    sin red no tiene ni la interfaz local.
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._privada = tempfile.mkdtemp(prefix="nucleo-")
        self.transport = "ipc"
        self.connection_file = os.path.join(self._privada, "conexion.json")
        self.ip = os.path.join(self._privada, "k")

    async def _async_pre_start_kernel(self, **kw):
        orden, kw = await super()._async_pre_start_kernel(**kw)
        carpeta = kw.get("cwd") or os.getcwd()
        # El núcleo ve la carpeta de su cuaderno, pero escribe en una copia que se tira: nada de lo que
        # deje allí (enlaces, tuberías, ficheros) lo encuentra después nbgrader en autograded/.
        copia = os.path.join(self._privada, "cuaderno")
        _copiar_ficheros(carpeta, copia)
        return jaula.orden(orden, escribibles=[self._privada, (copia, carpeta)], carpeta=carpeta), kw

    async def _async_cleanup_resources(self, restart=False):
        await super()._async_cleanup_resources(restart=restart)
        if not restart:
            shutil.rmtree(self._privada, ignore_errors=True)


def _copiar_ficheros(origen, destino):
    """Copia los ficheros normales de `origen` (sin seguir enlaces ni copiar nada especial) a `destino`."""
    os.makedirs(destino, exist_ok=True)
    for entrada in os.scandir(origen):
        if entrada.is_dir(follow_symlinks=False):
            _copiar_ficheros(entrada.path, os.path.join(destino, entrada.name))
        elif entrada.is_file(follow_symlinks=False):
            shutil.copyfile(entrada.path, os.path.join(destino, entrada.name), follow_symlinks=False)


class EjecutarEnJaula(Execute):
    """El Execute de nbgrader con el núcleo en la jaula. Un núcleo que muere no para la corrección."""

    maximo_salida = 100_000  # caracteres de salida por celda; lo que pase de ahí se descarta al llegar

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("kernel_manager_class", NucleoEnJaula)
        super().__init__(*args, **kwargs)
        self._salida_por_celda = {}

    async def async_execute_cell(self, cell, cell_index, execution_count=None, store_history=True):
        # Las celdas que decide el corrector de confianza no se ejecutan aquí: su salida se reescribe.
        if _decide_el_corrector(cell):
            return cell
        return await super().async_execute_cell(cell, cell_index, execution_count, store_history)

    def output(self, outs, msg, display_id, cell_index):
        # Una celda que inunda su salida no debe llenar la memoria de nbgrader: se corta al llegar.
        antes = self._salida_por_celda.get(cell_index, 0)
        self._salida_por_celda[cell_index] = antes + len(json.dumps(msg.get("content", {})))
        if self._salida_por_celda[cell_index] <= self.maximo_salida:
            return super().output(outs, msg, display_id, cell_index)
        if antes <= self.maximo_salida:  # el aviso, una sola vez
            outs.append(new_output("stream", name="stdout",
                                   text="\n(salida cortada: pasaba de %d caracteres)\n" % self.maximo_salida))
        return None

    def preprocess(self, nb, resources=None, km=None):
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
                _anota_diagnosticos(celda, codigo)
        return nb, resources


def _anota_diagnosticos(celda, codigo):
    """En cada celda ejecutar-*, los nombres de las equivocaciones que le restan (para el informe de la clase)."""
    tipo, _, nombre = _grade_id(celda).partition("-")
    if tipo == "ejecutar":
        try:
            diagnosticos = calificacion.diagnosticos(nombre, codigo.ejecutar)
        except Exception:  # el veredicto ya está escrito; sin diagnóstico no se pierde nada
            diagnosticos = []
        celda.metadata.setdefault("curso", {})["diagnosticos"] = diagnosticos


def _decidir(grade_id, codigo, respuestas):
    """El veredicto de una celda: `ejecutar-X` es la comprobación X; `pregunta-N`, la pregunta N del cuestionario."""
    tipo, _, nombre = grade_id.partition("-")
    if tipo == "ejecutar":
        calificacion.comprobar(nombre, codigo.ejecutar)
    else:
        cuestionario.corregir(int(nombre), codigo.valor(respuestas.get("respuesta-" + nombre, ""), "respuesta_" + nombre))
