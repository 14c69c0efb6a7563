"""Lo que sale de la clase corregida hacia fuera, además del informe: las notas en exports/.

- `escribir_csv`: exports/notas.csv, el CSV de `nbgrader export` (sus columnas, y `estado` y `motivo`),
  escrito con el módulo csv, cada campo entre comillas y ninguno que una hoja de cálculo lea como fórmula.

Todo se pinta de una `estado.Clase` ya leída: aquí no se vuelve a mirar ni el gradebook ni un cuaderno.
"""

import csv
import os

from .estado import CORREGIDO

# Lo que una hoja de cálculo lee como el principio de una fórmula (OWASP, «CSV Injection»), con las
# versiones de ancho completo y el salto de línea, que algunas también aceptan.
FORMULA = tuple("=+-@\t\r\n＝＋－＠")

COLUMNAS = ["assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email",
            "raw_score", "late_submission_penalty", "score", "max_score", "estado", "motivo"]


def sin_formula(texto):
    """Un texto para una celda de CSV: si una hoja de cálculo lo leería como fórmula, con un apóstrofo delante."""
    texto = "" if texto is None else str(texto)
    return "'" + texto if texto.lstrip(" ").startswith(FORMULA) else texto


def filas(clase, solo=None):
    """Las filas del CSV de notas de una Clase, como las escribe nbgrader (raw_score sin el descuento; score, con
    él). Quien no se ha corregido no tiene nota (las columnas de puntos, vacías), no un cero. `solo`: los ids de
    los estudiantes del gradebook que salen (las carpetas apartadas salen siempre, para que no se pierda ninguna)."""
    for e in clase.estudiantes:
        if solo and not e.apartada and e.id not in solo:
            continue
        if e.apartada:
            yield [sin_formula(clase.tarea), clase.plazo or "", "", sin_formula(e.id), "", "", "", "", "", "",
                   clase.maximo, e.situacion, sin_formula(e.motivo)]
            continue
        puntos = [e.puntos, e.descuento, e.nota] if e.situacion == CORREGIDO else ["", "", ""]
        yield [sin_formula(clase.tarea), clase.plazo or "", e.entregada or "", sin_formula(e.id),
               sin_formula(e.apellidos), sin_formula(e.nombre), sin_formula(e.email), *puntos, clase.maximo,
               e.situacion, sin_formula(e.motivo)]


def escribir_csv(destino, clases, solo=None):
    """exports/notas.csv (o `destino`) con las filas de cada Clase de `clases`."""
    os.makedirs(os.path.dirname(os.path.abspath(destino)), exist_ok=True)
    with open(destino, "w", newline="", encoding="utf-8") as f:
        escritor = csv.writer(f, quoting=csv.QUOTE_ALL)
        escritor.writerow(COLUMNAS)
        for clase in clases:
            escritor.writerows(filas(clase, solo))
    return destino
