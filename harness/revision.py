"""La lista de comprobación de `ejecutar`: `revisar(ejecutar)` imprime una línea ✔ o ✘ por cláusula.

Cada cláusula del contrato es una función que prueba `ejecutar` con unos casos y, si no se cumple,
lanza `NoCumple` con lo que ha pasado y el nombre de la equivocación. Al corregir se usan estas
mismas funciones, con otros casos y otras conversaciones que no están aquí.

Para saber cuántas veces corre una herramienta, y con qué, mientras se prueba una llamada las
cuatro funciones de `FUNCIONES` se cambian por otras que lo apuntan antes de hacer lo mismo.
Mirar el entorno (`ruta in entorno`) no es ejecutar una herramienta; llamar a su función, sí.
"""

import contextlib
import functools
import inspect
import io
import signal
import sys

from .bloques import error, llamada, muestra, resultado, texto
from .bucle import bucle
from .entorno import ENTORNO, FUNCIONES, incumple
from .guionizado import FueraDelGuion, ModeloGuionizado, guion_de
from .salmorejo import FINAL, INICIO, RESPUESTAS, VISTO

SEGUNDOS = 3  # para una llamada: las de la lección tardan milésimas
_HERRAMIENTAS = dict(FUNCIONES)  # las de verdad, sin vigilar

