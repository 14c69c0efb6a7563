"""course/limites.py dice la verdad: cada tope que lista es el que se usa, y la corrección no tiene otros."""

import ast
import re

from course import RAIZ, limites

UNIDADES = {"KIB", "MIB", "GIB"}
# Números del curso que no son topes: la semilla de los casos ocultos, cuántas equivocaciones caben en la
# gráfica del informe, el trozo en que se lee un fichero y los campos de /proc/<pid>/schedstat.
NO_SON_TOPES = {"course/calificacion.py": {"SEMILLA"}, "course/informe.py": {"EN_LA_GRAFICA"},
                "course/recoleccion.py": {"BLOQUE"}, "course/aislado/reloj.py": {"CORRIDO", "ESPERADO"}}


def _ficheros():
    """Los .py del curso que pueden leer los topes (sin limites.py), con nbgrader_config.py."""
    return [r for r in sorted((RAIZ / "course").rglob("*.py")) if r.name != "limites.py"] + [RAIZ / "nbgrader_config.py"]


def test_cada_tope_de_limites_lo_lee_quien_lo_impone():
    textos = [r.read_text(encoding="utf-8") for r in _ficheros()]
    topes = [d.id for n in ast.parse((RAIZ / "course" / "limites.py").read_text(encoding="utf-8")).body
             if isinstance(n, ast.Assign) for d in n.targets if isinstance(d, ast.Name) and d.id not in UNIDADES]
    assert len(topes) > 40
    sin_usar = [n for n in topes if not any(re.search(r"\blimites\.%s\b" % n, t) for t in textos)]
    assert not sin_usar, "topes de course/limites.py que nadie lee: %s" % sin_usar


def test_la_correccion_no_tiene_topes_fuera_de_limites():
    """Ningún módulo de la corrección guarda un número suyo en una constante (`TOPE = 10`): iría en limites.py.
    El hub, una parte optativa, lleva los suyos (los de su servicio, no los de corregir), y el paquete del
    estudiante (course/estudiantes), que no lleva este, el Python que pide."""
    propios = []
    for ruta in _ficheros():
        donde = ruta.relative_to(RAIZ).as_posix()
        if donde.startswith(("course/hub/", "course/estudiantes/")) or ruta.name == "nbgrader_config.py":
            continue
        for nodo in ast.parse(ruta.read_text(encoding="utf-8")).body:
            if (isinstance(nodo, ast.Assign) and _es_un_numero(nodo.value)
                    and any(isinstance(d, ast.Name) and d.id not in NO_SON_TOPES.get(donde, ()) for d in nodo.targets)):
                propios.append("%s:%d %s" % (donde, nodo.lineno, ast.unparse(nodo)))
    assert not propios


def _es_un_numero(valor):
    """Un número escrito tal cual, o una cuenta solo con números (4 * 1024), o una tupla de ellos."""
    if isinstance(valor, ast.Tuple):
        return all(_es_un_numero(v) for v in valor.elts)
    return all(isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop))
               and (not isinstance(n, ast.Constant) or type(n.value) in (int, float)) for n in ast.walk(valor))


def test_el_tope_de_una_llamada_es_el_de_la_leccion():
    from harness.revision.vigilancia import SEGUNDOS

    assert limites.LLAMADA == SEGUNDOS
