"""El cuestionario de la lección: preguntas, clave, corrección y los dos modos en que se publica.

- `PREGUNTAS`: el enunciado, las opciones, la respuesta buena y por qué acierta o falla cada opción.
- `corregir(n, respuesta)`: lo que decide, en el corrector de confianza, cada celda `pregunta-N`.
- `Cuestionario`: el preprocesador de `nbgrader generate_assignment` que publica el cuestionario
  en el modo que diga `c.Cuestionario.modo` en nbgrader_config.py: "formativo" (widgets que se
  comprueban al momento, sin puntos) o "calificado" (celdas de respuesta que se corrigen al entregar).
- `respuestas_del_cuaderno(nb)`: las respuestas de una entrega, para los informes de la clase.
"""

import ast
import re

from nbformat.v4 import new_code_cell, new_markdown_cell
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Enum

from course import PREGUNTA, RESPUESTA, grade_id, limites
from course.calificacion import Suspenso
from harness.aula.cuestionario import FORMAS, RESPUESTA_MIME, FormatoNoValido, interpretar

PREGUNTAS = {
    1: {
        "enunciado": "El modelo pide `leer` con `ruta=\"notas/compra.txt\"`, un fichero que no está en el "
                     "entorno, y la función lanza `FileNotFoundError`. ¿Cómo reacciona nuestro harness, ya con el "
                     "contrato nuevo?",
        "opciones": {
            "a": "Deja salir la excepción: el bucle se corta y el error le llega a quien llamó a `bucle`.",
            "b": "Repite la misma llamada dos o tres veces, por si a la segunda el fichero aparece.",
            "c": "Contesta a esa llamada con un `tool_result` que lleva `is_error` a `True` y el texto "
                 "`no existe el fichero 'notas/compra.txt'`, y el bucle continúa.",
            "d": "Lee el fichero de nombre más parecido, `notas/cena.txt`, y se lo pasa al modelo para no "
                 "interrumpir la conversación.",
        },
        "correcta": "c",
        "explicaciones": {
            "a": "así se comportaba el harness antes de esta lección. Con el contrato nuevo, `ejecutar` captura "
                 "la excepción y la convierte en una observación que el modelo puede leer.",
            "b": "el harness nunca repite una llamada por su cuenta. El entorno no ha cambiado, así que la llamada "
                 "fallaría otra vez exactamente igual; pedir algo distinto le corresponde al modelo.",
            "c": "el fallo se le cuenta al modelo en la observación de su llamada, con el mensaje de la excepción, "
                 "y la conversación sigue: el siguiente paso lo elige el modelo.",
            "d": "eso sería dar gato por liebre: el modelo creería haber leído su lista de la compra y en "
                 "realidad tendría la nota de la cena. El harness cuenta lo que ha pasado y no sustituye nada.",
        },
        "idea": "una excepción de la herramienta vuelve al modelo como observación de error; el harness no "
                "la esconde, no la arregla y no la repite.",
    },
    2: {
        "enunciado": "En un mismo turno el modelo pide dos cosas: `b1`, que lee `recetas/paella.txt` (no existe), "
                     "y `b2`, que lista `recetas/`. ¿Qué añade el bucle a la conversación después de ese turno?",
        "opciones": {
            "a": "Dos mensajes del usuario seguidos: uno con la observación de `b1` y otro con la de `b2`.",
            "b": "Un mensaje del usuario con una sola observación, el error de `b1`; `b2` se queda sin "
                 "ejecutar porque el turno ya ha fallado.",
            "c": "Un mensaje del usuario con un único `tool_result` que reúne los dos textos y lleva "
                 "`is_error` a `True`, porque algo ha fallado.",
            "d": "Un mensaje del usuario con dos `tool_result`, primero el de `b1` y después el de `b2`: el de "
                 "`b1` con `is_error` a `True` y el mensaje de la excepción, el de `b2` con `is_error` a `False` "
                 "y las dos rutas.",
        },
        "correcta": "d",
        "explicaciones": {
            "a": "todas las observaciones de un turno viajan juntas: el harness contesta el turno entero con un "
                 "solo mensaje del usuario.",
            "b": "que `b1` falle no es motivo para dejar a `b2` sin hacer. Cada llamada del turno se atiende por "
                 "separado y recibe su observación: ninguna se queda sin la suya.",
            "c": "cada llamada recibe su propio `tool_result`, unido a ella por `tool_use_id`. Mezclarlas "
                 "impediría saber cuál falló y daría por fallido un listado que salió bien.",
            "d": "un mensaje por turno, un `tool_result` por llamada en el orden en que se pidieron, cada uno con "
                 "su `tool_use_id` y con su propio valor de `is_error`.",
        },
        "idea": "un turno se contesta con un mensaje; dentro, una observación por llamada, en orden y cada una "
                "con su marca de error.",
    },
    3: {
        "enunciado": "Si el modelo llama a `buscar` con `patron=\"azafrán\"` y ninguna línea "
                     "del entorno contiene esa palabra, la observación tiene que llevar `is_error` a `True`.",
        # La casilla de cada opción ya dice «verdadero» o «falso»: el texto no lo repite.
        "opciones": {
            True: "la búsqueda no ha encontrado nada, así que ha fallado.",
            False: "no encontrar nada es un resultado normal de `buscar`.",
        },
        "correcta": False,
        "explicaciones": {
            True: "no encontrar coincidencias no es un fallo: `buscar` ha hecho su trabajo y devuelve una frase "
                  "que lo dice. Con la marca de error el modelo pensaría que pidió algo mal y lo cambiaría sin motivo.",
            False: "`buscar` ha cumplido lo que promete. Su observación es un `tool_result` normal, con "
                   "`is_error` a `False`, y su texto ya le dice al modelo que ninguna línea contiene esa palabra.",
        },
        "idea": "`is_error` dice si la herramienta no pudo hacer su trabajo, no si lo que devuelve es decepcionante.",
    },
    4: {
        "enunciado": "Imagina que `añadir(ruta, contenido)` fuera una herramienta más del entorno, con su propio "
                     "esquema: coloca `contenido` detrás del texto que ya tenga el fichero. El modelo la ha pedido y ha recibido una de estas observaciones. "
                     "¿Después de cuáles puede pedirla otra vez (corregida, si hace falta) sin arriesgarse a "
                     "que el texto quede pegado dos veces? Marca todas las que valgan: se corrige a todo o nada.",
        "opciones": {
            "a": "Error: `no se ha ejecutado: falta el campo 'contenido'`.",
            "b": "Resultado: `lista.txt: 9 caracteres más (ahora tiene 28)`.",
            "c": "Error con el mensaje de una excepción que la función lanzó a medio trabajo: "
                 "`se ha llenado el disco`.",
            "d": "Error: `no se ha ejecutado: el campo 'contenido' debe ser un texto, no una lista`.",
        },
        "varias": True,
        "correcta": {"a", "d"},
        "explicaciones": {
            "a": "en este harness, el prefijo `no se ha ejecutado: ` solo lo pone `ejecutar` cuando el esquema para "
                 "la llamada: la función no llegó a ejecutarse. Completarla y repetirla no duplica nada.",
            "b": "este texto es el de un éxito: el contenido ya está en el fichero. Como `añadir` no es "
                 "idempotente, pedirla de nuevo lo pegaría una segunda vez.",
            "c": "la excepción salió mientras la función trabajaba. Puede que no escribiera nada, o una parte, o "
                 "todo; el error no lo aclara, así que repetir puede duplicar el texto.",
            "d": "otro error de esquema, con otro motivo: la llamada tampoco se ejecutó y repetirla bien escrita "
                 "es seguro.",
        },
        "idea": "una llamada que no es idempotente solo se repite sin riesgo cuando consta que no se ejecutó, y "
                "eso es justo lo que asegura un error de esquema.",
    },
}


