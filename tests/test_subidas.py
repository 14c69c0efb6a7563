"""La propiedad de docs/amenazas.md, buscada con Hypothesis: una subida solo cambia la fila de quien la subió.

Hypothesis genera lo que suben los estudiantes (archivos con nombres al azar, anidados, cortados, de
cualquier tamaño y codificación, con nombres de compañeros), filas del roster con texto Unicode al
azar y carpetas de submitted/ con nombres de bytes cualesquiera. Cada ejemplo es un lote: muchas
subidas hostiles junto a las de unos compañeros honestos, por la cadena de verdad (`nbgrader
zip_collect`, `make grade`) una sola vez; los honestos tienen que salir igual que sin ellas.
"""

import csv
import datetime
import functools
import io
import json
import os
import re
import shutil
import tempfile
import zipfile
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from nbgrader.api import Gradebook
from traitlets.config import Config

from course import CUADERNO, HORA_DESCONOCIDA, NO_CORREGIDO, TAREA, corregir, gradebook, limites
from course.complementos import FORMULA, NotasSinFormulas
from course.entregas import escribir_entrega, leer_ejemplo
from course.recoleccion import Miembro, Subida, asignar, hora_del_lms, leer_roster, mostrar, normalizar, participante
from cursos import nota_del_ejemplo
from lms import (A_TIEMPO, MADRID, MOODLE_FORMAS, canvas, canvas_anonima, canvas_de_texto, comprimido, descarga, filas,
                 limpio_de_moodle, montar, moodle, moodle_de_grupo, recoger, sin_apostrofo, tar_gz)
from lms import corregir as make_grade

LENTO = settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
MUY_LENTO = settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
HONESTOS = {"agarcia": ("Ana García López", "101", "ana"), "bruiz": ("Bruno Ruiz", None, "carla")}
HOSTILES = ["h%d" % i for i in range(4)]  # en el roster, con su número del LMS: 301, 302…
ROSTER = [("agarcia", "Ana", "García López", "", "101"), ("bruiz", "Bruno", "Ruiz", "", ""),
          ("nadia", "Nadia", "Nada", "", "107")] + [(h, "Hostil", str(i), "", str(301 + i)) for i, h in enumerate(HOSTILES)]
HORA_HOSTIL = datetime.datetime(2026, 3, 1, 20, 30)


def _cuaderno(raiz, ejemplo):
    with tempfile.TemporaryDirectory() as fuera:
        respuestas = leer_ejemplo(corregir.EJEMPLOS / (ejemplo + ".toml"))["respuestas"]
        escribir_entrega(raiz / "release" / TAREA / CUADERNO, respuestas, Path(fuera))
        return (Path(fuera) / CUADERNO).read_bytes()


@pytest.fixture(scope="module")
def plantilla(procesos, tmp_path_factory):
    """Un curso con roster y fecha: (raíz, cuadernos de los honestos, lo que se recoge de ellos sin nadie más).

    Lo que se recoge de los honestos no sale de otra recogida, sino de lo que subieron: su cuaderno,
    tal cual, y la hora de la descarga del LMS en UTC.
    """
    raiz = montar(tmp_path_factory.mktemp("subidas") / "curso", ROSTER)
    cuadernos = {e: _cuaderno(raiz, ejemplo) for e, (_, _, ejemplo) in HONESTOS.items()}
    # El zip guarda los segundos de dos en dos: de las 10:15:00 pudo ser también las 10:15:01, y se toma la más tardía.
    hora = (A_TIEMPO.replace(tzinfo=MADRID).astimezone(datetime.timezone.utc) + datetime.timedelta(seconds=1)).strftime(
        "%Y-%m-%d %H:%M:%S")
    solos = {}
    for estudiante, nb in cuadernos.items():
        solos["%s/%s/%s" % (estudiante, TAREA, CUADERNO)] = nb
        solos["%s/%s/timestamp.txt" % (estudiante, TAREA)] = hora.encode()
    return raiz, cuadernos, solos


def _honestos(cuadernos, forma="carpetas", ana="Ana García López", grupo=None, tarde=False):
    return {moodle(ana, 101, CUADERNO, forma, grupo=grupo): (cuadernos["agarcia"], A_TIEMPO),
            canvas("Ruiz, Bruno", 202, TAREA + ".ipynb", tarde=tarde): (cuadernos["bruiz"], A_TIEMPO)}


