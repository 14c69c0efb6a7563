"""Configuración común de pytest para tests/: los dos niveles de pruebas y los mundos caros compartidos.

Dos niveles, con la marca que les pone `pytest_collection_modifyitems`, nunca a mano:
- `rapido`: ni núcleos, ni nbgrader, ni la jaula, ni JupyterLab, ni Chromium; ningún proceso.
  `make test-rapido` (pytest -m rapido) los pasa en segundos.
- `lento`: la prueba pide, directamente o a través de otro fixture, el fixture `procesos`.
  Las lentas que miran el cuaderno de la lección ejecutado de arriba abajo (el fixture
  `leccion_ejecutada`) llevan además `cuaderno`.

Una prueba sin `procesos` que lanza un proceso (subprocess, fork, exec) falla al momento, con un
mensaje que dice qué pedir: ninguna prueba lenta cae en el nivel rápido sin que se vea.

`make test` pasa primero `rapido or cuaderno` (NIVEL_RAPIDO en el Makefile: un import roto o una celda
de la lección que ya no corre se ven en un minuto) y, solo si pasa, `lento and not cuaderno`
(NIVEL_LENTO). Cada prueba está en uno de los dos y en uno solo: test_niveles.py lo comprueba.
"""

import asyncio
import contextlib
import fcntl
import os
import re
import shutil
import sys
import warnings
from collections import defaultdict
from pathlib import Path

import pytest

