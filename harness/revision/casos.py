"""Los casos con que se prueba `ejecutar`, hechos con una semilla a partir de los esquemas de las
herramientas y de un entorno: la misma semilla da siempre los mismos. `revisar` usa una semilla pública
(cuaderno.py); el corrector, otra que los estudiantes no ven.

Un caso es una llamada y el disco donde se prueba: sus ficheros y dónde falla (`Disco`; la prueba lo
monta en un vigilancia.Espia). Lo que se espera de cada uno lo dicen las herramientas de verdad sobre
ese disco, no estos casos. Ninguno repite las dos formas de fallar de la traza del salmorejo (leer sin
el campo 'ruta', leer una receta que no existe): la traza se prueba entera aparte, y contestar solo a
esas dos no es cumplir el contrato.
"""

import random
import string
from typing import NamedTuple

from ..bloques import error, llamada, resultado, texto
from ..entorno import ENTORNO, FUNCIONES, HERRAMIENTAS, incumple
from ..salmorejo import INICIO
from .vigilancia import Espia, vista


class Disco(NamedTuple):
    """Los ficheros de una prueba y dónde fallan: ("lee", ruta), ("lista",) o ("escribe", ruta) → la excepción."""
    ficheros: dict
    fallos: dict = {}


def referencia(ll, entorno):
    """La observación que contesta a `ll` en `entorno` según el contrato: la que espera cada guion."""
    motivo = incumple(ll)
    if motivo is not None:
        return error(ll["id"], "no se ha ejecutado: " + motivo)
    try:
        devuelto = FUNCIONES[ll["name"]](vista(entorno), **ll["input"])
    except Exception as e:
        return error(ll["id"], str(e) or type(e).__name__)
    return resultado(ll["id"], devuelto)


# Lo que se puede poner en un disco: ficheros que no están en ENTORNO (textos con espacios, eñes o que
# parecen un error, que tienen que llegar tal cual) y las excepciones con que falla, sin FileNotFoundError.
_EXTRA = {"notas/compra.txt": ["huevos\n\n", "  pan y leche  ", "\tcon tabulador \n"],  # con espacios a los lados
          "aviso.txt": ["no existe el fichero 'x.txt'", "error: la receta no lleva sal", "Traceback: nada"],
          "año.txt": ["Año nuevo: ñoquis y jamón", "«comillas» y “más comillas”", "pimentón, azafrán y ñora"],
          "menú/lunes.txt": ["lentejas\ny fruta", "sopa de ajo"]}
_VACIAS = ["postres/", "menú/martes/", "fotos/"]
_PALABRAS = ["patatas", "aceite", "sal", "cebolla", "ajo", "Marta", "frío", "azafrán", "chocolate", "paella"]
_CONTENIDOS = ["pan, leche, patatas, tomates", "Comprar el sábado.", "Somos ocho.", "x", "línea 1\nlínea 2"]
_PETICIONES = ["Apunta en lista.txt lo que lleva la tortilla y no tengo.", "¿Qué hay en mis notas?",
               "Busca dónde sale el aceite y guárdalo en una nota.", "Copia la receta del gazpacho en notas/."]
_FINALES = ["Hecho: ya está apuntado.", "No he podido leerlo todo, pero te cuento lo que he visto.",
            "Listo. ¿Algo más?", "He terminado con lo que se podía hacer."]

# (tipo, mensajes): «{}» es la ruta. Sin saltos de línea ni los dos tipos de comillas: así repr(e) lleva
# str(e) dentro, y un mensaje con el tipo delante o con repr también dice qué ha pasado.
_AL_LEER = [(PermissionError, ["no tienes permiso para leer '{}'", "{} es de otro usuario"]),
            (ValueError, ["{} no está en UTF-8"]), (TimeoutError, ["el disco no contesta"]),
            (OSError, ["error de lectura en el disco"]), (ConnectionResetError, ["se ha cortado la red al leer {}"])]
_AL_LISTAR = [(NotADirectoryError, ["no es una carpeta"]), (PermissionError, ["no tienes permiso para ver la carpeta"]),
              (TimeoutError, ["el disco de red no contesta"])]
