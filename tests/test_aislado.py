"""La jaula y el corrector de confianza, con bubblewrap de verdad (sin nbgrader: eso está en test_trampas)."""

import contextlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from course import calificacion, limites
from course.aislado import jaula, protocolo
from course.aislado.cliente import CodigoAislado, en_segundos
from course.aislado.protocolo import Opaco
from course.calificacion import COMPROBACIONES, Suspenso, comprobar
from harness import ENTORNO, llamada
from harness.revision import NoCumple, probar
from harness.revision.vigilancia import Agotado

from course import RAIZ
from course.entregas import leer_ejemplo

# Casi todas corren código en su jaula: procesos de bubblewrap (conftest.py: del nivel lento).
pytestmark = pytest.mark.usefixtures("procesos")

BUENA = (Path(__file__).parent / "catalogo" / "correcto_try_except.py").read_text(encoding="utf-8")


def _suspensos(codigo, **opciones):
    """{comprobación: mensaje} de las que no pasa `codigo`, corregido en su jaula (`opciones`: las de CodigoAislado)."""
    fallos = {}
    with CodigoAislado(codigo, **opciones) as aislado:
        aislado.cargar()
        for nombre in COMPROBACIONES:
            try:
                comprobar(nombre, aislado)
            except Suspenso as s:
                fallos[nombre] = str(s)
    return fallos


@pytest.mark.parametrize("valor", [
    {"type": "tool_result", "tool_use_id": "t1", "content": "", "is_error": True},
    [1, (2, 3.5), {"a", "b"}, None, False], ("x",), {1: [True]},
])
def test_los_datos_cruzan_con_sus_tipos(valor):
    assert protocolo.decodificar(protocolo.codificar(valor)) == valor
    assert type(protocolo.decodificar(protocolo.codificar(valor))) is type(valor)


def test_una_respuesta_buena_pasa_todas_las_comprobaciones_en_la_jaula(capsys):
    assert _suspensos(BUENA) == {}
    assert capsys.readouterr().out.count("✔") == len(COMPROBACIONES)


def test_lo_que_imprime_el_estudiante_no_ensucia_el_canal():
    assert _suspensos("print('hola')\nimport sys\nprint('adiós', file=sys.stderr)\n" + BUENA) == {}


def test_un_objeto_igual_a_todo_llega_opaco_y_no_es_igual_a_nada():
    codigo = "class Todo(dict):\n    __eq__ = lambda s, o: True\n\ndef ejecutar(llamada, entorno):\n    return Todo()\n"
    with CodigoAislado(codigo) as aislado:
        obs = aislado.ejecutar(llamada("t1", "leer", ruta="lista.txt"), dict(ENTORNO))
    assert isinstance(obs, Opaco) and obs != obs.__class__("Todo", "")
    assert set(_suspensos(codigo)) == set(COMPROBACIONES)


def test_la_jaula_no_ve_el_curso_ni_tiene_red():
    # El intercambio de nbgrader del entorno (course/entorno.py lo pone en share/nbgrader), con las entregas de
    # todos en inbound/: se ve la carpeta, vacía.
    intercambio = Path(sys.prefix, "share", "nbgrader")
    intercambio.joinpath("intercambio").mkdir(parents=True, exist_ok=True)
    codigo = f'''
import os, socket
vistos = [p for p in ({str(RAIZ / "source")!r}, {str(RAIZ / "course")!r}, {str(RAIZ / "nbgrader_config.py")!r}) if os.path.exists(p)]
vistos += os.listdir({str(intercambio)!r})
try:
    socket.create_connection(("127.0.0.1", 22), timeout=1)
    red = "hay red"
except OSError:
    red = "sin red"
resultado_de_la_jaula = (vistos, red)
'''
    with CodigoAislado("") as aislado:
        assert aislado.valor(codigo, "resultado_de_la_jaula") == ([], "sin red")


def test_escribir_en_la_jaula_no_toca_nada_de_fuera(tmp_path):
    fichero = tmp_path / "nota.txt"
    codigo = f"try:\n    open({str(fichero)!r}, 'w').write('x')\n    hecho = 'escrito'\nexcept OSError as e:\n    hecho = 'no'\n"
    with CodigoAislado("") as aislado:
        aislado.valor(codigo, "hecho")
    assert not fichero.exists()


