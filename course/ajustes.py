"""Lo que el curso cambia por dentro de otras bibliotecas: todo aquí, cada cosa con su porqué y su huella.

Lo demás usa lo que nbgrader, nbconvert, nbclient y jupyter_client ofrecen para eso: las opciones de
nbgrader_config.py, y sus preprocesadores, complementos y exportadores. Lo de aquí no tiene opción:
sustituye o envuelve código suyo, o depende de cómo está escrito por dentro. HUELLAS guarda la huella
(sha256) de ese código tal como se leyó al escribir cada ajuste; tests/test_ajustes.py falla si una
versión nueva lo cambia, y entonces hay que volver a leerlo y apuntar la huella nueva. Por eso esas
bibliotecas tienen tope de versión en pyproject.toml.

Este módulo no decide nada del curso: quien lo usa le dice qué carpeta se aparta, cómo se lee un roster
o cuánta salida cabe.
"""

import functools
import importlib
import os
import tempfile

from jupyter_client.manager import AsyncKernelManager
from nbconvert.exporters import HTMLExporter
from nbformat.v4 import new_output
from nbgrader.preprocessors import Execute, OverwriteCells

from course import DECIDIDAS, limites

# El código ajeno del que depende cada ajuste, por su huella: "módulo.Clase.método" (o "módulo.función").
HUELLAS = {
    # SalidaContada
    "nbclient.client.NotebookClient.process_message":
        "e345991e03a032721b08781db153cc3d9dbd6d43ca76a73e834f10bff3f2f802",
    "nbclient.client.NotebookClient.output":
        "8ac7ba61fc598f515310e32d2eb32571262bf437b5767e2d5c976be9455010ce",
    "nbclient.client.NotebookClient.clear_display_id_mapping":
        "e113409afb1ba61535efc443f276603b60c2df8ebe8c78e797723b2cf12f4be6",
    "nbclient.client.NotebookClient.reset_execution_trackers":
        "235642992dcea73f69e0aaadb5643dd68159841da5948acbfe11a54b416874d8",
    "nbconvert.preprocessors.execute.ExecutePreprocessor.preprocess":
        "58beeaafc496ae5ff502acdabd85296d9a7302176317d904b6c61b9a1e109f72",
    # Lo que EjecutarEnJaula (course/aislado/corrector.py) hace con la API de preprocesador de nbconvert: elige el
    # tope de cada celda al ejecutarla (timeout_func) y toma error_on_timeout como la salida de la celda cortada.
    "nbconvert.preprocessors.execute.ExecutePreprocessor.preprocess_cell":
        "5b7929c8c7bed2d2806d7d067532b950d5cb26f79fe95ad006dc1c4fce55a038",
    "nbclient.client.NotebookClient.async_execute_cell":
        "366a0d406d758da2af73216cea49a2549f6d2ab63e84bee3ebc854f9706fbf85",
    "nbclient.client.NotebookClient._async_handle_timeout":
        "27d6db41082b053f54679d0e6925485bebe2598256683c6c6029eb6cc1d62814",
    # NucleoPorMensajes
    "jupyter_client.manager.KernelManager.kernel_spec":
        "78ad6d314e7e2902c59ffbfa0bfba0667577fe3e27aea7c62b9b0052f1b4f2a7",
    "jupyter_client.manager.KernelManager._async_post_start_kernel":
        "f22ae6f4f5de4d7fb40caf9de5509cd39d6f6162e96fe2a7714e835a75a08cab",
    "jupyter_client.manager.KernelManager._async_start_kernel":
        "05b13d23766bc55e9e661eab0637090eeac66a39410e0c66275d6376483b465d",
    "jupyter_client.manager.KernelManager.format_kernel_cmd":
        "d01231f87c9c075d78258b282c2e04ed1d06f38bd14c3b29c9b3fe1a9432c838",
    # HTMLCompartido
    "nbconvert.exporters.templateexporter.TemplateExporter.environment":
        "1730fe8814566c9e1b9f967501398d427083c39d1bd1b3a61163e648cd661e3b",
    # generar_retroalimentacion
    "nbgrader.apps.api.NbGraderAPI.generate_feedback":
        "a7c124ae4a8c0c3101bda7a9f5a812dc0a1280fd10b15b95a3f75efd90b05d02",
    "nbgrader.utils.temp_attrs":
        "a9d1967253b16df42e45fcbbb2b3e6182d308e59d3c4df00c30474b461a55a3b",
    "nbgrader.utils.capture_log":
        "e8882c841c72f6557d2cc8a2569c1218c301ddcce4462ff165ed3b26c694a4df",
    # SobrescribirCeldas
    "nbgrader.preprocessors.overwritecells.OverwriteCells.report_change":
        "8b9f15517d7bed91be3b029f7d7404631b903edb79e81e52746b285f3bb05217",
    # entregas_limpias
    "nbgrader.converters.base.BaseConverter.start":
        "10d6830579cdca63cb986520813344581d4d04192b18dd5c88a6cf85315c35a1",
    "nbgrader.converters.base.BaseConverter.init_notebooks":
        "75dbbd15a2dfa17bd72ae1bb8b0e2adc2368d54543726c47af766f8075829e8f",
    "nbgrader.converters.base.BaseConverter.convert_notebooks":
        "9f4d7a770217effe75cc991e37cea07c2995d12f4307aa4ce0950ff9a2406580",
    "nbgrader.converters.autograde.Autograde.init_assignment":
        "a7c144dc746ec205e6739e3071a69356ed3c2cb96fa566449e712cdb91417efa",
    "nbgrader.converters.base.BaseConverter.init_assignment":
        "bcfda8a38bd242811155417345b96d16e35245612781b3f6706187aa8943df59",
    # leer_el_roster_con
    "nbgrader.apps.dbapp.DbGenericImportApp.start":
        "f6318a19b7331ca6e1dae6603ccb8bdaef9b43967a4a3e48ddc20e228893d514",
}


