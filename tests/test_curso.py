"""El curso por fuera: release/ al día y sin soluciones, el cuaderno fuente ejecutable entero,
Validate, `make grade` con las entregas de ejemplo y el paquete para estudiantes."""

import re
import zipfile

import nbformat
import pytest

from course import CUADERNO, RAIZ, TAREA, corregir, paquete
from course.estado import notas as notas_de
from course.entregas import leer_ejemplo, soluciones
from cursos import copiar_curso, nbgrader
from nucleos import validar

# El modo del cuestionario con el que está generada release/: el de nbgrader_config.py.
MODO = re.search(r'^c\.Cuestionario\.modo = "(\w+)"', (RAIZ / "nbgrader_config.py").read_text(), re.M).group(1)
PUNTOS_DEL_CUESTIONARIO = 4 if MODO == "calificado" else 0

FUENTE = RAIZ / "source" / TAREA / CUADERNO
RELEASE = RAIZ / "release" / TAREA / CUADERNO


def _ids(cuaderno):
    return [c.metadata.get("nbgrader", {}).get("grade_id") for c in cuaderno.cells]


@pytest.fixture(scope="module")
def regenerado(publicado, tmp_path_factory):
    """La release que nbgrader genera hoy a partir de source/, en un curso temporal."""
    return publicado(tmp_path_factory.mktemp("curso")) / "release" / TAREA


def test_release_coincide_con_lo_que_genera_source(regenerado):
    generados = sorted(p.relative_to(regenerado) for p in regenerado.rglob("*") if p.is_file())
    guardados = sorted(p.relative_to(RELEASE.parent) for p in RELEASE.parent.rglob("*")
                       if p.is_file() and ".ipynb_checkpoints" not in p.parts)
    assert generados == guardados
    for ruta in generados:
        assert (regenerado / ruta).read_bytes() == (RELEASE.parent / ruta).read_bytes(), (
            "release/%s no está al día: ejecuta `make release` y haz commit" % ruta)


def test_release_no_tiene_soluciones_ni_pruebas_ocultas():
    texto = RELEASE.read_text(encoding="utf-8")
    for prohibido in ("BEGIN SOLUTION", "END SOLUTION", "HIDDEN TESTS", "course.", "comprobar(", "corregir("):
        assert prohibido not in texto
    release = nbformat.read(RELEASE, as_version=4)
    buenas = soluciones(nbformat.read(FUENTE, as_version=4))
    assert set(buenas) == {"ejecutar", "respuesta-1", "respuesta-2", "respuesta-3", "respuesta-4"}
    por_id = {c.metadata["nbgrader"]["grade_id"]: c for c in release.cells if "nbgrader" in c.metadata}
    # En modo formativo, el cuestionario no tiene celdas de respuesta: sus widgets no esconden nada.
    assert set(buenas) & set(por_id) == ({"ejecutar"} if MODO == "formativo" else set(buenas))
    for grade_id, solucion in buenas.items():
        if grade_id not in por_id:
            continue
        celda = por_id[grade_id].source
        assert "# TU CÓDIGO AQUÍ" in celda and 'raise NotImplementedError("falta tu respuesta' in celda
        # Ninguna línea de la respuesta buena queda en la del estudiante, salvo el código de partida.
        partida = set(celda.splitlines())
        # Una línea que es solo una palabra clave (`try:`) no delata nada: la lleva cualquier código de la lección.
        for linea in solucion.splitlines():
            if linea.strip() and not linea.lstrip().startswith("#") and linea.strip() not in ("try:", "else:", "finally:"):
                assert linea in partida or linea not in texto, (grade_id, linea)


def test_los_nombres_que_ve_el_gradebook():
    fuente = nbformat.read(FUENTE, as_version=4)
    pruebas = [c.metadata["nbgrader"] for c in fuente.cells
               if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata["nbgrader"].get("solution")]
    ids = [p["grade_id"] for p in pruebas]
    assert all(i.startswith(("ejecutar-", "pregunta-")) for i in ids)
    assert sorted(i for i in ids if i.startswith("pregunta-")) == ["pregunta-%d" % n for n in (1, 2, 3, 4)]
    assert sum(p["points"] for p in pruebas if p["grade_id"].startswith("ejecutar-")) == 12
    orden = _ids(fuente)
    assert orden.index("pregunta-4") < orden.index("ejecutar") < min(orden.index(i) for i in ids if i.startswith("ejecutar-"))


