"""El intercambio de nbgrader (el camino del hub), con usuarios del sistema de verdad: nadie falsifica una nota.

La propiedad, la misma que en el camino del LMS (docs/amenazas.md): lo que un estudiante deje en el
intercambio solo cambia su propia fila. Aquí, con `nbgrader submit` y `nbgrader collect` de verdad,
cada uno con su usuario: una profesora, dos estudiantes honestos y uno que intenta de todo. Hypothesis
construye las carpetas hostiles (a nombre de otros o de nadie, con caracteres de control y bytes
que no son texto, enlaces a las soluciones de la profesora, bucles de enlaces, tuberías, fechas
adelantadas en el nombre, en `timestamp.txt` y en la fecha de los ficheros, sin permisos de lectura)
y, tras cada recogida, comprueba que las filas de los honestos son exactamente las de una recogida sin
ellas y que la del tramposo solo puede tener lo suyo, con la hora en que lo hizo.

Necesita root (crea los usuarios ic-profe, ic-ana, ic-bruno, ic-malo e ic-fuera, que borra al acabar) y el
entorno de Python del hub (el de test_hub.py, en $TMPDIR/curso-harness-hub-pruebas; la primera vez
tarda unos minutos).
"""

import datetime
import json
import os
import pwd
import shutil
import stat
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cuentas
from course import CUADERNO, NO_CORREGIDO, TAREA, hub as curso_hub
from course.intercambio import visible
from nbgrader.utils import parse_utc

PROFESORA, ANA, BRUNO, MALO = "ic-profe", "ic-ana", "ic-bruno", "ic-malo"
FUERA = "ic-fuera"  # un usuario de la máquina que no está en el roster: también puede escribir en el intercambio
HONESTOS = (ANA, BRUNO)
BASE = cuentas.DESTINO / "intercambio-pruebas"
RAIZ_DEL_INTERCAMBIO = BASE / "intercambio"
pytestmark = pytest.mark.timeout(1800)  # con el entorno del hub por hacer, unos minutos más

# Lo que hace el tramposo, en su propio proceso y con su usuario: crea lo que le pide la prueba en inbound/.
CONSTRUIR = r"""
import json, os, sys
datos = json.load(sys.stdin)
inbound = os.fsencode(datos["inbound"])
for carpeta in datos["carpetas"]:
    ruta = os.path.join(inbound, bytes.fromhex(carpeta["nombre"]))
    tipo = carpeta["tipo"]
    if tipo == "enlace":
        os.symlink(os.fsencode(carpeta["destino"]), ruta)
    elif tipo == "bucle":
        os.symlink(ruta, ruta)
    elif tipo == "fichero":
        open(ruta, "wb").close()
    elif tipo == "tuberia":
        os.mkfifo(ruta)
    else:
        os.mkdir(ruta)
        for nombre, clase, valor in carpeta["dentro"]:
            dentro = os.path.join(ruta, os.fsencode(nombre))
            if clase == "fichero":
                with open(dentro, "wb") as f:
                    f.write(bytes.fromhex(valor))
            elif clase == "enlace":
                os.symlink(os.fsencode(valor), dentro)
            elif clase == "tuberia":
                os.mkfifo(dentro)
            else:
                os.mkdir(dentro)
        if carpeta["viejo"]:  # la fecha de todo, al año 2000 (la que sí puede cambiar: no el ctime)
            for nombre in [*os.listdir(ruta), b"."]:
                os.utime(os.path.join(ruta, nombre), (946684800, 946684800), follow_symlinks=False)
        os.chmod(ruta, carpeta["modo"])
"""


def _nbgrader(usuario, *argumentos, cwd=None):
    hecho = cuentas.como(usuario, ["nbgrader", *argumentos], ENTORNO["entorno"], cwd=cwd)
    return hecho


ENTORNO = {}


def _como_profesora(*argumentos):
    hecho = _nbgrader(PROFESORA, *argumentos, cwd=ENTORNO["copia"])
    assert hecho.returncode == 0, f"nbgrader {' '.join(argumentos)}:\n{hecho.stdout}{hecho.stderr}"
    return hecho.stdout + hecho.stderr


