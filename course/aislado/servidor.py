"""El lado de la jaula: carga el código del estudiante y contesta al corrector, solo con datos.

Corre dentro de bubblewrap, sin ver el curso: solo la biblioteca estándar y harness. Habla por
líneas JSON con el corrector, que está fuera. El entorno que recibe `ejecutar` no está aquí: cada
vez que una herramienta lo mira o lo cambia, se le pregunta al corrector, que es quien lo tiene
y quien cuenta lo que le pasa.
"""

import builtins
import json
import linecache
import os
import sys
from collections.abc import MutableMapping

MAXIMO = 1_000_000  # caracteres de una respuesta; más es una inundación


def codificar(x, fondo=0):
    """Un valor de Python como JSON sin perder su tipo. Lo que no sea un dato simple va como texto."""
    if fondo > 50:
        return {"otro": "demasiado anidado", "repr": ""}
    if type(x) in (str, int, float, bool) or x is None:
        return {"v": x}
    if type(x) is dict:
        return {"dict": [[codificar(k, fondo + 1), codificar(v, fondo + 1)] for k, v in x.items()]}
    if type(x) in (list, tuple, set, frozenset):
        clase = "set" if type(x) in (set, frozenset) else type(x).__name__
        return {clase: [codificar(v, fondo + 1) for v in x]}
    try:
        texto = repr(x)[:300]
    except BaseException:
        texto = "?"
    return {"otro": type(x).__name__, "repr": texto}


def decodificar(d):
    if "v" in d:
        return d["v"]
    if "dict" in d:
        return {decodificar(k): decodificar(v) for k, v in d["dict"]}
    if "list" in d:
        return [decodificar(v) for v in d["list"]]
    if "tuple" in d:
        return tuple(decodificar(v) for v in d["tuple"])
    if "set" in d:
        return {decodificar(v) for v in d["set"]}
    raise ValueError("no sé decodificar %r" % (d,))


def de_excepcion(e):
    """Una excepción como datos: su tipo, sus argumentos y su texto."""
    try:
        texto = str(e)
    except BaseException:
        texto = "(su texto no se puede obtener)"
    try:
        argumentos = codificar(e.args)
    except BaseException:
        argumentos = {"tuple": []}
    return {"tipo": type(e).__name__, "texto": texto, "args": argumentos}


def a_excepcion(d):
    """La excepción que describe `d`, tal cual si es de las de Python; si no, una con su nombre y su texto."""
    clase = getattr(builtins, d["tipo"], None)
    if isinstance(clase, type) and issubclass(clase, Exception):
        try:
            e = clase(*decodificar(d["args"]))
            if str(e) == d["texto"]:
                return e
        except Exception:
            pass
    return type(d["tipo"], (Exception,), {"__str__": lambda self: d["texto"]})()


class Canal:
    """Las dos tuberías con el corrector, apartadas de la salida normal para que print no las ensucie."""

    def __init__(self):
        self.entrada = os.fdopen(os.dup(0), "r", encoding="utf-8")
        self.salida = os.fdopen(os.dup(1), "w", encoding="utf-8")
        nulo = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(nulo, fd)

    def enviar(self, mensaje):
        linea = json.dumps(mensaje, ensure_ascii=False)
        if len(linea) > MAXIMO:
            linea = json.dumps({"excepcion": {"tipo": "RespuestaEnorme", "args": {"tuple": []},
                                              "texto": "lo devuelto ocupa más de %d caracteres" % MAXIMO}})
        self.salida.write(linea + "\n")
        self.salida.flush()

    def recibir(self):
        linea = self.entrada.readline()
        if not linea:
            os._exit(0)
        return json.loads(linea)


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


def _espacio(codigo, archivo=RESPUESTA):
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
    sys.setrecursionlimit(3000)
    espacio = None
    import harness.salmorejo  # noqa: F401 (cargado ya, el tope de la carga de una respuesta es solo para ella)
    from harness.vigilancia import origen, vigilar
    vigilar([], _corre)  # para toda la vida de la jaula: el código del estudiante ve ya las herramientas vigiladas
    canal.enviar({"listo": True})
    while True:
        orden = canal.recibir()
        try:
            if "cargar" in orden:
                espacio = _espacio(orden["cargar"])
                canal.enviar({"hecho": True})
            elif "valor" in orden:
                nombre = orden["nombre"]
                valores = _espacio(orden["valor"], "<tu celda %s>" % nombre)  # otra celda: no pisa las líneas de ejecutar
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
                    canal.enviar({"excepcion": dict(de_excepcion(e), origen=donde)})
                    continue
                finally:
                    _EN_CURSO.clear()
                canal.enviar({"devuelve": codificar(obs)})
        except BaseException as e:  # también SystemExit y KeyboardInterrupt: el corrector decide
            canal.enviar({"excepcion": de_excepcion(e)})


if __name__ == "__main__":
    main()