def _contenido(carpeta):
    return {str(p.relative_to(carpeta)): p.read_bytes() for p in sorted(carpeta.rglob("*")) if p.is_file()}


# --------------------------------------------------------------------------- lo que sube un estudiante

NOMBRES = st.one_of(
    st.sampled_from([CUADERNO, "timestamp.txt", "entrega.zip", "entrega.tar.gz", "entrega.ipynb.gz", "../../x.ipynb",
                     "a/b/c.ipynb", "__MACOSX/._" + CUADERNO, moodle("Nadia Nada", 107, CUADERNO),
                     moodle("Ana García López", 101, CUADERNO), canvas("ruizbruno", 202, CUADERNO),
                     "Bruno Ruiz_202_assignsubmission_file_" + CUADERNO]),
    # Un zip guarda sus nombres en UTF-8 (o en cp437): cualquier texto sin sustitutos sueltos.
    st.text(st.characters(exclude_characters="\x00", exclude_categories=["Cs"]), min_size=1, max_size=24)
    .filter(lambda n: not n.endswith("/")))
# Un tar guarda bytes: también nombres que no son UTF-8 (de un sistema en latin-1), que Python lee con
# surrogateescape («caf\udce9.ipynb»).
NOMBRES_EN_UN_TAR = st.one_of(NOMBRES, st.binary(min_size=1, max_size=24).filter(
    lambda b: b"\0" not in b and not b.endswith(b"/")).map(os.fsdecode))


def _ficheros(contenido, nombres=NOMBRES):
    return st.dictionaries(nombres, contenido, min_size=1, max_size=3)


@st.composite
def _contenidos(draw, honesto):
    """Los bytes de un fichero subido: un cuaderno, basura, un archivo (anidado, cortado) o una bomba."""
    hoja = st.one_of(st.just(honesto), st.binary(max_size=300), st.just(b"{}"),
                     st.integers(2, 12).map(lambda mb: b"\0" * (mb * 1024 * 1024)))
    arbol = st.recursive(hoja, lambda dentro: st.one_of(
        _ficheros(dentro).map(comprimido), _ficheros(dentro, NOMBRES_EN_UN_TAR).map(tar_gz)), max_leaves=4)
    datos = draw(arbol)
    if draw(st.booleans()) and len(datos) > 10:
        datos = datos[:draw(st.integers(1, len(datos) - 1))]  # cortado a medio subir
    return datos


@st.composite
def subidas(draw, honesto):
    """{número del LMS: (nombre en el LMS, {fichero: (bytes, complemento de Moodle)})} de unos participantes hostiles."""
    numeros = draw(st.lists(st.sampled_from(["301", "302", "303", "304", "401", "402", "403"]), min_size=1,
                            max_size=4, unique=True))
    nombre = st.one_of(st.sampled_from(["Nadia Nada", "Ana García López", "Иван Петров", "王 芳"]),
                       st.text(st.characters(categories=["L", "N", "Zs"]), min_size=1, max_size=20))
    # Moodle no guarda un fichero cuyo nombre se queda en nada al limpiarlo (clean_filename).
    fichero = NOMBRES.filter(lambda n: any(limpio_de_moodle(p) for p in n.split("/")))
    resultado = {}
    for n in numeros:
        quien = draw(nombre)
        # Sin número en el roster, el nombre de Bruno sería ambiguo (y eso ya se avisa): aquí, otro.
        assume(n.startswith("3") or normalizar(quien) not in ("brunoruiz", "ruizbruno"))
        ficheros = draw(st.dictionaries(fichero, st.tuples(_contenidos(honesto), st.sampled_from(["file", "onlinetext"])),
                                        min_size=1, max_size=3))
        resultado[n] = (quien.replace("/", " ").strip() or "x", ficheros)
    return resultado