@pytest.mark.parametrize("codigo, palabras", [
    ("def ejecutar(llamada, entorno)\n    pass\n", ["SyntaxError"]),
    ("import os\nos._exit(3)\n", ["terminado de golpe"]),
    ("x = ' ' * (8 * 1024 ** 3)\n", ["MemoryError"]),
    ("while True:\n    pass\n", ["no termina"]),
])
def test_una_respuesta_que_no_carga_suspende_con_su_motivo(codigo, palabras):
    fallos = _suspensos(codigo)
    assert set(fallos) == set(COMPROBACIONES)
    for palabra in palabras:
        assert palabra in fallos["salmorejo"], fallos["salmorejo"]


def test_un_bucle_sin_fin_suspende_por_tiempo_y_la_jaula_se_recupera():
    x1 = calificacion.casos()["excepciones"][0][0]["id"]  # una llamada que solo está en esa comprobación
    codigo = BUENA + '''
_ejecutar_bien = ejecutar
def ejecutar(llamada, entorno):
    if llamada["id"] == %r:
        while True:
            pass
    return _ejecutar_bien(llamada, entorno)
''' % x1
    fallos = _suspensos(codigo)
    assert set(fallos) == {"excepciones"}
    assert "no ha terminado en %s con la llamada %s" % (en_segundos(limites.LLAMADA), x1) in fallos["excepciones"]


def test_una_respuesta_que_no_acaba_ni_en_lo_basico_se_paga_una_sola_vez():
    # La de Elena (course/ejemplos): repite la llamada mientras falle; con una que falla siempre, no acaba.
    # Ya no acaba con las llamadas básicas, así que suspende todo con un solo motivo, medido una vez.
    codigo = leer_ejemplo(RAIZ / "course" / "ejemplos" / "elena.toml")["respuestas"]["ejecutar"]
    fallos = _suspensos(codigo)
    assert set(fallos) == set(COMPROBACIONES), fallos
    # El motivo, una vez, en la primera; las demás remiten a ella.
    assert "no ha terminado en %s" % en_segundos(limites.LLAMADA) in fallos[COMPROBACIONES[0]], fallos
    for nombre, motivo in fallos.items():
        if nombre != COMPROBACIONES[0]:
            assert "El motivo, en la prueba ejecutar-%s" % COMPROBACIONES[0] in motivo, motivo


def test_cada_llamada_tiene_su_segundo_entero_aunque_otra_se_haya_cortado():
    # Un solo tope por llamada, el que dice la lección: una llamada que se corta no acorta las siguientes.
    codigo = BUENA + '''
_ejecutar_bien = ejecutar
def ejecutar(llamada, entorno):
    while llamada["name"] == "escribir":
        pass
    return _ejecutar_bien(llamada, entorno)
'''
    with CodigoAislado(codigo) as aislado:
        for n in range(3):
            with pytest.raises(Agotado) as agotado:
                aislado.ejecutar(llamada("e%d" % n, "escribir", ruta="a.txt", contenido="b"), dict(ENTORNO))
            assert agotado.value.segundos == limites.LLAMADA
        obs = aislado.ejecutar(llamada("l1", "leer", ruta="lista.txt"), dict(ENTORNO))
    assert obs["content"] == ENTORNO["lista.txt"]


def test_las_comprobaciones_de_una_entrega_tienen_un_tiempo_para_todas():
    # Cada llamada tarda menos que su tope, pero todas juntas no caben en el tiempo de la entrega.
    codigo = "import time\n" + BUENA + '''
_ejecutar_bien = ejecutar
def ejecutar(llamada, entorno):
    time.sleep(0.4)
    return _ejecutar_bien(llamada, entorno)
'''
    fallos = _suspensos(codigo, tiempo=2)
    assert set(fallos) == set(COMPROBACIONES), fallos
    # Lo que ha pasado se dice una vez, en la primera; las demás remiten a ella. Ninguna se achaca a una
    # equivocación: no ha habido tiempo de probarlas.
    primera = COMPROBACIONES[0]
    assert "Se ha acabado el tiempo de las comprobaciones de tu entrega (2 segundos" in fallos[primera], fallos
    for nombre in COMPROBACIONES:
        assert "Equivocación" not in fallos[nombre], fallos
        if nombre != primera:
            assert "Se ha acabado el tiempo" not in fallos[nombre], fallos
            assert "El motivo, en la prueba ejecutar-%s" % primera in fallos[nombre], fallos


