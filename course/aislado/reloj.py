"""El tiempo que se cobra a una respuesta en su jaula: el del reloj, menos lo que ha esperado turno de CPU.

Con la clase corregida en todos los núcleos (course/clase.py), o con la máquina ocupada en otra cosa,
un proceso listo para correr puede pasar un rato esperando a que quede libre una CPU. Ese rato no es
de la respuesta: una llamada honesta, que tarda milésimas, podría pasar de su tope de un segundo solo
por la carga, y suspender. Linux apunta esa espera por hilo, en nanosegundos (el segundo número de
/proc/<pid>/task/<tid>/schedstat); aquí se descuenta la de los procesos de la jaula y la del hilo del
corrector que la atiende (mientras este espera su turno, la jaula espera su respuesta).

Lo demás se sigue cobrando: un bucle sin fin gasta su tiempo cada vez que le toca correr, y una
respuesta que duerme o se queda esperando algo también (dormir no es esperar la CPU). El descuento
tiene un tope: un plazo de `s` segundos no dura más de `s * limites.ALARGUE_POR_CARGA` de reloj, por
cargada que esté la máquina. Donde Linux no lo apunta, el descuento es cero: el reloj, sin más.
"""

import os
import time

from course import limites


def _espera(ruta):
    """Los segundos que el hilo de `ruta` (su carpeta en /proc) ha esperado la CPU, o None si no se sabe."""
    try:
        with open(os.path.join(ruta, "schedstat"), "rb") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


class Espera:
    """Lo que han esperado la CPU, en total, el árbol de procesos de `raiz` y los hilos que lo atienden
    (los que llaman a `total`)."""

    def __init__(self):
        self.raiz = None   # el pid del proceso de la jaula (el de fuera: los demás cuelgan de él)
        self._vistas = {}  # hilo → su espera, la última leída: la de un hilo que ya ha acabado no se pierde

    def total(self):
        este = "/proc/self/task/%d" % getattr(os, "gettid", os.getpid)()
        for hilo in [este, *self._hilos_de(self.raiz)]:
            segundos = _espera(hilo)
            if segundos is not None:
                self._vistas[hilo] = segundos
        return sum(self._vistas.values())

    @staticmethod
    def _hilos_de(raiz):
        """Las carpetas en /proc de los hilos de `raiz` y de sus descendientes (bwrap, bwrap, python...),
        hasta limites.HILOS_CON_ESPERA: los de una respuesta que lanza miles no se miran todos."""
        hilos, pendientes = [], [raiz] if raiz else []
        while pendientes and len(hilos) < limites.HILOS_CON_ESPERA:
            pid = pendientes.pop()
            try:
                tareas = os.listdir("/proc/%d/task" % pid)
            except OSError:
                continue
            for tid in tareas:
                hilos.append("/proc/%d/task/%s" % (pid, tid))
                try:
                    with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                        pendientes += [int(h) for h in f.read().split()]
                except (OSError, ValueError):
                    pass
        return hilos[:limites.HILOS_CON_ESPERA]


class Plazo:
    """Un tope de `segundos` que empieza ahora, contado sin la espera por la CPU que mide `espera`
    (sin ella, de reloj)."""

    def __init__(self, segundos, espera=None):
        self.segundos, self.espera = segundos, espera
        self.inicio = time.monotonic()
        self.fin = self.inicio + segundos
        self.tope = self.inicio + segundos * (limites.ALARGUE_POR_CARGA if espera else 1)
        self.desde = espera.total() if espera else 0.0

    def queda(self, al_dia=False):
        """Los segundos de reloj que aún se pueden esperar; 0 si se ha cumplido. La espera por la CPU se
        vuelve a leer cuando el plazo parece cumplido, o siempre con `al_dia`."""
        ahora = time.monotonic()
        if self.espera and (al_dia or ahora >= self.fin) and self.fin < self.tope:
            alargado = self.inicio + self.segundos + self.espera.total() - self.desde
            self.fin = min(self.tope, max(self.fin, alargado))
        return max(0.0, self.fin - ahora)
