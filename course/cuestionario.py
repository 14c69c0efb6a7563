"""La clave del cuestionario: la respuesta buena de cada pregunta y por qué acierta o falla cada opción.

`corregir(n, respuesta)` es lo que llaman, ocultas, las celdas `pregunta-N` del cuaderno.
"""

import re

from course.calificacion import Suspenso

LETRAS = ("a", "b", "c", "d")

# Para cada pregunta: la respuesta correcta, la idea que debe quedar y por qué es buena o mala cada opción.
CLAVE = {
    1: {
        "correcta": "c",
        "idea": "un error al ejecutar es una observación más: el harness lo cuenta, sigue adelante "
                "y deja que decida el modelo.",
        "opciones": {
            "a": "eso es lo que pasaba antes de esta lección. Ahora ejecutar no lanza: convierte la "
                 "excepción en una observación, para que se entere el modelo y no sólo Python.",
            "b": "el harness no repite nada por su cuenta. Con el mismo entorno, la misma llamada falla "
                 "igual; lo único que puede cambiar algo es una llamada distinta, y esa sólo puede "
                 "escribirla el modelo.",
            "c": "la excepción vuelve como un tool_result con is_error verdadero y su mensaje como "
                 "contenido, y el bucle sigue. Las demás llamadas del turno reciben su observación, y el "
                 "modelo, al leer el error, decide qué hacer.",
            "d": "eso sería mentirle al modelo: creería que el gazpacho es el salmorejo y apuntaría sus "
                 "ingredientes en la lista. Buscar otra cosa es decisión del modelo, no del harness.",
        },
    },
    2: {
        "correcta": "d",
        "idea": "un solo mensaje por turno y una observación por llamada, en orden, cada una con su id "
                "y con su propia marca is_error.",
        "opciones": {
            "a": "las observaciones de un turno no van en un mensaje por llamada: van todas juntas en un "
                 "único mensaje del usuario.",
            "b": "el error de p1 no impide ejecutar p2. Cada llamada recibe su observación, falle o no la "
                 "de al lado: es el invariante «ninguna llamada sin su observación».",
            "c": "cada llamada tiene su propio tool_result, con su identificador. Juntar las dos en un solo tool_result obligaría al "
                 "modelo a adivinar cuál falló, y marcaría como error una lectura que salió bien.",
            "d": "un mensaje del usuario con un tool_result por llamada, en el orden de las llamadas, "
                 "cada uno con su tool_use_id; sólo el de p1 lleva is_error verdadero.",
        },
    },
    3: {
        "correcta": False,
        "idea": "una llamada falla cuando no hace lo que promete su herramienta; una búsqueda sin "
                "coincidencias sí lo ha hecho.",
        "opciones": {
            True: "un texto vacío es la respuesta de una búsqueda que ha salido bien, y dice que no hay "
                  "nada que coincida. Marcarla como error haría creer al modelo que su llamada estaba mal.",
            False: "la herramienta buscar ha hecho exactamente lo que promete, y la respuesta es que no "
                   "hay nada. La observación lleva is_error falso y el texto vacío como contenido.",
        },
    },
    4: {
        "correcta": {"a", "d"},
        "idea": "una llamada que no es idempotente sólo se puede repetir sin riesgo cuando su error dice "
                "que no llegó a ejecutarse, que es lo que garantiza un error de esquema.",
        "opciones": {
            "a": "es un error de esquema, así que la llamada no llegó a ejecutarse, y su texto lo dice. "
                 "Corregirla y repetirla es seguro.",
            "b": "la llamada se ejecutó y el contenido ya está en el fichero. La herramienta añadir no es "
                 "idempotente, así que pedirla otra vez lo pegaría por segunda vez.",
            "c": "un error al ejecutarse sólo dice que la función no terminó, no que no hiciera nada; "
                 "puede haber escrito parte del contenido, o todo, antes de fallar.",
            "d": "también es un error de esquema, aunque con otro motivo, y la llamada no se ejecutó. "
                 "Repetirla corregida es seguro.",
        },
    },
}


