"""Entrega un JSON válido pero anidado cien mil veces, y sin celdas.

esperado: sin-corregir
aviso: no es un cuaderno de Jupyter válido
"""

from entregas_raras import escribir_crudo


def entregar(carpeta, release, buena):
    escribir_crudo(carpeta, b"[" * 100_000 + b"]" * 100_000)
