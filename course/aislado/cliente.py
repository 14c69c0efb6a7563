"""El lado del corrector: el código del estudiante en su jaula, alcanzado solo con datos.

`CodigoAislado(codigo).ejecutar(llamada, entorno)` se usa como el `ejecutar` del estudiante: la
llamada va a la jaula, y las operaciones de su herramienta sobre el entorno vuelven aquí, donde
está el entorno de verdad. Lo que devuelve llega como datos simples: un objeto del estudiante
nunca entra en el proceso del corrector.
"""

import os
import select
import subprocess
import sys
from pathlib import Path

from course import RAIZ, limites
from course.calificacion import Suspenso
from harness.revision.vigilancia import OPERACIONES, Agotado, en_segundos, operar

from . import jaula, protocolo, servidor
from .reloj import Espera, Plazo
from .protocolo import (Cargar, DemasiadasPiezas, Devuelve, Excepcion, Falta, Ilegible, Importar, Lanzada, Llamada, Ok,
                        Operacion, Valor, codificar, de_excepcion, decodificar, leer_excepcion)

# Lo único del curso que ve la jaula del corrector: el servidor, el protocolo y los topes, cada uno en
# su sitio de un paquete `course` que allí no tiene nada más (ni __init__.py: es un paquete de nombres).
EN_LA_JAULA = "/opt/curso"


def _en_la_jaula(modulo):
    """(el fichero de un módulo del curso, su ruta en la jaula)."""
    fichero = Path(modulo.__file__).resolve()
    return fichero, "%s/%s" % (EN_LA_JAULA, fichero.relative_to(RAIZ).as_posix())


LEGIBLES = [_en_la_jaula(m) for m in (limites, protocolo, servidor)]
ARRANQUE = "import sys; sys.path.insert(0, %r); from course.aislado import servidor; servidor.main()" % EN_LA_JAULA
NO_SE_ENTIENDE = "Tu código ha escrito en el canal del corrector algo que no se entiende."


def _dato(d):
    """El valor que devuelve la jaula; un dato ilegible o con demasiadas piezas suspende con su motivo."""
    try:
        return decodificar(d)
    except DemasiadasPiezas:
        raise Suspenso("Tu código ha devuelto un dato con más de %d piezas: no cabe en una observación."
                       % limites.PIEZAS_DE_UN_DATO) from None
    except Ilegible:
        raise Suspenso(NO_SE_ENTIENDE) from None


def _devuelto(respuesta):
    """El valor de un Devuelve; otro mensaje, donde solo cabe ese, suspende como lo que no se entiende."""
    if not isinstance(respuesta, Devuelve):
        raise Suspenso(NO_SE_ENTIENDE)
    return _dato(respuesta.devuelve)


def _excepcion(respuesta):
    """(tipo, texto, origen) de la Excepcion que cuenta la jaula, si tiene esa forma."""
    try:
        return leer_excepcion(respuesta.excepcion)
    except Ilegible:
        raise Suspenso(NO_SE_ENTIENDE) from None


def _igualar(destino, fuente):
    """Deja `destino` (un dict o una lista) igual que `fuente`, cambiándolo en su sitio y por dentro: así
    queda la llamada del corrector como la ha dejado `ejecutar` en la jaula."""
    if type(destino) is type(fuente) is dict:
        for clave in [c for c in destino if c not in fuente]:
            del destino[clave]
        for clave, valor in fuente.items():
            if clave in destino and type(destino[clave]) in (dict, list) and type(valor) is type(destino[clave]):
                _igualar(destino[clave], valor)
            else:
                destino[clave] = valor
    elif type(destino) is type(fuente) is list:
        destino[:] = fuente


