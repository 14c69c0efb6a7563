"""Las equivocaciones que reconoce la revisión de `ejecutar`, y la excepción que las nombra.

Cada una tiene un nombre corto (el que sale en la retroalimentación y en el informe de la clase),
una etiqueta, lo que enseña la lección en su lugar, la cláusula donde resta (su casa) y la sección
de la lección que conviene releer. Las que no tienen casa dejan una llamada sin respuesta: restan
allí donde pasan.
"""

from typing import NamedTuple


class Diagnostico(NamedTuple):
    etiqueta: str
    leccion: str
    casa: str | None   # la cláusula donde resta; None si deja una llamada sin respuesta
    releer: str        # el título de la sección de la lección que lo explica


_DESAFIO = "Desafío: un `ejecutar` del que no sale ninguna excepción"
_A_MEDIAS = "Experimento: un harness a medias"
_CONTRATO = "El contrato de `ejecutar`"
_FALLAR = "Dos maneras de fallar"
_DECIDE = "Después de un error, decide el modelo"
_REPETIR = "¿Se puede repetir? La idempotencia"
_VACIO = "¿Y una búsqueda sin resultados?"

# Cada equivocación: su nombre y Diagnostico(etiqueta, lo que enseña la lección, casa, qué releer).
DIAGNOSTICOS = {
    # Sin respuesta: no hay nada que corregir.
    "sin-empezar": Diagnostico(
        "la respuesta sigue siendo la de partida",
        "ejecutar aún lanza NotImplementedError: escribe tu parte en su lugar, dentro de la función.",
        None, _DESAFIO),
    "no-carga": Diagnostico(
        "la celda de la respuesta da error o no define ejecutar",
        "Ejecuta la celda de tu respuesta y mira qué dice: sin una función ejecutar no hay nada que probar.",
        None, _DESAFIO),
    # Una llamada que se queda sin respuesta.
    "lanza-al-fallar": Diagnostico(
        "deja salir la excepción de la herramienta",
        "Cuando la herramienta lanza, la excepción sale de ejecutar y la conversación muere, como con el "
        "ejecutar a medias. Un fallo es una observación: error(id, str(e)), y el bucle sigue.",
        None, _A_MEDIAS),
    "lanza-tu-codigo": Diagnostico(
        "tu propio código lanza una excepción",
        "La excepción no viene de la herramienta: sale de una línea de tu ejecutar, la que se indica arriba. "
        "¿Un nombre, un atributo o una clave mal escritos? Si es un UnboundLocalError o un NameError en la "
        "línea que sigue a un except, seguramente falta un return dentro del except. Lo único que puede fallar "
        "sin que sea culpa tuya es la función de la herramienta, y por eso su llamada va dentro del try.",
        None, _CONTRATO),
    "lanza-otra-excepcion": Diagnostico(
        "lanza una excepción propia en lugar de contestar",
        "Un raise en ejecutar deja la llamada sin su observación, también si envuelve el fallo de la herramienta "
        "en otra excepción o le añade contexto. De ejecutar no debe salir ninguna excepción: lo que falla vuelve "
        "como error(id, texto), y el bucle sigue.",
        None, _CONTRATO),
    "no-contesta": Diagnostico(
        "devuelve None en lugar de una observación",
        "Al modelo le llega None: la llamada se queda sin su observación. ¿Falta un return en algún camino? Cada "
        "llamada recibe su tool_result, también cuando falla.",
        None, _CONTRATO),
    "no-es-un-tool-result": Diagnostico(
        "devuelve algo que no es el tool_result de esa llamada",
        "La observación es un dict con type, tool_use_id (el id de la llamada), content e is_error (True o "
        "False), y nada más. resultado(id, …) y error(id, …) ya tienen esa forma.",
        None, _CONTRATO),
    "solo-la-traza": Diagnostico(
        "solo contesta a los fallos que tienen la forma de los de la traza",
        "La traza del salmorejo trae un ejemplo de cada clase de fallo, no la lista de los que pueden pasar. "
        "Cualquier llamada que no cumple su esquema se contesta con el motivo que da incumple, y cualquier "
        "excepción de la herramienta, sea del tipo que sea, con error(id, str(e)): captura Exception.",
        None, _FALLAR),
    "no-termina": Diagnostico(
        "no termina con alguna llamada",
        "ejecutar contesta enseguida. ¿Hay un bucle que repite la llamada? La herramienta se ejecuta una vez "
        "como mucho.",
        None, _CONTRATO),
    # La idea de la lección (no es una cláusula: es una regla de la nota).
    "nunca-avisa": Diagnostico(
        "una clase de fallo nunca vuelve como error",
        "La idea de la lección: una llamada que falla vuelve al modelo como error(id, texto), con is_error a True y "
        "un texto que dice qué ha pasado. Las dos clases de fallo: la llamada que no cumple su esquema (el "
        "motivo) y la herramienta que lanza (el mensaje de la excepción). Si un fallo le llega como un "
        "resultado normal, o con un texto que no dice qué ha pasado, el modelo no se entera y no puede "
        "corregir la llamada, pedir otra cosa ni avisar al usuario.",
        None, _FALLAR),
    "todo-es-error": Diagnostico(
        "contesta con un error también lo que sale bien",
        "is_error es lo que separa un fallo de un resultado: si todo llega como error, el modelo no distingue lo "
        "que ha salido bien de lo que no. Lo que devuelve la herramienta va en resultado(id, lo_devuelto), con "
        "is_error a False.",
        None, _FALLAR),
    # Las de cada cláusula.
    "ejecuta-sin-esquema": Diagnostico(
        "ejecuta una llamada que no cumple su esquema",
        "Primero incumple(llamada): si da un motivo, la herramienta no se ejecuta y el error dice «no se ha "
        "ejecutado: » y el motivo. Así el modelo sabe que puede corregirla y repetirla.",
        "esquema", _FALLAR),
    "esquema-como-resultado": Diagnostico(
        "contesta como un resultado normal a una llamada que no cumple su esquema",
        "Una llamada que no cumple su esquema ha fallado: su observación es error(id, \"no se ha ejecutado: \" "
        "+ motivo), con is_error a True, para que el modelo sepa que tiene que corregirla.",
        "esquema", _FALLAR),
    "motivo-sin-prefijo": Diagnostico(
        "el error del esquema no empieza por “no se ha ejecutado: ”",
        "Ese comienzo le dice al modelo que la llamada no ha llegado a ejecutarse y que repetirla corregida "
        "es seguro.",
        "esquema", _REPETIR),
    "motivo-cambiado": Diagnostico(
        "cambia el motivo del esquema",
        "El contenido es «no se ha ejecutado: » seguido del motivo que da incumple, tal cual.",
        "esquema", _FALLAR),
    "captura-solo-un-tipo": Diagnostico(
        "no captura todas las excepciones de la herramienta",
        "Con except FileNotFoundError, con cualquier otro tipo concreto o mirando antes si el fichero existe, "
        "las demás excepciones siguen saliendo de ejecutar. Lance lo que lance la función, la llamada vuelve "
        "como error: captura Exception.",
        "excepciones", _CONTRATO),
    "contenido-vacio": Diagnostico(
        "deja vacío el contenido del error",
        "Hay excepciones sin mensaje: con ellas, str(e) es un texto vacío, y la API de Mensajes rechaza un "
        "tool_result de error sin contenido. Cuando str(e) está vacío, di al menos qué excepción ha sido: "
        "str(e) or type(e).__name__.",
        "excepciones", _CONTRATO),
    "no-dice-el-tipo": Diagnostico(
        "con una excepción sin mensaje, el error no dice qué excepción ha sido",
        "Hay excepciones sin mensaje: con ellas, str(e) es un texto vacío, y lo que escribas alrededor no dice qué "
        "ha pasado. Cuando str(e) está vacío, el texto lleva al menos el tipo de la excepción: str(e) or "
        "type(e).__name__.",
        "excepciones", _CONTRATO),
    "no-se-ha-ejecutado-al-fallar": Diagnostico(
        "dice “no se ha ejecutado” de un error que surgió al ejecutar",
        "«no se ha ejecutado: » es solo para las llamadas que no cumplen su esquema. Si la función ha lanzado, "
        "sí se ha ejecutado y puede haber hecho algo antes de fallar: decir lo contrario invita al modelo a "
        "repetir sin riesgo lo que quizá no es idempotente.",
        "excepciones", _REPETIR),
    "error-como-resultado": Diagnostico(
        "devuelve el fallo con is_error a False",
        "Un fallo que llega como resultado normal engaña al modelo, que lo toma por lo que ha devuelto la "
        "herramienta. El error lleva is_error a True: error(id, str(e)).",
        "excepciones", _FALLAR),
    "contenido-no-es-texto": Diagnostico(
        "el contenido del error no es el texto del mensaje",
        "El contenido del error es un texto, el de str(e): ni la excepción misma, ni sus argumentos, ni una lista de "
        "bloques.",
        "excepciones", _FALLAR),
    "mensaje-cambiado": Diagnostico(
        "el error no lleva el mensaje de la excepción de la herramienta",
        "El texto del error lleva el mensaje de la excepción que lanza la herramienta, str(e), que es lo que le dice "
        "al modelo qué ha fallado (puede llevar algo más, como el tipo). Si usas tu propia copia de una herramienta, "
        "tiene que fallar con el mismo mensaje que la de la lección.",
        "excepciones", _FALLAR),
    "reintenta": Diagnostico(
        "repite la llamada que ha fallado",
        "El harness no reintenta por su cuenta: contesta con el error y el modelo decide. Una llamada que falla "
        "a medias puede haber hecho algo, y repetirla solo es seguro si es idempotente.",
        "una-vez", _REPETIR),
    "ejecuta-dos-veces": Diagnostico(
        "ejecuta la herramienta dos veces en una misma llamada",
        "Cada llamada ejecuta su herramienta una vez como mucho: una herramienta que no es idempotente dejaría "
        "su efecto dos veces. Guarda lo que devuelve la primera vez.",
        "una-vez", _REPETIR),
    "contesta-sin-ejecutar": Diagnostico(
        "contesta sin ejecutar la herramienta",
        "La observación de una llamada que cumple su esquema sale de ejecutar su herramienta: lo que devuelve, "
        "o lo que lanza. Sin ejecutarla, el modelo recibe algo que no ha pasado. Si contestas con un error, mira "
        "su texto: puede ser una excepción de tu propio código dentro del try (una clave mal escrita, por "
        "ejemplo), que tu except convierte en la observación antes de llegar a la herramienta.",
        "una-vez", _CONTRATO),
    "respuesta-guardada": Diagnostico(
        "contesta con lo que guardó de una llamada igual, sin ejecutar la herramienta",
        "Cada llamada se contesta ejecutándola: entre una llamada y otra igual el entorno puede haber cambiado, o "
        "fallar ahora. Una respuesta guardada de antes le cuenta al modelo lo que pasó entonces, no lo que pasa.",
        "una-vez", _CONTRATO),
    "arregla-la-llamada": Diagnostico(
        "arregla la llamada por su cuenta",
        "Si la llamada no cumple su esquema o pide un fichero que no existe, el harness no adivina lo que "
        "quería el modelo (otro campo, un fichero parecido): contesta con el error y el modelo decide.",
        "sin-arreglos", _DECIDE),
    "cambia-la-llamada": Diagnostico(
        "cambia el diccionario de la llamada que ha hecho el modelo",
        "La llamada es parte de la conversación: el bucle la guarda en el turno del modelo y se la vuelve a mandar "
        "en el siguiente. Si ejecutar la cambia, el modelo ve otra llamada que la que hizo. Léela sin tocarla; si "
        "necesitas otra, haz una copia.",
        "sin-arreglos", _DECIDE),
    "resultado-cambiado": Diagnostico(
        "cambia lo que devuelve la herramienta",
        "Lo que devuelve la herramienta llega al modelo tal cual (sin strip, sin repr, sin comillas), con "
        "is_error a False.",
        "resultados", _CONTRATO),
    "exito-como-error": Diagnostico(
        "contesta con un error cuando la herramienta ha salido bien",
        "Si la función devuelve, ha salido bien, también si lo que devuelve dice que no ha encontrado nada: la "
        "observación es resultado(id, lo que devuelve), con is_error a False.",
        "resultados", _VACIO),
    "trabaja-en-una-copia": Diagnostico(
        "ejecuta la herramienta sobre una copia del entorno",
        "La herramienta trabaja en el entorno que recibe ejecutar: en una copia, lo que escribe escribir se "
        "pierde, y el modelo cree que está escrito.",
        "escrituras", _CONTRATO),
}


# Cómo empieza la línea que explica la equivocación en el mensaje de un NoCumple.
EQUIVOCACION = "Equivocación probable: "


class NoCumple(AssertionError):
    """Una cláusula que `ejecutar` no cumple. `diagnostico` nombra la equivocación, si se reconoce: su
    nombre corto queda en `diagnostico`, para los informes, y el mensaje dice su etiqueta y qué enseña la lección.
    `comun`, si no es None, nombra lo que explica esta y otras a la vez (se dice una vez): "tiempo", que se ha
    acabado el tiempo de toda la entrega."""

    comun = None

    def __init__(self, mensaje, diagnostico=None):
        self.motivo = mensaje  # lo que ha pasado, sin la explicación de la equivocación
        if diagnostico:
            d = DIAGNOSTICOS[diagnostico]
            mensaje += "\n%s%s. %s" % (EQUIVOCACION, d.etiqueta, d.leccion)
        super().__init__(mensaje)
        self.diagnostico = diagnostico
