"""El formgrader de nbgrader en español y con las notas que cuentan: una extensión de servidor de Jupyter.

nbgrader pinta las páginas del formgrader con plantillas de Jinja que toma del ajuste del servidor
`nbgrader_jinja2_env`, y la de corregir una entrega con el exportador de nbconvert del ajuste
`nbgrader_exporter`. Al arrancar el servidor, ya cargadas todas las extensiones, esta cambia los dos:
- las plantillas de plantillas/ van delante de las de nbgrader (un ChoiceLoader), y la de corregir
  es plantillas/corregir/; todas en español;
- sus páginas piden los guiones de nbgrader a GUIONES, donde se sirven con las cadenas de
  traduccion.po ya en español (el fichero instalado no se toca), y además curso.js y curso.css;
- curso.js lee de API/notas la nota que cuenta de cada entrega, la del CSV (exports/notas.csv):
  ya con el descuento por retraso, y «no corregido», con su motivo, donde no hay nota;
- la barra «Crear tarea» de JupyterLab (course/extension/crear_tarea.js) pregunta a API/puntos sobre
  cuántos puntos será la nota de un cuaderno de source/ una vez publicado.

Sin el formgrader de nbgrader activo (un estudiante) no hace nada. Lo que se apoya en ficheros de
nbgrader está en ORIGINALES, con su huella: tests/test_formgrader.py avisa si nbgrader los cambia.
"""

import functools
import json
import os
from pathlib import Path

AQUI = Path(__file__).resolve().parent
PLANTILLAS = AQUI / "plantillas"
GUIONES = "/curso-harness/formgrader/js"
API = "/curso-harness/formgrader/api"
PROPIOS = {"curso.js": "application/javascript", "curso.css": "text/css"}