def _cuaderno_con(usuario, marca):
    """El cuaderno descargado por `usuario`, con `marca` en sus metadatos (lo distingue de los demás)."""
    ruta = BASE / "casas" / usuario / TAREA / CUADERNO
    nb = json.loads(ruta.read_text(encoding="utf-8"))
    nb["metadata"]["quien"] = marca
    ruta.write_text(json.dumps(nb), encoding="utf-8")  # abrir y escribir no cambia su dueño
    return ruta.read_bytes()


def _entregar(usuario, *opciones):
    antes = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    hecho = _nbgrader(usuario, "submit", TAREA, *opciones)
    despues = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    return antes, despues


def _recoger():
    """Una recogida desde cero (sin submitted/): (lo recogido {estudiante: {fichero: bytes}}, la salida)."""
    recogidas = ENTORNO["copia"] / "submitted"
    shutil.rmtree(recogidas, ignore_errors=True)
    hecho = _nbgrader(PROFESORA, "collect", TAREA, cwd=ENTORNO["copia"])
    salida = hecho.stdout + hecho.stderr
    assert hecho.returncode == 0, salida
    filas = {}
    if recogidas.exists():
        for estudiante in os.listdir(recogidas):
            carpeta = recogidas / estudiante / TAREA
            filas[estudiante] = {}
            for raiz, _, ficheros in os.walk(carpeta):
                for f in ficheros:
                    ruta = os.path.join(raiz, f)
                    assert stat.S_ISREG(os.lstat(ruta).st_mode), f"{ruta} no es un fichero normal"
                    with open(ruta, "rb") as leido:
                        filas[estudiante][os.path.relpath(ruta, carpeta)] = leido.read()
    return filas, salida


def _hora(fila):
    return parse_utc(fila["timestamp.txt"].decode())


class Clase(dict):
    """Lo que deja el fixture `clase`, con un repr corto (Hypothesis lo escribe al fallar)."""

    def __repr__(self):
        return "<la clase de la prueba>"


@pytest.fixture(scope="module")
def clase(procesos):
    """Profesora, dos honestos y un tramposo, con la tarea publicada y entregada; y la recogida sin trampas."""
    if os.geteuid() != 0:
        pytest.skip("El intercambio con usuarios de verdad necesita root (crea usuarios del sistema) / needs root.")
    usuarios = (PROFESORA, ANA, BRUNO, MALO, FUERA)
    with cuentas.cerrojo():
        cuentas.borrar(*usuarios)
        shutil.rmtree(BASE, ignore_errors=True)
        (BASE / "casas").mkdir(parents=True)
        for carpeta in (BASE, BASE / "casas"):
            carpeta.chmod(0o755)
        try:
            hub = curso_hub.Hub(cuentas.DESTINO)
            try:
                curso_hub.preparar_entorno(hub)
            except SystemExit as fallo:
                pytest.fail(f"No se ha podido preparar el entorno del hub: {fallo}")
            curso_hub.instalar_plazos(hub)
            for nombre in usuarios:
                curso_hub.crear_usuario(nombre, BASE / "casas" / nombre)
            ENTORNO.update(entorno=hub.entorno, copia=curso_hub.copia_del_profesor(hub, PROFESORA))
            curso_hub.preparar_intercambio(RAIZ_DEL_INTERCAMBIO, PROFESORA)
            for nombre in usuarios:
                config = BASE / "casas" / nombre / ".jupyter" / "nbgrader_config.py"
                config.parent.mkdir(exist_ok=True)
                with open(config, "a", encoding="utf-8") as f:
                    f.write(f"\nc = get_config()\nc.Exchange.root = {str(RAIZ_DEL_INTERCAMBIO)!r}\n"
                            f"c.CourseDirectory.course_id = {curso_hub.CURSO!r}\n")
                usuario = pwd.getpwnam(nombre)
                for ruta in (config.parent, config):
                    os.chown(ruta, usuario.pw_uid, usuario.pw_gid)
            roster = ENTORNO["copia"] / "roster.csv"
            roster.write_text("id,first_name,last_name\n" + "".join(f"{u},{u[3:]},Prueba\n" for u in (ANA, BRUNO, MALO)))
            _como_profesora("db", "student", "import", "roster.csv")
            _como_profesora("release_assignment", TAREA)

            honestas, ventanas = {}, {}
            for estudiante in (ANA, BRUNO, MALO):
                assert _nbgrader(estudiante, "fetch_assignment", TAREA).returncode == 0
                honestas[estudiante] = _cuaderno_con(estudiante, estudiante)
                ventanas[estudiante] = _entregar(estudiante)
            # El tramposo, con la orden de nbgrader, entrega a nombre de Ana; y deja una carpeta que es un
            # enlace a las soluciones de la profesora, con una fecha de 2000 en el nombre.
            falsa = _cuaderno_con(MALO, "finge ser ic-ana")
            _entregar(MALO, f"--student={ANA}")
            fuente = ENTORNO["copia"] / "source" / TAREA
            enlace = json.dumps({"inbound": str(RAIZ_DEL_INTERCAMBIO / curso_hub.CURSO / "inbound"), "carpetas": [
                {"nombre": f"{MALO}+{TAREA}+2000-01-01 00:00:00.000000 UTC+x".encode().hex(), "tipo": "enlace",
                 "destino": str(fuente)}]})
            hecho = cuentas.como(MALO, ["python", "-c", CONSTRUIR], hub.entorno, entrada=enlace)
            assert hecho.returncode == 0, hecho.stderr
            filas, salida = _recoger()
            yield Clase({"honestas": honestas, "ventanas": ventanas, "falsa": falsa, "filas": filas, "salida": salida,
                   "entorno": hub.entorno, "fuente": fuente})
        finally:
            cuentas.borrar(*usuarios)
            shutil.rmtree(BASE, ignore_errors=True)