@LENTO
@given(datos=st.data())
def test_una_subida_solo_cambia_la_carpeta_de_quien_la_subio(plantilla, datos):
    """Cada ejemplo es una descarga de una versión de Moodle (en carpetas, de 4.1 o de 3.1, o sin carpetas), quizá con
    la identidad oculta («Participante») o con entregas en grupo de antes de 4.1, con texto en línea junto a los
    ficheros; Bruno, por Canvas, a tiempo o con «_LATE»."""
    raiz, cuadernos, solos = plantilla
    lote = datos.draw(subidas(cuadernos["agarcia"]))
    forma = datos.draw(st.sampled_from(MOODLE_FORMAS))
    oculta = datos.draw(st.booleans())
    grupo = datos.draw(st.none() | st.sampled_from(["Grupo A", "Grupo_B", "Grupo predeterminado"])) \
        if forma != "carpetas" else None
    with tempfile.TemporaryDirectory() as tmp:
        curso = Path(tmp) / "curso"
        shutil.copytree(raiz, curso)
        ana = "Participante" if oculta else "Ana García López"
        miembros = _honestos(cuadernos, forma, ana, grupo, tarde=datos.draw(st.booleans()))
        if datos.draw(st.booleans()):  # Ana escribe también un texto en línea, que Moodle fecha al descargar
            miembros[moodle(ana, 101, "onlinetext.html", forma, "onlinetext", grupo)] = (b"<p>Hola</p>", HORA_HOSTIL)
        for numero, (nombre, ficheros) in lote.items():
            for fichero, (contenido, complemento) in ficheros.items():
                miembros[moodle("Participante" if oculta else nombre, numero, fichero, forma, complemento, grupo)] = (
                    contenido, HORA_HOSTIL)
        descarga(curso, "lms.zip", miembros)
        hecho, memoria = recoger(curso)
        assert hecho.returncode == 0, hecho.stderr[-3000:]
        assert memoria < 500 * 1024 ** 2, memoria
        recogido = _contenido(curso / "submitted")
        # La hora de la entrega: la de sus ficheros en el zip solo si esta descarga guarda la de cada uno (Moodle de 3.1
        # a 4.0, o sin carpetas con las fechas de más de un participante, que no van seguidas); si no, ninguna, y por qué.
        con_ficheros = {n for n, (_, ficheros) in lote.items() if any(c == "file" for _, c in ficheros.values())}
        fiable = forma == "carpetas-3.1" or (forma == "plano" and con_ficheros)
        # Los honestos, byte a byte lo que subieron, con la hora del LMS si se sabe (Bruno, por Canvas: no).
        con_hora = {"agarcia"} if fiable else set()
        assert {r: d for r, d in recogido.items() if r.split("/")[0] in HONESTOS and not r.endswith(HORA_DESCONOCIDA)} \
            == {r: d for r, d in solos.items() if r.split("/")[0] in con_hora or not r.endswith("timestamp.txt")}
        for estudiante in set(HONESTOS) - con_hora:
            assert recogido["%s/%s/%s" % (estudiante, TAREA, HORA_DESCONOCIDA)].strip()
        # Cada hostil, en su carpeta (la de su fila del roster, o lms-<número>) y en ninguna otra.
        suyas = {("h%d" % (int(n) - 301)) if n.startswith("3") else "lms-" + n: n for n in lote}
        assert {r.split("/")[0] for r in recogido} - set(HONESTOS) == set(suyas)
        for estudiante, numero in suyas.items():
            carpeta = curso / "submitted" / estudiante / TAREA
            dentro = sorted(p.name for p in carpeta.iterdir())
            sello = "timestamp.txt" if fiable and numero in con_ficheros else HORA_DESCONOCIDA
            assert dentro in (sorted([CUADERNO, sello]), sorted([NO_CORREGIDO, sello])), dentro
            if sello == "timestamp.txt":
                assert (carpeta / sello).read_text().startswith("2026-03-01 19:30:01")  # la del LMS, en UTC (y su segundo)


# --------------------------------------------------------------------------- quién es quién

# Partes de la ruta de un fichero subido y nombres de personas: cualquier texto, con «_», signos y caracteres de control.
PARTE = st.text(min_size=1, max_size=12).filter(lambda p: "/" not in p and limpio_de_moodle(p))
PERSONA = st.text(max_size=20)


@settings(max_examples=400, deadline=None)
@given(nombre=PERSONA, numero=st.integers(1, 10**9), forma=st.sampled_from(MOODLE_FORMAS),
       complemento=st.sampled_from(["file", "onlinetext"]), grupo=st.none() | PERSONA,
       partes=st.lists(PARTE, min_size=1, max_size=3))
