"""Las cadenas de la interfaz de JupyterLab que un entorno puede mostrar, y las que no tienen español.

Sirve al subir de versión JupyterLab o el paquete de idioma: `python -m course.traduccion.cadenas`
escribe, en formato .po, las cadenas sin traducción, listas para añadirlas a los catálogos de
esta carpeta. La prueba tests/test_idioma.py exige que no quede ninguna.

Las cadenas salen de donde las toma JupyterLab: las llamadas trans.__(), _p(), _n() y _np() de
los paquetes JavaScript de la aplicación y de sus extensiones, y las partes traducibles de los
esquemas de ajustes (títulos, descripciones, menús, barras de herramientas).
"""

import gettext
import json
import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from .completar import IDIOMA, NO_SE_TRADUCE, carpeta_del_paquete, catalogos

_LITERAL = r"""("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\$])*`)"""
_SEP = r"\s*,\s*"
LLAMADAS = {  # método de TranslationBundle → (expresión, tiene contexto, tiene plural)
    "__": (re.compile(r"\.__\(\s*" + _LITERAL + r"\s*[,)]"), False, False),
    "_p": (re.compile(r"\._p\(\s*" + _LITERAL + _SEP + _LITERAL + r"\s*[,)]"), True, False),
    "_n": (re.compile(r"\._n\(\s*" + _LITERAL + _SEP + _LITERAL), False, True),
    "_np": (re.compile(r"\._np\(\s*" + _LITERAL + _SEP + _LITERAL + _SEP + _LITERAL), True, True),
}
DOMINIO = re.compile(r"""\.load\(\s*["']([A-Za-z0-9_]+)["']\s*\)""")


def _texto(literal):
    """El valor de un literal de cadena de JavaScript."""
    if literal[0] == '"':
        return json.loads(literal)
    cuerpo = literal[1:-1]
    return json.loads('"' + cuerpo.replace('"', '\\"').replace("\\" + literal[0], literal[0]) + '"')


def _del_javascript(fichero, dominio):
    codigo = fichero.read_text(encoding="utf-8", errors="ignore")
    if dominio is None:  # una extensión: el dominio que carga y que no es el de JupyterLab
        propios = sorted(set(DOMINIO.findall(codigo)) - {"jupyterlab"})
        dominio = propios[0] if propios else "jupyterlab"
    for expresion, con_contexto, con_plural in LLAMADAS.values():
        for trozo in expresion.finditer(codigo):
            partes = [_texto(x) for x in trozo.groups()]
            contexto = partes.pop(0) if con_contexto else ""
            yield (dominio, contexto, partes[0]), (partes[1] if con_plural else None)


def _del_esquema(fichero):
    # Qué partes de un esquema se traducen lo decide jupyterlab_server con esta función, que no es
    # pública: lo único público (translator.translate_schema) devuelve el esquema ya traducido y no
    # dice qué cadenas ha buscado. Si cambia, tests/test_idioma.py deja de encontrar las cadenas y falla.
    from jupyterlab_server.translation_utils import _prepare_schema_patterns

    esquema = json.loads(fichero.read_text(encoding="utf-8"))
    patrones = _prepare_schema_patterns(esquema)

    def recorrer(valor, ruta):
        if isinstance(valor, str):
            for patron, contexto in patrones.items():
                if patron.fullmatch(ruta):
                    yield ("jupyterlab", contexto, valor), None
                    break
        elif isinstance(valor, dict):
            for clave, dentro in valor.items():
                yield from recorrer(dentro, f"{ruta}/{clave}")
        elif isinstance(valor, list):
            for i, dentro in enumerate(valor):
                if isinstance(dentro, dict):
                    yield from recorrer(dentro, f"{ruta}[{i}]")

    if isinstance(esquema, dict):
        yield from recorrer(esquema, "")


def cadenas_de_jupyterlab(prefijo=sys.prefix):
    """{(dominio, contexto, id): plural o None} de todo lo traducible del JupyterLab de `prefijo`."""
    lab = Path(prefijo) / "share" / "jupyter"
    cadenas = {}
    fuentes = [(f, "jupyterlab") for f in sorted((lab / "lab" / "static").glob("*.js"))]
    fuentes += [(f, None) for f in sorted((lab / "labextensions").rglob("*.js"))]
    for fichero, dominio in fuentes:
        cadenas.update(_del_javascript(fichero, dominio))
    for base in (lab / "lab" / "schemas", lab / "labextensions"):
        for fichero in sorted(base.rglob("*.json")):
            if "schemas" in fichero.parts:
                cadenas.update(_del_esquema(fichero))
    return cadenas


def sin_traducir(prefijo=sys.prefix, carpeta=None):
    """Las cadenas de `cadenas_de_jupyterlab` sin español en el paquete instalado (ya completado),
    salvo las que los catálogos marcan «no-traducir»."""
    carpeta = carpeta or carpeta_del_paquete()
    marcadas = {(dominio, m.context or "", m.id if isinstance(m.id, str) else m.id[0])
                for dominio, catalogo in catalogos().items() for m in catalogo
                if m.id and NO_SE_TRADUCE in m.flags}
    instalados = {}
    faltan = {}
    for (dominio, contexto, ident), plural in cadenas_de_jupyterlab(prefijo).items():
        if not ident.strip():  # una etiqueta vacía: no hay nada que traducir
            continue
        if dominio not in instalados:
            mo = carpeta / f"{dominio}.mo"
            instalados[dominio] = gettext.GNUTranslations(mo.open("rb"))._catalog if mo.exists() else {}
        clave = f"{contexto}\x04{ident}" if contexto else ident
        if plural is not None:
            clave = (clave, 0)
        if not instalados[dominio].get(clave) and (dominio, contexto, ident) not in marcadas:
            faltan[(dominio, contexto, ident)] = plural
    return faltan


def main():
    faltan = sin_traducir()
    for dominio in sorted({d for d, _, _ in faltan}):
        catalogo = Catalog(locale=IDIOMA, domain=dominio)
        for (d, contexto, ident), plural in sorted(faltan.items()):
            if d == dominio:
                catalogo.add((ident, plural) if plural else ident, ("", "") if plural else "",
                             context=contexto or None)
        sys.stdout.buffer.write(f"# dominio: {dominio}\n".encode())
        write_po(sys.stdout.buffer, catalogo, omit_header=True, width=0)
        sys.stdout.buffer.flush()
    print(f"{len(faltan)} cadenas sin traducir", file=sys.stderr)
    return 1 if faltan else 0


if __name__ == "__main__":
    sys.exit(main())
