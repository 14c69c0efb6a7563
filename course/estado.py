"""La clase de una tarea como datos: quién ha entregado, cómo ha quedado cada entrega y qué dice cada una.

    submitted/ → entregas() → (los procesos corrigen) → leer() → Clase → {terminal, CSV, LMS, informe}

`entregas` lista las carpetas de submitted/ (sin tocarlas: colocar cuadernos es otro paso,
course/colocar.py). Después de corregir, `leer` lo reúne todo una sola vez: el gradebook y, si se
piden los detalles, cada cuaderno corregido leído una vez (equivocaciones, respuestas del
cuestionario, conversaciones que no llegan al final). Lo demás solo pinta la `Clase` que devuelve:
el CSV y las exportaciones al LMS (course/exportar.py), el informe (course/informe.py) y la terminal
(course/clase.py). La nota que cuenta de cada entrega es `nota_con_descuento`, la misma en todas.

Este módulo no importa nada del reparto ni de lo que pinta: es la base de todos ellos.
"""

import ast
import collections
import datetime
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from . import EJECUTAR, HORA_DESCONOCIDA, PREGUNTA, TAREA, cuaderno, grade_id, gradebook, limites
from .aislado import entrada
from .aislado.corrector import FALLOS

SIN_ENTREGA, CORREGIDO, SIN_CORREGIR = "sin entrega", "corregido", "no corregido"
SIN_CONTESTAR = "(sin contestar)"
# Las pruebas que pasan una conversación entera por el bucle: si fallan, el informe dice cuál y en qué turno.
CONVERSACIONES = ("ejecutar-salmorejo", "ejecutar-guiones")


# --------------------------------------------------------------------------- las carpetas de submitted/

class Entrega(NamedTuple):
    """Una carpeta de submitted/: su estudiante y, si no se corrige, por qué."""
    estudiante: str       # el nombre de la carpeta (con los bytes que no son texto, escapados)
    apartada: str | None  # por qué nbgrader no puede ni mirarla (su nombre, un enlace…): no es un estudiante
    motivo: str | None    # por qué no tiene un cuaderno que corregir


def entregas(raiz, tarea):
    """Las entregas de `tarea` en submitted/, por nombre de carpeta: las que se corrigen y las que no, y por qué.

    Sin glob ni nada que lea el nombre de una carpeta como un patrón: cada nombre, tal cual (os.scandir).
    Solo mira: antes de corregir, course/colocar.py pone el cuaderno de quien lo llamó de otra manera.
    """
    carpeta = os.fsencode(Path(raiz) / "submitted")
    if not os.path.isdir(carpeta):
        return []
    resultado = []
    with os.scandir(carpeta) as dentro:
        for hijo in dentro:
            suya = os.path.join(hijo.path, tarea.encode())
            if not os.path.isdir(suya):
                continue
            ruta = os.fsdecode(suya)
            apartada = entrada.motivo_para_apartar(ruta)
            mostrable = hijo.name.decode("utf-8", "backslashreplace")  # un byte que no es texto, como \xff
            resultado.append(Entrega(mostrable, apartada, None if apartada else entrada.motivo_sin_corregir(ruta)))
    return sorted(resultado)


def estado(raiz, tarea, estudiante, en_el_gradebook):
    """(CORREGIDO, SIN_CORREGIR o SIN_ENTREGA, motivo o None) de un estudiante del gradebook en `tarea`.

    `en_el_gradebook`: si nbgrader tiene una entrega corregida suya. Una carpeta en submitted/ sin
    cuaderno que corregir, o que nbgrader no ha llegado a corregir, es «no corregido», con el motivo.
    """
    carpeta = os.path.join(raiz, "submitted", estudiante, tarea)
    if "/" in estudiante or estudiante in (".", "..") or not os.path.isdir(carpeta):
        return (CORREGIDO, None) if en_el_gradebook else (SIN_ENTREGA, None)
    motivo = entrada.motivo_para_apartar(carpeta) or entrada.motivo_sin_corregir(carpeta)
    if motivo:
        return SIN_CORREGIR, motivo
    if not en_el_gradebook or not os.path.exists(os.path.join(raiz, "autograded", estudiante, tarea, cuaderno(tarea))):
        return SIN_CORREGIR, "nbgrader no ha llegado a corregirla (sus mensajes, en exports/registro.txt)"
    return CORREGIDO, None


