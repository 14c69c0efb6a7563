"""La orden que encierra un proceso con bubblewrap: solo ve Python y harness, y todo lo que gasta tiene tope.

Cada jaula tiene:
- sus sitios escribibles en memoria (tmpfs), cada uno con tope de bytes y de ficheros (`nr_inodes`),
  montados antes de entrar por `unshare` en un espacio de montajes propio: al acabar la jaula
  desaparecen, y el profesor no ve ninguno. El resto (la raíz, /dev, Python, harness) es de solo
  lectura; /dev tiene solo null, zero, full, random y urandom (ni /dev/shm ni terminales);
- un tope de tareas (procesos e hilos, RLIMIT_NPROC dentro de la jaula) y, donde la máquina deja
  (como root, con grupos de control), un grupo de control propio que cuenta toda su memoria (la de
  sus procesos, sus tmpfs, la memoria compartida y la del núcleo de Linux por sus ficheros) y sus
  tareas, y le da como mucho lo mismo de CPU que a un proceso más;
- su propio espacio de IPC, con la memoria compartida de System V acotada.
Los números están en course/limites.py; docs/amenazas.md dice qué queda según la máquina.
"""

import contextlib
import functools
import itertools
import logging
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import harness
from course import limites

_log = logging.getLogger(__name__)


class FaltaBubblewrap(RuntimeError):
    """Sin bubblewrap no se corrige: sería ejecutar el código de los estudiantes sin aislar."""


def bwrap():
    """La ruta de bwrap, o un error que dice cómo instalarlo."""
    ruta = shutil.which("bwrap")
    if ruta is None:
        raise FaltaBubblewrap("Falta bubblewrap (bwrap), que aísla el código de los estudiantes al corregir. "
                           "Instálalo con: apt-get install bubblewrap")
    return ruta


def _sistema():
    """Lo del sistema que necesita Python para arrancar, en modo de solo lectura."""
    for ruta in ("/usr", "/bin", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/alternatives",
                 "/etc/localtime"):
        if os.path.exists(ruta):
            yield ruta
    # El Python del entorno virtual y el Python del que sale (pyenv, /usr/local...).
    for ruta in {sys.prefix, sys.base_prefix, os.path.realpath(sys.base_prefix)}:
        if not ruta.startswith("/usr/"):
            yield ruta
    yield str(Path(harness.__file__).resolve().parent)


def _dentro(ruta, raices):
    return any(ruta == r or ruta.startswith(r.rstrip("/") + "/") for r in raices)


@functools.lru_cache(maxsize=None)
def ocultos():
    """Las carpetas del curso que quedarían a la vista dentro de lo que se monta del sistema.

    Con `pip install .` (no editable) el paquete `course` (pruebas ocultas, clave del cuestionario,
    el corrector) y sus metadatos están en el site-packages del entorno, que la jaula ve entero; y
    puede haber esa copia aunque la corrección use la de la carpeta del curso. Se tapan todas:
    la del paquete que se está usando, y el `course` y los metadatos de cada instalación de curso-harness.
    También el intercambio de nbgrader del entorno (share/nbgrader), con las entregas de los demás.
    """
    raices = [os.path.realpath(r) for r in _sistema()]
    candidatas = set()
    import course
    candidatas.add(Path(course.__file__).resolve().parent)
    with contextlib.suppress(Exception):
        for distribucion in metadata.distributions(name="curso-harness"):
            for fichero in distribucion.files or ():
                primera = fichero.parts[0] if fichero.parts else ""
                if primera == "course" or primera.endswith(".dist-info"):
                    candidatas.add(Path(distribucion.locate_file(primera)).resolve())
    # El intercambio de nbgrader que prepara el curso en el entorno (course/entorno.py): con él en la jaula, una
    # entrega leía las de los demás en inbound/ y su retroalimentación en feedback/.
    for prefijo in {sys.prefix, sys.base_prefix}:
        candidatas.add(Path(prefijo, "share", "nbgrader").resolve())
    harness_ = str(Path(harness.__file__).resolve().parent)
    return tuple(sorted(str(c) for c in candidatas
                  if c.is_dir() and str(c) != harness_ and _dentro(str(c), raices)))


# --------------------------------------------------------------------------- el grupo de control

_numeros = itertools.count()