def corregir(n, respuesta):
    """Imprime «Correcto. » y la explicación si `respuesta` es la buena; si no, lanza Suspenso con el porqué."""
    if n not in CLAVE:
        raise ValueError("el cuestionario no tiene pregunta %r" % (n,))
    if n == 4:
        return _corregir_varias(_letras(respuesta))
    clave = CLAVE[n]
    dada = _verdad(respuesta) if n == 3 else _letra(n, respuesta)
    if dada == clave["correcta"]:
        print("Correcto. " + _frase(clave["opciones"][dada]))
        return None
    raise Suspenso("Pregunta %d: has respondido %s, y no es la respuesta correcta.\n"
                   "Por qué no: %s\nLa correcta es %s: %s\nIdea clave: %s"
                   % (n, _nombre(dada), clave["opciones"][dada], _nombre(clave["correcta"]),
                      clave["opciones"][clave["correcta"]], clave["idea"]))


def _corregir_varias(marcadas):
    clave = CLAVE[4]
    correctas = clave["correcta"]
    if marcadas == correctas:
        print("Correcto. Has marcado %s. %s" % (_lista(marcadas), _frase(clave["idea"])))
        return None
    sobran = ["Has marcado la %s, pero tras esa observación no se puede repetir: %s" % (letra, clave["opciones"][letra])
              for letra in sorted(marcadas - correctas)]
    faltan = ["No has marcado la %s, y tras esa sí se puede: %s" % (letra, clave["opciones"][letra])
              for letra in sorted(correctas - marcadas)]
    dada = "has marcado %s" % _lista(marcadas) if marcadas else "no has marcado ninguna opción"
    raise Suspenso("Pregunta 4: %s. Se corrige a todo o nada, y tu selección no es la correcta.\n"
                   "%s\nLas correctas son %s.\nIdea clave: %s"
                   % (dada, "\n".join(sobran + faltan), _lista(correctas), clave["idea"]))


def _letra(n, respuesta):
    """La letra de una respuesta de opción única, sin espacios y en minúscula."""
    if isinstance(respuesta, str) and respuesta.strip().lower() in LETRAS:
        return respuesta.strip().lower()
    raise Suspenso("Pregunta %d: la respuesta debe ser una sola letra entre comillas: \"a\", \"b\", \"c\" "
                   "o \"d\". Has escrito %r." % (n, respuesta))


def _verdad(respuesta):
    """La respuesta de verdadero o falso: sólo True o False."""
    if isinstance(respuesta, bool):
        return respuesta
    raise Suspenso("Pregunta 3: la respuesta debe ser True (verdadero) o False (falso), sin comillas. "
                   "Has escrito %r." % (respuesta,))


def _letras(respuesta):
    """Las letras marcadas en la pregunta 4, como conjunto: vale un set, una lista, una tupla o un texto."""
    if isinstance(respuesta, str):
        trozos = [t for t in re.split(r"[\s,;]+", respuesta) if t]
        if len(trozos) == 1:  # "ad" también son dos letras
            trozos = list(trozos[0])
    elif isinstance(respuesta, (set, frozenset, list, tuple)):
        trozos = list(respuesta)
    else:
        trozos = None
    if trozos is None or not all(isinstance(t, str) and t.strip().lower() in LETRAS for t in trozos):
        raise Suspenso("Pregunta 4: la respuesta debe ser un conjunto de letras entre \"a\" y \"d\", "
                       "por ejemplo {\"a\", \"b\"}, o set() si no marcas ninguna. Has escrito %r." % (respuesta,))
    return {t.strip().lower() for t in trozos}


def _nombre(respuesta):
    if respuesta is True:
        return "verdadero (True)"
    if respuesta is False:
        return "falso (False)"
    return "la %s" % respuesta


def _lista(letras):
    """«la a», «la a y la d», «la a, la b y la d»."""
    letras = ["la " + letra for letra in sorted(letras)]
    return letras[0] if len(letras) == 1 else ", ".join(letras[:-1]) + " y " + letras[-1]


def _frase(texto):
    """El texto con mayúscula inicial, como frase suelta."""
    return texto[:1].upper() + texto[1:]
