"""Una API de Mensajes de mentira en 127.0.0.1, para hablarle con el SDK oficial de verdad.

Contesta a cada POST /v1/messages lo siguiente de su plan, con el JSON de la API de Mensajes, y
apunta el cuerpo de cada petición que recibe. Se usa con ANTHROPIC_BASE_URL=api.url.
"""

import http.server
import json
import threading


def mensaje(bloques, stop_reason=None, entrada=100, salida=20):
    """Lo que contesta la API con el turno `bloques`; `stop_reason` se deduce de los bloques si no se da."""
    if stop_reason is None:
        stop_reason = "tool_use" if any(b["type"] == "tool_use" for b in bloques) else "end_turn"
    return 200, {"id": "msg_local", "type": "message", "role": "assistant", "model": "claude-local",
                 "content": bloques, "stop_reason": stop_reason, "stop_sequence": None,
                 "usage": {"input_tokens": entrada, "output_tokens": salida}}


def fallo(codigo, tipo, texto):
    """Un error de la API, con el código HTTP y el cuerpo con que los manda ella."""
    return codigo, {"type": "error", "error": {"type": tipo, "message": texto}}


class ApiLocal:
    """El servidor: `plan` es la lista de lo que contestará, en orden; `recibidas`, lo que le han pedido."""

    def __init__(self, plan=()):
        self.plan, self.recibidas, self.cabeceras = list(plan), [], []
        api = self

        class Atiende(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                cuerpo = self.rfile.read(int(self.headers.get("content-length", 0)))
                api.recibidas.append(json.loads(cuerpo))
                api.cabeceras.append({k.lower(): v for k, v in self.headers.items()})
                codigo, respuesta = api.plan.pop(0) if api.plan else fallo(500, "api_error", "el plan se ha acabado")
                datos = json.dumps(respuesta).encode()
                self.send_response(codigo)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(datos)))
                # La API de verdad dice cuánto esperar antes de reintentar; así los reintentos del SDK son rápidos.
                self.send_header("retry-after-ms", "10")
                self.end_headers()
                self.wfile.write(datos)

            def log_message(self, *argumentos):
                pass

        self._servidor = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Atiende)
        self.url = "http://127.0.0.1:%d" % self._servidor.server_port

    def __enter__(self):
        threading.Thread(target=self._servidor.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *_):
        self._servidor.shutdown()
        self._servidor.server_close()
