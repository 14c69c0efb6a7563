"""La lección está escrita con nuestras palabras: se mide contra el texto de partida (`../shared/seed/`).

Se compara la prosa de la lección (las celdas de Markdown del cuaderno fuente, los comentarios de sus
celdas de código y los textos de `course/cuestionario.py`: enunciados, opciones, explicaciones) con cada
fichero de la semilla, cortados los dos en frases igual: en punto, interrogación, exclamación, punto y
coma, dos puntos, salto de línea y elemento de lista. De las frases de 6 palabras o más:

- ninguna se parece a una de la semilla con una razón de difflib (sobre palabras en minúscula) de
  0,75 o más;
- como mucho 5 llegan a 0,6;
- menos del 1 % de las secuencias de 10 palabras seguidas de la lección están en la semilla.

La semilla vive fuera del repositorio, en `<raíz>/../shared/seed`. Sin ella, la prueba se salta
en local y falla en CI (variable CI definida), para que nadie la dé por pasada sin medir.
"""

import ast
import difflib
import os
import re

import nbformat
import pytest

from course import CUADERNO, RAIZ, TAREA

SEMILLA = RAIZ.parent / "shared" / "seed"
FUENTE = RAIZ / "source" / TAREA / CUADERNO
CUESTIONARIO = RAIZ / "course" / "cuestionario.py"

MUY_PARECIDA = 0.75
PARECIDA, MAXIMO_DE_PARECIDAS = 0.6, 5
SECUENCIA, MAXIMO_COMPARTIDO = 10, 0.01
# Una frase de menos de 6 palabras («Sí.», «Turno 3.», «no cambian nada») coincide por pura
# casualidad: no se compara.
PALABRAS_MINIMAS = 6
# Lo que empieza un elemento de lista, al principio de una línea: «- », «* », «• », «1. », «2) ».
_VIÑETA = r"^[ \t]*(?:[-*•]|\d+[.)])[ \t]+"


def palabras(texto):
    return re.findall(r"\w+", texto.lower())


# La puntuación de dentro de `código` no corta la frase: `no se ha ejecutado: ` es un texto exacto, no prosa.
_TAPADA = str.maketrans(".!?;:", "\x01\x02\x03\x04\x05")
_DESTAPADA = str.maketrans("\x01\x02\x03\x04\x05", ".!?;:")


def frases(texto):
    """Las frases de un texto: se corta en punto, interrogación, exclamación, punto y coma, dos puntos,
    salto de línea y elemento de lista (aunque vaya en la misma línea que lo anterior, como «•»)."""
    tapado = re.sub(r"`[^`\n]*`", lambda m: m.group(0).translate(_TAPADA), re.sub(_VIÑETA, "\n", texto, flags=re.M))
    trozos = re.split(r"(?<=[.!?;:])\s+|\n+|\s+•\s+", tapado)
    return [f.strip().translate(_DESTAPADA) for f in trozos if len(palabras(f)) >= PALABRAS_MINIMAS]