# La corrección (modo calificado)

def corregir(n, respuesta):
    """Imprime «Correcto. » y la explicación si `respuesta` es la buena; si no, lanza Suspenso con el porqué."""
    if n not in PREGUNTAS:
        raise ValueError("el cuestionario no tiene pregunta %r" % (n,))
    try:
        dada = interpretar(n, respuesta)
    except FormatoNoValido as e:
        raise Suspenso("Pregunta %d: %s" % (n, e)) from None
    if FORMAS[n] == "letras":
        return _corregir_varias(n, set(dada))
    p = PREGUNTAS[n]
    if dada == p["correcta"]:
        print("Correcto. " + _frase(p["explicaciones"][dada]))
        return None
    raise Suspenso("Pregunta %d: has respondido %s, y no es la respuesta correcta.\n"
                   "Por qué no: %s\nLa correcta es %s: %s\nIdea clave: %s"
                   % (n, _nombre(dada), p["explicaciones"][dada], _nombre(p["correcta"]),
                      p["explicaciones"][p["correcta"]], p["idea"]))


def _corregir_varias(n, marcadas):
    p = PREGUNTAS[n]
    correctas = p["correcta"]
    if marcadas == correctas:
        print("Correcto. Has marcado %s. %s" % (_lista(marcadas), _frase(p["idea"])))
        return None
    sobran = ["Has marcado la %s, y tras esa observación repetir no es seguro: %s" % (l, p["explicaciones"][l])
              for l in sorted(marcadas - correctas)]
    faltan = ["No has marcado la %s, y tras esa sí se puede repetir: %s" % (l, p["explicaciones"][l])
              for l in sorted(correctas - marcadas)]
    dada = "has marcado %s" % _lista(marcadas) if marcadas else "no has marcado ninguna opción"
    raise Suspenso("Pregunta %d: %s. Se corrige a todo o nada, y tu selección no es la correcta.\n"
                   "%s\nLas correctas son %s.\nIdea clave: %s"
                   % (n, dada, "\n".join(sobran + faltan), _lista(correctas), p["idea"]))