# --------------------------------------------------------------------------- nbclient: la salida, contada al llegar

_SALIDAS = {"stream", "display_data", "update_display_data", "execute_result", "error", "clear_output"}


class SalidaContada(Execute):
    """El Execute de nbgrader, que cuenta cada salida del núcleo antes de guardarla y no guarda más de
    `maximo_salida` caracteres por celda ni `maximo_cuaderno` por cuaderno.

    Por qué: nbclient guarda todo lo que manda el núcleo, y `LimitOutput` de nbgrader recorta después, con
    el cuaderno ya en memoria; una celda que inunda su salida llenaría antes la memoria de nbgrader. nbclient
    no tiene opción para esto: se cuenta en `process_message`, y cada actualización de un display
    (update_display_data), que nbclient copia en cada sitio donde se ve, cuenta en cada uno (`output` y
    `clear_display_id_mapping` llevan esos sitios).
    """

    maximo_salida = limites.SALIDA_POR_CELDA
    maximo_cuaderno = limites.SALIDA_POR_CUADERNO

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._salida_por_celda, self._salida_total = {}, 0

    def reset_execution_trackers(self):
        # nbclient la llama al empezar cada cuaderno.
        super().reset_execution_trackers()
        self._sitios = {}  # display_id → {celda: salidas que lo muestran}, como las lleva nbclient

    def preprocess(self, nb, resources=None, km=None):
        self._salida_por_celda, self._salida_total = {}, 0
        return super().preprocess(nb, resources, km=km)

    def process_message(self, msg, cell, cell_index):
        if msg.get("msg_type") not in _SALIDAS:
            return super().process_message(msg, cell, cell_index)
        contenido = msg.get("content") or {}
        coste = _caracteres(contenido)
        transitorio = contenido.get("transient") if isinstance(contenido, dict) else None
        display_id = transitorio.get("display_id") if isinstance(transitorio, dict) else None
        if display_id:
            coste *= 1 + sum(self._sitios.get(display_id, {}).values())
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

    def output(self, outs, msg, display_id, cell_index):
        # Cada salida que nbclient guarda con un display_id es un sitio más donde copiará sus actualizaciones.
        salida = super().output(outs, msg, display_id, cell_index)
        if display_id and salida is not None:
            por_celda = self._sitios.setdefault(display_id, {})
            por_celda[cell_index] = por_celda.get(cell_index, 0) + 1
        return salida

    def clear_display_id_mapping(self, cell_index):
        super().clear_display_id_mapping(cell_index)  # las salidas de la celda se han borrado: ya no son sitios
        for por_celda in self._sitios.values():
            por_celda.pop(cell_index, None)


def _caracteres(x, fondo=0):
    """Cuánto ocupa un contenido de mensaje: sus textos y sus claves, sin volver a serializarlo."""
    if isinstance(x, (str, bytes)):
        return len(x)
    if fondo > limites.NIVELES_AL_CONTAR:
        return 1
    if isinstance(x, dict):
        return sum(len(str(k)) + _caracteres(v, fondo + 1) for k, v in x.items()) + 1
    if isinstance(x, (list, tuple)):
        return sum(_caracteres(v, fondo + 1) for v in x) + 1
    return 8


