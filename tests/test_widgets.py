"""Los widgets de verdad: se construyen, se manejan como lo haría un estudiante y se lee lo que enseñan."""

import html
import re
import subprocess
import sys

import nbformat
import pytest
from nbclient import NotebookClient
from nbconvert import HTMLExporter

from harness import ENTORNO, FUNCIONES, añadir, añadir_y_fallar, bucle, problemas, resultado, una_y_dos
from harness.aula import explorador, visor
from harness.aula.widgets import LECCION
from harness.guionizado import ModeloGuionizado, guion_de
from harness.salmorejo import FINAL, INICIO, RESPUESTAS, VISTO
from nucleos import NucleoPorFicheros
from referencia import ejecutar_correcto

VISTA = "application/vnd.jupyter.widget-view+json"


def traza_del_salmorejo():
    _, _, M = bucle(ModeloGuionizado(guion_de(INICIO, RESPUESTAS, VISTO)), INICIO, dict(ENTORNO), 10,
                    ejecutar_correcto)
    return M


def visible(codigo_html):
    """El texto que ve quien mira el HTML: sin etiquetas y con los espacios juntos."""
    sin_etiquetas = re.sub(r"<[^>]+>", " ", re.sub(r"</?(b|i|span)\b[^>]*>", "", codigo_html))
    return re.sub(r"\s+", " ", html.unescape(sin_etiquetas)).strip()


def fila(codigo_html, ruta):
    """La fila de la tabla de un fichero, en HTML."""
    return next(f.split("</tr>")[0] for f in codigo_html.split("<tr>") if ">%s<" % ruta in f)


def campos_a_la_vista(e):
    return [c for c, control in e.campos.items() if control.layout.display != "none"]


# El explorador de idempotencia

def test_el_explorador_abre_en_leer_y_ofrece_cada_herramienta_con_los_argumentos_de_la_leccion():
    e = explorador()
    assert (e.herramienta.value, e.campos["ruta"].value, campos_a_la_vista(e)) == ("leer", "lista.txt", ["ruta"])
    assert "idempotente: una y dos ejecuciones dejan el mismo entorno" in visible(e.salida.value)
    # La tabla de las cinco llamadas está una sola vez en la lección, en su celda: el explorador no la repite.
    assert "Las cinco llamadas" not in e.html()
    comparar = dict(FUNCIONES, añadir=añadir, añadir_y_fallar=añadir_y_fallar)
    assert [valor for _, valor in e.herramienta.options] == list(comparar) == list(LECCION)
    for nombre, f in comparar.items():
        e.herramienta.value = nombre
        una, dos = una_y_dos(_sin_lanzar(f), **LECCION[nombre])
        assert visible(e.salida.value).startswith("Llamada: %s(%s) %s" % (
            nombre, ", ".join("%s=%r" % p for p in LECCION[nombre].items()),
            "idempotente" if una == dos else "no idempotente"))


def _sin_lanzar(f):
    def tragona(entorno, **argumentos):
        try:
            f(entorno, **argumentos)
        except Exception:
            pass
    return tragona


def test_añadir_y_fallar_cambia_el_entorno_aunque_falla_y_el_explorador_lo_dice():
    e = explorador()
    e.herramienta.value = "añadir_y_fallar"
    salida = visible(e.salida.value)
    assert ("añadir_y_fallar lanzó TimeoutError: el disco no ha confirmado la escritura en lista.txt "
            "(en las tres ejecuciones: una en la primera copia y dos en la segunda)") in salida
    assert "El entorno ha cambiado aunque la llamada falló" in salida and "Traceback" not in salida
    assert "lista.txt pan, leche, patatas, tomates pan, leche, patatas, tomates, tomates" in salida
    assert "no idempotente" in e.texto()


def test_elegir_añadir_pone_sus_argumentos_y_no_es_idempotente():
    e = explorador()
    e.herramienta.value = "añadir"
    assert campos_a_la_vista(e) == ["ruta", "contenido"]
    assert (e.campos["ruta"].value, e.campos["contenido"].value) == ("lista.txt", ", tomates")
    salida = visible(e.salida.value)
    assert salida.startswith("Llamada: añadir(ruta='lista.txt', contenido=', tomates') no idempotente")
    assert "lista.txt pan, leche, patatas, tomates pan, leche, patatas, tomates, tomates" in salida
    assert "rgba(244, 67, 54" in fila(e.salida.value, "lista.txt")       # una y dos difieren: en rojo
    assert "rgba(" not in fila(e.salida.value, "recetas/gazpacho.txt")   # lo que no cambia, sin resaltar


