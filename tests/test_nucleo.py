"""El núcleo enjaulado en una corrección de verdad: qué le llega, cómo se interrumpe y qué deja.

Un curso temporal, cuatro entregas con el cuestionario y `ejecutar` bien contestados, y un solo
`nbgrader autograde` con la configuración del curso, más `--debug` para el núcleo: ipykernel anota
entonces en su stderr, que es el de nbgrader, el contenido de cada mensaje que recibe antes de
atenderlo. Así se ve desde fuera qué código le ha llegado al núcleo, no qué salidas hay.

La corrección rehace cada entrega sobre el cuaderno de release y solo toma de ella el código de las
celdas de respuesta (course/aislado/entrada.py): una celda añadida no se ejecuta. Por eso lo raro va
dentro de la respuesta `ejecutar`, tras su `def`, y solo cuando corre en un núcleo de IPython (el
corrector de confianza carga esa misma celda con `exec`, sin `get_ipython`, y su nota no cambia).

- `honesta`: el cuaderno tal cual.
- `bucle`: la respuesta acaba con un bucle sin fin; la interrupción la para.
- `sin_interrupcion`: la respuesta ignora SIGINT y no acaba; el núcleo se da por perdido.
- `dormilona`: la respuesta hace que cada celda que viene después duerma la mitad del tope de una celda
  (la otra mitad es holgura: con la máquina cargada, una celda tarda más que su sueño); la lección de
  este curso temporal lleva, tras la respuesta, muchas celdas cortas (CELDAS_DE_LA_LECCION), más de las
  que caben en el tiempo del cuaderno a ese paso.
"""

import ast
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import nbformat
import psutil
import pytest
from nbformat.v4 import new_code_cell
from nbgrader.api import Gradebook

from course import CUADERNO, RAIZ, TAREA, gradebook, limites
from course.aislado.cliente import en_segundos
from course.entregas import escribir_entrega, soluciones
from cursos import copiar_curso, modo_del_cuestionario

def _solo_en_el_nucleo(codigo):
    """`codigo` para el final de la respuesta: corre en el núcleo (IPython), no en el corrector de confianza."""
    return "\ntry:\n    get_ipython\nexcept NameError:\n    pass\nelse:\n" + "".join(
        "    " + linea + "\n" for linea in codigo.splitlines())


BUCLE = _solo_en_el_nucleo("# Para probar: no acaba nunca.\nwhile True:\n    pass")
SIN_INTERRUPCION = _solo_en_el_nucleo("# No acaba, y no deja que la interrumpan.\nimport signal\n"
                                      "signal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass")
# Lo que duerme cada celda de la dormilona: cabe en el tope de la celda con holgura, no en el del cuaderno.
SUEÑO = limites.CELDA * 0.5
DORMILONA = _solo_en_el_nucleo("# Cada celda que venga después duerme la mitad del tope de una celda.\nimport time\n"
                               "get_ipython().events.register('pre_run_cell', lambda *_: time.sleep(%r))"
                               % SUEÑO)