# Cada equivocación: su nombre, una etiqueta y lo que enseña la lección en su lugar.
DIAGNOSTICOS = {
    "sin-empezar": ("la respuesta sigue siendo la de partida",
                    "ejecutar aún lanza NotImplementedError: escribe tu parte en su lugar, dentro de la función."),
    "lanza-al-fallar": ("deja salir la excepción de la herramienta",
                        "Cuando la herramienta lanza, la excepción sale de ejecutar y la conversación muere, como "
                        "con el ejecutar a medias. Un fallo es una observación: error(id, str(e)), y el bucle sigue."),
    "no-contesta": ("devuelve None en lugar de una observación",
                    "Al modelo le llega None: la llamada se queda sin respuesta. ¿Falta un return en algún camino? "
                    "Cada llamada recibe su tool_result, también cuando falla."),
    "no-es-un-tool-result": ("devuelve algo que no es el tool_result de esa llamada",
                             "La observación es un dict con type, tool_use_id (el id de la llamada), content e "
                             "is_error (True o False), y nada más. resultado(id, …) y error(id, …) ya tienen esa forma."),
    "no-termina": ("no termina con alguna llamada",
                   "ejecutar contesta en seguida. ¿Hay un bucle que repite la llamada? La herramienta se ejecuta "
                   "una vez como mucho."),
    "contesta-sin-ejecutar": ("contesta sin ejecutar la herramienta",
                              "La observación de una llamada que cumple su esquema sale de ejecutar su herramienta: lo "
                              "que devuelve, o lo que lanza. Sin ejecutarla, el modelo recibe algo que no ha pasado."),
    "exito-como-error": ("contesta con un error cuando la herramienta ha salido bien",
                         "Si la función devuelve, la observación es resultado(id, lo que devuelve), con is_error False."),
    "captura-solo-un-tipo": ("captura solo algunos tipos de excepción",
                             "Con except FileNotFoundError (o con cualquier tipo concreto) las demás excepciones siguen "
                             "saliendo de ejecutar. La función lance lo que lance, la llamada vuelve como error: "
                             "captura Exception."),
    "lanza-otra-excepcion": ("lanza una excepción propia al tratar el fallo",
                             "Relanzar la excepción, aunque sea con más contexto, o fallar dentro del except, deja la "
                             "llamada sin respuesta. ejecutar no lanza nunca: lo que falla vuelve como error(id, str(e))."),
    "contenido-repr": ("pone repr(e) como contenido del error",
                       "repr(e) añade el nombre de la clase y las comillas. El contenido es el mensaje, str(e), "
                       "tal cual: es lo que el modelo lee para decidir qué hacer."),
    "prefijo-en-el-mensaje": ("antepone algo al mensaje de la excepción",
                              "El mensaje va solo, sin el tipo ni un «Error:» delante: is_error ya dice que ha "
                              "fallado, y el texto es el de la herramienta."),
    "no-se-ha-ejecutado-al-fallar": ("dice «no se ha ejecutado» de un error que surgió al ejecutar",
                                     "«no se ha ejecutado: » es solo para las llamadas que no cumplen su esquema. Si la "
                                     "función ha lanzado, sí se ha ejecutado y puede haber hecho algo antes de fallar: "
                                     "decir lo contrario invita al modelo a repetir sin riesgo lo que quizá no es idempotente."),
    "error-como-resultado": ("devuelve el fallo con is_error falso",
                             "Un fallo que llega como resultado normal engaña al modelo, que lo toma por lo que ha "
                             "devuelto la herramienta. El error lleva is_error True: error(id, str(e))."),
    "contenido-no-es-texto": ("el contenido del error no es el texto del mensaje",
                              "El modelo recibe texto: str(e), no la excepción ni una lista de bloques."),
    "mensaje-cambiado": ("cambia el mensaje de la excepción",
                         "El modelo necesita el mensaje de la herramienta tal cual, str(e), también cuando está "
                         "vacío: es lo que le dice qué ha fallado."),
    "reintenta": ("repite la llamada que ha fallado",
                  "El harness no reintenta por su cuenta: contesta con el error y el modelo decide. Una llamada que "
                  "falla a medias puede haber hecho algo, y repetirla solo es seguro si es idempotente."),
    "ejecuta-dos-veces": ("ejecuta la herramienta dos veces en una misma llamada",
                          "Cada llamada ejecuta su herramienta una vez como mucho: una herramienta que no es "
                          "idempotente dejaría su efecto dos veces. Guarda lo que devuelve la primera vez."),
    "arregla-la-llamada": ("arregla la llamada por su cuenta",
                           "Si la llamada no cumple su esquema o pide un fichero que no existe, el harness no adivina "
                           "lo que quería el modelo (otro campo, un fichero parecido): contesta con el error y el "
                           "modelo decide."),
    "ejecuta-sin-esquema": ("ejecuta una llamada que no cumple su esquema",
                            "Primero incumple(llamada): si da un motivo, la herramienta no se ejecuta y el error dice "
                            "«no se ha ejecutado: » y el motivo. Así el modelo sabe que puede corregirla y repetirla."),
    "motivo-sin-prefijo": ("el error del esquema no empieza por «no se ha ejecutado: »",
                           "Ese comienzo le dice al modelo que la llamada no ha llegado a ejecutarse y que repetirla "
                           "corregida es seguro."),
    "motivo-cambiado": ("cambia el motivo del esquema",
                        "El contenido es «no se ha ejecutado: » seguido del motivo que da incumple, tal cual."),
    "resultado-cambiado": ("cambia lo que devuelve la herramienta",
                           "Lo que devuelve la herramienta llega al modelo tal cual (sin strip, sin repr, sin "
                           "comillas), con is_error False."),
    "vacio-es-error": ("trata un resultado vacío como un error",
                       "buscar sin coincidencias devuelve un texto vacío, y eso es una respuesta, no un fallo: "
                       "is_error False."),
    "no-carga": ("la celda de la respuesta da error o no define ejecutar",
                 "Ejecuta la celda de tu respuesta y mira qué dice: sin una función ejecutar no hay nada que probar."),
    "trabaja-en-una-copia": ("ejecuta la herramienta sobre una copia del entorno",
                             "La herramienta trabaja en el entorno que recibe ejecutar: en una copia, lo que escribe "
                             "escribir se pierde, y el modelo cree que está escrito."),
}


class NoCumple(AssertionError):
    """Una cláusula que `ejecutar` no cumple. `diagnostico` nombra la equivocación, si se reconoce."""

    def __init__(self, mensaje, diagnostico=None):
        if diagnostico:
            etiqueta, leccion = DIAGNOSTICOS[diagnostico]
            mensaje += "\nEquivocación: %s (%s). %s" % (etiqueta, diagnostico, leccion)
        super().__init__(mensaje)
        self.diagnostico = diagnostico


