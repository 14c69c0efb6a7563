"""El lado del corrector: el código del estudiante en su jaula, alcanzado sólo con datos.

`CodigoAislado(codigo).ejecutar(llamada, entorno)` se usa como el `ejecutar` del estudiante: la
llamada va a la jaula, y las operaciones de su herramienta sobre el entorno vuelven aquí, donde
está el entorno de verdad. Lo que devuelve llega como datos simples: un objeto del estudiante
nunca entra en el proceso del corrector.
"""

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

from course.calificacion import Suspenso

from . import jaula
from .servidor import codificar, de_excepcion, decodificar

SERVIDOR = Path(__file__).resolve().parent / "servidor.py"
ARRANQUE = 10  # segundos para cargar la respuesta en la jaula


class Lanzada(Exception):
    """Lo que lanzó el código del estudiante en la jaula, con su tipo y su texto."""

    def __init__(self, tipo, texto):
        super().__init__(texto)
        self.tipo = tipo


class Opaco:
    """Un objeto del estudiante que no es un dato simple: sólo su tipo y su repr. No es igual a nada."""

    def __init__(self, tipo, texto):
        self.tipo, self.texto = tipo, texto

    def __repr__(self):
        return "<%s %s>" % (self.tipo, self.texto)

    __eq__ = object.__eq__
    __hash__ = object.__hash__


def _dato(d):
    """Como `decodificar`, pero lo que no es un dato simple se queda en un Opaco."""
    if "otro" in d:
        return Opaco(d["otro"], d.get("repr", ""))
    if "dict" in d:
        return {_dato(k): _dato(v) for k, v in d["dict"]}
    for clase, hacer in (("list", list), ("tuple", tuple), ("set", set)):
        if clase in d:
            return hacer(_dato(v) for v in d[clase])
    return decodificar(d)


