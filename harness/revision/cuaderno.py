"""La lista de comprobación del cuaderno: `revisar(ejecutar)`, con unos casos de muestra.

Imprime una línea ✔ o ✘ por cláusula (en lo que lee el estudiante, «comprobación»), con las mismas
cláusulas, la misma forma de puntuar y el mismo tope de tiempo por llamada que al corregir; el
corrector usa otros casos, hechos igual con otra semilla.
"""

from ..entorno import ENTORNO
from ..salmorejo import FINAL, INICIO, RESPUESTAS, VISTO
from .casos import generar
from .clausulas import CLAUSULAS, PRUEBAS, REGLA
from .reglas import enumerar, nombrada, reglas, repasar, sin_puntos
from .vigilancia import SEGUNDOS, probar


# Los casos de muestra de la lista de comprobación, de una semilla pública (al corregir se usa otra).

SEMILLA = 2026
SALMOREJO = [(INICIO, RESPUESTAS, VISTO, 10, ("fin", FINAL), ENTORNO)]
MUESTRA = dict(generar(SEMILLA), salmorejo=SALMOREJO)


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
