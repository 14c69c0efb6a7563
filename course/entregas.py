"""Cuadernos de estudiante hechos a partir del de release: para los ejemplos y para las pruebas."""

import copy
import tomllib
from pathlib import Path

import nbformat

from . import RESPUESTA, grade_id

MARCAS = ("### BEGIN SOLUTION", "### END SOLUTION")


def soluciones(fuente):
    """Las respuestas buenas del cuaderno fuente, {grade_id: código}, sin las marcas de nbgrader."""
    return {grade_id(c): "\n".join(l for l in c.source.splitlines() if l.strip() not in MARCAS)
            for c in fuente.cells if c.metadata.get("nbgrader", {}).get("solution")}


def rellenar(cuaderno, respuestas):
    """Una copia del cuaderno con el código de cada celda de respuesta cambiado por `respuestas[grade_id]`."""
    nuevo = copy.deepcopy(cuaderno)
    pendientes = dict(respuestas)
    for celda in nuevo.cells:
        if grade_id(celda) in pendientes:
            celda.source = pendientes.pop(grade_id(celda))
    if pendientes:
        raise ValueError("el cuaderno no tiene estas celdas de respuesta: %s" % ", ".join(sorted(pendientes)))
    return nuevo


def leer_ejemplo(ruta):
    """Una entrega de ejemplo: su `nota` esperada y sus `respuestas`, una por grade_id."""
    return tomllib.loads(Path(ruta).read_text(encoding="utf-8"))


def escribir_entrega(release, respuestas, carpeta):
    """Deja en `carpeta` el cuaderno de release relleno con `respuestas`, como lo entregaría un estudiante."""
    cuaderno = nbformat.read(release, as_version=4)
    # Con el cuestionario formativo no hay celdas respuesta-N: esas respuestas no tienen dónde ir.
    celdas = {grade_id(c) for c in cuaderno.cells}
    respuestas = {g: r for g, r in respuestas.items() if g in celdas or not g.startswith(RESPUESTA)}
    carpeta = Path(carpeta)
    carpeta.mkdir(parents=True, exist_ok=True)
    nbformat.write(rellenar(cuaderno, respuestas), carpeta / Path(release).name)
