"""Los módulos de course/ no se importan en círculo, tampoco con los `import` escondidos dentro de una función.

Un círculo (clase → informe → clase) obliga a importar dentro de las funciones para que el paquete
cargue, y deja sin un orden de lectura: ¿qué va primero? Aquí se leen todos los `import` de cada
fichero de course/ con ast, estén donde estén, y se buscan los componentes fuertemente conexos del
grafo (Tarjan): cada uno con más de un módulo es un círculo.
"""

import ast

import pytest

from course import RAIZ

CURSO = RAIZ / "course"


def _modulos():
    """{nombre del módulo: fichero} de cada .py de course/."""
    modulos = {}
    for ruta in CURSO.rglob("*.py"):
        partes = list(ruta.relative_to(RAIZ).with_suffix("").parts)
        if partes[-1] == "__init__":
            partes.pop()
        modulos[".".join(partes)] = ruta
    return modulos


def _importados(nombre, ruta, modulos):
    """Los módulos de course/ que importa el fichero `ruta` (el módulo `nombre`), en cualquier sitio del fichero."""
    paquete = nombre if ruta.name == "__init__.py" else nombre.rpartition(".")[0]
    hallados = set()
    for nodo in ast.walk(ast.parse(ruta.read_text(encoding="utf-8"), str(ruta))):
        if isinstance(nodo, ast.Import):
            for alias in nodo.names:
                partes = alias.name.split(".")
                hallados.update(".".join(partes[:i]) for i in range(len(partes), 0, -1)
                                if ".".join(partes[:i]) in modulos)
        elif isinstance(nodo, ast.ImportFrom):
            if nodo.level:
                base = paquete.split(".")[:len(paquete.split(".")) - (nodo.level - 1)]
                origen = ".".join(base + ([nodo.module] if nodo.module else []))
            else:
                origen = nodo.module or ""
            for alias in nodo.names:
                if origen + "." + alias.name in modulos:  # `from . import limites`: el módulo limites
                    hallados.add(origen + "." + alias.name)
                elif origen in modulos:
                    hallados.add(origen)
    hallados.discard(nombre)
    # Un paquete no cuenta como importado por sus propios módulos: importarlo es cargar su __init__, que
    # se carga de todos modos antes que ellos.
    return {m for m in hallados if not nombre.startswith(m + ".")}


def grafo():
    modulos = _modulos()
    return {nombre: _importados(nombre, ruta, modulos) for nombre, ruta in modulos.items()}


def circulos(aristas):
    """Los componentes fuertemente conexos de más de un nodo (Tarjan), cada uno ordenado."""
    indice, bajo, pila, en_pila, hallados, contador = {}, {}, [], set(), [], [0]

    def visitar(v):
        indice[v] = bajo[v] = contador[0]
        contador[0] += 1
        pila.append(v)
        en_pila.add(v)
        for w in sorted(aristas.get(v, ())):
            if w not in indice:
                visitar(w)
                bajo[v] = min(bajo[v], bajo[w])
            elif w in en_pila:
                bajo[v] = min(bajo[v], indice[w])
        if bajo[v] == indice[v]:
            componente = []
            while True:
                w = pila.pop()
                en_pila.discard(w)
                componente.append(w)
                if w == v:
                    break
            if len(componente) > 1:
                hallados.append(sorted(componente))

    for v in sorted(aristas):
        if v not in indice:
            visitar(v)
    return hallados


def test_ningun_modulo_de_course_se_importa_en_circulo():
    g = grafo()
    assert len(g) > 20 and "course.estado" in g["course.clase"]
    encontrados = circulos(g)
    assert not encontrados, "\n".join(
        "Se importan en círculo: %s (%s)" % (" ↔ ".join(c), "; ".join("%s → %s" % (m, ", ".join(sorted(g[m] & set(c))))
                                                                    for m in c)) for c in encontrados)


@pytest.mark.parametrize("aristas, esperado", [
    ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
])
def test_la_busqueda_de_circulos_los_encuentra(aristas, esperado):
    assert circulos(aristas) == esperado


def test_cuenta_los_import_de_dentro_de_las_funciones(tmp_path, monkeypatch):
    """Un `import` dentro de una función también es una flecha del grafo."""
    import test_importaciones as t

    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "__init__.py").write_text("")
    (tmp_path / "course" / "a.py").write_text("from . import b\n")
    (tmp_path / "course" / "b.py").write_text("def f():\n    from .a import g\n    return g\n")
    monkeypatch.setattr(t, "RAIZ", tmp_path)
    monkeypatch.setattr(t, "CURSO", tmp_path / "course")
    assert t.circulos(t.grafo()) == [["course.a", "course.b"]]
