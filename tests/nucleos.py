"""Los núcleos que las pruebas arrancan desde su propio proceso (nbclient, el Validator de nbgrader)
hablan por sockets de fichero, no por puertos TCP.

Con TCP, jupyter_client elige puertos libres, los suelta, y el núcleo los abre un momento después.
Con los procesos de `make test` en paralelo, otro proceso puede coger uno entre medias (una conexión
de salida cualquiera usa los mismos puertos), y el núcleo muere al arrancar: «Address already in
use» (jupyter/nbconvert#1066, nteract/papermill#511). Un fichero con un nombre al azar no lo coge
nadie. Es lo mismo que hace el núcleo de la corrección (`course/aislado/corrector.py`), por otra
razón: en la jaula no hay red.
"""

import os
import tempfile
import uuid

from jupyter_client.manager import AsyncKernelManager
from traitlets.config import Config


class NucleoPorFicheros(AsyncKernelManager):
    """Un núcleo de Python normal cuyos sockets son ficheros de /tmp; jupyter_client los borra al cerrarlo."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        base = os.path.join(tempfile.gettempdir(), "nucleo-" + uuid.uuid4().hex[:12])
        self.transport = "ipc"
        self.connection_file = base + ".json"
        self.ip = base + "-ipc"  # cada socket es <ip>-<número>


def validar(cuaderno):
    """Lo que dice el Validate de nbgrader de `cuaderno`, con el núcleo por ficheros."""
    from nbgrader.validator import Validator

    ajustes = Config({"Execute": {"kernel_manager_class": NucleoPorFicheros}})
    return Validator(config=ajustes).validate(str(cuaderno))