class Espia(dict):
    """Un entorno que apunta cada herramienta que corre con él, y que puede hacerla fallar con `fallo`."""

    def __init__(self, ficheros=ENTORNO, fallo=None):
        super().__init__(ficheros)
        self.corridas = []  # (nombre, argumentos, si corrió en este entorno y no en otro)
        self.fallo = fallo

    def corre(self, nombre, argumentos, en_este):
        self.corridas.append((nombre, argumentos, en_este))
        if self.fallo is not None:
            raise self.fallo


def vigilar(espacios, aviso):
    """Cambia las cuatro herramientas, en FUNCIONES, en harness y en `espacios`, por unas que llaman
    antes a `aviso(nombre, argumentos, entorno)`. Devuelve la función que lo deshace."""
    sitios = [FUNCIONES, *(vars(m) for n, m in list(sys.modules.items()) if n == "harness" or n.startswith("harness.")),
              *espacios]
    cambios = []
    for sitio in sitios:
        for nombre, original in _HERRAMIENTAS.items():
            if sitio.get(nombre) is original:
                cambios.append((sitio, nombre, original))
                sitio[nombre] = _avisa(original, aviso)

    def deshacer():
        for sitio, nombre, original in cambios:
            sitio[nombre] = original
    return deshacer


def _avisa(herramienta, aviso):
    firma = inspect.signature(herramienta)

    @functools.wraps(herramienta)
    def vigilada(*args, **kwargs):
        try:
            argumentos = dict(firma.bind(*args, **kwargs).arguments)
        except TypeError:  # con esos argumentos no llega a correr: lanza el TypeError de siempre
            return herramienta(*args, **kwargs)
        aviso(herramienta.__name__, argumentos, argumentos.pop("entorno"))
        return herramienta(*args, **kwargs)
    return vigilada


class _Agotado(BaseException):
    """Se acabó el tiempo de una llamada. No es una Exception: un `except Exception` no la para."""


def probar(ejecutar, ll, entorno, segundos=SEGUNDOS):
    """`ejecutar(ll, entorno)` con las herramientas vigiladas, sin dejarle imprimir y con tope de tiempo."""
    globales = [vars(sys.modules["__main__"]), getattr(ejecutar, "__globals__", {})]
    deshacer = vigilar(globales, lambda nombre, argumentos, usado: _apunta(entorno, nombre, argumentos, usado))
    try:
        with _tope(segundos), contextlib.redirect_stdout(io.StringIO()):
            return ejecutar(ll, entorno)
    except _Agotado:
        raise sin_terminar(ll, entorno, segundos) from None
    finally:
        deshacer()


def _apunta(entorno, nombre, argumentos, usado):
    if isinstance(entorno, Espia):
        entorno.corre(nombre, argumentos, usado is entorno)


def sin_terminar(ll, entorno, segundos):
    """El NoCumple de una llamada que no termina a tiempo: si la herramienta ha corrido más de una vez, reintenta."""
    veces = len(getattr(entorno, "corridas", []))
    return NoCumple("ejecutar no ha terminado en %g segundos con la llamada %s%s.\nLa herramienta se ejecuta una vez "
                    "como mucho." % (segundos, muestra(ll), ", y la herramienta ha corrido %d veces" % veces if veces > 1 else ""),
                    "reintenta" if veces > 1 else "no-termina")


@contextlib.contextmanager
def _tope(segundos):
    def _alarma(signum, frame):
        raise _Agotado()
    try:
        anterior = signal.signal(signal.SIGALRM, _alarma)
        signal.setitimer(signal.ITIMER_REAL, segundos, 0.5)  # y cada medio segundo, por si se traga la primera
    except (AttributeError, ValueError, OSError):  # sin alarmas (otro hilo, el navegador): sin tope
        yield
        return
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, anterior)


# Lo que haría una herramienta de verdad con una llamada, para saber qué observación se espera.

def _lo_que_da(ll, ficheros=ENTORNO, fallo=None):
    """(True, lo que devuelve) o (False, la excepción que lanza) la herramienta de `ll`, en una copia."""
    if fallo is not None:
        return False, fallo
    try:
        return True, _HERRAMIENTAS[ll["name"]](dict(ficheros), **ll["input"])
    except Exception as e:
        return False, e


