"""Lo que el curso cambia por dentro de otras bibliotecas está en course/ajustes.py, sujeto a su versión.

Cada ajuste depende de código ajeno tal como se leyó al escribirlo: si una versión nueva lo cambia, su
huella ya no casa y hay que volver a leerlo. Fuera de ajustes.py, el curso usa lo público: ninguna clase
suya sustituye un método privado de otra biblioteca, y nada cambia un atributo de un módulo o una clase
ajenos. nbgrader_config.py solo da valores.
"""

import ast
import hashlib
import importlib
import importlib.metadata
import inspect
import re
import sys
import tomllib

import conftest
import pytest
from test_importaciones import grafo

from course import RAIZ, ajustes

HUELLAS = dict(ajustes.HUELLAS, **conftest.HUELLAS)


def _codigo(nombre):
    """El código fuente de "módulo.Clase.método" o "módulo.función", tal como está instalado."""
    partes = nombre.split(".")
    for corte in range(len(partes), 0, -1):
        try:
            objeto = importlib.import_module(".".join(partes[:corte]))
            break
        except ImportError:
            continue
    for parte in partes[corte:]:
        objeto = vars(objeto)[parte] if isinstance(objeto, type) else getattr(objeto, parte)  # la de esa clase
    if isinstance(objeto, property):
        objeto = objeto.fget
    return inspect.getsource(inspect.unwrap(objeto))


@pytest.mark.parametrize("nombre", sorted(HUELLAS))
def test_el_codigo_ajeno_de_cada_ajuste_es_el_que_se_leyo(nombre):
    huella = hashlib.sha256(_codigo(nombre).encode()).hexdigest()
    assert huella == HUELLAS[nombre], (
        "%s ha cambiado: vuelve a leerlo, mira si el ajuste de course/ajustes.py (o de tests/conftest.py) que "
        "depende de él sigue valiendo, y apunta su huella nueva en HUELLAS: %s" % (nombre, huella))


def test_cada_metodo_ajeno_que_sustituye_ajustes_tiene_su_huella():
    sin_huella = []
    for clase in vars(ajustes).values():
        if not (isinstance(clase, type) and clase.__module__ == ajustes.__name__):
            continue
        for nombre, valor in vars(clase).items():
            if nombre.startswith("__") or not isinstance(valor, (property, type(lambda: 0))):
                continue
            for base in clase.__mro__[1:]:
                if nombre in vars(base):
                    if "%s.%s.%s" % (base.__module__, base.__qualname__, nombre) not in HUELLAS:
                        sin_huella.append("%s.%s sustituye %s.%s" % (clase.__name__, nombre, base.__qualname__, nombre))
                    break
    assert not sin_huella


def _ajenos(arbol):
    """Los nombres que un fichero de course/ importa de otras bibliotecas (ni del curso ni de la estándar)."""
    propios = {"course", "harness", *sys.stdlib_module_names}
    nombres = set()
    for nodo in ast.walk(arbol):
        if isinstance(nodo, ast.ImportFrom) and not nodo.level and nodo.module.split(".")[0] not in propios:
            nombres.update(a.asname or a.name for a in nodo.names)
        elif isinstance(nodo, ast.Import):
            nombres.update((a.asname or a.name).split(".")[0] for a in nodo.names if a.name.split(".")[0] not in propios)
    return nombres


def _raiz(expresion):
    while isinstance(expresion, ast.Attribute):
        expresion = expresion.value
    return expresion.id if isinstance(expresion, ast.Name) else None


def test_fuera_de_ajustes_nada_cambia_por_dentro_otra_biblioteca():
    """Ni `Clase.metodo = ...` o setattr sobre algo importado de otra biblioteca, ni una subclase suya con un
    método privado (`_algo`) de la biblioteca sustituido: eso va en course/ajustes.py, con su huella."""
    hallados = []
    for ruta in sorted((RAIZ / "course").rglob("*.py")):
        if ruta.name == "ajustes.py" and ruta.parent.name == "course":
            continue
        arbol = ast.parse(ruta.read_text(encoding="utf-8"))
        ajenos = _ajenos(arbol)
        donde = ruta.relative_to(RAIZ)
        for nodo in ast.walk(arbol):
            destinos = (nodo.targets if isinstance(nodo, ast.Assign) else
                        [nodo.target] if isinstance(nodo, (ast.AugAssign, ast.AnnAssign)) else [])
            for destino in destinos:
                for d in (destino.elts if isinstance(destino, ast.Tuple) else [destino]):
                    if isinstance(d, ast.Attribute) and _raiz(d) in ajenos:
                        hallados.append("%s:%d cambia %s" % (donde, nodo.lineno, ast.unparse(d)))
            if (isinstance(nodo, ast.Call) and isinstance(nodo.func, ast.Name) and nodo.func.id == "setattr"
                    and nodo.args and _raiz(nodo.args[0]) in ajenos):
                hallados.append("%s:%d setattr sobre %s" % (donde, nodo.lineno, ast.unparse(nodo.args[0])))
            if isinstance(nodo, ast.ClassDef) and any(_raiz(b) in ajenos for b in nodo.bases):
                for metodo in nodo.body:
                    if (isinstance(metodo, (ast.FunctionDef, ast.AsyncFunctionDef)) and metodo.name.startswith("_")
                            and not metodo.name.startswith("__")
                            and any(hasattr(_base(ruta, b), metodo.name) for b in nodo.bases)):
                        hallados.append("%s:%d %s sustituye %s" % (donde, metodo.lineno, nodo.name, metodo.name))
    assert not hallados