class CodigoAislado:
    """El código de una respuesta, cargado en una jaula que se vuelve a arrancar si muere o se cuelga.

    Es una `RespuestaAparte` (course/aislado/protocolo.py): las comprobaciones lo reciben entero, y dicen
    aparte por qué no se ha podido cargar. Lo que lanza `ejecutar` llega como `Lanzada`.

    El tiempo, con los topes de course/limites.py: cada llamada tiene el suyo, el que dice la lección
    (LLAMADA), y todas las de la entrega juntas tienen `tiempo` segundos como mucho, contados desde la
    primera orden: más de lo que gastan todas las llamadas de la corrección si cada una cumple su tope.
    Lo que la jaula y el corrector esperan a que les toque una CPU no se cobra, ni lo que trabaja el
    corrector mientras tanto (course/aislado/reloj.py).
    """

    # La alarma de respaldo del corrector de confianza (course/calificacion.py) para una llamada: la jaula
    # corta antes, también con la máquina cargada.
    respaldo = limites.LLAMADA * limites.ALARGUE_POR_CARGA + 1

    def __init__(self, codigo, tiempo=limites.COMPROBACIONES, importaciones=()):
        self.codigo = codigo
        self.importaciones = list(importaciones)  # las de las celdas de antes de la respuesta, como `import json`
        self.proceso = None
        self.jaula = None
        self.cargado = False
        self.error_al_cargar = None  # por qué no se puede cargar la respuesta, si no se puede
        self.tiempo = tiempo
        self._espera = Espera()      # lo que no se cobra: la espera por la CPU, y el trabajo de este hilo
        self._entrega = None         # el plazo de toda la entrega (empieza con la primera orden)

    def __enter__(self):
        return self

    def __exit__(self, *excepcion):
        self.cerrar()

    def cerrar(self):
        if self.proceso is not None:
            self.proceso.kill()
            self.proceso.wait()
            self.proceso = None
        if self.jaula is not None:
            self.jaula.cerrar()
            self.jaula = None

    def _arrancar(self):
        # El servidor entra con el protocolo y los topes, en una ruta neutra: la jaula no ve la carpeta del curso.
        self.jaula = jaula.Jaula(legibles=LEGIBLES, carpeta="/tmp")
        self.proceso = subprocess.Popen(self.jaula.orden([sys.executable, "-I", "-c", ARRANQUE]),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        os.set_blocking(self.proceso.stdin.fileno(), False)  # escribir nunca cuelga: ver _envia
        self.cargado, self._pendiente = False, b""
        self._espera.raiz = self.proceso.pid
        # Lo que tarda en arrancar es cosa de la máquina: su propio tope, de reloj, aparte del de la respuesta.
        try:
            plazo = Plazo(limites.ARRANQUE_JAULA)
            self._recibe(plazo)
            if self.importaciones:  # lo que el cuaderno ya ha importado cuando llega a la respuesta
                self._envia(Importar(self.importaciones), plazo)
                self._recibe(plazo)
        except TimeoutError:
            self.cerrar()
            raise Suspenso("La jaula del corrector no ha arrancado en %d segundos: la máquina va muy cargada. "
                           "Avisa a tu profesor." % limites.ARRANQUE_JAULA) from None

    def _envia(self, mensaje, plazo):
        """Escribe una línea en la jaula sin bloquearse: si la jaula no la lee dentro del `plazo`, TimeoutError."""
        linea = protocolo.linea(mensaje)
        if len(linea) > limites.LINEA_A_LA_JAULA:
            raise Suspenso("Lo que habría que mandar a tu código ocupa más de %d bytes." % limites.LINEA_A_LA_JAULA)
        fd = self.proceso.stdin.fileno()
        escritura = Plazo(limites.ESCRITURA)
        while linea:
            queda = min(plazo.queda(), escritura.queda())
            if queda <= 0:
                raise TimeoutError()
            if not select.select([], [fd], [], queda)[1]:
                continue  # el plazo dirá si se ha cumplido o se ha alargado por la carga
            try:
                linea = linea[os.write(fd, linea[:65536]):]
            except BlockingIOError:
                continue
            except OSError:
                return  # ya ha muerto: lo dirá la lectura

    def _recibe(self, plazo):
        """La siguiente línea que manda la jaula, leída a trozos sin bloquearse mientras dure el `plazo`.

        Una línea a medias o un silencio no cuelgan al corrector: cumplido el plazo, TimeoutError.
        """
        fd = self.proceso.stdout.fileno()
        while b"\n" not in self._pendiente:
            queda = plazo.queda()
            if queda <= 0:
                raise TimeoutError()
            if not select.select([fd], [], [], queda)[0]:
                continue  # el plazo dirá si se ha cumplido o se ha alargado por la carga
            trozo = os.read(fd, 65536)
            if not trozo:
                self.proceso.wait()
                raise Suspenso("El proceso con tu código ha terminado de golpe (código %s): ¿os._exit, "
                               "demasiada memoria o demasiado tiempo de CPU?" % self.proceso.returncode)
            self._pendiente += trozo
            if len(self._pendiente) > limites.LINEA_DE_LA_JAULA:
                raise Suspenso("Tu código ha devuelto más datos de los que caben en una observación.")
        linea, _, self._pendiente = self._pendiente.partition(b"\n")
        try:
            return protocolo.mensaje(linea)
        except Ilegible:
            raise Suspenso(NO_SE_ENTIENDE) from None

    def _pide(self, mensaje, segundos, entorno=None):
        """Manda una orden y atiende lo que pida la jaula hasta que conteste, todo en `segundos` como mucho
        (sin contar la espera por la CPU)."""
        plazo = Plazo(segundos, self._espera)
        try:
            self._envia(mensaje, plazo)
            while True:
                respuesta = self._recibe(plazo)
                if not isinstance(respuesta, Operacion):
                    return respuesta
                self._envia(self._opera(entorno, respuesta), plazo)
        except BaseException:
            self.cerrar()  # a medio hacer no sirve: la próxima orden arranca otra jaula
            raise

    @staticmethod
    def _opera(entorno, pedido):
        """Hace en el entorno de verdad la Operacion que ha pedido una herramienta desde la jaula: Ok o Excepcion."""
        try:
            piezas = [limites.PIEZAS_DE_UN_DATO]
            a = [decodificar(x, piezas) for x in pedido.argumentos]
        except Exception as e:
            return Excepcion(de_excepcion(e))
        if entorno is None or not isinstance(pedido.op, str) or pedido.op not in OPERACIONES:
            return Excepcion(de_excepcion(RuntimeError("operación no permitida")))
        try:  # en el entorno de la comprobación, que la apunta (harness.revision.vigilancia)
            return Ok(codificar(operar(entorno, pedido.op, *a)))
        except Exception as e:
            # Con su traza, la excepción guardaría estos marcos (y lo que la respuesta ha mandado en ellos) mientras
            # alguien la tuviera: no hace falta para contarla.
            e.__traceback__ = None
            return Excepcion(de_excepcion(e))

    def _listo(self):
        if self.proceso is None or self.proceso.poll() is not None:
            self.cerrar()
            self._arrancar()

    def _tope(self, segundos):
        """`segundos`, o lo que quede del tiempo de la entrega si es menos. Si no queda nada, Suspenso."""
        if self._entrega is None:
            self._entrega = Plazo(self.tiempo, self._espera)
        queda = self._entrega.queda(al_dia=True)
        if queda <= 0:
            raise self._sin_tiempo("esta ya no se ha hecho")
        return min(segundos, queda)

    def _sin_tiempo(self, que_ha_pasado):
        """El Suspenso de cuando se acaba el tiempo de la entrega: no se achaca a ninguna equivocación, y lo
        explica todo lo que ya no se ha podido probar (se dice una vez: `comun`)."""
        s = Suspenso("Se ha acabado el tiempo de las comprobaciones de tu entrega (%s entre todas sus llamadas a "
                     "ejecutar, además de %s para cada una) y %s. ¿Tarda tu ejecutar cerca de %s en cada llamada?"
                     % (en_segundos(self.tiempo), en_segundos(limites.LLAMADA), que_ha_pasado,
                        en_segundos(limites.LLAMADA)))
        s.comun = "tiempo"
        return s

    def cargar(self):
        """Carga la respuesta en la jaula (una vez por jaula); devuelve por qué no se puede cargar, o None."""
        if self.error_al_cargar is None and len(self.codigo.encode()) > limites.CODIGO_RESPUESTA:
            self.error_al_cargar = "tu respuesta ocupa más de %d kB" % (limites.CODIGO_RESPUESTA // limites.KIB)
        if self.error_al_cargar is None and not (self.cargado and self.proceso is not None
                                                 and self.proceso.poll() is None):
            try:
                self._listo()
                tope = self._tope(limites.CARGA)
                respuesta = self._pide(Cargar(self.codigo), tope)
            except TimeoutError:
                self.error_al_cargar = "no termina en %s" % en_segundos(tope)
            except Suspenso as s:
                self.error_al_cargar = str(s)
            except Exception as e:  # lo que sea: esa respuesta no se carga, y las demás se corrigen
                self.error_al_cargar = "el corrector no ha podido cargarla (%s: %s)" % (type(e).__name__, e)
            else:
                if isinstance(respuesta, Excepcion):
                    self.error_al_cargar = "%s: %s" % _excepcion(respuesta)[:2]
                self.cargado = True
        return self.error_al_cargar

    def ejecutar(self, llamada, entorno):
        """El `ejecutar` del estudiante, visto desde aquí. Lo que lance llega como `Lanzada`; si no termina a
        tiempo, Agotado (harness.revision.vigilancia, que dice qué ha pasado). Si ha cambiado la llamada,
        `llamada` cambia igual."""
        self._tope(limites.LLAMADA)  # si a la entrega no le queda tiempo, ni se vuelve a cargar la respuesta
        if self.cargar() is not None:
            raise Suspenso("Tu celda de respuesta da error al ejecutarse: %s" % self.error_al_cargar)
        tope = self._tope(limites.LLAMADA)
        try:
            respuesta = self._pide(Llamada(codificar(llamada)), tope, entorno)
        except TimeoutError:
            if tope < limites.LLAMADA:
                # Se ha cortado en lo que le quedaba a la entrega, no en el tope de una llamada: que no
                # haya acabado a tiempo no dice nada de esta llamada (podía faltarle una décima).
                raise self._sin_tiempo("esta se ha cortado a medias") from None
            raise Agotado(tope) from None
        if isinstance(respuesta, (Devuelve, Excepcion)) and respuesta.llamada is not None:
            _igualar(llamada, _dato(respuesta.llamada))
        if isinstance(respuesta, Falta):
            raise Suspenso("No encuentro tu función ejecutar. ¿Ha dado error la celda de tu respuesta?")
        if isinstance(respuesta, Excepcion):
            raise Lanzada(*_excepcion(respuesta))
        return _devuelto(respuesta)

    def valor(self, codigo, nombre):
        """El valor de `nombre` tras ejecutar `codigo` (una celda de respuesta) en la jaula."""
        if len(codigo.encode()) > limites.CODIGO_RESPUESTA:
            raise Suspenso("Tu celda de respuesta ocupa más de %d kB." % (limites.CODIGO_RESPUESTA // limites.KIB))
        self._listo()
        tope = self._tope(limites.LLAMADA)
        try:
            respuesta = self._pide(Valor(codigo, nombre), tope)
        except TimeoutError:
            raise Suspenso("La celda de tu respuesta no termina en %s." % en_segundos(tope)) from None
        if isinstance(respuesta, Falta):
            raise Suspenso("Tu celda de respuesta no define %s." % nombre)
        if isinstance(respuesta, Excepcion):
            raise Suspenso("Tu celda de respuesta da error: %s: %s" % _excepcion(respuesta)[:2])
        return _devuelto(respuesta)
