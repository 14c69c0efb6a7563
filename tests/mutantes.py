"""Mutantes del `ejecutar` de referencia: la solución del cuaderno fuente con una equivocación, o con dos.

Como en las pruebas de mutación (mutmut, cosmic-ray), cada operador cambia el árbol sintáctico de un
código que funciona (quita o altera una cláusula del contrato), pero aquí el código mutado es la
respuesta de un estudiante y lo que se pone a prueba es el corrector. Cada operador declara qué
equivocación introduce y qué rompe de la rúbrica (la cláusula donde resta, si deja sin respuesta las
llamadas básicas o si calla los fallos de una clase); `esperado` saca de ahí, con las reglas de la
rúbrica (docs/calificacion.md) y los puntos de cada celda del cuaderno fuente, lo que merece cada celda, sin
mirar lo que da el corrector.
"""

import ast
import copy
import itertools
from typing import NamedTuple

import nbformat

from course import CUADERNO, RAIZ, TAREA
from course.entregas import soluciones

FUENTE = nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4)
REFERENCIA = soluciones(FUENTE)["ejecutar"]
# Los puntos de cada celda ejecutar-*, del cuaderno fuente: la rúbrica.
PUNTOS = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"] for c in FUENTE.cells
          if c.metadata.get("nbgrader", {}).get("grade_id", "").startswith("ejecutar-")}
DE_LOS_FALLOS = {"ejecutar-" + c for c in ("salmorejo", "esquema", "excepciones", "una-vez", "sin-arreglos", "guiones")}


class Operador(NamedTuple):
    descripcion: str
    diagnosticos: frozenset  # las equivocaciones que introduce, por su nombre
    casas: frozenset         # las cláusulas donde restan; vacío si deja sin respuesta las llamadas básicas
    calla: frozenset         # lo que is_error ya no separa: una clase de fallo que nunca vuelve como error que diga
                             # qué pasa ("esquema", "ejecucion"), o lo que sale bien, que nunca vuelve como resultado ("exito")
    mutar: object            # la función que cambia el árbol (ast.FunctionDef) en su sitio


# ---------------------------------------------------------------- dónde está cada cosa en la referencia

def _llamada_a(nodo, nombre):
    return isinstance(nodo, ast.Call) and isinstance(nodo.func, ast.Name) and nodo.func.id == nombre


def _uno(encontrados, que):
    assert len(encontrados) == 1, "la solución de referencia ya no tiene %s (hay %d): revisa tests/mutantes.py" % (
        que, len(encontrados))
    return encontrados[0]


def _si_del_esquema(f):
    """El `if` que contesta con un error a la llamada que no cumple su esquema."""
    return _uno([n for n in f.body if isinstance(n, ast.If) and any(
        isinstance(r, ast.Return) and _llamada_a(r.value, "error") for r in n.body)], "el if del esquema")


def _el_try(f):
    return _uno([n for n in ast.walk(f) if isinstance(n, ast.Try)], "un try")


def _manejador(f):
    return _el_try(f).handlers[0]


def _return_del_manejador(f):
    return _uno([n for n in ast.walk(_manejador(f)) if isinstance(n, ast.Return)], "un return en el except")


def _return_final(f):
    return _uno([n for n in f.body if isinstance(n, ast.Return) and _llamada_a(n.value, "resultado")],
                "el return resultado(...) final")


def _llamada_a_la_herramienta(f):
    """La llamada `funcion(entorno, **llamada["input"])`: la que lleva el entorno y los argumentos con **."""
    return _uno([n for n in ast.walk(f) if isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Name)
                 and n.args[0].id == "entorno" and any(k.arg is None for k in n.keywords)], "la llamada a la herramienta")


def _str_e(f):
    """El `str(e)` del except."""
    return _uno([n for n in ast.walk(_manejador(f)) if _llamada_a(n, "str")], "str(e) en el except")


def _texto_del_manejador(f):
    """El texto del error en el except entero: `str(e) or type(e).__name__`."""
    return _return_del_manejador(f).value.args[1]


def _llamada_y_entorno(f):
    """Los nombres de los dos parámetros de ejecutar en la referencia."""
    return f.args.args[0].arg, f.args.args[1].arg


def _expr(codigo):
    return ast.parse(codigo, mode="eval").body


def _sentencias(codigo):
    return ast.parse(codigo).body


