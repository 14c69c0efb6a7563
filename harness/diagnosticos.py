"""Las equivocaciones que reconoce la revisión de `ejecutar`, y la excepción que las nombra.

Cada una tiene un nombre corto (el que sale en la retroalimentación y en el informe de la clase),
una etiqueta y lo que enseña la lección en su lugar.
"""

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
                         "Si la función devuelve, la observación es resultado(id, lo que devuelve), con is_error a False."),
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
    "error-como-resultado": ("devuelve el fallo con is_error a False",
                             "Un fallo que llega como resultado normal engaña al modelo, que lo toma por lo que ha "
                             "devuelto la herramienta. El error lleva is_error a True: error(id, str(e))."),
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
                           "comillas), con is_error a False."),
    "vacio-es-error": ("trata un resultado vacío como un error",
                       "buscar sin coincidencias devuelve un texto vacío, y eso es una respuesta, no un fallo: "
                       "is_error a False."),
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
