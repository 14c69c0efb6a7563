"""Lanza una orden y guarda todo lo que escribe (y lo que escriben sus hijos) en un registro que rota.

    python registro.py [--tamano BYTES] [--copias N] FICHERO -- ORDEN [ARGUMENTOS...]

Así arranca `make hub` el JupyterHub del curso, con o sin systemd: el registro no crece sin fin
durante un curso entero. Al llegar a TAMANO bytes (o los de --tamano), FICHERO pasa a FICHERO.1 (y
este a FICHERO.2...), y se guardan COPIAS (o --copias). Un SIGTERM o un SIGINT se le pasa a la orden, que para a su manera (JupyterHub
para el proxy y los servidores de los usuarios), y se sigue guardando lo que escribe hasta que acaba.
Solo usa la biblioteca estándar: va tal cual a DESTINO/programa.
"""

import logging
import logging.handlers
import signal
import subprocess
import sys
import threading

TAMANO = 10 * 1024 * 1024
COPIAS = 5


def main(argumentos):
    opciones = {"--tamano": TAMANO, "--copias": COPIAS}
    while argumentos[:1] and argumentos[0] in opciones and len(argumentos) > 1 and argumentos[1].isdigit():
        opciones[argumentos[0]] = int(argumentos[1])
        argumentos = argumentos[2:]
    if len(argumentos) < 3 or argumentos[1] != "--":
        print("Uso: " + __doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    fichero, orden = argumentos[0], argumentos[2:]
    registro = logging.getLogger("registro")
    registro.propagate = False
    manejador = logging.handlers.RotatingFileHandler(fichero, maxBytes=opciones["--tamano"],
                                                     backupCount=opciones["--copias"], encoding="utf-8")
    manejador.setFormatter(logging.Formatter("%(message)s"))
    registro.addHandler(manejador)
    proceso = subprocess.Popen(orden, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def pasar(senal, _marco):
        if proceso.poll() is None:
            proceso.send_signal(senal)

    signal.signal(signal.SIGTERM, pasar)
    signal.signal(signal.SIGINT, pasar)

    def copiar():
        for linea in proceso.stdout:
            registro.warning("%s", linea.decode("utf-8", "replace").rstrip("\n"))

    # La salida se lee en otro hilo: un proceso que la orden dejó vivo (y que aún la tiene abierta) no deja
    # a este esperando cuando la orden ya ha acabado.
    lector = threading.Thread(target=copiar, daemon=True)
    lector.start()
    codigo = proceso.wait()
    lector.join(timeout=2)
    manejador.flush()
    return codigo

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
