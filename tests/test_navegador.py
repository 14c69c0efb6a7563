"""La lección en un navegador de verdad, como la hace un estudiante.

Un JupyterLab de verdad (en español, como `make lab`) sobre una copia temporal del curso y un
Chromium de Debian manejado con Playwright: abrir el cuaderno publicado, ejecutarlo todo, ver
morir la conversación en el turno 2, apuntar una predicción y verla junto a lo que ha pasado, hacer
el primer ejercicio en su celda (escribir la contestación del turno 2 y ver el ✔ al momento), pulsar Validate de nbgrader (falla), contestar el reto (y el
cuestionario, si está en modo calificado) en sus celdas, guardar, ejecutarlo todo otra vez (llega
al final; antes, con una respuesta que repite sin fin la llamada que falla, comprueba que «Ejecutar
todas las celdas» acaba y dice por qué se para), usar los widgets (el explorador pasa de `leer` a `añadir_y_fallar` y cambia su veredicto; el
visor avanza turno a turno; el visor de la conversación del estudiante está entera; en modo
formativo, una pregunta del cuestionario se contesta mal y bien con su widget y enseña cada
veredicto al momento) y volver a validar (pasa). La ventana de Validar dice primero qué arreglar, con
la prueba plegada. Al final, como en un segundo `make lab`, se apaga el núcleo (la barra dice «Sin
kernel») y se vuelve a abrir el cuaderno: cada widget enseña su copia guardada hasta que se ejecuta su
celda.

La maquinaria está en navegador.py; aquí, los pasos de la lección, cada uno en su función.
Si falla, hay captura, consola del navegador y registro del servidor en tests/artefactos/ (el
fixture `pagina` de conftest.py).

Ejecutar solo esta prueba: `.venv/bin/python -m pytest tests/test_navegador.py -v`.
"""

import json
import os
import re
from pathlib import Path

import nbformat
import pytest

import navegador as nv

LECCION = "errores-como-observaciones"
# Donde la deja `make lab` (course/lab.py): trabajo/<tarea>/, copia de release/<tarea>/.
TRABAJO = f"trabajo/{LECCION}/{LECCION}.ipynb"
RELEASE = Path("release") / LECCION / f"{LECCION}.ipynb"
SOURCE = Path("source") / LECCION / f"{LECCION}.ipynb"

MUERTE_EN_EL_TURNO_2 = "La conversación muere en el turno 2 con FileNotFoundError: no existe el fichero 'recetas/salmorejo.txt'"
# Las celdas de respuesta que rellena el estudiante (grade_id de docs/CONTRATOS.md); las del
# cuestionario solo existen en modo calificado.
RESPUESTAS = ["respuesta-1", "respuesta-2", "respuesta-3", "respuesta-4", "ejecutar"]
# Las pruebas visibles que fallan sin contestar (las demás del reto son ocultas: en release, solo comentarios).
FALLAN_SIN_CONTESTAR = ["pregunta-1", "pregunta-2", "pregunta-3", "pregunta-4", "ejecutar-salmorejo",
                        "ejecutar-excepciones"]
# El primer ejercicio, hecho: la contestación del turno 2 escrita con error y resultado.
EJERCICIO_1 = ("from harness.aula import comprobar_contestacion\n\n"
               "tras_el_turno_2 = [\n"
               "    error(\"t2\", \"no existe el fichero 'recetas/salmorejo.txt'\"),\n"
               "    resultado(\"t3\", leer(ENTORNO, \"lista.txt\")),\n"
               "]\n\n"
               "comprobar_contestacion(2, tras_el_turno_2)")


# Una respuesta que repite sin fin la llamada que falla (issue 36): «Ejecutar todas las celdas» no se queda colgado.
REINTENTA = ("def ejecutar(llamada, entorno):\n"
             "    motivo = incumple(llamada)\n"
             "    if motivo is not None:\n"
             "        return error(llamada[\"id\"], \"no se ha ejecutado: \" + motivo)\n"
             "    while True:  # otra vez, hasta que salga bien\n"
             "        try:\n"
             "            return resultado(llamada[\"id\"], FUNCIONES[llamada[\"name\"]](entorno, **llamada[\"input\"]))\n"
             "        except Exception:\n"
             "            pass")


