"""Lo que promete la biblioteca `harness` (sus docstrings y la tabla de lectura del README), sobre la biblioteca de verdad."""

import copy
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import harness
from harness import (ENTORNO, FUNCIONES, HERRAMIENTAS, FueraDelGuion, ModeloGuionizado, añadir, bucle,
                     buscar, error, escribir, guion_de, incumple, leer, listar, llamada, muestra, resultado,
                     texto, una_y_dos)
from harness.salmorejo import FINAL, INICIO, RESPUESTAS, VISTO
from referencia import ejecutar_a_medias, ejecutar_correcto


def salmorejo():
    return ModeloGuionizado(guion_de(INICIO, RESPUESTAS, VISTO))


# Bloques

def test_bloques_tienen_la_forma_de_la_api():
    assert texto("hola") == {"type": "text", "text": "hola"}
    assert llamada("t1", "leer", ruta="a") == {"type": "tool_use", "id": "t1", "name": "leer", "input": {"ruta": "a"}}
    assert resultado("t1", "x") == {"type": "tool_result", "tool_use_id": "t1", "content": "x", "is_error": False}
    assert error("t1", "x") == {"type": "tool_result", "tool_use_id": "t1", "content": "x", "is_error": True}
    assert error("t1", "x")["is_error"] is True and resultado("t1", "x")["is_error"] is False


def test_muestra_da_una_linea_por_bloque_y_marca_los_errores():
    assert muestra(llamada("t4", "listar", carpeta="recetas/")) == "t4 → listar(carpeta='recetas/')"
    assert muestra(resultado("t3", "pan")) == "t3 ← 'pan'"
    assert muestra(error("t2", "no existe")) == "t2 ← ERROR 'no existe'"
    assert muestra(texto("Hola.")) == "texto 'Hola.'"
    assert muestra(("usuario", "Hola.")) == "usuario: Hola."
    assert "\n" not in muestra(resultado("t4", listar(ENTORNO, "recetas/")))


# El entorno y sus herramientas

def test_entorno_tiene_los_cuatro_ficheros():
    assert len(ENTORNO) == 4
    assert ENTORNO["lista.txt"] == "pan, leche, patatas"
    for ingrediente in ("tomates", "pepino", "pimiento", "ajo"):
        assert ingrediente in ENTORNO["recetas/gazpacho.txt"]
    for ingrediente in ("patatas", "huevos", "cebolla"):
        assert ingrediente in ENTORNO["recetas/tortilla.txt"]


def test_leer_devuelve_el_texto_y_si_no_existe_lanza_sin_cambiar_nada():
    entorno = dict(ENTORNO)
    assert leer(entorno, "lista.txt") == "pan, leche, patatas"
    with pytest.raises(FileNotFoundError) as e:
        leer(entorno, "recetas/salmorejo.txt")
    assert str(e.value) == "no existe el fichero 'recetas/salmorejo.txt'"
    assert entorno == ENTORNO


def test_leer_cita_la_ruta_como_repr():
    with pytest.raises(FileNotFoundError) as e:
        leer({}, "l'apostrofe.txt")
    assert str(e.value) == "no existe el fichero %r" % "l'apostrofe.txt"


def test_listar_da_las_rutas_de_la_carpeta_en_orden():
    assert listar(ENTORNO, "recetas/") == "recetas/gazpacho.txt\nrecetas/tortilla.txt"
    assert listar(ENTORNO, "recetas") == listar(ENTORNO, "recetas/")
    assert listar(ENTORNO, "") == "\n".join(sorted(ENTORNO))
    assert listar(ENTORNO, "postres/") == "no hay ningún fichero en la carpeta 'postres/'"


def test_buscar_dice_de_donde_es_cada_linea_y_sin_coincidencias_lo_dice():
    lineas = buscar(ENTORNO, "patatas").split("\n")
    assert "lista.txt:1: pan, leche, patatas" in lineas
    assert any(l.startswith("recetas/tortilla.txt:") for l in lineas)
    assert buscar(ENTORNO, "salmorejo") == "ninguna línea contiene 'salmorejo'"


def test_leer_un_fichero_vacio_lo_dice():
    assert leer({"nada.txt": ""}, "nada.txt") == "el fichero 'nada.txt' está vacío"


_TEXTOS = st.text(st.characters(codec="utf-8"), max_size=12)


