"""El bucle de la lección anterior: pide turnos al modelo y contesta a sus llamadas."""

from .entorno import HERRAMIENTAS


def bucle(modelo, inicio, entorno, tope, ejecutar):
    """Hasta `tope` turnos. Devuelve ("fin", texto, M) o ("tope", None, M).

    `ejecutar(llamada, entorno)` contesta a cada llamada; todas las de un turno van
    juntas, en orden, en un solo mensaje del usuario. Lo que lance el modelo sale del bucle.
    """
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            return "fin", " ".join(b["text"] for b in respuesta if b["type"] == "text"), M
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return "tope", None, M