def _reemplazar(padre, viejo, nuevo):
    """Cambia el nodo `viejo` por `nuevo` (un nodo o una lista de sentencias) donde esté, dentro de `padre`."""
    for campo, valor in ast.iter_fields(padre):
        if valor is viejo:
            setattr(padre, campo, nuevo)
            return True
        if isinstance(valor, list) and any(v is viejo for v in valor):
            i = next(i for i, v in enumerate(valor) if v is viejo)
            valor[i:i + 1] = nuevo if isinstance(nuevo, list) else [nuevo]
            return True
        if isinstance(valor, ast.AST) and _reemplazar(valor, viejo, nuevo):
            return True
        if isinstance(valor, list) and any(isinstance(v, ast.AST) and _reemplazar(v, viejo, nuevo) for v in valor):
            return True
    return False


def _cambiar(f, viejo, nuevo):
    assert _reemplazar(f, viejo, nuevo)


def _renombrar(llamada, nombre):
    llamada.func = ast.Name(id=nombre, ctx=ast.Load())


def _id_de_la_llamada(f):
    """El primer argumento de resultado(...) / error(...): el id de la llamada, tal como lo escribe la referencia."""
    return ast.unparse(_return_final(f).value.args[0])


# ---------------------------------------------------------------- los operadores

def _sin_esquema(f):
    f.body.remove(_si_del_esquema(f))


def _sin_prefijo(f):
    error = next(r for r in _si_del_esquema(f).body if isinstance(r, ast.Return)).value
    error.args[1] = error.args[1].right  # "no se ha ejecutado: " + motivo → motivo


def _esquema_como_resultado(f):
    _renombrar(next(r for r in _si_del_esquema(f).body if isinstance(r, ast.Return)).value, "resultado")


def _solo_un_tipo(f):
    _manejador(f).type = ast.Name(id="FileNotFoundError", ctx=ast.Load())


def _error_como_resultado(f):
    _renombrar(_return_del_manejador(f).value, "resultado")


def _texto_del_error(codigo):
    def mutar(f):
        _cambiar(f, _str_e(f), _expr(codigo))
    return mutar


def _sin_try(f):
    t = _el_try(f)
    _cambiar(f, t, t.body)


def _relanza(f):
    m = _manejador(f)
    m.body = _sentencias('raise RuntimeError("la herramienta ha fallado: %%s" %% %s) from %s' % (m.name, m.name))


def _sin_return(f):
    r = _return_del_manejador(f)
    _cambiar(f, r, ast.Expr(r.value))


def _devuelve_none(f):
    _cambiar(f, _return_del_manejador(f), _sentencias("return None"))


def _errata(f):
    nombre = _uno([n for n in ast.walk(f) if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant)
                   and n.slice.value == "name"], 'llamada["name"]')
    nombre.slice = ast.Constant("nombre")


def _otro_id(f):
    _return_final(f).value.args[0] = _expr('"toolu_" + %s' % _id_de_la_llamada(f))


def _reintenta(veces):
    """El try dentro de un bucle que lo repite mientras falle: `veces` intentos, o sin fin con None."""
    def mutar(f):
        t = _el_try(f)
        intento = copy.deepcopy(t)
        intento.body.append(ast.Break())
        if veces is None:
            intento.handlers[0].body = [ast.Pass()]
            bucle = ast.While(test=ast.Constant(True), body=[intento], orelse=[])
        else:
            contesta = intento.handlers[0].body
            intento.handlers[0].body = [ast.If(test=_expr("intento == %d" % (veces - 1)), body=contesta, orelse=[])]
            bucle = ast.For(target=ast.Name(id="intento", ctx=ast.Store()), iter=_expr("range(%d)" % veces),
                            body=[intento], orelse=[])
        _cambiar(f, t, bucle)
    return mutar


def _dos_veces(f):
    t = _el_try(f)
    t.body.insert(0, ast.Expr(copy.deepcopy(_llamada_a_la_herramienta(f))))


def _arregla_rutas(f):
    f.body[1:1] = _sentencias('if "rutas" in llamada["input"] and "ruta" not in llamada["input"]:\n'
                              '    llamada = dict(llamada, input={"ruta": llamada["input"]["rutas"][0]})')


def _arregla(f):
    """Si el fichero no existe, lee el de nombre más parecido (difflib) y contesta con él."""
    ll, entorno = _llamada_y_entorno(f)
    m = _manejador(f)
    m.body[0:0] = _sentencias(
        "if isinstance(%s, FileNotFoundError):\n"
        "    import difflib\n"
        "    parecidas = difflib.get_close_matches(%s['input']['ruta'], list(%s), n=1, cutoff=0.8)\n"
        "    if parecidas:\n"
        "        return resultado(%s['id'], %s[parecidas[0]])" % (m.name, ll, entorno, ll, entorno))


