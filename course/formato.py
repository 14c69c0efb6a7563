"""Números y fechas escritos a la española, para lo que leen personas: el informe, la terminal, los comentarios.

Con Babel (los datos de CLDR): «10,5», «1 de marzo de 2026, 23:59». Lo que leen programas
(exports/notas.csv, los CSV que importa el LMS) lleva el punto decimal: ver docs/lms.md.
"""

import datetime
from zoneinfo import ZoneInfo

from babel.dates import format_datetime
from babel.numbers import format_decimal

LOCALE = "es_ES"


def numero(x, decimales=2):
    """«10,5», «8», «1.234,25»: con coma decimal y como mucho `decimales` decimales, sin ceros de más."""
    return format_decimal(round(x, decimales), format="#,##0" + ("." + "#" * decimales if decimales else ""), locale=LOCALE)


def fecha(momento, zona=None):
    """«1 de marzo de 2026, 23:59», en la zona `zona` (un ZoneInfo o su nombre); `momento` sin zona es UTC."""
    if momento.tzinfo is None:
        momento = momento.replace(tzinfo=datetime.timezone.utc)
    zona = ZoneInfo(zona) if isinstance(zona, str) else zona
    return format_datetime(momento.astimezone(zona) if zona else momento, "d 'de' MMMM 'de' y, H:mm", locale=LOCALE)


def dias(n):
    """«1 día», «3 días»."""
    return "%d día%s" % (n, "" if n == 1 else "s")


def zona_horaria(config=None):
    """La zona horaria del curso: la de las horas de las descargas del LMS (ExtraerDelLMS.zona_horaria), según la
    configuración `config` (sin ella, la que tiene por defecto)."""
    from traitlets.config import Config

    from .recoleccion import ExtraerDelLMS

    return ZoneInfo(ExtraerDelLMS(config=config or Config()).zona_horaria)
