"""Las comprobaciones que corrigen `ejecutar`, una por celda de prueba del cuaderno.

Cada celda oculta llama a `comprobar(nombre)`. Si `ejecutar` cumple, se imprime una línea que
lo dice; si no, se lanza `Suspenso` con un mensaje en español que cuenta qué llamada, qué se
esperaba y qué ha llegado. Cada llamada a `ejecutar` tiene un tope de segundos, para que una
respuesta que no termina suspenda en seguida en lugar de colgar la corrección.
"""

import contextlib
import io
import signal
import sys
import warnings

from harness import (ENTORNO, FueraDelGuion, ModeloGuionizado, bucle, buscar, error, escribir, guion_de,
                     incumple, llamada, muestra, resultado, texto)
from harness.salmorejo import FINAL, INICIO, RESPUESTAS, VISTO

from course.limites import ALARMA as SEGUNDOS  # tope de una llamada a ejecutar (course/limites.py)
CLAVES = {"type", "tool_use_id", "content", "is_error"}


class Suspenso(AssertionError):
    """Una comprobación que no pasa. Su mensaje, en español, es lo que lee el estudiante."""

    def _render_traceback_(self):
        # IPython muestra estas líneas en lugar de la traza: el estudiante lee el motivo, no nuestro código.
        return ["\x1b[0;31m✘ No pasa:\x1b[0m " + str(self).replace("\n", "\n  ")]


class _Agotado(BaseException):
    """Se acabó el tiempo de una llamada. No es una Exception: un `except Exception` no la para."""


@contextlib.contextmanager
def _con_tope(segundos):
    def _alarma(signum, frame):
        raise _Agotado()

    anterior = signal.signal(signal.SIGALRM, _alarma)
    # Se repite cada medio segundo por si el código del estudiante se traga la primera.
    signal.setitimer(signal.ITIMER_REAL, segundos, 0.5)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, anterior)


def _llama(ejecutar, ll, entorno, sin_contestar=False):
    """Una llamada a `ejecutar`, con tope de tiempo y sin dejar que escriba en la salida de la celda.

    Con `sin_contestar`, sólo suspende si la respuesta sigue siendo la de partida (NotImplementedError).
    """
    salida = io.StringIO()
    try:
        with _con_tope(SEGUNDOS), contextlib.redirect_stdout(salida), contextlib.redirect_stderr(salida), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ejecutar(ll, entorno)
    except _Agotado:
        raise Suspenso("ejecutar no ha terminado en %d segundos con la llamada %s.\n"
                       "¿Hay un bucle que repite la llamada? La función se llama una vez como mucho."
                       % (SEGUNDOS, muestra(ll))) from None
    except Suspenso:
        raise
    except Exception as e:
        tipo = getattr(e, "tipo", type(e).__name__)  # lo que lanzó en una jaula llega con su tipo aparte
        if tipo == "NotImplementedError":
            raise Suspenso("ejecutar ha lanzado NotImplementedError con la llamada %s: "
                           "parece que aún no has escrito tu parte." % muestra(ll)) from None
        if sin_contestar:
            return None
        raise Suspenso("ejecutar ha lanzado %s: %s\n  con la llamada %s.\n"
                       "ejecutar no debe lanzar nunca: lo que falle tiene que volver como error(id, mensaje)."
                       % (tipo, e, muestra(ll))) from None


def _diferencia(obs, esperada):
    """Qué tiene de distinto una observación de la esperada, en palabras; None si es la esperada."""
    if type(obs) is not dict:
        return "debería ser un dict y es %s: %r" % (type(obs).__name__, obs)
    if set(obs) != CLAVES:
        return "sus claves deberían ser %s y son %s" % (sorted(CLAVES), sorted(obs))
    if type(obs["is_error"]) is not bool:
        return "is_error debería ser True o False (un bool) y es %r" % (obs["is_error"],)
    for clave in ("type", "tool_use_id", "is_error", "content"):
        if type(obs[clave]) is not type(esperada[clave]) or obs[clave] != esperada[clave]:
            return "%s debería ser %r y es %r" % (clave, esperada[clave], obs[clave])
    return None