# Los ficheros de nbgrader 0.9.6 de los que depende esto, por su huella (sha256). Si nbgrader cambia
# uno, hay que volver a mirar lo que se hace con él y apuntar la huella nueva:
# - sus manejadores (qué plantilla pinta cada página, con qué variables) y los ajustes que se cambian;
# - las plantillas del formgrader: las nuestras conservan sus bloques, id y clases;
# - sus guiones: se traducen con traduccion.po y curso.js envuelve sus vistas;
# - el trozo de su extensión de JupyterLab con la barra de crear tareas, que traduce crear_tarea.js.
ORIGINALES = {
    "server_extensions/formgrader/base.py":
        "1f30e653a00b73627399df00b85b86fd31a79ea885a6ab4a03eeb399d6d980ab",
    "server_extensions/formgrader/formgrader.py":
        "b0c4f143b96e8f007e2010428741b8b4fc27cd5557348f5ad704a03cc2c3661e",
    "server_extensions/formgrader/handlers.py":
        "8eb5692245b6bc368e82db61adaac66ee6df72d93f58610749396289e6cbe637",
    "server_extensions/formgrader/static/js/backbone_xsrf.js":
        "2ab315481ea25400d32e1901f1d866564f601747bba03661ff2ab82304fc6e2f",
    "server_extensions/formgrader/static/js/formgrade.js":
        "53db14a9ea4a17ffbeb11ebc5e5ccd392fec01f78b6290d26fc1f86a47d96cbb",
    "server_extensions/formgrader/static/js/formgrade_keyboardmanager.js":
        "4273e983197cc3947daa365808ea9f59651196a7a3920fe9323c83b50f870093",
    "server_extensions/formgrader/static/js/formgrade_models.js":
        "cf65a763c01f137e98e4786115b0bee116549973f811d5278daf40a9b5d8cebb",
    "server_extensions/formgrader/static/js/gradebook_assignments.js":
        "c886c6a5727f8c03a2c2ca419ffc9404196dffa37a62e79d2219766739917ef9",
    "server_extensions/formgrader/static/js/gradebook_notebook_submissions.js":
        "c8418c99ad5ae93f0e87c30b331c292aec42162e272f9816fe1089a36d206613",
    "server_extensions/formgrader/static/js/gradebook_notebooks.js":
        "bbc0efad0bb967892f650db5c4afad39f7d808b7f97300701c30f5e391d5c4cd",
    "server_extensions/formgrader/static/js/manage_assignments.js":
        "28668414f89c397fef9091cdebe90776563919cb9a4f28cf660d262be03fe554",
    "server_extensions/formgrader/static/js/manage_students.js":
        "14379bf5c7471fac3377f63ea5b5ec10ae70b073901e23553120e09db8c4a09f",
    "server_extensions/formgrader/static/js/manage_students_assignments.js":
        "c6d6e52b376aaac0e2bcfb87d68e2510b3785c78482b50f618d26d7a8f030764",
    "server_extensions/formgrader/static/js/manage_students_notebook_submissions.js":
        "b970149ba92067b5f54c2d3a84d59c4fbe3091bf2f7114acc1e3e48a4c138098",
    "server_extensions/formgrader/static/js/manage_submissions.js":
        "530b74e8c265089d8ae1f40f2cff442fd13bef79cb6236758a35aeca7158e06b",
    "server_extensions/formgrader/static/js/utils.js":
        "bf49532f75071613ab5439a3aaed26f89515634fc7e0e95f4729579cfec18272",
    "server_extensions/formgrader/templates/base.tpl":
        "d206a94d41438f2897d5f6355f34877637ba37e8e391f44394282d8ef4dd1835",
    "server_extensions/formgrader/templates/base_403.tpl":
        "2d198706be4e302ae09ac812a42dcd4ede2768da5aa3a98980756a95a1633bc7",
    "server_extensions/formgrader/templates/base_500.tpl":
        "e04e1f39b090c83c0e77d373c23dd0fe87ab4873177e3897548ebf874e26a53f",
    "server_extensions/formgrader/templates/formgrade/conf.json":
        "16413e85897de8b2f5a5c3367dabc5976261be3bdeeda16e4591e99c72b4a78a",
    "server_extensions/formgrader/templates/formgrade/formgrade_macros.html.j2":
        "5eed6cc257f4aa3ba233812d878f47b1435da3528c7dbcfb4dbf2da5b40ce30e",
    "server_extensions/formgrader/templates/formgrade/index.html.j2":
        "7a7a2c7539d2327c381f44cd7b37aa8965716d5c5bee5e98b38abaaccb65564f",
    "server_extensions/formgrader/templates/formgrade_404.tpl":
        "0eb265b320c3197ab3dece5a3a5dc87a79788bada0ca6a465979529d262814ca",
    "server_extensions/formgrader/templates/gradebook_assignments.tpl":
        "78460d266ac27b11cb84145fc48d4c23d1549f6df4020c4af302deced8f316a6",
    "server_extensions/formgrader/templates/gradebook_base.tpl":
        "8c26028a36dea407a755278c152ecec0dbe24367127061b17b45300979280cc2",
    "server_extensions/formgrader/templates/gradebook_notebook_submissions.tpl":
        "6ba31e53a5cd3c07a420dc6bfdddd7482f0cb239e956551b74e501ce30dd6018",
    "server_extensions/formgrader/templates/gradebook_notebooks.tpl":
        "82397c92104b1d186119c5d6913f1710cf3466a4804731610031e229adc47b84",
    "server_extensions/formgrader/templates/manage_assignments.tpl":
        "b0119b6950738c28afd5cb73f0302ce14b8188411962edda568b2cc758a56803",
    "server_extensions/formgrader/templates/manage_students.tpl":
        "0932178cf83a164e6524730cc4dbb4b3d52aeb8c5979b5563f881c4b716ef6e5",
    "server_extensions/formgrader/templates/manage_students_assignments.tpl":
        "cdb9b9ac6ccbca77753bebe4e19094b1b118dfa4be7f51c37672f56ac7013e88",
    "server_extensions/formgrader/templates/manage_students_base.tpl":
        "d186f462b0ee4271c01783218a74fcded90ef3bb2e9907c54c9f94c4417bebbb",
    "server_extensions/formgrader/templates/manage_students_notebook_submissions.tpl":
        "571edb1ad5a753a1c31833ef75b7a06a9ee8cc521a356c93f6693601139b4e68",
    "server_extensions/formgrader/templates/manage_submissions.tpl":
        "b482829c57d325ea0b05eccab8a6e6aed8c4788171704783c1c297d3926dca75",
    "labextension/static/161.290a640318af4049.js":
        "2b750db4bf124d21fce83bacafe078dd0c6573fb355708f7b96be5804d806cdc",
}


# --------------------------------------------------------------------------- la extensión de servidor

def _jupyter_server_extension_points():
    return [{"module": "course.formgrader"}]


def _load_jupyter_server_extension(serverapp):
    """Nada aún: nbgrader carga su formgrader después que esta (van por orden alfabético)."""


async def _start_jupyter_server_extension(serverapp):
    """Con todas las extensiones cargadas: las plantillas y el exportador en español, y las rutas propias."""
    instalar(serverapp.web_app, serverapp.log)