# Intenta llenar cada sitio escribible de su jaula (la carpeta del cuaderno, /tmp, la carpeta del fichero de
# conexión, /dev/shm) y lanzar más hilos de los que caben; dice en su salida hasta dónde ha llegado.
ACAPARADORA = _solo_en_el_nucleo("""# Para probar: intenta llenarlo todo.
import json, os, threading
from ipykernel.kernelapp import IPKernelApp
hecho, parar = {}, threading.Event()
def _intenta(nombre, f):
    try:
        hecho[nombre] = f()
    except BaseException as e:
        hecho[nombre] = type(e).__name__
def _ficheros(sitio, n=20000):
    for i in range(n):
        open(os.path.join(sitio, "f%d" % i), "w").close()
    return n
def _hilos(n=300):
    for _ in range(n):
        threading.Thread(target=parar.wait, daemon=True).start()
    return n
_intenta("carpeta", lambda: _ficheros("."))
_intenta("tmp", lambda: _ficheros("/tmp"))
_intenta("conexion", lambda: _ficheros(os.path.dirname(IPKernelApp.instance().connection_file)))
_intenta("shm", lambda: _ficheros("/dev/shm", 1))
_intenta("hilos", _hilos)
parar.set()
print("ACAPARADORA", json.dumps(hecho))""")
# Manda por el canal de las salidas (iopub) un solo mensaje de muchas partes, cada una por debajo del tope de una
# parte (MENSAJE_DEL_NUCLEO): zmq lo recibe entero, en la memoria de nbgrader, antes de dárselo a nbclient. Es la
# misma parte repetida (ipykernel no la copia), así que al núcleo no le cuesta nada: sin vigía, nbgrader crecía
# lo que mandase (con 40 partes de 15 MB, hasta 722 MB).
PARTE = limites.MENSAJE_DEL_NUCLEO - limites.MIB
PARTES = 4 * limites.MEMORIA_DE_LOS_MENSAJES // PARTE + 1
MIL_PARTES = _solo_en_el_nucleo("""# Para probar: un mensaje de muchas partes grandes.
import time
k = get_ipython().kernel
parte = b"p" * %d
k.session.send(k.iopub_socket, "stream", {"name": "stdout", "text": "partes"}, buffers=[parte] * %d)
time.sleep(0.5)""" % (PARTE, PARTES))
# Código que el analizador de IPython de Pygments (el del cuaderno) colorea en un tiempo que crece con el cuadrado de
# cada línea: en la respuesta (líneas que aún compilan: más hondas, Python no las compila), y en un bloque de
# código de una salida Markdown, que elige su analizador por su nombre. Sin topes, generate_feedback tardaba en
# pintar solo ese bloque más de un minuto.
LINEA_CUADRATICA = "a." * 2_500 + "a"
BLOQUE_CUADRATICO = "b." * 40_000 + "b"
COLOREADORA = ("\n# Para probar: líneas largas que colorear.\ndef _nunca():\n" + "    x = %s\n" % LINEA_CUADRATICA * 8
               + _solo_en_el_nucleo("from IPython.display import Markdown, display\n"
                                    "display(Markdown('```ipython3\\n%s\\n```'))" % BLOQUE_CUADRATICO))
AÑADIDO_A_LA_RESPUESTA = {"honesta": "", "bucle": BUCLE, "sin_interrupcion": SIN_INTERRUPCION,
                          "dormilona": DORMILONA, "acaparadora": ACAPARADORA, "mil_partes": MIL_PARTES,
                          "coloreadora": COLOREADORA}
# Celdas de la lección (sin marcas de nbgrader) que el curso temporal pone tras la respuesta `ejecutar`:
# rápidas en las demás entregas, de SUEÑO segundos cada una en la dormilona, y sin sitio todas en el cuaderno.
CELDA_DE_LA_LECCION = "# Una celda más de la lección.\nNone\n"
CELDAS_DE_LA_LECCION = int(limites.CUADERNO / SUEÑO) + 2
# Y una, antes de la respuesta, que imprime una línea en dos envíos del núcleo.
CELDA_A_TROZOS = ("# Una línea impresa en dos veces.\nimport time\nprint('primera mitad,', end=' ', flush=True)\n"
                  "time.sleep(0.2)\nprint('segunda mitad')\n")


def _grade_id(celda):
    return celda.metadata.get("nbgrader", {}).get("grade_id", "")


def _del_corrector(celda):
    return _grade_id(celda).startswith(("ejecutar-", "pregunta-")) and celda.metadata["nbgrader"].get("grade")


def _recibido(registro):
    """El código de cada execute_request que ha anotado un núcleo (ipykernel --debug), en orden."""
    return [ast.literal_eval(m) for m in re.findall(r"Content: \{'code': ('(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\")",
                                                    registro)]


def _procesos_con(texto):
    """Los procesos de la máquina cuya línea de órdenes contiene `texto`."""
    encontrados = []
    for proceso in psutil.process_iter(["pid", "cmdline"]):
        orden = " ".join(proceso.info["cmdline"] or ())
        if texto in orden:
            encontrados.append((proceso.info["pid"], orden[:200]))
    return encontrados


