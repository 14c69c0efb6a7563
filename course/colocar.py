"""Antes de corregir, un paso aparte: el cuaderno de cada entrega en su sitio, con el nombre de la tarea.

Quien copia a mano un cuaderno con otro nombre en submitted/<id>/<tarea>/ («mi-entrega.ipynb») tiene
una entrega: aquí se copia con el nombre de la tarea, como hace zip_collect, eligiendo entre varios
cuadernos el que es la entrega (course/recoleccion.py). Es lo único que escribe en submitted/.
"""

import os
from pathlib import Path

from . import NO_CORREGIDO, cuaderno, limites, recoleccion
from .aislado import entrada


def colocar_cuadernos(raiz, tarea):
    """colocar_cuaderno en cada carpeta de submitted/*/<tarea> que nbgrader puede mirar."""
    carpeta = os.fsencode(Path(raiz) / "submitted")
    if not os.path.isdir(carpeta):
        return
    with os.scandir(carpeta) as dentro:
        for hijo in dentro:
            suya = os.fsdecode(os.path.join(hijo.path, tarea.encode()))
            if os.path.isdir(suya) and not entrada.motivo_para_apartar(suya):
                colocar_cuaderno(suya)


def colocar_cuaderno(carpeta):
    """Si a submitted/<id>/<tarea> le falta el cuaderno de la tarea y hay otro .ipynb que es la entrega, lo
    copia con ese nombre (como zip_collect). Devuelve el nombre del elegido, o None."""
    carpeta = Path(carpeta)
    nombre = cuaderno(carpeta.name)
    if os.path.lexists(carpeta / nombre) or os.path.lexists(carpeta / NO_CORREGIDO):
        return None
    candidatos = []
    for ruta in sorted(carpeta.iterdir())[:limites.CUADERNOS_EN_LA_CARPETA]:
        if ruta.suffix.lower() == ".ipynb" and not ruta.is_symlink() and ruta.is_file():
            datos, problema = entrada.leer_acotado(str(ruta), limites.CUADERNO_ENTREGADO)
            if problema is None and len(datos) <= limites.CUADERNO_ENTREGADO:
                candidatos.append((ruta.name, ruta.stat().st_mtime, datos))
    release = carpeta.parents[2] / "release" / carpeta.name / nombre
    datos, _ = recoleccion.elegir_cuaderno(candidatos, recoleccion.ids_de_release(release) if release.exists() else set())
    if datos is None:
        return None
    (carpeta / nombre).write_bytes(datos)
    elegido = next(n for n, _, d in candidatos if d is datos)
    print("%s: se corrige «%s» como su %s." % (recoleccion.mostrar(carpeta.parent.name, 200), recoleccion.mostrar(elegido),
                                                 nombre))
    return elegido