def _cambia_la_llamada(f):
    f.body[1:1] = _sentencias('%s["atendida"] = True' % _llamada_y_entorno(f)[0])


def _guarda_respuestas(modulo, f):
    """Otra función, la de la referencia, envuelta en una que guarda lo que contesta a cada llamada y, a una
    igual, le contesta lo guardado sin ejecutarla."""
    f.name = "_sin_guardar"
    i = modulo.body.index(f)
    modulo.body[i + 1:i + 1] = _sentencias(
        "_GUARDADAS = {}\n\n"
        "def ejecutar(llamada, entorno):\n"
        "    clave = (llamada['name'], repr(llamada['input']))\n"
        "    if clave not in _GUARDADAS:\n"
        "        _GUARDADAS[clave] = _sin_guardar(llamada, entorno)\n"
        "    return dict(_GUARDADAS[clave], tool_use_id=llamada['id'])\n")


def _sin_tipo_si_vacio(f):
    _cambiar(f, _texto_del_manejador(f), _str_e(f))


def _solo_la_traza(f):
    """Sin incumple y sin except general: contesta a mano a las dos formas de fallar de la traza."""
    _sin_esquema(f)
    _solo_un_tipo(f)
    ll = _llamada_y_entorno(f)[0]
    f.body[1:1] = _sentencias('if "rutas" in %s["input"]:\n'
                              '    return error(%s["id"], "no se ha ejecutado: falta el campo \'ruta\'")' % (ll, ll))


def _copia(f):
    _llamada_a_la_herramienta(f).args[0] = _expr("dict(entorno)")


def _copia_fuera(f):
    """La copia del entorno antes del try, fuera de él: en una prueba, el disco que falla al leer falla en ella."""
    f.body.insert(f.body.index(_el_try(f)), _sentencias("copia = dict(%s)" % _llamada_y_entorno(f)[1])[0])
    _llamada_a_la_herramienta(f).args[0] = _expr("copia")


def _quita_el_id(f):
    """Saca el id de la llamada con pop y contesta con él: la llamada del modelo se queda sin id."""
    ll = _llamada_y_entorno(f)[0]
    for n in [n for n in ast.walk(f) if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant)
              and n.slice.value == "id"]:
        _cambiar(f, n, ast.Name(id="ident", ctx=ast.Load()))
    f.body[1:1] = _sentencias('ident = %s.pop("id")' % ll)


def _strip(f):
    final = _return_final(f).value
    final.args[1] = _expr("%s.strip()" % ast.unparse(final.args[1]))


def _exito_como_error(f):
    _renombrar(_return_final(f).value, "error")


def _ok_para_todo(f):
    """Se traga lo que lance la herramienta y contesta «ok» a todas las llamadas que cumplen su esquema."""
    _cambiar(f, _return_del_manejador(f), _sentencias('return resultado(%s, "ok")' % _id_de_la_llamada(f)))
    _return_final(f).value.args[1] = ast.Constant("ok")


def _traga_todo(f):
    """Lo que midió la issue 20 (8 de 12): sin mirar el esquema, ejecuta, se traga lo que salga y contesta «ok»."""
    _sin_esquema(f)
    _ok_para_todo(f)


def _op(descripcion, diagnosticos, casas, mutar, calla=()):
    return Operador(descripcion, frozenset(diagnosticos.split()), frozenset(casas.split()), frozenset(calla), mutar)


# Los que cambian el módulo entero, no solo la función: reciben (módulo, función).
DEL_MODULO = {_guarda_respuestas}