def _respuesta(llamar, ll, entorno):
    """La observación con que `ejecutar` contesta a `ll`, si es un tool_result para esa llamada."""
    try:
        obs = llamar(ll, entorno)
    except NoCumple:
        raise
    except Exception as e:
        raise NoCumple("ejecutar ha lanzado %s: %s\n  con la llamada %s. ejecutar no lanza nunca."
                       % (_tipo(e), e, muestra(ll)), "lanza-otra-excepcion") from None
    if obs is None:
        raise NoCumple("Con la llamada %s, ejecutar ha devuelto None." % muestra(ll), "no-contesta")
    motivo = _forma(obs, ll)
    if motivo:
        raise NoCumple("Con la llamada %s ha llegado %s, que no es su tool_result: %s."
                       % (muestra(ll), muestra(obs), motivo), "no-es-un-tool-result")
    return obs


def _forma(obs, ll):
    """Por qué `obs` no es un tool_result que contesta a `ll`; None si lo es."""
    claves = {"type", "tool_use_id", "content", "is_error"}
    if type(obs) is not dict:
        return "debería ser un dict y es %s" % type(obs).__name__
    if set(obs) != claves:
        return "sus claves deberían ser %s y son %s" % (sorted(claves), sorted(map(str, obs)))
    if obs["type"] != "tool_result" or type(obs["type"]) is not str:
        return "type debería ser 'tool_result' y es %r" % (obs["type"],)
    if obs["tool_use_id"] != ll["id"] or type(obs["tool_use_id"]) is not str:
        return "tool_use_id debería ser %r, el id de la llamada, y es %r" % (ll["id"], obs["tool_use_id"])
    if type(obs["is_error"]) is not bool:
        return "is_error debería ser True o False (un bool) y es %r" % (obs["is_error"],)
    return None


def _tipo(e):
    return getattr(e, "tipo", type(e).__name__)  # lo que lanzó en una jaula llega con su tipo aparte


def _no_es(ll, obs, esperada, diagnostico):
    raise NoCumple("Con la llamada %s\n  se esperaba: %s\n  ha llegado:  %s"
                   % (muestra(ll), muestra(esperada), muestra(obs)), diagnostico)


# Las cláusulas. Cada una recibe `llamar(llamada, entorno)` y sus casos; si se cumple, devuelve la frase de ✔.

def contesta(llamar, casos):
    """Cada llamada recibe un tool_result con su id: también si no cumple el esquema o si la herramienta falla."""
    for ll in casos:
        entorno = Espia()
        try:
            obs = llamar(ll, entorno)
        except NoCumple:
            raise
        except Exception as e:
            bien, lanzada = _lo_que_da(ll)
            la_suya = incumple(ll) is None and not bien and (_tipo(e), str(e)) == (type(lanzada).__name__, str(lanzada))
            raise NoCumple("ejecutar ha lanzado %s: %s\n  con la llamada %s. ejecutar no lanza nunca."
                           % (_tipo(e), e, muestra(ll)),
                           "sin-empezar" if _tipo(e) == "NotImplementedError" else
                           "lanza-al-fallar" if la_suya else "lanza-otra-excepcion") from None
        obs = _respuesta(lambda *_: obs, ll, entorno)
        if incumple(ll) is None and _lo_que_da(ll)[0]:  # una llamada buena: su herramienta corre y sale bien
            _ejecutada(ll, entorno)
            if obs["is_error"] is not False:
                raise NoCumple("Con la llamada %s, que sale bien, ha llegado %s." % (muestra(ll), muestra(obs)),
                               "exito-como-error")
    return "contesta a cada llamada con un tool_result con su id, también cuando falla"


def _ejecutada(ll, entorno):
    """Exige que la herramienta de `ll` haya corrido, tal cual, con esa llamada."""
    if not any((n, a) == (ll["name"], ll["input"]) for n, a, _ in entorno.corridas):
        raise NoCumple("Con la llamada %s, que cumple su esquema, su herramienta no se ha ejecutado." % muestra(ll),
                       "contesta-sin-ejecutar")