def _base(ruta, base):
    """La clase `base` (un nombre del fichero `ruta`), importada como la importa el fichero."""
    modulo = ".".join(ruta.relative_to(RAIZ).with_suffix("").parts).removesuffix(".__init__")
    return eval(ast.unparse(base), vars(importlib.import_module(modulo)))


def test_nbgrader_config_solo_da_valores_y_no_carga_el_modelo_de_verdad():
    """Solo imports, asignaciones y la línea del roster; y lo que importa de course/ no lleva, ni con los
    import de dentro de las funciones, a las grabaciones y al modelo de verdad (course/grabaciones.py)."""
    arbol = ast.parse((RAIZ / "nbgrader_config.py").read_text(encoding="utf-8"))
    llamadas = [ast.unparse(n.value) for n in ast.walk(arbol) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]
    assert sorted(llamadas) == ["ajustes.leer_el_roster_con('course.recoleccion.leer_roster')", "sys.path.insert(0, RAIZ)"]
    aristas = grafo()
    del_curso = {"%s.%s" % (n.module, a.name) if "%s.%s" % (n.module, a.name) in aristas else n.module
                 for n in ast.walk(arbol) if isinstance(n, ast.ImportFrom) and n.module.startswith("course")
                 for a in n.names}
    assert del_curso == {"course", "course.ajustes", "course.limites", "course.aislado.retroalimentacion"}
    alcanzados, pendientes = set(), list(del_curso)
    while pendientes:
        modulo = pendientes.pop()
        if modulo not in alcanzados:
            alcanzados.add(modulo)
            pendientes += aristas.get(modulo, ())
    assert alcanzados <= {"course", "course.ajustes", "course.limites", "course.aislado", "course.aislado.retroalimentacion"}
    # Ni harness, cuyo __init__ carga el envoltorio del modelo de verdad (harness.aula.claude).
    for modulo in alcanzados:
        ruta = RAIZ / (modulo.replace(".", "/") + ("/__init__.py" if modulo in ("course", "course.aislado") else ".py"))
        importados = {n.module if isinstance(n, ast.ImportFrom) else a.name
                      for n in ast.walk(ast.parse(ruta.read_text(encoding="utf-8")))
                      if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
        assert not {m for m in importados if m and m.split(".")[0] == "harness"}, modulo


def test_las_bibliotecas_ajustadas_tienen_tope_de_version():
    """Cada biblioteca de la que depende un ajuste se pide con un «<» en pyproject.toml: una versión nueva se
    prueba antes de llegar a una instalación, y lo que dice la huella se lee con calma."""
    proyecto = tomllib.loads((RAIZ / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pedidos = proyecto["dependencies"] + [r for grupo in proyecto["optional-dependencies"].values() for r in grupo]
    por_nombre = {_normal(re.match(r"[\w.-]+", r).group()): r for r in pedidos}
    distribuciones = importlib.metadata.packages_distributions()
    sin_tope = []
    for modulo in sorted({n.split(".")[0] for n in HUELLAS}):
        for dist in distribuciones[modulo]:
            pedido = por_nombre.get(_normal(dist))
            if pedido is None or "<" not in pedido:
                sin_tope.append("%s (%s): %s" % (modulo, dist, pedido))
    assert not sin_tope


def _normal(nombre):
    return re.sub(r"[-_.]+", "-", nombre).lower()


def test_entregas_limpias_ajusta_solo_esa_correccion(tmp_path):
    from nbgrader.converters import Autograde, GenerateFeedback
    from nbgrader.converters.base import BaseConverter
    from nbgrader.coursedir import CourseDirectory

    antes = {clase: (clase.init_assignment, clase.init_notebooks) for clase in (Autograde, BaseConverter, GenerateFeedback)}
    correccion = Autograde(coursedir=CourseDirectory(root=str(tmp_path)))
    correccion.assignments = {"submitted/ana/t": ["a.ipynb"], "submitted/bad\nnombre/t": ["b.ipynb"]}
    ajustes.entregas_limpias(correccion, lambda carpeta: "\n" in carpeta and "un salto de línea", lambda o, d: None)
    assert list(correccion.assignments) == ["submitted/ana/t"]
    assert vars(correccion)["init_assignment"].__wrapped__.__func__ is Autograde.init_assignment
    assert antes == {clase: (clase.init_assignment, clase.init_notebooks) for clase in antes}


def test_el_roster_se_envuelve_una_vez_y_solo_en_su_orden():
    from nbgrader.apps.dbapp import DbGenericImportApp, DbStudentImportApp

    ajustes.leer_el_roster_con("course.recoleccion.leer_roster")
    ajustes.leer_el_roster_con("course.recoleccion.leer_roster")
    assert DbStudentImportApp.start.__wrapped__ is DbGenericImportApp.start
    assert DbGenericImportApp.start.__code__.co_filename != ajustes.__file__
