"""Conversaciones con un modelo de verdad, grabadas como guiones: cada una, una prueba oculta más.

    python -m course.grabaciones "Apunta en lista.txt lo que lleva el gazpacho." [--nombre N] [--modelo M] [--tope T]
    python -m course.grabaciones --comprobar

La primera orden (también `make grabar PETICION="..."`) pasa la petición por el bucle con un modelo
de verdad (harness.aula.ModeloClaude: hace falta ANTHROPIC_API_KEY) y con el `ejecutar` de referencia,
el de la solución del cuaderno fuente, y guarda la conversación en course/guiones/NOMBRE.json.
Cada guion de esa carpeta es una conversación oculta más de la prueba ejecutar-guiones: el
corrector la vuelve a pasar por el bucle, con un modelo guionizado y el `ejecutar` del estudiante,
y exige cada observación, el final y los ficheros que dejó la referencia. Un guion solo vale si es
una conversación terminada (el último turno del modelo no pide herramientas) y el `ejecutar` de
referencia lo contesta hasta el final: si no, ni se guarda ni se corrige con él. `--comprobar`
revisa así todos los de la carpeta, y `nbgrader autograde` también, antes de corregir a nadie
(ComprobarGuiones). CURSO_GUIONES, si está, es otra carpeta.
"""

import argparse
import functools
import os
import re
import sys
import unicodedata
from pathlib import Path

from nbconvert.preprocessors import Preprocessor

from harness import ENTORNO, FueraDelGuion, ModeloGuionizado, bucle, guion_de
from harness.aula.claude import MODELO, ModeloClaude, NoSeEnvia, RespuestaCortada, SinRespuesta, guion_desde, que_falta
from harness.salmorejo import INICIO

from . import CUADERNO, RAIZ, TAREA, limites
from .entregas import soluciones

CARPETA = Path(os.environ.get("CURSO_GUIONES") or Path(__file__).resolve().parent / "guiones")
TOPE = limites.TURNOS_DE_UNA_GRABACION


class GuionRechazado(Exception):
    """Un guion grabado que no sirve de prueba oculta; el mensaje dice cuál y por qué."""


@functools.cache
def referencia():
    """El `ejecutar` de la solución del cuaderno fuente, cargado como lo carga el corrector."""
    import nbformat

    from .aislado.servidor import espacio_de  # el espacio de nombres del cuaderno antes de la respuesta
    return espacio_de(soluciones(nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4))["ejecutar"])["ejecutar"]


def conversacion_oculta(ruta):
    """El guion de `ruta` como caso de la prueba ejecutar-guiones: (inicio, respuestas, visto, tope, final, ficheros).

    El final y los ficheros son los que deja el `ejecutar` de referencia al contestarlo entero.
    """
    try:
        guion = guion_desde(ruta)
        inicio = guion[0][0]
        respuestas = [respuesta for _, respuesta in guion]
        visto = [siguiente[-1][1] for siguiente, _ in guion[1:]] + [None]
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        raise GuionRechazado("%s no es una conversación grabada con ModeloClaude(grabar=...): %s: %s"
                             % (ruta, type(e).__name__, e)) from None
    if guion_de(inicio, respuestas, visto) != guion:
        raise GuionRechazado("%s no es una conversación del bucle: cada turno debería enviar la conversación "
                             "anterior, la respuesta del modelo y un mensaje del usuario." % ruta)
    modelo, entorno = ModeloGuionizado(guion), dict(ENTORNO)
    try:
        como, texto, _ = bucle(modelo, inicio, entorno, len(guion), referencia())
    except FueraDelGuion as e:
        raise GuionRechazado("el ejecutar de referencia no contesta a %s lo que se grabó, en el %s" % (ruta, e)) from None
    except Exception as e:  # un bloque sin la forma de la API, por ejemplo
        raise GuionRechazado("%s no se puede pasar por el bucle: %s: %s" % (ruta, type(e).__name__, e)) from None
    if modelo.turno != len(guion):
        raise GuionRechazado("el ejecutar de referencia acaba %s en el turno %d de %d" % (ruta, modelo.turno, len(guion)))
    if como != "fin":
        raise GuionRechazado("%s no es una conversación terminada: en su último turno, el %d, el modelo aún pide "
                             "herramientas (se paró en el tope de turnos)." % (ruta, len(guion)))
    return inicio, respuestas, visto, len(guion), (como, texto), entorno


def conversaciones_grabadas(carpeta=None):
    """Una conversación oculta por cada guion de la carpeta, en orden de nombre. Uno que no vale lo para todo."""
    return [conversacion_oculta(ruta) for ruta in sorted(Path(carpeta or CARPETA).glob("*.json"))]


def por_que_no_se_corrige(carpeta=None):
    """Si un guion grabado de la carpeta no vale, por qué no se puede corregir, en español; si valen todos, None.
    Un guion roto suspendería a toda la clase en ejecutar-guiones: se dice antes de corregir a nadie."""
    try:
        conversaciones_grabadas(carpeta)
    except GuionRechazado as e:
        return "No se corrige: un guion grabado de %s no vale.\n  %s" % (carpeta or CARPETA, e)
    return None