def esquema(llamar, casos):
    """Una llamada que no cumple su esquema no se ejecuta, y su error dice «no se ha ejecutado: » y el motivo."""
    for ll in casos:
        entorno = Espia()
        obs = _respuesta(llamar, ll, entorno)
        if any((n, a) != (ll["name"], ll["input"]) for n, a, _ in entorno.corridas):
            continue  # la ha arreglado: eso lo mira sin_arreglos
        motivo = incumple(ll)
        if entorno.corridas or entorno != ENTORNO:
            raise NoCumple("La llamada %s no cumple su esquema (%s) y se ha ejecutado." % (muestra(ll), motivo),
                           "ejecuta-sin-esquema")
        esperada = error(ll["id"], "no se ha ejecutado: " + motivo)
        if obs != esperada:
            contenido = obs["content"] if type(obs["content"]) is str else ""
            diagnostico = ("motivo-sin-prefijo" if contenido == motivo else
                           "motivo-cambiado" if motivo in contenido else "ejecuta-sin-esquema")
            _no_es(ll, obs, esperada, diagnostico)
    return "las llamadas que no cumplen su esquema no se ejecutan y dicen por qué"


def excepciones(llamar, casos):
    """Si la herramienta lanza, del tipo que sea, la observación es error(id, str(e)), con el mensaje tal cual."""
    for ll, fallo in casos:
        entorno = Espia(fallo=fallo)
        lanzada = _lo_que_da(ll, fallo=fallo)[1]
        try:
            obs = llamar(ll, entorno)
        except NoCumple:
            raise
        except Exception as e:
            es_la_suya = _tipo(e) == type(lanzada).__name__ and str(e) == str(lanzada)
            raise NoCumple("Con la llamada %s, la herramienta ha lanzado %s y ejecutar ha dejado salir %s: %s"
                           % (muestra(ll), type(lanzada).__name__, _tipo(e), e),
                           "captura-solo-un-tipo" if es_la_suya else "lanza-otra-excepcion") from None
        obs = _respuesta(lambda *_: obs, ll, entorno)
        esperada = error(ll["id"], str(lanzada))
        if obs != esperada or type(obs["content"]) is not str:
            contenido = obs["content"]
            diagnostico = ("contenido-no-es-texto" if type(contenido) is not str else
                           "error-como-resultado" if obs["is_error"] is False else
                           "contenido-repr" if contenido == repr(lanzada) else
                           "no-se-ha-ejecutado-al-fallar" if contenido == "no se ha ejecutado: " + str(lanzada) else
                           "prefijo-en-el-mensaje" if str(lanzada) and contenido.endswith(str(lanzada)) else
                           "mensaje-cambiado")
            _no_es(ll, obs, esperada, diagnostico)
    return "cualquier excepción de la herramienta vuelve como error con su mensaje, tal cual"


def una_vez(llamar, casos):
    """La herramienta se ejecuta una vez como mucho por llamada: repetirla es cosa del modelo."""
    for ll, fallo in casos:
        entorno = Espia(fallo=fallo)
        try:
            llamar(ll, entorno)
        except NoCumple:
            raise
        except Exception:
            pass  # si deja salir la excepción, lo cuenta la cláusula de las excepciones
        if fallo is not None or _lo_que_da(ll)[0]:
            _ejecutada(ll, entorno)
        veces = sum((n, a) == (ll["name"], ll["input"]) for n, a, _ in entorno.corridas)
        if veces > 1:
            falla = not _lo_que_da(ll, fallo=fallo)[0]
            raise NoCumple("Con la llamada %s la herramienta se ha ejecutado %d veces, y se ejecuta una vez como "
                           "mucho." % (muestra(ll), veces), "reintenta" if falla else "ejecuta-dos-veces")
    return "la herramienta se ejecuta una vez como mucho: repetirla es cosa del modelo"


def sin_arreglos(llamar, casos):
    """Se ejecuta la llamada que ha hecho el modelo, tal cual, o ninguna: ejecutar no la arregla."""
    for ll in casos:
        entorno = Espia()
        try:
            llamar(ll, entorno)
        except NoCumple:
            raise
        except Exception:
            pass  # si deja salir la excepción, lo cuenta la cláusula de las excepciones
        if incumple(ll) is None and _lo_que_da(ll)[0]:
            _ejecutada(ll, entorno)
        otras = [(n, a) for n, a, _ in entorno.corridas if (n, a) != (ll["name"], ll["input"])]
        if otras:
            n, a = otras[0]
            raise NoCumple("Con la llamada %s, ejecutar ha ejecutado %s(%s), que no es lo que pedía el modelo."
                           % (muestra(ll), n, ", ".join("%s=%r" % par for par in a.items())), "arregla-la-llamada")
    return "cada llamada se ejecuta tal como llega, sin arreglarla"