@given(entorno=st.dictionaries(_TEXTOS, _TEXTOS, max_size=4), argumento=_TEXTOS, contenido=_TEXTOS)
def test_ninguna_herramienta_devuelve_un_texto_vacio(entorno, argumento, contenido):
    """La API rechaza un tool_result vacío: lo que devuelve cada herramienta, sea cual sea el entorno, dice algo."""
    rutas = list(entorno) + [argumento]
    for dicho in [listar(entorno, argumento), buscar(entorno, argumento), escribir(dict(entorno), argumento, contenido),
                  *(leer(entorno, r) for r in rutas if r in entorno)]:
        assert isinstance(dicho, str) and dicho


def test_escribir_sustituye_el_fichero_entero_y_dice_lo_que_ha_hecho():
    entorno = dict(ENTORNO)
    dicho = escribir(entorno, "lista.txt", "pan")
    assert entorno["lista.txt"] == "pan" and "lista.txt" in dicho
    escribir(entorno, "nueva.txt", "x")
    assert entorno["nueva.txt"] == "x"


def test_herramientas_tienen_esquemas_json_y_funciones():
    assert [h["name"] for h in HERRAMIENTAS] == ["leer", "listar", "buscar", "escribir"]
    assert FUNCIONES == {"leer": leer, "listar": listar, "buscar": buscar, "escribir": escribir}
    for h in HERRAMIENTAS:
        assert set(h) == {"name", "description", "input_schema"}
        esquema = h["input_schema"]
        assert esquema["type"] == "object"
        assert set(esquema["required"]) <= set(esquema["properties"])
        assert all(p["type"] == "string" for p in esquema["properties"].values())


# La comprobación del esquema

def test_incumple_acepta_las_llamadas_buenas():
    for ll in [llamada("a", "leer", ruta="x"), llamada("b", "listar", carpeta="recetas/"),
               llamada("c", "buscar", patron="x"), llamada("d", "escribir", ruta="x", contenido="")]:
        assert incumple(ll) is None


def test_incumple_dice_primero_el_campo_que_falta():
    assert incumple(llamada("t1", "leer", rutas=["a", "b"])) == "falta el campo 'ruta'"


@pytest.mark.parametrize("ll, palabras", [
    (llamada("x", "borrar", ruta="a"), ["herramienta", "'borrar'"]),
    (llamada("x", "leer", ruta="a", modo="r"), ["'modo'"]),
    (llamada("x", "leer", ruta=["a"]), ["'ruta'", "texto", "lista"]),
    (llamada("x", "escribir", ruta="a", contenido=3), ["'contenido'", "texto", "número"]),
    (llamada("x", "leer", ruta=True), ["'ruta'", "booleano"]),
    ({"type": "tool_use", "id": "x", "name": "leer", "input": "lista.txt"}, ["objeto"]),
])
def test_incumple_rechaza_cada_fallo_con_su_motivo(ll, palabras):
    motivo = incumple(ll)
    assert isinstance(motivo, str)
    for palabra in palabras:
        assert palabra in motivo


def test_cada_motivo_es_distinto():
    motivos = {incumple(ll) for ll in [llamada("x", "borrar", ruta="a"), llamada("x", "leer"),
                                       llamada("x", "leer", ruta="a", modo="r"), llamada("x", "leer", ruta=1)]}
    assert len(motivos) == 4


# El modelo guionizado

def test_guion_de_acumula_la_conversacion_esperada():
    guion = guion_de(INICIO, RESPUESTAS, VISTO)
    assert len(guion) == 4
    assert guion[0] == (INICIO, RESPUESTAS[0])
    assert guion[1][0] == INICIO + [("asistente", RESPUESTAS[0]), ("usuario", VISTO[0])]
    assert len(guion[3][0]) == 2 + 2 * 3


def test_el_modelo_contesta_su_guion_y_cuenta_los_turnos():
    modelo = salmorejo()
    assert modelo.turno == 0
    assert modelo(INICIO, HERRAMIENTAS) == RESPUESTAS[0]
    assert modelo.turno == 1


def test_el_modelo_devuelve_copias_que_nadie_puede_estropear():
    modelo = salmorejo()
    modelo(INICIO, HERRAMIENTAS)[1]["input"]["rutas"].append("otro")
    assert RESPUESTAS[0][1]["input"]["rutas"] == ["recetas/salmorejo.txt", "lista.txt"]