def _observa(ejecutar, ll, entorno, esperada):
    """Llama a `ejecutar` y exige la observación `esperada`, exacta."""
    obs = _llama(ejecutar, ll, entorno)
    motivo = _diferencia(obs, esperada)
    if motivo:
        raise Suspenso("Con la llamada %s\n  se esperaba: %s\n  ha llegado:  %s\n  (%s)"
                       % (muestra(ll), muestra(esperada), muestra(obs), motivo))
    return obs


class _Espia(dict):
    """Un entorno que cuenta cuántas veces lo miran o lo cambian: así se sabe si una herramienta ha corrido."""

    def __init__(self, *args):
        super().__init__(*args)
        self.usos = 0

    def _uso(self):
        self.usos += 1

    def __contains__(self, clave):
        self._uso()
        return super().__contains__(clave)

    def __iter__(self):
        self._uso()
        return super().__iter__()

    def __setitem__(self, clave, valor):
        self._uso()
        super().__setitem__(clave, valor)


class _Roto(_Espia):
    """Un entorno que falla con `fallo` en cuanto una herramienta lo toca."""

    def __init__(self, fallo):
        super().__init__(ENTORNO)
        self.fallo = fallo

    def _uso(self):
        super()._uso()
        raise self.fallo


class _FalloRaro(Exception):
    def __str__(self):
        return "el disco ha devuelto algo que no se entiende"


# Las comprobaciones. Cada una devuelve la frase que se imprime si pasa.

def _salmorejo(ejecutar):
    entorno = dict(ENTORNO)
    modelo = ModeloGuionizado(guion_de(INICIO, RESPUESTAS, VISTO))
    try:
        como, final, M = bucle(modelo, INICIO, entorno, 10, lambda ll, e: _llama(ejecutar, ll, e))
    except FueraDelGuion as e:
        raise Suspenso("La conversación del salmorejo se sale del guion en el %s" % e) from None
    if (como, final) != ("fin", FINAL):
        raise Suspenso("La conversación debería terminar en 'fin' con %r y termina en %r con %r" % (FINAL, como, final))
    for mensaje, visto in zip(M[3::2], VISTO):
        for obs, esperada in zip(mensaje[1], visto):
            motivo = _diferencia(obs, esperada)
            if motivo:
                raise Suspenso("En la traza del salmorejo, la observación %s no es la esperada: %s" % (muestra(obs), motivo))
    cambiados = sorted(r for r in set(entorno) | set(ENTORNO) if entorno.get(r) != ENTORNO.get(r))
    if cambiados:
        raise Suspenso("La traza del salmorejo no debe cambiar ningún fichero, y han cambiado: %s" % ", ".join(cambiados))
    return "la traza del salmorejo entera: cuatro turnos, cada observación exacta y los ficheros sin tocar"


def _esquema(ejecutar):
    for ll in [llamada("e1", "leer", rutas=["lista.txt"]),
               llamada("e2", "borrar", ruta="lista.txt"),
               llamada("e3", "escribir", ruta="lista.txt", contenido=["tomates"]),
               llamada("e4", "escribir", ruta="notas/cena.txt", contenido="", modo="añadir"),
               llamada("e5", "listar"),
               llamada("e6", "leer", ruta=7)]:
        entorno = _Espia(ENTORNO)
        _observa(ejecutar, ll, entorno, error(ll["id"], "no se ha ejecutado: " + incumple(ll)))
        if entorno.usos or entorno != ENTORNO:
            raise Suspenso("La llamada %s no cumple su esquema y no debería ejecutarse, pero su herramienta "
                           "ha tocado el entorno." % muestra(ll))
    return "las llamadas que no cumplen su esquema no se ejecutan y dicen por qué"