def test_una_llamada_cortada_porque_se_acaba_el_tiempo_de_la_entrega_no_es_una_equivocacion():
    # Llamadas cortas mientras la entrega tiene tiempo; la que empieza con menos de un segundo por delante
    # tarda más de lo que le queda (no más que el tope de una llamada si lo tuviera entero, pero eso da
    # igual): se corta en lo que le quedaba a la entrega, y eso no dice que esta llamada no acabe.
    codigo = "import time\n_inicio = time.monotonic()\n" + BUENA + '''
_ejecutar_bien = ejecutar
def ejecutar(llamada, entorno):
    time.sleep(0.3 if time.monotonic() - _inicio < 0.8 else 5)
    return _ejecutar_bien(llamada, entorno)
'''
    with CodigoAislado(codigo, tiempo=1.5) as aislado:
        aislado.cargar()
        todos = calificacion.veredictos(aislado)  # también los de las cláusulas que no son una celda
    sin_tiempo = {n: v for n, v in todos.items() if not v.puntua}
    assert set(COMPROBACIONES) <= set(sin_tiempo), todos
    # Dicho una vez, como lo que explica todas (su `por`): sin equivocación, y «a medias», no «no ha terminado».
    comun = todos["tiempo"].texto
    assert "Se ha acabado el tiempo de las comprobaciones de tu entrega (1,5 segundos" in comun, comun
    assert "y esta se ha cortado a medias" in comun and "no ha terminado" not in comun, comun
    for nombre, v in sin_tiempo.items():
        assert not v.diagnosticos and "Equivocación" not in v.texto, v.texto
        assert v.por in ("tiempo", "contesta") or nombre == "tiempo", (nombre, v)


@contextlib.contextmanager
def _una_cpu_disputada(rivales=4):
    """Este proceso, y lo que arranque, en una sola CPU que le disputan `rivales` bucles sin fin."""
    antes = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(antes)})
    # Cada uno en su sesión, como la jaula: con los grupos automáticos de Linux, la CPU se reparte por sesiones.
    bucles = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
              for _ in range(rivales)]
    try:
        yield
    finally:
        for bucle in bucles:
            bucle.kill()
            bucle.wait()
        os.sched_setaffinity(0, antes)


def _llamada_medida(aislado):
    """(lo que devuelve, o el NoCumple con que no pasa, y los segundos de reloj) de una llamada, como la prueban
    las comprobaciones (harness.revision.probar, con la alarma de respaldo del corrector)."""
    inicio = time.monotonic()
    try:
        return (probar(aislado.ejecutar, llamada("c1", "leer", ruta="lista.txt"), dict(ENTORNO), aislado.respaldo),
                time.monotonic() - inicio)
    except NoCumple as s:
        return s, time.monotonic() - inicio


def test_con_la_maquina_cargada_la_espera_por_la_cpu_no_se_cobra():
    # Cada llamada gasta 0,3 s de CPU: con cinco procesos en una CPU, le llevan más de un segundo de reloj.
    gasta = ("import time\ndef ejecutar(llamada, entorno):\n    fin = time.process_time() + 0.3\n"
             "    while time.process_time() < fin:\n        pass\n    return 'hecho'\n")
    sin_fin = "def ejecutar(llamada, entorno):\n    while True:\n        pass\n"
    duerme = "import time\ndef ejecutar(llamada, entorno):\n    time.sleep(60)\n"
    with _una_cpu_disputada():
        with CodigoAislado(gasta) as aislado:
            assert aislado.cargar() is None
            devuelto, reloj = _llamada_medida(aislado)
        # Sin descontar la espera, habría suspendido («no ha terminado en 1 segundo»).
        assert devuelto == "hecho" and reloj > limites.LLAMADA, (devuelto, reloj)
        # Lo que no acaba se corta igual: el bucle, cuando ha corrido su segundo o, como mucho, al tope de reloj;
        # lo que duerme no espera a la CPU, y se corta sin alargar nada.
        for codigo in (sin_fin, duerme):
            with CodigoAislado(codigo) as aislado:
                assert aislado.cargar() is None
                suspenso, reloj = _llamada_medida(aislado)
            assert isinstance(suspenso, NoCumple) and "no ha terminado en 1 segundo" in str(suspenso), suspenso
            assert reloj < limites.LLAMADA * limites.ALARGUE_POR_CARGA + 1, reloj
            if codigo is duerme:
                assert reloj < limites.LLAMADA * limites.ALARGUE_POR_CARGA / 2, reloj