def resultados(llamar, casos):
    """Si la herramienta devuelve algo, la observación es resultado(id, eso), tal cual, también si está vacío."""
    for ll, ficheros in casos:
        devuelto = _lo_que_da(ll, ficheros)[1]
        obs = _respuesta(llamar, ll, Espia(ficheros))
        esperada = resultado(ll["id"], devuelto)
        if obs != esperada or type(obs["content"]) is not str:
            _no_es(ll, obs, esperada, "vacio-es-error" if devuelto == "" and obs["is_error"] else "resultado-cambiado")
    return "lo que devuelve una herramienta llega tal cual, con is_error False, también si está vacío"


def escrituras(llamar, casos):
    """La herramienta trabaja en el entorno que recibe ejecutar: lo que escribe se queda ahí."""
    entorno = Espia()
    for ll in casos:
        _respuesta(llamar, ll, entorno)
        ruta, contenido = ll["input"]["ruta"], ll["input"]["contenido"]
        if entorno.get(ruta) != contenido or not all(en_este for _, _, en_este in entorno.corridas):
            raise NoCumple("Tras %s el fichero %s debería contener %r y contiene %r: la herramienta ha corrido "
                           "en otro entorno." % (muestra(ll), ruta, contenido, entorno.get(ruta)), "trabaja-en-una-copia")
    return "lo que escribe escribir queda en el entorno que recibe ejecutar"


def conversaciones(llamar, casos):
    """Cada conversación, pasada por el bucle con `ejecutar`, es la que espera su guion, y deja los ficheros esperados."""
    for inicio, respuestas, visto, tope, final, ficheros in casos:
        entorno = dict(ENTORNO)
        modelo = ModeloGuionizado(guion_de(inicio, respuestas, visto))
        try:
            como, texto_final, _ = bucle(modelo, inicio, entorno, tope, llamar)
        except FueraDelGuion as e:
            raise NoCumple("En la conversación %r el modelo guionizado ha recibido lo que no esperaba, en el %s"
                           % (inicio[-1][1], e)) from None
        except NoCumple:
            raise
        except Exception as e:
            raise NoCumple("En la conversación %r ejecutar ha lanzado %s: %s. ejecutar no lanza nunca."
                           % (inicio[-1][1], _tipo(e), e)) from None
        if (como, texto_final) != final:
            raise NoCumple("La conversación %r debería acabar en %r y acaba en %r" % (inicio[-1][1], final, (como, texto_final)))
        cambiados = sorted(r for r in set(entorno) | set(ficheros) if entorno.get(r) != ficheros.get(r))
        if cambiados:
            raise NoCumple("Tras la conversación %r los ficheros no son los esperados: %s"
                           % (inicio[-1][1], ", ".join(cambiados)))


def salmorejo(llamar, casos):
    """La traza del salmorejo, entera: cada observación exacta y los ficheros sin tocar."""
    conversaciones(llamar, casos)
    return "la traza del salmorejo entera: cuatro turnos, cada observación exacta y los ficheros sin tocar"


def guiones(llamar, casos):
    """Otras conversaciones, con errores de las dos clases, llegan al final que espera su guion."""
    conversaciones(llamar, casos)
    return "otras conversaciones guionizadas llegan al final que espera su guion, con cada observación exacta"


# Los casos de muestra de la lista de comprobación (al corregir se usan otros).

SALMOREJO = [(INICIO, RESPUESTAS, VISTO, 10, ("fin", FINAL), ENTORNO)]

