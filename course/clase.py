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

from . import NO_CORREGIDO, TAREA, cuaderno, gradebook, limites, recoleccion, trabajador
from .aislado import entrada
from .trabajador import Curso, Resultado

SIN_ENTREGA, CORREGIDO, SIN_CORREGIR = "sin entrega", "corregido", "no corregido"


class Entrega(NamedTuple):
    """Una carpeta de submitted/: su estudiante y, si no se corrige, por qué."""
    estudiante: str       # el nombre de la carpeta (con los bytes que no son texto, escapados)
    apartada: str | None  # por qué nbgrader no puede ni mirarla (su nombre, un enlace…): no es un estudiante
    motivo: str | None    # por qué no tiene un cuaderno que corregir


class Clase(NamedTuple):
    """Cómo ha ido la corrección de la clase: si todas las entregas corregibles lo están, y cada una."""
    bien: bool
    resultados: dict  # estudiante → trabajador.Resultado


def trabajos_por_defecto():
    """Uno por núcleo disponible, más uno (o lo que diga TRABAJOS).

    El de más llena el núcleo mientras otro proceso espera a que arranque el núcleo de Python de
    su entrega: medido con 40 entregas en 2 núcleos, 3 procesos tardan un 15 % menos que 2.
    """
    if os.environ.get("TRABAJOS"):
        return max(1, int(os.environ["TRABAJOS"]))
    try:
        nucleos = len(os.sched_getaffinity(0))
    except AttributeError:
        nucleos = os.cpu_count() or 1
    return nucleos + 1


# --------------------------------------------------------------------------- las entregas

def entregas(raiz, tarea, colocar=False):
    """Las entregas de `tarea` en submitted/, por nombre de carpeta: las que se corrigen y las que no, y por qué.

    Sin glob ni nada que lea el nombre de una carpeta como un patrón: cada nombre, tal cual (os.scandir).
    Con `colocar`, antes busca el cuaderno de quien lo llamó de otra manera (colocar_cuaderno).
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
            if colocar and not apartada:
                colocar_cuaderno(ruta)
            resultado.append(Entrega(mostrable, apartada, None if apartada else entrada.motivo_sin_corregir(ruta)))
    return sorted(resultado)


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


def notas(raiz, tarea):
    """{estudiante: (puntos, máximo)} de `tarea`, leídos del gradebook; los puntos, ya con el descuento por retraso."""
    from nbgrader.api import Gradebook, MissingEntry

    from .complementos import nota_con_descuento

    with Gradebook(gradebook(raiz)) as gb:
        maximo = gb.find_assignment(tarea).max_score
        resultado = {}
        for estudiante in gb.students:
            try:
                resultado[estudiante.id] = (nota_con_descuento(gb.find_submission(tarea, estudiante.id)), maximo)
            except MissingEntry:
                pass
        return resultado


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
    """Release, autograde + retroalimentación en paralelo, CSV e informe de `tarea`. Devuelve una Clase."""
    raiz = Path(raiz).resolve()
    trabajos = trabajos or trabajos_por_defecto()
    curso = Curso(raiz, tarea)
    hecho = curso.generar_release()
    if not hecho.bien:
        print(hecho.registro)
        print("No se ha podido generar la versión del estudiante de %s (release/): se para aquí." % tarea)
        return Clase(False, {})
    todas = entregas(raiz, tarea, colocar=True)
    if not todas:
        print("No hay entregas de %s en %s." % (tarea, raiz / "submitted"))
        return Clase(True, {})
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

    csv = raiz / "exports" / "notas.csv"
    curso.exportar(csv)
    print("Notas en %s." % _desde_aqui(csv))
    if informe:
        from .informe import escribir_informe
        ruta = escribir_informe(raiz, tarea)
        print("Informe de la clase en %s." % _desde_aqui(ruta))
    fallidas = sorted(e for e, r in resultados.items() if not r.bien)
    if fallidas:
        print("No se han podido corregir del todo: %s. Sus mensajes están en %s; las demás entregas están "
              "corregidas." % (", ".join(recoleccion.mostrar(e, 200) for e in fallidas),
                               _desde_aqui(raiz / "exports" / "registro.txt")))
    return Clase(not fallidas, resultados)


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
