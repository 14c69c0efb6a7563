"""Una carpeta de entrega con un salto de línea en su nombre (y un cuaderno bueno dentro).

nbgrader lee el nombre del estudiante con una expresión regular que no cruza saltos de línea: sin
apartarla, la corrección de toda la clase se paraba.

esperado: apartada
aviso: salto de línea
"""

from entregas_raras import escribir, respondido


def entregar(carpeta, release, buena):
    escribir(carpeta.parent.with_name(carpeta.parent.name + "\nmalo") / carpeta.name, respondido(release, buena))
    return carpeta.parent.name + "\nmalo"