def test_el_modelo_lanza_su_propia_excepcion_si_la_conversacion_no_es_la_del_guion():
    modelo = salmorejo()
    with pytest.raises(FueraDelGuion) as e:
        modelo([INICIO[0], ("usuario", "Otra cosa.")], HERRAMIENTAS)
    mensaje = str(e.value)
    assert mensaje.startswith("inicio: ") and "mensaje 2" in mensaje and "Otra cosa." in mensaje
    assert modelo.turno == 0


def test_el_modelo_distingue_true_de_1():
    modelo = salmorejo()
    modelo(INICIO, HERRAMIENTAS)
    casi = dict(VISTO[0][0], is_error=1)
    with pytest.raises(FueraDelGuion) as e:
        modelo(INICIO + [("asistente", RESPUESTAS[0]), ("usuario", [casi])], HERRAMIENTAS)
    assert "'is_error'" in str(e.value)


def test_el_modelo_avisa_si_faltan_o_sobran_observaciones():
    modelo = salmorejo()
    modelo(INICIO, HERRAMIENTAS)
    with pytest.raises(FueraDelGuion) as e:
        modelo(INICIO + [("asistente", RESPUESTAS[0]), ("usuario", [])], HERRAMIENTAS)
    assert "se esperaba 1 bloque y han llegado 0" in str(e.value)


def test_el_modelo_lanza_si_se_le_pide_mas_alla_del_guion():
    modelo = ModeloGuionizado(guion_de(INICIO, [[texto("Hecho.")]], [None]))
    modelo(INICIO, HERRAMIENTAS)
    with pytest.raises(FueraDelGuion) as e:
        modelo(INICIO + [("asistente", [texto("Hecho.")])], HERRAMIENTAS)
    assert "todos los turnos de su guion (1 turno)" in str(e.value) and "turno 2" in str(e.value)


# El bucle, con la traza del salmorejo

def test_la_traza_del_salmorejo_termina_en_fin_sin_cambiar_los_ficheros():
    entorno = dict(ENTORNO)
    modelo = salmorejo()
    como, texto_final, M = bucle(modelo, INICIO, entorno, 10, ejecutar_correcto)
    assert (como, texto_final) == ("fin", FINAL)
    # «solo», sin tilde, como recomienda la RAE: es el texto que se compara al corregir.
    assert FINAL == "No hay receta de salmorejo, solo de gazpacho y de tortilla. No he cambiado lista.txt."
    assert entorno == ENTORNO
    assert modelo.turno == 4
    assert M[2:] == [m for r, v in zip(RESPUESTAS, VISTO)
                     for m in [("asistente", r)] + ([("usuario", v)] if v else [])]


def test_con_el_ejecutar_a_medias_la_traza_muere_en_el_turno_2_sin_leer_t3():
    leidas = []

    def leer_contando(entorno, ruta):
        leidas.append(ruta)
        return leer(entorno, ruta)

    def ejecutar(ll, entorno):
        if ll["name"] == "leer" and incumple(ll) is None:
            return resultado(ll["id"], leer_contando(entorno, **ll["input"]))
        return ejecutar_a_medias(ll, entorno)

    modelo = salmorejo()
    with pytest.raises(FileNotFoundError) as e:
        bucle(modelo, INICIO, dict(ENTORNO), 10, ejecutar)
    assert str(e.value) == "no existe el fichero 'recetas/salmorejo.txt'"
    assert modelo.turno == 2
    assert leidas == ["recetas/salmorejo.txt"]


def test_un_harness_que_arregla_la_llamada_lo_pilla_el_guion_en_el_turno_2():
    def ejecutar_que_arregla(ll, entorno):
        if "rutas" in ll["input"]:
            ll = llamada(ll["id"], ll["name"], ruta=ll["input"]["rutas"][0])
        return ejecutar_correcto(ll, entorno)

    modelo = salmorejo()
    with pytest.raises(FueraDelGuion) as e:
        bucle(modelo, INICIO, dict(ENTORNO), 10, ejecutar_que_arregla)
    mensaje = str(e.value)
    assert mensaje.startswith("turno 1: lo que ha contestado el harness a este turno")  # el turno cuya respuesta difiere
    assert "mensaje 4 (usuario), bloque 1" in mensaje
    assert "se esperaba: t1 ← ERROR \"no se ha ejecutado: falta el campo 'ruta'\"" in mensaje
    assert "ha llegado:  t1 ← ERROR \"no existe el fichero 'recetas/salmorejo.txt'\"" in mensaje