def las_que_hay(curso, ruta, grade_ids):
    """Los grade_id de la lista que tiene de verdad el cuaderno (depende del modo del cuestionario)."""
    celdas = nv.celdas_por_grade_id(curso / ruta)
    return [g for g in grade_ids if g in celdas]


# =========================================================================== fixtures

@pytest.fixture(scope="module")
def curso(tmp_path_factory):
    """Copia temporal del curso (nbgrader_config.py, harness/, course/, release/, source/)."""
    base = tmp_path_factory.mktemp("navegador")
    raiz = base / "curso"
    raiz.mkdir()
    nv.copiar_curso(raiz)
    nv.preparar_ajustes(base / "privado")
    return raiz


@pytest.fixture(scope="module")
def servidor(curso, chromium):
    with nv.Servidor(curso, curso.parent / "privado") as srv:
        yield srv


# =========================================================================== pasos de la lección

def dejar_en_trabajo(curso, release):
    """Lo que hace `make lab` la primera vez: copiar el cuaderno publicado a trabajo/."""
    destino = curso / TRABAJO
    destino.parent.mkdir(parents=True, exist_ok=True)
    destino.write_bytes((curso / release).read_bytes())
    return TRABAJO


def respuestas_correctas(curso, fuente=SOURCE, ids=RESPUESTAS):
    """{grade_id: texto}: las soluciones del cuaderno SOURCE, sin las marcas de nbgrader."""
    celdas = nv.celdas_por_grade_id(curso / fuente)
    faltan = [g for g in ids if g not in celdas]
    assert not faltan, f"{fuente} no tiene celdas con grade_id {faltan}"
    return {g: nv.quitar_marcas(nv.fuente(celdas[g])) for g in ids}


def abrir_como_estudiante(pagina, servidor, ruta):
    pagina.goto(servidor.abrir(ruta), wait_until="domcontentloaded", timeout=nv.ESPERA_UI * 1000)
    nv.esperar_cuaderno(pagina)
    nv.esperar_nucleo_libre(pagina, servidor, ruta)


def ejecutar_todo(pagina, servidor, ruta):
    """Run > Run All Cells, por su data-command (la etiqueta del menú depende del idioma)."""
    nv.ejecutar_orden_del_menu(pagina, "runmenu:run-all")
    nv.esperar_nucleo_libre(pagina, servidor, ruta)


def primera_celda_que_corre_el_bucle(curso, ruta):
    """Posición (entre las celdas de código) de la primera que pasa la conversación por `bucle(`."""
    nb = json.loads((curso / ruta).read_text(encoding="utf-8"))
    codigo = [nv.fuente(c) for c in nb["cells"] if c["cell_type"] == "code"]
    for i, texto in enumerate(codigo):
        if "bucle(" in texto:
            return i
    raise AssertionError(f"ninguna celda de {ruta} llama a bucle(")


def comprobar_muerte_en_el_turno_2(pagina, curso, ruta):
    """La primera celda que corre el bucle (con el `ejecutar` a medias) muestra la muerte en el turno 2."""
    i = primera_celda_que_corre_el_bucle(curso, ruta)
    salida = nv.salidas_de_celda(pagina, i)
    assert MUERTE_EN_EL_TURNO_2 in salida, (
        f"la celda de código n.º {i} (la primera que corre el bucle) no muestra la muerte en el turno 2:\n{salida}")


def hacer_el_ejercicio_1(pagina, servidor, curso, ruta):
    """Como un estudiante: escribe la contestación del turno 2 en la celda del ejercicio, la ejecuta con
    Mayús+Intro y lee el ✔ que le da al momento el propio modelo guionizado."""
    nb = json.loads((curso / ruta).read_text(encoding="utf-8"))
    posicion = next(i for i, c in enumerate(nb["cells"]) if c.get("id") == "ejercicio-1-codigo")
    de_codigo = sum(c["cell_type"] == "code" for c in nb["cells"][:posicion])
    celda = pagina.locator(f"{nv.CUADERNO} .jp-Notebook .jp-Cell").nth(posicion)
    assert "Aún no has escrito nada" in nv.salidas_de_celda(pagina, de_codigo)  # tras Run All, sin hacer
    nv.escribir_en_celda(pagina, celda, EJERCICIO_1)
    pagina.keyboard.press("Shift+Enter")
    nv.esperar_nucleo_libre(pagina, servidor, ruta)
    salida = nv.salidas_de_celda(pagina, de_codigo)
    assert "✔ Es el mensaje que espera el guion tras el turno 2" in salida, salida