def test_cada_forma_de_moodle_dice_de_quien_es_y_que_subio(nombre, numero, forma, complemento, grupo, partes):
    """Con carpetas (Moodle 4.1 y después, o 3.1 a 4.0) o sin ellas, con la identidad oculta o con el equipo delante
    (entregas en grupo de antes de 4.1), fichero subido o texto en línea: el número, el nombre y la ruta del fichero son
    los que Moodle ha puesto, aunque el nombre o el fichero tengan «_», «/», signos o cifras."""
    assume(not (grupo is not None and forma == "carpetas"))
    quien = participante(moodle(nombre, numero, "/".join(partes), forma, complemento, grupo))
    limpias = [limpio_de_moodle(p) for p in partes]
    ruta = limpias[-1] if forma == "plano" or complemento != "file" else "/".join(limpias)
    como_en_moodle = limpio_de_moodle(("%s-" % grupo if grupo is not None else "") + nombre).replace("_", " ")
    assert quien == Miembro(como_en_moodle, str(numero), ruta, complemento == "file")


@settings(max_examples=400, deadline=None)
@given(nombre=PERSONA, numero=st.integers(1, 10**12), adjunto=st.integers(1, 10**12), tarde=st.booleans(),
       fichero=st.text(min_size=1, max_size=20), otra_vez=st.booleans())
def test_cada_forma_de_canvas_dice_de_quien_es_y_que_subio(nombre, numero, adjunto, tarde, fichero, otra_vez):
    """Un fichero de «Download Submissions» de Canvas, a tiempo o con «_LATE», subido otra vez («-1») o no, y el texto
    en línea y el enlace: el número es el del estudiante, aunque su nombre tenga «_» o cifras."""
    if otra_vez:
        fichero = re.sub(r"(\.[^.]*)?$", r"-1\1", fichero, count=1)
    nombre_de_canvas = canvas(nombre, 1, "x").rsplit("_", 3)[0]  # como lo deja Canvas, sin «_LATE»
    # Canvas lee como número de estudiante lo primero que es solo cifras: un nombre que acaba en «_<cifras>», o que
    # empieza como una entrega anónima, Canvas tampoco lo distingue (docs/lms.md).
    assume(not re.search(r"_\d+$", nombre_de_canvas) and not nombre_de_canvas.startswith("anon_"))
    quien = participante(canvas(nombre, numero, fichero, tarde, adjunto))
    assert (quien.numero, quien.subido, quien.sin_numero) == (str(numero), True, None)
    assert quien.ruta == re.sub(r'[\x00/\\:*?"<>|]+', "_", fichero)
    if not nombre_de_canvas.lower().endswith("_late"):
        assert quien.nombre == nombre_de_canvas
    for enlace in (False, True):
        quien = participante(canvas_de_texto(nombre, numero, enlace, tarde))
        assert (quien.numero, quien.subido) == (str(numero), False)


@settings(max_examples=200, deadline=None)
@given(codigo=st.text("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", min_size=5, max_size=5),
       grupo=PERSONA, numero=st.integers(1, 10**6), tarde=st.booleans(), fichero=PARTE)
def test_lo_que_no_dice_de_quien_es_no_tiene_numero(codigo, grupo, numero, tarde, fichero):
    """Una entrega anónima de Canvas o la de quienes no tienen grupo en una tarea de Moodle 4.1 con entregas en grupo no
    llevan número de estudiante: se sabe y se dice por qué, nunca se toma otro número por el suyo."""
    anonima = participante(canvas_anonima(codigo, numero, fichero, tarde))
    sin_grupo = participante(moodle_de_grupo(None, None, limpio_de_moodle(fichero)))
    assert anonima.numero is None and "anónima" in anonima.sin_numero
    assert sin_grupo.numero is None and "en grupo" in sin_grupo.sin_numero
    # La del grupo lleva el número del grupo, que solo se distingue del de un estudiante por la descarga entera.
    assert participante(moodle_de_grupo(grupo, numero, limpio_de_moodle(fichero))).numero == str(numero)