def instalar(webapp, log):
    """Pone en `webapp` el formgrader en español, si el de nbgrader está activo. Dice si lo ha hecho."""
    from jupyter_server.utils import url_path_join

    ajustes = webapp.settings
    if "nbgrader_jinja2_env" not in ajustes or "nbgrader_exporter" not in ajustes:
        log.info("curso-harness: el formgrader de nbgrader no está activo; el suyo en español, tampoco.")
        return False
    ajustes["nbgrader_jinja2_env"] = entorno_de_plantillas(ajustes["nbgrader_jinja2_env"].loader)
    ajustes["nbgrader_exporter"] = pagina_de_corregir(ajustes["nbgrader_exporter"].config)
    from . import manejadores

    base = ajustes.get("base_url", "/")
    webapp.add_handlers(".*$", [
        (url_path_join(base, GUIONES, r"([\w.]+)"), manejadores.Guion),
        (url_path_join(base, API, "notas"), manejadores.Notas),
        (url_path_join(base, API, "puntos"), manejadores.Puntos),
    ])
    log.info("curso-harness: el formgrader, en español (%s).", AQUI)
    return True


def entorno_de_plantillas(de_nbgrader):
    """El entorno de Jinja del formgrader: nuestras plantillas primero y, detrás, el cargador de nbgrader."""
    from jinja2 import ChoiceLoader, Environment, FileSystemLoader

    entorno = Environment(loader=ChoiceLoader([FileSystemLoader(str(PLANTILLAS)), de_nbgrader]))
    entorno.globals["GUIONES"] = GUIONES
    return entorno


def pagina_de_corregir(config):
    """El exportador de la página de corregir una entrega: la plantilla plantillas/corregir/.

    Lo que viene de la entrega (el HTML de sus salidas y de su Markdown) pasa por los mismos filtros que la
    retroalimentación (course/aislado/retroalimentacion.py: limpio, y el código coloreado con topes), y sus
    salidas JavaScript no se pintan: el profesor abre aquí cuadernos de cualquiera.
    """
    from nbconvert.exporters import HTMLExporter

    from ..aislado.retroalimentacion import FILTROS

    class PaginaDeCorregir(HTMLExporter):
        def from_notebook_node(self, nb, resources=None, **kw):
            return super().from_notebook_node(nb, dict(resources or {}, guiones=GUIONES), **kw)

    return PaginaDeCorregir(config=config, template_name="corregir", extra_template_basedirs=[str(PLANTILLAS)],
                            sanitize_html=True, filters=dict(FILTROS))


# --------------------------------------------------------------------------- los guiones, traducidos

def guiones_de_nbgrader():
    """La carpeta de los guiones del formgrader instalado."""
    from nbgrader.server_extensions.formgrader import handlers

    return Path(handlers.static_path) / "js"


@functools.cache
def catalogo():
    """{guion: [(cadena inglesa, cadena española)]} de traduccion.po."""
    from babel.messages.pofile import read_po

    with (AQUI / "traduccion.po").open("rb") as f:
        leido = read_po(f, locale="es_ES")
    por_guion = {}
    for mensaje in leido:
        if not (mensaje.id and mensaje.string):
            continue
        if "codigo" in mensaje.flags:  # un trozo del guion, tal cual
            par = (mensaje.id, mensaje.string)
        else:  # una cadena de JavaScript entera, con sus comillas
            par = (json.dumps(mensaje.id), json.dumps(mensaje.string, ensure_ascii=False))
        por_guion.setdefault(mensaje.context, []).append(par)
    return por_guion


def traducir(nombre, codigo):
    """(el guion `nombre` con sus cadenas en español, lo del catálogo que no se ha encontrado en él).

    Se cambia cada cadena entera de JavaScript, con sus comillas: "Save" sí, la palabra dentro de otra, no.
    """
    faltan = []
    for ingles, espanol in catalogo().get(nombre, []):
        if ingles not in codigo:
            faltan.append(ingles)
            continue
        codigo = codigo.replace(ingles, espanol)
    return codigo, faltan


@functools.lru_cache(maxsize=64)
def _servido(ruta, _cambio):
    codigo, faltan = traducir(ruta.name, ruta.read_text(encoding="utf-8"))
    return codigo.encode("utf-8"), tuple(faltan)


def guion(nombre):
    """(bytes, tipo, cadenas sin encontrar) del guion `nombre`: uno propio, o uno de nbgrader traducido; None si no hay."""
    if nombre in PROPIOS:
        return (AQUI / nombre).read_bytes(), PROPIOS[nombre], ()
    ruta = guiones_de_nbgrader() / nombre
    if not nombre.endswith(".js") or os.path.dirname(nombre) or not ruta.is_file():
        return None
    datos, faltan = _servido(ruta, ruta.stat().st_mtime_ns)
    return datos, "application/javascript", faltan


# --------------------------------------------------------------------------- las notas que cuentan