def _excepciones(ejecutar):
    casos = [
        (llamada("x1", "leer", ruta="recetas/salmorejo.txt"), None, "no existe el fichero 'recetas/salmorejo.txt'"),
        (llamada("x2", "leer", ruta="lista.txt"), PermissionError("no tienes permiso para leer 'lista.txt'"), None),
        (llamada("x3", "escribir", ruta="lista.txt", contenido="pan"), OSError(28, "no queda espacio en el disco"), None),
        (llamada("x4", "listar", carpeta="recetas/"), RuntimeError(), None),
        (llamada("x5", "buscar", patron="ajo"), ValueError("patrón", 3), None),
        (llamada("x6", "leer", ruta="lista.txt"), KeyError("lista.txt"), None),
        (llamada("x7", "escribir", ruta="a.txt", contenido="b"), _FalloRaro(), None),
    ]
    for ll, fallo, mensaje in casos:
        entorno = dict(ENTORNO) if fallo is None else _Roto(fallo)
        _observa(ejecutar, ll, entorno, error(ll["id"], mensaje if fallo is None else str(fallo)))
    return "cualquier excepción vuelve como error con su mensaje: también sin mensaje o con varios argumentos"


def _una_vez(ejecutar):
    for ll, entorno in [(llamada("u1", "leer", ruta="lista.txt"), _Espia(ENTORNO)),
                        (llamada("u2", "leer", ruta="no.txt"), _Espia(ENTORNO)),
                        (llamada("u3", "escribir", ruta="lista.txt", contenido="pan"), _Espia(ENTORNO)),
                        (llamada("u4", "listar", carpeta="recetas/"), _Espia(ENTORNO)),
                        (llamada("u5", "leer", ruta="lista.txt"), _Roto(TimeoutError("el disco no contesta")))]:
        # Cada llamada tiene que recibir su observación; su forma la miran las otras pruebas, aquí se cuenta.
        _llama(ejecutar, ll, entorno)
        if entorno.usos == 0:
            raise Suspenso("Con la llamada %s la herramienta no se ha ejecutado, aunque la llamada cumple su esquema." % muestra(ll))
        if entorno.usos > 1:
            raise Suspenso("Con la llamada %s la herramienta se ha ejecutado %d veces, y debe ejecutarse una sola: "
                           "repetirla es cosa del modelo, no del harness." % (muestra(ll), entorno.usos))
    return "cada herramienta se ejecuta una vez por llamada, ni más ni menos"


def _resultados(ejecutar):
    entorno = dict(ENTORNO, **{"aviso.txt": "no existe el fichero 'x.txt'", "vacío.txt": "",
                               "año.txt": "  Año nuevo: ñoquis y jamón\n"})
    for ll, contenido in [(llamada("toolu_01Xq", "leer", ruta="aviso.txt"), "no existe el fichero 'x.txt'"),
                          (llamada("r2", "leer", ruta="vacío.txt"), ""),
                          (llamada("r3", "leer", ruta="año.txt"), "  Año nuevo: ñoquis y jamón\n"),
                          (llamada("r4", "buscar", patron="salmorejo"), ""),
                          (llamada("r5", "buscar", patron="aceite"), buscar(entorno, "aceite")),
                          (llamada("r6", "listar", carpeta="postres/"), "")]:
        _observa(ejecutar, ll, entorno, resultado(ll["id"], contenido))
    return "lo que devuelve una herramienta llega tal cual, con is_error False, también si está vacío"


def _escrituras(ejecutar):
    entorno = dict(ENTORNO)
    for ll in [llamada("w1", "escribir", ruta="lista.txt", contenido="pan, leche, patatas, tomates"),
               llamada("w2", "escribir", ruta="notas/compra.txt", contenido="Comprar el sábado.")]:
        _observa(ejecutar, ll, entorno, resultado(ll["id"], escribir({}, ll["input"]["ruta"], ll["input"]["contenido"])))
        if entorno.get(ll["input"]["ruta"]) != ll["input"]["contenido"]:
            raise Suspenso("Tras %s el fichero %s debería contener %r y contiene %r: escribe en el entorno que "
                           "recibe ejecutar, no en una copia." % (muestra(ll), ll["input"]["ruta"],
                                                                 ll["input"]["contenido"], entorno.get(ll["input"]["ruta"])))
    _observa(ejecutar, llamada("w3", "leer", ruta="lista.txt"), entorno, resultado("w3", "pan, leche, patatas, tomates"))
    return "lo que escribe escribir queda en el entorno que recibe ejecutar"


