"""El informe de la clase, exports/informe.html: qué hay que volver a explicar, de un vistazo.

    python -m course.informe [RAIZ] [--tarea TAREA]

Lee el gradebook y los cuadernos de autograded/ después de corregir: la distribución de las
notas, cuántos fallan cada prueba con puntos (en la lección, `ejecutar-*` y `pregunta-*`), los diagnósticos más
frecuentes del corrector, qué ha elegido la clase en cada pregunta del cuestionario y un enlace a
la retroalimentación de cada estudiante. Las gráficas (matplotlib) van dentro del HTML, en PNG
base64: el fichero se abre solo, sin nada al lado.
"""

import argparse
import base64
import collections
import datetime
import io
import urllib.parse
from pathlib import Path

from harness.aula.mostrar import escapar

from . import RAIZ, TAREA, cuaderno, estado
from .cuestionario import PREGUNTAS
from .estado import SIN_CONTESTAR, leer, opciones_elegidas

AZUL, ROJO, VERDE, GRIS = "#3b6ea5", "#c0392b", "#2e8b57", "#9aa5b1"


# --------------------------------------------------------------------------- los datos

def _rotulos_de_diagnosticos():
    try:
        from .calificacion import DIAGNOSTICOS
        return dict(DIAGNOSTICOS)
    except (ImportError, TypeError, ValueError):
        return {}


def datos_de_la_clase(raiz, tarea=TAREA, clase=None):
    """Lo que pinta el informe, de la clase leída una vez (course/estado.py)."""
    clase = clase or leer(raiz, tarea)
    corregidos = sorted(clase.corregidos, key=lambda e: e.id)
    estudiantes = []
    for e in corregidos:
        fila = {"id": e.id, "nombre": e.nombre_completo, "nota": e.nota, "retraso": e.descuento}
        if e.detalles:
            fila["detalles"] = e.detalles
        estudiantes.append(fila)
    quienes = dict(clase.equivocaciones)
    return {"tarea": tarea, "maximo": clase.maximo, "estudiantes": estudiantes,
            "fallos": collections.Counter({p: len(clase.fallan(p)) for p in clase.pruebas}),
            "pruebas": clase.pruebas,
            "diagnosticos": collections.Counter({d: len(q) for d, q in quienes.items()}),
            "con_diagnosticos": clase.con_diagnosticos, "quienes": quienes,
            "elecciones": {n: collections.Counter({o.clave: o.cuantos for o in opciones})
                           for n, opciones in clase.preguntas.items()},
            "no_corregidos": sorted(({"id": e.id, "nombre": e.nombre_completo, "motivo": e.motivo}
                                     for e in clase.no_corregidos), key=lambda e: e["id"]),
            "sin_entrega": len(clase.sin_entrega),
            "sin_entrega_quienes": [{"id": e.id, "nombre": e.nombre_completo} for e in clase.sin_entrega]}


def _rotulo_de_opcion(n, opcion):
    """«c) el texto de la opción», para una opción tal como la cuenta opciones_elegidas."""
    return estado._rotulo(PREGUNTAS.get(n, {}).get("opciones", {}), opcion)


def _correcta(n):
    """Las opciones buenas de la pregunta `n`, escritas como las cuenta opciones_elegidas."""
    return set(opciones_elegidas(PREGUNTAS[n]["correcta"])) if n in PREGUNTAS else set()


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
    ejes.set_xlabel("puntos (de %g)" % maximo)
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


# --------------------------------------------------------------------------- el HTML

ESTILO = """
body{font-family:system-ui,sans-serif;max-width:62rem;margin:2rem auto;padding:0 1rem;color:#1f2933}
h1{font-size:1.6rem}h2{margin-top:2.2rem;border-bottom:1px solid #d9e2ec;padding-bottom:.3rem}
table{border-collapse:collapse;margin:.6rem 0}td,th{padding:.25rem .7rem;border-bottom:1px solid #e4e7eb;text-align:left}
td.n{text-align:right}.nota{color:#52606d}img{max-width:100%}code{background:#f0f4f8;padding:0 .2rem}
"""


