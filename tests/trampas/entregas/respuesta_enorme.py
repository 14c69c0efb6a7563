"""Una respuesta correcta con un comentario de 300 kB: más de lo que cabe en una respuesta.

esperado: nada
aviso: ocupa más de 256 kB
"""

from entregas_raras import escribir, respondido


def entregar(carpeta, release, buena):
    escribir(carpeta, respondido(release, buena + "\n# " + "x" * 300_000 + "\n"))