def ejecutar_celda(pagina, posicion, esperar):
    """Ejecuta la celda número `posicion` (0 = la primera) como un estudiante: clic, Escape y Mayús+Intro."""
    celda = pagina.locator(f"{nv.CUADERNO} .jp-Notebook .jp-Cell").nth(posicion)
    celda.locator(".cm-content").click()
    pagina.keyboard.press("Escape")
    pagina.keyboard.press("Shift+Enter")
    esperar()


def hacer_una_prediccion(pagina, curso, ruta, esperar):
    """Como un estudiante que ya ha ejecutado todo sin predecir: vuelve a ejecutar la celda de la primera
    predicción (la de antes quedó cerrada al ver lo que pasaba), elige «en el turno 2» y pulsa «Apuntar» (y
    ya no se puede cambiar), ejecuta la celda del experimento y ve, en ella y en el widget, que ha acertado."""
    from playwright.sync_api import expect

    nb = json.loads((curso / ruta).read_text(encoding="utf-8"))
    posicion = next(i for i, c in enumerate(nb["cells"]) if c.get("id") == "a-medias")
    de_codigo = sum(c["cell_type"] == "code" for c in nb["cells"][:posicion])
    prediccion = salida_con(pagina, ".widget-radio-box")  # la primera del cuaderno: ¿en qué turno se corta?
    expect(prediccion).to_contain_text("Para predecir antes de verlo, vuelve a ejecutar esta celda")
    ejecutar_celda(pagina, posicion - 1, esperar)
    prediccion = salida_con(pagina, ".widget-radio-box")
    expect(prediccion).to_contain_text("¿En qué turno se corta la conversación?")
    expect(prediccion).not_to_contain_text("Ha pasado")
    prediccion.locator(".widget-radio-box label").filter(has_text="en el turno 2").locator("input").check()
    prediccion.get_by_role("button", name="Apuntar").click()
    expect(prediccion).to_contain_text("Apuntada.", timeout=nv.ESPERA_UI * 1000)
    expect(prediccion.locator(".widget-radio-box input").first).to_be_disabled()
    ejecutar_celda(pagina, posicion, esperar)
    salida = nv.salidas_de_celda(pagina, de_codigo)
    assert "✔ Predicción: en el turno 2. Es lo que ha pasado." in salida, salida
    assert "Predicción: no la has apuntado. Ha pasado esto: no." in salida, salida  # la de t3, sin apuntar
    expect(prediccion).to_contain_text("✔ Predicción: en el turno 2. Es lo que ha pasado.", timeout=nv.ESPERA_UI * 1000)
    capturar(prediccion, "prediccion.png")


def que_widgets_usa(curso, ruta):
    """(explorador, visor): si alguna celda de código del cuaderno los construye."""
    nb = json.loads((curso / ruta).read_text(encoding="utf-8"))
    codigo = "\n".join(nv.fuente(c) for c in nb["cells"] if c["cell_type"] == "code")
    return "explorador(" in codigo, "visor(" in codigo


def capturar(salida, nombre):
    """Guarda la imagen de una salida en $CAPTURAS (`make capturas` la deja en docs/img) o en tests/artefactos."""
    carpeta = Path(os.environ.get("CAPTURAS") or Path(__file__).parent / "artefactos")
    carpeta.mkdir(parents=True, exist_ok=True)
    salida.screenshot(path=str(carpeta / nombre))


def salida_con(pagina, selector):
    """La primera salida de celda que contiene `selector` (los widgets no llevan el grade_id)."""
    salida = pagina.locator(f"{nv.CUADERNO} .jp-OutputArea-output").filter(has=pagina.locator(selector)).first
    salida.wait_for(state="attached", timeout=nv.ESPERA_UI * 1000)
    salida.scroll_into_view_if_needed()
    return salida


