"""Todos los topes que impone la corrección, en un solo sitio. Cámbialos aquí y solo aquí.

Los de esta lección: sus celdas tardan décimas de segundo y cada llamada a `ejecutar`,
milésimas. Un bucle sin fin cuesta a la clase unos pocos segundos, no minutos; una entrega
entera, con lo que sea que tenga dentro, está acotada por la suma de los topes de reloj (los del
corrector, alargados como mucho ALARGUE_POR_CARGA veces si la máquina va cargada).
Los de espacio (bytes) dejan mucho margen a una entrega honesta (un cuaderno de unos 50 kB, una
respuesta de unas decenas de líneas) y cortan pronto a la que no lo es.
nbgrader_config.py, course/aislado, course/calificacion.py, course/recoleccion.py, la corrección de
la clase (course/clase.py), las grabaciones y el formgrader los leen de aquí (tests/test_limites.py
comprueba que cada uno se usa y que no hay otros). Las partes optativas (el hub) llevan los suyos.
"""

# Tiempo de reloj, en segundos.
CELDA = 1                   # una celda del cuaderno en el núcleo enjaulado; pasado, se interrumpe (entero: nbgrader)
INTERRUPCION = 2            # lo que se espera a que una celda interrumpida se pare antes de dar el núcleo por perdido
VALIDAR = 15                # una celda al pulsar Validate (nbgrader validate, sin jaula): no es la corrección
CUADERNO = 10               # todas las celdas de un cuaderno juntas en el núcleo; agotado, las demás no se ejecutan
ARRANQUE_NUCLEO = 120       # lo que puede tardar en arrancar el núcleo enjaulado (es la máquina, no el estudiante)
ARRANQUE_JAULA = 30         # lo que puede tardar en arrancar el proceso del corrector en su jaula (ídem)
CARGA = 2                   # cargar la celda de respuesta `ejecutar` en la jaula del corrector
LLAMADA = 1                 # una llamada a `ejecutar` (o leer una respuesta del cuestionario) en esa jaula: el
                            # que dice la lección, y el de revisar: SEGUNDOS de harness/revision/vigilancia.py, que va
                            # a los estudiantes sin este paquete (y este no importa harness: lo lee nbgrader_config.py).
                            # test_limites.py comprueba que son iguales
COMPROBACIONES = 100        # todas las llamadas de las comprobaciones de una entrega juntas; agotado, las que
                            # faltan suspenden. Más que LLAMADA por todas las que puede hacer la corrección
                            # (course/calificacion.py, llamadas_como_mucho; lo comprueba test_revision.py)
# Los topes de la jaula del corrector (CARGA, LLAMADA, COMPROBACIONES) no cuentan lo que
# sus procesos esperan a que les toque una CPU, ni lo que trabaja el propio corrector (course/aislado/reloj.py):
# con la máquina cargada, cada uno se alarga así, hasta ALARGUE_POR_CARGA veces lo que dice como mucho.
ALARGUE_POR_CARGA = 5
HILOS_CON_ESPERA = 1_000    # hilos de una jaula cuya espera se mira; los de más no se descuentan
# La alarma de una llamada a `ejecutar` fuera de una jaula (con ella acotan cada llamada `revisar(ejecutar)` y
# las pruebas visibles del desafío en el cuaderno del estudiante, y el corrector de confianza la usa de
# respaldo, por si la jaula no corta: course/calificacion.py) es esa, SEGUNDOS.

# La clase corregida a la vez, en varios procesos (course/clase.py)
ESPERA_AL_GRADEBOOK = 60    # segundos que una conexión espera a que otra suelte el gradebook (SQLite)
REINTENTOS = 3              # veces que se corrige una entrega que aun así choca con el gradebook bloqueado

# Las conversaciones grabadas con un modelo de verdad (`make grabar`, course/grabaciones.py)
TURNOS_DE_UNA_GRABACION = 10    # como en la conversación del salmorejo; más, y la grabación no vale de prueba oculta

