"""Los widgets del cuaderno: el explorador de idempotencia, el visor de conversaciones y un botón.

Cada uno se ve de dos maneras: con núcleo, como widget; sin él (en el HTML de nbconvert o de
nbgrader, o en JupyterLab al volver a abrir el cuaderno), como una copia en HTML con los estilos dentro
y sin JavaScript. ipywidgets se importa al
construir cada widget, no al importar el módulo: las copias no necesitan Jupyter. Los estilos y el
HTML que comparten con el cuestionario están en mostrar.py.
"""

import inspect

from ..bloques import bloques_de, es_un, muestra, problemas, roturas
from ..entorno import ENTORNO, FUNCIONES, HERRAMIENTAS
from ..idempotencia import añadir, añadir_y_fallar, una_y_dos
from .mostrar import AVISO, BIEN, CAJA, CAMBIADO, DISTINTO, ConCopia, en_codigo, escapar, tabla


# El explorador de idempotencia

# Las dos de comparar no son del entorno: ni esquema ni sitio en FUNCIONES. Sus campos salen de su firma.
_COMPARAR = {"añadir": añadir, "añadir_y_fallar": añadir_y_fallar}
_FUNCIONES = dict(FUNCIONES, **_COMPARAR)
_CAMPOS = {h["name"]: list(h["input_schema"]["properties"]) for h in HERRAMIENTAS}
_CAMPOS.update({n: list(inspect.signature(f).parameters)[1:] for n, f in _COMPARAR.items()})

# Con qué argumentos aparece cada herramienta al elegirla: los de las llamadas de la lección.
LECCION = {"leer": {"ruta": "lista.txt"}, "listar": {"carpeta": "recetas/"}, "buscar": {"patron": "patatas"},
           "escribir": {"ruta": "lista.txt", "contenido": "pan, leche, patatas, tomates"},
           "añadir": {"ruta": "lista.txt", "contenido": ", tomates"},
           "añadir_y_fallar": {"ruta": "lista.txt", "contenido": ", tomates"}}


def _firma(nombre, argumentos):
    return "%s(%s)" % (nombre, ", ".join("%s=%r" % par for par in argumentos.items()))


def _una_y_dos(nombre, argumentos):
    """Los entornos tras una y tras dos ejecuciones, y lo que dijo cada una de las tres (texto o excepción)."""
    dichos = []

    def apuntada(entorno, **argumentos):
        # Si la herramienta lanza, se apunta la excepción y se sigue: es lo que dijo esa ejecución.
        try:
            dichos.append(_FUNCIONES[nombre](entorno, **argumentos))
        except Exception as e:
            dichos.append(e)

    una, dos = una_y_dos(apuntada, **argumentos)
    return una, dos, dichos


def _veredicto(una, dos):
    if una == dos:
        return "idempotente: una y dos ejecuciones dejan el mismo entorno"
    distintos = ", ".join(r for r in sorted(una.keys() | dos.keys()) if una.get(r) != dos.get(r))
    return "no idempotente: dos ejecuciones no dejan lo mismo que una (cambia %s)" % distintos


def _fallos(nombre, una, dos, dichos):
    """Qué lanzó la herramienta, si lanzó algo, y qué quiere decir eso para el entorno."""
    fallos = [d for d in dichos if isinstance(d, Exception)]
    if not fallos:
        return []
    veces = ("en las tres ejecuciones: una en la primera copia y dos en la segunda" if len(fallos) == 3
             else "en %d de las tres ejecuciones" % len(fallos))
    frases = list(dict.fromkeys("%s lanzó %s: %s (%s)" % (nombre, type(e).__name__, e, veces) for e in fallos))
    if una == ENTORNO and dos == ENTORNO:
        return frases + ["El entorno queda como estaba: la llamada falló sin cambiar ningún fichero."]
    return frases + ["El entorno ha cambiado aunque la llamada falló: un error durante la ejecución "
                     "no garantiza que no se hiciera nada."]