def comprobar_explorador(pagina):
    """El explorador abre en `leer`, idempotente; al pasar a `añadir_y_fallar`, el veredicto cambia a no
    idempotente y dice que el entorno ha cambiado aunque la llamada ha fallado."""
    from playwright.sync_api import expect

    explorador = salida_con(pagina, ".widget-dropdown select")
    veredicto = explorador.locator(".widget-html-content").last  # el HTML del resultado, bajo el botón
    expect(veredicto).to_contain_text("idempotente: una y dos", timeout=nv.ESPERA_UI * 1000)
    expect(veredicto).not_to_contain_text("no idempotente")
    menu = explorador.locator(".widget-dropdown select")
    valores = menu.locator("option").evaluate_all("ops => ops.map(o => o.value)")
    falla = [v for v in valores if v.startswith("añadir_y_fallar")]  # la etiqueta: «… (solo para comparar)»
    assert falla, f"el explorador no ofrece añadir_y_fallar: {valores}"
    menu.select_option(value=falla[0])
    expect(veredicto).to_contain_text("no idempotente", timeout=nv.ESPERA_UI * 1000)
    expect(veredicto).to_contain_text("El entorno ha cambiado aunque la llamada falló")
    expect(veredicto).to_contain_text("tomates, tomates")
    capturar(explorador, "explorador.png")


def comprobar_visor(pagina):
    """El visor empieza en el turno 0 y avanza turno a turno hasta el último, cambiando lo que enseña."""
    from playwright.sync_api import expect

    visor = salida_con(pagina, "button.widget-button:has-text('Siguiente')")
    siguiente = visor.get_by_role("button", name=re.compile("Siguiente"))
    etiqueta = visor.locator(".widget-label").filter(has_text=re.compile(r"turno \d+ de \d+")).first
    expect(etiqueta).to_contain_text("turno 0 de", timeout=nv.ESPERA_UI * 1000)
    total = int(re.search(r"de (\d+)", etiqueta.text_content()).group(1))
    assert total >= 1, etiqueta.text_content()
    contenido = visor.locator(".widget-html-content").last
    vistos = [contenido.text_content()]
    # La etiqueta más larga cabe en su ancho fijo, y «Siguiente» no se mueve: se puede pulsar seguido.
    assert etiqueta.evaluate("e => e.scrollWidth <= e.clientWidth"), etiqueta.text_content()
    donde = siguiente.bounding_box()["x"]
    for k in range(1, total + 1):
        # Con el teclado, como lo haría quien no usa el ratón: foco en «Siguiente» y Enter.
        siguiente.focus()
        pagina.keyboard.press("Enter")
        expect(etiqueta).to_contain_text(f"turno {k} de {total}", timeout=nv.ESPERA_UI * 1000)
        expect(contenido).not_to_have_text(vistos[-1], timeout=nv.ESPERA_UI * 1000)
        vistos.append(contenido.text_content())
        assert siguiente.bounding_box()["x"] == donde, f"«Siguiente» se ha movido en el turno {k}"
        if k == 2:  # el turno de los dos errores
            capturar(visor, "visor.png")
    expect(siguiente).to_be_disabled()


def comprobar_visor_del_estudiante(pagina):
    """El último visor del cuaderno (la conversación con el `ejecutar` del estudiante) está entera."""
    from playwright.sync_api import expect

    visores = pagina.locator(f"{nv.CUADERNO} .jp-OutputArea-output").filter(
        has=pagina.locator("button.widget-button:has-text('Siguiente')"))
    ultimo = visores.last
    ultimo.scroll_into_view_if_needed()
    expect(ultimo).to_contain_text("Conversación sin roturas", timeout=nv.ESPERA_UI * 1000)
    expect(ultimo).not_to_contain_text("Conversación rota")