PALABRA = st.text(st.characters(categories=["Lu", "Ll", "Lo"]), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(nombres=st.lists(st.tuples(PALABRA, PALABRA), min_size=1, max_size=8, unique_by=lambda n: normalizar("".join(n))),
       con_numero=st.lists(st.booleans(), min_size=8, max_size=8), intrusos=st.lists(PALABRA, max_size=3),
       caja=st.sampled_from([str, str.upper, str.lower]))
def test_cada_participante_es_quien_dice_su_numero_o_su_nombre_en_cualquier_escritura(nombres, con_numero, intrusos,
                                                                                   caja):
    roster = [("e%d" % i, n, a, "", str(100 + i) if con_numero[i] else "") for i, (n, a) in enumerate(nombres)]
    participantes, esperado = {}, {}
    for i, (n, a) in enumerate(nombres):
        numero = str(100 + i) if con_numero[i] else str(500 + i)
        nombre = "%s %s" % (n, a)
        participantes[numero] = caja(nombre)  # Canvas, por ejemplo, lo da en minúsculas
        esperado[numero] = "e%d" % i
    conocidos = {normalizar(n + a) for n, a in nombres} | {normalizar(a + n) for n, a in nombres}
    for j, intruso in enumerate(intrusos):
        assume(normalizar(intruso) not in conocidos)
        participantes[str(900 + j)] = intruso
    asignados = asignar(participantes, [(i, n, a, lms) for i, n, a, _, lms in roster])
    for numero, (estudiante, aviso) in asignados.items():
        # Nunca la fila de otro: la suya, o una nueva con su número (y un aviso).
        assert estudiante in (esperado.get(numero), "lms-" + numero), (numero, estudiante)
        if numero in esperado:
            assert estudiante == esperado[numero], (numero, participantes[numero], aviso)
        else:
            assert aviso and "no está en el roster" in aviso


def test_un_nombre_que_casa_con_dos_no_se_adivina_y_ninguna_escritura_se_queda_en_nada():
    roster = [("p1", "Pablo", "Pérez", None), ("p2", "PABLO", "PEREZ", None), ("i", "Иван", "Петров", None),
              ("o", "Ольга", "Смирнова", None), ("w", "王", "芳", None)]
    asignados = asignar({"1": "Pablo Pérez", "2": "Иван Петров", "3": "Ольга Смирнова", "4": "芳 王"}, roster)
    assert asignados["1"][0] == "lms-1" and "p1, p2" in asignados["1"][1]
    assert [asignados[n][0] for n in "234"] == ["i", "o", "w"]
    assert all(normalizar(t) for t in ("Иван", "Ελένη", "王", "أحمد", "देवनागरी"))


# --------------------------------------------------------------------------- el CSV

TEXTO = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=30).filter(
    lambda t: not t.startswith("'"))  # un apóstrofo delante es justo la marca de «no es una fórmula»


@pytest.fixture(scope="module")
def gradebook_vacio(procesos, tmp_path_factory):
    carpeta = tmp_path_factory.mktemp("csv")
    with Gradebook(gradebook(carpeta)) as gb:
        gb.add_assignment(TAREA)
    return carpeta / "gradebook.db"


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(roster=st.lists(st.tuples(TEXTO.filter(str.strip), TEXTO, TEXTO, TEXTO), min_size=1, max_size=5,
                       unique_by=lambda f: f[0]))
def test_el_csv_devuelve_el_roster_tal_cual_y_sin_formulas(gradebook_vacio, roster):
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(gradebook_vacio, Path(tmp) / "gradebook.db")
        config = Config()
        config.CourseDirectory.root = tmp
        with Gradebook(gradebook(tmp)) as gb:
            for id_, nombre, apellidos, email in roster:
                gb.add_student(id_, first_name=nombre, last_name=apellidos, email=email)
            NotasSinFormulas(to=str(Path(tmp) / "notas.csv"), config=config).export(gb)
        with open(Path(tmp) / "notas.csv", newline="", encoding="utf-8") as f:
            leidas = list(csv.DictReader(f))
    assert len(leidas) == len(roster)  # ni una fila de más por una coma o un salto de línea
    por_id = {sin_apostrofo(f["student_id"]): f for f in leidas}
    for id_, nombre, apellidos, email in roster:
        fila = por_id[id_]
        assert [sin_apostrofo(fila[c]) for c in ("first_name", "last_name", "email")] == [nombre, apellidos, email]
        assert fila["estado"] == "sin entrega" and fila["score"] == ""
        for celda in fila.values():
            assert not celda.lstrip(" ").startswith(FORMULA), celda