_AL_ESCRIBIR = [(OSError, ["no queda espacio en el disco"]), (PermissionError, ["{} es de solo lectura"]),
                (ConnectionResetError, ["se ha cortado la conexión"]), (InterruptedError, ["la escritura se ha interrumpido"])]
_SIN_MENSAJE = [RuntimeError, MemoryError, InterruptedError, OSError]


class _Generador:
    """Los casos de una semilla."""

    def __init__(self, semilla):
        self.r = random.Random(semilla)
        self.usados = set()
        self.hechas = set()  # las llamadas ya hechas (nombre y entrada): solo una de una_vez se repite, a propósito

    def nueva(self, hacer):
        """La llamada que da `hacer()`, volviéndola a hacer mientras sea igual a otra de antes."""
        for _ in range(100):
            ll = hacer()
            clave = (ll["name"], repr(ll["input"]))
            if clave not in self.hechas:
                self.hechas.add(clave)
                return ll
        return ll

    def id(self):
        while True:
            nuevo = "toolu_01" + "".join(self.r.choice(string.ascii_letters + string.digits) for _ in range(10))
            if nuevo not in self.usados:
                self.usados.add(nuevo)
                return nuevo

    def disco(self, extra=1, con=()):
        """ENTORNO con `extra` ficheros más, y los de `con` seguro."""
        ficheros = dict(ENTORNO)
        for ruta in [*con, *self.r.sample(sorted(set(_EXTRA) - set(con)), extra)]:
            ficheros[ruta] = self.r.choice(_EXTRA[ruta])
        return Disco(ficheros)

    # Llamadas que cumplen su esquema y salen bien

    def sale_bien(self, disco, herramienta=None):
        return self.nueva(lambda: self._sale_bien(disco, herramienta))

    def _sale_bien(self, disco, herramienta=None):
        h = herramienta or self.r.choice(["leer", "listar", "buscar", "escribir"])
        if h == "leer":
            return llamada(self.id(), h, ruta=self.r.choice(sorted(disco.ficheros)))
        if h == "listar":
            carpetas = sorted({r.rsplit("/", 1)[0] + "/" for r in disco.ficheros if "/" in r})
            return llamada(self.id(), h, carpeta=self.r.choice(carpetas + [c.rstrip("/") for c in carpetas] + _VACIAS))
        if h == "buscar":
            return llamada(self.id(), h, patron=self.r.choice(_PALABRAS))
        return llamada(self.id(), h, ruta=self.r.choice(sorted(disco.ficheros) + ["notas/nueva.txt"]),
                       contenido=self.r.choice(_CONTENIDOS))

    # Llamadas que no cumplen su esquema, de cada manera (ninguna, leer sin 'ruta': la forma de t1)

    def incumple(self, forma=None, herramienta=None, disco=None):
        """Una de cada forma: "desconocida", "falta", "sobra", "tipo", "renombrado" o "lista" (la lista de un
        texto, en el campo de una ruta)."""
        return self.nueva(lambda: self._incumple(forma, herramienta, disco))

    def _incumple(self, forma, herramienta, disco):
        forma = forma or self.r.choice(["desconocida", "falta", "sobra", "tipo", "renombrado"])
        sin_leer = forma in ("falta", "renombrado")  # leer sin su 'ruta' es la forma de t1
        herramienta = herramienta or self.r.choice(["listar", "buscar", "escribir"] + ([] if sin_leer else ["leer"]))
        bien = self._sale_bien(disco or Disco(ENTORNO), herramienta)
        entrada = dict(bien["input"])
        campo = self.r.choice(sorted(entrada))
        if forma == "desconocida":
            return llamada(bien["id"], self.r.choice(["borrar", "abrir", "leer_fichero", "Leer", "copiar"]), **entrada)
        if forma == "falta":
            del entrada[campo]
        elif forma == "sobra":
            entrada[self.r.choice(["modo", "orden", "lineas", "codificacion"])] = self.r.choice(["añadir", 3, True])
        elif forma == "tipo":
            entrada[campo] = self.r.choice([7, None, True, {"texto": entrada[campo]}])
        elif forma == "lista":
            campo = "ruta" if "ruta" in entrada else campo
            entrada[campo] = [entrada[campo]]
        else:
            entrada[self.r.choice({"carpeta": ["directorio", "ruta"], "patron": ["texto", "patrón"],
                                   "contenido": ["texto", "contenidos"], "ruta": ["fichero", "path"]}[campo])] = entrada.pop(campo)
        return llamada(bien["id"], bien["name"], **entrada)

    # Llamadas que cumplen su esquema y cuya herramienta falla porque falla el disco

    def falla(self, disco, herramienta=None, clase="mensaje"):
        """Una llamada a `herramienta` en un disco que falla donde ella trabaja, con una excepción de esa
        `clase`: "mensaje" (un texto), "vacia" (sin mensaje: str(e) es "") o "args" (varios argumentos)."""
        ll = self.sale_bien(disco, herramienta or self.r.choice(["leer", "listar", "buscar", "escribir"]))
        if ll["name"] == "leer":
            clave, fallos = ("lee", ll["input"]["ruta"]), _AL_LEER
        elif ll["name"] == "escribir":
            clave, fallos = ("escribe", ll["input"]["ruta"]), _AL_ESCRIBIR
        elif ll["name"] == "listar":
            clave, fallos = ("lista",), _AL_LISTAR
        else:  # buscar lee todos los ficheros: falla al llegar a uno
            clave, fallos = ("lee", self.r.choice(sorted(disco.ficheros))), _AL_LEER
        return ll, Disco(disco.ficheros, {clave: self.excepcion(fallos, clave[-1], clase)})

    def excepcion(self, fallos, ruta="", clase="mensaje"):
        if clase == "vacia":
            return self.r.choice(_SIN_MENSAJE)()
        if clase == "args":
            return ValueError(self.r.choice(_PALABRAS), self.r.randrange(1, 100))  # str(e) es la tupla de sus args
        tipo, mensajes = self.r.choice(fallos)
        e = tipo(self.r.choice(mensajes).format(ruta))
        assert str(e) in repr(e), e
        return e

    def que_no_existe(self, disco):
        """Una errata en la ruta de un fichero que existe y no es una receta (leer una que no existe es t2)."""
        while True:
            ruta = self.r.choice(sorted(r for r in disco.ficheros if not r.startswith("recetas/")))
            i = self.r.randrange(len(ruta))
            errata = ruta[:i] + ruta[i + 1:] if self.r.random() < 0.5 else ruta[:i] + ruta[i] + ruta[i:]
            if (errata not in disco.ficheros and not errata.startswith("recetas") and "/" not in (errata[0], errata[-1])
                    and ("leer", repr({"ruta": errata})) not in self.hechas):
                self.hechas.add(("leer", repr({"ruta": errata})))
                return llamada(self.id(), "leer", ruta=errata)

    # Las conversaciones: un guion hecho con las mismas llamadas, y lo que contesta la referencia

    def conversacion(self, turnos, insiste=False):
        """Un guion de `turnos` turnos con llamadas, con fallos de las dos clases (el disco falla al leer un
        fichero), y lo que contesta la referencia. Si `insiste`, pide lo mismo hasta que lo para el tope."""
        disco = self.disco(2)
        mala, disco = self.falla(disco, "leer")
        espia = Espia(*disco)
        inicio = [INICIO[0], ("usuario", self.r.choice(_PETICIONES))]
        if insiste:
            turnos_ = [[dict(mala, id=self.id())] for _ in range(turnos)]
        else:  # cada turno, de la misma forma con cualquier semilla (así dice lo mismo la primera que falla)
            sana = sorted(r for r in disco.ficheros if r != mala["input"]["ruta"])
            turnos_ = [[self.sale_bien(disco, "listar"), self.incumple(self.r.choice(["falta", "sobra"]), disco=disco)],
                       [mala, self.sale_bien(disco, "escribir")],
                       [self.que_no_existe(disco), self.nueva(lambda: llamada(self.id(), "leer", ruta=self.r.choice(sana)))]
                       ][:turnos]
        respuestas, visto = [], []
        for llamadas in turnos_:
            respuestas.append(([texto("Voy por partes.")] if self.r.random() < 0.3 else []) + llamadas)
            visto.append([referencia(c, espia) for c in llamadas])
        if insiste:  # lo para el tope del bucle, no ejecutar
            return inicio, respuestas, visto, turnos, ("tope", None), espia.ficheros, disco
        final = self.r.choice(_FINALES)
        return (inicio, respuestas + [[texto(final)]], visto + [None], turnos + 2, ("fin", final), espia.ficheros, disco)


