"""Sus celdas de nbgrader dicen `schema_version: 99` (de un nbgrader del futuro o editado a mano); la respuesta es buena.

Con la corrección de nbgrader tal cual, SchemaTooNewError paraba a toda la clase.

esperado: todo
"""

from entregas_raras import escribir, respondido


def entregar(carpeta, release, buena):
    nb = respondido(release, buena)
    for c in nb["cells"]:
        if "nbgrader" in c["metadata"]:
            c["metadata"]["nbgrader"]["schema_version"] = 99
    nb["metadata"]["nbgrader"] = {"schema_version": 99}
    escribir(carpeta, nb)
