"""Un proceso de la corrección de la clase: nbgrader cargado una vez, y una entrega detrás de otra.

`Curso` es nbgrader con la configuración del curso, en este proceso: corrige con su API (la misma
que usa el formgrader), así que las notas son las de `nbgrader autograde`. `corregir_una` corrige
una entrega y genera su retroalimentación sin lanzar nunca: lo que pasa vuelve como un `Resultado`.
`iniciar` y `corregir` son lo que ejecuta cada proceso del reparto de course/clase.py.
"""

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from . import configuracion, gradebook, limites
from .ajustes import generar_retroalimentacion
from .estado import descuento_que_cuenta, nota_con_descuento


class Paso(NamedTuple):
    """Lo que dice una orden de nbgrader hecha por su API: si ha ido bien y lo que ha escrito."""
    bien: bool
    registro: str


def _paso(hecho):
    """Un Paso del dict que devuelve la API de nbgrader (success, log, error)."""
    return Paso(bool(hecho["success"]), hecho.get("log", "") + hecho.get("error", ""))


@dataclass
class Resultado:
    """Lo que ha pasado con una entrega: su nota, o por qué no la tiene entera, y lo que ha tardado."""
    estudiante: str
    nota: float | None = None               # ya con el descuento por retraso, la del CSV
    maximo: float | None = None
    descuento: float = 0.0                  # los puntos que ha restado el retraso
    motivo: str | None = None               # por qué no está corregida del todo; None si lo está
    registro: str = ""                      # lo que ha dicho nbgrader (en inglés)
    segundos: float = 0.0
    autograde: float | None = None          # segundos de autograde, si ha llegado a hacerse
    retroalimentacion: float | None = None  # segundos de generate_feedback, si ha llegado a hacerse

    @property
    def bien(self):
        return self.motivo is None


class Curso:
    """nbgrader con la configuración del curso de `raiz`, cargado una vez en este proceso, para la tarea `tarea`."""

    def __init__(self, raiz, tarea):
        from nbgrader.apps.api import NbGraderAPI
        from nbgrader.auth import Authenticator
        from nbgrader.coursedir import CourseDirectory
        from sqlalchemy.engine import make_url

        self.raiz, self.tarea = Path(raiz).resolve(), tarea
        url = make_url(gradebook(self.raiz))
        self.db = url.database  # el fichero, para ponerlo en modo WAL mientras se corrige
        config = configuracion(self.raiz)
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
        return _paso(self.api.generate_assignment(self.tarea, force=True))

    def autocorregir(self, estudiante):
        for intento in range(limites.REINTENTOS):
            hecho = _paso(self.api.autograde(self.tarea, estudiante, force=True, create=True))
            if hecho.bien or "database is locked" not in hecho.registro:
                return hecho
            time.sleep(0.5 * (intento + 1))
        return hecho

    def retroalimentar(self, estudiante):
        """generate_feedback de un estudiante, con la plantilla del curso (la API pondría la suya)."""
        return _paso(generar_retroalimentacion(self.api, self.tarea, estudiante))

    def nota(self, estudiante):
        """(la nota que cuenta, el máximo, el descuento por retraso) de la entrega de `estudiante`."""
        with self.gradebook() as gb:
            entrega = gb.find_submission(self.tarea, estudiante)
            return nota_con_descuento(entrega), entrega.max_score, descuento_que_cuenta(entrega)


def corregir_una(curso, estudiante, avisar=lambda estudiante, paso: None):
    """Autocorrige una entrega y genera su retroalimentación. Nunca lanza: devuelve lo que ha pasado.

    `avisar(estudiante, paso)` dice en qué paso va, para la barra de progreso.
    """
    inicio = time.monotonic()
    r = Resultado(estudiante)
    try:
        avisar(estudiante, "corrigiendo")
        hecho = curso.autocorregir(estudiante)
        r.autograde, r.registro = time.monotonic() - inicio, hecho.registro
        if not hecho.bien:
            r.motivo = "nbgrader no ha podido corregir la entrega"
            return r
        avisar(estudiante, "retroalimentación")
        antes = time.monotonic()
        hecho = curso.retroalimentar(estudiante)
        r.retroalimentacion = time.monotonic() - antes
        r.registro += hecho.registro
        r.nota, r.maximo, r.descuento = curso.nota(estudiante)
        if not hecho.bien:
            r.motivo = "corregida, pero sin retroalimentación"
    except Exception as e:  # lo que sea: esta entrega queda marcada y las demás siguen
        r.motivo = "%s: %s" % (type(e).__name__, e)
    finally:
        r.segundos = time.monotonic() - inicio
    return r


# --------------------------------------------------------------------------- en un proceso del reparto

_ESTE = {}  # lo de este proceso (ProcessPoolExecutor solo llama a funciones sueltas): su Curso y sus avisos


def iniciar(raiz, tarea, avisos):
    """Prepara este proceso para corregir la tarea `tarea` del curso de `raiz`; `avisos` es la cola de la barra."""
    # Lo que los núcleos y las bibliotecas escriben por su cuenta (avisos de SQLAlchemy, el arranque de
    # ipykernel) no ensucia la barra: va a exports/procesos.txt. Los núcleos son procesos hijos, que
    # heredan los descriptores 1 y 2: por eso se cambian estos, y no sys.stdout.
    (Path(raiz) / "exports").mkdir(exist_ok=True)
    salida = os.open(Path(raiz) / "exports" / "procesos.txt", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(salida, 1)
    os.dup2(salida, 2)
    _ESTE.update(curso=Curso(raiz, tarea), avisos=avisos)


def _avisar(estudiante, paso):
    try:
        _ESTE["avisos"].put_nowait((estudiante, paso))
    except Exception:  # la barra es un extra: sin ella se corrige igual
        pass


def corregir(estudiante):
    """corregir_una, en un proceso preparado con `iniciar`."""
    return corregir_una(_ESTE["curso"], estudiante, _avisar)