def comprobar_cuestionario(pagina):
    """La pregunta 1 en su widget: una opción mala y luego la buena, cada una con su veredicto al momento."""
    from playwright.sync_api import expect

    from course.cuestionario import PREGUNTAS

    pregunta = salida_con(pagina, ".cuestionario")
    boton = pregunta.get_by_role("button", name="Comprobar")
    buena = PREGUNTAS[1]["correcta"]
    mala = next(c for c in PREGUNTAS[1]["opciones"] if c != buena)
    for letra, veredicto, explicacion in ((mala, "✘ No es correcto.", PREGUNTAS[1]["explicaciones"][mala]),
                                          (buena, "✔ Correcto.", PREGUNTAS[1]["explicaciones"][buena])):
        pregunta.locator(".widget-checkbox").filter(has_text=letra + ")").locator("input").check()
        boton.click()
        veredicto_en_pantalla = pregunta.locator(".widget-html-content").last
        expect(veredicto_en_pantalla).to_contain_text(veredicto, timeout=nv.ESPERA_UI * 1000)
        expect(veredicto_en_pantalla).to_contain_text(explicacion.split("`")[0].strip())
    # De una sola respuesta: marcar la buena ha desmarcado la mala.
    marcadas = pregunta.locator(".widget-checkbox input:checked")
    expect(marcadas).to_have_count(1)
    capturar(pregunta, "cuestionario.png")
    # La pregunta 3 es de verdadero o falso: sus casillas dicen «verdadero» y «falso» enteras, no «v…», «f…».
    verdad = salida_con(pagina, ".cuestionario .widget-checkbox:has-text('verdadero')")
    for casilla in verdad.locator(".widget-checkbox").all():
        cortadas = casilla.evaluate("e => [e, ...e.querySelectorAll('*')].filter(n => n.scrollWidth > n.clientWidth + 1).length")
        assert cortadas == 0, f"la casilla «{casilla.inner_text()}» de la pregunta 3 se corta"


def comprobar_lo_comprobado(cuaderno):
    """Lo último que se comprobó con el widget de la pregunta 1 (la respuesta buena) queda en el cuaderno guardado,
    como salida de su celda, y es lo que lee el informe de la clase."""
    from course.cuestionario import PREGUNTAS, respuestas_del_cuaderno

    leidas = respuestas_del_cuaderno(nbformat.read(cuaderno, as_version=4))
    assert leidas == {**dict.fromkeys(PREGUNTAS), 1: PREGUNTAS[1]["correcta"]}, leidas


def comprobar_widgets(pagina, curso, ruta):
    """Explorador y visor de harness.aula.widgets, si el cuaderno los usa (el cuaderno ya ejecutado entero)."""
    explorador, visor = que_widgets_usa(curso, ruta)
    if explorador:
        comprobar_explorador(pagina)
    if visor:
        comprobar_visor(pagina)
        comprobar_visor_del_estudiante(pagina)
    if "pregunta(" in (curso / ruta).read_text(encoding="utf-8"):
        comprobar_cuestionario(pagina)
        nv.guardar(pagina)
        nv.esperar_en_disco(lambda: comprobar_lo_comprobado(curso / ruta))
    if not (explorador or visor):
        print(f"{ruta} aún no usa el explorador ni el visor de harness.aula.widgets: sin pasos de widgets")
    return explorador, visor


VISTA = "application/vnd.jupyter.widget-view+json"


def visible(codigo_html):
    """El texto que se lee en un trozo de HTML: sin etiquetas y con los espacios juntos."""
    import html

    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", codigo_html))).strip()


def salidas_de_widget(cuaderno):
    """[(celda, text/plain, text/html)] de cada salida de widget del cuaderno guardado, en orden."""
    nb = json.loads(Path(cuaderno).read_text(encoding="utf-8"))
    return [(i, "".join(o["data"].get("text/plain", "")), "".join(o["data"].get("text/html", "")))
            for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"
            for o in c.get("outputs", []) if VISTA in o.get("data", {})]