# nbgrader lanza `alembic` por su nombre al crear el gradebook: el bin del entorno virtual va
# delante en PATH también cuando se llama a pytest sin `make test`.
os.environ["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])


# --------------------------------------------------------------------------- los dos niveles

def pytest_configure(config):
    config.addinivalue_line("markers", "rapido: sin procesos (núcleos, nbgrader, jaula, JupyterLab, Chromium); "
                                       "la pone conftest.py, no se escribe a mano")
    config.addinivalue_line("markers", "lento: pide el fixture `procesos`; la pone conftest.py, no se escribe a mano")
    config.addinivalue_line("markers", "cuaderno: lenta que pide `leccion_ejecutada` (va en el nivel rápido de make "
                                       "test); la pone conftest.py, no se escribe a mano")
    sys.addaudithook(_vigilar_procesos)


@pytest.fixture(scope="session")
def procesos():
    """La prueba lanza procesos (núcleos, nbgrader, la jaula, JupyterLab, Chromium...): es del nivel lento.

    Al acabar la sesión, lo que quede vivo de lo que ha lanzado esta sesión se mata (psutil) y se avisa:
    una prueba que deja procesos detrás no cuelga a las demás ni a CI.
    """
    yield
    import psutil

    restos = psutil.Process().children(recursive=True)
    for proceso in restos:
        with contextlib.suppress(psutil.Error):
            proceso.kill()
    psutil.wait_procs(restos, timeout=10)
    if restos:
        warnings.warn("quedaban %d procesos de las pruebas al acabar; se han matado" % len(restos))


# Los sucesos de auditoría (sys.audit) de Python que arrancan otro programa o duplican este.
_LANZAR = {"subprocess.Popen", "os.system", "os.posix_spawn", "os.spawn", "os.exec", "os.fork", "os.forkpty"}
_rapida = {"id": None, "lanzados": []}  # la prueba rápida que se está ejecutando y lo que ha intentado lanzar


def _vigilar_procesos(suceso, argumentos):
    if _rapida["id"] is None or suceso not in _LANZAR:
        return
    que = " ".join(map(str, argumentos[1])) if suceso == "subprocess.Popen" and argumentos[1] else suceso
    _rapida["lanzados"].append(que)
    # Falla en la prueba aunque esta capture Exception: Failed no lo es.
    pytest.fail(_mensaje_de_lento(_rapida["id"], que), pytrace=False)


def _mensaje_de_lento(prueba, que):
    return ("%s lanza un proceso (%s) sin pedir el fixture `procesos`: pídelo (o un fixture que lo pida), "
            "que esta prueba no es del nivel rápido." % (prueba, que[:200]))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    with _si_es_rapida(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    with _si_es_rapida(item):
        return (yield)


@contextlib.contextmanager
def _si_es_rapida(item):
    if item.get_closest_marker("rapido") is None:
        yield
        return
    _rapida.update(id=item.nodeid, lanzados=[])
    try:
        yield
    finally:
        lanzados, _rapida["id"] = _rapida["lanzados"], None
    if lanzados:  # también si la prueba se ha tragado el fallo
        pytest.fail(_mensaje_de_lento(item.nodeid, lanzados[0]), pytrace=False)


def pytest_collection_modifyitems(session, config, items):
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        item.add_marker("lento" if "procesos" in fixtures else "rapido")
        if "leccion_ejecutada" in fixtures:
            item.add_marker("cuaderno")
        if "navegador" in getattr(item, "fixturenames", ()) and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(TOPE_DE_NAVEGADOR))
    items[:] = _de_mas_lento_a_mas_rapido(config, items)


# --------------------------------------------------------------------------- el orden: lo más largo, antes

# Con varios procesos (make test: pytest-xdist, un fichero por proceso), el fichero que más tarda
# va primero, para que ninguno se quede solo al final (el Makefile pasa --no-loadscope-reorder: sin
# eso, pytest-xdist reparte los ficheros por número de pruebas, no en este orden). Lo que tardó cada
# fichero la última vez está en la caché de pytest; sin ella (un clon recién hecho, CI), cuentan los
# segundos de PRIMERO, medidos en una máquina de dos núcleos, y después los ficheros con pruebas lentas.
DURACIONES = "curso-harness/duraciones"  # con -m, una clave por expresión: lo que tarda esa parte de cada fichero
PRIMERO = {"tests/test_catalogo.py": 170, "tests/test_hub.py": 120, "tests/test_lite.py": 50,
           "tests/test_modelo_real.py": 45, "tests/test_empezar.py": 40}


def _clave_de_duraciones(config):
    expresion = config.getoption("markexpr", None)
    return DURACIONES + ("-" + re.sub(r"\W+", "-", expresion) if expresion else "")


def _de_mas_lento_a_mas_rapido(config, items):
    cache = getattr(config, "cache", None)
    # Sin lo de esta expresión, lo que tardaron los ficheros enteros: el orden de los largos se parece.
    duraciones = (cache.get(_clave_de_duraciones(config), None) or cache.get(DURACIONES, {})) if cache else {}
    por_fichero = defaultdict(list)
    for item in items:
        por_fichero[item.nodeid.split("::")[0]].append(item)

    def peso(fichero):
        lentas = sum(i.get_closest_marker("lento") is not None for i in por_fichero[fichero])
        return (-duraciones.get(fichero, PRIMERO.get(fichero, 0.0)), -bool(lentas))

    return [item for fichero in sorted(por_fichero, key=peso) for item in por_fichero[fichero]]


@pytest.hookimpl(optionalhook=True)  # `make test-rapido` corre sin pytest-xdist
def pytest_xdist_make_scheduler(config, log):
    """Con `--dist loadfile`, el reparto de UnFicheroCadaVez."""
    if config.getoption("dist", None) == "loadfile":
        return _un_fichero_cada_vez()(config, log)
    return None


def _un_fichero_cada_vez():
    """LoadFileScheduling de pytest-xdist, pero un proceso no recibe su fichero siguiente hasta que acaba el suyo.

    pytest-xdist le da el siguiente a un proceso en cuanto le quedan dos pruebas: a uno que empieza un
    fichero de dos pruebas le cae ya el que viene en la cola, aunque tarde un minuto y los otros procesos
    se queden sin nada antes. Así, cada fichero va al primer proceso que se queda libre, el más largo
    primero, y al final no queda uno solo trabajando mientras los demás esperan. Lo que se cambia es
    `_reschedule` (no hay ajuste público para esto), sujeto a su huella (HUELLAS, abajo); test_niveles.py
    comprueba que reparte así.
    """
    from xdist.scheduler import LoadFileScheduling

    class UnFicheroCadaVez(LoadFileScheduling):
        def _reschedule(self, node):
            # Con una prueba pendiente, el proceso ya está parado: no la ejecuta sin saber cuál es la
            # siguiente (pytest la necesita para el teardown de los fixtures).
            if not node.shutting_down and self.workqueue and self._pending_of(self.assigned_work[node]) > 1:
                return
            super()._reschedule(node)

    return UnFicheroCadaVez


# El código de pytest-xdist que sustituye y del que depende _un_fichero_cada_vez, por su huella (sha256):
# tests/test_ajustes.py falla si cambia, como con los de course/ajustes.py.
HUELLAS = {
    "xdist.scheduler.loadscope.LoadScopeScheduling._reschedule":
        "c3f0d6ceabea3ea0d693f23c0d8fa713e6082986c5cfa25ec514cb1218c2799f",
    "xdist.scheduler.loadscope.LoadScopeScheduling._pending_of":
        "cb612b2a2dbea0aab22a70c63393184c88d29207352ee7fdfed1c25e47f9b627",
}


_tardado = defaultdict(float)


def pytest_runtest_logreport(report):
    _tardado[report.nodeid.split("::")[0]] += report.duration


def pytest_sessionfinish(session):
    # Solo la escribe el proceso principal (con pytest-xdist le llegan los informes de todos), y solo
    # si se han pasado los ficheros enteros o una parte con nombre (-m, los niveles de make test), cada
    # cosa con su clave: lo que tarda la parte rápida de un fichero no es lo que tarda el fichero. Con
    # -k, o con ficheros sueltos, la parte no tiene nombre y no se apunta.
    if hasattr(session.config, "workerinput") or not getattr(session.config, "cache", None) or not _tardado:
        return
    if session.config.getoption("keyword"):
        return
    clave = _clave_de_duraciones(session.config)
    duraciones = session.config.cache.get(clave, {})
    duraciones.update(_tardado)
    session.config.cache.set(clave, duraciones)


# --------------------------------------------------------------------------- el curso con la tarea generada

def _carpeta_compartida(tmp_path_factory):
    """La carpeta temporal de esta ejecución, la misma para todos sus procesos de pytest-xdist."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def publicado(procesos, tmp_path_factory):
    """`copiar(destino, modo=MODO)`: un curso con la tarea ya generada en `destino` (release/ y gradebook).

    `nbgrader generate_assignment` se ejecuta una sola vez por modo del cuestionario en toda la
    ejecución (también con varios procesos de pytest-xdist); cada prueba se lleva una copia.
    """
    from cursos import MODO, publicar

    compartida = _carpeta_compartida(tmp_path_factory)

    def copiar(destino, modo=MODO):
        plantilla = compartida / ("publicado-" + modo)
        with open(compartida / ("publicado-%s.cerrojo" % modo), "w") as cerrojo:
            fcntl.flock(cerrojo, fcntl.LOCK_EX)
            if not (plantilla / "gradebook.db").exists():
                shutil.rmtree(plantilla, ignore_errors=True)
                publicar(plantilla, modo)
        shutil.copytree(plantilla, destino, dirs_exist_ok=True)
        return Path(destino)

    return copiar


# --------------------------------------------------------------------------- el cuaderno de la lección, ejecutado

@pytest.fixture(scope="session")
def leccion_ejecutada(procesos, tmp_path_factory):
    """{"fuente": …, "release": …}: el cuaderno de la lección ejecutado de arriba abajo, cada uno en un núcleo
    de verdad y los dos a la vez: el de source/ con sus soluciones (sin errores, o la prueba falla aquí) y el
    de release/ como lo abre un estudiante (con los errores que tenga, que las pruebas miran).

    Es lo que pasa primero `make test`, con las pruebas rápidas (la marca `cuaderno`).
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.util import run_sync

    from course import CUADERNO, RAIZ, TAREA
    from nucleos import NucleoPorFicheros

    cuadernos = {nivel: nbformat.read(RAIZ / nivel / TAREA / CUADERNO, as_version=4) for nivel in ("source", "release")}

    async def ejecutar(nivel):
        carpeta = tmp_path_factory.mktemp(nivel)
        await NotebookClient(cuadernos[nivel], kernel_manager_class=NucleoPorFicheros, timeout=120,
                             kernel_name="python3", allow_errors=nivel == "release",
                             resources={"metadata": {"path": str(carpeta)}}).async_execute()

    async def los_dos():
        await asyncio.gather(ejecutar("source"), ejecutar("release"))

    run_sync(los_dos)()
    return {"fuente": cuadernos["source"], "release": cuadernos["release"]}


# --------------------------------------------------------------------------- el navegador

# Lo que puede durar una prueba de navegador, con lo que monte (curso, servidor); pasado, pytest-timeout
# la para y falla (no se cuelga). Un módulo que necesita más pone su propia marca timeout.
TOPE_DE_NAVEGADOR = 600


# Guarda el informe de cada fase en el item (item.informe_setup/call/teardown), para que los
# fixtures sepan en su teardown si la prueba ha fallado y guarden capturas en tests/artefactos/.
@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    informe = yield
    setattr(item, "informe_" + informe.when, informe)
    return informe


# Chromium de Debian para las pruebas de navegador (navegador.py dice cómo se asegura).
@pytest.fixture(scope="module")
def chromium(procesos):
    import navegador as nv

    nv.asegurar_playwright()
    nv.asegurar_chromium()
    return nv.CHROMIUM


@pytest.fixture(scope="module")
def argumentos_de_chromium():
    """Los argumentos con que arranca Chromium; un módulo que necesita otros redefine este fixture."""
    import navegador as nv

    return nv.ARGUMENTOS_CHROMIUM


@pytest.fixture(scope="module")
def navegador(chromium, argumentos_de_chromium):
    """Un Chromium por módulo, manejado con Playwright.

    Por módulo y no por sesión: mientras Playwright (su API síncrona) está en marcha, el bucle de
    asyncio del hilo consta como en marcha, y las pruebas de otros módulos (nbclient, nbgrader)
    usan asyncio en ese mismo hilo.
    """
    import navegador as nv
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium_ = p.chromium.launch(executable_path=chromium, args=argumentos_de_chromium, headless=True,
                                      timeout=nv.ESPERA_UI * 1000)
        try:
            yield chromium_
        finally:
            chromium_.close()


@pytest.fixture
def opciones_de_pagina():
    """Opciones del contexto de Playwright de `pagina`; un módulo que necesita otras redefine este fixture."""
    return {}


@pytest.fixture
def pagina(navegador, opciones_de_pagina, request):
    """Una pestaña en un contexto nuevo; si la prueba falla, captura, consola del navegador y registro del
    servidor (si la prueba tiene el fixture `servidor`) en tests/artefactos/."""
    import navegador as nv

    contexto = navegador.new_context(**{"viewport": {"width": 1400, "height": 1000}, "locale": "es-ES",
                                        **opciones_de_pagina})
    pg = contexto.new_page()
    pg.set_default_timeout(nv.ESPERA_UI * 1000)
    consola = []
    pg.on("console", lambda m: consola.append(f"[{m.type}] {m.text}"))
    pg.on("pageerror", lambda e: consola.append(f"[pageerror] {e}"))
    yield pg
    informe = getattr(request.node, "informe_call", None)
    if informe is None or informe.failed:
        servidor = request.getfixturevalue("servidor") if "servidor" in request.fixturenames else None
        print("artefactos de la prueba fallida:", *nv.guardar_artefactos(request.node.nodeid, pg, consola, servidor),
              sep="\n  ")
    with contextlib.suppress(Exception):
        contexto.close()