@pytest.fixture(scope="module")
def fuente_ejecutada(leccion_ejecutada):
    """El cuaderno fuente, con sus soluciones, ejecutado entero en un núcleo de verdad (conftest.py)."""
    return leccion_ejecutada["fuente"]


def test_la_fuente_se_ejecuta_entera_sin_errores(fuente_ejecutada):
    for celda in fuente_ejecutada.cells:
        if celda.cell_type == "code":
            for salida in celda.outputs:
                assert salida.output_type != "error", (celda.source, salida.get("evalue"))
                assert not (salida.output_type == "stream" and salida.name == "stderr"), (celda.source, salida.text)


def test_la_release_se_ejecuta_entera_y_solo_fallan_las_pruebas_que_esperan_la_respuesta(leccion_ejecutada):
    """Como la abre un estudiante, de arriba abajo y sin contestar nada: cada celda corre, salvo las pruebas
    visibles del desafío (y, con el cuestionario calificado, sus celdas), que esperan su respuesta."""
    release = leccion_ejecutada["release"]
    con_error = [c for c in release.cells if c.cell_type == "code" and any(s.output_type == "error" for s in c.outputs)]
    assert all(c.metadata.get("nbgrader", {}).get("grade") for c in con_error), [c.source[:200] for c in con_error]
    assert sum("bucle(" in c.source for c in con_error) == 1 and sum("DiscoQueFalla" in c.source for c in con_error) == 1
    preguntas = 4 if MODO == "calificado" else 0
    assert len(con_error) == 2 + preguntas, [c.source[:200] for c in con_error]
    for celda in con_error:
        if "respuesta_" not in celda.source:  # las del desafío: lo que falta es el ejecutar del estudiante
            assert [(s.ename, "tu ejecutar aún está sin escribir" in s.evalue) for s in celda.outputs
                    if s.output_type == "error"] == [("Escapada", True)], celda.outputs
    assert not [s for c in release.cells if c.cell_type == "code" for s in c.outputs
                if s.output_type == "stream" and s.name == "stderr"]


def test_el_primer_experimento_muere_en_el_turno_2_sin_atender_t3(fuente_ejecutada):
    celda = next(c for c in fuente_ejecutada.cells if c.cell_type == "code" and "bucle(" in c.source)
    salida = "".join(s.get("text", "") for s in celda.outputs)
    atendidas = [l.split()[3] for l in salida.splitlines() if l.strip().startswith("el harness atiende")]
    assert atendidas == ["t1", "t2"], salida
    assert "La conversación muere en el turno 2 con FileNotFoundError: no existe el fichero 'recetas/salmorejo.txt'" in salida


def test_la_leccion_enseña_el_tope_la_repeticion_que_daña_y_la_respuesta_del_explorador(fuente_ejecutada):
    salidas = "".join(s.get("text", "") for c in fuente_ejecutada.cells if c.cell_type == "code" for s in c.outputs)
    assert "bucle devuelve: 'tope' None y una conversación de 8 mensajes" in salidas
    assert "¿idempotente? True · 'pan, leche, patatas'" in salidas
    assert ("intento 2: error: el disco no ha confirmado la escritura en lista.txt\n"
            "lista.txt queda así: pan, leche, patatas, tomates, tomates") in salidas
    codigo = "".join(s.get("data", {}).get("text/plain", "") for c in fuente_ejecutada.cells if c.cell_type == "code"
                     for s in c.outputs)
    for funcion in ("def bucle(", "def leer(", "def error(", "def añadir(", "def una_y_dos("):
        assert funcion in codigo, funcion


def _salida(cuaderno, id):
    celda = next(c for c in cuaderno.cells if c.get("id") == id)
    return "".join(s.get("text", "") for s in celda.outputs)