def textos_de_la_leccion():
    """La prosa de la lección: cada celda de Markdown, los comentarios del código y cada texto literal del cuestionario."""
    cuaderno = nbformat.read(FUENTE, as_version=4)
    textos = [c.source for c in cuaderno.cells if c.cell_type == "markdown"]
    textos += ["\n".join(re.findall(r"#\s*(.+)", c.source)) for c in cuaderno.cells if c.cell_type == "code"]
    arbol = ast.parse(CUESTIONARIO.read_text(encoding="utf-8"))
    textos += [n.value for n in ast.walk(arbol) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return textos


def semilla():
    if not SEMILLA.is_dir() or not any(SEMILLA.iterdir()):
        mensaje = "No encuentro la semilla en %s: sin ella no se puede medir la originalidad." % SEMILLA
        if os.environ.get("CI"):
            pytest.fail(mensaje + " (CI está definida: no se salta)")
        pytest.skip(mensaje)
    return {p.name: p.read_text(encoding="utf-8", errors="replace") for p in sorted(SEMILLA.iterdir()) if p.is_file()}


def frases_de_la_semilla():
    return [(nombre, f, palabras(f)) for nombre, texto in semilla().items() for f in frases(texto)]


def mas_parecida(frase, de_la_semilla):
    """(razón, fichero, frase) de la frase de la semilla más parecida a `frase`."""
    comparador = difflib.SequenceMatcher(None, b=palabras(frase), autojunk=False)  # b fija; a, cada frase suya
    mejor = (0.0, "", "")
    for nombre, suya, suyas in de_la_semilla:
        comparador.set_seq1(suyas)
        # Las dos cotas rápidas antes de la razón exacta: solo descartan, nunca aprueban.
        if comparador.real_quick_ratio() > mejor[0] and comparador.quick_ratio() > mejor[0]:
            razon = comparador.ratio()
            if razon > mejor[0]:
                mejor = (razon, nombre, suya)
    return mejor


@pytest.fixture(scope="module")
def comparacion():
    """Para cada frase de la lección: (razón, frase, fichero de la semilla, su frase más parecida)."""
    de_la_semilla = frases_de_la_semilla()
    resultado = [(razon, frase, nombre, suya) for texto in textos_de_la_leccion() for frase in frases(texto)
                 for razon, nombre, suya in [mas_parecida(frase, de_la_semilla)]]
    assert len(resultado) > 100, "la lección debería tener bastante más prosa: %d frases" % len(resultado)
    return resultado


def _informe(filas):
    return "\n".join("  %.2f  nuestra: %s\n        %s: %s" % (r, f.strip(), n, s.strip()) for r, f, n, s in filas)


def test_ninguna_frase_es_casi_una_de_la_semilla(comparacion):
    copiadas = sorted((fila for fila in comparacion if fila[0] >= MUY_PARECIDA), reverse=True)
    assert not copiadas, "frases casi iguales a la semilla (razón ≥ %.2f):\n%s" % (MUY_PARECIDA, _informe(copiadas))


def test_pocas_frases_se_parecen_a_la_semilla(comparacion):
    parecidas = sorted((fila for fila in comparacion if fila[0] >= PARECIDA), reverse=True)
    assert len(parecidas) <= MAXIMO_DE_PARECIDAS, "%d frases con razón ≥ %.2f (máximo %d):\n%s" % (
        len(parecidas), PARECIDA, MAXIMO_DE_PARECIDAS, _informe(parecidas))


def _secuencias(texto):
    p = palabras(texto)
    return {tuple(p[i:i + SECUENCIA]) for i in range(len(p) - SECUENCIA + 1)}


def test_casi_ninguna_secuencia_de_diez_palabras_esta_en_la_semilla():
    suyas = set().union(*(_secuencias(t) for t in semilla().values()))
    nuestras = set().union(*(_secuencias(t) for t in textos_de_la_leccion()))
    compartidas = nuestras & suyas
    assert len(nuestras) > 1000
    assert len(compartidas) / len(nuestras) < MAXIMO_COMPARTIDO, (
        "%d de %d secuencias de %d palabras están también en la semilla, por ejemplo:\n  %s"
        % (len(compartidas), len(nuestras), SECUENCIA, "\n  ".join(" ".join(s) for s in sorted(compartidas)[:10])))


def test_las_frases_se_cortan_donde_deben():
    assert frases("Una frase que tiene seis palabras. Otra frase que tiene seis palabras!\n- Y una lista de "
                  "varias cosas; y aún más cosas por aquí") == [
        "Una frase que tiene seis palabras.", "Otra frase que tiene seis palabras!", "Y una lista de varias cosas;",
        "y aún más cosas por aquí"]
    # Dos puntos y viñetas, también en la misma línea; lo que va entre `comillas invertidas` no se corta.
    assert frases("La regla tiene dos partes bien claras: la primera es esta de aquí • la segunda es esta otra "
                  "de aquí\n1. Un elemento numerado de la lista\n  • `no se ha ejecutado: falta el campo 'ruta'` es "
                  "un texto exacto") == [
        "La regla tiene dos partes bien claras:", "la primera es esta de aquí", "la segunda es esta otra de aquí",
        "Un elemento numerado de la lista", "`no se ha ejecutado: falta el campo 'ruta'` es un texto exacto"]
    assert frases("Solo cinco palabras aquí dentro.") == []
    assert difflib.SequenceMatcher(None, palabras("el harness no repite"), palabras("El harness no repite.")).ratio() == 1.0


def test_la_medida_ve_una_copia_con_dos_palabras_cambiadas():
    de_la_semilla = frases_de_la_semilla()
    nombre, suya, suyas = max(de_la_semilla, key=lambda f: len(f[2]))
    assert mas_parecida(suya, de_la_semilla)[0] == 1.0
    retocada = " ".join(["quizá"] + suyas[1:-1] + ["también"])
    assert mas_parecida(retocada, de_la_semilla)[0] >= MUY_PARECIDA
