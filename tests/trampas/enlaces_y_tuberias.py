"""Deja en la carpeta de su cuaderno enlaces a las soluciones, al gradebook y a un compañero, y cambia el cuaderno por una tubería.

Si nbgrader siguiera esos enlaces al escribir, copiar la retroalimentación o poner permisos,
filtraría las soluciones o pisaría el cuaderno de otro; con la tubería, se quedaría colgado.

esperado: salmorejo=0 esquema=0 excepciones=0 una-vez=0 resultados=0 escrituras=0 guiones=0
"""

import glob
import os

for _destino, _nombre in [("../../../source/*/*.ipynb", "fuga_soluciones.txt"), ("../../../gradebook.db", "fuga_gradebook.txt"),
                          ("../../correcto_try_except/*/*.ipynb", "fuga_companero.txt")]:
    for _ruta in glob.glob(_destino) or [_destino]:
        try:
            os.symlink(os.path.abspath(_ruta), _nombre)
        except OSError:
            pass
for _cuaderno in glob.glob("*.ipynb"):
    os.remove(_cuaderno)
    os.mkfifo(_cuaderno)


def ejecutar(llamada, entorno):
    return error(llamada["id"], "x")