@pytest.fixture(scope="module")
def corregido(procesos, tmp_path_factory):
    curso = copiar_curso(tmp_path_factory.mktemp("curso"))
    with open(curso / "nbgrader_config.py", "a") as f:
        f.write('\nc.EjecutarEnJaula.extra_arguments = ["--debug"]  # el núcleo anota cada mensaje que recibe\n'
                # en su stderr, que al corregir va a /dev/null: aquí, al de nbgrader, para leerlo
                'c.NucleoEnJaula.ver_su_salida = True\n')
    # Con el cuestionario calificado, para que también estén las celdas pregunta-* del corrector.
    modo_del_cuestionario(curso, "calificado")
    buenas = soluciones(nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4))
    # La lección del curso temporal, con sus celdas de más tras la respuesta (la release sale de aquí).
    ruta = curso / "source" / TAREA / CUADERNO
    leccion = nbformat.read(ruta, as_version=4)
    tras = next(i for i, c in enumerate(leccion.cells) if _grade_id(c) == "ejecutar") + 1
    leccion.cells[tras:tras] = [new_code_cell(CELDA_DE_LA_LECCION) for _ in range(CELDAS_DE_LA_LECCION)]
    leccion.cells.insert(tras - 1, new_code_cell(CELDA_A_TROZOS))
    nbformat.write(leccion, ruta)
    # Las carpetas de los núcleos van a un /tmp propio (corto: ahí están los sockets), para contarlas aunque
    # otras correcciones de la máquina tengan las suyas.
    temporal = tempfile.mkdtemp(prefix="nucleos-")
    entorno = dict(os.environ, TMPDIR=temporal, PATH=os.pathsep.join([os.path.dirname(sys.executable), os.environ["PATH"]]))
    # La memoria residente máxima de nbgrader autograde, medida desde fuera (getrusage al salir de su proceso).
    medida = curso / "memoria.json"
    medir = ("import atexit, json, resource\n"
             "atexit.register(lambda: json.dump(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, open(%r, 'w')))\n"
             "from nbgrader.apps.nbgraderapp import main\n"
             "main()\n" % str(medida))
    try:
        pasos = {}
        for orden in (["generate_assignment", TAREA, "--force"], ["autograde", TAREA, "--force"],
                      ["generate_feedback", TAREA, "--force"]):
            nbgrader = ["-c", medir] if orden[0] == "autograde" else ["-m", "nbgrader"]
            pasos[orden[0]] = subprocess.run([sys.executable, *nbgrader, *orden], cwd=curso, env=entorno,
                                             capture_output=True, text=True, timeout=900)
            assert pasos[orden[0]].returncode == 0, pasos[orden[0]].stderr[-5000:]
            if orden[0] == "generate_assignment":
                release = curso / "release" / TAREA / CUADERNO
                for estudiante, añadido in AÑADIDO_A_LA_RESPUESTA.items():
                    escribir_entrega(release, dict(buenas, ejecutar=buenas["ejecutar"] + añadido),
                                     curso / "submitted" / estudiante / TAREA)
        restos = os.listdir(temporal)
        procesos = _procesos_con(temporal)
    finally:
        shutil.rmtree(temporal, ignore_errors=True)
    with Gradebook(gradebook(curso)) as gb:
        notas = {e: gb.find_submission(TAREA, e).score for e in AÑADIDO_A_LA_RESPUESTA}
        maximo = gb.find_assignment(TAREA).max_score
    autograded = {e: nbformat.read(curso / "autograded" / e / TAREA / CUADERNO, as_version=4) for e in AÑADIDO_A_LA_RESPUESTA}
    retro = {e: (curso / "feedback" / e / TAREA / CUADERNO.replace(".ipynb", ".html")).read_text(encoding="utf-8")
             for e in AÑADIDO_A_LA_RESPUESTA}
    return {"registro": pasos["autograde"].stderr, "restos": restos, "procesos": procesos, "notas": notas,
            "maximo": maximo, "autograded": autograded, "retro": retro,
            "memoria": json.loads(medida.read_text())}