def _mis_grupos():
    """{controlador: carpeta del grupo de control de este proceso} de cgroup v1, o {"": carpeta} de cgroup v2."""
    montajes = {}
    with open("/proc/self/mountinfo") as f:
        for linea in f:
            antes, _, despues = linea.partition(" - ")
            campos, tipo = antes.split(), despues.split()
            if tipo and tipo[0] in ("cgroup", "cgroup2"):
                controladores = [""] if tipo[0] == "cgroup2" else tipo[2].split(",")
                for c in controladores:
                    montajes.setdefault(c, (campos[3], campos[4]))  # (raíz del montaje, dónde está montado)
    grupos = {}
    with open("/proc/self/cgroup") as f:
        for linea in f:
            _, controladores, ruta = linea.rstrip("\n").split(":", 2)
            for c in (controladores.split(",") if controladores else [""]):
                if c in montajes:
                    raiz, punto = montajes[c]
                    relativa = os.path.relpath(ruta, raiz) if ruta.startswith(raiz) else None
                    if relativa is not None:
                        grupos[c] = os.path.normpath(os.path.join(punto, relativa))
    return grupos


def _escribe(ruta, valor):
    with open(ruta, "w") as f:
        f.write(str(valor))


class Grupo:
    """Un grupo de control (cgroup) para una jaula, con su tope de memoria (que lo cuenta todo) y de tareas.

    `Grupo.nuevo()` da None donde este proceso no puede crearlo (sin ser root, o con /sys/fs/cgroup
    de solo lectura): entonces valen los topes de cada proceso (docs/amenazas.md).
    """

    def __init__(self, carpetas):
        self.carpetas = carpetas  # las carpetas del grupo, una por jerarquía (cgroup v1) o una sola (v2)

    @classmethod
    def nuevo(cls):
        if os.geteuid() != 0:
            return None
        try:
            grupos = _mis_grupos()
        except OSError:
            return None
        numero = next(_numeros)
        if numero == 0:
            _barrer(grupos)
        nombre = "curso-jaula-%d-%d" % (os.getpid(), numero)
        creadas = []
        try:
            if "memory" in grupos and "pids" in grupos:  # cgroup v1, como en esta máquina
                for controlador in ("memory", "pids", "cpu"):
                    if controlador in grupos:
                        creadas.append(os.path.join(grupos[controlador], nombre))
                        os.mkdir(creadas[-1])
                memoria, tareas = creadas[0], creadas[1]
                _escribe(os.path.join(memoria, "memory.limit_in_bytes"), limites.MEMORIA_DE_LA_JAULA)
                if os.path.exists(os.path.join(memoria, "memory.memsw.limit_in_bytes")):
                    _escribe(os.path.join(memoria, "memory.memsw.limit_in_bytes"), limites.MEMORIA_DE_LA_JAULA)
                _escribe(os.path.join(tareas, "pids.max"), limites.TAREAS)
            elif "" in grupos:  # cgroup v2: un grupo de la raíz para todas las jaulas, y dentro uno por jaula
                raiz = _raiz_v2(grupos[""])
                if raiz is None:
                    return None
                creadas.append(os.path.join(raiz, nombre))
                os.mkdir(creadas[-1])
                _escribe(os.path.join(creadas[0], "memory.max"), limites.MEMORIA_DE_LA_JAULA)
                with contextlib.suppress(OSError):
                    _escribe(os.path.join(creadas[0], "memory.swap.max"), 0)
                _escribe(os.path.join(creadas[0], "pids.max"), limites.TAREAS)
            else:
                return None
        except OSError:
            cls(creadas).borrar()
            return None
        return cls(creadas)

    def entrar(self):
        """Los ficheros donde la jaula apunta su primer proceso (lo que arranca después va con él)."""
        return [os.path.join(c, "cgroup.procs") for c in self.carpetas]

    def tareas(self):
        """Los pids que quedan en el grupo."""
        pids = set()
        for carpeta in self.carpetas:
            with contextlib.suppress(OSError, ValueError):
                with open(os.path.join(carpeta, "cgroup.procs")) as f:
                    pids |= {int(p) for p in f.read().split()}
        return pids

    def memoria_maxima(self):
        """Lo más que ha gastado la jaula, en bytes (lo que mide el grupo), o None."""
        for nombre in ("memory.max_usage_in_bytes", "memory.peak"):
            for carpeta in self.carpetas:
                with contextlib.suppress(OSError, ValueError):
                    with open(os.path.join(carpeta, nombre)) as f:
                        return int(f.read())
        return None

    def borrar(self):
        """Mata lo que quede en el grupo (la jaula ya ha muerto o se está muriendo) y lo borra."""
        fin = time.monotonic() + 5
        while self.carpetas:
            for pid in self.tareas():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            for carpeta in list(self.carpetas):
                try:
                    os.rmdir(carpeta)
                except FileNotFoundError:
                    pass
                except OSError:
                    continue
                self.carpetas.remove(carpeta)
            if time.monotonic() > fin:
                _log.error("No se ha podido borrar el grupo de control %s: bórralo a mano (rmdir).",
                           ", ".join(self.carpetas))
                return False
            if self.carpetas:
                time.sleep(0.02)
        return True


