"""Lo que cuesta arrancar: ninguna dependencia hace al importarse un trabajo que nadie usa.

Cada orden de nbgrader, cada JupyterLab y cada proceso de la corrección importa nbformat, y nbformat
importa jsonschema con sus comprobadores de formatos. Desde la 4.25, jsonschema importa además
rfc3987-syntax, que al importarse construye unos 35 analizadores de Lark (casi un segundo de CPU por
proceso) para dos formatos, `iri` e `iri-reference`, que no usa ningún esquema de Jupyter
(python-jsonschema/jsonschema#1428). Por eso los dos pyproject.toml piden jsonschema < 4.25.
"""

import sys
from pathlib import Path

from course import RAIZ


def test_importar_nbformat_y_los_esquemas_de_jupyter_no_trae_rfc3987_syntax():
    import jsonschema  # noqa: F401
    import jupyter_events.validators  # noqa: F401  (lo importan JupyterLab y el formgrader)
    import nbformat  # noqa: F401

    assert "rfc3987_syntax" not in sys.modules, (
        "jsonschema ha importado rfc3987_syntax (unos 0,9 s en cada proceso): mira la versión de jsonschema "
        "que piden pyproject.toml y course/estudiantes/pyproject.toml")


def test_los_dos_pyproject_piden_el_mismo_jsonschema():
    def pedido(ruta):
        lineas = [l.strip() for l in Path(ruta).read_text(encoding="utf-8").splitlines()]
        return [l for l in lineas if l.startswith('"jsonschema')]

    profesor, estudiante = pedido(RAIZ / "pyproject.toml"), pedido(RAIZ / "course" / "estudiantes" / "pyproject.toml")
    assert profesor and profesor == estudiante, (profesor, estudiante)
