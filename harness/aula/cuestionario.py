"""El cuestionario en el cuaderno: cómo se escribe cada respuesta y el widget que la comprueba al momento.

La clave no vive aquí. En modo formativo cada pregunta la trae en su propia celda; en modo
calificado solo la tiene el corrector del profesor, que usa `interpretar` para leer las respuestas
igual que la comprobación visible del cuaderno.
"""

import re
import traceback

from .mostrar import AVISO, BIEN, CAJA, ConCopia, con_codigo, escapar

LETRAS = ("a", "b", "c", "d")
# Qué se contesta en cada pregunta: una letra, verdadero o falso, o varias letras.
FORMAS = {1: "letra", 2: "letra", 3: "verdad", 4: "letras"}


class FormatoNoValido(ValueError):
    """La respuesta no está escrita como pide su pregunta; el mensaje dice cómo escribirla."""

    def _render_traceback_(self):
        return ["✘ " + str(self)]


def interpretar(n, respuesta):
    """La respuesta de la pregunta `n`, normalizada: una letra, True o False, o un frozenset de letras."""
    forma = FORMAS[n]
    if forma == "verdad":
        if isinstance(respuesta, bool):
            return respuesta
        raise FormatoNoValido("la respuesta debe ser True (verdadero) o False (falso), sin comillas. "
                              "Has escrito %r." % (respuesta,))
    if forma == "letra":
        if isinstance(respuesta, str) and respuesta.strip().lower() in LETRAS:
            return respuesta.strip().lower()
        raise FormatoNoValido("la respuesta debe ser una sola letra entre comillas: \"a\", \"b\", \"c\" o \"d\". "
                              "Has escrito %r." % (respuesta,))
    letras = _trozos(respuesta)
    if letras is None or not all(isinstance(t, str) and t.strip().lower() in LETRAS for t in letras):
        raise FormatoNoValido("la respuesta debe ser un conjunto de letras entre \"a\" y \"d\", por ejemplo "
                              "{\"a\", \"b\"} o \"a, b\", y set() si no marcas ninguna. Has escrito %r." % (respuesta,))
    return frozenset(t.strip().lower() for t in letras)


def _trozos(respuesta):
    """Las letras de una respuesta de varias: de un set, una lista, una tupla o un texto como "a, d"."""
    if isinstance(respuesta, str):
        trozos = respuesta.replace(",", " ").replace(";", " ").split()
        return list(trozos[0]) if len(trozos) == 1 else trozos  # "ad" también son dos letras
    if isinstance(respuesta, (set, frozenset, list, tuple)):
        return list(respuesta)
    return None


def revisar_formato(nombre):
    """La comprobación visible de una respuesta: solo el formato. Si es la buena, se sabe al corregir."""
    from IPython import get_ipython
    n = int(nombre.rsplit("_", 1)[1])
    espacio = get_ipython().user_ns
    if nombre not in espacio:
        raise FormatoNoValido("%s aún no existe: escribe tu respuesta en la celda de arriba y ejecútala antes "
                              "que esta." % nombre)
    try:
        interpretar(n, espacio[nombre])
    except FormatoNoValido as e:
        raise FormatoNoValido("%s: %s" % (nombre, e)) from None
    print("El formato de %s es válido. Si es la respuesta buena, lo sabrás cuando se corrija la entrega." % nombre)


def _pista_sin_comillas(shell, tipo, valor, traza, tb_offset=None):
    """Un NameError por escribir una letra o un booleano sin comillas en una respuesta (`respuesta_N = c`)
    recibe una pista en español. Los demás, también los del desafío, se ven como siempre."""
    nombre = getattr(valor, "name", None) or ""
    marcos = traceback.extract_tb(traza) if traza is not None else []
    if not (marcos and re.match(r"respuesta_\d+\s*=", (marcos[-1].line or "").strip())):
        return shell.showtraceback((tipo, valor, traza), tb_offset=tb_offset)
    if nombre.lower() in LETRAS:
        pista = "Python ha leído %s como una variable. Escribe la letra entre comillas: \"%s\"." % (nombre, nombre.lower())
    elif nombre in ("true", "false", "verdadero", "falso", "Verdadero", "Falso"):
        pista = "Para verdadero o falso se escribe True o False, con mayúscula y sin comillas."
    else:
        return shell.showtraceback((tipo, valor, traza), tb_offset=tb_offset)
    # IPython enseña las líneas de `_render_traceback_` en lugar de la traza (como las de NoPasa).
    valor._render_traceback_ = lambda: ["✘ NameError: %s no está definido. %s" % (nombre, pista)]
    return shell.showtraceback((tipo, valor, traza), tb_offset=tb_offset)


def _instalar_pista():
    from IPython import get_ipython
    shell = get_ipython()
    if shell is not None:
        shell.set_custom_exc((NameError,), _pista_sin_comillas)


_instalar_pista()  # al importar el cuestionario en un cuaderno; fuera de IPython no hace nada


# El widget de una pregunta (modo formativo)

