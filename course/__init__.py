"""El lado del profesor: la corrección y las órdenes que mueven el curso con nbgrader."""

from pathlib import Path

RAIZ = Path(__file__).resolve().parent.parent  # la raíz del curso, donde está nbgrader_config.py
# La tarea de la lección de este repositorio: la que se abre, se reparte y se corrige si no se dice otra.
# Cualquier carpeta de source/ es una tarea (`make grade TAREA=...`, `make release TAREA=...`).
TAREA = "errores-como-observaciones"
CURSO = "harness-de-agentes"  # el course_id de nbgrader: el intercambio del hub guarda las tareas bajo este nombre
NO_CORREGIDO = "no-corregido.txt"              # en submitted/<id>/<tarea>/, en lugar del cuaderno: por qué no lo hay
HORA_DESCONOCIDA = "hora-desconocida.txt"      # en submitted/<id>/<tarea>/, sin timestamp.txt: por qué no se sabe la hora

# Las celdas de una tarea, por el principio de su grade_id de nbgrader: las de prueba `ejecutar-<comprobación>` y
# `pregunta-<n>` las decide el corrector de confianza (course/aislado); `respuesta-<n>` es la respuesta de la
# pregunta n del cuestionario, y `ejecutar`, la del desafío.
EJECUTAR, PREGUNTA, RESPUESTA = "ejecutar-", "pregunta-", "respuesta-"
DECIDIDAS = (EJECUTAR, PREGUNTA)


def grade_id(celda):
    """El grade_id de nbgrader de una celda (un dict o una celda de nbformat); "" si no lo tiene."""
    return celda.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")


def cuaderno(tarea):
    """El cuaderno de una tarea: cada tarea del curso es una carpeta con un cuaderno de su mismo nombre."""
    return tarea + ".ipynb"


CUADERNO = cuaderno(TAREA)  # el de la lección


def procesos():
    """Cuántos procesos reparten un trabajo de todos los núcleos (corregir la clase, las pruebas): uno por núcleo
    disponible, más uno. El de más llena el núcleo mientras otro espera a que arranque un proceso o un núcleo de
    Python: medido con 40 entregas en 2 núcleos, 3 procesos tardan un 15 % menos que 2. El Makefile lo lee de aquí."""
    import os

    try:
        return len(os.sched_getaffinity(0)) + 1
    except AttributeError:
        return (os.cpu_count() or 1) + 1


def gradebook(raiz=RAIZ):
    """La dirección (de SQLAlchemy) del gradebook del curso de `raiz`: la que le da nbgrader, raiz/gradebook.db."""
    from nbgrader.coursedir import CourseDirectory

    return CourseDirectory(root=str(Path(raiz).resolve())).db_url


def configuracion(raiz=RAIZ):
    """La configuración de nbgrader del curso de `raiz`, de su nbgrader_config.py, como la lee nbgrader."""
    from traitlets.config import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=str(Path(raiz).resolve())).load_config()