def buenas_mas(añadido):
    """El código de la respuesta `ejecutar` entregada: la buena y, detrás, `añadido`."""
    return soluciones(nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4))["ejecutar"] + añadido


def _celda(nb, fuente):
    return next(c for c in nb.cells if c.source == fuente)


def _errores(celda):
    return [o for o in celda.outputs if o.output_type == "error"]


# 1. Lo que decide el corrector de confianza no llega nunca al núcleo del estudiante.

def test_las_celdas_del_corrector_no_llegan_al_nucleo(corregido):
    recibido = _recibido(corregido["registro"])
    nb = corregido["autograded"]["honesta"]
    del_corrector = [c for c in nb.cells if c.cell_type == "code" and _del_corrector(c)]
    del_estudiante = [c for c in nb.cells if c.cell_type == "code" and c.source.strip() and not _del_corrector(c)]
    leccion = nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4)
    assert len(del_corrector) == len([c for c in leccion.cells if c.cell_type == "code" and _del_corrector(c)])
    assert len(del_corrector) >= 8 and del_estudiante
    # El registro funciona: cada una de las demás celdas del cuaderno le ha llegado, tal cual.
    faltan = [c.source[:60] for c in del_estudiante if c.source not in recibido]
    assert not faltan, faltan
    # Y de las pruebas, nada: ni la celda entera ni sus llamadas, en ninguno de los cuatro núcleos.
    assert not [c.source[:60] for c in del_corrector if c.source in recibido]
    assert not [codigo[:80] for codigo in recibido if "comprobar(" in codigo or "corregir(" in codigo]


def test_las_celdas_del_corrector_tienen_su_veredicto(corregido):
    for estudiante, nota in corregido["notas"].items():
        assert nota == corregido["maximo"], (estudiante, nota)
    nb = corregido["autograded"]["honesta"]
    for celda in filter(_del_corrector, nb.cells):
        # Una sola salida, la del veredicto: nada que venga del núcleo.
        assert [o.output_type for o in celda.outputs] == ["stream"] and celda.outputs[0].text.strip(), celda.source[:60]


# 2. Una interrupción llega al núcleo dentro de la jaula, y no queda nada de él.

def test_la_interrupcion_llega_al_nucleo_y_este_sigue(corregido):
    nb = corregido["autograded"]["bucle"]
    errores = _errores(_celda(nb, buenas_mas(BUCLE)))
    # KeyboardInterrupt lo lanza el núcleo al recibir la interrupción; después, el motivo en español.
    assert [e.ename for e in errores] == ["KeyboardInterrupt", "TiempoAgotado"], errores
    assert "no ha terminado en %s y se ha interrumpido" % en_segundos(limites.CELDA) in errores[1].evalue
    # El núcleo sigue vivo y con su estado: la última celda usa el ejecutar de la respuesta y sale bien.
    # (Sin contar la sección optativa del modelo de verdad, que sin clave no usa ejecutar.)
    ultima = [c for c in nb.cells if c.cell_type == "code" and not c.get("id", "").startswith("modelo-de-verdad")][-1]
    assert "ejecutar" in ultima.source and ultima.outputs and not _errores(ultima), ultima.outputs


def test_la_retroalimentacion_dice_por_que_se_ha_interrumpido(corregido):
    texto = re.sub(r"<[^>]+>", "", corregido["retro"]["bucle"])
    assert "no ha terminado en %s y se ha interrumpido" % en_segundos(limites.CELDA) in texto
    assert "KeyboardInterrupt" in texto
    assert str(RAIZ) not in texto  # ninguna ruta del servidor