# Tiempo de CPU, en segundos.
CPU = 120                   # para todo lo que corra en una jaula, sumado
CPU_DE_GRACIA = 5           # de más, entre el aviso de que se ha pasado (SIGXCPU) y la muerte (SIGKILL)

KIB, MIB, GIB = 1024, 1024 ** 2, 1024 ** 3

# La entrega, al leerla (course/aislado/entrada.py)
CUADERNO_ENTREGADO = 32 * MIB   # bytes del .ipynb entregado; uno más grande ni se lee
CELDAS_ENTREGADAS = 5_000       # celdas del cuaderno entregado que se miran al buscar las respuestas
CODIGO_RESPUESTA = 256 * KIB    # bytes del código de una celda de respuesta; más no es una respuesta
RESPUESTA_DEL_CUESTIONARIO = 4 * KIB  # bytes de una celda respuesta-N que se leen para el informe; más no es una letra
SALIDAS_DEL_CUESTIONARIO = 50   # salidas de una celda en las que se busca lo comprobado con el cuestionario formativo
SELLO = 1_000                   # bytes de un timestamp.txt o un submission_secret.txt de `nbgrader submit`
NOTA_SIN_CORREGIR = 2_000       # bytes que se leen del no-corregido.txt que deja la recogida del LMS (y del hora-desconocida.txt)
CUADERNOS_EN_LA_CARPETA = 50    # ficheros de una carpeta entregada que se miran buscando su cuaderno

# Las descargas del LMS y lo que cada estudiante subió dentro (course/recoleccion.py, nbgrader zip_collect)
ENTRADAS_DE_DESCARGA = 50_000   # ficheros de una descarga del LMS (la de toda la clase)
HOJA_DE_CALIFICACIONES = 16 * MIB  # bytes de la hoja de calificaciones de Moodle que se deja junto a las descargas
ENTRADAS_DE_SUBIDA = 1_000      # ficheros de lo que subió un estudiante, contando los de sus archivos anidados
BYTES_DE_SUBIDA = 96 * MIB      # bytes que se descomprimen de lo que subió un estudiante, en total
ARCHIVO_ANIDADO = 40 * MIB      # bytes de un .zip o .tar que un estudiante sube, ya descomprimido (uno mayor no
                                # se abre): cabe un cuaderno del tope de arriba en un .tar o un .tar.gz
PROFUNDIDAD_DE_ARCHIVOS = 3     # archivos dentro de archivos; más hondo no se abre
# Una bomba de descompresión la paran, antes que nada, los topes absolutos de arriba (bytes descomprimidos de
# cada fichero y de toda la subida, número de ficheros). La razón solo se mira por encima de RAZON_DESDE, un
# tamaño que ningún cuaderno honesto alcanza (el cuaderno entero tiene un tope menor): un cuaderno de 18 MB con
# una salida repetitiva se comprime más de 100 veces y es honesto.
RAZON_DESDE = 40 * MIB          # bytes que añade descomprimir lo que subió un estudiante, a partir de los que se mira la razón
RAZON_DE_COMPRESION = 100       # descomprimido / comprimido de lo que subió, pasado RAZON_DESDE; más es una bomba

# Las salidas del cuaderno al ejecutarlo (course/aislado/corrector.py, EjecutarEnJaula)
SALIDA_POR_CELDA = 100_000      # caracteres de salida que se guardan de una celda
SALIDA_POR_CUADERNO = 4 * MIB   # caracteres que se guardan de todo el cuaderno, con cada actualización
                                # de un display (update_display) contada en cada sitio donde se ve
MENSAJE_DEL_NUCLEO = 16 * MIB   # bytes de cada parte de un mensaje del núcleo; con una mayor, zmq corta la conexión
MEMORIA_DE_LOS_MENSAJES = 256 * MIB  # lo que puede crecer el proceso que corrige mientras vive un núcleo (zmq recibe
                                     # cada mensaje entero, con todas sus partes); pasado, se mata el núcleo. Un
                                     # cuaderno honesto hace crecer unos pocos MB (sus salidas tienen su tope)