OPERADORES = {
    # El esquema.
    "sin-esquema": _op("no mira el esquema: ejecuta todas las llamadas", "ejecuta-sin-esquema", "esquema", _sin_esquema),
    "sin-prefijo": _op("el error del esquema sin «no se ha ejecutado: »", "motivo-sin-prefijo", "esquema", _sin_prefijo),
    "esquema-como-resultado": _op("contesta al esquema incumplido con resultado(...)", "esquema-como-resultado",
                                  "esquema", _esquema_como_resultado, calla=["esquema"]),
    # Las excepciones.
    "sin-tipo-si-vacio": _op("str(e) también cuando está vacío: un error sin contenido", "contenido-vacio",
                             "excepciones", _sin_tipo_si_vacio),
    "error-como-resultado": _op("contesta al fallo con resultado(...), is_error falso", "error-como-resultado",
                                "excepciones", _error_como_resultado, calla=["ejecucion"]),
    "objeto": _op("la excepción misma como contenido, no su mensaje", "contenido-no-es-texto", "excepciones",
                  _texto_del_error("e")),
    "no-se-ha-ejecutado": _op("«no se ha ejecutado: » delante de un fallo al ejecutar", "no-se-ha-ejecutado-al-fallar",
                              "excepciones", _texto_del_error('"no se ha ejecutado: " + str(e)')),
    "frase-sin-tipo": _op("una frase propia y el mensaje: sin mensaje, no dice el tipo", "no-dice-el-tipo",
                          "excepciones", _texto_del_error('"la herramienta ha fallado: " + str(e)')),
    "mensaje-propio": _op("un mensaje propio en lugar del de la excepción", "mensaje-cambiado", "excepciones",
                          _texto_del_error('"la herramienta ha fallado"'), calla=["ejecucion"]),
    # Una vez, sin arreglos, en su entorno.
    "reintenta": _op("reintenta tres veces la llamada que falla", "reintenta", "una-vez", _reintenta(3)),
    "dos-veces": _op("ejecuta la herramienta dos veces", "ejecuta-dos-veces", "una-vez", _dos_veces),
    "arregla": _op("lee el fichero de nombre más parecido si el que pide no existe", "arregla-la-llamada",
                   "sin-arreglos", _arregla),
    # Solo arregla la forma de t1, que las pruebas ocultas no repiten: se nota en la traza, y resta allí.
    "arregla-rutas": _op("cambia rutas=[...] por ruta=... en lugar de contestar el error", "arregla-la-llamada",
                         "salmorejo", _arregla_rutas),
    "cambia-la-llamada": _op("apunta en la llamada del modelo que ya la ha atendido", "cambia-la-llamada",
                             "sin-arreglos", _cambia_la_llamada),
    "guarda-respuestas": _op("contesta a una llamada igual a otra con lo que guardó, sin ejecutarla",
                             "respuesta-guardada", "una-vez", _guarda_respuestas),
    "copia": _op("ejecuta la herramienta en una copia del entorno", "trabaja-en-una-copia", "escrituras", _copia),
    # La copia fuera del try: con el diccionario de la lección no falla, así que resta lo mismo que dentro.
    "copia-fuera": _op("copia el entorno fuera del try y ejecuta la herramienta en la copia", "trabaja-en-una-copia",
                       "escrituras", _copia_fuera),
    "quita-el-id": _op("saca el id de la llamada con pop", "cambia-la-llamada", "sin-arreglos", _quita_el_id),
    # Los resultados.
    "strip": _op("quita los espacios de lo que devuelve la herramienta", "resultado-cambiado", "resultados", _strip),
    "exito-como-error": _op("contesta al éxito con error(...)", "exito-como-error", "resultados", _exito_como_error,
                            calla=["exito"]),
    "ok-para-todo": _op("se traga lo que lance la herramienta y contesta «ok» a todo", "error-como-resultado "
                        "resultado-cambiado", "excepciones resultados", _ok_para_todo, calla=["ejecucion"]),
    # La llamada que no cumple su esquema también llega a la herramienta, que lanza TypeError, y «ok» como resultado.
    "traga-todo": _op("ni mira el esquema: ejecuta, se traga lo que lance y contesta «ok» a todo",
                      "ejecuta-sin-esquema esquema-como-resultado error-como-resultado resultado-cambiado",
                      "esquema excepciones resultados",
                      _traga_todo, calla=["esquema", "ejecucion"]),
    # Sin respuesta para las llamadas básicas.
    "solo-un-tipo": _op("except FileNotFoundError en lugar de Exception", "solo-la-traza", "", _solo_un_tipo),
    "solo-la-traza": _op("ni incumple ni except Exception: contesta a mano a los dos fallos de la traza",
                         "solo-la-traza", "", _solo_la_traza),
    "sin-try": _op("sin try: la excepción de la herramienta sale de ejecutar", "lanza-al-fallar", "", _sin_try),
    "relanza": _op("relanza el fallo envuelto en un RuntimeError", "lanza-otra-excepcion", "", _relanza),
    "sin-return": _op("olvida el return del except: sigue y usa una variable sin valor", "lanza-tu-codigo", "",
                      _sin_return),
    "errata": _op('llamada["nombre"] en lugar de llamada["name"], fuera del try', "lanza-tu-codigo", "", _errata),
    "devuelve-none": _op("devuelve None cuando la herramienta falla", "no-contesta", "", _devuelve_none),
    "otro-id": _op("contesta con otro tool_use_id", "no-es-un-tool-result", "", _otro_id),
    "reintenta-siempre": _op("reintenta sin fin la llamada que falla", "reintenta", "", _reintenta(None)),
}

