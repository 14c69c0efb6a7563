"""Las predicciones de «Predice y ejecuta»: se apuntan antes de ejecutar y se comparan con lo que ha pasado.

Como los demás widgets, cada predicción lleva su copia en HTML, sin JavaScript: lo apuntado y la
comparación quedan en el cuaderno guardado, y se ven sin núcleo.
"""

from .mostrar import AVISO, BIEN, CAJA, ConCopia, con_codigo, escapar


class Prediccion(ConCopia):
    """Una pregunta con sus opciones: se elige una y se apunta; `comparar` la pone al lado de lo que ha pasado."""

    def __init__(self, pregunta, opciones):
        import ipywidgets as w
        self.pregunta = pregunta
        # Cada opción es un valor (lo que `comparar` recibe) con su texto; una lista de textos vale por los dos.
        self.opciones = dict(opciones) if isinstance(opciones, dict) else {o: o for o in opciones}
        self.apuntada, self.pasado, self._pantalla = None, None, None
        self.eleccion = w.RadioButtons(options=[(t, v) for v, t in self.opciones.items()], value=None,
                                       layout=w.Layout(width="max-content"))
        self.boton = w.Button(description="Apuntar", button_style="primary")
        self.estado = w.HTML()
        self.caja = w.VBox([w.HTML("<b>%s</b>" % con_codigo(pregunta)), self.eleccion, self.boton, self.estado])
        self.boton.on_click(lambda _: self.apuntar())
        self._dibujar()

    def apuntar(self):
        """Apunta la opción elegida. Ya no se cambia: una predicción se hace antes de ver lo que pasa."""
        if self.eleccion.value is None:
            self.estado.value = '<div style="%s">Elige una opción antes de apuntarla.</div>' % AVISO
            return
        self.apuntada = self.eleccion.value
        self._dibujar()

    def comparar(self, pasado):
        """Escribe lo apuntado junto a `pasado`, lo que ha pasado, y lo deja también en la copia guardada."""
        self.pasado = pasado
        print(self._frase())
        self._dibujar()

    def _frase(self):
        paso = self.opciones.get(self.pasado, self.pasado)
        if self.apuntada is None:
            return "Predicción: no la has apuntado. Ha pasado esto: %s." % paso
        if self.apuntada == self.pasado:
            return "✔ Predicción: %s. Es lo que ha pasado." % paso
        return "✘ Predicción: %s. Ha pasado otra cosa: %s." % (self.opciones[self.apuntada], paso)

    def _dibujar(self):
        cerrada = self.apuntada is not None or self.pasado is not None
        self.eleccion.disabled = self.boton.disabled = cerrada
        if self.apuntada is not None and self.eleccion.value != self.apuntada:
            self.eleccion.value = self.apuntada
        self.estado.value = self._estado_html()
        if self._pantalla is not None:
            self._pantalla.update(self)

    def _estado_html(self):
        if self.pasado is not None:
            acierta = self.apuntada is not None and self.apuntada == self.pasado
            otra_vez = "" if self.apuntada is not None else (
                " Para predecir antes de verlo, vuelve a ejecutar esta celda, apunta y después ejecuta la siguiente.")
            return '<div style="%s">%s%s</div>' % (BIEN if acierta else AVISO, escapar(self._frase()), otra_vez)
        if self.apuntada is not None:
            return "<div>Apuntada. Ahora ejecuta la celda siguiente.</div>"
        return "<div><i>Elige una opción y pulsa «Apuntar»; después, ejecuta la celda siguiente.</i></div>"

    def html(self):
        opciones = "".join("<li>%s%s</li>" % (con_codigo(t), " <b>← tu predicción</b>" if v == self.apuntada else "")
                           for v, t in self.opciones.items())
        return '<div style="%s"><b>%s</b><ul>%s</ul>%s</div>' % (CAJA, con_codigo(self.pregunta), opciones,
                                                                 self._estado_html())

    def texto(self):
        if self.pasado is not None:
            return "%s %s" % (self.pregunta, self._frase())
        apuntada = self.opciones[self.apuntada] if self.apuntada is not None else "sin apuntar"
        return "%s Predicción: %s." % (self.pregunta, apuntada)


def predice(pregunta, opciones):
    """Enseña la pregunta de una predicción y devuelve el widget: después, `.comparar(lo_que_ha_pasado)`."""
    from IPython.display import display
    prediccion = Prediccion(pregunta, opciones)
    prediccion._pantalla = display(prediccion, display_id=True)
    return prediccion