class CodigoAislado:
    """El código de una respuesta, cargado en una jaula que se vuelve a arrancar si muere o se cuelga."""

    def __init__(self, codigo):
        self.codigo = codigo
        self.proceso = None
        self.cargado = False
        self.error_al_cargar = None  # por qué no se puede cargar la respuesta, si no se puede

    def __enter__(self):
        return self

    def __exit__(self, *excepcion):
        self.cerrar()

    def cerrar(self):
        if self.proceso is not None:
            self.proceso.kill()
            self.proceso.wait()
            self.proceso = None

    def _arrancar(self):
        # El servidor entra solo, en una ruta neutra: la jaula no ve ni la carpeta del curso.
        orden = jaula.orden([sys.executable, "-I", "/opt/corrector.py"], legibles=[(SERVIDOR, "/opt/corrector.py")],
                            carpeta="/tmp")
        self.proceso = subprocess.Popen(orden, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.cargado, self._pendiente = False, b""

    def _envia(self, mensaje):
        try:
            self.proceso.stdin.write((json.dumps(mensaje, ensure_ascii=False) + "\n").encode())
            self.proceso.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # ya ha muerto: lo dirá la lectura

    def _recibe(self, limite):
        """La siguiente línea que manda la jaula, leída a trozos sin bloquearse hasta el instante `limite`.

        Una línea a medias o un silencio no cuelgan al corrector: pasado el límite, TimeoutError.
        """
        fd = self.proceso.stdout.fileno()
        while b"\n" not in self._pendiente:
            queda = limite - time.monotonic()
            if queda <= 0 or not select.select([fd], [], [], queda)[0]:
                raise TimeoutError()
            trozo = os.read(fd, 65536)
            if not trozo:
                self.proceso.wait()
                raise Suspenso("El proceso con tu código ha terminado de golpe (código %s): ¿os._exit, "
                               "demasiada memoria o demasiado tiempo de CPU?" % self.proceso.returncode)
            self._pendiente += trozo
            if len(self._pendiente) > jaula.MAXIMO_RESPUESTA:
                raise Suspenso("Tu código ha devuelto más datos de los que caben en una observación.")
        linea, _, self._pendiente = self._pendiente.partition(b"\n")
        try:
            mensaje = json.loads(linea)
        except (ValueError, RecursionError):
            mensaje = None
        if not isinstance(mensaje, dict):
            raise Suspenso("Tu código ha escrito en el canal del corrector algo que no se entiende.")
        return mensaje

    def _pide(self, mensaje, segundos, entorno=None):
        """Manda una orden y atiende lo que pida la jaula hasta que conteste, todo en `segundos` como mucho."""
        limite = time.monotonic() + segundos
        self._envia(mensaje)
        try:
            while True:
                respuesta = self._recibe(limite)
                if "op" not in respuesta:
                    return respuesta
                self._envia(self._opera(entorno, respuesta))
        except BaseException:
            self.cerrar()  # a medio hacer no sirve: la próxima orden arranca otra jaula
            raise

    @staticmethod
    def _opera(entorno, pedido):
        """Hace en el entorno de verdad la operación que ha pedido una herramienta desde la jaula."""
        try:
            a = [_dato(x) for x in pedido["argumentos"]]
        except Exception as e:
            return {"excepcion": de_excepcion(e)}
        operaciones = {"contiene": lambda: a[0] in entorno, "lee": lambda: entorno[a[0]],
                       "escribe": lambda: entorno.__setitem__(a[0], a[1]), "borra": lambda: entorno.__delitem__(a[0]),
                       "claves": lambda: list(entorno), "cuantos": lambda: len(entorno),
                       # una herramienta va a correr: el entorno espía de la comprobación la apunta
                       "corre": lambda: getattr(entorno, "corre", lambda *_: None)(*a)}
        if entorno is None or pedido["op"] not in operaciones:
            return {"excepcion": de_excepcion(RuntimeError("operación no permitida"))}
        try:
            return {"ok": codificar(operaciones[pedido["op"]]())}
        except Exception as e:
            return {"excepcion": de_excepcion(e)}

    def _listo(self):
        if self.proceso is None or self.proceso.poll() is not None:
            self.cerrar()
            self._arrancar()

    def cargar(self):
        """Carga la respuesta en la jaula (una vez por jaula); devuelve por qué no se puede cargar, o None."""
        if self.error_al_cargar is None:
            self._listo()
            if not self.cargado:
                try:
                    respuesta = self._pide({"cargar": self.codigo}, ARRANQUE)
                except TimeoutError:
                    self.error_al_cargar = "no termina en %d segundos" % ARRANQUE
                except Suspenso as s:
                    self.error_al_cargar = str(s)
                except Exception as e:  # lo que sea: esa respuesta no se carga, y las demás se corrigen
                    self.error_al_cargar = "el corrector no ha podido cargarla (%s: %s)" % (type(e).__name__, e)
                else:
                    if "excepcion" in respuesta:
                        self.error_al_cargar = "%(tipo)s: %(texto)s" % respuesta["excepcion"]
                    self.cargado = True
        return self.error_al_cargar

    def ejecutar(self, llamada, entorno):
        """El `ejecutar` del estudiante, visto desde aquí. Lo que lance llega como `Lanzada`."""
        if self.cargar() is not None:
            raise Suspenso("Tu celda de respuesta da error al ejecutarse: %s" % self.error_al_cargar)
        try:
            respuesta = self._pide({"llamada": codificar(llamada)}, jaula.SEGUNDOS_POR_LLAMADA, entorno)
        except TimeoutError:
            raise Suspenso("ejecutar no ha terminado en %d segundos. ¿Hay un bucle que repite la llamada? "
                           "La herramienta se ejecuta una vez como mucho." % jaula.SEGUNDOS_POR_LLAMADA) from None
        if "falta" in respuesta:
            raise Suspenso("No encuentro tu función ejecutar. ¿Ha dado error la celda de tu respuesta?")
        if "excepcion" in respuesta:
            raise Lanzada(respuesta["excepcion"]["tipo"], respuesta["excepcion"]["texto"])
        return _dato(respuesta["devuelve"])

    def valor(self, codigo, nombre):
        """El valor de `nombre` tras ejecutar `codigo` (una celda de respuesta) en la jaula."""
        self._listo()
        try:
            respuesta = self._pide({"valor": codigo, "nombre": nombre}, jaula.SEGUNDOS_POR_LLAMADA)
        except TimeoutError:
            raise Suspenso("La celda de tu respuesta no termina en %d segundos." % jaula.SEGUNDOS_POR_LLAMADA) from None
        if "falta" in respuesta:
            raise Suspenso("Tu celda de respuesta no define %s." % nombre)
        if "excepcion" in respuesta:
            raise Suspenso("Tu celda de respuesta da error: %s: %s"
                           % (respuesta["excepcion"]["tipo"], respuesta["excepcion"]["texto"]))
        return _dato(respuesta["devuelve"])
