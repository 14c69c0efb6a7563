"""Las reglas de la nota: de lo que dan las cláusulas, qué puntúa. Las mismas en `revisar` y al corregir."""

import copy
from typing import NamedTuple

from .clausulas import CLAUSULAS, CONVERSACIONES, REGLA
from .diagnosticos import DIAGNOSTICOS, NoCumple

# Las cláusulas de los fallos: sin la idea de la lección (`avisa`) no puntúan.
DE_LOS_FALLOS = ("salmorejo", "esquema", "excepciones", "una-vez", "sin-arreglos", "guiones")


def _pasa(clausula, *argumentos):
    try:
        return clausula(*argumentos)
    except NoCumple as e:
        return e


def _sin_la_idea(hechas):
    """Si una clase de fallo nunca vuelve como error, o nada de lo que sale bien vuelve como resultado (y no
    es que no se haya podido probar)."""
    return getattr(hechas.get("avisa"), "diagnostico", None) in ("nunca-avisa", "todo-es-error")


def _con_memoria(llamar):
    """`llamar` con una copia de cada llamada, apuntando en `memoria` cada una ((nombre, entrada), observación
    sin su id): así se ve quién contesta con lo que guardó de una llamada igual. Si `ejecutar` cambia su
    copia, queda en `cambiada`: sin-arreglos lo mira, y en una conversación se le pasa al modelo. La llamada
    con que se juzga la observación sigue como la hizo el modelo."""
    memoria = []

    def recordando(ll, entorno):
        propia = copy.deepcopy(ll)
        recordando.cambiada = None
        try:
            obs = llamar(propia, entorno)
        finally:
            if propia != ll:
                recordando.cambiada = propia
        memoria.append((copy.deepcopy((ll.get("name"), ll.get("input"))),
                        {k: v for k, v in obs.items() if k != "tool_use_id"} if type(obs) is dict else obs))
        return obs
    recordando.memoria, recordando.cambiada = memoria, None
    return recordando


def _paga_en_su_casa(hecha, nombre):
    return isinstance(hecha, NoCumple) and hecha.diagnostico and DIAGNOSTICOS[hecha.diagnostico].casa == nombre


def repasar(llamar, casos):
    """Pasa `ejecutar` (a través de `llamar`) por cada cláusula: {cláusula: frase de ✔, o el NoCumple}.

    Sin un tool_result para cada llamada básica (`contesta`) no se mira nada más. Una conversación que
    falla se vuelve a pasar con las llamadas de las cláusulas que ya fallan por su propia equivocación
    contestadas como espera su guion: si así llega a su final, lo apunta en `arreglada`.
    """
    llamar = _con_memoria(llamar)
    casos = copy.deepcopy(casos)  # una respuesta que cambia las llamadas no cambia las de la siguiente
    hechas = {"contesta": _pasa(CLAUSULAS["contesta"], llamar, casos["contesta"])}
    if isinstance(hechas["contesta"], NoCumple):
        return hechas
    for nombre in CLAUSULAS:
        if nombre not in hechas and nombre not in CONVERSACIONES:
            hechas[nombre] = _pasa(CLAUSULAS[nombre], llamar, casos[nombre])
    pagan = [n for n, h in hechas.items() if _paga_en_su_casa(h, n)]
    for nombre in CONVERSACIONES:
        hecha = _pasa(CLAUSULAS[nombre], llamar, casos[nombre])
        if isinstance(hecha, NoCumple) and pagan and not _sin_la_idea(hechas):
            otra_vez = _pasa(CLAUSULAS[nombre], llamar, casos[nombre], pagan)
            hecha.arreglada = None if isinstance(otra_vez, NoCumple) else pagan
        hechas[nombre] = hecha
    return {n: hechas[n] for n in CLAUSULAS if n in hechas}


class Veredicto(NamedTuple):
    puntua: bool
    texto: str               # la frase de ✔, o por qué no puntúa
    diagnosticos: list       # los nombres de las equivocaciones por las que no puntúa
    por: str | None = None   # la cláusula cuyo motivo, dicho una vez, explica este veredicto


