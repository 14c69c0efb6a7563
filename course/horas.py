"""La hora de cada entrega recogida del LMS: de dónde sale, y cuándo no se sabe.

Una nota solo puede depender de lo que hizo el estudiante, no de cuándo descargó el profesor. Las fechas
que el LMS pone en su zip no siempre son las de las entregas (docs/lms.md, «What the download says about
time»): Moodle 4.1 y después y Canvas ponen a cada fichero la hora del momento de la descarga, y el texto en
línea de Moodle la lleva siempre. Así que la hora de una entrega sale, por este orden:

1. de la hoja de calificaciones de Moodle que el profesor deja junto al zip (su columna «Última modificación
   (entrega)», la hora con la que el propio Moodle dice si se entregó tarde): `leer_hoja`;
2. de la fecha de sus ficheros en el zip, solo si esa descarga es de las que guardan la hora de cada fichero
   (Moodle de 3.1 a 4.0 en carpetas, o sin carpetas con fechas que no son las de una descarga):
   `fechas_de_descarga` dice cuáles no;
3. si no, no se sabe: la entrega se recoge sin hora y sin descuento por retraso, y se dice por qué y cómo
   dar las horas. Nunca se toma la hora de la descarga por la de la entrega.

Cuando una lectura es dudosa (la hoja da minutos, no segundos; el zip, segundos de dos en dos; una hora local que
el cambio de hora repite) se toma la más tardía: una entrega que quizá llegó tarde nunca sale a tiempo.
"""

import csv
import datetime
import io
import re
from typing import NamedTuple, Optional
from zoneinfo import ZoneInfo

# Las formas de los nombres de las descargas (course/recoleccion.py, `forma`).
MOODLE_41, MOODLE_31, MOODLE_PLANO, CANVAS = "moodle-4.1", "moodle-3.1", "moodle-plano", "canvas"
# Entre dos ficheros seguidos de un zip que se escribe mientras se descarga (Moodle 4.1 y después), lo que tarda en
# pasar un fichero: un fichero subido a una tarea no llega a tardar cinco minutos.
VENTANA = datetime.timedelta(minutes=5)

# Lo que dice cada forma de las fechas de sus ficheros, cuando no son las de la entrega.
POR_QUE = {
    MOODLE_41: "Moodle 4.1 y después ponen a cada fichero de «Descargar todas las entregas» la hora de la descarga",
    CANVAS: "Canvas pone a cada fichero de «Download Submissions» la hora en que prepara el zip",
}
COMO_DAR_LAS_HORAS = ("Para tener la hora de las entregas de Moodle, deja junto al zip, en downloaded/{tarea}/archive/, la "
                      "hoja de calificaciones de esa tarea (Descargar la hoja de calificaciones), vuelve a recoger con "
                      "nbgrader zip_collect --force {tarea} y corrige otra vez con make grade; la descarga de Canvas no "
                      "trae la hora de cada entrega (docs/lms.md)")


# --------------------------------------------------------------------------- una hora local, leída sin favorecer a nadie

def mas_tardia(fecha, zona):
    """(hora en UTC, si era ambigua) de una fecha local (año, mes, día, hora, minuto, segundo) en la zona `zona`.

    La noche del cambio de hora, una hora local existe dos veces (la que se repite en otoño) o ninguna (la
    que se salta en primavera): se toma la lectura más tardía de las dos.
    """
    lecturas = {datetime.datetime(*fecha, tzinfo=ZoneInfo(zona), fold=f).astimezone(datetime.timezone.utc)
                for f in (0, 1)}
    return max(lecturas), len(lecturas) > 1


# --------------------------------------------------------------------------- las fechas de un zip del LMS

class Entrada(NamedTuple):
    """Un fichero de una descarga del LMS, en el orden del zip, visto para saber qué dice su fecha."""
    forma: str                   # MOODLE_41, MOODLE_31, MOODLE_PLANO o CANVAS
    numero: str                  # el del participante
    fecha: datetime.datetime     # la del zip, en UTC
    subido: bool                 # un fichero que subió (no el texto en línea, que el LMS escribe al descargar)