def test_el_guion_se_ve_antes_de_la_primera_prediccion(fuente_ejecutada):
    ids = [c.get("id") for c in fuente_ejecutada.cells]
    predicciones = [i for i, c in enumerate(fuente_ejecutada.cells) if "Predice y ejecuta" in c.source]
    assert ids.index("guion") < predicciones[0] < ids.index("a-medias")
    assert _salida(fuente_ejecutada, "guion").splitlines()[:2] == [
        "turno 1: texto 'Leo la receta y la lista.' | t1 → leer(rutas=['recetas/salmorejo.txt', 'lista.txt'])",
        "turno 2: t2 → leer(ruta='recetas/salmorejo.txt') | t3 → leer(ruta='lista.txt')"]


def test_cada_prediccion_se_apunta_antes_y_se_compara_despues(fuente_ejecutada):
    """Tras cada «Predice y ejecuta», una celda apunta la predicción (predice) y la siguiente la compara
    con lo que ha pasado, en su salida y en la copia guardada del widget."""
    celdas = fuente_ejecutada.cells
    avisos = [i for i, c in enumerate(celdas) if c.cell_type == "markdown" and "**Predice y ejecuta.**" in c.source]
    assert len(avisos) == 5
    for i in avisos:
        apunta, ejecuta = celdas[i + 1], celdas[i + 2]
        assert "predice(" in apunta.source, apunta.source
        preguntas = apunta.source.count("predice(")
        salida = "".join(s.get("text", "") for s in ejecuta.outputs)
        assert salida.count("Predicción: no la has apuntado. Ha pasado esto: ") == preguntas, (ejecuta.source, salida)
        copias = [s.data["text/html"] for s in apunta.outputs if "text/html" in s.get("data", {})]
        assert len(copias) == preguntas and all("no la has apuntado" in c for c in copias)


def test_los_ejercicios_a_medio_hacer_no_paran_el_cuaderno_y_lo_dicen(fuente_ejecutada):
    """Sin contestar, cada ejercicio imprime qué le falta; «Ejecutar todas las celdas» sigue (no hay error)."""
    assert _salida(fuente_ejecutada, "ejercicio-1-codigo").startswith("✘ Aún no has escrito nada")
    assert _salida(fuente_ejecutada, "ejercicio-2-codigo").startswith("✘ Aún no has clasificado ninguna")
    assert _salida(fuente_ejecutada, "ejercicio-3-codigo").startswith("✘ Tu función aún devuelve None")
    ids = [c.get("id") for c in fuente_ejecutada.cells]
    assert ids.index("a-medias") < ids.index("ejercicio-1-codigo") < ids.index("visor-esperada")
    # El 2, entre el 1 y el 3: que no haya una hora de lectura sin nada que hacer.
    assert ids.index("ejercicio-1-codigo") < ids.index("ejercicio-2-codigo") < ids.index("contrato")
    assert ids.index("repetir-el-dano") < ids.index("ejercicio-3-codigo") < ids.index("cuestionario")


def test_el_contrato_se_enuncia_una_vez_y_la_tabla_de_las_cinco_llamadas_sale_una_vez(fuente_ejecutada):
    prosa = [c.source for c in fuente_ejecutada.cells if c.cell_type == "markdown"]
    assert sum('"no se ha ejecutado: " + motivo' in p for p in prosa) == 1
    assert sum("error(id, str(e))" in p for p in prosa) == 1
    # Por celdas, no por salidas: con la máquina cargada, lo que imprime una celda puede llegar en varios trozos.
    tablas = [c for c in fuente_ejecutada.cells if c.cell_type == "code" and any(
              "lista.txt tras dos" in s.get("text", "") + str(s.get("data", {}).get("text/html", "")) for s in c.outputs)]
    assert len(tablas) == 1, [c.get("id") for c in tablas]


def test_revisar_va_justo_debajo_de_la_respuesta():
    ids = [c.get("id") for c in nbformat.read(FUENTE, as_version=4).cells]
    assert ids[ids.index("ejecutar") + 1] == "revisar"


def test_el_cuestionario_de_la_fuente_es_el_de_course_cuestionario():
    """Las celdas del cuestionario en la fuente están en modo calificado y salen de PREGUNTAS: un solo sitio."""
    from course.cuestionario import IMPORTA, INTRODUCCION, PREGUNTAS, enunciado

    fuente = nbformat.read(FUENTE, as_version=4)
    marcadas = {c.metadata["cuestionario"]: c.source for c in fuente.cells if "cuestionario" in c.metadata}
    assert marcadas == {"introduccion": INTRODUCCION["calificado"], "importa": IMPORTA["calificado"],
                        **{n: enunciado(n) for n in PREGUNTAS}}