def reglas(hechas):
    """Las reglas de la nota, las mismas en `revisar` y al corregir: de lo que ha dado `repasar`, el
    Veredicto de cada cláusula. (No son las reglas del contrato, numeradas en REGLA: son cómo se puntúa.)

    - La puerta. Sin un tool_result para cada llamada básica, nada puntúa. Sin respuesta (el código de
      partida, o una celda sin ejecutar) se dice así; si no, se dice qué ha pasado. Una vez, en `contesta`.
    - La idea de la lección. Si una de las dos clases de fallo nunca vuelve como error que diga qué ha
      pasado, o nada de lo que sale bien vuelve como resultado (`avisa`), las cláusulas de los fallos no puntúan.
    - El tiempo. Las que no se han podido probar porque se ha acabado el de toda la entrega no puntúan, y
      lo que ha pasado se dice una vez (su `por` es "tiempo").
    - Una vez, en su casa. Una equivocación resta una vez, en su casa (diagnosticos.py): otra cláusula
      que falla por ella puntúa. Una conversación puntúa si falla solo por equivocaciones que ya restan
      en su casa: con sus llamadas arregladas llega a su final.
    """
    puerta = hechas["contesta"]
    if isinstance(puerta, NoCumple):
        d = puerta.diagnostico
        texto = ("Sin respuesta no hay puntos en el desafío.\n" if d == "sin-empezar" else
                 "Tu respuesta no llega a cargarse, y sin ella no hay puntos en el desafío.\n" if d == "no-carga" else
                 "" if puerta.comun else
                 "Tu ejecutar no contesta con un tool_result a todas las llamadas básicas (una que sale bien, una "
                 "que no cumple su esquema, una cuya herramienta falla): ninguna prueba del desafío puntúa.\n")
        veredictos = {"contesta": Veredicto(False, texto + str(puerta), [d] if d else [])}
        for nombre in CLAUSULAS:
            if nombre != "contesta":
                veredictos[nombre] = Veredicto(False, sin_puntos(d), [d] if d else [], "contesta")
        return veredictos
    veredictos = {}
    for nombre, hecha in hechas.items():
        sin_la_idea = _sin_la_idea(hechas) and nombre in DE_LOS_FALLOS
        d = hecha.diagnostico if isinstance(hecha, NoCumple) else None
        if getattr(hecha, "comun", None):  # no se ha podido probar: lo explica, una vez, lo que es común a todas
            veredictos[nombre] = Veredicto(False, "Sin puntos: no ha dado tiempo a probarla.", [], hecha.comun)
            veredictos.setdefault(hecha.comun, Veredicto(False, str(hecha), []))
        elif sin_la_idea:
            idea = hechas["avisa"].diagnostico
            veredictos[nombre] = Veredicto(False, sin_puntos(idea) + (
                "\n" + str(hecha) if isinstance(hecha, NoCumple) else ""), [*([d] if d and d != idea else []), idea], "avisa")
        elif not isinstance(hecha, NoCumple):
            veredictos[nombre] = Veredicto(True, hecha, [])
        elif getattr(hecha, "arreglada", None):
            veredictos[nombre] = Veredicto(True, "Puntúa, aunque la conversación no llega a su final: se tuerce solo "
                                           "por lo que ya te quita puntos en %s, y con eso arreglado llegaría. Así no "
                                           "cuenta dos veces.\n  (%s)"
                                           % (enumerar([nombrada(c) for c in hecha.arreglada]), str(hecha).split("\n")[0]), [])
        elif d and DIAGNOSTICOS[d].casa not in (None, nombre) and _paga_en_su_casa(hechas.get(DIAGNOSTICOS[d].casa), DIAGNOSTICOS[d].casa):
            veredictos[nombre] = Veredicto(True, "Puntúa, aunque falla por «%s»: eso ya te quita puntos en %s, y no "
                                           "cuenta dos veces.\n  (%s)"
                                           % (DIAGNOSTICOS[d].etiqueta, nombrada(DIAGNOSTICOS[d].casa),
                                              str(hecha).split("\n")[0]), [])
        else:
            veredictos[nombre] = Veredicto(False, str(hecha), [d] if d else [])
    return veredictos


def sin_puntos(diagnostico):
    if not diagnostico:
        return "Sin puntos: tu ejecutar no contesta a las llamadas básicas."
    return "Sin puntos, por «%s»." % DIAGNOSTICOS[diagnostico].etiqueta


def nombrada(clausula):
    """Una cláusula como la nombran `revisar` y la retroalimentación: «Regla 3 · excepciones»."""
    return "«%s · %s»" % (REGLA[clausula], clausula) if clausula in REGLA else "«%s»" % clausula


def enumerar(cosas):
    return cosas[0] if len(cosas) == 1 else ", ".join(cosas[:-1]) + " y " + cosas[-1]