def test_leer_un_fichero_que_no_existe_dice_lo_que_lanzo_y_que_el_entorno_sigue_igual():
    e = explorador()
    e.campos["ruta"].value = "x.txt"    # lo que llega al pulsar Enter en el campo
    salida = visible(e.salida.value)
    assert "leer lanzó FileNotFoundError: no existe el fichero 'x.txt' (en las tres ejecuciones:" in salida
    assert "El entorno queda como estaba" in salida and "Traceback" not in salida
    assert "idempotente: una y dos ejecuciones dejan el mismo entorno" in salida
    assert all("rgba(" not in fila(e.salida.value, ruta) for ruta in ENTORNO)


def test_escribir_un_fichero_nuevo_lo_enseña_en_los_dos_entornos():
    e = explorador()
    e.herramienta.value = "escribir"
    e.campos["ruta"].value, e.campos["contenido"].value = "nueva.txt", "hola"
    e.boton.click()
    salida = visible(e.salida.value)
    assert "Llamada: escribir(ruta='nueva.txt', contenido='hola') idempotente" in salida
    assert "nueva.txt hola hola" in salida
    assert "rgba(255, 193, 7" in fila(e.salida.value, "nueva.txt")     # cambia respecto a ENTORNO
    assert "lista.txt pan, leche, patatas pan, leche, patatas" in salida


def test_los_campos_de_texto_ejecutan_al_pulsar_enter():
    e = explorador()
    assert all(control.continuous_update is False for control in e.campos.values())
    e.herramienta.value = "buscar"
    e.campos["patron"].value = "salmorejo"
    assert "La primera ejecución devolvió: \"ninguna línea contiene 'salmorejo'\"" in visible(e.salida.value)


# El visor de conversaciones

def test_el_visor_recorre_la_traza_del_salmorejo_turno_a_turno():
    M = traza_del_salmorejo()
    v = visor(M, "La traza del salmorejo")
    assert len(v.pasos) == 5 and v.etiqueta.value == "turno 0 de 4 (el inicio)"
    assert v.anterior.disabled and "Añade a lista.txt lo que falta" in visible(v.contenido.value)
    v.siguiente.click()
    ahora = visible(v.contenido.value)
    assert v.etiqueta.value == "turno 1 de 4" and "Leo la receta y la lista." in ahora
    assert ("observación de t1 · error, que contesta a t1 → leer(rutas=['recetas/salmorejo.txt', 'lista.txt']) "
            "no se ha ejecutado: falta el campo 'ruta'") in ahora
    for _ in range(10):
        v.siguiente.click()
    assert v.etiqueta.value == "turno 4 de 4" and v.siguiente.disabled
    assert visible(v.contenido.value).endswith(FINAL)
    v.anterior.click()
    assert "observación de t4, que contesta a t4 → listar(carpeta='recetas/')" in visible(v.contenido.value)
    v.todo.value = True
    assert v.contenido.value.count("· mensaje ") == len(M) and v.anterior.disabled and v.siguiente.disabled


def test_el_visor_marca_los_errores_en_rojo():
    v = visor(traza_del_salmorejo())
    todo = v.html()
    # Un error es una observación más: lo que cambia es la marca y el color.
    assert todo.count(" · <b>error</b>") == 2 and todo.count("observación de") == 4
    errores = re.findall(r'<div style="([^"]*)">observación de <b>(t\d)</b> · <b>error</b>', todo)
    assert [t for _, t in errores] == ["t1", "t2"] and all("rgba(244, 67, 54" in s for s, _ in errores)
    assert "Conversación sin roturas" in visible(v.cabecera.value)


def test_problemas_de_la_traza_entera_es_una_lista_vacia():
    assert problemas(traza_del_salmorejo()) == []
    assert problemas(INICIO) == []


def test_problemas_encuentra_una_llamada_sin_observacion():
    M = traza_del_salmorejo()
    # Lo que queda con el ejecutar a medias: el turno 2 pide t2 y t3 y nadie contesta.
    assert problemas(M[:5]) == ["mensaje 5: la llamada t2 (leer) se ha quedado sin observación",
                                "mensaje 5: la llamada t3 (leer) se ha quedado sin observación"]
    sin_t3 = M[:5] + [("usuario", [M[5][1][0]])] + M[6:]
    assert problemas(sin_t3) == ["mensaje 5: la llamada t3 (leer) se ha quedado sin observación"]


def test_problemas_encuentra_observaciones_que_no_contestan_a_nada():
    M = traza_del_salmorejo()
    huerfana = M[:8] + [("usuario", [resultado("t9", "hola")])] + M[8:]
    assert problemas(huerfana) == ["mensaje 9: la observación de t9 no contesta a ninguna llamada del turno anterior"]
    a_destiempo = M[:7] + [("usuario", [M[7][1][0], M[3][1][0]])] + M[8:]
    assert problemas(a_destiempo) == ["mensaje 8: la observación de t1 no contesta a ninguna llamada del turno "
                                      "anterior (t1 es de un turno de antes)"]
    repetida = M[:3] + [("usuario", M[3][1] * 2)] + M[4:]
    assert problemas(repetida) == ["mensaje 4: la llamada t1 tiene más de una observación"]


