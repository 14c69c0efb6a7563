"""Todos los números que impone la corrección, en un solo sitio: segundos y bytes, cada uno con su porqué.

Las entregas de esta lección son pequeñas (un cuaderno de unos 50 kB, una respuesta de unas decenas
de líneas): cada tope deja mucho margen a una entrega honesta y corta pronto a la que no lo es.
"""

KIB, MIB, GIB = 1024, 1024 ** 2, 1024 ** 3

# La entrega, al leerla (course/aislado/entrada.py)
CUADERNO_ENTREGADO = 32 * MIB   # bytes del .ipynb entregado; uno más grande ni se lee
CELDAS_ENTREGADAS = 5_000       # celdas del cuaderno entregado que se miran al buscar las respuestas
CODIGO_RESPUESTA = 256 * KIB    # bytes del código de una celda de respuesta; más no es una respuesta

# Las salidas del cuaderno al ejecutarlo (course/aislado/corrector.py, EjecutarEnJaula)
SALIDA_POR_CELDA = 100_000      # caracteres de salida que se guardan de una celda
SALIDA_POR_CUADERNO = 4 * MIB   # caracteres que se guardan de todo el cuaderno, con cada actualización
                                # de un display (update_display) contada en cada sitio donde se ve
MENSAJE_DEL_NUCLEO = 16 * MIB   # bytes de un solo mensaje del núcleo; uno mayor se descarta sin leerlo

# La jaula (course/aislado/jaula.py)
MEMORIA = 2 * GIB               # bytes de memoria virtual de cada proceso de la jaula
TMP = 64 * MIB                  # bytes del /tmp propio de la jaula (es memoria: tmpfs)
CARPETA_DEL_NUCLEO = 64 * MIB   # bytes que el núcleo puede escribir en la carpeta de su cuaderno (tmpfs)
FICHEROS = 64 * MIB             # bytes de un fichero que escriba la jaula

# El canal entre el corrector de confianza y la jaula (course/aislado/cliente.py)
LINEA_DE_LA_JAULA = 2_000_000   # bytes de una línea que manda la jaula; más es una inundación
LINEA_A_LA_JAULA = 4 * MIB      # bytes de una línea que el corrector manda a la jaula
ESCRITURA = 5                   # segundos para que la jaula lea lo que le manda el corrector
PROFUNDIDAD_DE_UN_DATO = 60     # anidamiento de un dato que vuelve de la jaula; más hondo llega opaco
PIEZAS_DE_UN_DATO = 200_000     # piezas (valores, claves) de un dato que vuelve de la jaula