# --------------------------------------------------------------------------- jupyter_client: el núcleo

class NucleoPorMensajes(AsyncKernelManager):
    """El gestor de núcleos de jupyter_client, que interrumpe con un mensaje y avisa entre lanzar el núcleo
    y conectarse a él (`antes_de_conectar`).

    Por qué: `interrupt_mode` es de la especificación del núcleo (su kernel.json), no una opción del gestor,
    y un núcleo en una jaula se interrumpe con un mensaje: la señal le llegaría a bubblewrap. Y
    jupyter_client no tiene un momento público entre lanzar el proceso y abrir sus canales, que es cuando
    se sabe dónde quedan los sockets de un núcleo enjaulado.
    """

    @property
    def kernel_spec(self):
        spec = super().kernel_spec
        if spec is not None:
            # El núcleo (ipykernel) atiende el mensaje en su hilo de control y se manda SIGINT a sí
            # mismo, ya dentro de la jaula: la celda recibe KeyboardInterrupt y el núcleo sigue vivo.
            spec.interrupt_mode = "message"
        return spec

    def antes_de_conectar(self):
        """Lanzado el núcleo, antes de abrir sus canales. No hace nada: es para las subclases."""

    async def _async_post_start_kernel(self, **kw):
        self.antes_de_conectar()
        return await super()._async_post_start_kernel(**kw)


# --------------------------------------------------------------------------- nbconvert y nbgrader: la retroalimentación

class HTMLCompartido(HTMLExporter):
    """El HTMLExporter de nbconvert, con un entorno de Jinja compilado por proceso y plantilla.

    Por qué: generate_feedback crea un exportador por entrega, y cada uno volvería a leer y compilar las
    plantillas (un tercio de lo que cuesta la retroalimentación); con la misma configuración, el entorno
    compilado de la primera entrega sirve para todas. Los filtros que dependen de cada cuaderno
    (resaltado, widgets) nbconvert los vuelve a registrar antes de cada conversión.
    """

    _entornos = {}  # (carpetas de plantillas, plantilla, fichero) → entorno de Jinja, en este proceso

    @property
    def environment(self):
        clave = (tuple(self.template_paths), self.template_name, self.template_file)
        if clave not in self._entornos:
            self._entornos[clave] = super().environment
        return self._entornos[clave]


def generar_retroalimentacion(api, tarea, estudiante, exporter_class=HTMLCompartido):
    """`NbGraderAPI.generate_feedback` de un estudiante, con la plantilla de nbgrader_config.py: el dict de la API.

    Por qué: la API fija la plantilla `feedback` de nbgrader encima de la configuración; aquí se hace lo
    mismo que ella sin eso, y con el exportador `exporter_class`.
    """
    from nbgrader.converters import GenerateFeedback
    from nbgrader.utils import capture_log, temp_attrs

    with temp_attrs(api.coursedir, assignment_id=tarea, student_id=estudiante):
        app = GenerateFeedback(coursedir=api.coursedir, parent=api, exporter_class=exporter_class)
        app.force = True
        return capture_log(app)


class SobrescribirCeldas(OverwriteCells):
    """OverwriteCells de nbgrader, callado ante el «checksum» cambiado de las celdas `ejecutar-*` y `pregunta-*`.

    Por qué: es el aviso de jupyter/nbgrader#1961. La suma de control que guarda el gradebook es la de la
    celda de source/, con sus pruebas ocultas; la del estudiante se calculó sin ellas en release/. Así que
    en cada celda con pruebas ocultas la suma «ha cambiado» siempre, nbgrader avisa y pone la celda de
    source/, que es lo que debe hacer. Además, esas celdas las decide el corrector de confianza
    (course/aislado), no lo que el estudiante deje escrito en ellas. Cualquier otro cambio (tipo de celda,
    bloqueo, puntos, otras celdas) se sigue avisando. No hay opción de nbgrader para callar un aviso.
    """

    def report_change(self, name, attr, old, new):
        if attr == "checksum" and name.startswith(DECIDIDAS):
            self.log.debug("La celda %s trae las pruebas ocultas de source/ (suma de control esperada).", name)
            return
        super().report_change(name, attr, old, new)


# --------------------------------------------------------------------------- nbgrader autograde: lo que se lee de la entrega