def _conversacion(inicio, respuestas, visto, ejecutar, tope):
    entorno = dict(ENTORNO)
    modelo = ModeloGuionizado(guion_de(inicio, respuestas, visto))
    try:
        return bucle(modelo, inicio, entorno, tope, lambda ll, e: _llama(ejecutar, ll, e)) + (entorno,)
    except FueraDelGuion as e:
        raise Suspenso("En la conversación %r el modelo guionizado ha recibido lo que no esperaba, en el %s"
                       % (inicio[-1][1], e)) from None


def _guiones(ejecutar):
    # Una conversación con tres llamadas en un turno, la primera mala, y una escritura al final.
    inicio = [INICIO[0], ("usuario", "Apunta en lista.txt lo que lleva la tortilla y no tengo.")]
    respuestas = [
        [llamada("a", "leer", ruta="recetas/tortila.txt"), llamada("b", "leer", ruta="lista.txt"),
         llamada("c", "buscar", patron="tortilla")],
        [texto("Me he equivocado de nombre."), llamada("d", "leer", ruta="recetas/tortilla.txt"),
         llamada("e", "escribir", ruta="lista.txt")],
        [llamada("f", "escribir", ruta="lista.txt", contenido="pan, leche, patatas, huevos, cebolla")],
        [texto("He añadido huevos y cebolla."), texto("¿Algo más?")],
    ]
    visto = [
        [error("a", "no existe el fichero 'recetas/tortila.txt'"), resultado("b", ENTORNO["lista.txt"]),
         resultado("c", "")],
        [resultado("d", ENTORNO["recetas/tortilla.txt"]), error("e", "no se ha ejecutado: falta el campo 'contenido'")],
        [resultado("f", "escritos 36 caracteres en lista.txt")],
        None,
    ]
    como, final, M, entorno = _conversacion(inicio, respuestas, visto, ejecutar, 10)
    if (como, final) != ("fin", "He añadido huevos y cebolla. ¿Algo más?"):
        raise Suspenso("La conversación de la tortilla debería terminar en 'fin' y termina en %r" % como)
    if entorno["lista.txt"] != "pan, leche, patatas, huevos, cebolla":
        raise Suspenso("Tras la conversación de la tortilla, lista.txt debería ser %r y es %r"
                       % ("pan, leche, patatas, huevos, cebolla", entorno["lista.txt"]))

    # Un modelo que insiste en una llamada que falla: lo para el tope, no ejecutar.
    inicio = [INICIO[0], ("usuario", "Lee la receta del salmorejo.")]
    insiste = [llamada("s", "leer", ruta="recetas/salmorejo.txt")]
    como, final, M, entorno = _conversacion(inicio, [insiste] * 3,
                                            [[error("s", "no existe el fichero 'recetas/salmorejo.txt'")]] * 3,
                                            ejecutar, 3)
    if (como, final) != ("tope", None):
        raise Suspenso("Un modelo que insiste tres veces con tope 3 debería acabar en 'tope' y acaba en %r" % como)
    return "conversaciones que no estaban en el cuaderno, también una que acaba en el tope"


COMPROBACIONES = {"salmorejo": _salmorejo, "esquema": _esquema, "excepciones": _excepciones,
                  "una-vez": _una_vez, "resultados": _resultados, "escrituras": _escrituras, "guiones": _guiones}


def comprobar(nombre, ejecutar=None):
    """Corrige `ejecutar` con la comprobación `nombre`. Sin `ejecutar`, usa el del cuaderno que llama."""
    if ejecutar is None:
        ejecutar = sys._getframe(1).f_globals.get("ejecutar")
    if not callable(ejecutar):
        raise Suspenso("No encuentro tu función ejecutar. ¿Ha dado error la celda de tu respuesta? "
                       "Ejecútala y mira qué dice.")
    # Sin respuesta no hay puntos, tampoco los de la mitad que ya venía hecha.
    _llama(ejecutar, llamada("p0", "leer", ruta="lista.txt"), dict(ENTORNO), sin_contestar=True)
    print("✔ " + COMPROBACIONES[nombre](ejecutar))