# --------------------------------------------------------------------------- make grade

@pytest.fixture(scope="module")
def clase_honesta(plantilla, tmp_path_factory):
    """El curso con las entregas de los honestos en submitted/, sin corregir."""
    raiz, cuadernos, _ = plantilla
    curso = tmp_path_factory.mktemp("honesta") / "curso"
    shutil.copytree(raiz, curso)
    for estudiante, nb in cuadernos.items():
        (curso / "submitted" / estudiante / TAREA).mkdir(parents=True)
        (curso / "submitted" / estudiante / TAREA / CUADERNO).write_bytes(nb)
    return curso, cuadernos


CARPETA = st.binary(min_size=1, max_size=12).filter(lambda b: b"/" not in b and b"\0" not in b and b not in (b".", b".."))


@st.composite
def _entrega(draw, honesto):
    """(nombre del fichero, bytes) de lo que hay en una carpeta copiada a mano en submitted/."""
    nombre = draw(st.sampled_from([CUADERNO, "Mi cuaderno (1).ipynb", "entrega.txt"]))
    datos = draw(st.one_of(st.just(honesto), st.binary(max_size=200), st.just(b'{"cells": [{"cell_type": 7}]}'),
                           st.just(b"[" * 50_000), st.just(honesto.replace(b'"cells"', b'"celdas"'))))
    return nombre, datos


@MUY_LENTO
@given(datos=st.data())
def test_make_grade_con_carpetas_de_cualquier_nombre_no_cambia_a_los_demas(clase_honesta, datos):
    curso_base, cuadernos = clase_honesta
    nombres = datos.draw(st.lists(CARPETA, min_size=1, max_size=3, unique=True))
    assume(not {n.decode("utf-8", "surrogateescape") for n in nombres} & (set(HONESTOS) | set(HOSTILES) | {"nadia"}))
    with tempfile.TemporaryDirectory() as tmp:
        curso = Path(tmp) / "curso"
        shutil.copytree(curso_base, curso)
        for nombre in nombres:
            fichero, contenido = datos.draw(_entrega(cuadernos["agarcia"]))
            carpeta = os.path.join(os.fsencode(curso / "submitted"), nombre, TAREA.encode())
            os.makedirs(carpeta)
            with open(os.path.join(carpeta, fichero.encode()), "wb") as f:
                f.write(contenido)
        hecho = make_grade(curso, trabajos=2)
        notas = filas(curso)
        for estudiante, (_, _, ejemplo) in HONESTOS.items():
            assert notas[estudiante]["estado"] == "corregido", hecho.stdout[-3000:]
            assert float(notas[estudiante]["score"]) == nota_del_ejemplo(corregir.EJEMPLOS / (ejemplo + ".toml"))
        # Cada carpeta, una fila suya: con nota, o «no corregido» con su motivo; ninguna otra fila.
        suyas = {n.decode("utf-8", "backslashreplace") for n in nombres}
        assert set(notas) == set(HONESTOS) | set(HOSTILES) | {"nadia"} | suyas, (set(notas), hecho.stdout[-2000:])
        for nombre in suyas:
            fila = notas[nombre]
            assert fila["estado"] == "corregido" or (fila["estado"] == "no corregido" and fila["motivo"]), fila
            assert mostrar(nombre, 200) in hecho.stdout  # sin caracteres de control: no desordenan la terminal
        assert "Cada estudiante" in (curso / "exports" / "informe.html").read_text(encoding="utf-8")
        assert hecho.returncode == 0, hecho.stdout[-3000:] + hecho.stderr[-3000:]


# --------------------------------------------------------------------------- el roster, como lo guarde una hoja de cálculo

COLUMNAS = ["id", "first_name", "last_name", "email", "lms_user_id"]
CAMPO = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=20)