def entregas_limpias(autograde, apartar, sellos, despues=None):
    """Ajusta una corrección de nbgrader (`autograde`, un Autograde ya con sus carpetas buscadas) donde su
    configuración no llega. Lo llama su exportador al crearse, y solo cambia esa corrección.

    - Aparta las carpetas para las que `apartar(carpeta)` da un motivo, con una línea de error, y corrige
      las demás. `CourseDirectory.student_id_exclude` no basta: nbgrader lo mira después de leer el
      nombre de cada carpeta con una expresión regular que, ante un salto de línea, para la corrección
      de toda la clase; y no sabe de qué tarea es cada carpeta.
    - De la carpeta entregada solo se lee el cuaderno (que lee el exportador) y lo que `sellos(origen,
      destino)` copie. nbgrader copia a autograded/ todo lo demás, siguiendo enlaces (a las soluciones),
      abriendo tuberías (que cuelgan la copia) y recorriendo árboles sin fondo; `CourseDirectory.ignore`
      son patrones de nombres, que no distinguen un enlace o una tubería de un fichero, y valen también
      para copiar source/ a release/. Así que `init_assignment` lee, en lugar de la carpeta entregada,
      una vista limpia de ella: una carpeta temporal con los sellos y el nombre de cada cuaderno.
      Después, `despues(coursedir, tarea, estudiante)`, si se da, con el gradebook ya al día.

    Depende de que nbgrader cree el exportador después de buscar las carpetas (`assignments`) y antes de
    recorrerlas, y de que llame a `init_assignment` desde la instancia (BaseConverter.start y
    convert_notebooks).
    """
    for carpeta in sorted(autograde.assignments):
        motivo = apartar(carpeta)
        if motivo:
            autograde.log.error("Entrega apartada, sin corregir: %r: %s. Las demás se corrigen.", carpeta, motivo)
            del autograde.assignments[carpeta]
    preparar = autograde.init_assignment

    @functools.wraps(preparar)
    def init_assignment(assignment_id, student_id):
        curso = autograde.coursedir
        with tempfile.TemporaryDirectory(prefix="entrega-") as limpia:
            vista = os.path.join(limpia, student_id, assignment_id)
            os.makedirs(vista)
            sellos(curso.format_path(curso.submitted_directory, student_id, assignment_id), vista)
            for ruta in autograde.notebooks:  # están: que nbgrader no los dé por no entregados
                open(os.path.join(vista, os.path.basename(ruta)), "x").close()
            antes = curso.submitted_directory
            curso.submitted_directory = limpia
            try:
                preparar(assignment_id, student_id)
            finally:
                curso.submitted_directory = antes
        if despues is not None:
            despues(curso, assignment_id, student_id)

    autograde.init_assignment = init_assignment


# --------------------------------------------------------------------------- nbgrader db student import: el roster

def leer_el_roster_con(leer):
    """Que `nbgrader db student import` lea el roster con la función `leer` ("módulo.función", que se importa
    al importar un roster): leer(bytes) → (filas, problema). Si hay problema, la orden para con él; si no,
    nbgrader recibe una copia en CSV normal de las filas.

    Por qué: nbgrader abre el CSV tal cual, así que el BOM de una hoja de cálculo se queda pegado al nombre
    de la primera columna, que se pierde sin decir nada, y con «;» no hay columnas. Lo llama
    nbgrader_config.py, y envuelve solo `start` de esa orden, una vez: en los demás procesos no cambia nada.
    """
    import csv

    from nbgrader.apps.dbapp import DbStudentImportApp

    original = DbStudentImportApp.start
    if getattr(original, "__wrapped__", None) is not None:
        return

    @functools.wraps(original)
    def start(self):
        if len(self.extra_args) != 1 or not os.path.isfile(self.extra_args[0]):
            return original(self)
        modulo, funcion = leer.rsplit(".", 1)
        with open(self.extra_args[0], "rb") as f:
            filas, problema = getattr(importlib.import_module(modulo), funcion)(f.read())
        if problema:
            self.fail("El roster %s no se puede importar: %s.", self.extra_args[0], problema)
        columnas = list(dict.fromkeys(c for fila in filas for c in fila))
        if "lms_user_id" not in columnas:
            self.log.warning("El roster no tiene la columna lms_user_id: las subidas del LMS se asignarán solo por "
                             "el nombre de cada estudiante (README, «Roster»).")
        ruta = self.extra_args[0]
        with tempfile.NamedTemporaryFile("w", suffix=".csv", encoding="utf-8", newline="", delete=False) as copia:
            escritor = csv.DictWriter(copia, columnas)
            escritor.writeheader()
            escritor.writerows(filas)
        self.extra_args = [copia.name]
        try:
            return original(self)
        finally:
            self.extra_args = [ruta]
            os.unlink(copia.name)

    DbStudentImportApp.start = start