def _tabla(cabecera, filas):
    celdas = "".join("<th>%s</th>" % escapar(c) for c in cabecera)
    cuerpo = "".join("<tr>%s</tr>" % "".join(c if c.startswith("<td") else "<td>%s</td>" % c for c in fila)
                     for fila in filas)
    return "<table><tr>%s</tr>%s</table>" % (celdas, cuerpo)


def _n(numero):
    return '<td class="n">%s</td>' % escapar(("%g" % numero) if isinstance(numero, float) else numero)


def html_del_informe(datos, raiz):
    estudiantes, maximo, tarea = datos["estudiantes"], datos["maximo"], datos["tarea"]
    n = len(estudiantes)
    notas = [e["nota"] for e in estudiantes]
    partes = ["<!DOCTYPE html><html lang='es'><head><meta charset='utf-8'>",
              "<title>Informe de la clase: %s</title><style>%s</style></head><body>" % (escapar(tarea), ESTILO),
              "<h1>Informe de la clase: <code>%s</code></h1>" % escapar(tarea),
              "<p class='nota'>Generado el %s a partir del gradebook y de autograded/.</p>"
              % datetime.datetime.now().strftime("%d/%m/%Y a las %H:%M")]
    sin_corregir = datos.get("no_corregidos", [])
    if sin_corregir or datos.get("sin_entrega"):
        partes.append("<p>%s%s</p>" % (
            "%d sin corregir (abajo, cada una con su motivo), fuera de las medias y de los fallos. " % len(sin_corregir)
            if sin_corregir else "",
            "%d estudiante%s del gradebook sin entrega." % (datos["sin_entrega"], "s" * (datos["sin_entrega"] != 1))
            if datos.get("sin_entrega") else ""))
    if not n:
        partes += ["<p>Aún no hay ninguna entrega corregida.</p>", _tabla_de_estudiantes(datos, raiz), "</body></html>"]
        return "".join(partes)
    ordenadas = sorted(notas)
    mediana = (ordenadas[(n - 1) // 2] + ordenadas[n // 2]) / 2
    aprobados = sum(x >= maximo / 2 for x in notas)
    partes += ["<h2>Notas</h2>",
               "<p>%d entrega%s corregida%s. Media: <b>%.1f</b> de %g; mediana: %.1f; con la mitad de los puntos o más: %d (%.0f %%).</p>"
               % (n, "s" * (n != 1), "s" * (n != 1), sum(notas) / n, maximo, mediana, aprobados, 100 * aprobados / n),
               grafica_de_notas(notas, maximo)]

    pruebas = datos["pruebas"]
    partes.append("<h2>Las pruebas: cuántos las fallan</h2>")
    if pruebas:
        fallan = [datos["fallos"][p] for p in pruebas]
        colores = [ROJO if f > n / 2 else AZUL for f in fallan]
        partes += ["<p>En rojo, las que falla más de la mitad de la clase: lo primero que conviene repasar.</p>",
                   grafica_de_barras(list(pruebas), fallan, colores, "estudiantes que no la pasan"),
                   _tabla(["prueba", "puntos", "la fallan"],
                          [["<code>%s</code>" % escapar(p), _n(pruebas[p]), _n("%d de %d" % (datos["fallos"][p], n))]
                           for p in pruebas])]
    else:
        partes.append("<p>El gradebook no tiene notas de pruebas.</p>")

    partes.append("<h2>Los errores más frecuentes, según el corrector</h2>")
    if datos["diagnosticos"]:
        rotulos = _rotulos_de_diagnosticos()
        comunes = datos["diagnosticos"].most_common(10)
        partes += ["<p>Cuántos estudiantes tienen cada equivocación (una vez por estudiante, aunque le reste en "
                   "varias pruebas), y quiénes.</p>",
                   grafica_de_barras([d for d, _ in comunes], [c for _, c in comunes], [AZUL] * len(comunes),
                                     "estudiantes"),
                   _tabla(["diagnóstico", "qué quiere decir", "estudiantes", "quiénes"],
                          [["<code>%s</code>" % escapar(d), escapar(rotulos.get(d, "")), _n(c),
                            escapar(", ".join(datos["quienes"][d]))] for d, c in comunes])]
    elif datos["con_diagnosticos"]:
        partes.append("<p>El corrector no ha diagnosticado ningún error típico en esta clase.</p>")
    else:
        partes.append("<p>Los cuadernos corregidos no traen diagnósticos del corrector "
                      "(<code>metadata.curso.diagnosticos</code> de las celdas <code>ejecutar-*</code>).</p>")

    partes.append("<h2>Cuestionario: qué ha elegido la clase</h2>")
    if any(set(cuenta) != {SIN_CONTESTAR} for cuenta in datos["elecciones"].values()):
        partes.append("<p>En verde y con ✔, la respuesta correcta. En la pregunta de varias respuestas, cada opción "
                      "marcada cuenta por separado. Con el cuestionario formativo (0 puntos) cuenta lo último que "
                      "cada estudiante comprobó con «Comprobar» en el cuaderno que entregó; «(sin contestar)», "
                      "si no comprobó esa pregunta.</p>")
        for pregunta, cuenta in sorted(datos["elecciones"].items()):
            correcta = _correcta(pregunta)
            opciones = sorted(cuenta)
            partes += ["<h3>Pregunta %d</h3>" % pregunta,
                       grafica_de_barras([_rotulo_de_opcion(pregunta, o)[:60] for o in opciones],
                                         [cuenta[o] for o in opciones],
                                         [VERDE if o in correcta else GRIS for o in opciones], "estudiantes"),
                       "<p class='cuenta'>%s</p>" % " · ".join(
                           "%s%s: %d" % ("✔ " if o in correcta else "", escapar(o), cuenta[o]) for o in opciones)]
    else:  # ni una gráfica por pregunta con todo «(sin contestar)»: una frase
        partes.append("<p>Ningún cuaderno corregido trae respuestas del cuestionario. Con el cuestionario formativo "
                      "solo cuenta lo que cada estudiante comprobó con «Comprobar» en el cuaderno que entregó.</p>")

    partes += [_tabla_de_estudiantes(datos, raiz), "</body></html>"]
    return "".join(partes)


def _tabla_de_estudiantes(datos, raiz):
    """Cada estudiante del gradebook: con su nota y su retroalimentación; quien no se ha corregido, con el
    motivo; y quien no ha entregado."""
    filas, tarea = [], datos["tarea"]
    html_ = Path(cuaderno(tarea)).with_suffix(".html").name  # la retroalimentación del cuaderno de la tarea
    for e in datos["estudiantes"]:
        retro = Path(raiz) / "feedback" / e["id"] / tarea / html_
        href = "../feedback/%s" % "/".join(urllib.parse.quote(p) for p in (e["id"], tarea, html_))
        enlace = ("<a href='%s'>retroalimentación</a>" % escapar(href) if retro.exists()
                  else "(sin retroalimentación)")
        if e.get("detalles"):
            enlace += " <span class='nota'>(%s)</span>" % escapar(e["detalles"])
        filas.append([escapar(e["id"]), escapar(e["nombre"]), _n(e["nota"]),
                      _n(e["retraso"]) if e["retraso"] else "<td></td>", enlace])
    for e in datos.get("no_corregidos", []):
        filas.append([escapar(e["id"]), escapar(e["nombre"]), "<td>no corregido</td>", "<td></td>",
                      escapar(e["motivo"])])
    for e in datos.get("sin_entrega_quienes", []):
        filas.append([escapar(e["id"]), escapar(e["nombre"]), "<td>sin entrega</td>", "<td></td>", "<td></td>"])
    return "<h2>Cada estudiante</h2>" + _tabla(
        ["estudiante", "nombre", "puntos (ya con el descuento)", "descuento por retraso", ""], filas)


def escribir_informe(raiz=RAIZ, tarea=TAREA, clase=None):
    """Escribe exports/informe.html, el informe de `tarea` (o de la `clase` ya leída), y devuelve su ruta."""
    raiz = Path(raiz)
    destino = raiz / "exports" / "informe.html"
    destino.parent.mkdir(parents=True, exist_ok=True)
    destino.write_text(html_del_informe(datos_de_la_clase(raiz, tarea, clase), raiz), encoding="utf-8")
    return destino


if __name__ == "__main__":
    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("raiz", nargs="?", type=Path, default=RAIZ, help="la raíz del curso")
    opciones.add_argument("--tarea", default=TAREA, help="la tarea (por defecto, %s)" % TAREA)
    a = opciones.parse_args()
    print(escribir_informe(a.raiz, a.tarea))
