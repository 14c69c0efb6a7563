"""Las etiquetas en inglés que un estudiante o un profesor no debe ver, sacadas de lo instalado.

- De JupyterLab: cada cadena traducible que tiene un español distinto (si sale tal cual, ahí no
  se ha traducido).
- De nbgrader: las que su extensión de JupyterLab escribe sin traductor (botones, títulos,
  diálogos, la lista de tareas), leídas de sus ficheros .js.
- De JupyterHub: los textos de sus plantillas (entrar, arrancar el servidor, salir...).
- Del formgrader de nbgrader: los textos de sus plantillas, las cadenas de sus guiones y las de
  DataTables, con el que pinta sus tablas.

Una línea de la página que sea exactamente una de ellas es inglés a la vista. Las cadenas de un guion
que se pegan a otro texto («Editing " + nombre») son trozos: una línea que contenga uno también lo es.
"""

import gettext
import re
from html.parser import HTMLParser
from pathlib import Path

from course.traduccion import cadenas, completar


def _instalado(dominio):
    with (completar.carpeta_del_paquete() / f"{dominio}.mo").open("rb") as f:
        return gettext.GNUTranslations(f)


def de_jupyterlab():
    """Las cadenas de JupyterLab cuya traducción es distinta del original."""
    traducciones = {dominio: _instalado(dominio) for dominio in ("jupyterlab", "notebook")}
    ingles = set()
    for (dominio, contexto, ident), plural in cadenas.cadenas_de_jupyterlab().items():
        if dominio not in traducciones:
            continue
        t = traducciones[dominio]
        if plural is not None:
            vertidas = {ident: t.ngettext(ident, plural, 1), plural: t.ngettext(ident, plural, 2)}
        else:
            vertidas = {ident: t.pgettext(contexto, ident) if contexto else t.gettext(ident)}
        ingles |= {original for original, espanol in vertidas.items() if espanol != original}
    return ingles


# Cómo escribe sus textos la extensión de nbgrader (0.9), ya compilada: propiedades con una cadena,
# HTML dentro de cadenas (con \n escapados) y pares ["clave","Texto"] de sus desplegables.
_NBGRADER = [
    re.compile(r'(?:innerText|textContent|label|title|caption|tooltip|placeholder|body)\s*[:=]\s*"([^"\\]{2,})"'),
    re.compile(r'>(?:\\n|\s)*([A-Za-z][^<>"\\]*?)(?:\\n|\s)*<'),
    re.compile(r'\["[a-z_]*","([A-Z][^"\\]+)"\]'),
]


def de_nbgrader(prefijo):
    """Los textos de la extensión de JupyterLab de nbgrader instalada en el entorno `prefijo`."""
    textos = set()
    for js in Path(prefijo).glob("lib/python3*/site-packages/nbgrader/labextension/static/*.js"):
        codigo = js.read_text(encoding="utf-8", errors="replace")
        for patron in _NBGRADER:
            textos |= {m.group(1).strip() for m in patron.finditer(codigo)}
    return {t for t in textos if re.search(r"[A-Za-z]{3}", t) and "(" not in t[:1]}


class _Textos(HTMLParser):
    def __init__(self):
        super().__init__()
        self.textos = set()
        self._guion = False

    def handle_starttag(self, etiqueta, atributos):
        self._guion = etiqueta in ("script", "style")
        for nombre, valor in atributos:
            if nombre in ("title", "value", "placeholder", "aria-label") and valor:
                self.textos.add(valor)

    def handle_endtag(self, etiqueta):
        self._guion = False

    def handle_data(self, datos):
        if not self._guion:
            self.textos.add(datos)


def de_jupyterhub(prefijo):
    """Los textos de las plantillas de JupyterHub instaladas en el entorno `prefijo`."""
    return _de_plantillas(Path(prefijo).glob("share/jupyterhub/templates/*.html"))