@pytest.mark.usefixtures("procesos")
def test_validate_acepta_la_fuente():
    hecho = nbgrader(RAIZ, "validate", str(FUENTE))
    assert "Success! Your notebook passes all the tests." in hecho.stdout, hecho.stdout + hecho.stderr


@pytest.mark.usefixtures("procesos")
def test_validate_en_la_release_sin_contestar_falla_solo_en_cuestionario_y_desafio(tmp_path):
    copia = tmp_path / CUADERNO
    copia.write_bytes(RELEASE.read_bytes())
    fallos = validar(copia)
    assert set(fallos) == {"failed"}, fallos
    celdas = [f["source"] for f in fallos["failed"]]
    preguntas = (1, 2, 3, 4) if MODO == "calificado" else ()  # las formativas no se validan: no puntúan
    for n in preguntas:
        assert sum("respuesta_%d" % n in c for c in celdas) == 1, celdas
    assert sum("bucle(" in c for c in celdas) == 1, celdas
    assert sum("DiscoQueFalla" in c for c in celdas) == 1, celdas  # la prueba visible de las excepciones
    assert len(celdas) == 2 + len(preguntas)


@pytest.mark.usefixtures("procesos")
def test_make_grade_corrige_las_entregas_de_ejemplo_en_un_curso_aparte(tmp_path):
    curso = copiar_curso(tmp_path)
    (curso / "submitted").mkdir()
    corregir.main(curso)
    # Las de ejemplo van al curso de demostración, con su gradebook: la clase de verdad, intacta.
    assert not (curso / "gradebook.db").exists() and not any((curso / "submitted").iterdir())
    raiz = curso / corregir.DEMO
    notas = notas_de(raiz, TAREA)
    assert set(notas) == {p.stem for p in corregir.EJEMPLOS.glob("*.toml")}
    for estudiante, (puntos, maximo) in notas.items():
        ejemplo = leer_ejemplo(corregir.EJEMPLOS / (estudiante + ".toml"))
        esperado = ejemplo["nota"] if MODO == "calificado" else ejemplo["nota_formativo"]
        assert maximo == 12 + PUNTOS_DEL_CUESTIONARIO
        assert puntos == esperado, estudiante
    csv = (raiz / "exports" / "notas.csv").read_text()
    assert all(e in csv for e in notas)
    for estudiante in notas:
        html = (raiz / "feedback" / estudiante / TAREA / (TAREA + ".html")).read_text(encoding="utf-8")
        assert "✔" in html or "No pasa" in html
        # Los rótulos de la retroalimentación, en español (course/plantillas/retroalimentacion).
        assert "%s: %g de %d puntos" % (TAREA, notas[estudiante][0], 12 + PUNTOS_DEL_CUESTIONARIO) in re.sub(r"\s+", " ", html)
        assert "Score" not in html and "Test cell" not in html and "Student" not in html


def test_el_paquete_para_estudiantes_lleva_lo_suyo_y_nada_del_profesor(tmp_path):
    ruta = paquete.construir(destino=tmp_path)
    with zipfile.ZipFile(ruta) as z:
        nombres = z.namelist()
        todo = b"".join(z.read(n) for n in nombres)
    base = paquete.NOMBRE + "/"
    for necesario in ("LEEME.md", "empezar.py", "pyproject.toml", "harness/__init__.py", "harness/salmorejo.py",
                      "harness/aula/widgets.py", "harness/revision/clausulas.py", TAREA + "/" + CUADERNO):
        assert base + necesario in nombres
    assert not [n for n in nombres if "source" in n or "course" in n or "calificacion" in n or "__pycache__" in n]
    for secreto in (b"BEGIN SOLUTION", b"HIDDEN TESTS", b"comprobar(", b"def ejecutar(llamada, entorno):\n    \"\"\""):
        assert secreto not in todo or secreto.startswith(b"def ejecutar") and todo.count(secreto) == 1
