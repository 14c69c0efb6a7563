"""El protocolo del canal con la jaula (course/aislado/protocolo.py), sin jaula: las propiedades de sus datos."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from course import limites
from course.aislado import protocolo
from course.aislado.protocolo import DemasiadasPiezas, Ilegible, Opaco, codificar, decodificar, mensaje

SIMPLES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
HASHEABLES = st.recursive(SIMPLES, lambda hijos: st.tuples(hijos, hijos) | st.frozensets(hijos, max_size=3), max_leaves=8)
DATOS = st.recursive(SIMPLES, lambda hijos: (st.lists(hijos, max_size=4) | st.tuples(hijos, hijos)
                                           | st.dictionaries(HASHEABLES, hijos, max_size=4)
                                           | st.sets(HASHEABLES, max_size=4)), max_leaves=30)


def _igual_con_tipos(a, b):
    """Iguales y del mismo tipo en cada nivel."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a == b and all(_igual_con_tipos(v, b[k]) for k, v in a.items())
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_igual_con_tipos(x, y) for x, y in zip(a, b))
    return a == b


@settings(max_examples=300)
@given(DATOS)
def test_un_dato_cruza_el_canal_con_sus_tipos(valor):
    por_el_canal = json.loads(json.dumps(codificar(valor), ensure_ascii=False))
    assert _igual_con_tipos(valor, decodificar(por_el_canal))


def test_lo_que_no_es_un_dato_llega_opaco_con_su_tipo_y_no_es_igual_a_nada():
    class Todo:
        __eq__ = lambda self, otro: True  # noqa: E731

        def __repr__(self):
            return "x" * 10_000

    llegado = decodificar(codificar(Todo()))
    assert isinstance(llegado, Opaco) and llegado.tipo == "Todo" and llegado != llegado.__class__("Todo", "")
    assert len(llegado.texto) == limites.REPR_DE_UN_OBJETO


@pytest.mark.parametrize("fondo", [limites.PROFUNDIDAD_DE_UN_DATO - 5, limites.PROFUNDIDAD_DE_UN_DATO + 5])
def test_un_dato_mas_hondo_que_el_tope_llega_opaco_en_el_mismo_sitio_a_los_dos_lados(fondo):
    valor = []
    for _ in range(fondo):
        valor = [valor]
    llegado = decodificar(codificar(valor))
    for _ in range(min(fondo, limites.PROFUNDIDAD_DE_UN_DATO + 1)):
        llegado = llegado[0] if isinstance(llegado, list) and llegado else llegado
    assert (isinstance(llegado, Opaco)) == (fondo > limites.PROFUNDIDAD_DE_UN_DATO)


def test_un_dato_con_demasiadas_piezas_no_se_lee_entero():
    with pytest.raises(DemasiadasPiezas):
        decodificar({"list": [{"v": 0}] * limites.PIEZAS_DE_UN_DATO})


# JSON cualquiera y JSON con la forma de un dato, a veces estropeada: una clave de más, un hijo que no es un
# dato, un par que no es un par.
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda hijos: st.lists(hijos, max_size=3) | st.dictionaries(st.sampled_from(
                        ["v", "list", "tuple", "set", "dict", "otro", "repr", "x"]), hijos, max_size=3), max_leaves=20)


def _casi_datos(hijos):
    pares = st.lists(st.tuples(hijos, hijos).map(list) | JSON, max_size=3)
    forma = (st.fixed_dictionaries({"v": st.none() | st.booleans() | st.integers() | st.text(max_size=5) | JSON})
             | st.sampled_from(["list", "tuple", "set", "frozenset"]).flatmap(
                 lambda clase: st.fixed_dictionaries({clase: st.lists(hijos, max_size=3)}))
             | st.fixed_dictionaries({"dict": pares})
             | st.fixed_dictionaries({"otro": JSON, "repr": JSON}))
    return forma.flatmap(lambda d: st.dictionaries(st.sampled_from(["v", "list", "x"]), JSON, max_size=1).map(
        lambda extra: {**extra, **d}))


CASI_DATOS = st.recursive(st.fixed_dictionaries({"v": st.integers() | st.text(max_size=3)}), _casi_datos, max_leaves=15)