# --------------------------------------------------------------------------- la nota que cuenta

def descuento_que_cuenta(entrega):
    """Los puntos que quita el retraso a una entrega (o a un cuaderno) del gradebook: el que apuntó nbgrader, sin
    pasar de los puntos de ahora (una nota bajada a mano después). Para subirlo a lo que toca con los puntos de
    ahora, descuentos_al_dia."""
    return max(0.0, min(entrega.score or 0.0, entrega.late_submission_penalty or 0.0))


def descuentos_al_dia(db_url, tarea, config):
    """Vuelve a poner el descuento por retraso de cada entrega de `tarea` con sus puntos de ahora.

    nbgrader lo pone al corregir (AssignLatePenalties, con el complemento de `config`: DescuentoPorRetraso), y
    no más de los puntos que tiene entonces: a quien entrega tres días tarde casi sin puntos le quita lo poco
    que tiene. Si el profesor le sube después la nota a mano en el formgrader, nbgrader no lo vuelve a mirar.
    Aquí se hace lo mismo que nbgrader al corregir, con la nota de ahora. Lo llaman el formgrader al leer las
    notas, `nbgrader export` y `make informe`. Devuelve los estudiantes a los que ha cambiado."""
    import logging

    import nbformat
    from nbgrader.api import Gradebook
    from nbgrader.preprocessors import AssignLatePenalties

    callado = logging.getLogger("curso.descuentos")
    callado.setLevel(logging.ERROR)
    nbgrader = AssignLatePenalties(config=config, log=callado)
    nbgrader.init_plugin()
    cambian = []  # solo se escribe donde cambia algo: el formgrader lo mira cada vez que lee las notas
    with Gradebook(db_url) as gb:
        for entrega in gb.assignment_submissions(tarea):
            if (entrega.total_seconds_late or 0) <= 0:
                continue
            for c in entrega.notebooks:
                toca = nbgrader.plugin_inst.late_submission_penalty(entrega.student.id, c.score, entrega.total_seconds_late)
                if toca is not None and min(max(toca, 0.0), c.score) != (c.late_submission_penalty or 0.0):
                    cambian.append((entrega.student.id, c.name))  # (nbgrader lo deja entre 0 y los puntos)
    for estudiante, cuaderno in cambian:
        nbgrader.preprocess(nbformat.v4.new_notebook(), {"nbgrader": {
            "notebook": cuaderno, "assignment": tarea, "student": estudiante, "db_url": db_url}})
    return sorted({estudiante for estudiante, _ in cambian})


def nota_con_descuento(entrega):
    """La nota que cuenta de una entrega del gradebook: sus puntos menos el descuento por retraso, sin bajar de
    cero, como la columna `score` del CSV de nbgrader. La terminal, el informe, el CSV y el LMS dan esta."""
    return (entrega.score or 0.0) - descuento_que_cuenta(entrega)


def dias_de_retraso(segundos):
    """Los días empezados de retraso (los que cuenta el descuento): 0 si se entregó a tiempo."""
    return math.ceil(segundos / 86400) if segundos and segundos > 0 else 0