# =========================================================================== sin Hypothesis

def test_cada_entrega_es_de_quien_la_creo_y_a_su_hora(clase):
    filas = clase["filas"]
    assert set(filas) == {ANA, BRUNO, MALO}, filas.keys()
    for estudiante in (ANA, BRUNO, MALO):
        assert filas[estudiante][CUADERNO] == clase["honestas"][estudiante], estudiante
        antes, despues = clase["ventanas"][estudiante]
        margen = datetime.timedelta(seconds=1)  # el ctime lo pone el núcleo con su reloj grueso
        assert antes - margen <= _hora(filas[estudiante]) <= despues + margen, (estudiante, antes, despues)
    # La entrega hecha con `nbgrader submit --student=ic-ana` por el tramposo se aparta, con su línea.
    assert f"dice ser de «{ANA}», pero la ha creado «{MALO}»" in clase["salida"], clase["salida"]
    assert "es un enlace simbólico, no una carpeta" in clase["salida"], clase["salida"]
    assert not any(b"BEGIN HIDDEN TESTS" in d or b"BEGIN SOLUTION" in d for f in filas.values() for d in f.values())


def test_el_intercambio_tiene_el_bit_sticky_y_el_curso_es_de_la_profesora(clase):
    raiz = RAIZ_DEL_INTERCAMBIO
    assert os.stat(raiz).st_mode & stat.S_ISVTX
    curso = raiz / curso_hub.CURSO
    assert pwd.getpwuid(os.lstat(curso).st_uid).pw_name == PROFESORA
    assert os.stat(curso / "inbound").st_mode & stat.S_ISVTX, "inbound/ con el bit sticky: nadie borra la entrega de otro"
    # El tramposo no puede renombrar la carpeta del curso ni poner otra en su lugar, ni escribir en ella.
    intento = (f"import os\nfor hacer in (lambda: os.rename({str(curso)!r}, {str(raiz / 'otro')!r}),"
               f" lambda: os.rmdir({str(curso)!r}), lambda: open({str(curso / 'plazos.json')!r}, 'w')):\n"
               "    try:\n        hacer()\n        print('hecho')\n    except PermissionError:\n        print('no')\n")
    hecho = cuentas.como(MALO, ["python", "-c", intento], clase["entorno"])
    assert hecho.stdout.split() == ["no", "no", "no"], hecho.stdout + hecho.stderr