class ComprobarGuiones(Preprocessor):
    """Para `nbgrader autograde` antes de corregir a nadie, si un guion grabado no vale (por_que_no_se_corrige).

    nbgrader_config.py lo pone en los preprocesadores del exportador de autograde, que nbgrader crea al
    empezar y fuera de la corrección de cada entrega: la excepción de nbgrader que lanza termina la orden
    (y el botón «Autograde» del formgrader, que corre lo mismo) con un error y este motivo, sin notas.
    """

    def __init__(self, **opciones):
        super().__init__(**opciones)
        motivo = por_que_no_se_corrige()
        if motivo:
            from nbgrader.converters.base import NbGraderException
            self.log.error(motivo)
            raise NbGraderException(motivo)


def grabar(peticion, nombre=None, modelo=MODELO, tope=TOPE, carpeta=None):
    """Graba la conversación de `peticion` con un modelo de verdad y la guarda si vale. Devuelve su ruta y su caso."""
    falta = que_falta()
    if falta:
        raise GuionRechazado(falta)
    carpeta = Path(carpeta or CARPETA)
    destino = carpeta / ((nombre or _nombre(peticion)) + ".json")
    if destino.exists():
        raise GuionRechazado("ya hay un guion %s: bórralo o elige otro nombre con --nombre" % destino)
    carpeta.mkdir(parents=True, exist_ok=True)
    provisional = carpeta / (".grabando-%d" % os.getpid())  # sin .json: el corrector no la ve a medias
    claude = ModeloClaude(modelo, grabar=provisional)
    try:
        try:
            como, _, _ = bucle(claude, [INICIO[0], ("usuario", peticion)], dict(ENTORNO), tope, referencia())
        except (RespuestaCortada, SinRespuesta, NoSeEnvia) as e:  # un turno cortado o en pausa, una negativa, la red…
            raise GuionRechazado("la conversación se ha parado en el turno %d: %s" % (claude.turno + 1, e)) from None
        if como != "fin":
            raise GuionRechazado("la conversación no ha terminado: tras %s, el tope, el modelo aún pedía "
                                 "herramientas. Sube el tope (--tope, o TOPE= con make grabar) o pide algo más corto."
                                 % _cuantos(tope, "turno"))
        caso = conversacion_oculta(provisional)
        provisional.replace(destino)
    finally:
        provisional.unlink(missing_ok=True)
        print("Gastado: %d tokens de entrada y %d de salida." % (claude.tokens["entrada"], claude.tokens["salida"]))
    return destino, caso


def resumen(caso):
    """Una línea sobre una conversación oculta: turnos, llamadas, errores y cómo acaba."""
    _, respuestas, visto, _, (como, texto), ficheros = caso
    llamadas = sum(b["type"] == "tool_use" for r in respuestas for b in r)
    errores = sum(o.get("is_error") is True for v in visto if v for o in v)
    cambiados = sorted(r for r in set(ficheros) | set(ENTORNO) if ficheros.get(r) != ENTORNO.get(r))
    linea = "%s, %s, %d con error; acaba en %r%s; ficheros cambiados: %s" % (
        _cuantos(len(respuestas), "turno"), _cuantos(llamadas, "llamada"), errores, como,
        ": %r" % texto if texto else "", ", ".join(cambiados) or "ninguno")
    if not errores:
        linea += ("\n  Ninguna llamada ha fallado: como prueba oculta solo mira las que salen bien. Las que "
                  "enseñan algo de esta lección son las que tienen errores.")
    return linea


def _cuantos(n, cosa):
    """«1 turno», «2 turnos»."""
    return "%d %s%s" % (n, cosa, "" if n == 1 else "s")


def _nombre(peticion):
    sin_acentos = unicodedata.normalize("NFKD", peticion).encode("ascii", "ignore").decode()
    return "-".join(re.findall(r"[a-z0-9]+", sin_acentos.lower())[:6]) or "conversacion"


def _cli(argumentos=None):
    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("peticion", nargs="?", help="lo que pide el usuario al modelo")
    opciones.add_argument("--nombre", help="el nombre del guion, sin .json (por defecto, de la petición)")
    opciones.add_argument("--modelo", default=MODELO, help="el modelo de la API (por defecto, %(default)s)")
    opciones.add_argument("--tope", type=int, default=TOPE, help="turnos como mucho (por defecto, %(default)s)")
    opciones.add_argument("--comprobar", action="store_true", help="revisar los guiones guardados, sin grabar nada")
    opciones.add_argument("--de-make", action="store_true",
                          help="la petición, y el nombre, el modelo y el tope si no se dan, de las variables de entorno "
                               "PETICION, NOMBRE, MODELO y TOPE (make grabar las pasa así, sin que el shell las toque)")
    a = opciones.parse_args(argumentos)
    if a.de_make:
        a.peticion = a.peticion or os.environ.get("PETICION")
        a.nombre = a.nombre or os.environ.get("NOMBRE") or None
        a.modelo = os.environ.get("MODELO") or a.modelo
        a.tope = int(os.environ.get("TOPE") or a.tope)
    try:
        if a.comprobar or not a.peticion:
            rutas = sorted(CARPETA.glob("*.json"))
            for ruta in rutas:
                print("%s: %s" % (ruta.name, resumen(conversacion_oculta(ruta))))
            cuantos = {0: "Ningún guion", 1: "1 guion válido"}.get(len(rutas), "%d guiones válidos" % len(rutas))
            print("%s en %s." % (cuantos, CARPETA))
            return 0
        ruta, caso = grabar(a.peticion, a.nombre, a.modelo, a.tope)
    except GuionRechazado as e:
        print("No vale: %s" % e, file=sys.stderr)
        return 1
    print("Guardado %s: %s" % (ruta, resumen(caso)))
    return 0


if __name__ == "__main__":
    sys.exit(_cli())
