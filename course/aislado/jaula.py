"""La orden que encierra un proceso con bubblewrap: solo ve Python, harness y lo que se le deje."""

import os
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import harness
from course import limites


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


def orden(argv, escribibles=(), legibles=(), carpeta=None, en_memoria=None):
    """`argv` dentro de la jaula: sin red, con /tmp propio, viendo solo `escribibles` y `legibles` además de Python.

    `en_memoria` es una carpeta de la jaula que se le da vacía y escribible, pero en un tmpfs con
    tope (como /tmp): lo que escriba allí no toca el disco y se va con la jaula.
    """
    # Los límites los pone prlimit antes de entrar: así valen para todo lo que arranque la jaula,
    # y no hace falta preexec_fn, que no es seguro en un proceso con hilos (el servidor de Jupyter).
    o = ["prlimit", "--as=%d" % limites.MEMORIA, "--cpu=%d:%d" % (limites.CPU, limites.CPU + limites.CPU_DE_GRACIA),
         "--fsize=%d" % limites.FICHEROS, "--core=0",
         "--", bwrap(), "--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
         # Un usuario sin privilegios y sin capacidades, en su propio espacio de usuarios, que no puede
         # crear otro: como root con capacidades, podría volver a montar con escritura lo de solo lectura.
         "--unshare-user", "--uid", "65534", "--gid", "65534", "--disable-userns", "--cap-drop", "ALL",
         "--proc", "/proc", "--dev", "/dev",
         # /tmp es memoria (tmpfs), fuera del tope de memoria de los procesos: lleva su propio tope.
         "--size", str(limites.TMP), "--tmpfs", "/tmp"]
    for ruta in _sistema():
        o += ["--ro-bind", ruta, ruta]
    if en_memoria:
        o += ["--size", str(limites.CARPETA_DEL_NUCLEO), "--tmpfs", str(en_memoria)]
    for ruta in legibles:  # una ruta, o un par (ruta de fuera, ruta dentro)
        fuera, dentro = ruta if isinstance(ruta, tuple) else (ruta, ruta)
        o += ["--ro-bind", str(fuera), str(dentro)]
    for ruta in escribibles:  # también una ruta, o un par (ruta de fuera, ruta dentro)
        fuera, dentro = ruta if isinstance(ruta, tuple) else (ruta, ruta)
        o += ["--bind", str(fuera), str(dentro)]
    # Si el paquete del curso estuviera instalado dentro de site-packages, que no se vea.
    import course
    curso = str(Path(course.__file__).resolve().parent)
    if any(curso.startswith(r.rstrip("/") + "/") for r in _sistema()):
        o += ["--tmpfs", curso]
    o += ["--setenv", "HOME", "/tmp", "--setenv", "PATH", os.path.dirname(sys.executable) + ":/usr/bin:/bin",
          "--setenv", "PYTHONDONTWRITEBYTECODE", "1", "--setenv", "LANG", "C.UTF-8",
          "--setenv", "PYTHONIOENCODING", "utf-8", "--setenv", "MPLBACKEND", "Agg"]
    if carpeta:
        o += ["--chdir", str(carpeta)]
    return o + ["--"] + list(argv)


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
        logging.getLogger(__name__).error("No se ha podido borrar %s: bórralo a mano.", ruta)
        return False
    return True