def _barrer(grupos):
    """Borra los grupos vacíos de jaulas de procesos que ya no existen (murieron sin deshacerlos)."""
    padres = [g for c, g in grupos.items() if c in ("memory", "pids", "cpu")] or [_raiz_v2(grupos[""]) or ""]
    for padre in padres:
        with contextlib.suppress(OSError):
            for nombre in os.listdir(padre):
                partes = nombre.split("-")
                if nombre.startswith("curso-jaula-") and len(partes) == 4 and partes[2].isdigit() \
                        and not os.path.exists("/proc/" + partes[2]):
                    with contextlib.suppress(OSError):
                        os.rmdir(os.path.join(padre, nombre))  # si aún tiene procesos, no es vacío: se queda


def _raiz_v2(mio):
    """La carpeta de cgroup v2 donde van los grupos de las jaulas (con memoria y tareas), o None."""
    punto = mio
    while os.path.exists(os.path.join(os.path.dirname(punto), "cgroup.controllers")) and punto != "/":
        punto = os.path.dirname(punto)  # la raíz de la jerarquía (en un contenedor, la suya)
    raiz = os.path.join(punto, "curso-jaulas")
    try:
        with open(os.path.join(punto, "cgroup.controllers")) as f:
            if not {"memory", "pids"} <= set(f.read().split()):
                return None
        _escribe(os.path.join(punto, "cgroup.subtree_control"), "+memory +pids")
        os.makedirs(raiz, exist_ok=True)
        _escribe(os.path.join(raiz, "cgroup.subtree_control"), "+memory +pids")
        with contextlib.suppress(OSError):  # la CPU, repartida por jaulas y no por hilos, si se puede
            _escribe(os.path.join(punto, "cgroup.subtree_control"), "+cpu")
            _escribe(os.path.join(raiz, "cgroup.subtree_control"), "+cpu")
    except OSError:
        return None
    return raiz


# --------------------------------------------------------------------------- la jaula

BASE = "/dev/shm"  # donde se montan, fuera de bwrap pero ya en el espacio de montajes de la jaula, sus tmpfs


