"""Completa y corrige el español de JupyterLab en el entorno que lo ejecuta.

El paquete de idioma oficial (jupyterlab-language-pack-es-ES 4.5.post3) traduce solo un tercio
de las cadenas de JupyterLab 4.5 y tiene algunas cambiadas de sitio: menús como «Run» o «Tabs»,
el estado del kernel o la columna «Modified» se quedan en inglés. Los catálogos .po de esta
carpeta (uno por dominio: jupyterlab, notebook…) traen lo que falta y lo que se corrige.

Este guion los mezcla con los del paquete instalado: el .mo, con el que el servidor traduce
menús y ajustes, y el .json, que recibe el navegador. Guarda una copia de los originales
(«.original») y vuelve a mezclar desde ella, así que se puede ejecutar cuantas veces se quiera;
si pip reinstala el paquete, la siguiente ejecución parte de los ficheros nuevos.

Sin dependencias del curso, para que el paquete de los estudiantes lo lleve tal cual:
    python completar.py
"""

import datetime
import importlib.util
import io
import json
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

AQUI = Path(__file__).resolve().parent
IDIOMA = "es_ES"
PAQUETE = f"jupyterlab_language_pack_{IDIOMA}"
# En los metadatos del .json mezclado: si no está, el fichero es el del paquete, recién instalado.
MARCA = "x-curso-harness"
NO_SE_TRADUCE = "no-traducir"
# La fecha de creación de un catálogo que no trae ninguna de revisión (uno nuevo, sin .mo en el paquete).
FECHA = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def carpeta_del_paquete():
    """LC_MESSAGES del paquete de idioma de este Python, o None si no está instalado."""
    spec = importlib.util.find_spec(PAQUETE)
    if spec is None or not spec.origin:
        return None
    return Path(spec.origin).parent / "locale" / IDIOMA / "LC_MESSAGES"


def catalogos(carpeta=AQUI):
    """{dominio: Catalog} de los .po de `carpeta`."""
    leidos = {}
    for po in sorted(Path(carpeta).glob("*.po")):
        with po.open("rb") as f:
            leidos[po.stem] = read_po(f, locale=IDIOMA, domain=po.stem)
    return leidos


def traducciones(catalogo):
    """Los mensajes con traducción completa (los marcados «no-traducir» quedan fuera)."""
    for mensaje in catalogo:
        if not mensaje.id or NO_SE_TRADUCE in mensaje.flags:
            continue
        formas = mensaje.string if isinstance(mensaje.string, (list, tuple)) else [mensaje.string]
        if all(formas):
            yield mensaje


def clave_json(mensaje):
    """La clave de un mensaje en el .json de JupyterLab: «contexto\\x04id», o el id."""
    ident = mensaje.id[0] if isinstance(mensaje.id, (list, tuple)) else mensaje.id
    return f"{mensaje.context}\x04{ident}" if mensaje.context else ident


def _escribir_si_cambia(fichero, datos):
    if not fichero.exists() or fichero.read_bytes() != datos:
        fichero.write_bytes(datos)
        return True
    return False


def _originales(carpeta, dominio):
    """Rutas del .mo y el .json del paquete sin mezclar; las copia la primera vez (o tras una reinstalación)."""
    mo, js = carpeta / f"{dominio}.mo", carpeta / f"{dominio}.json"
    copia_mo, copia_js = carpeta / f"{dominio}.mo.original", carpeta / f"{dominio}.json.original"
    fresco = not js.exists() or MARCA not in json.loads(js.read_text(encoding="utf-8")).get("", {})
    if fresco:
        for fichero, copia in ((mo, copia_mo), (js, copia_js)):
            if fichero.exists():
                copia.write_bytes(fichero.read_bytes())
            elif copia.exists():
                copia.unlink()
    return copia_mo, copia_js


def completar_dominio(carpeta, dominio, nuestro):
    """Mezcla el Catalog `nuestro` con el dominio del paquete; devuelve si ha cambiado algo."""
    copia_mo, copia_js = _originales(carpeta, dominio)
    if copia_mo.exists():
        with copia_mo.open("rb") as f:
            mo = read_mo(f)
    else:
        mo = Catalog(locale=IDIOMA, domain=dominio)
    # Un .mo no guarda la fecha de creación, y babel pondría la de ahora (al minuto): con la de la última
    # revisión, mezclar otra vez un minuto después escribe los mismos bytes.
    mo.creation_date = mo.revision_date if isinstance(mo.revision_date, datetime.datetime) else FECHA
    if copia_js.exists():
        js = json.loads(copia_js.read_text(encoding="utf-8"))
    else:
        js = {"": {"domain": dominio, "language": IDIOMA.replace("_", "-"),
                   "plural_forms": mo.plural_forms, "version": dominio}}
    for mensaje in traducciones(nuestro):
        if mo.get(mensaje.id, mensaje.context) is not None:  # add() no cambia un mensaje que ya está
            mo.delete(mensaje.id, context=mensaje.context)
        mo.add(mensaje.id, mensaje.string, context=mensaje.context)
        formas = mensaje.string
        js[clave_json(mensaje)] = list(formas) if isinstance(formas, (list, tuple)) else [formas]
    js[""] = dict(js.get("", {}), **{MARCA: "completado"})
    binario = io.BytesIO()
    write_mo(binario, mo)
    cambiado = _escribir_si_cambia(carpeta / f"{dominio}.mo", binario.getvalue())
    texto = json.dumps(js, ensure_ascii=False, sort_keys=True).encode("utf-8")
    return _escribir_si_cambia(carpeta / f"{dominio}.json", texto) or cambiado


def completar(carpeta=None):
    """Completa todos los dominios con los .po de aquí. Devuelve cuántos ficheros ha reescrito."""
    carpeta = carpeta or carpeta_del_paquete()
    if carpeta is None:
        raise SystemExit(f"Falta el paquete de idioma ({PAQUETE}): pip install jupyterlab-language-pack-es-ES")
    return sum(completar_dominio(carpeta, dominio, catalogo) for dominio, catalogo in catalogos().items())


if __name__ == "__main__":
    completar()
    sys.exit(0)