def test_problemas_encuentra_observaciones_vacias_y_observaciones_detras_de_un_texto():
    """Las dos cosas por las que la API rechaza una conversación aunque cada llamada tenga su observación."""
    M = traza_del_salmorejo()
    for vacia in ("", []):
        t2_vacio = M[:5] + [("usuario", [dict(M[5][1][0], content=vacia), M[5][1][1]])] + M[6:]
        assert problemas(t2_vacio) == ["mensaje 6: la observación de t2 está vacía, y la API no acepta un "
                                       "tool_result sin contenido"]
    con_texto = M[:5] + [("usuario", [M[5][1][0], {"type": "text", "text": "Sigue."}, M[5][1][1]])] + M[6:]
    assert problemas(con_texto) == ["mensaje 6: la observación de t3 va detrás de otro bloque, y las observaciones "
                                    "van primero en su mensaje"]
    detras = M[:5] + [("usuario", M[5][1] + [{"type": "text", "text": "Sigue."}])] + M[6:]
    assert problemas(detras) == []  # un texto detrás de las observaciones, sí


def test_el_visor_de_una_conversacion_rota_lo_dice_arriba_y_en_la_tarjeta():
    M = traza_del_salmorejo()[:5]
    v = visor(M)
    assert visible(v.cabecera.value).startswith("⚠ Conversación rota: mensaje 5: la llamada t2 (leer)")
    v.mover(2)
    assert visible(v.contenido.value).count("⚠ la llamada") == 2


# Las copias para cuando no hay núcleo

def test_cada_widget_lleva_su_vista_y_sus_copias_en_html_y_en_texto():
    e, v = explorador(), visor(traza_del_salmorejo(), "La traza del salmorejo")
    for widget in (e, v):
        datos = widget._repr_mimebundle_()
        assert set(datos) == {VISTA, "text/html", "text/plain"}
        assert datos[VISTA]["model_id"] == widget.caja.model_id
        # Que se vea sola: estilos en línea, nada de scripts, hojas de estilo ni clases de fuera.
        assert not re.search(r"<script|<link|<style|class=", datos["text/html"])
    e.herramienta.value = "añadir"
    copia = visible(e._repr_mimebundle_()["text/html"])
    assert copia.startswith("Llamada: añadir(") and "pan, leche, patatas, tomates, tomates" in copia
    assert "añadir(ruta='lista.txt', contenido=', tomates'): no idempotente" in e._repr_mimebundle_()["text/plain"]
    copia = visible(v._repr_mimebundle_()["text/html"])
    assert copia.startswith("La traza del salmorejo Conversación sin roturas") and copia.endswith(FINAL)
    assert "t2 ← ERROR \"no existe el fichero 'recetas/salmorejo.txt'\"" in v._repr_mimebundle_()["text/plain"]


@pytest.mark.usefixtures("procesos")
def test_importar_los_widgets_no_trae_ipywidgets_hasta_que_se_construyen_ni_el_cuestionario():
    # El cuestionario instala su pista al importarse: harness.aula no lo importa.
    codigo = ("import sys, harness.aula; print('ipywidgets' in sys.modules, 'harness.aula.cuestionario' in sys.modules); "
              "harness.aula.explorador(); print('ipywidgets' in sys.modules)")
    salida = subprocess.run([sys.executable, "-c", codigo], capture_output=True, text=True, check=True)
    assert salida.stdout.split() == ["False", "False", "True"]


@pytest.mark.usefixtures("procesos")
def test_nbconvert_enseña_las_copias_de_un_cuaderno_ejecutado_con_un_nucleo_de_verdad():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in [
        "from harness.aula import explorador, visor\nfrom harness.salmorejo import INICIO, RESPUESTAS, VISTO",
        "e = explorador()\ne.herramienta.value = 'añadir'\ne",
        "visor(INICIO + [('asistente', RESPUESTAS[0]), ('usuario', VISTO[0])], 'El primer turno')",
    ]]
    # nbgrader ejecuta así, si su configuración no guarda el estado de los widgets (Execute.store_widget_state).
    NotebookClient(nb, kernel_manager_class=NucleoPorFicheros, kernel_name="python3", store_widget_state=False, timeout=60).execute()
    assert all(VISTA in c.outputs[0]["data"] for c in nb.cells[1:])
    pagina, _ = HTMLExporter().from_notebook_node(nb)
    texto = visible(pagina)
    assert "Llamada: añadir(" in texto and "pan, leche, patatas, tomates, tomates" in texto
    assert "El primer turno Conversación sin roturas" in texto
    assert "observación de t1 · error, que contesta a t1 → leer(rutas=['recetas/salmorejo.txt', 'lista.txt'])" in texto
    assert VISTA not in pagina