def _roster_guardado(filas, separador, bom, fin_de_linea, codificacion, columnas=COLUMNAS):
    salida = io.StringIO(newline="")
    # Con finales «\n», todo entre comillas: csv solo pone comillas por los caracteres de su propio final de
    # línea, y un «\r» suelto sin comillas ya no sería un CSV.
    escritor = csv.writer(salida, delimiter=separador, lineterminator=fin_de_linea,
                          quoting=csv.QUOTE_ALL if fin_de_linea == "\n" else csv.QUOTE_MINIMAL)
    escritor.writerow(columnas)
    escritor.writerows([[fila[c] for c in columnas] for fila in filas])
    texto = salida.getvalue()
    if codificacion == "utf-16":
        return texto.encode("utf-16")  # con su BOM, como «Texto Unicode» de Excel
    return ("\ufeff" if bom else "").encode() + texto.encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(filas=st.lists(st.fixed_dictionaries({"id": CAMPO.filter(str.strip), "first_name": CAMPO, "last_name": CAMPO,
                                             "email": CAMPO, "lms_user_id": st.from_regex(r"\A[0-9]{0,7}\Z")}),
                      min_size=1, max_size=6, unique_by=lambda f: f["id"]),
       separador=st.sampled_from([",", ";", "\t"]), bom=st.booleans(), fin_de_linea=st.sampled_from(["\n", "\r\n"]),
       codificacion=st.sampled_from(["utf-8", "utf-16"]), orden=st.permutations(COLUMNAS))
def test_el_roster_se_lee_con_bom_punto_y_coma_o_tabuladores(filas, separador, bom, fin_de_linea, codificacion, orden):
    leidas, problema = leer_roster(_roster_guardado(filas, separador, bom, fin_de_linea, codificacion, orden))
    assert problema is None
    assert leidas == filas


@pytest.mark.parametrize("datos, motivo", [
    ("id;nombre\nana;Ana Núñez\n".encode("cp1252"), "no está en UTF-8"),
    ("nombre,apellidos\nAna,Núñez\n".encode(), "no tiene la columna «id»"),
    (b"", "no tiene la columna"),
    ("id,first_name\nana,Ana,de más\n".encode(), "más campos que la cabecera"),
])
def test_un_roster_que_no_se_puede_leer_dice_por_que_en_español(datos, motivo):
    leidas, problema = leer_roster(datos)
    assert leidas is None and motivo in problema


def test_nbgrader_importa_el_roster_de_excel_con_sus_numeros_de_participante(procesos, tmp_path):
    from cursos import copiar_curso, nbgrader

    curso = copiar_curso(tmp_path / "curso")
    filas = [{"id": "agarcia", "first_name": "Ana", "last_name": "García; López", "email": "", "lms_user_id": "101"},
             {"id": "bruiz", "first_name": "Bruno", "last_name": "Ruiz", "email": "b@x", "lms_user_id": "102"}]
    (curso / "excel.csv").write_bytes(_roster_guardado(filas, ";", True, "\r\n", "utf-8", ["lms_user_id", *COLUMNAS[:4]]))
    hecho = nbgrader(curso, "db", "student", "import", "excel.csv")
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    with Gradebook(gradebook(curso)) as gb:
        assert {(s.id, s.last_name, s.lms_user_id) for s in gb.students} == {
            ("agarcia", "García; López", "101"), ("bruiz", "Ruiz", "102")}
    (curso / "ansi.csv").write_bytes("id;first_name\ncperez;Carlos Núñez\n".encode("cp1252"))
    hecho = nbgrader(curso, "db", "student", "import", "ansi.csv")
    assert hecho.returncode != 0 and "no está en UTF-8" in hecho.stdout + hecho.stderr
    with Gradebook(gradebook(curso)) as gb:
        assert "cperez" not in {s.id for s in gb.students}


# --------------------------------------------------------------------------- la hora del LMS en el cambio de hora

def test_una_entrega_41_minutos_tarde_la_noche_del_cambio_de_hora_es_tarde():
    # 26 de octubre de 2025, Madrid: de 2:00 a 3:00 pasa dos veces. El plazo, 2:50 de la primera pasada
    # (00:50 UTC); la subida, a las 2:31 que el .zip guarda sin decir de qué pasada: puede ser la segunda.
    plazo = datetime.datetime(2025, 10, 26, 0, 50, tzinfo=datetime.timezone.utc)
    assert hora_del_lms((2025, 10, 26, 2, 31, 0), "Europe/Madrid") > plazo
    assert hora_del_lms((2025, 10, 26, 2, 31, 0), "Europe/Madrid") - plazo == datetime.timedelta(minutes=41)


