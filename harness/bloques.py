"""Los bloques de un mensaje, con la forma de la API de Mensajes de Anthropic."""


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
