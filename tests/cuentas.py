"""Usuarios del sistema de verdad para las pruebas del hub y del intercambio (necesitan root).

Las dos pruebas (test_hub.py, test_intercambio.py) comparten el entorno de Python del hub, que tarda
minutos en hacerse y se guarda entre ejecuciones en DESTINO: las dos lo usan con el mismo cerrojo,
y cada una tiene sus propios usuarios, con nombres que solo usa ella y que borra al acabar.
"""

import contextlib
import fcntl
import os
import pwd
import signal
import subprocess
import tempfile
import time
from pathlib import Path

DESTINO = Path(tempfile.gettempdir()) / "curso-harness-hub-pruebas"


@contextlib.contextmanager
def cerrojo():
    """El hub de pruebas para uno solo: dos ejecuciones a la vez compartirían el entorno, usuarios y carpetas."""
    DESTINO.mkdir(exist_ok=True)
    DESTINO.chmod(0o755)
    with open(DESTINO / ".cerrojo", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def borrar(*nombres):
    """Borra los usuarios `nombres` que existan (sus casas, no: son carpetas de la prueba). Lo que quede en
    marcha con esos usuarios (solo los lanza la prueba) se mata antes, proceso a proceso: si no, userdel no
    los borra."""
    for nombre in nombres:
        try:
            uid = pwd.getpwnam(nombre).pw_uid
        except KeyError:
            continue
        for intento in range(10):
            vivos = [int(p) for p in os.listdir("/proc") if p.isdigit() and _uid(p) == uid]
            if not vivos:
                break
            for pid in vivos:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM if intento < 5 else signal.SIGKILL)
            time.sleep(0.5)
        hecho = subprocess.run(["userdel", nombre], capture_output=True, text=True, check=False)
        assert hecho.returncode == 0, f"userdel {nombre}: {hecho.stderr}"


def _uid(pid):
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None


def como(usuario, orden, entorno, cwd=None, entrada=None):
    """Ejecuta `orden` como el usuario del sistema `usuario`, con el Python del entorno `entorno` en el PATH,
    en su casa (o en `cwd`), sin nada de root: ni grupos, ni variables."""
    u = pwd.getpwnam(usuario)
    variables = {"HOME": u.pw_dir, "USER": usuario, "LOGNAME": usuario, "LANG": "C.UTF-8",
                 "PATH": f"{Path(entorno) / 'bin'}:/usr/local/bin:/usr/bin:/bin"}
    return subprocess.run([str(o) for o in orden], user=u.pw_uid, group=u.pw_gid, extra_groups=[], env=variables,
                          cwd=cwd or u.pw_dir, input=entrada, capture_output=True, text=True, check=False)