@settings(max_examples=300, deadline=None)
@given(fecha=st.datetimes(min_value=datetime.datetime(2000, 1, 1), max_value=datetime.datetime(2037, 12, 31)),
       zona=st.sampled_from(["Europe/Madrid", "America/Santiago", "America/Mexico_City", "Australia/Lord_Howe",
                             "Europe/London", "UTC"]))
def test_la_hora_del_lms_es_la_mas_tardia_de_sus_lecturas(fecha, zona):
    fecha = fecha.replace(microsecond=0)
    lecturas = {fecha.replace(tzinfo=ZoneInfo(zona), fold=f).astimezone(datetime.timezone.utc) for f in (0, 1)}
    hora = hora_del_lms(fecha.timetuple()[:6], zona)
    assert hora in lecturas and all(hora >= l for l in lecturas)


# --------------------------------------------------------------------------- bombas y cuadernos honestos grandes

def _cuaderno_repetitivo(mib):
    """Un cuaderno honesto de `mib` MiB: una celda que imprimió la misma línea muchas veces."""
    linea = "paso 1: leer lista.txt -> pan, leche, patatas\n"
    texto = linea * (mib * limites.MIB // len(linea))
    return json.dumps({"cells": [{"cell_type": "code", "source": "for _ in range(10**6): print(...)", "metadata": {},
                                  "outputs": [{"output_type": "stream", "name": "stdout", "text": texto}]}],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode()


def _mirar(ficheros):
    """La Subida de un participante con {nombre: bytes}, leída como en una descarga del LMS."""
    z = zipfile.ZipFile(io.BytesIO(comprimido(ficheros, 9)))
    subida = Subida("Ana")
    for info in z.infolist():
        subida.comprimido += info.compress_size
        subida.mirar(info.filename, functools.partial(z.open, info), info.compress_size, None)
    return subida


@pytest.mark.parametrize("envoltorio", ["tal cual", "zip", "tar.gz"])
def test_un_cuaderno_honesto_de_18_mb_con_salida_repetitiva_no_es_una_bomba(envoltorio):
    cuaderno = _cuaderno_repetitivo(18)
    ficheros = {"tal cual": {CUADERNO: cuaderno}, "zip": {"entrega.zip": comprimido({CUADERNO: cuaderno})},
                "tar.gz": {"entrega.tar.gz": tar_gz({CUADERNO: cuaderno})}}[envoltorio]
    assert len(cuaderno) / subida_comprimida(ficheros) > limites.RAZON_DE_COMPRESION  # se comprime muchísimo
    subida = _mirar(ficheros)
    assert (subida.agotada, subida.rechazos) == (None, [])
    assert [datos for _, _, datos in subida.cuadernos] == [cuaderno]


def subida_comprimida(ficheros):
    return sum(i.compress_size for i in zipfile.ZipFile(io.BytesIO(comprimido(ficheros, 9))).infolist())


def test_una_bomba_se_para_en_los_topes_absolutos_y_se_llama_bomba():
    # Un cuaderno de 64 MiB de espacios: pasa del tope de un cuaderno, y por cuánto se comprime es una bomba.
    subida = _mirar({CUADERNO: b" " * (64 * limites.MIB)})
    assert not subida.cuadernos and "bomba de descompresión" in subida.rechazos[0], subida.rechazos
    # Muchos cuadernos que juntos pasan de RAZON_DESDE y se comprimen más de RAZON_DE_COMPRESION veces.
    subida = _mirar({"c%d.ipynb" % i: b" " * (20 * limites.MIB) for i in range(3)})
    assert subida.agotada and "bomba de descompresión" in subida.agotada, subida.agotada
    # Y más ficheros de los que se miran, aunque no pesen nada.
    subida = _mirar({"f%d.txt" % i: b"" for i in range(limites.ENTRADAS_DE_SUBIDA + 1)})
    assert subida.agotada and "ficheros" in subida.agotada
