"""El tiempo que se cobra a una respuesta en su jaula: el del reloj, menos lo que no es suyo.

Con la clase corregida en todos los núcleos (course/clase.py), o con la máquina ocupada en otra cosa,
un proceso listo para correr puede pasar un rato esperando a que quede libre una CPU. Ese rato no es
de la respuesta: una llamada honesta, que tarda milésimas, podría pasar de su tope de un segundo solo
por la carga, y suspender. Tampoco es suyo lo que trabaja el corrector mientras ella espera su
respuesta: leer y escribir los mensajes, hacer las operaciones del entorno, y, de vez en cuando, una
pasada de su recolector de basura (con decenas de cuadernos corregidos en el proceso, se han medido
0,2 s de CPU en una sola). Linux apunta las dos cosas por hilo, en nanosegundos (el primer y el
segundo número de /proc/<pid>/task/<tid>/schedstat: lo que ha corrido y lo que ha esperado turno);
aquí se descuenta la espera de los procesos de la jaula, y la espera y el trabajo del hilo del
corrector que la atiende.

Lo demás se sigue cobrando: un bucle sin fin gasta su tiempo cada vez que le toca correr, y una
respuesta que duerme o se queda esperando algo también (dormir no es esperar la CPU). El descuento
tiene un tope: un plazo de `s` segundos no dura más de `s * limites.ALARGUE_POR_CARGA` de reloj, por
cargada que esté la máquina o por mucho que una respuesta haga trabajar al corrector. Donde Linux no
lo apunta, el descuento es cero: el reloj, sin más.
"""

import os
import threading
import time

from course import limites


def _segundos(ruta, campos):
    """La suma de esos `campos` del schedstat del hilo de `ruta` (su carpeta en /proc), en segundos, o None."""
    try:
        with open(os.path.join(ruta, "schedstat"), "rb") as f:
            numeros = f.read().split()
        return sum(int(numeros[i]) for i in campos) / 1e9
    except (OSError, IndexError, ValueError):
        return None


CORRIDO, ESPERADO = 0, 1  # los campos de schedstat


class Espera:
    """Lo que no se cobra a la respuesta, en total: lo que han esperado la CPU el árbol de procesos de
    `raiz` y el hilo que lo atiende (el que llama a `total`), y lo que este ha trabajado."""

    def __init__(self):
        self.raiz = None   # el pid del proceso de la jaula (el de fuera: los demás cuelgan de él)
        self._vistas = {}  # hilo → lo último que se le ha leído: lo de un hilo que ya ha acabado no se pierde

    def total(self):
        este = "/proc/self/task/%d" % threading.get_native_id()
        for hilo, campos in [(este, (CORRIDO, ESPERADO)), *((h, (ESPERADO,)) for h in self._hilos_de(self.raiz))]:
            segundos = _segundos(hilo, campos)
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