RESPUESTA_MIME = "application/vnd.curso.respuesta+json"  # la última respuesta comprobada, para informes


def _nombre(clave):
    return {True: "verdadero", False: "falso"}.get(clave, clave) if isinstance(clave, bool) else clave + ")"


def veredicto(marcadas, correctas, explicaciones, varias):
    """(si acierta, líneas de explicación) para las opciones marcadas; las de varias, a todo o nada."""
    acierta = set(marcadas) == set(correctas)
    lineas = ["%s %s" % (_nombre(c), explicaciones[c]) for c in explicaciones if c in marcadas]
    if varias and not acierta:
        lineas.append("Se corrige a todo o nada: revisa también las opciones que no has marcado.")
    return acierta, lineas


class _Pregunta(ConCopia):
    """Opciones, un botón «Comprobar» y el veredicto al momento, con la explicación de cada opción marcada."""

    def __init__(self, numero, opciones, correctas, explicaciones, varias):
        import ipywidgets as w
        self.numero, self.opciones, self.correctas = numero, opciones, set(correctas)
        self.explicaciones, self.varias, self.marcadas, self._pantalla = explicaciones, varias, None, None
        # La casilla lleva la letra (o «verdadero», «falso») y el texto va al lado, en HTML, para que una opción
        # larga se lea entera. La casilla, tan ancha como su nombre: con un ancho fijo, «verdadero» se cortaba.
        self.casillas = {c: w.Checkbox(value=False, indent=False, description=_nombre(c),
                                       layout=w.Layout(width="max-content", min_width="3.5em", flex="0 0 auto"))
                         for c in opciones}
        filas = [w.HBox([self.casillas[c], w.HTML(con_codigo(texto))]) for c, texto in opciones.items()]
        for clave, casilla in self.casillas.items():
            casilla.observe(lambda cambio, clave=clave: self._elegir(clave, cambio["new"]), "value")
        self.boton = w.Button(description="Comprobar", button_style="primary")
        self.salida = w.HTML()
        ayuda = "Marca todas las que creas correctas." if varias else "Marca una."
        self.caja = w.VBox([w.HTML("<i>%s</i>" % ayuda), *filas, self.boton, self.salida],
                           layout=w.Layout(width="100%"))
        self.caja.add_class("cuestionario")
        self.boton.on_click(lambda _: self.contestar())

    def _elegir(self, clave, marcada):
        if marcada and not self.varias:  # de una sola: marcar una desmarca las demás
            for otra, casilla in self.casillas.items():
                if otra != clave:
                    casilla.value = False

    def contestar(self):
        """Enseña el veredicto de lo marcado y lo deja también en la copia que se guarda con el cuaderno."""
        marcadas = [c for c, casilla in self.casillas.items() if casilla.value]
        if not marcadas and not self.varias:
            self.salida.value = '<div style="%s">Marca una opción antes de comprobar.</div>' % AVISO
            return
        self.marcadas = marcadas
        self.salida.value = self._veredicto_html()
        if self._pantalla is not None:
            self._pantalla.update(self)

    def _veredicto_html(self):
        acierta, lineas = veredicto(self.marcadas, self.correctas, self.explicaciones, self.varias)
        marcadas = ", ".join(_nombre(c).rstrip(")") for c in self.marcadas) or "ninguna"
        return '<div style="%s"><b>%s</b> (has marcado: %s)%s</div>' % (
            BIEN if acierta else AVISO, "✔ Correcto." if acierta else "✘ No es correcto.", escapar(marcadas),
            "".join("<div>%s</div>" % con_codigo(l) for l in lineas))

    def html(self):
        """La copia sin núcleo: las opciones, lo que se marcó y las explicaciones."""
        opciones = "".join("<li>%s %s</li>" % (escapar(_nombre(c)), con_codigo(t)) for c, t in self.opciones.items())
        if self.marcadas is not None:
            final = self._veredicto_html()
        else:
            final = "<div><i>Sin comprobar.</i> Las explicaciones de cada opción:</div><ul>%s</ul>" % "".join(
                "<li>%s %s%s</li>" % (escapar(_nombre(c)), "<b>(correcta)</b> " if c in self.correctas else "",
                                      con_codigo(self.explicaciones[c])) for c in self.opciones)
        return '<div style="%s"><ul>%s</ul>%s</div>' % (CAJA, opciones, final)

    def texto(self):
        return "Pregunta %d del cuestionario" % self.numero

    def _repr_mimebundle_(self, **kwargs):
        datos = super()._repr_mimebundle_(**kwargs)
        if self.marcadas is not None:
            datos[RESPUESTA_MIME] = {"pregunta": self.numero, "respuesta": self.marcadas}
        return datos


def pregunta(numero, opciones, correctas, explicaciones, varias=False):
    """Enseña la pregunta `numero` como widget de autocomprobación (modo formativo)."""
    from IPython.display import display
    widget = _Pregunta(numero, opciones, correctas, explicaciones, varias)
    widget._pantalla = display(widget, display_id=True)