MUESTRA = {
    "contesta": [llamada("m1", "leer", ruta="notas/cena.txt"), llamada("m2", "leer", ruta="recetas/paella.txt"),
                 llamada("m3", "leer", ficheros=["lista.txt"])],
    "esquema": [llamada("m4", "abrir", ruta="lista.txt"), llamada("m5", "buscar", patron=3),
                llamada("m6", "listar", carpeta="recetas/", orden="alfabético")],
    "excepciones": [(llamada("m7", "leer", ruta="recetas/paella.txt"), None),
                    (llamada("m8", "listar", carpeta="notas/"), IsADirectoryError("notas/ no es una carpeta")),
                    (llamada("m9", "buscar", patron="sal"), MemoryError())],
    "una-vez": [(llamada("m10", "leer", ruta="recetas/paella.txt"), None),
                (llamada("m11", "escribir", ruta="notas/cena.txt", contenido="Somos ocho."), ConnectionError("sin red")),
                (llamada("m12", "listar", carpeta="notas/"), None)],
    "sin-arreglos": [llamada("m13", "leer", rutas=["notas/cena.txt"]), llamada("m14", "leer", ruta="recetas/gaspacho.txt"),
                     llamada("m18", "listar", carpeta="notas")],
    "resultados": [(llamada("m15", "buscar", patron="paella"), ENTORNO),
                   (llamada("m16", "leer", ruta="notas/compra.txt"), dict(ENTORNO, **{"notas/compra.txt": "huevos\n\n"}))],
    "escrituras": [llamada("m17", "escribir", ruta="notas/cena.txt", contenido="Somos ocho.")],
    "salmorejo": SALMOREJO,
    "guiones": [([INICIO[0], ("usuario", "¿Qué lleva el gazpacho?")],
                 [[llamada("g1", "leer", ruta="gazpacho.txt"), llamada("g2", "listar", carpeta="recetas/")],
                  [texto("Lleva tomates, pepino y pimiento.")]],
                 [[error("g1", "no existe el fichero 'gazpacho.txt'"),
                   resultado("g2", "recetas/gazpacho.txt\nrecetas/tortilla.txt")], None],
                 5, ("fin", "Lleva tomates, pepino y pimiento."), ENTORNO)],
}

# Las cláusulas en el orden en que se revisan; `contesta` va primero porque sin respuesta no hay nada que mirar.
CLAUSULAS = {"contesta": contesta, "salmorejo": salmorejo, "esquema": esquema, "excepciones": excepciones,
             "una-vez": una_vez, "sin-arreglos": sin_arreglos, "resultados": resultados,
             "escrituras": escrituras, "guiones": guiones}


def revisar(ejecutar, casos=MUESTRA):
    """Prueba `ejecutar` cláusula a cláusula con unos casos de muestra e imprime una línea ✔ o ✘ por cada una."""
    def con_ejecutar(ll, entorno):
        return probar(ejecutar, ll, entorno)

    hechas = {}
    for nombre, clausula in CLAUSULAS.items():
        try:
            hechas[nombre] = clausula(con_ejecutar, casos[nombre])
        except NoCumple as e:
            hechas[nombre] = e
            if nombre == "contesta":
                break
    # Una conversación entera también falla por lo que ya falla en una cláusula: al corregir, eso resta una vez.
    ya_contadas = [e.diagnostico for n, e in hechas.items()
                   if isinstance(e, NoCumple) and e.diagnostico and n not in ("contesta", "salmorejo", "guiones")]
    for nombre, hecha in hechas.items():  # en el orden de CLAUSULAS
        if isinstance(hecha, NoCumple):
            print("✘ %s:\n    %s" % (CLAUSULAS[nombre].__doc__.rstrip("."), str(hecha).replace("\n", "\n    ")))
            if nombre in ("salmorejo", "guiones") and ya_contadas:
                print("    (por «%s», que al corregir resta solo en su cláusula)" % DIAGNOSTICOS[ya_contadas[0]][0])
        else:
            print("✔ " + hecha)
    for nombre in [n for n in CLAUSULAS if n not in hechas]:
        print("✘ %s (sin una respuesta para cada llamada, no se puede revisar)" % CLAUSULAS[nombre].__doc__.rstrip("."))
    cumplidas = sum(not isinstance(h, NoCumple) for h in hechas.values())
    print("\n%d de %d cláusulas cumplidas con los casos de muestra. Al corregir se usan las mismas "
          "comprobaciones con otros casos y otras conversaciones." % (cumplidas, len(CLAUSULAS)))