def _nombre(respuesta):
    if isinstance(respuesta, bool):
        return "verdadero (True)" if respuesta else "falso (False)"
    return "la %s" % respuesta


def _lista(letras):
    """«la a», «la a y la d», «la a, la b y la d»."""
    letras = ["la " + l for l in sorted(letras)]
    return letras[0] if len(letras) == 1 else ", ".join(letras[:-1]) + " y " + letras[-1]


def _frase(texto):
    return texto[:1].upper() + texto[1:]


# Las respuestas de una entrega, para los informes

def respuestas_del_cuaderno(nb):
    """{n: respuesta} de un cuaderno: una letra, True o False, o un frozenset de letras; None si no hay una válida.

    En modo calificado se lee cada celda `respuesta-N` (solo asignaciones de literales, sin ejecutar nada).
    En modo formativo, la última respuesta comprobada con cada widget: en el cuaderno que guarda el
    estudiante está en la salida de su celda; en el corregido (que se rehace sobre el de release y se
    vuelve a ejecutar), en sus metadatos, donde la deja course/aislado/entrada.py.
    """
    respuestas = dict.fromkeys(PREGUNTAS)
    registros = list(nb.get("metadata", {}).get("curso", {}).get("cuestionario") or [])
    for celda in nb.cells:
        de_la_celda = grade_id(celda)
        if re.fullmatch(re.escape(RESPUESTA) + r"\d+", de_la_celda) and int(de_la_celda[len(RESPUESTA):]) in PREGUNTAS:
            n = int(de_la_celda[len(RESPUESTA):])
            respuestas[n] = _leida(n, _literal(celda.source, "respuesta_%d" % n))
        registros += registros_de_la_celda(celda)
    for dato in registros:
        leido = registro(dato)
        if leido:
            respuestas[leido[0]] = leido[1]
    return respuestas


def registros_de_la_celda(celda, tope=limites.SALIDAS_DEL_CUESTIONARIO):
    """Lo que han dejado los widgets del cuestionario en las salidas de una celda (sus `tope` primeras)."""
    salidas = celda.get("outputs") if isinstance(celda, dict) else None
    datos = [s.get("data") for s in (salidas if isinstance(salidas, list) else [])[:tope] if isinstance(s, dict)]
    return [d[RESPUESTA_MIME] for d in datos if isinstance(d, dict) and RESPUESTA_MIME in d]


def registro(dato):
    """(n, respuesta) de lo que guarda el widget de la pregunta n al pulsar «Comprobar», si es válido; si no, None."""
    if not isinstance(dato, dict) or type(dato.get("pregunta")) is not int or dato["pregunta"] not in PREGUNTAS:
        return None
    n, marcadas = dato["pregunta"], dato.get("respuesta")
    if not isinstance(marcadas, list) or len(marcadas) > 4:
        return None
    respuesta = _leida(n, marcadas if FORMAS[n] == "letras" else (marcadas or [None])[0])
    return None if respuesta is None else (n, respuesta)


def _literal(fuente, nombre):
    """El valor literal de la última asignación `nombre = ...` de `fuente`; None si no hay o no es un literal."""
    if not isinstance(fuente, str) or len(fuente.encode()) > limites.RESPUESTA_DEL_CUESTIONARIO:
        return None
    try:
        arbol = ast.parse(fuente)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    valor = None
    for nodo in arbol.body:
        if isinstance(nodo, ast.Assign) and any(isinstance(t, ast.Name) and t.id == nombre for t in nodo.targets):
            v = nodo.value
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "set" and not v.args:
                valor = set()
                continue
            try:
                valor = ast.literal_eval(v)
            except (ValueError, TypeError, RecursionError, MemoryError):
                valor = None
    return valor


