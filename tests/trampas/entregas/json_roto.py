"""Entrega un cuaderno cortado a la mitad: su JSON no se puede leer.

esperado: sin-corregir
aviso: su JSON está roto
"""

from entregas_raras import escribir_crudo, respondido
import json


def entregar(carpeta, release, buena):
    texto = json.dumps(respondido(release, buena))
    escribir_crudo(carpeta, texto[: len(texto) // 2].encode())
