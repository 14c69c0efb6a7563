"""El informe de la clase, exports/informe.html: qué hay que volver a explicar, y a quién, de un vistazo.

    python -m course.informe [RAIZ] [--tarea TAREA]

Pinta la clase corregida (course/estado.py, leída una vez) con la plantilla de Jinja
course/plantillas/informe/informe.html.j2: la distribución de las notas, quién falla cada prueba con
puntos (en la lección, `ejecutar-*` y `pregunta-*`), qué conversación oculta se rompe y en qué turno,
todas las equivocaciones que nombra el corrector y de quién, qué ha elegido la clase en cada pregunta
del cuestionario, y cada estudiante con su nota, la hora de su entrega, los días de retraso y un
enlace a su retroalimentación. Números y fechas, a la española. Las gráficas (matplotlib) van dentro
del HTML, en PNG base64: el fichero se abre solo, sin nada al lado.

Como orden (`make informe`), es lo que se hace tras cambiar una nota o escribir un comentario a mano en
el formgrader: vuelve a generar la retroalimentación de quien tiene algo puesto a mano (nbgrader
generate_feedback --force), y escribe de la misma clase las notas (exports/notas.csv y notas.xlsx), el
informe y lo que va al LMS (course/exportar.py). Así todo dice lo mismo que el gradebook.
"""

import argparse
import base64
import datetime
import io
import re
import urllib.parse
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from . import RAIZ, TAREA, configuracion, cuaderno, formato, gradebook
from .estado import CORREGIDO, descuentos_al_dia, leer
from .horas import COMO_DAR_LAS_HORAS

AZUL, ROJO, VERDE, GRIS = "#3b6ea5", "#c0392b", "#2e8b57", "#9aa5b1"
EN_LA_GRAFICA = 10  # equivocaciones en su gráfica; la tabla las tiene todas
PLANTILLAS = Path(__file__).resolve().parent / "plantillas" / "informe"


# --------------------------------------------------------------------------- las gráficas

def _png(figura):
    import matplotlib.pyplot as plt

    memoria = io.BytesIO()
    figura.savefig(memoria, format="png", dpi=110, bbox_inches="tight")
    plt.close(figura)
    return '<img alt="" src="data:image/png;base64,%s">' % base64.b64encode(memoria.getvalue()).decode()


def _figura(alto=2.8):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figura, ejes = plt.subplots(figsize=(7, alto))
    ejes.spines[["top", "right"]].set_visible(False)
    return figura, ejes


def grafica_de_notas(notas, maximo):
    figura, ejes = _figura()
    ejes.hist(notas, bins=[x - 0.5 for x in range(int(maximo) + 2)], color=AZUL, edgecolor="white")
    ejes.set_xlabel("puntos (de %s)" % formato.numero(maximo))
    ejes.set_ylabel("estudiantes")
    ejes.set_xlim(-0.5, maximo + 0.5)
    ejes.yaxis.get_major_locator().set_params(integer=True)
    return _png(figura)


def grafica_de_barras(etiquetas, valores, colores, eje):
    figura, ejes = _figura(0.45 * len(etiquetas) + 0.8)
    posiciones = range(len(etiquetas))
    ejes.barh(list(posiciones), valores, color=colores)
    ejes.set_yticks(list(posiciones), [str(e) for e in etiquetas], parse_math=False)  # un «$» no es una fórmula
    ejes.invert_yaxis()
    ejes.set_xlabel(eje)
    ejes.xaxis.get_major_locator().set_params(integer=True)
    return _png(figura)


def graficas(clase):
    """Las gráficas del informe de `clase`, ya en HTML: {notas, pruebas, equivocaciones, preguntas: {n: …}}."""
    corregidos = clase.corregidos
    hechas = {"notas": "", "pruebas": "", "equivocaciones": "", "preguntas": {}, "en_la_grafica": EN_LA_GRAFICA}
    if not corregidos:
        return hechas
    hechas["notas"] = grafica_de_notas([e.nota for e in corregidos], clase.maximo)
    if clase.pruebas:
        fallan = [len(clase.fallan(p)) for p in clase.pruebas]
        hechas["pruebas"] = grafica_de_barras(list(clase.pruebas), fallan,
                                              [ROJO if f > len(corregidos) / 2 else AZUL for f in fallan],
                                              "estudiantes que no la pasan")
    comunes = clase.equivocaciones[:EN_LA_GRAFICA]
    if comunes:
        hechas["equivocaciones"] = grafica_de_barras([d for d, _ in comunes], [len(q) for _, q in comunes],
                                                     [AZUL] * len(comunes), "estudiantes")
    for n, opciones in clase.preguntas.items():
        hechas["preguntas"][n] = grafica_de_barras([o.rotulo[:60] for o in opciones], [o.cuantos for o in opciones],
                                                   [VERDE if o.correcta else GRIS for o in opciones], "estudiantes")
    return hechas


# --------------------------------------------------------------------------- el HTML

def _entorno():
    entorno = Environment(loader=FileSystemLoader(PLANTILLAS), autoescape=select_autoescape(["html", "j2"]),
                          undefined=StrictUndefined, trim_blocks=False, lstrip_blocks=False)
    entorno.filters.update(numero=formato.numero, fecha=formato.fecha, dias=formato.dias)
    return entorno


