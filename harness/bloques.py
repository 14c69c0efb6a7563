"""Los bloques de un mensaje, con la forma de la API de Mensajes de Anthropic, y la norma que los une:
cada llamada recibe una sola observación, no vacía, al principio del mensaje que sigue a su turno."""


def texto(s):
    """Un bloque de texto."""
    return {"type": "text", "text": s}


def llamada(id, nombre, **entrada):
    """Un bloque tool_use: el modelo pide ejecutar la herramienta `nombre`."""
    return {"type": "tool_use", "id": id, "name": nombre, "input": entrada}


def resultado(id, contenido):
    """La observación de una llamada que ha salido bien."""
    return {"type": "tool_result", "tool_use_id": id, "content": contenido, "is_error": False}


def error(id, contenido):
    """La observación de una llamada que ha fallado; `contenido` cuenta por qué."""
    return {"type": "tool_result", "tool_use_id": id, "content": contenido, "is_error": True}


def muestra(cosa):
    """Una línea legible para un bloque o para un mensaje (rol, contenido)."""
    if isinstance(cosa, tuple) and len(cosa) == 2:
        rol, contenido = cosa
        if isinstance(contenido, str):
            return "%s: %s" % (rol, contenido)
        return "%s: %s" % (rol, " | ".join(muestra(b) for b in contenido))
    if not isinstance(cosa, dict):
        return repr(cosa)
    tipo = cosa.get("type")
    if tipo == "text":
        return "texto %r" % cosa.get("text")
    if tipo == "tool_use":
        argumentos = ", ".join("%s=%r" % par for par in cosa.get("input", {}).items())
        return "%s → %s(%s)" % (cosa.get("id"), cosa.get("name"), argumentos)
    if tipo == "tool_result":
        marca = "ERROR " if cosa.get("is_error") is True else ""
        return "%s ← %s%r" % (cosa.get("tool_use_id"), marca, cosa.get("content"))
    if tipo in ("thinking", "redacted_thinking"):  # lo que piensa un modelo de verdad antes de contestar
        return "pensamiento %r" % cosa.get("thinking", "(cifrado)")
    return repr(cosa)


def roturas(M):
    """Lo que rompe esa norma en la conversación M, como (mensaje, bloque, qué pasa), contando desde 0.

    Es lo que exige la API de Mensajes, que rechaza la petición entera si no se cumple: cada llamada
    recibe una sola observación, no vacía, en el mensaje que sigue a su turno, y ahí van primero.
    """
    rotas, pedidas = [], set()
    for i in range(len(M)):
        del_turno = [b.get("id") for b in bloques_de(M, i - 1) if es_un(b, "tool_use")]
        contestadas = [b.get("tool_use_id") for b in bloques_de(M, i + 1) if es_un(b, "tool_result")]
        vistas, otro_delante = [], False
        for j, b in enumerate(bloques_de(M, i)):
            if es_un(b, "tool_use"):
                pedidas.add(b.get("id"))
                if b.get("id") not in contestadas:
                    rotas.append((i, j, "la llamada %s (%s) se ha quedado sin observación"
                                  % (b.get("id"), b.get("name"))))
            elif es_un(b, "tool_result"):
                id = b.get("tool_use_id")
                if id in vistas:
                    rotas.append((i, j, "la llamada %s tiene más de una observación" % id))
                elif id not in del_turno:
                    de_antes = " (%s es de un turno de antes)" % id if id in pedidas else ""
                    rotas.append((i, j, "la observación de %s no contesta a ninguna llamada del turno anterior%s"
                                  % (id, de_antes)))
                elif b.get("content") in ("", [], None):
                    rotas.append((i, j, "la observación de %s está vacía, y la API no acepta un tool_result sin "
                                        "contenido" % id))
                elif otro_delante:
                    rotas.append((i, j, "la observación de %s va detrás de otro bloque, y las observaciones van "
                                        "primero en su mensaje" % id))
                vistas.append(id)
            else:
                otro_delante = True
    return rotas


def problemas(M):
    """Lo que rompe la conversación M, en frases; [] si cada llamada tiene su observación y al revés."""
    return ["mensaje %d: %s" % (i + 1, que) for i, _, que in roturas(M)]


def bloques_de(M, i):
    """Los bloques del mensaje i de M; ninguno si el mensaje es un texto o si no existe."""
    contenido = M[i][1] if 0 <= i < len(M) else ""
    return contenido if isinstance(contenido, list) else []


def es_un(bloque, tipo):
    return isinstance(bloque, dict) and bloque.get("type") == tipo
