"""El entorno de ficheros, sus cuatro herramientas y la comprobación de sus esquemas.

Un entorno es un dict ruta → texto. Cada herramienta recibe el entorno primero y
devuelve texto, nunca vacío: la API de Mensajes rechaza un tool_result sin contenido, así que
también «no hay nada» se dice con palabras. Solo `escribir` cambia el entorno.
"""

ENTORNO = {
    "lista.txt": "pan, leche, patatas",
    "notas/cena.txt": "El sábado cenamos seis.\nMarta no come cebolla.",
    "recetas/gazpacho.txt": "tomates, pepino, pimiento, ajo, aceite, vinagre, sal\n"
                            "Se tritura todo y se sirve muy frío.",
    "recetas/tortilla.txt": "patatas, huevos, cebolla, aceite, sal\n"
                            "Se fríen las patatas con la cebolla y se cuajan con el huevo.",
}


def leer(entorno, ruta):
    """El texto del fichero `ruta` (si está vacío, una frase que lo dice). Si no existe, lanza FileNotFoundError."""
    if ruta not in entorno:
        raise FileNotFoundError("no existe el fichero %r" % ruta)
    return entorno[ruta] or "el fichero %r está vacío" % ruta


def listar(entorno, carpeta):
    """Las rutas que hay bajo `carpeta`, una por línea y en orden; si no hay ninguna, una frase que lo dice."""
    prefijo = carpeta if carpeta == "" or carpeta.endswith("/") else carpeta + "/"
    rutas = sorted(r for r in entorno if r.startswith(prefijo))
    return "\n".join(rutas) or "no hay ningún fichero en la carpeta %r" % carpeta


def buscar(entorno, patron):
    """Las líneas que contienen `patron`, como `ruta:número: línea`; si no hay ninguna, una frase que lo dice."""
    lineas = ["%s:%d: %s" % (ruta, n, linea)
              for ruta in sorted(entorno)
              for n, linea in enumerate(entorno[ruta].split("\n"), start=1)
              if patron in linea]
    return "\n".join(lineas) or "ninguna línea contiene %r" % patron


def escribir(entorno, ruta, contenido):
    """Sustituye el fichero `ruta` entero por `contenido` (lo crea si no existe)."""
    entorno[ruta] = contenido
    return "se %s escrito %s en %s" % ("ha" if len(contenido) == 1 else "han", caracteres(len(contenido)), ruta)


def caracteres(n):
    return "1 carácter" if n == 1 else "%d caracteres" % n


def _esquema(nombre, descripcion, **campos):
    propiedades = {campo: {"type": tipo, "description": texto} for campo, (tipo, texto) in campos.items()}
    return {"name": nombre, "description": descripcion,
            "input_schema": {"type": "object", "properties": propiedades, "required": list(campos)}}


HERRAMIENTAS = [
    _esquema("leer", "Devuelve el texto de un fichero (de uno vacío, una frase que lo dice). "
             "Falla si el fichero no existe.",
             ruta=("string", "La ruta del fichero, por ejemplo lista.txt.")),
    _esquema("listar", "Devuelve las rutas de los ficheros de una carpeta, una por línea. "
             "Si la carpeta no tiene ninguno, lo dice con una frase.",
             carpeta=("string", "La carpeta, por ejemplo recetas/.")),
    _esquema("buscar", "Devuelve las líneas de todos los ficheros que contienen un texto, "
             "cada una con su ruta y su número de línea. Si no hay ninguna, lo dice con una frase.",
             patron=("string", "El texto que se busca, tal cual.")),
    _esquema("escribir", "Sustituye el fichero entero por el contenido dado; si no existe, lo crea.",
             ruta=("string", "La ruta del fichero."),
             contenido=("string", "El texto completo que tendrá el fichero.")),
]

FUNCIONES = {"leer": leer, "listar": listar, "buscar": buscar, "escribir": escribir}

# Cada tipo de JSON Schema: la clase de Python que lo representa y cómo se dice.
_TIPOS = {"string": (str, "un texto"), "array": (list, "una lista"), "object": (dict, "un objeto"),
          "boolean": (bool, "un booleano"), "integer": (int, "un número entero"),
          "number": ((int, float), "un número")}


# Los tipos de Python que no son de JSON, también dichos en español.
_OTROS = {type(None): "None (ningún valor)", tuple: "una tupla", set: "un conjunto", frozenset: "un conjunto",
          bytes: "unos bytes", float: "un número con decimales"}


def _tipo_de(valor):
    """Cómo se dice en español el tipo de `valor`, con artículo: «un texto», «una lista», «una tupla»…"""
    if isinstance(valor, bool):
        return "un booleano"
    if type(valor) in _OTROS:
        return _OTROS[type(valor)]
    return next((nombre for clase, nombre in _TIPOS.values() if isinstance(valor, clase)),
                "un valor de tipo %s" % type(valor).__name__)


def incumple(llamada):
    """None si la llamada cumple el esquema de su herramienta; si no, el motivo, en una frase."""
    esquema = next((h["input_schema"] for h in HERRAMIENTAS if h["name"] == llamada.get("name")), None)
    if esquema is None:
        return "no existe la herramienta %r" % llamada.get("name")
    entrada = llamada.get("input")
    if not isinstance(entrada, dict):
        return "la entrada debe ser un objeto, no %s" % _tipo_de(entrada)
    for campo in esquema["required"]:
        if campo not in entrada:
            return "falta el campo %r" % campo
    for campo, valor in entrada.items():
        if campo not in esquema["properties"]:
            return "%s no tiene el campo %r" % (llamada["name"], campo)
        clase, nombre = _TIPOS[esquema["properties"][campo]["type"]]
        if not isinstance(valor, clase) or (isinstance(valor, bool) and clase is not bool):
            return "el campo %r debe ser %s, no %s" % (campo, nombre, _tipo_de(valor))
    return None
