"""Añade doscientas celdas que duermen casi hasta el tope de la celda, y otras que imprimen sin parar; la respuesta es buena.

esperado: todo
aviso: Las celdas de código que has añadido (300)
"""

from entregas_raras import escribir, respondido


def entregar(carpeta, release, buena):
    nb = respondido(release, buena)
    for n in range(200):
        nb["cells"].append({"cell_type": "code", "id": "dormir-%d" % n, "metadata": {}, "outputs": [],
                            "execution_count": None, "source": "import time\ntime.sleep(14)  # %d" % n})
    for n in range(100):
        nb["cells"].append({"cell_type": "code", "id": "imprimir-%d" % n, "metadata": {}, "outputs": [],
                            "execution_count": None, "source": "print('x' * 10**6)  # %d" % n})
    escribir(carpeta, nb)