def fechas_de_descarga(entradas):
    """{forma: por qué} de las formas de una descarga cuyas fechas son las del momento de descargarla.

    Moodle 4.1 y después (en carpetas) y Canvas lo son siempre: lo dice su código. Una descarga de Moodle
    sin carpetas puede ser de cualquier versión: sus fechas son las de la descarga si van en el orden del
    zip sin saltos de más de VENTANA (así las escribe un zip que se hace mientras se descarga; las de cada
    entrega, de estudiantes distintos, no van así), o si solo hay un participante, con el que no se puede
    distinguir.
    """
    formas = {e.forma for e in entradas if e.subido}
    resultado = {f: POR_QUE[f] for f in formas if f in POR_QUE}
    planas = [e for e in entradas if e.subido and e.forma == MOODLE_PLANO]
    if planas:
        if len({e.numero for e in planas}) == 1:
            resultado[MOODLE_PLANO] = ("es una descarga de Moodle sin carpetas con las entregas de un solo participante, "
                                       "y con uno no se distingue si sus fechas son las de la entrega (Moodle antes de "
                                       "4.1) o la de la descarga (4.1 y después)")
        elif all(_seguidas(a, b) for a, b in zip(planas, planas[1:])):
            resultado[MOODLE_PLANO] = ("es una descarga de Moodle sin carpetas cuyas fechas van seguidas, en el orden "
                                       "del zip, como las pone Moodle 4.1 y después al descargar")
    return resultado


def _seguidas(antes, despues):
    """Si `despues` va tras `antes` como en un zip escrito al descargarlo: su fecha, igual o poco después."""
    return datetime.timedelta(0) <= despues.fecha - antes.fecha <= VENTANA


# --------------------------------------------------------------------------- la hoja de calificaciones de Moodle

# Los títulos de sus columnas (get_string en el idioma de quien la descarga: mod/assign/gradingtable.php) y el
# identificador, get_string('hiddenuser', 'assign') seguido del número del participante: docs/lms.md dice de dónde sale.
IDENTIFICADOR = ("Identificador", "Identifier")
ULTIMA_ENTREGA = ("Última modificación (entrega)", "Last modified (submission)")
PARTICIPANTE = re.compile(r"(?:Participante|Participant)\s*(\d+)", re.I)