def test_las_operaciones_del_entorno_las_cuenta_el_corrector():
    class Contado(dict):
        usos = 0

        def __contains__(self, clave):
            Contado.usos += 1
            return super().__contains__(clave)

    entorno = Contado(ENTORNO)
    with CodigoAislado(BUENA) as aislado:
        obs = aislado.ejecutar(llamada("t1", "leer", ruta="lista.txt"), entorno)
        aislado.ejecutar(llamada("t2", "escribir", ruta="nueva.txt", contenido="hola"), entorno)
    assert obs["content"] == ENTORNO["lista.txt"] and obs["is_error"] is False
    assert Contado.usos == 1 and entorno["nueva.txt"] == "hola"


def _ocupado(segundos):
    """Trabaja `segundos` de reloj sin dormir: el hilo está todo ese rato corriendo o esperando la CPU, con la
    máquina cargada o sin carga."""
    fin = time.monotonic() + segundos
    while time.monotonic() < fin:
        pass


def test_lo_que_trabaja_el_corrector_no_se_cobra_a_la_respuesta():
    # El entorno tarda 1,2 s de reloj del corrector en contestar (trabajando, como una pasada larga de su
    # recolector de basura): más que el segundo de la llamada, que cobrándoselo no terminaría. Como el hilo del
    # corrector no duerme, todo ese rato es suyo (corre o espera la CPU) haya la carga que haya: la llamada,
    # honesta, pasa siempre, sin depender de cuánto vaya cargada la máquina.
    class Lento(dict):
        def __contains__(self, clave):
            _ocupado(1.2)
            return super().__contains__(clave)

    with CodigoAislado(BUENA) as aislado:
        obs = aislado.ejecutar(llamada("t1", "leer", ruta="lista.txt"), Lento(ENTORNO))
    assert obs["content"] == ENTORNO["lista.txt"] and obs["is_error"] is False
    # Una respuesta que hace trabajar al corrector sin parar se corta igual: su parte de cada vuelta se
    # cobra, y el plazo no pasa de su tope de reloj.
    pregunta_sin_fin = "def ejecutar(llamada, entorno):\n    while True:\n        'lista.txt' in entorno\n"
    with CodigoAislado(pregunta_sin_fin) as aislado:
        assert aislado.cargar() is None
        suspenso, reloj = _llamada_medida(aislado)
    assert isinstance(suspenso, NoCumple) and "no ha terminado en 1 segundo" in str(suspenso), suspenso
    assert reloj < limites.LLAMADA * limites.ALARGUE_POR_CARGA + 1, reloj


def test_el_cuestionario_se_lee_como_datos():
    with CodigoAislado("") as aislado:
        assert aislado.valor('respuesta_4 = {"a", "d"}', "respuesta_4") == {"a", "d"}
        with pytest.raises(Suspenso, match="no define respuesta_1"):
            aislado.valor("x = 1", "respuesta_1")


def test_en_la_jaula_no_hay_privilegios_para_volver_a_montar_nada():
    codigo = f"""
import ctypes, os
capacidades = open("/proc/self/status").read().split("CapEff:")[1].split()[0]
ctypes.CDLL(None).mount(None, {str(RAIZ / "harness")!r}.encode(), None, 32 | 4096, None)
try:
    open({str(RAIZ / "harness" / "zz_trampa.py")!r}, "w").write("x")
    escrito = True
except OSError:
    escrito = False
resultado_de_la_jaula = (os.getuid(), capacidades, escrito)
"""
    with CodigoAislado("") as aislado:
        assert aislado.valor(codigo, "resultado_de_la_jaula") == (65534, "0000000000000000", False)
    assert not (RAIZ / "harness" / "zz_trampa.py").exists()