NIVELES_AL_CONTAR = 20          # niveles de un mensaje del núcleo que se recorren al contar lo que ocupa
FICHEROS_DE_LA_TAREA = 100      # ficheros de la carpeta de la tarea que ve, de solo lectura, el núcleo enjaulado
TEXTO_DEL_CORRECTOR = 20_000    # caracteres de cada texto que escribe el corrector de confianza en una celda (su veredicto,
                                # que puede citar lo que devuelve o lanza la respuesta) o en el resumen; más se corta y se dice
CODIGO_A_COLOREAR = 10_000      # caracteres de un bloque de código que se colorean en la retroalimentación; más, sin colores
COLOREADO_POR_PAGINA = 60_000   # y de todos los de una página (la lección entera tiene unos 18 000)

# La jaula (course/aislado/jaula.py). Todo lo escribible de una jaula es un tmpfs (memoria) con tope de bytes
# y de ficheros (cada fichero, aun vacío, gasta memoria del núcleo de Linux); lo demás es de solo lectura.
MEMORIA = 2 * GIB               # bytes de memoria virtual de cada proceso de la jaula (RLIMIT_AS)
MEMORIA_DE_LA_JAULA = 1 * GIB   # bytes de memoria de toda la jaula junta, con sus tmpfs, su memoria compartida y
                                # lo que gasta Linux por ella (su grupo de control; solo donde la máquina lo deja)
TAREAS = 64                     # procesos e hilos de una jaula, todos juntos (un núcleo honesto usa una docena)
DESCRIPTORES = 256              # ficheros abiertos de cada proceso de la jaula (un núcleo honesto, unos cuarenta)
TMP = 64 * MIB                  # bytes del /tmp propio de la jaula (es memoria: tmpfs)
FICHEROS_EN_TMP = 2_000         # ficheros y carpetas de ese /tmp
CARPETA_DEL_NUCLEO = 64 * MIB   # bytes que el núcleo puede escribir en la carpeta de su cuaderno (tmpfs)
FICHEROS_EN_LA_CARPETA = 2_000  # ficheros y carpetas que puede crear allí
MEMORIA_COMPARTIDA = 16 * MIB   # bytes de memoria compartida de System V de una jaula (en su espacio de IPC)
FICHEROS = 64 * MIB             # bytes de un fichero que escriba la jaula

# El formgrader (course/formgrader)
CELDAS_DE_UNA_PETICION = 5_000  # celdas que se aceptan al preguntar los puntos de un cuaderno (uno de verdad tiene decenas)

# El canal entre el corrector de confianza y la jaula (course/aislado/protocolo.py, que usan los dos lados)
LINEA_DE_LA_JAULA = 2_000_000   # bytes de una línea que manda la jaula; la jaula manda una excepción en su lugar,
                                # y el corrector no lee más: es una inundación
LINEA_A_LA_JAULA = 4 * MIB      # bytes de una línea que el corrector manda a la jaula
ESCRITURA = 5                   # segundos para que la jaula lea lo que le manda el corrector
PROFUNDIDAD_DE_UN_DATO = 60     # anidamiento de un dato que cruza el canal; más hondo viaja opaco
PIEZAS_DE_UN_DATO = 200_000     # piezas (valores, claves) de un dato que vuelve de la jaula
REPR_DE_UN_OBJETO = 300         # caracteres del repr de un objeto que no es un dato simple (lo que se ve de él)
NOMBRE_DE_UN_TIPO = 200         # caracteres del nombre de un tipo, o de la línea de código que ha lanzado algo
RECURSION_EN_LA_JAULA = 3000    # sys.setrecursionlimit del proceso del corrector en la jaula