def _resultado_html(nombre, argumentos):
    """Lo que deja una llamada: el veredicto, lo que lanzó si lanzó algo y los dos entornos lado a lado."""
    una, dos, dichos = _una_y_dos(nombre, argumentos)
    partes = ['<div style="margin: 4px 0">Llamada: %s</div>' % en_codigo(_firma(nombre, argumentos)),
              '<div style="%s"><b>%s</b></div>' % (BIEN if una == dos else AVISO, escapar(_veredicto(una, dos)))]
    partes += ['<div style="%s">%s</div>' % (AVISO, escapar(f)) for f in _fallos(nombre, una, dos, dichos)]
    if not isinstance(dichos[0], Exception):
        partes.append('<div style="margin: 4px 0">La primera ejecución devolvió: %s</div>' % en_codigo(repr(dichos[0])))
    filas = []
    for ruta in sorted(ENTORNO.keys() | una.keys() | dos.keys()):
        fila = [(en_codigo(ruta), None)]
        for entorno in (una, dos):
            if una.get(ruta) != dos.get(ruta):
                fondo = DISTINTO
            elif entorno.get(ruta) != ENTORNO.get(ruta):
                fondo = CAMBIADO
            else:
                fondo = None
            fila.append((en_codigo(entorno[ruta]) if ruta in entorno else "<i>no existe</i>", fondo))
        filas.append(fila)
    partes.append(tabla(("Fichero", "Tras una", "Tras dos"), filas))
    partes.append('<div style="font-size: 12px">Resaltado: <span style="background: %s">distinto de ENTORNO</span> · '
                  '<span style="background: %s">distinto entre una y dos</span></div>' % (CAMBIADO, DISTINTO))
    return "".join(partes)


class _Explorador(ConCopia):
    """El explorador: se elige una herramienta y sus argumentos, y se compara una ejecución con dos."""

    def __init__(self):
        import ipywidgets as w
        opciones = [(n if n in FUNCIONES else n + " (solo para comparar)", n) for n in LECCION]
        self.llamada = None  # la última que se ha probado: (nombre, argumentos)
        estilo = {"description_width": "7em"}
        self.herramienta = w.Dropdown(options=opciones, description="Herramienta", style=estilo,
                                      layout=w.Layout(width="30em"))
        # Con continuous_update=False el valor llega al núcleo al pulsar Enter (o al salir del campo).
        self.campos = {c: w.Text(description=c, continuous_update=False, style=estilo)
                       for c in dict.fromkeys(c for campos in _CAMPOS.values() for c in campos)}
        self.boton = w.Button(description="Ejecutar una y dos veces", button_style="primary",
                              layout=w.Layout(width="max-content", margin="4px 0 4px 7.5em"))
        self.salida = w.HTML()
        self.caja = w.VBox([self.herramienta, *self.campos.values(), self.boton, self.salida])
        self.herramienta.observe(lambda _: self._preparar(), "value")
        for campo in self.campos.values():
            campo.observe(lambda _: self.probar(), "value")
        self.boton.on_click(lambda _: self.probar())
        self._preparar()

    def _preparar(self):
        """Deja a la vista solo los campos de la herramienta elegida, con sus argumentos de la lección."""
        nombre = self.herramienta.value
        for campo, control in self.campos.items():
            control.layout.display = None if campo in _CAMPOS[nombre] else "none"
            control.value = LECCION[nombre].get(campo, control.value)
        self.probar()

    def probar(self):
        """Ejecuta la llamada de los controles una vez y dos, y enseña lo que deja."""
        nombre = self.herramienta.value
        self.llamada = (nombre, {c: self.campos[c].value for c in _CAMPOS[nombre]})
        self.salida.value = _resultado_html(*self.llamada)

    def html(self):
        return '<div style="%s">%s</div>' % (CAJA, self.salida.value)

    def texto(self):
        una, dos, _ = _una_y_dos(*self.llamada)
        return "Explorador de idempotencia: %s: %s; lista.txt tras dos: %s" % (
            _firma(*self.llamada), _veredicto(una, dos), dos.get("lista.txt"))


