"""La lista de comprobación de `ejecutar`: `revisar(ejecutar)` imprime una línea ✔ o ✘ por cláusula.

Cada cláusula del contrato es una función que prueba `ejecutar` con unos casos y, si no se cumple,
lanza `NoCumple` con lo que ha pasado y el nombre de la equivocación (diagnosticos.py). Al corregir
se usan estas mismas funciones, con otros casos y otras conversaciones que no están aquí.
Cuántas veces corre cada herramienta lo cuenta vigilancia.py.
"""

from .bloques import error, llamada, muestra, resultado, texto
from .bucle import bucle
from .diagnosticos import DIAGNOSTICOS, NoCumple
from .entorno import ENTORNO, incumple
from .guionizado import FueraDelGuion, ModeloGuionizado, guion_de
from .salmorejo import FINAL, INICIO, RESPUESTAS, VISTO
from .vigilancia import REALES, Espia, probar


# Lo que haría una herramienta de verdad con una llamada, para saber qué observación se espera.

def _lo_que_da(ll, ficheros=ENTORNO, fallo=None):
    """(True, lo que devuelve) o (False, la excepción que lanza) la herramienta de `ll`, en una copia."""
    if fallo is not None:
        return False, fallo
    try:
        return True, REALES[ll["name"]](dict(ficheros), **ll["input"])
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


def _llama(llamar, ll, entorno):
    """Llama a `ejecutar` solo para ver qué corre: si deja salir una excepción, lo cuenta la cláusula
    de las excepciones, no la que llama a esta."""
    try:
        llamar(ll, entorno)
    except NoCumple:
        raise
    except Exception:
        pass


def una_vez(llamar, casos):
    """La herramienta se ejecuta una vez como mucho por llamada: repetirla es cosa del modelo."""
    for ll, fallo in casos:
        entorno = Espia(fallo=fallo)
        _llama(llamar, ll, entorno)
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
        _llama(llamar, ll, entorno)
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
    return "lo que devuelve una herramienta llega tal cual, con is_error a False, también si está vacío"


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