def generar(semilla):
    """Los casos de cada cláusula de la revisión, con esa semilla."""
    g = _Generador(semilla)
    d = g.disco

    def bien(herramienta, disco=None):
        disco = disco or d()
        return g.sale_bien(disco, herramienta), disco

    def mal(forma, herramienta=None):
        disco = d()
        return g.incumple(forma, herramienta, disco), disco

    una_vez = [bien("leer"), g.falla(d(), "escribir"), bien("listar"),
               g.falla(d(), "leer"), bien("escribir"), g.falla(d(), "listar")]
    # La primera otra vez, igual salvo el id, en un disco donde ahora falla: se ve quién contesta sin ejecutarla.
    primera, disco = una_vez[0]
    ruta = primera["input"]["ruta"]
    una_vez.append((dict(primera, id=g.id()), Disco(disco.ficheros, {("lee", ruta): g.excepcion(_AL_LEER, ruta)})))
    escrituras = d()
    casos = {
        # Las llamadas básicas: una que sale bien, una que no cumple su esquema y una cuya herramienta lanza.
        # Como las de la traza, pero sin su forma: leer un fichero que sí existe y que el disco no deja leer.
        "contesta": [bien("leer"), mal(g.r.choice(["falta", "sobra", "renombrado"])),
                     g.falla(d(), "leer")],
        # Las dos clases de fallo, y lo que sale bien: is_error tiene que separarlos.
        "avisa": [mal("falta"), mal("desconocida"), g.falla(d(), "leer"), g.falla(d(), "escribir"),
                  bien("listar"), bien("buscar")],
        # De cada forma; las de un tipo equivocado, en herramientas que tocan el entorno antes de fallar.
        "esquema": [mal("tipo", "escribir"), mal("tipo", "buscar"), mal("falta"),
                    mal("sobra"), mal("renombrado"), mal("desconocida")],
        # Cada herramienta, con excepciones con mensaje, sin mensaje y con varios argumentos.
        "excepciones": [g.falla(d(), h, clase) for h, clase in [
            ("leer", "mensaje"), ("listar", "mensaje"), ("buscar", "mensaje"), ("escribir", "mensaje"),
            ("leer", "vacia"), ("escribir", "vacia"), ("listar", "args"), ("leer", "args")]],
        "una-vez": una_vez,
        # Llamadas que invitan a arreglarlas: otro nombre de campo, una lista por un texto, una errata.
        "sin-arreglos": [mal("lista", "leer"), mal("renombrado", "escribir"),
                         mal("renombrado", "escribir"), *[(g.que_no_existe(x), x) for x in (d(), d(2), d(3))]],
        # Lo que devuelve cada herramienta, y textos que tienen que llegar tal cual (espacios, eñes, uno que parece un error).
        "resultados": [(llamada(g.id(), "leer", ruta=ruta), d(1, [ruta])) for ruta in ("notas/compra.txt", "aviso.txt", "año.txt")]
                      + [bien(h) for h in ("buscar", "listar", "escribir")],
        # Dos escrituras seguidas en el mismo disco: un fichero que ya estaba y otro nuevo.
        "escrituras": [(llamada(g.id(), "escribir", ruta=g.r.choice(sorted(escrituras.ficheros)),
                                contenido=g.r.choice(_CONTENIDOS)), escrituras),
                       (llamada(g.id(), "escribir", ruta="notas/nueva.txt", contenido=g.r.choice(_CONTENIDOS)), escrituras)],
        "guiones": [g.conversacion(3), g.conversacion(2), g.conversacion(3, insiste=True)],
    }
    # Y un fallo de la herramienta misma, sin que falle el disco: leer un fichero que no existe. (Al final, para
    # que los demás casos de cada semilla no cambien.)
    otro = d()
    casos["avisa"].append((g.que_no_existe(otro), otro))
    return casos