def notas_de_la_clase(raiz, db_url, config=None):
    """Lo que enseña curso.js: por tarea, su máximo y, por estudiante, la nota que cuenta, como en exports/notas.csv.

    {tarea: {"maximo", "media", "corregidas", "cuadernos": {cuaderno: media},
             "estudiantes": {id: {"estado", "motivo", y si está corregida: "puntos", "descuento", "nota",
                                  "cuadernos": {cuaderno: {"id", "puntos", "descuento", "nota"}}}}}}

    Cada tarea es la clase que leen el CSV, el informe y el LMS (course.estado.leer): el mismo estado, el
    mismo motivo y la misma nota (nota_con_descuento: puntos − descuento por retraso). Además, las carpetas
    de submitted/ de quien no está en el gradebook, que el formgrader también lista: sin corregir.
    """
    from nbgrader.api import Gradebook

    from ..estado import CORREGIDO, descuento_que_cuenta, descuentos_al_dia, entregas, estado, leer, nota_con_descuento

    if config is not None:  # una nota puesta a mano lleva el descuento por retraso que toca con ella
        with Gradebook(db_url) as gb:
            tareas = [t.name for t in gb.assignments]
        for tarea in tareas:
            descuentos_al_dia(db_url, tarea, config)
    datos = {}
    with Gradebook(db_url) as gb:
        for tarea in gb.assignments:
            clase = leer(raiz, tarea.name, gb, detalles=False)
            estudiantes = {}
            for e in clase.estudiantes:
                fila = estudiantes[e.id] = {"estado": e.situacion, "motivo": e.motivo}
                if e.situacion == CORREGIDO:
                    entrega = gb.find_submission(tarea.name, e.id)
                    fila.update(puntos=e.puntos, descuento=e.descuento or 0.0, nota=e.nota,
                                cuadernos={c.name: {"id": c.id, "puntos": c.score, "descuento": descuento_que_cuenta(c),
                                                    "nota": nota_con_descuento(c)} for c in entrega.notebooks})
            for carpeta in entregas(raiz, tarea.name):
                if carpeta.estudiante not in estudiantes:
                    situacion, motivo = estado(str(raiz), tarea.name, carpeta.estudiante, False)
                    estudiantes[carpeta.estudiante] = {"estado": situacion, "motivo": motivo}
            corregidas = [f for f in estudiantes.values() if "nota" in f]
            datos[tarea.name] = {
                "maximo": clase.maximo, "estudiantes": estudiantes, "corregidas": len(corregidas),
                "media": _media([f["nota"] for f in corregidas]),
                "cuadernos": {c.name: _media([f["cuadernos"][c.name]["nota"] for f in corregidas if c.name in f["cuadernos"]])
                              for c in tarea.notebooks},
            }
    return datos


def _media(valores):
    return sum(valores) / len(valores) if valores else None


# --------------------------------------------------------------------------- los puntos de un cuaderno de source/

def puntos_publicados(celdas, config=None):
    """Sobre cuántos puntos será la nota de un cuaderno de source/ una vez publicado, y por qué no son los suyos.

    `celdas`: las del cuaderno como las tiene JupyterLab ({"cell_type", "metadata"}; el texto no hace falta).
    Se le pasa el preprocesador del cuestionario con la configuración del curso (`config`), el mismo
    que `nbgrader generate_assignment`: en modo formativo quita las celdas `pregunta-*` y sus puntos.
    Da {"puntos": los de la versión publicada, "en_el_cuaderno": los de las celdas de source/,
        "fuera": [{"grade_id", "puntos"}] las que no llegan a publicarse, "modo": el del cuestionario}.
    """
    import nbformat

    from .. import grade_id
    from ..cuestionario import Cuestionario

    cuaderno = nbformat.v4.new_notebook()
    for celda in celdas:
        metadatos = celda.get("metadata") if isinstance(celda, dict) else None
        if not isinstance(metadatos, dict):
            continue
        nueva = nbformat.v4.new_markdown_cell if celda.get("cell_type") == "markdown" else nbformat.v4.new_code_cell
        cuaderno.cells.append(nueva(metadata=nbformat.from_dict(metadatos)))
    preprocesador = Cuestionario(config=config) if config is not None else Cuestionario()
    antes = [(grade_id(c), _puntos(c)) for c in cuaderno.cells if _puntos(c)]
    publicado, _ = preprocesador.preprocess(nbformat.from_dict(cuaderno), {})
    despues = [(grade_id(c), _puntos(c)) for c in publicado.cells if _puntos(c)]
    quedan = {g for g, _ in despues}
    return {"puntos": sum(p for _, p in despues), "en_el_cuaderno": sum(p for _, p in antes),
            "fuera": [{"grade_id": g, "puntos": p} for g, p in antes if g not in quedan], "modo": preprocesador.modo}


def _puntos(celda):
    """Los puntos que una celda suma a la nota: los de una celda que puntúa (grade) o de una tarea (task), como nbgrader."""
    nbgrader = celda.metadata.get("nbgrader", {})
    if not (nbgrader.get("grade") or nbgrader.get("task")):
        return 0.0
    try:
        return float(nbgrader.get("points") or 0)
    except (TypeError, ValueError):
        return 0.0