def test_los_estudiantes_ven_los_plazos_que_publica_la_profesora(clase):
    plazo = "2030-06-01 21:00:00 UTC"
    _como_profesora("db", "assignment", "add", TAREA, f"--duedate={plazo}")
    _como_profesora("release_assignment", TAREA, "--force")  # publicar otra vez publica los plazos
    lista = (f"from {curso_hub.MODULO_DE_PLAZOS} import ListaConPlazos\n"
             "from nbgrader.coursedir import CourseDirectory\nfrom nbgrader.auth import Authenticator\n"
             "from traitlets.config import Config\nimport json\n"
             f"c = Config(); c.Exchange.root = {str(RAIZ_DEL_INTERCAMBIO)!r}; c.ExchangeList.cached = True\n"
             f"c.CourseDirectory.course_id = {curso_hub.CURSO!r}\n"
             "l = ListaConPlazos(coursedir=CourseDirectory(config=c), authenticator=Authenticator(config=c), config=c)\n"
             "print(json.dumps(l.start(), default=str))\n")
    hecho = cuentas.como(ANA, ["python", "-c", lista], clase["entorno"])
    assert hecho.returncode == 0, hecho.stderr
    tarea, = json.loads(hecho.stdout.splitlines()[-1])
    assert tarea["plazo"] == plazo and [e["tarde"] for e in tarea["submissions"]] == [False]


# =========================================================================== con Hypothesis

_CONTROL = st.text(st.characters(codec="utf-8", exclude_characters="/\0", categories=["Cc", "Cf", "Zl", "Zp"]),
                   min_size=1, max_size=3)
_RARO = st.binary(min_size=1, max_size=6).filter(lambda b: b"/" not in b and b"\0" not in b)
_QUIEN = st.one_of(
    st.sampled_from([ANA, BRUNO, MALO, FUERA, "ic-nadie", "root", ""]).map(str.encode),
    st.tuples(st.sampled_from([ANA, MALO, ""]), _CONTROL).map(lambda t: (t[0] + t[1]).encode()),
    st.tuples(st.sampled_from([ANA, MALO]), _RARO).map(lambda t: t[0].encode() + t[1]),
)
_HORA = st.sampled_from(["2000-01-01 00:00:00.000000 UTC", "2999-12-31 23:59:59.000000 UTC", "no es una fecha",
                         "1970-01-01 00:00:00 UTC\nINFO falso"])


def _dentro(fuente):
    """Lo que puede haber en una carpeta hostil: (nombre, clase, valor)."""
    solucion = str(fuente / CUADERNO)
    cuaderno = st.one_of(
        st.just((CUADERNO, "fichero", None)),             # un cuaderno suyo (con su marca)
        st.just((CUADERNO, "enlace", solucion)),          # las soluciones de la profesora
        st.just((CUADERNO, "enlace", CUADERNO)),          # un bucle
        st.just((CUADERNO, "tuberia", None)),
        st.just((CUADERNO, "carpeta", None)),
    )
    resto = st.sampled_from([
        ("timestamp.txt", "fichero", b"2000-01-01 00:00:00.000000 UTC".hex()),
        ("timestamp.txt", "enlace", "/etc/shadow"),
        ("submission_secret.txt", "enlace", "/etc/shadow"),
        ("submission_secret.txt", "fichero", b"\x1b[2Jno es un secreto".hex()),
        ("bucle", "enlace", "."),
        ("otro", "enlace", "otro"),
        ("raiz", "enlace", "/"),
        ("gradebook.db", "enlace", str(ENTORNO["copia"] / "gradebook.db")),
    ])
    return st.tuples(st.lists(cuaderno, max_size=1), st.lists(resto, max_size=3, unique_by=lambda t: t[0])).map(lambda t: t[0] + t[1])