def notas(raiz, tarea):
    """{estudiante: (puntos, máximo)} de `tarea`, leídos solo del gradebook; los puntos, ya con el descuento."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(gradebook(raiz)) as gb:
        maximo = gb.find_assignment(tarea).max_score
        resultado = {}
        for estudiante in gb.students:
            try:
                resultado[estudiante.id] = (nota_con_descuento(gb.find_submission(tarea, estudiante.id)), maximo)
            except MissingEntry:
                pass
        return resultado


# --------------------------------------------------------------------------- el cuestionario

def opciones_elegidas(respuesta):
    """Las opciones que cuenta una respuesta: una letra, verdadero/falso o cada letra de un conjunto."""
    if respuesta is None:
        return [SIN_CONTESTAR]
    if isinstance(respuesta, bool):
        return ["verdadero" if respuesta else "falso"]
    if isinstance(respuesta, str):
        return [respuesta.strip().lower() or SIN_CONTESTAR]
    if isinstance(respuesta, (set, frozenset, list, tuple)):
        return sorted(str(r).strip().lower() for r in respuesta) or ["(ninguna)"]
    return [str(respuesta)]


class Opcion(NamedTuple):
    """Una opción de una pregunta, como la ha elegido la clase."""
    clave: str       # como la cuenta opciones_elegidas: «c», «verdadero», «(sin contestar)»…
    rotulo: str      # «c) el texto de la opción», o la clave si no es una opción de la pregunta
    cuantos: int
    correcta: bool


# --------------------------------------------------------------------------- cada estudiante

class ConversacionRota(NamedTuple):
    """Una conversación oculta que la respuesta de un estudiante no lleva hasta el final."""
    prueba: str           # ejecutar-salmorejo o ejecutar-guiones
    peticion: str         # lo que pide el usuario en esa conversación: la nombra
    turno: int | None     # el turno del modelo en el que se rompe; None si llega al final, pero mal


@dataclass
class Estudiante:
    """Una fila de la clase: un estudiante del gradebook, o una carpeta de submitted/ que se ha apartado."""
    id: str
    nombre: str = ""
    apellidos: str = ""
    email: str = ""
    lms_user_id: str = ""
    situacion: str = SIN_ENTREGA          # CORREGIDO, SIN_CORREGIR o SIN_ENTREGA
    motivo: str | None = None             # por qué no se ha corregido
    apartada: bool = False                # una carpeta de submitted/ que no es de ningún estudiante
    puntos: float | None = None           # sin el descuento (raw_score)
    descuento: float | None = None        # los puntos que quita el retraso (late_submission_penalty)
    nota: float | None = None             # la que cuenta: nota_con_descuento
    entregada: datetime.datetime | None = None  # la hora de la entrega, en UTC
    dias_tarde: int = 0
    sin_hora: str | None = None           # por qué no se sabe la hora de su entrega (la recogida del LMS lo dice)
    fallidas: list = field(default_factory=list)       # las pruebas con puntos que no ha pasado entera
    equivocaciones: list | None = None    # sus equivocaciones con nombre; None si su cuaderno no trae diagnósticos
    respuestas: dict = field(default_factory=dict)     # {pregunta: respuesta} del cuestionario
    conversaciones: list = field(default_factory=list)  # ConversacionRota
    detalles: str | None = None           # por qué no se han podido leer sus detalles, si no se han podido
    fallos_del_corrector: list = field(default_factory=list)  # lo que el corrector no ha podido hacer con su entrega

    @property
    def nombre_completo(self):
        return " ".join(filter(None, [self.nombre, self.apellidos]))

    @property
    def numero_del_lms(self):
        """Su número en el LMS: el del roster o, si lo recogió zip_collect sin roster, el de su id «lms-<número>»."""
        if self.lms_user_id:
            return str(self.lms_user_id).strip()
        return self.id[4:] if re.fullmatch(r"lms-\d+", self.id) else ""


@dataclass
class Clase:
    """Una tarea de la clase, corregida: sus estudiantes (y las carpetas apartadas) y lo que se cuenta de ellos."""
    tarea: str
    maximo: float
    plazo: datetime.datetime | None       # la fecha de entrega, en UTC
    pruebas: dict                         # {grade_id: puntos} de cada prueba que puntúa, las del cuestionario primero
    estudiantes: list                     # Estudiante: los del gradebook, en su orden, y después las carpetas apartadas
    preguntas: dict = field(default_factory=dict)  # {n: [Opcion]}, lo que ha elegido la clase en cada pregunta

    def _de(self, situacion):
        return [e for e in self.estudiantes if e.situacion == situacion]

    @property
    def corregidos(self):
        return self._de(CORREGIDO)

    @property
    def no_corregidos(self):
        return self._de(SIN_CORREGIR)

    @property
    def sin_entrega(self):
        return self._de(SIN_ENTREGA)

    def fallan(self, prueba):
        """Los ids de quienes no pasan entera la prueba `prueba` (de los corregidos)."""
        return [e.id for e in self.corregidos if prueba in e.fallidas]

    @property
    def con_diagnosticos(self):
        return sum(e.equivocaciones is not None for e in self.corregidos)

    @property
    def equivocaciones(self):
        """[(equivocación, [ids])], de la que más estudiantes tienen a la que menos: todas, una vez por estudiante."""
        quienes = collections.defaultdict(list)
        for e in self.corregidos:
            for d in e.equivocaciones or ():
                quienes[d].append(e.id)
        return sorted(quienes.items(), key=lambda par: (-len(par[1]), par[0]))

    @property
    def conversaciones(self):
        """[((prueba, petición, turno), [ids])]: cada conversación rota y dónde, con quiénes la rompen ahí."""
        quienes = collections.defaultdict(list)
        for e in self.corregidos:
            for c in e.conversaciones:
                quienes[c].append(e.id)
        return sorted(quienes.items(), key=lambda par: (par[0].prueba, par[0].peticion, par[0].turno or 0))

    @property
    def fallos_del_corrector(self):
        """[(id, [fallos])] de los corregidos con los que el corrector ha fallado en algo (course/aislado/corrector.py)."""
        return [(e.id, e.fallos_del_corrector) for e in self.corregidos if e.fallos_del_corrector]

    @property
    def sin_detalles(self):
        """[(id, por qué)] de los corregidos cuyos detalles (equivocaciones, respuestas…) no se han podido leer."""
        return [(e.id, e.detalles) for e in self.corregidos if e.detalles]

    @property
    def sin_hora(self):
        """[(id, por qué)] de los corregidos cuya hora de entrega no se sabe: no llevan descuento por retraso."""
        return [(e.id, e.sin_hora) for e in self.corregidos if e.sin_hora]

    @property
    def hay_respuestas(self):
        return any(o.clave != SIN_CONTESTAR for opciones in self.preguntas.values() for o in opciones)


# --------------------------------------------------------------------------- leerla, una vez

def leer(raiz, tarea=TAREA, gb=None, detalles=True):
    """La Clase de `tarea`, del gradebook (`gb`, o el del curso de `raiz`) y, con `detalles`, de autograded/.

    Cada cuaderno corregido se lee una vez y aparte: lo que tenga (lo que sea) como mucho le hace perder
    a su estudiante sus propios detalles, nunca a los demás. Quien no se ha corregido (`estado`) queda con
    su motivo, fuera de medias y de fallos.
    """
    if gb is None:
        from nbgrader.api import Gradebook

        with Gradebook(gradebook(raiz)) as abierto:
            return leer(raiz, tarea, abierto, detalles)
    from nbgrader.api import MissingEntry

    raiz = Path(raiz)
    asignada = gb.find_assignment(tarea)
    pruebas, filas = {}, []
    for s in gb.students:
        try:
            entrega = gb.find_submission(tarea, s.id)
        except MissingEntry:
            entrega = None
        situacion, motivo = estado(str(raiz), tarea, s.id, entrega is not None)
        e = Estudiante(s.id, s.first_name or "", s.last_name or "", s.email or "", s.lms_user_id or "",
                       situacion, motivo)
        filas.append(e)
        if entrega is not None and entrega.timestamp:
            e.entregada = entrega.timestamp
            e.dias_tarde = dias_de_retraso(entrega.total_seconds_late)
        if situacion != SIN_ENTREGA:
            e.sin_hora = hora_desconocida(raiz / "submitted" / s.id / tarea)
        if situacion != CORREGIDO:
            continue
        e.puntos, e.descuento, e.nota = entrega.score, descuento_que_cuenta(entrega), nota_con_descuento(entrega)
        for suyo in entrega.notebooks:
            for nota in suyo.grades:
                if nota.max_score:  # cada prueba que puntúa, de la tarea que sea
                    pruebas[nota.name] = nota.max_score
                    if (nota.score or 0) < nota.max_score:
                        e.fallidas.append(nota.name)
        e.fallidas.sort(key=_orden_de_prueba)
        if detalles:
            try:
                _leer_detalles(e, raiz / "autograded" / s.id / tarea / cuaderno(tarea))
            except Exception as error:  # lo que sea que traiga su cuaderno: solo pierde sus detalles
                e.equivocaciones, e.respuestas, e.conversaciones = None, {}, []
                e.detalles = "sus detalles no se han podido leer (%s)" % type(error).__name__
    filas += [Estudiante(x.estudiante, situacion=SIN_CORREGIR, motivo="carpeta apartada: " + x.apartada, apartada=True)
              for x in entregas(raiz, tarea) if x.apartada]
    clase = Clase(tarea, asignada.max_score, asignada.duedate,
                  dict(sorted(pruebas.items(), key=lambda p: _orden_de_prueba(p[0]))), filas)
    if detalles:
        clase.preguntas = _elecciones(clase.corregidos)
    return clase


def hora_desconocida(carpeta):
    """Por qué no se sabe la hora de la entrega de submitted/<id>/<tarea>, o None: lo dice el hora-desconocida.txt
    que deja la recogida del LMS (course/recoleccion.py) cuando las fechas de su descarga no son las de la entrega."""
    ruta = os.path.join(carpeta, HORA_DESCONOCIDA)
    if not os.path.lexists(ruta):
        return None
    datos, problema = entrada.leer_acotado(ruta, limites.NOTA_SIN_CORREGIR)
    texto = " ".join(datos[:limites.NOTA_SIN_CORREGIR].decode("utf-8", "replace").split()) if datos else ""
    return problema or texto or "la recogida del LMS no la sabe"


def _orden_de_prueba(de_la_celda):
    return (not de_la_celda.startswith(PREGUNTA), de_la_celda)


def _leer_detalles(e, ruta):
    """Las equivocaciones, las respuestas y las conversaciones rotas de un cuaderno corregido.

    Se lee con los topes de una entrega (course/aislado/entrada.leer_cuaderno), sin validarlo.
    """
    import nbformat
    from nbformat.v4.rwbase import rejoin_lines

    from .cuestionario import respuestas_del_cuaderno

    if not ruta.exists():
        return
    datos, problema = entrada.leer_cuaderno(str(ruta))
    if problema:
        raise ValueError(problema)
    nb = rejoin_lines(nbformat.from_dict(datos))  # el código y las salidas en un texto, como los deja nbformat.read
    listas = [c.metadata.get("curso", {}).get("diagnosticos") for c in nb.cells if grade_id(c).startswith(EJECUTAR)]
    listas = [l for l in listas if isinstance(l, list)]
    e.equivocaciones = sorted({str(d)[:80] for l in listas for d in l}) if listas else None
    e.respuestas = respuestas_del_cuaderno(nb)
    fallos = nb.metadata.get("curso", {}).get(FALLOS)
    e.fallos_del_corrector = [str(f) for f in fallos] if isinstance(fallos, list) else []  # cada uno, ya acotado
    for celda in nb.cells:
        if grade_id(celda) in CONVERSACIONES and grade_id(celda) in e.fallidas:
            rota = conversacion_rota(grade_id(celda), _texto_del_error(celda))
            if rota:
                e.conversaciones.append(rota)


def _texto_del_error(celda):
    return "\n".join(str(s.get("evalue", "")) for s in celda.get("outputs", []) if s.get("output_type") == "error")


# Cómo nombra el corrector (harness/revision/clausulas.py, `conversaciones`) la conversación que no llega al final,
# y el turno en que se rompe (la queja del modelo guionizado, harness/guionizado.py). test_clase.py lo comprueba
# con una entrega corregida de verdad que rompe una conversación en su turno 2.
_CONVERSACION = re.compile(r"conversación ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")
_TURNO = re.compile(r"\bturno (\d+)\b")


def conversacion_rota(prueba, texto):
    """La ConversacionRota que cuenta el motivo `texto` de la prueba `prueba`; None si no nombra ninguna."""
    hallada = _CONVERSACION.search(texto)
    if not hallada:
        return None
    try:
        peticion = ast.literal_eval(hallada.group(1))
    except (ValueError, SyntaxError):
        return None
    turno = _TURNO.search(texto, hallada.end())
    return ConversacionRota(prueba, str(peticion), int(turno.group(1)) if turno else None)


def _elecciones(corregidos):
    """{pregunta: [Opcion]}: qué ha elegido la clase en cada pregunta, con la buena marcada."""
    from .cuestionario import PREGUNTAS

    cuentas = collections.defaultdict(collections.Counter)
    for e in corregidos:
        for n, respuesta in e.respuestas.items():
            cuentas[n].update(opciones_elegidas(respuesta))
    resultado = {}
    for n, cuenta in sorted(cuentas.items()):
        correctas = set(opciones_elegidas(PREGUNTAS[n]["correcta"])) if n in PREGUNTAS else set()
        opciones = PREGUNTAS.get(n, {}).get("opciones", {})
        resultado[n] = [Opcion(o, _rotulo(opciones, o), cuenta[o], o in correctas) for o in sorted(cuenta)]
    return resultado


def _rotulo(opciones, clave):
    """«c) el texto de la opción», para una opción tal como la cuenta opciones_elegidas."""
    texto = opciones.get({"verdadero": True, "falso": False}.get(clave, clave))
    return "%s) %s" % (clave, texto) if isinstance(texto, str) else clave