def test_el_bucle_para_en_el_tope():
    llamar = [llamada("t", "leer", ruta="no.txt")]
    modelo = ModeloGuionizado(guion_de(INICIO, [llamar] * 3, [[error("t", "no existe el fichero 'no.txt'")]] * 3))
    como, texto_final, M = bucle(modelo, INICIO, dict(ENTORNO), 3, ejecutar_correcto)
    assert (como, texto_final, len(M)) == ("tope", None, 2 + 3 * 2)


def test_el_bucle_contesta_todas_las_llamadas_de_un_turno_en_un_mensaje_y_en_orden():
    turno = [llamada("a", "leer", ruta="no.txt"), llamada("b", "leer", ruta="lista.txt"), llamada("c", "leer")]
    visto = [error("a", "no existe el fichero 'no.txt'"), resultado("b", ENTORNO["lista.txt"]),
             error("c", "no se ha ejecutado: falta el campo 'ruta'")]
    modelo = ModeloGuionizado(guion_de(INICIO, [turno, [texto("Ya.")]], [visto, None]))
    assert bucle(modelo, INICIO, dict(ENTORNO), 5, ejecutar_correcto)[:2] == ("fin", "Ya.")


# Idempotencia

@pytest.mark.parametrize("f, argumentos", [
    (leer, {"ruta": "lista.txt"}), (listar, {"carpeta": "recetas/"}), (buscar, {"patron": "patatas"}),
    (escribir, {"ruta": "lista.txt", "contenido": "pan, leche, patatas, tomates"}),
    (escribir, {"ruta": "nueva.txt", "contenido": "hola"}),
])
def test_las_cuatro_herramientas_son_idempotentes(f, argumentos):
    una, dos = una_y_dos(f, **argumentos)
    assert una == dos


def test_añadir_no_es_idempotente():
    una, dos = una_y_dos(añadir, ruta="lista.txt", contenido=", tomates")
    assert una["lista.txt"] == "pan, leche, patatas, tomates"
    assert dos["lista.txt"] == "pan, leche, patatas, tomates, tomates"


def test_una_y_dos_no_toca_el_entorno_original():
    antes = copy.deepcopy(ENTORNO)
    una_y_dos(escribir, ruta="lista.txt", contenido="")
    assert ENTORNO == antes


# La biblioteca

def test_la_libreria_no_define_ejecutar():
    modulos = [harness] + [importlib.import_module(m.name) for m in pkgutil.walk_packages(harness.__path__, "harness.")]
    assert {"harness.aula.widgets", "harness.revision.clausulas"} <= {m.__name__ for m in modulos}
    for modulo in modulos:
        assert not hasattr(modulo, "ejecutar"), modulo.__name__


def test_el_nucleo_de_la_leccion_no_importa_sus_instrumentos():
    # Lo que se lee (harness/*.py) no depende de aula/ ni de revision/, que no hace falta leer; solo
    # __init__.py ofrece el modelo de verdad como harness.ModeloClaude (lo dice su comentario), sin cargar nada más.
    for fichero in Path(harness.__file__).parent.glob("*.py"):
        texto = fichero.read_text(encoding="utf-8")
        if fichero.name == "__init__.py":
            texto = texto.replace("from .aula.claude import ModeloClaude, guion_desde", "")
        assert not re.search(r"^\s*(from|import) (\.|harness\.)(aula|revision)", texto, re.M), fichero.name


@pytest.mark.usefixtures("procesos")
def test_importar_harness_solo_carga_la_biblioteca_estandar():
    """`import harness`, la biblioteca que se lee, no trae nada de fuera de Python (ni widgets, ni IPython, ni el
    SDK de anthropic) ni la lista de comprobación, y de Python, nada de red: solo lo que usa."""
    codigo = ("import sys; antes = set(sys.modules); import harness, harness.salmorejo; "
              "print('\\n'.join(sorted(set(sys.modules) - antes)))")
    nuevos = subprocess.run([sys.executable, "-c", codigo], capture_output=True, text=True, check=True).stdout.split()
    de_fuera = [m for m in nuevos if m.split(".")[0] not in sys.stdlib_module_names | {"harness"}]
    assert not de_fuera, de_fuera
    assert "harness.bucle" in nuevos and not [m for m in nuevos if m.startswith("harness.revision")], nuevos
    assert not [m for m in nuevos if m.split(".")[0] in ("socket", "ssl", "http", "urllib", "asyncio")], nuevos
