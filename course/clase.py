"""La corrección de una tarea para toda la clase: release, autograde y retroalimentación en todos los
núcleos, y después las notas (exports/notas.csv) y el informe (exports/informe.html).

La tarea es la carpeta que se diga (source/<tarea>/, con un cuaderno de su mismo nombre). Las entregas
son las carpetas submitted/<estudiante>/<tarea>/. Se reparten entre varios procesos, cada uno con
nbgrader cargado una vez (course/trabajador.py), con una barra de progreso que dice quién se está
corrigiendo y cuánto falta. Un solo gradebook (SQLite) con varios procesos escribiendo: se pone en
modo WAL, cada conexión espera su turno (limites.ESPERA_AL_GRADEBOOK) y una entrega que aun así choca
con un «database is locked» se vuelve a corregir. Una entrega que rompe algo no para a las demás.
"""

import multiprocessing
import os
import queue
import sqlite3
import sys
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import NamedTuple

from . import TAREA, gradebook, procesos, recoleccion, trabajador
from .colocar import colocar_cuadernos
from .estado import CORREGIDO, SIN_CORREGIR, SIN_ENTREGA, Entrega, entregas, estado, leer, notas  # noqa: F401 (aquí, como antes)
from .exportar import LMS, exportar_al_lms, exportar_notas, sin_numero
from .formato import zona_horaria
from .horas import COMO_DAR_LAS_HORAS
from .informe import escribir_informe
from .trabajador import Curso, Resultado


class Correccion(NamedTuple):
    """Cómo ha ido la corrección de la clase: si todas las entregas corregibles lo están, y cada una."""
    bien: bool
    resultados: dict  # estudiante → trabajador.Resultado


def trabajos_por_defecto():
    """Los procesos que corrigen la clase: los de course.procesos() (uno por núcleo, más uno), o los que diga TRABAJOS."""
    if os.environ.get("TRABAJOS"):
        return max(1, int(os.environ["TRABAJOS"]))
    return procesos()


# --------------------------------------------------------------------------- el reparto

def _preparar_gradebook(curso, estudiantes):
    """Antes de repartir: el gradebook en modo WAL y cada estudiante dado de alta, desde un solo proceso."""
    with curso.gradebook() as gb:
        for estudiante in estudiantes:
            if not any(s.id == estudiante for s in gb.students):
                gb.add_student(estudiante)
    with sqlite3.connect(curso.db) as conexion:
        conexion.execute("PRAGMA journal_mode=WAL")


def _barra(total):
    from tqdm import tqdm

    return tqdm(total=total, unit="entrega", desc="Corrigiendo", dynamic_ncols=True, file=sys.stdout,
                mininterval=0.2 if sys.stdout.isatty() else 10,
                bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                           "[{elapsed} transcurridos, quedan {remaining}]{postfix}")


def corregir_en_paralelo(raiz, tarea, estudiantes, trabajos):
    """{estudiante: Resultado} de las entregas de `tarea`, con `trabajos` procesos y una barra de progreso."""
    contexto = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    avisos = contexto.Queue()
    resultados, en_curso, pendientes = {}, {}, list(estudiantes)
    barra = _barra(len(estudiantes))

    def leer_avisos():
        while True:
            try:
                estudiante, paso = avisos.get_nowait()
            except queue.Empty:
                break
            if estudiante not in resultados:
                en_curso[estudiante] = paso
        barra.set_postfix_str(", ".join("%s (%s)" % e for e in sorted(en_curso.items())), refresh=True)

    def terminar(r):
        resultados[r.estudiante] = r
        en_curso.pop(r.estudiante, None)
        barra.write(_linea(r))
        barra.update(1)

    rondas = 0
    while pendientes and rondas < 2:  # una segunda ronda solo si un proceso ha muerto
        rondas += 1
        with ProcessPoolExecutor(max_workers=min(trabajos, len(pendientes)), mp_context=contexto,
                                 initializer=trabajador.iniciar, initargs=(raiz, tarea, avisos)) as grupo:
            futuros = {grupo.submit(trabajador.corregir, e): e for e in pendientes}
            pendientes = []
            while futuros:
                hechos, _ = wait(futuros, timeout=0.5, return_when=FIRST_COMPLETED)
                leer_avisos()
                for futuro in hechos:
                    estudiante = futuros.pop(futuro)
                    try:
                        terminar(futuro.result())
                    except BrokenProcessPool:
                        pendientes.append(estudiante)
    for estudiante in pendientes:
        terminar(Resultado(estudiante, motivo="el proceso que la corregía ha muerto dos veces"))
    barra.set_postfix_str("")
    barra.close()
    return resultados


def _linea(r):
    if r.nota is not None:
        texto = "%-22s %5.1f / %g puntos" % (r.estudiante, r.nota, r.maximo)
        if r.descuento:
            texto += " (ya con %g menos por el retraso)" % r.descuento
    else:
        texto = "%-22s sin nota" % r.estudiante
    if not r.bien:
        texto += "   ¡ojo! %s" % r.motivo
    return texto + "   (%.1f s)" % r.segundos


# --------------------------------------------------------------------------- la clase de principio a fin