@settings(max_examples=300)
@given(JSON | CASI_DATOS)
def test_cualquier_json_se_lee_o_es_ilegible_nunca_otra_cosa(crudo):
    """Lo que se lee es un dato del protocolo: hecho solo de sus tipos y, sin opacos, se puede volver a mandar y
    llega igual. Cualquier otra excepción que Ilegible hace fallar la prueba."""
    try:
        leido = decodificar(crudo)
    except Ilegible:
        return
    assert _solo_tipos_del_protocolo(leido), (crudo, leido)
    if not _tiene_opacos(leido):
        assert _igual_con_tipos(leido, decodificar(json.loads(json.dumps(codificar(leido))))), (crudo, leido)


def _solo_tipos_del_protocolo(x):
    if type(x) is dict:
        return all(_solo_tipos_del_protocolo(k) and _solo_tipos_del_protocolo(v) for k, v in x.items())
    if type(x) in (list, tuple, set, frozenset):
        return all(_solo_tipos_del_protocolo(v) for v in x)
    return type(x) in (str, int, float, bool, type(None), Opaco)


def _tiene_opacos(x):
    if isinstance(x, Opaco):
        return True
    if isinstance(x, dict):
        return any(_tiene_opacos(k) or _tiene_opacos(v) for k, v in x.items())
    return isinstance(x, (list, tuple, set, frozenset)) and any(_tiene_opacos(v) for v in x)


@pytest.mark.parametrize("linea", [b"{", b"[1, 2]", b"\xff\xfe", b"[" * 100_000, b"nada"])
def test_una_linea_que_no_es_un_mensaje_es_ilegible(linea):
    with pytest.raises(Ilegible):
        mensaje(linea)


# Los mensajes, por su nombre: cada uno cruza el canal y llega igual, de la misma clase.
TEXTOS = st.text(max_size=20)
DATOS_CODIFICADOS = DATOS.map(codificar)
MENSAJES_GENERADOS = st.one_of(
    st.builds(protocolo.Cargar, TEXTOS), st.builds(protocolo.Valor, TEXTOS, TEXTOS),
    st.builds(protocolo.Llamada, DATOS_CODIFICADOS), st.builds(protocolo.Operacion, TEXTOS, st.lists(DATOS_CODIFICADOS, max_size=3)),
    st.builds(protocolo.Ok, DATOS_CODIFICADOS), st.just(protocolo.Listo()), st.just(protocolo.Hecho()),
    st.builds(protocolo.Falta, TEXTOS), st.builds(protocolo.Devuelve, DATOS_CODIFICADOS, st.none() | DATOS_CODIFICADOS),
    st.builds(protocolo.Excepcion, st.builds(lambda t: protocolo.de_excepcion(ValueError(t)), TEXTOS),
              st.none() | DATOS_CODIFICADOS))


@settings(max_examples=300)
@given(MENSAJES_GENERADOS)
def test_cada_mensaje_cruza_el_canal_y_llega_igual_y_de_su_clase(enviado):
    linea = protocolo.linea(enviado)
    assert linea.endswith(b"\n") and linea.count(b"\n") == 1
    assert mensaje(linea[:-1]) == enviado


def test_todos_los_mensajes_del_protocolo_estan_en_la_lista_y_se_reconocen_por_su_primer_campo():
    from dataclasses import fields, is_dataclass

    declarados = [c for c in vars(protocolo).values() if isinstance(c, type) and is_dataclass(c)]
    assert sorted(c.__name__ for c in declarados) == sorted(c.__name__ for c in protocolo.MENSAJES)
    primeros = [fields(c)[0].name for c in protocolo.MENSAJES]
    assert len(set(primeros)) == len(primeros)


@pytest.mark.parametrize("linea", [b'{"valor": "x = 1"}', b'{"op": "lee"}', b'{"nada": 1}', b'{"ok": {"v": 1}}x'])
def test_un_mensaje_sin_sus_campos_o_desconocido_es_ilegible(linea):
    with pytest.raises(Ilegible):
        mensaje(linea)


def test_lo_que_lanza_ejecutar_en_la_jaula_trae_lo_que_lee_la_lista_de_comprobacion():
    """harness.revision no importa el curso: lee `tipo` y `origen` de lo que lanza ejecutar, si los trae."""
    from harness.revision import clausulas

    lanzada = protocolo.Lanzada("KeyError", "'x'", (3, "return d['x']", "fuera"))
    assert clausulas._tipo(lanzada) == "KeyError" and lanzada.origen == (3, "return d['x']", "fuera")