# userdate() con el formato strftimedaydatetime del idioma: «domingo, 1 de marzo de 2026, 23:05» (es) o
# «Sunday, 1 March 2026, 11:05 PM» (en). Los nombres de los meses, en los dos idiomas: un servidor sin la
# configuración regional del español los escribe en inglés aunque el resto esté en español.
MESES = {m: i + 1 for i, m in enumerate(
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split())}
MESES.update({m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december".split())})
MESES["setiembre"] = 9
_FECHA = re.compile(r"(?:[^\W\d_]+\s*,\s*)?(\d{1,2})\s+(?:de\s+)?([^\W\d_]+)\s+(?:de\s+)?(\d{4})\s*,?\s+"
                    r"(\d{1,2}):(\d{2})(?:\s*([ap])\.?\s*m\.?)?", re.I)


def hora_de_moodle(texto, zona):
    """(hora en UTC o None, por qué no se lee o None) de una fecha de la hoja de calificaciones.

    «-» (o nada) es que Moodle no tiene entrega suya: (None, None). La hoja da minutos: la entrega pudo ser en
    cualquier segundo de ese minuto, y se toma el último (una entrega en el mismo minuto del plazo cuenta
    tarde, nunca a tiempo otra que quizá llegó tarde).
    """
    texto = " ".join(texto.split())
    if texto in ("", "-"):
        return None, None
    hallada = _FECHA.fullmatch(texto)
    mes = MESES.get(hallada.group(2).lower()) if hallada else None
    if not mes:
        return None, "«%s» no es una fecha como las escribe Moodle" % texto[:60]
    dia, anio, hora, minuto = (int(hallada.group(i)) for i in (1, 3, 4, 5))
    manana_o_tarde = (hallada.group(6) or "").lower()
    if manana_o_tarde:
        if not 1 <= hora <= 12:
            return None, "«%s» no es una hora: %d con a. m. o p. m." % (texto[:60], hora)
        hora = hora % 12 + (12 if manana_o_tarde == "p" else 0)
    try:
        datetime.datetime(anio, mes, dia, hora, minuto)
    except ValueError:
        return None, "«%s» no es una fecha que exista" % texto[:60]
    return mas_tardia((anio, mes, dia, hora, minuto, 59), zona)[0], None


class Hoja(NamedTuple):
    """Lo que dice de las horas una hoja de calificaciones de Moodle."""
    horas: dict          # {número del participante: hora en UTC, o None si Moodle no tiene entrega suya}
    malas: dict          # {número del participante: por qué su fila no da una hora}
    sin_participante: list  # los identificadores que no son «Participante<número>»


def leer_hoja(datos, zona):
    """(Hoja, None) o (None, por qué no es una hoja de calificaciones de Moodle que se pueda leer).

    La lee como la da Moodle (UTF-8, con o sin BOM, comas) o como la guarde una hoja de cálculo (UTF-16,
    punto y coma, tabuladores). Una fila mala solo pierde la hora de su participante; dos filas del mismo
    participante con horas distintas dan la más tardía.
    """
    texto, problema = _texto(datos)
    if problema:
        return None, problema
    primera = next((l for l in texto.splitlines() if l.strip()), "")
    separador = max((",", ";", "\t"), key=primera.count)
    filas = [f for f in csv.reader(io.StringIO(texto, newline=""), delimiter=separador) if any(c.strip() for c in f)]
    cabecera = [c.strip() for c in filas[0]] if filas else []
    columnas = [next((cabecera.index(t) for t in titulos if t in cabecera), None)
                for titulos in (IDENTIFICADOR, ULTIMA_ENTREGA)]
    if None in columnas:
        return None, ("no tiene las columnas «%s» y «%s» de la hoja de calificaciones de Moodle (ni «%s» y «%s», en "
                      "inglés)" % (IDENTIFICADOR[0], ULTIMA_ENTREGA[0], IDENTIFICADOR[1], ULTIMA_ENTREGA[1]))
    id_, hora = columnas
    hoja = Hoja({}, {}, [])
    for fila in filas[1:]:
        fila = fila + [""] * (len(cabecera) - len(fila))
        participante = PARTICIPANTE.fullmatch(fila[id_].strip())
        if not participante:
            hoja.sin_participante.append(fila[id_].strip()[:40])
            continue
        numero = str(int(participante.group(1)))
        leida, mala = hora_de_moodle(fila[hora], zona)
        if mala:
            hoja.malas[numero] = mala
        else:
            hoja.horas[numero] = _la_mas_tardia(hoja.horas.get(numero), leida)
    return hoja, None


def _la_mas_tardia(una, otra):
    """La más tardía de dos horas, alguna de ellas quizá None (sin entrega)."""
    return max((h for h in (una, otra) if h is not None), default=None)


def _texto(datos):
    """El texto de un CSV en UTF-8 (con o sin BOM) o UTF-16 (con BOM), o (None, por qué no se lee)."""
    codificacion = "utf-16" if datos.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8-sig"
    try:
        return datos.decode(codificacion), None
    except UnicodeDecodeError:
        return None, "no está en UTF-8: usa el fichero tal como lo descarga Moodle"


# --------------------------------------------------------------------------- la hora de cada participante

class Hora(NamedTuple):
    """La hora de la entrega de un participante, o por qué no se sabe."""
    hora: Optional[datetime.datetime]   # en UTC; None si no se sabe
    fuente: Optional[str]               # de dónde sale: «la hoja de calificaciones» o «el zip»
    sin_hora: Optional[str]             # por qué no se sabe (lo lee el profesor en el informe)


def elegir(numero, de_moodle, hojas, fecha_fiable, por_que_no, tarde_en_canvas=False):
    """La Hora de la entrega del participante `numero`: la de las hojas de calificaciones (si es de Moodle), la
    de sus ficheros en el zip si es fiable (`fecha_fiable`) o ninguna, con `por_que_no` (las fechas del zip no
    lo son)."""
    if de_moodle and numero in hojas.horas and hojas.horas[numero] is not None:
        return Hora(hojas.horas[numero], "la hoja de calificaciones", None)
    if fecha_fiable is not None:
        return Hora(fecha_fiable, "el zip", None)
    motivo = por_que_no or "la descarga no dice cuándo entregó"
    if de_moodle and hojas.leidas:
        if numero in hojas.malas:
            en_la_hoja = "su fila de la hoja de calificaciones no da una hora: " + hojas.malas[numero]
        elif numero in hojas.horas:
            en_la_hoja = "la hoja de calificaciones dice que Moodle no tiene entrega suya («-»), pero la descarga sí"
        else:
            en_la_hoja = "no está en la hoja de calificaciones (¿es la de otra tarea, o de otro grupo?)"
        motivo = en_la_hoja + "; y " + motivo
    if tarde_en_canvas:
        motivo += "; Canvas la marca como entregada tarde (LATE), sin decir cuánto"
    return Hora(None, None, motivo)


class Hojas:
    """Todas las hojas de calificaciones de la carpeta de las descargas, juntas."""

    def __init__(self):
        self.horas, self.malas, self.leidas = {}, {}, []

    def sumar(self, nombre, hoja):
        """Añade una hoja: de un participante que está en dos con horas distintas, la más tardía."""
        self.leidas.append(nombre)
        for numero, hora in hoja.horas.items():
            self.horas[numero] = _la_mas_tardia(self.horas.get(numero), hora)
        self.malas.update(hoja.malas)
