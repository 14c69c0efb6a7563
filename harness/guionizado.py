"""El modelo guionizado: contesta lo que dice su guion, y solo a la conversación que el guion espera."""

import copy

from .bloques import muestra


class FueraDelGuion(Exception):
    """El modelo guionizado ha recibido una conversación que su guion no espera, o se ha quedado sin guion."""

    def _render_traceback_(self):
        # IPython enseña estas líneas en lugar de la traza: la queja, no el camino por bucle y por aquí.
        return ["\x1b[0;31m✘ Queja del modelo guionizado\x1b[0m\n  " + str(self).replace("\n", "\n  ")]


def guion_de(inicio, respuestas, visto):
    """El guion: para cada turno, la conversación que el modelo espera recibir y lo que contesta.

    `respuestas[i]` es el turno i del asistente y `visto[i]` el mensaje del usuario que el harness
    debe añadir después (None tras el último).
    """
    guion, M = [], list(inicio)
    for respuesta, mensaje in zip(respuestas, visto):
        guion.append((list(M), respuesta))
        M += [("asistente", respuesta)] + ([("usuario", mensaje)] if mensaje is not None else [])
    return guion


class ModeloGuionizado:
    """Un modelo de mentira que sigue un guion hecho con `guion_de`. `turno` cuenta los turnos contestados."""

    def __init__(self, guion):
        self.guion = list(guion)
        self.turno = 0

    def __call__(self, M, herramientas):
        if self.turno >= len(self.guion):
            raise FueraDelGuion("el modelo ya ha contestado todos los turnos de su guion (%s), y el harness le "
                                "pide el turno %d" % (_cuantos(len(self.guion), "turno"), self.turno + 1))
        esperada, respuesta = self.guion[self.turno]
        diferencia = _primera_diferencia(esperada, list(M))
        if diferencia:
            donde, que = diferencia
            # El mensaje que difiere pertenece al último turno del asistente que lo precede.
            turno = sum(1 for rol, _ in esperada[:donde] if rol == "asistente")
            if turno == 0:
                raise FueraDelGuion("inicio: la conversación de partida no es la que espera el guion.\n" + que)
            raise FueraDelGuion("turno %d: lo que ha contestado el harness a este turno del modelo no es lo que "
                                "espera el guion.\n%s" % (turno, que))
        self.turno += 1
        return copy.deepcopy(respuesta)


def _igual(a, b):
    """Igualdad estricta: también el tipo (True no vale por 1, ni una tupla por una lista)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_igual(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_igual(x, y) for x, y in zip(a, b))
    return a == b


def _primera_diferencia(esperada, recibida):
    """(índice del primer mensaje que difiere, qué difiere en palabras), o None si no difieren."""
    for i, (e, r) in enumerate(zip(esperada, recibida), start=1):
        if not (isinstance(r, (tuple, list)) and len(r) == 2):
            return i - 1, "  mensaje %d: debería ser un par (rol, contenido) y es %r" % (i, r)
        (rol_e, cont_e), (rol_r, cont_r) = e, r
        if rol_e != rol_r:
            return i - 1, "  mensaje %d: se esperaba un mensaje de %r y ha llegado uno de %r" % (i, rol_e, rol_r)
        if isinstance(cont_e, str) or not isinstance(cont_r, list):
            if not _igual(cont_e, cont_r):
                return i - 1, "  mensaje %d (%s):\n    se esperaba: %r\n    ha llegado:  %r" % (i, rol_e, cont_e, cont_r)
            continue
        for j, (be, br) in enumerate(zip(cont_e, cont_r), start=1):
            if not _igual(be, br):
                return i - 1, ("  mensaje %d (%s), bloque %d:\n    se esperaba: %s\n    ha llegado:  %s%s"
                               % (i, rol_e, j, muestra(be), muestra(br), _detalle(be, br)))
        if len(cont_e) != len(cont_r):
            return i - 1, ("  mensaje %d (%s): se esperaba%s %s y %s %d:\n    %s"
                           % (i, rol_e, "" if len(cont_e) == 1 else "n", _cuantos(len(cont_e), "bloque"),
                              "ha llegado" if len(cont_r) == 1 else "han llegado", len(cont_r),
                              "\n    ".join(muestra(b) for b in cont_r)))
    if len(recibida) > len(esperada):
        return len(esperada), "  sobran mensajes: a partir del %d, %s" % (len(esperada) + 1, muestra(recibida[len(esperada)]))
    if len(recibida) < len(esperada):
        return len(recibida), "  faltan mensajes: el %d debería ser %s" % (len(recibida) + 1, muestra(esperada[len(recibida)]))
    return None


def _detalle(esperado, recibido):
    """La primera clave en la que difieren dos bloques, cuando los dos son dicts."""
    if not (isinstance(esperado, dict) and isinstance(recibido, dict)):
        return "\n    (se esperaba un dict y ha llegado %s)" % type(recibido).__name__
    for clave in esperado:
        if clave not in recibido:
            return "\n    (le falta la clave %r)" % clave
        if not _igual(esperado[clave], recibido[clave]):
            return "\n    (difiere %r: se esperaba %r y ha llegado %r)" % (clave, esperado[clave], recibido[clave])
    sobra = next(iter(recibido.keys() - esperado.keys()))
    return "\n    (sobra la clave %r)" % sobra


def _cuantos(n, cosa):
    """«1 turno», «2 turnos»."""
    return "%d %s%s" % (n, cosa, "" if n == 1 else "s")
