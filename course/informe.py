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

import nbformat
from nbformat.v4.rwbase import rejoin_lines

from harness.aula.mostrar import escapar

from . import RAIZ, TAREA, cuaderno, gradebook
from .aislado.entrada import leer_cuaderno
from .cuestionario import PREGUNTAS, respuestas_del_cuaderno

AZUL, ROJO, VERDE, GRIS = "#3b6ea5", "#c0392b", "#2e8b57", "#9aa5b1"


# --------------------------------------------------------------------------- los datos

def _grade_id(celda):
    return celda.metadata.get("nbgrader", {}).get("grade_id", "")


SIN_CONTESTAR = "(sin contestar)"


def opciones_elegidas(respuesta):
    """Las opciones que cuenta una respuesta: una letra, verdadero/falso o cada letra de un conjunto."""
    if respuesta is None:
        return [SIN_CONTESTAR]
    if isinstance(respuesta, bool):
        return ["verdadero" if respuesta else "falso"]
    if isinstance(respuesta, str):
        return [respuesta.strip().lower() or SIN_CONTESTAR]
    if isinstance(respuesta, (set, frozenset, list, tuple)):
        return sorted(str(r).strip().lower() for r in respuesta) or ["(ninguna)"]
    return [str(respuesta)]


def _rotulo_de_opcion(n, opcion):
    """«c) el texto de la opción», para una opción tal como la cuenta opciones_elegidas."""
    clave = {"verdadero": True, "falso": False}.get(opcion, opcion)
    texto = PREGUNTAS.get(n, {}).get("opciones", {}).get(clave)
    return "%s) %s" % (opcion, texto) if isinstance(texto, str) else opcion


def _correcta(n):
    """Las opciones buenas de la pregunta `n`, escritas como las cuenta opciones_elegidas."""
    return set(opciones_elegidas(PREGUNTAS[n]["correcta"])) if n in PREGUNTAS else set()


def _rotulos_de_diagnosticos():
    try:
        from .calificacion import DIAGNOSTICOS
        return dict(DIAGNOSTICOS)
    except (ImportError, TypeError, ValueError):
        return {}


def datos_de_la_clase(raiz, tarea=TAREA):
    """Lo que pinta el informe, leído del gradebook y de autograded/.

    Cada estudiante se lee aparte: lo que tenga su cuaderno corregido (lo que sea) como mucho le hace
    perder sus propios detalles (diagnósticos, cuestionario), nunca el informe. Quien no se ha
    corregido (course.clase.estado) va aparte, con su motivo, fuera de medias y de fallos.
    """
    from nbgrader.api import Gradebook, MissingEntry

    from .clase import CORREGIDO, SIN_ENTREGA, entregas, estado
    from .complementos import nota_con_descuento

    raiz = Path(raiz)
    estudiantes, fallos, pruebas = [], collections.Counter(), {}
    diagnosticos, elecciones = collections.Counter(), collections.defaultdict(collections.Counter)
    con_diagnosticos, quienes = 0, collections.defaultdict(list)  # estudiantes con diagnósticos; quién tiene cada uno
    no_corregidos, sin_entrega = [], []
    with Gradebook(gradebook(raiz)) as gb:
        maximo = gb.find_assignment(tarea).max_score
        for s in gb.students:
            try:
                entrega = gb.find_submission(tarea, s.id)
            except MissingEntry:
                entrega = None
            situacion, motivo = estado(str(raiz), tarea, s.id, entrega is not None)
            nombre = " ".join(filter(None, [s.first_name, s.last_name]))
            if situacion == SIN_ENTREGA:
                sin_entrega.append({"id": s.id, "nombre": nombre})
                continue
            if situacion != CORREGIDO:
                no_corregidos.append({"id": s.id, "nombre": nombre, "motivo": motivo})
                continue
            estudiante = {"id": s.id, "nombre": nombre, "nota": nota_con_descuento(entrega),  # la del CSV
                          "retraso": entrega.late_submission_penalty}
            estudiantes.append(estudiante)
            for suyo in entrega.notebooks:
                for nota in suyo.grades:
                    if nota.max_score:  # cada prueba que puntúa, de la tarea que sea
                        pruebas[nota.name] = nota.max_score
                        if (nota.score or 0) < nota.max_score:
                            fallos[nota.name] += 1
            try:
                suyos, respuestas = _detalles(raiz / "autograded" / s.id / tarea / cuaderno(tarea))
            except Exception as e:  # lo que sea que traiga su cuaderno: solo pierde sus detalles
                estudiante["detalles"] = "sus detalles no se han podido leer (%s)" % type(e).__name__
                continue
            if suyos is not None:
                con_diagnosticos += 1
                diagnosticos.update(suyos)
                for d in suyos:
                    quienes[d].append(s.id)
            for n, respuesta in respuestas.items():
                elecciones[n].update(opciones_elegidas(respuesta))
    no_corregidos += [{"id": e.estudiante, "nombre": "", "motivo": "carpeta apartada: " + e.apartada}
                      for e in entregas(raiz, tarea) if e.apartada]
    return {"tarea": tarea, "maximo": maximo, "estudiantes": sorted(estudiantes, key=lambda e: e["id"]),
            "fallos": fallos, "pruebas": dict(sorted(pruebas.items(), key=lambda p: _orden_de_prueba(p[0]))),
            "diagnosticos": diagnosticos, "con_diagnosticos": con_diagnosticos, "quienes": quienes,
            "elecciones": elecciones, "no_corregidos": sorted(no_corregidos, key=lambda e: e["id"]),
            "sin_entrega": len(sin_entrega), "sin_entrega_quienes": sin_entrega}


def _detalles(ruta):
    """(sus equivocaciones, cada una una vez, o None si su cuaderno no trae diagnósticos; {pregunta: respuesta})
    del cuaderno corregido de un estudiante.

    Se lee con los topes de una entrega (course/aislado/entrada.leer_cuaderno), sin validarlo.
    """
    if not ruta.exists():
        return None, {}
    datos, problema = leer_cuaderno(str(ruta))
    if problema:
        raise ValueError(problema)
    nb = rejoin_lines(nbformat.from_dict(datos))  # el código y las salidas en un texto, como los deja nbformat.read
    listas = [c.metadata.get("curso", {}).get("diagnosticos") for c in nb.cells if _grade_id(c).startswith("ejecutar-")]
    listas = [l for l in listas if isinstance(l, list)]
    suyos = sorted({str(d)[:80] for l in listas for d in l}) if listas else None
    return suyos, respuestas_del_cuaderno(nb)


def _orden_de_prueba(grade_id):
    return (not grade_id.startswith("pregunta-"), grade_id)


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


def escribir_informe(raiz=RAIZ, tarea=TAREA):
    """Escribe exports/informe.html, el informe de `tarea`, y devuelve su ruta."""
    raiz = Path(raiz)
    destino = raiz / "exports" / "informe.html"
    destino.parent.mkdir(parents=True, exist_ok=True)
    destino.write_text(html_del_informe(datos_de_la_clase(raiz, tarea), raiz), encoding="utf-8")
    return destino


if __name__ == "__main__":
    opciones = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opciones.add_argument("raiz", nargs="?", type=Path, default=RAIZ, help="la raíz del curso")
    opciones.add_argument("--tarea", default=TAREA, help="la tarea (por defecto, %s)" % TAREA)
    a = opciones.parse_args()
    print(escribir_informe(a.raiz, a.tarea))