def ancla(id_):
    """El id de la fila de un estudiante en la tabla del informe (los enlaces de «quiénes» llevan a ella)."""
    return "e-" + re.sub(r"[^\w-]", lambda m: "_%x" % ord(m.group()), id_)


def resumen(clase):
    """La media, la mediana, cuántos llegan a la mitad de los puntos y cuántos entregan tarde, de los corregidos."""
    notas = sorted(e.nota for e in clase.corregidos)
    n = len(notas)
    if not n:
        return {}
    return {"media": sum(notas) / n, "mediana": (notas[(n - 1) // 2] + notas[n // 2]) / 2,
            "aprobados": sum(x >= clase.maximo / 2 for x in notas), "tarde": sum(e.dias_tarde > 0 for e in clase.corregidos)}


def html_del_informe(clase, raiz, zona, etiquetas=None, ahora=None):
    """El HTML del informe de `clase`, con las horas en la zona `zona` (un ZoneInfo)."""
    if etiquetas is None:
        from .calificacion import DIAGNOSTICOS
        etiquetas = dict(DIAGNOSTICOS)
    por_id = lambda e: e.id  # noqa: E731
    filas = (sorted(clase.corregidos, key=por_id) + sorted(clase.no_corregidos, key=por_id)
             + sorted(clase.sin_entrega, key=por_id))
    html_ = Path(cuaderno(clase.tarea)).with_suffix(".html").name  # la retroalimentación del cuaderno de la tarea
    enlaces = {e.id: ("../feedback/%s" % "/".join(urllib.parse.quote(p) for p in (e.id, clase.tarea, html_))
                      if (Path(raiz) / "feedback" / e.id / clase.tarea / html_).exists() else None) for e in filas}
    return _entorno().get_template("informe.html.j2").render(
        clase=clase, filas=filas, enlaces=enlaces, graficas=graficas(clase), resumen=resumen(clase),
        etiquetas=etiquetas, zona=zona, ahora=ahora or datetime.datetime.now(datetime.timezone.utc), ancla=ancla,
        CORREGIDO=CORREGIDO, como_dar_las_horas=COMO_DAR_LAS_HORAS.format(tarea=clase.tarea))


def escribir_informe(raiz=RAIZ, tarea=TAREA, clase=None, zona=None):
    """Escribe exports/informe.html, el informe de `tarea` (o de la `clase` ya leída), y devuelve su ruta."""
    raiz = Path(raiz)
    clase = clase or leer(raiz, tarea)
    zona = zona or formato.zona_horaria()  # sin la configuración del curso: la zona por defecto
    destino = raiz / "exports" / "informe.html"
    destino.parent.mkdir(parents=True, exist_ok=True)
    destino.write_text(html_del_informe(clase, raiz, zona), encoding="utf-8")
    return destino


def puesto_a_mano(raiz, tarea):
    """Los estudiantes de `tarea` con una nota o un comentario puestos a mano (en el formgrader), por orden."""
    from nbgrader.api import Gradebook

    with Gradebook(gradebook(raiz)) as gb:
        return sorted({entrega.student.id for entrega in gb.assignment_submissions(tarea) for c in entrega.notebooks
                       if any(g.manual_score is not None for g in c.grades) or any(k.manual_comment for k in c.comments)})


def retroalimentacion_de_nuevo(raiz, tarea, estudiantes):
    """`nbgrader generate_feedback --force` de `tarea` para cada uno de `estudiantes`, desde la raíz del curso (con
    su nbgrader_config.py). Devuelve {estudiante: lo que ha dicho nbgrader} de aquellos con los que ha fallado."""
    import subprocess
    import sys

    fallos = {}
    for estudiante in estudiantes:
        hecho = subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", tarea, "--student", estudiante,
                                "--force"], cwd=raiz, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if hecho.returncode != 0:
            fallos[estudiante] = (hecho.stdout + hecho.stderr).strip()[-2000:]
    return fallos


def _cli():
    from .exportar import exportar_al_lms, exportar_notas, sin_numero

    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("raiz", nargs="?", type=Path, default=RAIZ, help="la raíz del curso")
    opciones.add_argument("--tarea", default=TAREA, help="la tarea (por defecto, %s)" % TAREA)
    a = opciones.parse_args()
    config = configuracion(a.raiz)
    cambiados = descuentos_al_dia(gradebook(a.raiz), a.tarea, config)
    a_mano = sorted(set(puesto_a_mano(a.raiz, a.tarea)) | set(cambiados))
    if a_mano:
        print("La retroalimentación, de nuevo, de quien tiene algo puesto a mano: %s." % ", ".join(a_mano))
        for estudiante, dicho in retroalimentacion_de_nuevo(a.raiz, a.tarea, a_mano).items():
            print("No se ha podido generar la retroalimentación de %s; lo que dice nbgrader:\n%s" % (estudiante, dicho))
    clase = leer(a.raiz, a.tarea)
    print(exportar_notas(a.raiz, clase, config), "y notas.xlsx")
    print(escribir_informe(a.raiz, a.tarea, clase, formato.zona_horaria(config)))
    aviso = sin_numero(exportar_al_lms(a.raiz, clase, config))
    print("Para el LMS, en %s: moodle-calificaciones.csv, moodle-retroalimentacion.zip y canvas-calificaciones.csv."
          % (Path(a.raiz) / "exports"))
    if aviso:
        print(aviso)


if __name__ == "__main__":
    _cli()