def _leida(n, respuesta):
    try:
        return interpretar(n, respuesta)
    except FormatoNoValido:
        return None


# Los dos modos de publicar el cuestionario

INTRODUCCION = {
    "calificado": "## Comprueba lo que has entendido\n\n"
                  "Cuatro preguntas y, después, el desafío. Escribe cada respuesta en la celda de código que "
                  "sigue a su pregunta, en lugar de la línea `raise NotImplementedError(...)`, y ejecuta la celda "
                  "de debajo: esa solo revisa que el formato sea válido. Si la respuesta es la buena, y por qué, "
                  "lo verás cuando se corrija la entrega. Cada pregunta vale un punto.",
    "formativo": "## Comprueba lo que has entendido\n\n"
                 "Cuatro preguntas para ti: marca tu respuesta y pulsa «Comprobar». Verás al momento si aciertas "
                 "y la explicación de cada opción que hayas marcado. Puedes probar cuantas veces quieras: estas "
                 "preguntas no cuentan para la nota. Después viene el desafío, que sí cuenta.",
}


# Lo que importa la celda de antes de las preguntas: cada modo, solo lo que usa.
IMPORTA = {"calificado": "from harness.aula.cuestionario import revisar_formato",
           "formativo": "from harness.aula.cuestionario import pregunta"}


def enunciado(n, con_opciones=True):
    """La celda de Markdown de la pregunta `n`; con las opciones escritas, para el modo calificado."""
    p = PREGUNTAS[n]
    tipo = {"verdad": " (verdadero o falso)", "letras": " (varias respuestas)"}.get(FORMAS[n], "")
    texto = "### Pregunta %d%s\n\n%s" % (n, tipo, p["enunciado"])
    if con_opciones and FORMAS[n] != "verdad":
        texto += "\n\n" + "\n".join("- **%s)** %s" % (c, t) for c, t in p["opciones"].items())
    return texto


def celda_formativa(n):
    """La celda de código que enseña la pregunta `n` como widget, con su clave dentro."""
    p = PREGUNTAS[n]
    correctas = sorted(p["correcta"]) if isinstance(p["correcta"], set) else [p["correcta"]]

    def dict_en_lineas(d):
        return "{\n" + "".join("        %r: %r,\n" % par for par in d.items()) + "    }"

    fuente = ("# Pregunta %d, formativa: no cuenta para la nota. La clave está en esta celda y el widget la usa\n"
              "# al pulsar «Comprobar». Si la miras antes de contestar, solo te engañas a ti.\n"
              "pregunta(\n    %d,\n    opciones=%s,\n    correctas=%r,\n    explicaciones=%s,\n    varias=%r,\n)"
              % (n, n, dict_en_lineas(p["opciones"]), correctas, dict_en_lineas(p["explicaciones"]),
                 FORMAS[n] == "letras"))
    # Con un id fijo, la release sale igual byte a byte cada vez que se genera.
    return new_code_cell(fuente, id="pregunta-%d-widget" % n, metadata={"jupyter": {"source_hidden": True},
                                                                      "cuestionario": n})


class Cuestionario(NbGraderPreprocessor):
    """Publica el cuestionario en un modo. La fuente lo tiene en modo calificado; en formativo se reescribe.

    Las celdas que toca llevan en sus metadatos `cuestionario`: "introduccion", "importa" o el número de
    la pregunta.
    """

    modo = Enum(("formativo", "calificado"), default_value="formativo",
                help="formativo: widgets que se comprueban al momento, sin puntos; "
                     "calificado: celdas respuesta-N y pregunta-N que decide el corrector").tag(config=True)

    def preprocess(self, nb, resources):
        celdas = []
        for celda in nb.cells:
            marca = celda.metadata.get("cuestionario")
            de_la_celda = grade_id(celda)
            if self.modo == "calificado":
                celdas.append(celda)
            elif marca == "introduccion":
                celdas.append(new_markdown_cell(INTRODUCCION["formativo"], id=celda.id, metadata=dict(celda.metadata)))
            elif marca == "importa":
                celdas.append(new_code_cell(IMPORTA["formativo"], id=celda.id, metadata=dict(celda.metadata)))
            elif marca in PREGUNTAS:
                celdas.append(new_markdown_cell(enunciado(marca, con_opciones=False), id=celda.id,
                                                metadata=dict(celda.metadata)))
            elif de_la_celda.startswith(RESPUESTA):
                celdas.append(celda_formativa(int(de_la_celda[len(RESPUESTA):])))
            elif not de_la_celda.startswith(PREGUNTA):
                celdas.append(celda)
        nb.cells = celdas
        return nb, resources