@functools.lru_cache(maxsize=None)
def _unshare():
    """La orden de `unshare` con la que en esta máquina se pueden montar los tmpfs de la jaula con sus topes.

    Como root, un espacio de montajes basta; sin serlo (o en un contenedor sin CAP_SYS_ADMIN), hace falta
    también uno de usuarios, y hay sistemas que no dejan crearlo a `unshare` (Ubuntu 24.04 solo se lo deja
    a bubblewrap). Sin ninguno, None: la jaula se monta igual, con los tmpfs de bubblewrap, que tienen tope
    de bytes pero no de ficheros, y se avisa.
    """
    prueba = "mount -t tmpfs -o size=4096,nr_inodes=4 curso-jaula %s" % BASE
    opciones = [["--mount", "--ipc"]] if os.geteuid() == 0 else []
    for propias in opciones + [["--user", "--map-root-user", "--mount", "--ipc"]]:
        orden = ["unshare", *propias, "--propagation", "private"]
        try:
            hecho = subprocess.run(orden + ["--", "sh", "-c", prueba], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
        except (OSError, subprocess.SubprocessError):
            continue
        if hecho.returncode == 0:
            return orden
    _log.warning("Esta máquina no deja a unshare crear los espacios en que se montan los tmpfs de la jaula con "
                 "tope de ficheros: /tmp y la carpeta del cuaderno solo tendrán tope de bytes (docs/amenazas.md).")
    return None


class Jaula:
    """Un proceso encerrado: `orden(argv)` es la orden que lo arranca y `cerrar()` deshace lo que queda.

    `legibles`: rutas (o pares (fuera, dentro)) que se ven de solo lectura, además de Python y harness.
    `en_memoria`: carpetas de la jaula que se le dan vacías y escribibles, en un tmpfs con tope de bytes
    y de ficheros: lo que escriba allí no toca el disco y se va con la jaula. /tmp es siempre una.
    `carpeta`: donde arranca.
    `callada`: lo que corre dentro no hereda la entrada ni las salidas (0, 1 y 2) de quien la arranca, sino
    /dev/null. Las del núcleo del cuaderno son las de nbgrader (la terminal del profesor, exports/procesos.txt):
    una entrega escribía allí lo que quería, caracteres de control incluidos. bubblewrap y los montajes de la
    jaula, que no son de la entrega, siguen escribiendo sus errores donde siempre.
    """

    def __init__(self, legibles=(), carpeta=None, en_memoria=(), callada=False):
        self.legibles, self.carpeta = list(legibles), carpeta
        self.en_memoria = [str(c) for c in en_memoria]
        self.callada = callada
        self.grupo = Grupo.nuevo()

    def orden(self, argv):
        tmpfs = [("tmp", limites.TMP, limites.FICHEROS_EN_TMP, "/tmp")]
        tmpfs += [("carpeta%d" % n, limites.CARPETA_DEL_NUCLEO, limites.FICHEROS_EN_LA_CARPETA, c)
                  for n, c in enumerate(self.en_memoria)]
        o = [bwrap(), "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
             "--die-with-parent", "--new-session", "--clearenv",
             # Un usuario sin privilegios y sin capacidades, en su propio espacio de usuarios, que no puede
             # crear otro: como root con capacidades, podría volver a montar con escritura lo de solo lectura.
             "--uid", "65534", "--gid", "65534", "--disable-userns", "--cap-drop", "ALL",
             "--proc", "/proc",
             # Un /dev mínimo y de solo lectura: sin /dev/shm (memoria sin tope) ni terminales.
             "--size", str(64 * limites.KIB), "--tmpfs", "/dev"]
        for dispositivo in ("null", "zero", "full", "random", "urandom"):
            o += ["--dev-bind", "/dev/" + dispositivo, "/dev/" + dispositivo]
        for nombre, fd in (("fd", ""), ("stdin", "/0"), ("stdout", "/1"), ("stderr", "/2")):
            o += ["--symlink", "/proc/self/fd" + fd, "/dev/" + nombre]
        o += ["--remount-ro", "/dev"]
        envoltorio = _unshare()
        if envoltorio is None:
            o.insert(1, "--unshare-ipc")

        def en_memoria(nombre, bytes_, dentro):
            if envoltorio:
                return ["--bind", "%s/%s" % (BASE, nombre), dentro]
            return ["--size", str(bytes_), "--tmpfs", dentro]

        # /tmp antes que Python: un entorno virtual dentro de /tmp se ve encima de él, no tapado.
        for nombre, bytes_, _, dentro in tmpfs:
            if dentro == "/tmp":
                o += en_memoria(nombre, bytes_, dentro)
        for ruta in _sistema():
            o += ["--ro-bind", ruta, ruta]
        for nombre, bytes_, _, dentro in tmpfs:
            if dentro != "/tmp":
                o += en_memoria(nombre, bytes_, dentro)
        for ruta in self.legibles:  # una ruta, o un par (ruta de fuera, ruta dentro)
            fuera, dentro = ruta if isinstance(ruta, tuple) else (ruta, ruta)
            o += ["--ro-bind", str(fuera), str(dentro)]
        for ruta in ocultos():
            o += ["--ro-bind", BASE + "/vacia", ruta] if envoltorio else ["--size", "4096", "--tmpfs", ruta,
                                                                         "--remount-ro", ruta]
        o += ["--setenv", "HOME", "/tmp", "--setenv", "PATH", os.path.dirname(sys.executable) + ":/usr/bin:/bin",
              "--setenv", "PYTHONDONTWRITEBYTECODE", "1", "--setenv", "LANG", "C.UTF-8",
              "--setenv", "PYTHONIOENCODING", "utf-8", "--setenv", "MPLBACKEND", "Agg"]
        if self.carpeta:
            o += ["--chdir", str(self.carpeta)]
        o += ["--remount-ro", "/"]
        # Dentro, el tope de tareas: cuenta las de esta jaula (su espacio de usuarios), no las del profesor.
        o += ["--"] + (["sh", "-c", 'exec "$@" </dev/null >/dev/null 2>&1', "callada"] if self.callada else [])
        o += ["prlimit", "--nproc=%d" % limites.TAREAS, "--"] + list(argv)
        # Los topes de cada proceso los pone prlimit antes de entrar: valen para todo lo que arranque la
        # jaula, y no hace falta preexec_fn, que no es seguro en un proceso con hilos (el servidor de Jupyter).
        prlimit = ["prlimit", "--as=%d" % limites.MEMORIA,
                   "--cpu=%d:%d" % (limites.CPU, limites.CPU + limites.CPU_DE_GRACIA),
                   "--fsize=%d" % limites.FICHEROS, "--core=0", "--nofile=%d" % limites.DESCRIPTORES, "--"]
        # unshare da a la jaula su espacio de montajes (y, sin ser root, un espacio de usuarios donde se
        # puede montar) y su espacio de IPC: ahí se montan los tmpfs con sus topes y se acota la memoria
        # compartida de System V antes de que entre nada del estudiante. Todo con el mismo pid (exec).
        if envoltorio is None:
            return ["sh", "-c", self._preparar([], envoltorio), "jaula"] + prlimit + o
        return envoltorio + ["--", "sh", "-c", self._preparar(tmpfs, envoltorio), "jaula"] + prlimit + o

    def _preparar(self, tmpfs, envoltorio):
        """El guion de sh que, ya en los espacios propios de la jaula, la mete en su grupo y monta sus tmpfs."""
        lineas = ["set -e"]
        for procs in self.grupo.entrar() if self.grupo else ():
            lineas.append("echo $$ > %s" % shlex.quote(procs))
        if envoltorio is None:
            return "\n".join(lineas + ['exec "$@"'])
        lineas.append("mount -t tmpfs -o size=%d,nr_inodes=%d,mode=0755,nosuid,nodev curso-jaula %s"
                      % (64 * limites.KIB, 4 + len(tmpfs), BASE))
        lineas.append("mkdir -m 0555 %s/vacia" % BASE)
        for nombre, bytes_, ficheros, _ in tmpfs:
            lineas.append("mkdir %s/%s" % (BASE, nombre))
            lineas.append("mount -t tmpfs -o size=%d,nr_inodes=%d,mode=1777,nosuid,nodev curso-jaula %s/%s"
                          % (bytes_, ficheros, BASE, nombre))
        # La memoria compartida de System V de su espacio de IPC: poca, y en pocos segmentos.
        for sysctl, valor in (("shmmax", limites.MEMORIA_COMPARTIDA), ("shmall", limites.MEMORIA_COMPARTIDA // 4096),
                              ("shmmni", 16), ("msgmnb", 65536), ("msgmni", 16)):
            lineas.append("echo %d > /proc/sys/kernel/%s" % (valor, sysctl))
        lineas.append('exec "$@"')
        return "\n".join(lineas)

    def cerrar(self):
        """Borra el grupo de control de la jaula (matando lo que quede en él). Lo demás se va con ella."""
        if self.grupo is not None:
            self.grupo.borrar()
            self.grupo = None


def borrar(ruta):
    """Borra `ruta` entera, también un árbol de carpetas tan hondo que shutil.rmtree no puede con él.

    `rm -rf` de coreutils recorre el árbol sin recursión y sin rutas largas (fts con openat). Lo que
    no se pueda borrar se dice en el registro: nunca queda nada en silencio.
    """
    if not os.path.lexists(ruta):
        return True
    subprocess.run(["rm", "-rf", "--one-file-system", "--", str(ruta)], stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    if os.path.lexists(ruta):
        _log.error("No se ha podido borrar %s: bórralo a mano.", ruta)
        return False
    return True