def test_media_linea_en_el_canal_no_cuelga_al_corrector():
    # La trampa del catálogo: escribe «{» en la tubería del corrector y se queda esperando.
    codigo = (Path(__file__).parent / "trampas" / "canal_a_medias.py").read_text(encoding="utf-8")
    with CodigoAislado(codigo) as aislado:
        assert "no termina" in aislado.cargar()


@pytest.mark.parametrize("trampa", ["canal_sin_leer", "datos_envenenados"])
def test_un_canal_que_no_lee_o_manda_venenos_suspende_sin_colgar_al_corrector(trampa):
    # canal_sin_leer pide al corrector un texto enorme y no lo lee: escribir tiene plazo.
    # datos_envenenados contesta con datos anidados sin fin, claves imposibles o millones de piezas.
    codigo = (Path(__file__).parent / "trampas" / (trampa + ".py")).read_text(encoding="utf-8")
    fallos = _suspensos(codigo)
    assert set(fallos) == set(COMPROBACIONES)
    motivo = fallos[COMPROBACIONES[0]]  # dicho una vez, en la primera: las demás remiten a ella
    assert "no ha terminado" in motivo or "no se entiende" in motivo or "piezas" in motivo, fallos
    assert all("El motivo, en la prueba ejecutar-%s" % COMPROBACIONES[0] in m for m in list(fallos.values())[1:]), fallos


def test_una_respuesta_demasiado_grande_no_se_manda_a_la_jaula():
    with CodigoAislado(BUENA + "\n# " + "x" * (limites.CODIGO_RESPUESTA + 1) + "\n") as aislado:
        assert "ocupa más de" in aislado.cargar()


def test_un_arbol_de_carpetas_sin_fondo_se_borra_entero(tmp_path):
    # Más hondo que PATH_MAX: shutil.rmtree no puede con él y, con ignore_errors, lo dejaba en silencio.
    raiz = tmp_path / "privada"
    raiz.mkdir()
    fd = os.open(raiz, os.O_RDONLY)
    try:
        for _ in range(3000):
            os.mkdir("d", dir_fd=fd)
            nuevo = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = nuevo
    finally:
        os.close(fd)
    assert jaula.borrar(raiz) and not raiz.exists()


def test_la_jaula_tiene_un_tmp_con_tope():
    codigo = """
import os
escrito = 0
try:
    for n in range(200):  # ficheros de 1 MiB: el tope de tamaño de un fichero no es el que se mide
        with open("/tmp/relleno-%d" % n, "wb") as f:
            f.write(b"x" * 1024 ** 2)
        escrito += 1
except OSError:
    pass
"""
    with CodigoAislado("") as aislado:
        assert 10 < aislado.valor(codigo, "escrito") <= limites.TMP // limites.MIB


# Lo que la jaula no ve, se haya instalado el curso como se haya instalado

_BUSCAR_EL_CURSO = r'''
import json, os, sys
vistos = []
for raiz in {sys.prefix, sys.base_prefix, os.path.realpath(sys.base_prefix)}:
    for carpeta, subcarpetas, ficheros in os.walk(raiz):
        for f in ficheros:
            ruta = os.path.join(carpeta, f)
            if "/course/" in ruta or "curso_harness" in ruta or f == "calificacion.py":
                vistos.append(ruta)
try:
    import course.calificacion
    vistos.append("import course.calificacion")
except ImportError:
    pass
print(json.dumps(vistos))
'''