def _de_plantillas(plantillas):
    """Los textos (líneas, y atributos que se leen) de unas plantillas de Jinja, sin sus expresiones."""
    textos = set()
    for plantilla in plantillas:
        lector = _Textos()
        lector.feed(re.sub(r"{[{%#].*?[}%#]}", "\n", plantilla.read_text(encoding="utf-8"), flags=re.S))
        textos |= lector.textos
    lineas = {" ".join(l.split()) for t in textos for l in t.splitlines()}
    return {l for l in lineas if re.search(r"[A-Za-z]{3}", l) and not l.startswith(("http", "/"))}


# Una cadena de JavaScript entre comillas dobles y, si lo hay, el `+` que la pega a otro texto por delante o por detrás.
_CADENA = re.compile(r'(\+\s*)?"((?:[^"\\\n]|\\.)*)"(\s*\+)?')
# Lo que en los guiones del formgrader es código y no texto: clases, selectores, eventos, rutas, etiquetas HTML.
_CODIGO = re.compile(r"^(?:[a-z0-9_.#:>/-]+(?: [a-z0-9_.#:>/-]+)*|<.*>|.*[{}=].*)$")


def de_formgrader(prefijo):
    """(enteros, trozos): los textos del formgrader de nbgrader instalado en el entorno `prefijo`.

    `enteros`: los de sus plantillas (las páginas y la de corregir), las cadenas de sus guiones que
    empiezan por mayúscula o tienen varias palabras, y los textos de DataTables. `trozos`: las cadenas de
    sus guiones que se pegan a otro texto con `+`, sin las comillas y los espacios de los lados.
    """
    formgrader = next(Path(prefijo).glob("lib/python3*/site-packages/nbgrader/server_extensions/formgrader"))
    enteros = _de_plantillas([*formgrader.glob("templates/*.tpl"), *formgrader.glob("templates/formgrade/*.j2")])
    for plantilla in formgrader.glob("templates/**/*"):  # las ayudas que ponen sus guiones: tooltip({title: "..."})
        if plantilla.is_file():
            enteros |= set(re.findall(r'title:\s*"([^"]+)"', plantilla.read_text(encoding="utf-8")))
    trozos = set()
    for guion in formgrader.glob("static/js/*.js"):
        codigo = guion.read_text(encoding="utf-8")
        enteros |= set(re.findall(r'\.(?:text|html)\(\s*"([^"\\]+)"\s*\)', codigo))  # se pinta tal cual: "draft"
        for delante, cadena, detras in _CADENA.findall(codigo):
            texto = cadena.strip(" '")
            if not re.search(r"[A-Za-z]{2}", texto) or _CODIGO.match(texto) and " " not in texto.strip():
                continue
            if delante or detras:
                trozos.add(texto)
            elif texto[:1].isupper() or " " in texto and not _CODIGO.match(texto):
                enteros.add(texto)
    datatables = formgrader / "static/node_modules/datatables.net/js/jquery.dataTables.js"
    enteros |= {t for t in re.findall(r'"s[A-Z]\w*":\s*"([^"_]*[A-Za-z]{3}[^"_]*)"', datatables.read_text(encoding="utf-8"))}
    return {t.strip() for t in enteros if t.strip()}, {t for t in trozos if re.search(r"[A-Za-z]{3}", t)}


def a_la_vista_con_trozos(textos, enteros, trozos):
    """Las líneas de `textos` que son una de `enteros` o contienen uno de `trozos` (como palabras enteras)."""
    patron = re.compile(r"(?<!\w)(?:%s)(?!\w)" % "|".join(map(re.escape, sorted(trozos, key=len, reverse=True)))) if trozos else None
    lineas = {l.strip() for t in textos for l in t.splitlines() if l.strip()}
    return sorted(l for l in lineas if l in enteros or patron is not None and patron.search(l))


def a_la_vista(textos, conocidas):
    """Las líneas de `textos` que son exactamente una etiqueta inglesa de `conocidas`."""
    return sorted({l.strip() for t in textos for l in t.splitlines() if l.strip() in conocidas})