def explorador():
    """El explorador de idempotencia: una llamada, ejecutada una vez y dos sobre copias de ENTORNO."""
    return _Explorador()


# El visor de conversaciones

_ROLES = {"sistema": ("Sistema", "var(--jp-border-color1, #bdbdbd)", "rgba(158, 158, 158, 0.12)"),
          "usuario": ("Usuario", "#1e88e5", "rgba(30, 136, 229, 0.10)"),
          "asistente": ("Asistente", "#43a047", "rgba(67, 160, 71, 0.10)")}


def _pasos(M):
    """Los mensajes de cada paso, por su índice: el inicio, y luego cada turno del asistente con su respuesta."""
    pasos = [[]]
    for i, (rol, _) in enumerate(M):
        if rol == "asistente":
            pasos.append([])
        pasos[-1].append(i)
    return pasos


def _bloque_html(b, llamadas, avisos):
    """Un bloque; una observación dice a qué llamada contesta, y la de un error se ve en rojo."""
    if es_un(b, "text"):
        cuerpo = "<div>%s</div>" % escapar(b.get("text"))
    elif es_un(b, "tool_use"):
        cuerpo = "<div>llamada %s</div>" % en_codigo(muestra(b))
    elif es_un(b, "tool_result"):
        error, llamada = b.get("is_error") is True, llamadas.get(b.get("tool_use_id"))
        cuerpo = '<div style="%s">observación de <b>%s</b>%s, que contesta a %s<div>%s</div></div>' % (
            AVISO if error else "", escapar(b.get("tool_use_id")), " · <b>error</b>" if error else "",
            en_codigo(muestra(llamada)) if llamada else "<i>ninguna llamada</i>", en_codigo(b.get("content")))
    else:
        cuerpo = "<div>%s</div>" % en_codigo(muestra(b))
    return cuerpo + "".join('<div style="%s">⚠ %s</div>' % (AVISO, escapar(a)) for a in avisos)


def _mensajes_html(M, indices):
    """Una tarjeta por mensaje, con su rol, sus bloques y un aviso en cada cosa rota."""
    llamadas = {b.get("id"): b for i in range(len(M)) for b in bloques_de(M, i) if es_un(b, "tool_use")}
    rotas = roturas(M)
    tarjetas = []
    for i in indices:
        rol, contenido = M[i]
        nombre, borde, fondo = _ROLES.get(rol, (rol, "#9e9e9e", "none"))
        if isinstance(contenido, str):
            cuerpo = "<div>%s</div>" % escapar(contenido)
        else:
            cuerpo = "".join(_bloque_html(b, llamadas, [que for m, k, que in rotas if (m, k) == (i, j)])
                             for j, b in enumerate(bloques_de(M, i)))
        tarjetas.append('<div style="border-left: 4px solid %s; background: %s; padding: 4px 8px; margin: 6px 0">'
                        '<div style="font-size: 11px; opacity: 0.8">%s · mensaje %d</div>%s</div>'
                        % (borde, fondo, escapar(nombre), i + 1, cuerpo))
    return "".join(tarjetas)


def _cabecera_html(M, titulo):
    lista = problemas(M)
    if lista:
        estado = '<div style="%s"><b>⚠ Conversación rota</b>: %s</div>' % (AVISO, "; ".join(escapar(p) for p in lista))
    else:
        estado = '<div style="%s">Conversación sin roturas: cada llamada tiene su observación.</div>' % BIEN
    return ('<div style="font-weight: bold">%s</div>' % escapar(titulo) if titulo else "") + estado