def test_una_traza_no_ensena_las_carpetas_del_servidor():
    """La traza de IPython de un fallo dentro de harness/, de una biblioteca y de la de Python: sin la carpeta
    del servidor, con el fichero y la línea. (Las celdas del estudiante salen como «Cell In[N]», sin ruta.)"""
    import json

    import IPython.core.ultratb
    import nbformat.validator

    from course.aislado.corrector import _sin_rutas_del_servidor
    from harness import ENTORNO, leer

    for fallar, fichero in [(lambda: leer(ENTORNO, "no/existe.txt"), "harness/entorno.py"),
                            (lambda: nbformat.validator.get_validator(version=999), "site-packages/nbformat/"),
                            (lambda: json.loads("{"), "python%d.%d/json/" % sys.version_info[:2])]:
        try:
            fallar()
        except Exception as fallo:
            e, traza = fallo, fallo.__traceback__
        while traza.tb_frame.f_code.co_filename == __file__:  # sin los marcos de esta prueba
            traza = traza.tb_next
        formateada = IPython.core.ultratb.AutoFormattedTB(mode="Context", theme_name="linux").structured_traceback(
            type(e), e, traza)
        limpia = "\n".join(_sin_rutas_del_servidor(t) for t in formateada)
        assert fichero in limpia, limpia
        assert not re.search(r"/\S*/" + re.escape(fichero), limpia), limpia
        assert str(RAIZ) not in limpia and sys.prefix not in limpia and sys.base_prefix not in limpia, limpia


def test_un_nucleo_que_no_se_deja_interrumpir_se_da_por_perdido(corregido):
    nb = corregido["autograded"]["sin_interrupcion"]
    errores = _errores(_celda(nb, buenas_mas(SIN_INTERRUPCION)))
    assert errores and "No se ha parado ni al interrumpirla" in errores[-1].evalue, errores
    # (Sin contar la sección optativa del modelo de verdad, que sin clave no usa ejecutar.)
    ultima = [c for c in nb.cells if c.cell_type == "code" and not c.get("id", "").startswith("modelo-de-verdad")][-1]
    assert ultima.outputs[0].text.startswith("(sin ejecutar: una celda anterior no se ha parado"), ultima.outputs
    assert "No se ha parado ni al interrumpirla" in re.sub(r"<[^>]+>", "", corregido["retro"]["sin_interrupcion"])


def test_no_queda_nada_de_los_nucleos(corregido):
    assert corregido["restos"] == []
    assert corregido["procesos"] == []


# 3. El cuaderno entero tiene un tiempo, además de cada celda.

def test_muchas_celdas_dentro_de_su_tope_agotan_el_tiempo_del_cuaderno(corregido):
    nb = corregido["autograded"]["dormilona"]
    # La respuesta (que registra el sueño) corre entera y deprisa; cada celda de la lección tras ella duerme.
    assert not _errores(_celda(nb, buenas_mas(DORMILONA)))
    dormidas = [c for c in nb.cells if c.source == CELDA_DE_LA_LECCION]
    assert len(dormidas) == CELDAS_DE_LA_LECCION
    ejecutadas = [c for c in dormidas if not c.outputs]
    cortada = [c for c in dormidas if _errores(c)]
    sin_ejecutar = [c for c in dormidas if c.outputs and c.outputs[0].get("text", "").startswith("(sin ejecutar")]
    # Cada una cabe en su tope; todas juntas no caben en el del cuaderno: se interrumpe una y las demás no corren.
    assert ejecutadas and len(cortada) <= 1 and sin_ejecutar, [c.outputs for c in dormidas]
    assert len(ejecutadas) + len(cortada) + len(sin_ejecutar) == len(dormidas)
    assert "se ha acabado el tiempo del cuaderno (%s" % en_segundos(limites.CUADERNO) in sin_ejecutar[0].outputs[0].text
    if cortada:
        assert "Se ha acabado el tiempo del cuaderno" in _errores(cortada[0])[-1].evalue
    else:
        # Ninguna a medias: el tiempo se ha acabado justo entre dos celdas (una vez de cada pocas decenas, la
        # pausa entre celdas son milésimas). La última que ha corrido ha acabado, entonces, al filo del tope.
        ejecucion = [c.metadata["execution"] for c in nb.cells if "execution" in c.metadata]
        reloj = [_instante(e["iopub.execute_input"]) for e in ejecucion] + [_instante(e["shell.execute_reply"]) for e in ejecucion]
        assert limites.CUADERNO - 0.2 < max(reloj) - min(reloj) <= limites.CUADERNO + 0.2, (min(reloj), max(reloj))