def corregir_clase(raiz, tarea=TAREA, trabajos=None, informe=True):
    """Release, autograde + retroalimentación en paralelo, CSV e informe de `tarea`. Devuelve una Correccion.

    submitted/ → colocar_cuadernos → entregas → los procesos → estado.leer → {CSV, informe}.
    """
    raiz = Path(raiz).resolve()
    trabajos = trabajos or trabajos_por_defecto()
    curso = Curso(raiz, tarea)
    hecho = curso.generar_release()
    if not hecho.bien:
        print(hecho.registro)
        print("No se ha podido generar la versión del estudiante de %s (release/): se para aquí." % tarea)
        return Correccion(False, {})
    colocar_cuadernos(raiz, tarea)
    todas = entregas(raiz, tarea)
    if not todas:
        print("No hay entregas de %s en %s." % (tarea, raiz / "submitted"))
        return Correccion(True, {})
    for e in todas:
        if e.apartada:
            print("%-22s apartada, sin corregir: %s." % (recoleccion.mostrar(e.estudiante, 200), e.apartada))
        elif e.motivo:
            print("%-22s no corregido: %s." % (recoleccion.mostrar(e.estudiante, 200), e.motivo))
    estudiantes = [e.estudiante for e in todas if not e.apartada and not e.motivo]
    _preparar_gradebook(curso, [e.estudiante for e in todas if not e.apartada])
    print("%d entregas de %s, en %d proceso%s." % (len(estudiantes), tarea, trabajos, "s" * (trabajos != 1)))
    resultados = corregir_en_paralelo(raiz, tarea, estudiantes, trabajos) if estudiantes else {}
    with sqlite3.connect(curso.db) as conexion:  # de vuelta a un solo fichero, como lo deja nbgrader
        conexion.execute("PRAGMA journal_mode=DELETE")
    _guardar_registro(raiz, resultados)
    corregidas = [r for r in resultados.values() if r.retroalimentacion is not None]
    if corregidas:
        print("Por entrega, de media: %.1f s de autograde y %.2f s de retroalimentación."
              % (sum(r.autograde for r in corregidas) / len(corregidas),
                 sum(r.retroalimentacion for r in corregidas) / len(corregidas)))

    clase = leer(raiz, tarea)  # la clase corregida, leída una vez: todo lo que sigue la pinta
    print("Notas en %s (y en notas.xlsx, para una hoja de cálculo)." % _desde_aqui(exportar_notas(raiz, clase, curso.config)))
    aviso = sin_numero(exportar_al_lms(raiz, clase, curso.config))
    print("Para el LMS: %s." % ", ".join(_desde_aqui(raiz / "exports" / f) for f in LMS))
    if aviso:
        print(aviso)
    if informe:
        print("Informe de la clase en %s." % _desde_aqui(escribir_informe(raiz, tarea, clase, zona_horaria(curso.config))))
    fallidas = sorted(e for e, r in resultados.items() if not r.bien)
    if fallidas:
        print("No se han podido corregir del todo: %s. Sus mensajes están en %s; las demás entregas están "
              "corregidas." % (", ".join(recoleccion.mostrar(e, 200) for e in fallidas),
                               _desde_aqui(raiz / "exports" / "registro.txt")))
    for aviso in avisos_de_la_lectura(clase, _desde_aqui(raiz / "exports" / "registro.txt")):
        print(aviso)
    return Correccion(not fallidas and not clase.fallos_del_corrector, resultados)


def avisos_de_la_lectura(clase, registro):
    """Lo que la terminal dice, además, de la clase leída: con quién ha fallado el corrector y de quién no se han
    podido leer los detalles. `registro`: dónde está lo que ha dicho nbgrader (exports/registro.txt)."""
    avisos = []
    if clase.fallos_del_corrector:
        veces = sum(len(f) for _, f in clase.fallos_del_corrector)
        avisos.append("¡Ojo! El corrector ha fallado %s con %s: %s. Una prueba cuyo veredicto ha fallado suspende; "
                      "qué ha fallado y con qué mensaje, en el informe y en %s."
                      % ("1 vez" if veces == 1 else "%d veces" % veces, _entregas(clase.fallos_del_corrector),
                         _ids(clase.fallos_del_corrector), registro))
    if clase.sin_hora:
        avisos.append("De %s no se sabe la hora de entrega (el informe dice por qué en su fila): %s. %s descuento por "
                      "retraso. %s." % (_entregas(clase.sin_hora), _ids(clase.sin_hora),
                                        "No lleva" if len(clase.sin_hora) == 1 else "No llevan",
                                        COMO_DAR_LAS_HORAS.format(tarea=clase.tarea)))
    if clase.sin_detalles:
        avisos.append("De %s no se han podido leer los detalles (equivocaciones, respuestas del cuestionario, "
                      "conversaciones): %s. Su nota cuenta igual; el informe dice por qué en su fila."
                      % (_entregas(clase.sin_detalles), _ids(clase.sin_detalles)))
    return avisos


def _entregas(pares):
    return "1 entrega" if len(pares) == 1 else "%d entregas" % len(pares)


def _ids(pares):
    return ", ".join(recoleccion.mostrar(i, 200) for i, _ in pares)


def _desde_aqui(ruta):
    """`ruta` como se escribe desde la carpeta en que se ha lanzado la orden (demo/exports/… para la demo)."""
    try:
        return str(Path(ruta).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(ruta)


def _guardar_registro(raiz, resultados):
    """Lo que nbgrader ha dicho de cada entrega, en exports/registro.txt (en inglés: es de nbgrader)."""
    (raiz / "exports").mkdir(exist_ok=True)
    with open(raiz / "exports" / "registro.txt", "w", encoding="utf-8") as f:
        for estudiante, r in sorted(resultados.items()):
            f.write("=== %s: %s\n%s\n" % (estudiante, "bien" if r.bien else r.motivo, r.registro))
