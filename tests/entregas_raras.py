"""Entregas raras a nivel de cuaderno y de carpeta (tests/trampas/entregas/), para la corrección de la clase.

Cada fichero de tests/trampas/entregas/ define `entregar(carpeta, release, buena)`: deja en `carpeta`
(submitted/ESTUDIANTE/TAREA, aún sin crear) lo que entregaría ese estudiante, a partir del JSON del
cuaderno de release y del código de una respuesta buena; si usa otra carpeta, devuelve el nombre de
estudiante que le ha tocado. Su docstring dice en la primera línea qué hace; en `esperado:`, `todo`
(los puntos de la respuesta buena en cada celda ejecutar-*), `nada` (0 en todo), `sin-corregir` (no
hay un cuaderno que corregir: «no corregido» con el motivo en el CSV, sin nota, no un cero) o
`apartada` (una carpeta que no es un estudiante: una línea en la salida de la corrección lo dice); en
`aviso:`, un trozo del motivo que lee el estudiante al principio de su cuaderno corregido (o, si no se
corrige o se aparta, el de la salida y el CSV).
"""

import copy
import importlib.util
import json
import re
from pathlib import Path
from typing import NamedTuple

from course import CUADERNO, TAREA

CARPETA = Path(__file__).resolve().parent / "trampas" / "entregas"


class Rara(NamedTuple):
    descripcion: str
    esperado: str   # todo, nada, sin-corregir o apartada
    aviso: str      # trozo del motivo, o "" si no se pide ninguno
    entregar: object


def _cargar(fichero):
    spec = importlib.util.spec_from_file_location("entrega_" + fichero.stem, fichero)
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    cabecera = modulo.__doc__
    esperado = re.search(r"^esperado:\s*(todo|nada|sin-corregir|apartada)\s*$", cabecera, re.M).group(1)
    aviso = re.search(r"^aviso:\s*(.+)$", cabecera, re.M)
    return Rara(cabecera.strip().splitlines()[0], esperado, aviso.group(1).strip() if aviso else "", modulo.entregar)


def raras():
    """nombre de estudiante → Rara, una por fichero de tests/trampas/entregas/."""
    return {"rara_" + f.stem: _cargar(f) for f in sorted(CARPETA.glob("*.py"))}


# Ayudas para escribir las entregas

def celda(nb, grade_id):
    """(posición, celda) de la celda con ese grade_id en el JSON de un cuaderno."""
    return next((i, c) for i, c in enumerate(nb["cells"]) if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)


def respondido(release, codigo):
    """Una copia del JSON de release con `codigo` en la celda de respuesta `ejecutar` (None: el esqueleto)."""
    nb = copy.deepcopy(release)
    if codigo is not None:
        celda(nb, "ejecutar")[1]["source"] = codigo
    return nb


def escribir_crudo(carpeta, datos):
    carpeta.mkdir(parents=True)
    (carpeta / CUADERNO).write_bytes(datos)


def escribir(carpeta, nb):
    escribir_crudo(carpeta, json.dumps(nb, ensure_ascii=False).encode())


def fuente(carpeta):
    """El cuaderno fuente del profesor (con las soluciones), visto desde submitted/ESTUDIANTE/TAREA."""
    return carpeta.parents[2] / "source" / TAREA / CUADERNO