def comprobar_las_copias(pagina, cuaderno):
    """El cuaderno, abierto de nuevo con otro núcleo (o tras recargar la página): cada salida de widget enseña
    su copia guardada, la misma que lleva el fichero, antes de ejecutar nada; ninguna el error de ipywidgets
    ni «Loading widget...». Devuelve las salidas de widget del fichero."""
    from playwright.sync_api import expect

    salidas = salidas_de_widget(cuaderno)
    tipos = " ".join(texto for _, texto, _ in salidas)
    assert "Explorador de idempotencia" in tipos and all(f"Pregunta {n} del cuestionario" in tipos for n in (1, 2, 3, 4)), tipos
    copias = pagina.locator(f"{nv.CUADERNO} .jp-OutputArea-output .curso-copia")
    expect(copias).to_have_count(len(salidas), timeout=nv.ESPERA_UI * 1000)
    todas = pagina.locator(f"{nv.CUADERNO} .jp-OutputArea-output")
    for mala in ("Error displaying widget", "Loading widget", "Cargando el widget"):
        expect(todas.filter(has_text=mala)).to_have_count(0)
    for k, (_, texto, codigo_html) in enumerate(salidas):
        copia = copias.nth(k)
        expect(copia.locator(".curso-copia-aviso")).to_contain_text("vuelve a ejecutar la celda")
        # Lo mismo que se lee en el HTML del fichero (sin contar espacios: el HTML separa sus bloques con saltos).
        vista = copia.locator(":scope > div").last.text_content()
        assert re.sub(r"\s+", "", vista) == re.sub(r"\s+", "", visible(codigo_html)), (
            f"la copia de «{texto}» no es la del cuaderno:\n{vista}\n!=\n{visible(codigo_html)}")
        if texto == "Pregunta 1 del cuestionario":  # la comprobó comprobar_cuestionario: su veredicto se guardó
            expect(copia).to_contain_text("✔ Correcto.")
    return salidas


def reabrir_con_otro_nucleo(pagina, servidor, curso, ruta):
    """Lo que pasa con un segundo `make lab`: se apaga el núcleo (Kernel › Apagar; la barra dice «Sin kernel»,
    no «No Kernel») y se vuelve a abrir el cuaderno, que arranca uno nuevo sin los modelos de los widgets.
    Cada widget enseña su copia; al volver a ejecutar la celda del explorador, vuelve el widget."""
    from playwright.sync_api import expect

    nv.guardar(pagina)
    nv.ejecutar_orden_del_menu(pagina, "kernelmenu:shutdown")
    if pagina.locator(nv.DIALOGO).count():  # por si pide confirmación
        pagina.locator(nv.ACEPTAR).click()
    expect(pagina.locator(f"{nv.CUADERNO} .jp-Toolbar .jp-KernelName")).to_have_text("Sin kernel", timeout=nv.ESPERA_UI * 1000)
    pagina.goto(servidor.abrir(ruta), wait_until="domcontentloaded", timeout=nv.ESPERA_UI * 1000)
    nv.esperar_cuaderno(pagina)
    nv.esperar_nucleo_libre(pagina, servidor, ruta)
    salidas = comprobar_las_copias(pagina, curso / ruta)
    celda, _, _ = next(s for s in salidas if s[1].startswith("Explorador de idempotencia"))
    explorador = pagina.locator(f"{nv.CUADERNO} .jp-Notebook .jp-Cell").nth(celda)
    explorador.locator(".cm-content").click()
    pagina.keyboard.press("Shift+Enter")
    expect(explorador.locator(".widget-dropdown select")).to_be_visible(timeout=nv.ESPERA_UI * 1000)
    expect(explorador.locator(".curso-copia")).to_have_count(0)


def comprobar_que_corre_entero(pagina, curso, ruta):
    """Con las respuestas puestas, Run All llega al final: todas las celdas de código tienen número."""
    prompts = pagina.locator(f"{nv.CELDA_DE_CODIGO} .jp-InputArea-prompt").all_text_contents()
    sin_numero = [i for i, p in enumerate(prompts) if not re.search(r"\[\d+\]", p)]
    assert not sin_numero, f"con las respuestas correctas, Run All no ejecutó las celdas de código {sin_numero}: {prompts}"


def de_codigo(curso, ruta, es_ella):
    """Posición, entre las celdas de código del cuaderno, de la primera celda de la que `es_ella(celda)`."""
    nb = json.loads((curso / ruta).read_text(encoding="utf-8"))
    codigo = [c for c in nb["cells"] if c["cell_type"] == "code"]
    return next(i for i, c in enumerate(codigo) if es_ella(c))