def _instante(marca):
    """Segundos de una marca de tiempo de nbclient (ISO 8601, en UTC)."""
    return datetime.datetime.fromisoformat(marca.replace("Z", "+00:00")).timestamp()


# 4. Lo que se imprime llega en trozos, según el ritmo del núcleo; el cuaderno corregido lo junta.

def test_una_linea_impresa_en_dos_envios_queda_en_una_salida(corregido):
    for estudiante, nb in corregido["autograded"].items():
        celda = _celda(nb, CELDA_A_TROZOS)
        assert [(o.output_type, o.name, o.text) for o in celda.outputs] == [
            ("stream", "stdout", "primera mitad, segunda mitad\n")], (estudiante, celda.outputs)


# 4. Lo que gasta el núcleo se queda en los topes de su jaula, y no cambia ninguna nota.

def test_un_nucleo_que_intenta_llenarlo_todo_se_queda_en_sus_topes(corregido):
    celda = _celda(corregido["autograded"]["acaparadora"], buenas_mas(ACAPARADORA))
    salida = "".join(o.get("text", "") for o in celda.outputs)
    hecho = json.loads(salida.split("ACAPARADORA", 1)[1])
    # Ningún sitio se deja llenar entero, /dev/shm no existe y los hilos paran en el tope de tareas.
    assert hecho == {"carpeta": "OSError", "tmp": "OSError", "conexion": "OSError", "shm": "FileNotFoundError",
                     "hilos": "RuntimeError"}, salida
    assert corregido["notas"]["acaparadora"] == corregido["notas"]["honesta"] == corregido["maximo"]


# 5. Lo que manda el núcleo no hace crecer sin fin la memoria de quien corrige.

def test_un_mensaje_de_mil_partes_no_llena_la_memoria_de_nbgrader(corregido):
    """El tope de zmq es por parte; un vigía mira cuánto crece nbgrader mientras vive el núcleo y lo para.
    Sin él, nbgrader llegaba a PARTES × PARTE (más de 1 GB); con él, a lo que pesa (unos 200 MB) y el tope."""
    assert PARTES * PARTE > 4 * limites.MEMORIA_DE_LOS_MENSAJES
    assert corregido["memoria"] < limites.MEMORIA_DE_LOS_MENSAJES + 512 * limites.MIB, (
        "nbgrader ha llegado a %d MB" % (corregido["memoria"] // limites.MIB))
    # La entrega dice por qué se ha parado su núcleo; su respuesta es buena y la nota la pone el corrector.
    nb = corregido["autograded"]["mil_partes"]
    textos = "".join(o.get("text", "") + o.get("evalue", "") for c in nb.cells if c.cell_type == "code"
                     for o in c.outputs)
    assert "ha mandado mensajes que ocupaban más de %d MB" % (limites.MEMORIA_DE_LOS_MENSAJES // limites.MIB) in textos
    assert corregido["notas"]["mil_partes"] == corregido["notas"]["honesta"] == corregido["maximo"]


# 6. Colorear el código de una entrega en su retroalimentación no cuesta lo que ella quiera.

def test_el_codigo_que_tarda_en_colorearse_sale_sin_colores_y_lo_demas_con_ellos(corregido):
    retro = corregido["retro"]["coloreadora"]
    # Las dos cosas están, enteras y sin pasar por Pygments (que pondría cada elemento en su <span>).
    assert LINEA_CUADRATICA in retro and BLOQUE_CUADRATICO in retro
    assert corregido["notas"]["coloreadora"] == corregido["maximo"]
    # El resto del código de la lección, y el de la respuesta honesta, sí se colorea (como Python).
    assert '<span class="nf">ejecutar</span>' in corregido["retro"]["honesta"]