# Dos equivocaciones juntas: una de cada cláusula, de dos en dos; tres con una clase de fallo que
# nunca vuelve como error; y una que no contesta con otra que sí.
UNA_POR_CLAUSULA = ["sin-prefijo", "objeto", "reintenta", "arregla", "strip", "copia"]
PAREJAS = [*itertools.combinations(UNA_POR_CLAUSULA, 2),
           ("esquema-como-resultado", "error-como-resultado"),  # la otra medida de la issue 20
           ("sin-esquema", "mensaje-propio"), ("esquema-como-resultado", "objeto"), ("errata", "objeto"),
           ("cambia-la-llamada", "guarda-respuestas"), ("exito-como-error", "sin-prefijo"),
           ("exito-como-error", "copia")]


# Lo que una pareja añade a lo que nombran sus dos operadores por separado.
DE_LA_PAREJA = {
    # Sin mirar el esquema, a la llamada que no lo cumple también le llega el mensaje propio: en la traza, el
    # motivo del esquema no aparece (el de una llamada que sí se ha ejecutado, con lo que escribe, es el otro).
    ("sin-esquema", "mensaje-propio"): {"motivo-cambiado"},
}


class Mutante(NamedTuple):
    codigo: str
    descripcion: str
    diagnosticos: set   # las equivocaciones que tiene que reconocer el corrector
    esperado: dict      # celda ejecutar-* → los puntos que le da la rúbrica


def mutar(nombres):
    """El código de la referencia con los operadores `nombres` aplicados, en orden."""
    modulo = ast.parse(REFERENCIA)
    f = _uno([n for n in modulo.body if isinstance(n, ast.FunctionDef) and n.name == "ejecutar"], "def ejecutar")
    for nombre in nombres:
        mutar_ = OPERADORES[nombre].mutar
        mutar_(modulo, f) if mutar_ in DEL_MODULO else mutar_(f)
    ast.fix_missing_locations(modulo)
    return ast.unparse(modulo) + "\n"


def esperado(nombres):
    """Lo que merece cada celda ejecutar-* según la rúbrica, con las equivocaciones de los operadores `nombres`."""
    ops = [OPERADORES[n] for n in nombres]
    if any(not op.casas for op in ops):  # sin respuesta para las llamadas básicas: nada
        return dict.fromkeys(PUNTOS, 0)
    casas = {"ejecutar-" + c for op in ops for c in op.casas}
    sin_la_idea = any(op.calla for op in ops)  # una clase de fallo nunca vuelve como error: la idea de la lección
    return {celda: 0 if celda in casas or (sin_la_idea and celda in DE_LOS_FALLOS) else puntos
            for celda, puntos in PUNTOS.items()}


def _diagnosticos(nombres):
    ops = [OPERADORES[n] for n in nombres]
    puerta = [op for op in ops if not op.casas]
    if puerta:  # la puerta solo dice por qué no contesta; lo demás no llega a mirarse
        return set(puerta[0].diagnosticos)
    nombres_ = set().union(*(op.diagnosticos for op in ops))
    nombres_ |= DE_LA_PAREJA.get(tuple(nombres), set())
    callan = set().union(*(op.calla for op in ops))
    if callan & {"esquema", "ejecucion"}:  # la cláusula de la idea dice lo primero que ve
        nombres_.add("nunca-avisa")
    elif callan:
        nombres_.add("todo-es-error")
    return nombres_


def mutantes():
    """nombre → Mutante: cada operador solo y cada pareja."""
    todos = {}
    for nombres in [(n,) for n in OPERADORES] + PAREJAS:
        todos["+".join(nombres)] = Mutante(mutar(nombres), " y ".join(OPERADORES[n].descripcion for n in nombres),
                                          _diagnosticos(nombres), esperado(nombres))
    return todos


def tabla():
    """La tabla de docs/calificacion.md: una fila por mutante con sus equivocaciones y los puntos que le da la rúbrica."""
    filas = ["| mutant | what it does (in Spanish, as the feedback says it) | mistakes named | points (of 12) |",
             "|---|---|---|---|"]
    for nombre, m in mutantes().items():
        filas.append("| `%s` | %s | %s | %d |" % (nombre, m.descripcion.replace("|", "/"),
                                                 ", ".join("`%s`" % d for d in sorted(m.diagnosticos)),
                                                 sum(m.esperado.values())))
    return "\n".join(filas)


if __name__ == "__main__":
    print(tabla())