def comprobar_que_no_se_cuelga(pagina, servidor, curso, ruta):
    """Con una respuesta que repite sin fin la llamada que falla, «Ejecutar todas las celdas» acaba (el núcleo
    queda libre): revisar corta cada comprobación en su segundo y lo dice, y la prueba visible del salmorejo se
    para con un mensaje corto en español, sin traza; ahí se detiene Run All, como con cualquier prueba que falla."""
    ejecutar_todo(pagina, servidor, ruta)
    lo_que_dice_una_respuesta_que_no_acaba(pagina, curso, ruta)


def lo_que_dice_una_respuesta_que_no_acaba(pagina, curso, ruta):
    """Tras Run All con REINTENTA: revisar y la prueba visible del salmorejo dicen que no ha terminado a tiempo."""
    revisar = de_codigo(curso, ruta, lambda c: "revisar(ejecutar)" in nv.fuente(c))
    assert "no ha terminado en 1 segundo" in nv.salidas_de_celda(pagina, revisar), nv.salidas_de_celda(pagina, revisar)
    gid = lambda c: c.get("metadata", {}).get("nbgrader", {}).get("grade_id")  # noqa: E731
    salmorejo = nv.salidas_de_celda(pagina, de_codigo(curso, ruta, lambda c: gid(c) == "ejecutar-salmorejo"))
    assert "✘ No pasa: tu ejecutar no ha terminado en 1 segundo con la llamada" in salmorejo, salmorejo
    assert "¿Repite la llamada que falla?" in salmorejo and "Traceback" not in salmorejo, salmorejo


def lo_primero_es_que_arreglar(cuantas, dice="✘ No pasa:"):
    """Lo que se mira en la ventana de Validar cuando falla: una caja por celda que no pasa, que empieza
    por el «✘ No pasa: …» en español, entero y a la vista sin desplazar nada; la prueba y la traza, plegadas."""
    from playwright.sync_api import expect

    def mirar(mensaje):
        fallos = mensaje.locator(".curso-fallo")
        expect(fallos).to_have_count(cuantas)
        for i in range(cuantas):
            primero = fallos.nth(i).locator(":scope > *").first
            expect(primero).to_have_class(re.compile(r"\bcurso-error\b"))
            expect(primero).to_contain_text(dice or re.compile(r"\S"))
            # Entero: no es una caja con barra de desplazamiento.
            assert primero.evaluate("e => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1")
            plegados = fallos.nth(i).locator("details")
            assert plegados.count() >= 1 and plegados.evaluate_all("ds => ds.every(d => !d.open)")
        # El primero se lee sin desplazar la ventana: está dentro de lo que se ve de ella.
        caja = mensaje.page.locator(".jp-Dialog-content").bounding_box()
        error = fallos.first.locator(".curso-error").bounding_box()
        assert caja["y"] <= error["y"] and error["y"] + error["height"] <= caja["y"] + caja["height"], (caja, error)
        assert mensaje.evaluate("m => m.closest('.jp-Dialog-body').scrollTop") == 0
        capturar(mensaje.page.locator(".jp-Dialog-content"), "validar.png")

    return mirar


def validar_y_esperar_fallo(pagina, curso, ruta, fallan, dice="✘ No pasa:"):
    """Validate sin contestar: falla en las pruebas; la ventana dice primero qué arreglar y lleva, plegada,
    cada prueba de `fallan`."""
    exito, clases, texto = nv.validar(pagina, mirar=lo_primero_es_que_arreglar(len(fallan), dice))
    assert not exito and "validation-failed" in clases.split(), (
        f"con el cuestionario y el reto sin contestar, Validate debía fallar en las pruebas; dio {clases!r}:\n{texto}")
    celdas = nv.celdas_por_grade_id(curso / ruta)
    for gid in fallan:
        primera = nv.fuente(celdas[gid]).strip().splitlines()
        distintiva = max(primera, key=lambda l: ("respuesta_" in l or "ejecutar" in l, len(l)))
        assert distintiva.strip() in texto, f"el diálogo de Validate no enseña la prueba {gid} ({distintiva!r}):\n{texto}"
    print("Validate sin contestar:", texto[:300].replace("\n", " | "))
    return texto