def test_con_el_curso_instalado_sin_editable_la_jaula_no_ve_course(tmp_path):
    # Un `pip install .` de verdad (no editable) en un entorno virtual nuevo: course/ acaba en su site-packages,
    # que la jaula monta entero. Se prueba con el curso tomado de ahí y con el de la carpeta del curso delante
    # (como hace nbgrader_config.py), con la copia instalada detrás.
    fuente = tmp_path / "fuente"
    fuente.mkdir()
    for nombre in ("pyproject.toml", "README.md"):
        shutil.copy(RAIZ / nombre, fuente)
    for nombre in ("course", "harness"):
        shutil.copytree(RAIZ / nombre, fuente / nombre, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    ruedas, entorno = tmp_path / "ruedas", tmp_path / "entorno"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", ruedas,
                    fuente], check=True, capture_output=True, cwd=fuente)
    subprocess.run([sys.executable, "-m", "venv", entorno], check=True, capture_output=True)
    python = entorno / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", *ruedas.glob("*.whl")],
                   check=True, capture_output=True)
    instalado = subprocess.run([python, "-c", "import course; print(course.__file__)"], capture_output=True, text=True,
                               cwd=tmp_path, check=True).stdout
    assert str(entorno) in instalado  # de verdad en su site-packages
    lanzar = ("import subprocess, sys\n%s"
              "from course.aislado import jaula\n"
              "j = jaula.Jaula(carpeta='/tmp')\n"
              "try:\n"
              "    r = subprocess.run(j.orden([sys.executable, '-c', %r]), capture_output=True, text=True)\n"
              "finally:\n"
              "    j.cerrar()\n"
              "print(r.stdout, end='')\n"
              "print(r.stderr, end='', file=sys.stderr)\n")
    for delante in ("", "sys.path.insert(0, %r)\n" % str(RAIZ)):
        hecho = subprocess.run([python, "-c", lanzar % (delante, _BUSCAR_EL_CURSO)], capture_output=True, text=True,
                               cwd=tmp_path)
        assert hecho.returncode == 0 and hecho.stdout.strip(), hecho.stdout + hecho.stderr
        assert json.loads(hecho.stdout) == [], (delante, hecho.stdout)


# Agotar la jaula: lo que pida una respuesta, en número de ficheros, bytes, hilos, procesos o memoria
# compartida, se queda en sus topes, medidos desde fuera; y otra entrega corregida a la vez no lo nota.

_SITIOS = ["/tmp", ".", "/dev/shm", "/dev", "/", "/tmp/a/b"]
_ATAQUE = st.one_of(
    st.tuples(st.just("ficheros"), st.sampled_from(_SITIOS), st.integers(1, 20_000)),
    st.tuples(st.just("grande"), st.sampled_from(_SITIOS), st.integers(1, 160)),  # MiB
    st.tuples(st.just("carpetas"), st.sampled_from(_SITIOS), st.integers(1, 5_000)),
    st.tuples(st.just("hilos"), st.integers(1, 400)),
    st.tuples(st.just("procesos"), st.integers(1, 200)),
    st.tuples(st.just("shm"), st.sampled_from(["posix", "sysv", "memfd"]), st.integers(1, 1_500)),  # MiB
    st.tuples(st.just("memoria"), st.integers(1, 3_000)),  # MiB
)

_PROGRAMA = r'''
import ctypes, mmap, os, sys, threading, time
hechos, guardado, parar = [], [], threading.Event()

def intenta(nombre, f):
    try:
        hechos.append((nombre, f()))
    except BaseException as e:
        hechos.append((nombre, type(e).__name__))

def ficheros(sitio, n):
    os.makedirs(sitio, exist_ok=True)
    for i in range(n):
        open(os.path.join(sitio, "f%d" % i), "w").close()
    return n

def grande(sitio, mib):
    os.makedirs(sitio, exist_ok=True)
    with open(os.path.join(sitio, "grande"), "wb") as f:
        for _ in range(mib):
            f.write(b"x" * 1024 ** 2)
    return mib

def carpetas(sitio, n):
    ruta = sitio
    for i in range(n):
        ruta = os.path.join(ruta, "d")
        os.makedirs(ruta, exist_ok=True)
    return n

def hilos(n):
    for _ in range(n):
        threading.Thread(target=parar.wait, daemon=True).start()
    return n

def procesos(n):
    for _ in range(n):
        if os.fork() == 0:
            parar.wait(3)
            os._exit(0)
    return n

def shm(clase, mib):
    if clase == "posix":
        fd = os.open("/dev/shm/trozo", os.O_CREAT | os.O_RDWR)
    elif clase == "memfd":
        fd = os.memfd_create("trozo")
    else:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.shmat.restype = ctypes.c_void_p
        ident = libc.shmget(0, ctypes.c_size_t(mib * 1024 ** 2), 0o1000 | 0o600)
        if ident < 0:
            raise OSError(ctypes.get_errno(), "shmget")
        sitio = libc.shmat(ident, None, 0)
        ctypes.memset(sitio, 1, mib * 1024 ** 2)
        libc.shmdt(ctypes.c_void_p(sitio))  # fuera del espacio de direcciones del proceso: no cuenta en RLIMIT_AS
        return mib
    for i in range(mib):
        if clase == "memfd" and i and i % 32 == 0:  # uno nuevo cada 32 MiB: el tope de un fichero no lo para
            guardado.append(fd)
            fd = os.memfd_create("trozo")
        os.write(fd, b"x" * 1024 ** 2)
    guardado.append(fd)
    return mib

def memoria(mib):
    guardado.append(bytearray(mib * 1024 ** 2))
    return mib

for ataque in ATAQUES:
    intenta(ataque[0], lambda: globals()[ataque[0]](*ataque[1:]))
print("listo", flush=True)
sys.stdin.readline()  # lo tiene todo mientras se mide desde fuera
parar.set()
print(hechos, flush=True)
'''


