"""La lista de comprobación del cuaderno: `revisar(ejecutar)`, con unos casos de muestra.

Imprime una línea ✔ o ✘ por cláusula (en lo que lee el estudiante, «comprobación»), con las mismas
cláusulas y la misma forma de puntuar que al corregir; el corrector usa otros casos y otras
conversaciones, que no están aquí.
"""

from ..bloques import error, llamada, resultado, texto
from ..entorno import ENTORNO
from ..salmorejo import FINAL, INICIO, RESPUESTAS, VISTO
from .clausulas import CLAUSULAS, PRUEBAS, REGLA
from .reglas import enumerar, nombrada, reglas, repasar, sin_puntos
from .vigilancia import SEGUNDOS, probar


# Los casos de muestra de la lista de comprobación (al corregir se usan otros).

SALMOREJO = [(INICIO, RESPUESTAS, VISTO, 10, ("fin", FINAL), ENTORNO)]

MUESTRA = {
    "contesta": [llamada("m1", "leer", ruta="notas/cena.txt"), llamada("m2", "leer", ruta="recetas/paella.txt"),
                 llamada("m3", "leer", ficheros=["lista.txt"])],
    "avisa": [(llamada("m3", "leer", ficheros=["lista.txt"]), None), (llamada("m4", "abrir", ruta="lista.txt"), None),
              (llamada("m2", "leer", ruta="recetas/paella.txt"), None),
              (llamada("m8", "listar", carpeta="recetas/gazpacho.txt"),
               NotADirectoryError("recetas/gazpacho.txt no es una carpeta"))],
    "esquema": [llamada("m4", "abrir", ruta="lista.txt"), llamada("m5", "buscar", patron=3),
                llamada("m6", "listar", carpeta="recetas/", orden="alfabético")],
    "excepciones": [(llamada("m7", "leer", ruta="recetas/paella.txt"), None),
                    (llamada("m8", "listar", carpeta="recetas/gazpacho.txt"),
                     NotADirectoryError("recetas/gazpacho.txt no es una carpeta")),
                    (llamada("m9", "buscar", patron="sal"), MemoryError())],
    "una-vez": [(llamada("m10", "leer", ruta="recetas/paella.txt"), None),
                (llamada("m11", "escribir", ruta="notas/cena.txt", contenido="Somos ocho."), ConnectionError("sin red")),
                (llamada("m12", "listar", carpeta="notas/"), None)],
    "sin-arreglos": [llamada("m13", "leer", rutas=["notas/cena.txt"]), llamada("m14", "leer", ruta="recetas/gaspacho.txt"),
                     llamada("m18", "listar", carpeta="notas")],
    "resultados": [(llamada("m15", "buscar", patron="paella"), ENTORNO),
                   (llamada("m16", "leer", ruta="notas/compra.txt"), dict(ENTORNO, **{"notas/compra.txt": "huevos\n\n"}))],
    "escrituras": [llamada("m17", "escribir", ruta="notas/cena.txt", contenido="Somos ocho.")],
    "salmorejo": SALMOREJO,
    "guiones": [([INICIO[0], ("usuario", "¿Qué lleva el gazpacho?")],
                 [[llamada("g1", "leer", ruta="gazpacho.txt"), llamada("g2", "listar", carpeta="recetas/")],
                  [texto("Lleva tomates, pepino y pimiento.")]],
                 [[error("g1", "no existe el fichero 'gazpacho.txt'"),
                   resultado("g2", "recetas/gazpacho.txt\nrecetas/tortilla.txt")], None],
                 5, ("fin", "Lleva tomates, pepino y pimiento."), ENTORNO)],
}


def revisar(ejecutar, casos=MUESTRA, segundos=SEGUNDOS):
    """Prueba `ejecutar` cláusula a cláusula con unos casos de muestra e imprime una línea ✔ o ✘ por cada
    una, que empieza por la regla del contrato que mira."""
    veredictos = reglas(repasar(lambda ll, entorno: probar(ejecutar, ll, entorno, segundos), casos))
    if veredictos["contesta"].diagnosticos == ["sin-empezar"]:  # sin respuesta no hay nada que repasar
        print("✘ Aún no has escrito tu parte: ejecutar sigue lanzando NotImplementedError. Sustituye la línea "
              "del raise por tu código, ejecuta esa celda y después esta.")
        return
    grupos = {}  # las que no puntúan solo por lo que ya dice otra: una línea para todas
    for nombre in CLAUSULAS:
        v = veredictos[nombre]
        if v.por and v.texto == sin_puntos((v.diagnosticos or [None])[-1]):
            grupos.setdefault(v.por, []).append(nombre)
    for nombre, clausula in CLAUSULAS.items():
        v = veredictos[nombre]
        grupo = grupos.get(v.por, [])
        if nombre in grupo[1:]:
            continue
        if nombre in grupo:
            print("✘ %s (%s): %s Lo explica %s, arriba." % (enumerar(grupo), enumerar(list(dict.fromkeys(
                REGLA[n] for n in grupo))), v.texto, nombrada(v.por)))
        elif v.puntua:
            print("✔ %s · %s: %s" % (REGLA[nombre], nombre, v.texto.replace("\n", "\n    ")))
        else:
            print("✘ %s · %s: %s\n    %s" % (REGLA[nombre], nombre, clausula.__doc__.rstrip("."),
                                            v.texto.replace("\n", "\n    ")))
    puntuan = sum(veredictos[n].puntua for n in PRUEBAS)
    print("\nCon estos casos de muestra puntuarían %d de las %d pruebas del desafío. Al corregir se usan las "
          "mismas comprobaciones y se puntúa igual, con otros casos y otras conversaciones." % (puntuan, len(PRUEBAS)))