@st.composite
def carpetas_hostiles(draw, fuente):
    carpetas = []
    for i in range(draw(st.integers(1, 4))):
        nombre = draw(_QUIEN) + f"+{TAREA}+".encode() + draw(_HORA).encode() + f"+h{i}".encode()
        tipo = draw(st.sampled_from(["carpeta", "carpeta", "carpeta", "enlace", "bucle", "fichero", "tuberia"]))
        dentro = [(n, c, v if v is not None else json.dumps({"cells": [], "metadata": {"quien": f"malo-{i}"},
                                                              "nbformat": 4, "nbformat_minor": 5}).encode().hex())
                  for n, c, v in draw(_dentro(fuente))]
        carpetas.append({"nombre": nombre.hex(), "tipo": tipo, "destino": str(fuente), "dentro": dentro,
                         "modo": draw(st.sampled_from([0o755, 0o777, 0o700, 0o000])), "viejo": draw(st.booleans())})
    return carpetas


def _construir(carpetas, quien):
    inbound = RAIZ_DEL_INTERCAMBIO / curso_hub.CURSO / "inbound"
    datos = json.dumps({"inbound": str(inbound), "carpetas": carpetas})
    hecho = cuentas.como(quien, ["python", "-c", CONSTRUIR], ENTORNO["entorno"], entrada=datos)
    assert hecho.returncode == 0, hecho.stderr[-3000:]


def _rutas(carpetas):
    inbound = os.fsencode(RAIZ_DEL_INTERCAMBIO / curso_hub.CURSO / "inbound")
    return [os.path.join(inbound, bytes.fromhex(c["nombre"])) for c in carpetas]


def _quitar(rutas):
    for ruta in rutas:
        if os.path.isdir(ruta) and not os.path.islink(ruta):
            shutil.rmtree(ruta)
        elif os.path.lexists(ruta):
            os.remove(ruta)


@pytest.fixture(scope="module")
def fuente(clase):
    return clase["fuente"]


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(datos=st.data())
def test_una_carpeta_hostil_solo_cambia_la_fila_de_quien_la_deja(clase, fuente, datos):
    carpetas = datos.draw(carpetas_hostiles(fuente))
    quien = datos.draw(st.sampled_from([MALO, MALO, FUERA]), label="quién las crea")
    inicio = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) - datetime.timedelta(seconds=1)
    time.sleep(0.01)
    try:
        _construir(carpetas, quien)
        filas, salida = _recoger()
    finally:
        _quitar(_rutas(carpetas))
    # Los honestos, exactamente como en la recogida sin trampas; nadie fuera del roster.
    assert set(filas) <= {ANA, BRUNO, MALO}, sorted(filas)
    for estudiante in HONESTOS:
        assert filas[estudiante] == clase["filas"][estudiante], estudiante
    # El tramposo: lo suyo de antes, o lo que acaba de dejar (con la hora en que lo ha dejado), nunca lo de otro.
    malo = filas[MALO]
    if malo != clase["filas"][MALO]:
        assert quien == MALO, "lo que crea otro usuario ha cambiado la fila de %s" % MALO
        assert _hora(malo) >= inicio, (malo.get("timestamp.txt"), inicio)
        suyo = {bytes.fromhex(v) for c in carpetas for n, k, v in c["dentro"] if n == CUADERNO and k == "fichero"}
        assert CUADERNO not in malo or malo[CUADERNO] in suyo, malo.get(CUADERNO, b"")[:200]
        assert CUADERNO in malo or NO_CORREGIDO in malo
    assert not any(b"BEGIN HIDDEN TESTS" in d or b"BEGIN SOLUTION" in d for f in filas.values() for d in f.values())
    # Cada carpeta que no es del tramposo a su propio nombre se aparta con una línea, y los nombres salen escapados.
    for c in carpetas:
        nombre = os.fsdecode(bytes.fromhex(c["nombre"]))
        if quien != MALO or not nombre.startswith(f"{MALO}+{TAREA}+") or c["tipo"] != "carpeta":
            assert f"Entrega apartada, sin recoger: «{visible(nombre)}»" in salida, (nombre, salida)
    raros = {ch for ch in salida if not (ch.isprintable() or ch == "\n")}
    assert not raros, f"caracteres de control en la salida de collect: {raros!r}"
