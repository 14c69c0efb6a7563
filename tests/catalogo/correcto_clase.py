"""Hace de ejecutar una instancia invocable de una clase que guarda las funciones y separa cada paso en métodos.

esperado: salmorejo=1 esquema=1 excepciones=2 una-vez=2 sin-arreglos=2 resultados=1 escrituras=1 guiones=2
diagnóstico: ninguno
"""


class Ejecutor:
    """Contesta a cada llamada con un tool_result; nunca lanza."""

    def __init__(self, funciones):
        self.funciones = funciones

    def __call__(self, ll, entorno):
        motivo = incumple(ll)
        if motivo is not None:
            return self.fallo(ll, "no se ha ejecutado: " + motivo)
        try:
            salida = self.funciones[ll["name"]](entorno, **ll["input"])
        except Exception as e:
            return self.fallo(ll, str(e) or type(e).__name__)
        return resultado(ll["id"], salida)

    @staticmethod
    def fallo(ll, contenido):
        return error(ll["id"], contenido)


ejecutar = Ejecutor(FUNCIONES)
