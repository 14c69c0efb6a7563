"""El lado de la jaula: carga el código del estudiante y contesta al corrector, solo con datos.

Corre dentro de bubblewrap, sin ver el curso: solo la biblioteca estándar, harness, este fichero,
el protocolo y los topes (course/aislado/protocolo.py, course/limites.py). Habla con el corrector,
que está fuera, con los mensajes del protocolo. El entorno que recibe `ejecutar` no está aquí: cada
vez que una herramienta lo mira o lo cambia, se le pregunta al corrector, que es quien lo tiene
y quien cuenta lo que le pasa.
"""

import linecache
import os
import sys
from collections.abc import MutableMapping

from course import limites

from .protocolo import a_excepcion, codificar, de_excepcion, decodificar, linea, mensaje


class RespuestaEnorme(Exception):
    """Lo que habría que mandar al corrector no cabe en una línea del canal."""


class Canal:
    """Las dos tuberías con el corrector, apartadas de la salida normal para que print no las ensucie."""

    def __init__(self):
        self.entrada = os.fdopen(os.dup(0), "rb")
        self.salida = os.fdopen(os.dup(1), "wb")
        nulo = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(nulo, fd)

    def enviar(self, m):
        datos = linea(m)
        if len(datos) > limites.LINEA_DE_LA_JAULA:
            datos = linea({"excepcion": de_excepcion(RespuestaEnorme(
                "lo devuelto ocupa más de %d bytes" % limites.LINEA_DE_LA_JAULA))})
        self.salida.write(datos)
        self.salida.flush()

    def recibir(self):
        leida = self.entrada.readline()
        if not leida:
            os._exit(0)
        return mensaje(leida)


class EntornoRemoto(MutableMapping):
    """El entorno que ve `ejecutar`: cada operación se la pregunta al corrector."""

    def __init__(self, canal):
        self._canal = canal

    def _op(self, op, *argumentos):
        self._canal.enviar({"op": op, "argumentos": [codificar(a) for a in argumentos]})
        respuesta = self._canal.recibir()
        if "excepcion" in respuesta:
            raise a_excepcion(respuesta["excepcion"])
        return decodificar(respuesta["ok"])

    def __contains__(self, clave):
        return self._op("contiene", clave)

    def __getitem__(self, clave):
        return self._op("lee", clave)

    def __setitem__(self, clave, valor):
        self._op("escribe", clave, valor)

    def __delitem__(self, clave):
        self._op("borra", clave)

    def __iter__(self):
        return iter(self._op("claves"))

    def __len__(self):
        return self._op("cuantos")


_EN_CURSO = []  # el entorno remoto de la llamada que se está contestando


def _corre(nombre, argumentos, entorno):
    """Una herramienta va a correr: el corrector la apunta (y puede hacerla fallar, que es como prueba las excepciones)."""
    if _EN_CURSO:
        _EN_CURSO[0]._op("corre", nombre, argumentos, entorno is _EN_CURSO[0])


RESPUESTA = "<tu respuesta>"  # el nombre de fichero del código de la respuesta, en sus trazas


def espacio_de(codigo, archivo=RESPUESTA):
    """El espacio de nombres del cuaderno antes de la respuesta, y la respuesta ejecutada en él."""
    espacio = {"__name__": "__main__"}
    exec("from harness import *\nfrom harness.salmorejo import INICIO, RESPUESTAS, VISTO, FINAL", espacio)
    # Con sus líneas a mano, una excepción de la respuesta puede decir en qué línea ha saltado.
    linecache.cache[archivo] = (len(codigo), None, codigo.splitlines(True), archivo)
    exec(compile(codigo, archivo, "exec"), espacio)
    return espacio


def main():
    canal = Canal()
    sys.stdout = sys.stderr = open(os.devnull, "w")
    sys.setrecursionlimit(limites.RECURSION_EN_LA_JAULA)
    espacio = None
    import harness.salmorejo  # noqa: F401 (cargado ya, el tope de la carga de una respuesta es solo para ella)
    from harness.revision.vigilancia import origen, vigilar
    vigilar([], _corre)  # para toda la vida de la jaula: el código del estudiante ve ya las herramientas vigiladas
    canal.enviar({"listo": True})
    while True:
        orden = canal.recibir()
        try:
            if "cargar" in orden:
                espacio = espacio_de(orden["cargar"])
                canal.enviar({"hecho": True})
            elif "valor" in orden:
                nombre = orden["nombre"]
                valores = espacio_de(orden["valor"], "<tu celda %s>" % nombre)  # otra celda: no pisa las líneas de ejecutar
                canal.enviar({"devuelve": codificar(valores[nombre])} if nombre in valores else {"falta": nombre})
            elif "llamada" in orden:
                ejecutar = espacio.get("ejecutar") if espacio else None
                if not callable(ejecutar):
                    canal.enviar({"falta": "ejecutar"})
                    continue
                _EN_CURSO[:] = [EntornoRemoto(canal)]
                try:
                    obs = ejecutar(decodificar(orden["llamada"]), _EN_CURSO[0])
                except Exception as e:  # con la línea de la respuesta que la ha lanzado, si es suya
                    try:
                        donde = origen(e, RESPUESTA)
                    except BaseException:
                        donde = None
                    canal.enviar({"excepcion": de_excepcion(e, donde)})
                    continue
                finally:
                    _EN_CURSO.clear()
                canal.enviar({"devuelve": codificar(obs)})
        except BaseException as e:  # también SystemExit y KeyboardInterrupt: el corrector decide
            canal.enviar({"excepcion": de_excepcion(e)})

