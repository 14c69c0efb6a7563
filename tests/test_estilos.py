"""Cualquier `ejecutar` correcto saca todos los puntos, lo escriba como lo escriba, y a tiempo.

Una prueba de propiedad (Hypothesis) reescribe la solución de referencia en estilos al azar (su propia
tabla o una cadena de if, copias de las herramientas, una clase, lambdas, `match`, hilos, otros textos de
error que admite el contrato) y exige 12 de 12 al corrector, con la respuesta en su jaula, y a `revisar`,
en este proceso, con los casos ocultos. Y el tiempo: el tope de toda una entrega no lo alcanza nunca una
respuesta que cumple el de cada llamada, y una que tarda medio segundo en cada una saca todos los puntos.
"""

import ast
import builtins
import inspect
import linecache
import textwrap

import nbformat
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import harness.entorno
from course import CUADERNO, RAIZ, TAREA, limites
from course.calificacion import PRUEBAS, casos, llamadas_como_mucho, veredictos
from harness.revision import probar, reglas, repasar
from harness.revision.vigilancia import en_segundos

HERRAMIENTAS = ("leer", "listar", "buscar", "escribir")


def _copias():
    """Las cuatro herramientas de la lección, copiadas de su código con otro nombre (`mi_leer`...), con lo
    que importen de harness.entorno: se comportan igual, pero no son las funciones de FUNCIONES."""
    importa, copias = set(), []
    for nombre in HERRAMIENTAS:
        arbol = ast.parse(textwrap.dedent(inspect.getsource(getattr(harness.entorno, nombre))))
        funcion = arbol.body[0]
        funcion.name = "mi_" + nombre
        locales = {a.arg for a in funcion.args.args} | {n.id for n in ast.walk(funcion)
                                                         if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        importa |= {n.id for n in ast.walk(funcion) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                    and n.id not in locales and n.id in vars(harness.entorno) and not hasattr(builtins, n.id)}
        copias.append(ast.unparse(funcion))
    cabecera = "from harness.entorno import %s\n\n" % ", ".join(sorted(importa)) if importa else ""
    return cabecera + "\n\n\n".join(copias) + "\n"


# Cómo encuentra la función de la herramienta: la expresión que la da (con `ll` la llamada), o None si
# la llama por su cuenta (cadena de if, match), y lo que hace falta definir antes.
TABLAS = {
    "FUNCIONES": ("FUNCIONES[ll['name']]", ""),
    "tabla propia": ("TABLA[ll['name']]", "TABLA = dict(FUNCIONES)\n"),
    "tabla de copias": ("MIAS[ll['name']]", "MIAS = {%s}\n" % ", ".join("%r: mi_%s" % (h, h) for h in HERRAMIENTAS)),
    "lambdas": ("LAMBDAS[ll['name']]", "LAMBDAS = {%s}\n" % ", ".join(
        "%r: lambda entorno, **argumentos: %s(entorno, **argumentos)" % (h, h) for h in HERRAMIENTAS)),
    "clase": ("getattr(Herramientas, ll['name'])", "class Herramientas:\n%s\n" % "".join(
        "    %s = staticmethod(%s)\n" % (h, h) for h in HERRAMIENTAS)),
    "globals": ("globals()[ll['name']]", ""),
    "cadena de if": (None, ""),
    "match": (None, ""),
}
TEXTOS = ["str(e) or type(e).__name__", "repr(e)", "f'{type(e).__name__}: {e}'",
          "str(e) if str(e) else type(e).__name__", "'Ha fallado: ' + (str(e) or type(e).__name__)"]


def _llamar_a_la_herramienta(tabla, hilo, copias):
    """Las líneas que dejan en `devuelto` lo que devuelve la herramienta (o dejan salir lo que lance)."""
    prefijo = "mi_" if copias else ""
    if tabla == "cadena de if":
        ramas = "".join("%sif ll['name'] == %r:\n    hacer = %s%s\n" % ("el" if i else "", h, prefijo, h)
                        for i, h in enumerate(HERRAMIENTAS))
        funcion = ramas
    elif tabla == "match":
        funcion = "match ll['name']:\n" + "".join("    case %r:\n        hacer = %s%s\n" % (h, prefijo, h)
                                                  for h in HERRAMIENTAS)
    else:
        funcion = "hacer = %s\n" % TABLAS[tabla][0]
    if hilo == "futuro":
        return funcion + "devuelto = _HILOS.submit(hacer, entorno, **ll['input']).result()\n"
    if hilo == "thread":
        return funcion + ("caja = {}\n"
                          "def _trabajo():\n"
                          "    try:\n"
                          "        caja['devuelto'] = hacer(entorno, **ll['input'])\n"
                          "    except Exception as fallo:\n"
                          "        caja['fallo'] = fallo\n"
                          "hilo = threading.Thread(target=_trabajo)\n"
                          "hilo.start()\n"
                          "hilo.join()\n"
                          "if 'fallo' in caja:\n"
                          "    raise caja['fallo']\n"
                          "devuelto = caja['devuelto']\n")
    return funcion + "devuelto = hacer(entorno, **ll['input'])\n"


def respuesta(tabla, forma, hilo, texto, copias, a_mano):
    """El código de una respuesta correcta, en el estilo pedido."""
    copias = copias or tabla == "tabla de copias"
    antes = (_copias() + "\n\n" if copias else "") + TABLAS[tabla][1]
    if hilo == "futuro":
        antes = "from concurrent.futures import ThreadPoolExecutor\n_HILOS = ThreadPoolExecutor(max_workers=1)\n" + antes
    if hilo == "thread":
        antes = "import threading\n" + antes
    fallo = ("{'type': 'tool_result', 'tool_use_id': ll['id'], 'content': %s, 'is_error': True}" if a_mano
             else "error(ll['id'], %s)")
    exito = ("{'type': 'tool_result', 'tool_use_id': ll['id'], 'content': devuelto, 'is_error': False}" if a_mano
             else "resultado(ll['id'], devuelto)")
    cuerpo = ("motivo = incumple(ll)\n"
              "if motivo is not None:\n"
              "    return %s\n"
              "try:\n%s"
              "except Exception as e:\n"
              "    return %s\n"
              "return %s\n") % (fallo % "'no se ha ejecutado: ' + motivo",
                                textwrap.indent(_llamar_a_la_herramienta(tabla, hilo, copias), "    "),
                                fallo % texto, exito)
    if forma == "funcion":
        return antes + "\n\ndef ejecutar(ll, entorno):\n" + textwrap.indent(cuerpo, "    ")
    if forma == "clase":
        return (antes + "\n\nclass Ejecutor:\n    def __call__(self, ll, entorno):\n" + textwrap.indent(cuerpo, "        ")
                + "\n\nejecutar = Ejecutor()\n")
    # Una lambda que llama a una función auxiliar
    return antes + "\n\ndef _contestar(ll, entorno):\n" + textwrap.indent(cuerpo, "    ") + \
        "\n\nejecutar = lambda llamada, entorno: _contestar(llamada, entorno)\n"


ESTILOS = st.tuples(st.sampled_from(sorted(TABLAS)), st.sampled_from(["funcion", "clase", "lambda"]),
                    st.sampled_from(["directo", "futuro", "thread"]), st.sampled_from(TEXTOS), st.booleans(),
                    st.booleans())


def _en_este_proceso(codigo):
    """Los veredictos de `revisar` (harness.revision, en este proceso, sin jaula) con los casos ocultos."""
    espacio, archivo = {"__name__": "__main__"}, "<estilo>"
    exec("from harness import *", espacio)
    linecache.cache[archivo] = (len(codigo), None, codigo.splitlines(True), archivo)
    exec(compile(codigo, archivo, "exec"), espacio)
    return reglas(repasar(lambda ll, e: probar(espacio["ejecutar"], ll, e), casos()))


@pytest.mark.usefixtures("procesos")
@settings(max_examples=16, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ESTILOS)
def test_cualquier_estilo_correcto_saca_todos_los_puntos_en_la_jaula_y_en_revisar(estilo):
    from course.aislado.cliente import CodigoAislado
    codigo = respuesta(*estilo)
    compile(codigo, "<estilo>", "exec")
    aqui = _en_este_proceso(codigo)
    assert all(aqui[n].puntua for n in PRUEBAS), (estilo, codigo, {n: aqui[n].texto for n in PRUEBAS if not aqui[n].puntua})
    with CodigoAislado(codigo) as aislado:
        assert aislado.cargar() is None, codigo
        alli = veredictos(aislado)
    assert all(alli[n].puntua for n in PRUEBAS), (estilo, codigo, {n: alli[n].texto for n in PRUEBAS if not alli[n].puntua})


def test_los_estilos_son_de_verdad_distintos():
    """La prueba de propiedad no reescribe siempre lo mismo: las copias no llaman a las de la lección, y
    sin FUNCIONES no queda rastro de FUNCIONES."""
    copias = respuesta("tabla de copias", "funcion", "directo", TEXTOS[0], True, False)
    assert "def mi_leer(" in copias and "FUNCIONES" not in copias and "= leer" not in copias
    espacio = {}
    exec("from harness import *\n" + copias, espacio)
    assert espacio["MIAS"]["leer"] is not harness.entorno.leer
    assert "match ll['name']" in respuesta("match", "clase", "thread", TEXTOS[1], False, True)


def test_el_tope_de_una_entrega_no_lo_alcanza_quien_cumple_el_de_cada_llamada():
    """Más que un segundo por cada llamada que puede hacer la corrección (con las conversaciones repasadas,
    y las grabadas en course/guiones/), y la carga de la respuesta."""
    assert limites.COMPROBACIONES >= limites.LLAMADA * llamadas_como_mucho() + limites.CARGA
    from harness.revision import SEGUNDOS
    assert SEGUNDOS == limites.LLAMADA  # revisar y las pruebas visibles tienen el mismo tope que el corrector


def test_la_leccion_dice_los_topes_de_tiempo():
    fuente = nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4)
    partida = next(c.source for c in fuente.cells if c.get("id") == "partida")
    assert "**un segundo** como mucho" in partida and limites.LLAMADA == 1
    assert "tienen %s" % en_segundos(limites.COMPROBACIONES) in partida


@pytest.mark.usefixtures("procesos")
def test_una_respuesta_que_tarda_medio_segundo_en_cada_llamada_saca_todos_los_puntos():
    """Medio segundo por llamada, durmiendo (el corrector lo cobra entero): cumple el tope de cada una, y
    todas juntas caben en el de la entrega."""
    from course.aislado.cliente import CodigoAislado
    codigo = "import time\n" + respuesta("FUNCIONES", "funcion", "directo", TEXTOS[0], False, False).replace(
        "    motivo = incumple(ll)", "    time.sleep(0.5)\n    motivo = incumple(ll)", 1)
    with CodigoAislado(codigo) as aislado:
        assert aislado.cargar() is None
        todos = veredictos(aislado)
    assert all(todos[n].puntua for n in PRUEBAS), {n: todos[n].texto for n in PRUEBAS if not todos[n].puntua}
