"""Entrega un cuaderno de 40 MB (una salida enorme guardada en una celda añadida); la respuesta es buena.

esperado: sin-corregir
aviso: ocupa más de 32 MB
"""

from entregas_raras import escribir, respondido


def entregar(carpeta, release, buena):
    nb = respondido(release, buena)
    nb["cells"].append({"cell_type": "code", "id": "enorme", "metadata": {}, "execution_count": 1, "source": "",
                        "outputs": [{"output_type": "stream", "name": "stdout", "text": "x" * (40 * 1024 ** 2)}]})
    escribir(carpeta, nb)
