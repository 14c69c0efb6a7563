"""El lado del profesor: la corrección y las órdenes que mueven el curso con nbgrader."""

from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent  # la raíz del curso, donde está nbgrader_config.py
TAREA = "errores-como-observaciones"           # la tarea de nbgrader, como la ve el gradebook
CUADERNO = TAREA + ".ipynb"
NO_CORREGIDO = "no-corregido.txt"              # en submitted/<id>/<tarea>/, en lugar del cuaderno: por qué no lo hay


def gradebook(raiz=RAIZ):
    """La dirección (de SQLAlchemy) del gradebook del curso de `raiz`: la que le da nbgrader, raiz/gradebook.db."""
    from nbgrader.coursedir import CourseDirectory

    return CourseDirectory(root=str(Path(raiz).resolve())).db_url