def _tareas(pid):
    """Los hilos de `pid` y de todos sus descendientes, contados desde fuera."""
    from course.aislado.reloj import Espera
    return len(Espera._hilos_de(pid)) if os.path.exists("/proc/%d" % pid) else 0


def _usado(ruta):
    v = os.statvfs(ruta)
    return (v.f_blocks - v.f_bfree) * v.f_frsize, v.f_files - v.f_ffree


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(ataques=st.lists(_ATAQUE, min_size=1, max_size=4))
def test_agotar_la_jaula_no_pasa_de_sus_topes_ni_cambia_la_nota_de_otra(ataques):
    shm_antes = _usado("/dev/shm")[0]
    j = jaula.Jaula(carpeta="/tmp/cuaderno", en_memoria=["/tmp/cuaderno"])
    programa = "ATAQUES = %r\n" % (ataques,) + _PROGRAMA
    proceso = subprocess.Popen(j.orden([sys.executable, "-c", programa]), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    medidas = {}

    def medir():
        # Cuando el ataque lo tiene todo: desde fuera, por la raíz de la jaula y por su árbol de procesos.
        if proceso.stdout.readline().strip() != "listo":
            medidas["muerta"] = True  # la ha matado su tope de memoria: también es quedarse en él
            medidas["memoria"] = j.grupo.memoria_maxima() if j.grupo else None
            return
        dentro = next(iter(_nietos(proceso.pid)), None)
        medidas["tareas"] = _tareas(proceso.pid)
        if dentro:
            medidas["tmp"] = _usado("/proc/%d/root/tmp" % dentro)
            medidas["cuaderno"] = _usado("/proc/%d/root/tmp/cuaderno" % dentro)
        medidas["shm"] = _usado("/dev/shm")[0] - shm_antes
        medidas["memoria"] = j.grupo.memoria_maxima() if j.grupo else None
        proceso.stdin.write("\n")
        proceso.stdin.flush()

    ayudante = threading.Thread(target=medir)
    ayudante.start()
    try:
        fallos = _suspensos(BUENA)  # a la vez: la honesta, en el hilo principal (su alarma de respaldo lo pide)
        ayudante.join(120)
        proceso.wait(60)
    finally:
        proceso.kill()
        proceso.wait()
        grupo = j.grupo
        j.cerrar()
    assert fallos == {}, (ataques, fallos)
    assert medidas, ataques
    if medidas.get("muerta"):
        assert j.grupo is not None or grupo is not None, (ataques, "sin grupo de control no debería morir")
    else:
        assert medidas["tareas"] <= limites.TAREAS + 1, (ataques, medidas)  # + el bubblewrap de fuera
        for sitio in ("tmp", "cuaderno"):
            bytes_, ficheros = medidas[sitio]
            assert bytes_ <= limites.TMP and ficheros <= limites.FICHEROS_EN_TMP, (ataques, sitio, medidas)
        assert medidas["shm"] < 16 * limites.MIB, (ataques, medidas)  # en la máquina: nada de la jaula
    if medidas["memoria"] is not None:
        assert medidas["memoria"] <= limites.MEMORIA_DE_LA_JAULA, (ataques, medidas)
    assert grupo is None or all(not os.path.exists(c) for c in grupo.carpetas)


def _nietos(pid):
    hijos = []
    for hijo in _hijos_de(pid):
        hijos += _hijos_de(hijo)
    return hijos


def _hijos_de(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(h) for h in f.read().split()]
    except (OSError, ValueError):
        return []