class _Visor(ConCopia):
    """El visor: recorre la conversación turno a turno, o la enseña entera."""

    def __init__(self, M, titulo):
        import ipywidgets as w
        self.M, self.titulo, self.pasos, self.turno = list(M), titulo, _pasos(M), 0
        self.anterior, self.siguiente = w.Button(description="◀ Anterior"), w.Button(description="Siguiente ▶")
        # Con un ancho fijo, «Siguiente» no se mueve cuando la etiqueta se acorta: se puede pulsar seguido.
        self.etiqueta, self.todo = w.Label(layout=w.Layout(width="12em")), w.ToggleButton(description="Ver todo")
        self.cabecera, self.contenido = w.HTML(_cabecera_html(self.M, titulo)), w.HTML()
        self.caja = w.VBox([self.cabecera, w.HBox([self.anterior, self.etiqueta, self.siguiente, self.todo]),
                            self.contenido])
        self.anterior.on_click(lambda _: self.mover(-1))
        self.siguiente.on_click(lambda _: self.mover(+1))
        self.todo.observe(lambda _: self._dibujar(), "value")
        self._dibujar()

    def mover(self, cuanto):
        """Avanza (o retrocede, si `cuanto` es negativo) turnos, sin salirse de la conversación."""
        self.turno = min(max(self.turno + cuanto, 0), len(self.pasos) - 1)
        self._dibujar()

    def _dibujar(self):
        k, n, todo = self.turno, len(self.pasos) - 1, self.todo.value
        etiqueta = "turno %d de %d" % (k, n) + (" (el inicio)" if k == 0 else "")
        self.etiqueta.value = "todos los turnos" if todo else etiqueta
        self.anterior.disabled, self.siguiente.disabled = todo or k == 0, todo or k == n
        self.contenido.value = _mensajes_html(self.M, range(len(self.M)) if todo else self.pasos[k])

    def html(self):
        return '<div style="%s">%s%s</div>' % (CAJA, self.cabecera.value, _mensajes_html(self.M, range(len(self.M))))

    def texto(self):
        return "\n".join(([self.titulo] if self.titulo else []) + [muestra(m) for m in self.M]
                         + ["PROBLEMA " + p for p in problemas(self.M)])


def visor(M, titulo=None):
    """El visor de la conversación M, turno a turno; marca en rojo los errores y lo que esté roto."""
    return _Visor(M, titulo)


# Un botón para lo que no debe correr solo: ni con «Ejecutar todas las celdas», ni al validar, ni al corregir

class _AlPulsar(ConCopia):
    """Un botón (y, si se pide, una caja de texto) que llama a `accion` solo cuando alguien lo pulsa."""

    def __init__(self, descripcion, accion, encargo):
        import ipywidgets as w
        self.descripcion, self.accion = descripcion, accion
        self.encargo = None if encargo is None else w.Textarea(value=encargo, layout=w.Layout(width="100%"))
        self.boton = w.Button(description=descripcion, button_style="primary", layout=w.Layout(width="max-content"))
        self.salida = w.Output()
        self.caja = w.VBox([c for c in (self.encargo, self.boton, self.salida) if c is not None])
        self.boton.on_click(lambda _: self.pulsar())

    def pulsar(self):
        """Lo que pasa al pulsar: `accion` (con el texto de la caja, si la hay), y lo que enseñe, debajo."""
        self.boton.disabled = True  # una sola vez a la vez: cada pulsación puede costar dinero
        self.salida.clear_output()
        try:
            with self.salida:
                self.accion(*([self.encargo.value] if self.encargo is not None else []))
        finally:
            self.boton.disabled = False

    def html(self):
        return '<div style="%s">[botón «%s»: funciona con el cuaderno abierto en JupyterLab]</div>' % (
            CAJA, escapar(self.descripcion))

    def texto(self):
        return "[botón «%s»]" % self.descripcion


def al_pulsar(descripcion, accion, encargo=None):
    """Un botón que llama a `accion()` al pulsarlo; con `encargo`, una caja con ese texto y `accion(texto)`."""
    return _AlPulsar(descripcion, accion, encargo)
