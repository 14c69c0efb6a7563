"""El lado de la jaula: carga el código del estudiante y contesta al corrector, solo con datos.

Corre dentro de bubblewrap, sin ver el curso: solo la biblioteca estándar, harness, este fichero,
el protocolo y los topes (course/aislado/protocolo.py, course/limites.py). Habla con el corrector,
que está fuera, con los mensajes del protocolo. El entorno que recibe `ejecutar` no está aquí: es la
misma vista que en el cuaderno (harness.revision.vigilancia.Entorno), y cada operación que se le hace
se le pide al corrector, que es quien lo tiene y quien apunta lo que le pasa. Después de cada llamada,
la jaula devuelve también la llamada tal como ha quedado: si `ejecutar` la ha cambiado, el corrector
cambia la suya igual.
"""

import linecache
import os
import sys

from course import limites

from .protocolo import (Cargar, Devuelve, Excepcion, Falta, Hecho, Importar, Listo, Llamada, Ok, Operacion, Valor,
                        a_excepcion, codificar, de_excepcion, decodificar, linea, mensaje)


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
            datos = linea(Excepcion(de_excepcion(RespuestaEnorme(
                "lo devuelto ocupa más de %d bytes" % limites.LINEA_DE_LA_JAULA))))
        self.salida.write(datos)
        self.salida.flush()

    def recibir(self):
        leida = self.entrada.readline()
        if not leida:
            os._exit(0)
        return mensaje(leida)


def operar_en_el_corrector(canal):
    """La función que hace una operación del entorno: se la pide al corrector y espera su respuesta."""
    def operar(op, *argumentos):
        canal.enviar(Operacion(op, [codificar(a) for a in argumentos]))
        match canal.recibir():
            case Ok(dato):
                return decodificar(dato)
            case Excepcion(excepcion):
                raise a_excepcion(excepcion)
            case otra:
                raise RuntimeError("el corrector ha contestado %s a una operación" % type(otra).__name__)
    return operar


RESPUESTA = "<tu respuesta>"  # el nombre de fichero del código de la respuesta, en sus trazas


def antes_de_la_respuesta(importaciones=()):
    """El espacio de nombres del cuaderno antes de la respuesta: lo de harness y las `importaciones` de las celdas
    de antes (una por elemento, como `import json`), las que se pueden hacer en la jaula."""
    espacio = {"__name__": "__main__"}
    exec("from harness import *\nfrom harness.salmorejo import INICIO, RESPUESTAS, VISTO, FINAL", espacio)
    for importacion in importaciones:
        try:
            exec(importacion, espacio)
        except Exception:  # lo que la jaula no ve (course/): en el cuaderno tampoco lo usa una respuesta que vale
            pass
    return espacio


def espacio_de(codigo, archivo=RESPUESTA, antes=None):
    """La respuesta ejecutada en una copia de `antes` (el espacio de nombres del cuaderno antes de ella)."""
    espacio = dict(antes if antes is not None else antes_de_la_respuesta())
    # Con sus líneas a mano, una excepción de la respuesta puede decir en qué línea ha saltado.
    linecache.cache[archivo] = (len(codigo), None, codigo.splitlines(True), archivo)
    exec(compile(codigo, archivo, "exec"), espacio)
    return espacio


def main():
    canal = Canal()
    sys.stdout = sys.stderr = open(os.devnull, "w")
    sys.setrecursionlimit(limites.RECURSION_EN_LA_JAULA)
    espacio = None
    antes = antes_de_la_respuesta()
    import harness.salmorejo  # noqa: F401 (cargado ya, el tope de la carga de una respuesta es solo para ella)
    from harness.revision.vigilancia import Entorno, origen
    entorno = Entorno(operar_en_el_corrector(canal))
    canal.enviar(Listo())
    while True:
        orden = canal.recibir()
        try:
            match orden:
                case Importar(importaciones):
                    antes = antes_de_la_respuesta(importaciones)
                    canal.enviar(Hecho())
                case Cargar(codigo):
                    espacio = espacio_de(codigo, antes=antes)
                    canal.enviar(Hecho())
                case Valor(codigo, nombre):
                    valores = espacio_de(codigo, "<tu celda %s>" % nombre, antes)  # otra celda: no pisa las líneas de ejecutar
                    canal.enviar(Devuelve(codificar(valores[nombre])) if nombre in valores else Falta(nombre))
                case Llamada(dato):
                    ejecutar = espacio.get("ejecutar") if espacio else None
                    if not callable(ejecutar):
                        canal.enviar(Falta("ejecutar"))
                        continue
                    ll = decodificar(dato)
                    try:
                        obs = ejecutar(ll, entorno)
                    except Exception as e:  # con la línea de la respuesta que la ha lanzado, si es suya
                        try:
                            donde = origen(e, RESPUESTA)
                        except BaseException:
                            donde = None
                        canal.enviar(Excepcion(de_excepcion(e, donde), codificar(ll)))
                        continue
                    canal.enviar(Devuelve(codificar(obs), codificar(ll)))
        except BaseException as e:  # también SystemExit y KeyboardInterrupt: el corrector decide
            canal.enviar(Excepcion(de_excepcion(e)))