def validar_y_esperar_exito(pagina):
    exito, clases, texto = nv.validar(pagina)
    assert exito, f"con las respuestas correctas, Validate debía pasar; dio {clases!r}:\n{texto}"
    print("Validate contestado:", texto[:300].replace("\n", " | "))
    return texto


# =========================================================================== la prueba

def test_el_estudiante_hace_la_leccion_en_el_navegador(pagina, servidor, curso):
    if not (curso / RELEASE).exists():
        nv.saltar_o_fallar(f"No hay {RELEASE} (make release) / {RELEASE} is missing; "
                           "la maquinaria la prueba test_maquinaria_con_una_leccion_de_juguete.")
    ruta = dejar_en_trabajo(curso, RELEASE)
    abrir_como_estudiante(pagina, servidor, ruta)
    ejecutar_todo(pagina, servidor, ruta)
    comprobar_muerte_en_el_turno_2(pagina, curso, ruta)
    hacer_una_prediccion(pagina, curso, ruta, lambda: nv.esperar_nucleo_libre(pagina, servidor, ruta))
    hacer_el_ejercicio_1(pagina, servidor, curso, ruta)
    validar_y_esperar_fallo(pagina, curso, ruta, las_que_hay(curso, ruta, FALLAN_SIN_CONTESTAR))
    nv.contestar(pagina, curso, ruta, dict(respuestas_correctas(curso, ids=las_que_hay(curso, ruta, RESPUESTAS)),
                                           ejecutar=REINTENTA))
    comprobar_que_no_se_cuelga(pagina, servidor, curso, ruta)
    nv.contestar(pagina, curso, ruta, respuestas_correctas(curso, ids=las_que_hay(curso, ruta, RESPUESTAS)))
    ejecutar_todo(pagina, servidor, ruta)
    comprobar_que_corre_entero(pagina, curso, ruta)
    assert comprobar_widgets(pagina, curso, ruta) == (True, True), "el cuaderno ya no usa el explorador y el visor"
    validar_y_esperar_exito(pagina)
    reabrir_con_otro_nucleo(pagina, servidor, curso, ruta)


# =========================================================================== la maquinaria, con una lección de juguete

def test_maquinaria_con_una_leccion_de_juguete(pagina, servidor, curso):
    """Los mismos pasos sobre un cuaderno pequeño hecho aquí, con la forma de la lección.

    Prueba la maquinaria (servidor, navegador, Run All, Validate, escribir en celdas, y los dos
    widgets si existe harness/aula/widgets.py) sin depender del cuaderno de la lección. Si la lección
    está publicada, su prueba ya cubre todo esto y esta se salta, salvo con NAVEGADOR_JUGUETE=1
    (útil para saber si un fallo es de la maquinaria o del cuaderno).
    """
    if (curso / RELEASE).exists() and not os.environ.get("NAVEGADOR_JUGUETE"):
        pytest.skip("la lección ya está publicada y su prueba cubre la maquinaria (NAVEGADOR_JUGUETE=1 para forzarla)")
    fuente, publicado = nv.leccion_de_juguete(curso)
    ruta = str(publicado.relative_to(curso))
    abrir_como_estudiante(pagina, servidor, ruta)
    ejecutar_todo(pagina, servidor, ruta)
    comprobar_muerte_en_el_turno_2(pagina, curso, ruta)
    validar_y_esperar_fallo(pagina, curso, ruta, ["pregunta-1", "ejecutar-salmorejo"], dice=None)
    nv.contestar(pagina, curso, ruta, respuestas_correctas(curso, fuente.relative_to(curso), ["respuesta-1", "ejecutar"]))
    ejecutar_todo(pagina, servidor, ruta)
    comprobar_que_corre_entero(pagina, curso, ruta)
    assert comprobar_widgets(pagina, curso, ruta) == ((nv.RAIZ / "harness" / "widgets.py").exists(),) * 2
    validar_y_esperar_exito(pagina)
