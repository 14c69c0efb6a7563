"""Un modelo de verdad (harness.aula.ModeloClaude) por el SDK oficial, contra una API de Mensajes de mentira en 127.0.0.1.

El SDK es el de verdad (`anthropic`), con sus reintentos y sus errores; lo de mentira es solo la
API (tests/api_local.py), que contesta lo que dice su plan y apunta lo que le llega. Además: la orden
del profesor que graba conversaciones como guiones, el corrector que las usa como pruebas ocultas
(con `nbgrader autograde` de verdad) y la sección optativa de la lección, que sin clave no hace nada
y con clave espera a que se pulse su botón.
"""

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import nbformat
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from nbgrader.api import Gradebook
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell
from pydantic import TypeAdapter

from api_local import ApiLocal, fallo, mensaje
from course import CUADERNO, RAIZ, TAREA, gradebook, grabaciones
from course.entregas import escribir_entrega, soluciones
from cursos import MAXIMO
from harness import (ENTORNO, HERRAMIENTAS, ModeloGuionizado, bucle, error, guion_de, leer, llamada, problemas,
                     resultado, texto)
from harness.aula import claude as claude_
from harness.aula.claude import (REINTENTOS, TOPE, ModeloClaude, NoSeEnvia, RespuestaCortada, SinRespuesta, conversar,
                                 guion_desde, que_falta)
from harness.revision import NoCumple, conversaciones
from harness.salmorejo import FINAL, INICIO, RESPUESTAS, VISTO
from nucleos import NucleoPorFicheros
from referencia import ejecutar_a_medias, ejecutar_correcto

CLAVE = "clave-de-prueba"
MODELO = "claude-de-prueba"
RELEASE = RAIZ / "release" / TAREA / CUADERNO
SECCION = "modelo-de-verdad"

# Una conversación que se graba con la orden del profesor: un turno con dos llamadas (una falla), y una escritura.
PETICION = "¿Qué recetas llevan huevos? Apúntalo en notas/cena.txt."
NOTA = ENTORNO["notas/cena.txt"] + "\nLa tortilla lleva huevos."
HUEVOS = [
    [texto("Busco los huevos y leo la nota."), llamada("toolu_01", "buscar", patron="huevos"),
     llamada("toolu_02", "leer", ruta="notas/cena")],
    [llamada("toolu_03", "listar", carpeta="notas/")],
    [llamada("toolu_04", "escribir", ruta="notas/cena.txt", contenido=NOTA)],
    [texto("Apuntado: la tortilla lleva huevos.")],
]
# Una respuesta que solo se equivoca con una llamada que sale en esa conversación y en ninguna otra prueba.
RARA = '''
def ejecutar(llamada, entorno):
    motivo = incumple(llamada)
    if motivo is not None:
        return error(llamada["id"], "no se ha ejecutado: " + motivo)
    if llamada["input"] == {"patron": "huevos"}:
        return resultado(llamada["id"], "")
    try:
        return resultado(llamada["id"], FUNCIONES[llamada["name"]](entorno, **llamada["input"]))
    except Exception as e:
        return error(llamada["id"], str(e) or type(e).__name__)
'''


@pytest.fixture
def api(monkeypatch):
    """La API de mentira, y el entorno que lee el SDK apuntando a ella."""
    with ApiLocal() as servidor:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", servidor.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", CLAVE)
        yield servidor


def _como_la_api(M):
    """La conversación M como la espera la API: el sistema aparte, los roles en inglés, los bloques igual."""
    roles = {"usuario": "user", "asistente": "assistant"}
    return [{"role": roles[rol], "content": c} for rol, c in M if rol != "sistema"]


def _valida_para_el_sdk(peticion):
    """Cada bloque y cada herramienta de una petición, validados (estrictos) con los tipos del propio SDK."""
    from anthropic.types import TextBlockParam, ToolParam, ToolResultBlockParam, ToolUseBlockParam
    tipos = {"text": TextBlockParam, "tool_use": ToolUseBlockParam, "tool_result": ToolResultBlockParam}
    for m in peticion["messages"]:
        assert m["role"] in ("user", "assistant")
        for bloque in [] if isinstance(m["content"], str) else m["content"]:
            TypeAdapter(tipos[bloque["type"]]).validate_python(bloque, strict=True)
    TypeAdapter(list[ToolParam]).validate_python(peticion["tools"], strict=True)


# --------------------------------------------------------------------------- el modelo, por el SDK

def test_la_traza_del_salmorejo_por_el_sdk(api):
    api.plan = [mensaje(r, entrada=1000 + 100 * i, salida=30) for i, r in enumerate(RESPUESTAS)]
    claude = ModeloClaude(MODELO)
    entorno = dict(ENTORNO)
    assert bucle(claude, INICIO, entorno, 10, ejecutar_correcto) == ("fin", FINAL, bucle(
        ModeloGuionizado(guion_de(INICIO, RESPUESTAS, VISTO)), INICIO, dict(ENTORNO), 10, ejecutar_correcto)[2])
    assert entorno == ENTORNO
    assert claude.turno == 4 and claude.tokens == {"entrada": 4600, "salida": 120}
    assert claude.entrada_por_turno == [1000, 1100, 1200, 1300]
    # Cada petición lleva la conversación que espera el guion en ese turno, el sistema aparte y las cuatro herramientas.
    assert len(api.recibidas) == 4
    for (esperada, _), peticion, cabeceras in zip(guion_de(INICIO, RESPUESTAS, VISTO), api.recibidas, api.cabeceras):
        assert peticion["model"] == MODELO and peticion["max_tokens"] == 1024
        assert peticion["system"] == INICIO[0][1]
        assert peticion["messages"] == _como_la_api(esperada)
        assert peticion["tools"] == HERRAMIENTAS
        assert CLAVE in (cabeceras.get("x-api-key"), cabeceras.get("authorization", "").removeprefix("Bearer "))
        _valida_para_el_sdk(peticion)


def test_un_turno_con_varias_llamadas_va_en_un_solo_mensaje(api):
    turno = [llamada("a", "leer", rutas=["lista.txt"]), llamada("b", "leer", ruta="recetas/paella.txt"),
             llamada("c", "buscar", patron="chocolate"), llamada("d", "leer", ruta="lista.txt")]
    api.plan = [mensaje(turno), mensaje([texto("Hecho.")])]
    como, dicho, M = bucle(ModeloClaude(MODELO), INICIO, dict(ENTORNO), 5, ejecutar_correcto)
    assert (como, dicho) == ("fin", "Hecho.")
    observaciones = [error("a", "no se ha ejecutado: falta el campo 'ruta'"),
                     error("b", "no existe el fichero 'recetas/paella.txt'"),
                     resultado("c", "ninguna línea contiene 'chocolate'"), resultado("d", ENTORNO["lista.txt"])]
    assert api.recibidas[1]["messages"][-1] == {"role": "user", "content": observaciones}
    assert api.recibidas[1]["messages"][-2] == {"role": "assistant", "content": turno}
    _valida_para_el_sdk(api.recibidas[1])


def test_una_respuesta_cortada_por_max_tokens_no_es_una_respuesta(api, tmp_path):
    a_medias = [texto("Voy a leer la receta y"), {"type": "tool_use", "id": "t1", "name": "leer", "input": {}}]
    api.plan = [mensaje(RESPUESTAS[0]), mensaje(a_medias, stop_reason="max_tokens", entrada=700, salida=64)]
    grabada = tmp_path / "cortada.json"
    claude = ModeloClaude(MODELO, max_tokens=64, grabar=grabada)
    with pytest.raises(RespuestaCortada) as cortada:
        bucle(claude, INICIO, dict(ENTORNO), 10, ejecutar_correcto)
    assert "turno 2" in str(cortada.value) and "max_tokens=64" in str(cortada.value)
    assert claude.turno == 1 and claude.tokens == {"entrada": 800, "salida": 84}  # lo cortado también se paga
    assert claude.entrada_por_turno == [100, 700]
    assert len(guion_desde(grabada)) == 1  # y no se graba


@pytest.mark.parametrize("codigo, tipo, dice", [(429, "rate_limit_error", "más despacio"),
                                                (500, "api_error", "por su lado")])
def test_los_errores_de_la_api_se_reintentan_y_luego_se_dicen_en_espanol(api, codigo, tipo, dice):
    # Con uno menos que los reintentos del SDK, la conversación sigue como si nada.
    api.plan = [fallo(codigo, tipo, "Prueba")] * REINTENTOS + [mensaje(r) for r in RESPUESTAS]
    assert bucle(ModeloClaude(MODELO), INICIO, dict(ENTORNO), 10, ejecutar_correcto)[:2] == ("fin", FINAL)
    assert len(api.recibidas) == REINTENTOS + 4
    # Con uno más, el SDK se rinde y el modelo lanza su excepción, en español y con lo que dice la API.
    api.plan, api.recibidas = [fallo(codigo, tipo, "Prueba")] * (REINTENTOS + 1), []
    with pytest.raises(SinRespuesta) as sin:
        ModeloClaude(MODELO)(INICIO, HERRAMIENTAS)
    assert len(api.recibidas) == REINTENTOS + 1
    assert "(%d)" % codigo in str(sin.value) and dice in str(sin.value) and "La API dice: Prueba" in str(sin.value)


def test_una_clave_que_no_vale_no_se_reintenta(api):
    api.plan = [fallo(401, "authentication_error", "invalid x-api-key")]
    with pytest.raises(SinRespuesta, match="no acepta la clave de ANTHROPIC_API_KEY"):
        ModeloClaude(MODELO)(INICIO, HERRAMIENTAS)
    assert len(api.recibidas) == 1


def test_grabar_y_reproducir_sin_red(api, tmp_path):
    api.plan = [mensaje(r) for r in RESPUESTAS]
    grabada = tmp_path / "salmorejo.json"
    bucle(ModeloClaude(MODELO, grabar=grabada), INICIO, dict(ENTORNO), 10, ejecutar_correcto)
    datos = json.loads(grabada.read_text(encoding="utf-8"))
    assert datos["modelo"] == MODELO and [t["recibida"] for t in datos["turnos"]] == RESPUESTAS
    # El guion grabado es, exactamente, el de la lección; y se reproduce sin la API.
    guion = guion_desde(grabada)
    assert guion == guion_de(INICIO, RESPUESTAS, VISTO)
    api.plan = []
    assert bucle(ModeloGuionizado(guion), INICIO, dict(ENTORNO), 10, ejecutar_correcto)[:2] == ("fin", FINAL)
    a_medias = ModeloGuionizado(guion)
    with pytest.raises(FileNotFoundError):
        bucle(a_medias, INICIO, dict(ENTORNO), 10, ejecutar_a_medias)
    assert a_medias.turno == 2 and api.recibidas[4:] == []


_RUTA = st.sampled_from(["lista.txt", "notas/cena.txt", "recetas/", "recetas/salmorejo.txt", "nueva.txt", ""])
_TEXTO = st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=30)
_FRASE = _TEXTO.filter(str.strip)  # la API no acepta un bloque de texto solo con espacios
_ENTRADA = st.dictionaries(st.sampled_from(["ruta", "carpeta", "patron", "contenido", "rutas"]),
                           st.one_of(_RUTA, _TEXTO, st.integers(), st.none(), st.lists(_RUTA, max_size=2)), max_size=3)


@st.composite
def turnos_inventados(draw):
    """Los turnos de un modelo cualquiera: llamadas buenas y malas, a herramientas que existen y a otras; el último, solo texto."""
    turnos, n = [], draw(st.integers(1, 4))
    for i in range(n - 1):
        llamadas = [{"type": "tool_use", "id": "toolu_%d_%d" % (i, j), "input": draw(_ENTRADA),
                     "name": draw(st.sampled_from(["leer", "listar", "buscar", "escribir", "borrar"]))}
                    for j in range(draw(st.integers(1, 3)))]
        turnos.append(([texto(draw(_FRASE))] if draw(st.booleans()) else []) + llamadas)
    return turnos + [[texto(draw(_FRASE))]]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(turnos=turnos_inventados(), peticion=_FRASE)
def test_cualquier_conversacion_grabada_se_reproduce_igual(api, turnos, peticion):
    """Grabada por el SDK y reproducida sin red, da la misma conversación, el mismo final y los mismos ficheros."""
    api.plan, api.recibidas = [mensaje(t) for t in turnos], []
    inicio = [INICIO[0], ("usuario", peticion)]
    with tempfile.TemporaryDirectory() as carpeta:
        ruta = Path(carpeta) / "grabada.json"
        en_vivo, reproducido = dict(ENTORNO), dict(ENTORNO)
        como, dicho, M = bucle(ModeloClaude(MODELO, grabar=ruta), inicio, en_vivo, len(turnos), ejecutar_correcto)
        assert [b for rol, c in M if rol == "asistente" for b in c] == [b for t in turnos for b in t]
        assert bucle(ModeloGuionizado(guion_desde(ruta)), inicio, reproducido, len(turnos),
                     ejecutar_correcto) == (como, dicho, M)
        assert reproducido == en_vivo
        # Y vale como conversación oculta, con el final y los ficheros de la conversación en vivo.
        assert grabaciones.conversacion_oculta(ruta)[4:] == ((como, dicho), en_vivo)


# --------------------------------------------------------------------------- lo que la API no acepta

def _hasta_el_ultimo_turno(turnos, peticion):
    """La conversación que recibe el modelo antes de su último turno, contestada con el ejecutar de referencia."""
    M, entorno = [INICIO[0], ("usuario", peticion)], dict(ENTORNO)
    for turno in turnos[:-1]:
        M += [("asistente", turno), ("usuario", [ejecutar_correcto(b, entorno) for b in turno if b["type"] == "tool_use"])]
    return M


def _observaciones(M):
    """(mensaje, bloque) de cada tool_result de M."""
    return [(i, j) for i, (rol, c) in enumerate(M) if rol == "usuario" and isinstance(c, list)
            for j, b in enumerate(c) if b["type"] == "tool_result"]


def _cambia(M, i, bloques):
    return M[:i] + [("usuario", bloques)] + M[i + 1:]


# Cada manera de estropear una conversación bien contestada: (M, dónde) → (la conversación rota, lo que dice la API).
def _sin_una(M, i, j):
    if len(M[i][1]) == 1:  # sin la única, el mensaje se queda vacío, y eso ya no lo acepta
        return _cambia(M, i, []), "all messages must have non-empty content"
    return _cambia(M, i, M[i][1][:j] + M[i][1][j + 1:]), "without `tool_result` blocks immediately after"


def _vacia(M, i, j):
    b = M[i][1][j]
    dice = "content cannot be empty if `is_error` is true" if b["is_error"] else "without `tool_result` blocks"
    return _cambia(M, i, M[i][1][:j] + [dict(b, content="")] + M[i][1][j + 1:]), dice


def _texto_delante(M, i, j):
    return _cambia(M, i, [texto("Aquí tienes:")] + M[i][1]), "Did not find"


def _repetida(M, i, j):
    return _cambia(M, i, M[i][1] + [M[i][1][j]]), "Found multiple `tool_result` blocks"


def _de_otra_llamada(M, i, j):
    return _cambia(M, i, M[i][1][:j] + [dict(M[i][1][j], tool_use_id="toolu_ajena")] + M[i][1][j + 1:]), \
        "unexpected `tool_use_id`"


def _un_mensaje_en_medio(M, i, j):
    return M[:i] + [("usuario", "Sigue, por favor.")] + M[i:], "Did not find"


def _sin_el_mensaje(M, i, j):
    assume(i != len(M) - 1)  # sin el último, la conversación acabaría en el modelo: eso es otra cosa (prefill)
    return M[:i] + M[i + 1:], "without `tool_result` blocks immediately after"


ESTROPEAR = [_sin_una, _vacia, _texto_delante, _repetida, _de_otra_llamada, _un_mensaje_en_medio, _sin_el_mensaje]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(turnos=turnos_inventados().filter(lambda t: len(t) > 1), peticion=_FRASE, datos=st.data())
def test_la_api_local_rechaza_lo_que_rechaza_la_de_verdad_y_problemas_lo_ve(api, turnos, peticion, datos):
    """Una conversación bien contestada pasa; estropeada de cualquiera de esas maneras, la API local la rechaza
    (400, con el mensaje de la API de verdad) y problemas(M) lo dice; ModeloClaude ni la manda: dice qué
    observación es, en español, en vez de un 400 que parecería culpa del modelo."""
    import anthropic
    M = _hasta_el_ultimo_turno(turnos, peticion)
    api.plan, api.recibidas, api.rechazadas = [mensaje([texto("Hecho.")])], [], []
    assert problemas(M) == []
    assert ModeloClaude(MODELO)(M, HERRAMIENTAS) == [texto("Hecho.")]
    estropear = datos.draw(st.sampled_from(ESTROPEAR), label="estropear")
    rota, dice = estropear(M, *datos.draw(st.sampled_from(_observaciones(M)), label="observación"))
    assert problemas(rota), rota
    with pytest.raises(anthropic.BadRequestError):  # la petición tal cual, por el SDK, sin ModeloClaude
        anthropic.Anthropic(max_retries=0).messages.create(**claude_.peticion(rota, HERRAMIENTAS, MODELO))
    assert len(api.rechazadas) == 1 and dice in api.rechazadas[0]
    with pytest.raises(NoSeEnvia, match=r"observación|llamada"):
        ModeloClaude(MODELO)(rota, HERRAMIENTAS)
    assert len(api.recibidas) == 2 and len(api.rechazadas) == 1  # ModeloClaude no la ha mandado


def test_lo_que_junta_la_api_no_se_rechaza_antes_de_mandarlo(api):
    """La API junta los mensajes seguidos del mismo rol: dos mensajes del usuario, cada uno con una observación
    del mismo turno, los acepta, y ModeloClaude también los manda (es problemas(M) el que pide uno solo)."""
    turno = [llamada("a", "leer", ruta="lista.txt"), llamada("b", "listar", carpeta="recetas/")]
    M = INICIO + [("asistente", turno), ("usuario", [ejecutar_correcto(turno[0], dict(ENTORNO))]),
                  ("usuario", [ejecutar_correcto(turno[1], dict(ENTORNO))])]
    assert problemas(M)
    api.plan = [mensaje([texto("Hecho.")])]
    assert ModeloClaude(MODELO)(M, HERRAMIENTAS) == [texto("Hecho.")] and api.rechazadas == []


class _DiscoMudo(dict):
    """ENTORNO en un disco que, al leer, lanza un RuntimeError sin mensaje."""

    def __getitem__(self, ruta):
        raise RuntimeError()


def test_un_error_vacio_no_se_manda_y_el_nombre_del_tipo_si(api):
    """El contrato de antes, error(id, str(e)) también con str(e) vacío: la API lo rechazaría (400), y ModeloClaude
    ni lo manda; dice que la observación está vacía. Con el nombre del tipo, la conversación sigue."""
    def con_str_e(ll, entorno):
        try:
            return resultado(ll["id"], leer(entorno, **ll["input"]))
        except Exception as e:
            return error(ll["id"], str(e))

    turnos = [[llamada("toolu_1", "leer", ruta="lista.txt")], [texto("No he podido leerla.")]]
    api.plan = [mensaje(t) for t in turnos]
    with pytest.raises(NoSeEnvia, match="la observación de toolu_1 está vacía, y la API no acepta un tool_result sin contenido"):
        bucle(ModeloClaude(MODELO), INICIO, _DiscoMudo(ENTORNO), 5, con_str_e)
    assert len(api.recibidas) == 1 and api.rechazadas == []
    api.plan = [mensaje(t) for t in turnos]
    como, dicho, M = bucle(ModeloClaude(MODELO), INICIO, _DiscoMudo(ENTORNO), 5, ejecutar_correcto)
    assert (como, dicho) == ("fin", "No he podido leerla.") and M[-2] == ("usuario", [error("toolu_1", "RuntimeError")])
    assert api.recibidas[-1]["messages"][-1]["content"] == [error("toolu_1", "RuntimeError")]


@pytest.mark.usefixtures("procesos")
def test_harness_se_importa_sin_anthropic():
    """Como en Pyodide: sin el paquete anthropic, harness se importa igual; solo falla crear un ModeloClaude."""
    codigo = ("import sys\nsys.modules['anthropic'] = None  # así `import anthropic` lanza ImportError\n"
              "import harness, harness.aula, harness.revision\n"
              "from harness.aula import que_falta\n"
              "print(que_falta())\n"
              "try:\n    harness.aula.ModeloClaude('x')\nexcept ImportError:\n    print('sin SDK')\n")
    hecho = subprocess.run([sys.executable, "-c", codigo], capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, ANTHROPIC_API_KEY=CLAVE))
    assert hecho.returncode == 0, hecho.stderr
    assert hecho.stdout.splitlines() == ["Falta el paquete anthropic (el SDK oficial): instálalo con pip install anthropic.",
                                         "sin SDK"]


def test_sin_clave_se_dice_como_conseguirla(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)
    assert "ANTHROPIC_API_KEY" in que_falta() and "https://console.anthropic.com" in que_falta()
    # El núcleo hereda las variables del servidor de JupyterLab: reiniciarlo no basta, y el mensaje lo dice.
    assert "abre JupyterLab desde esa misma terminal" in que_falta() and "reiniciar el núcleo no basta" in que_falta()
    with pytest.raises(SinRespuesta, match="falta la variable de entorno ANTHROPIC_API_KEY"):
        ModeloClaude(MODELO)


def test_sin_red_se_dice_en_espanol(monkeypatch):
    with ApiLocal() as cerrada:  # un puerto que ya no escucha nadie
        monkeypatch.setenv("ANTHROPIC_BASE_URL", cerrada.url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAVE)
    with pytest.raises(SinRespuesta, match="no se ha podido hablar con la API .*conexión a internet"):
        ModeloClaude(MODELO)(INICIO, HERRAMIENTAS)


def test_un_turno_en_pausa_se_sigue_y_no_se_toma_por_entero(api, tmp_path):
    """pause_turn: el turno se manda tal cual, sin nada detrás, y lo que llega lo completa; nunca es el final."""
    primera, resto = [texto("Voy a leer la receta.")], [llamada("t1", "leer", rutas=["recetas/salmorejo.txt", "lista.txt"])]
    api.plan = [mensaje(primera, stop_reason="pause_turn", entrada=100), mensaje(resto, entrada=150)]
    grabada = tmp_path / "pausa.json"
    claude = ModeloClaude(MODELO, grabar=grabada)
    assert claude(INICIO, HERRAMIENTAS) == primera + resto
    assert api.recibidas[1]["messages"] == _como_la_api(INICIO) + [{"role": "assistant", "content": primera}]
    assert claude.turno == 1 and claude.entrada_por_turno == [250]
    assert guion_desde(grabada) == [(INICIO, primera + resto)]
    # Un turno que sigue en pausa tras todas las continuaciones no se da por bueno.
    api.plan, api.recibidas = [mensaje(primera, stop_reason="pause_turn")] * (1 + claude_.CONTINUACIONES), []
    with pytest.raises(SinRespuesta, match="pause_turn"):
        ModeloClaude(MODELO)(INICIO, HERRAMIENTAS)
    assert len(api.recibidas) == 1 + claude_.CONTINUACIONES


@pytest.mark.parametrize("motivo, excepcion, dice", [
    ("model_context_window_exceeded", RespuestaCortada, "ventana de contexto"),
    ("refusal", SinRespuesta, "se ha negado"),
    ("algo_nuevo", SinRespuesta, "motivo que esta lección no conoce"),
])
def test_un_turno_que_no_acaba_entero_no_es_un_turno(api, tmp_path, motivo, excepcion, dice):
    api.plan = [mensaje([texto("Lo que falta para el salmorejo es")], stop_reason=motivo)]
    grabada = tmp_path / "cortada.json"
    claude = ModeloClaude(MODELO, grabar=grabada)
    with pytest.raises(excepcion, match=dice):
        bucle(claude, INICIO, dict(ENTORNO), 10, ejecutar_correcto)
    assert claude.turno == 0 and not grabada.exists()


def test_una_peticion_que_no_llega_a_tiempo_se_dice_sin_repetirla(monkeypatch):
    """Una API que acepta la conexión y no contesta: el mensaje es el suyo, tras una sola petición."""
    conexiones = []
    with socket.create_server(("127.0.0.1", 0)) as servidor:
        def aceptar():
            with contextlib.suppress(OSError):
                while True:
                    conexiones.append(servidor.accept()[0])
        threading.Thread(target=aceptar, daemon=True).start()
        monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:%d" % servidor.getsockname()[1])
        monkeypatch.setenv("ANTHROPIC_API_KEY", CLAVE)
        monkeypatch.setattr(claude_, "ESPERA", 0.5)
        with pytest.raises(SinRespuesta, match="no ha contestado en 0,5 segundos") as sin:
            ModeloClaude(MODELO)(INICIO, HERRAMIENTAS)
    assert "conexión" not in str(sin.value) and len(conexiones) == 1
    for conexion in conexiones:
        conexion.close()


def test_con_un_token_en_lugar_de_clave_tambien_se_habla_con_la_api(api, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", CLAVE)
    assert que_falta() is None
    api.plan = [mensaje(RESPUESTAS[0])]
    assert ModeloClaude(MODELO)(INICIO, HERRAMIENTAS) == RESPUESTAS[0]
    assert api.cabeceras[0].get("authorization") == "Bearer " + CLAVE


def test_una_observacion_que_no_es_json_no_se_manda_y_se_dice_cual(api):
    M = INICIO + [("asistente", [llamada("t2", "leer", ruta="recetas/salmorejo.txt")]),
                  ("usuario", [error("t2", FileNotFoundError("no existe el fichero 'recetas/salmorejo.txt'"))])]
    with pytest.raises(NoSeEnvia, match="la observación de t2 lleva algo que no se puede escribir en JSON"):
        ModeloClaude(MODELO)(M, HERRAMIENTAS)
    assert api.recibidas == []


def _conversa(capsys, ejecutar, tope=TOPE):
    conversar(INICIO[1][1], ejecutar, tope=tope)
    return capsys.readouterr().out


def test_conversar_culpa_a_tu_ejecutar_solo_de_lo_que_sale_de_el(api, capsys):
    api.plan = [mensaje(RESPUESTAS[0]), mensaje(RESPUESTAS[1])]
    dicho = _conversa(capsys, ejecutar_a_medias)
    assert "✘ La conversación se corta después del turno 2 del modelo: tu ejecutar ha dejado salir FileNotFoundError" in dicho
    # Un error cuyo contenido es la excepción misma: no sale nada de ejecutar, pero no se puede mandar a la API.
    def con_la_excepcion(ll, entorno):
        try:
            return ejecutar_correcto(ll, entorno) if ll["id"] != "t2" else leer(entorno, **ll["input"])
        except FileNotFoundError as e:
            return error(ll["id"], e)
    api.plan = [mensaje(RESPUESTAS[0]), mensaje(RESPUESTAS[1])]
    dicho = _conversa(capsys, con_la_excepcion)
    assert ("✘ La conversación se corta después del turno 2 del modelo: la contestación de tu ejecutar no se puede "
            "mandar a la API, que rechazaría la petición entera: la observación de t2 lleva algo que no se puede "
            "escribir en JSON") in dicho
    assert "ha dejado salir" not in dicho and "El modelo no ha dado" not in dicho
    # Un error vacío (str(e) de una excepción sin mensaje) tampoco es del modelo ni de la API: es la observación.
    for contenido, dice in (("", "la observación de t1 está vacía, y la API no acepta un tool_result sin contenido"),
                            (42, "el contenido de la observación de t1 es int, y la API solo acepta un texto")):
        api.plan, api.recibidas = [mensaje(RESPUESTAS[0]), mensaje(RESPUESTAS[1])], []
        dicho = _conversa(capsys, lambda ll, entorno: dict(ejecutar_correcto(ll, entorno), content=contenido))
        assert ("✘ La conversación se corta después del turno 1 del modelo: la contestación de tu ejecutar no se "
                "puede mandar a la API, que rechazaría la petición entera: " + dice) in dicho, dicho
        assert "El modelo no ha dado" not in dicho and "(400)" not in dicho and len(api.recibidas) == 1
    # Un campo de más en la observación: la API diría «Extra inputs are not permitted»; aquí se dice cuál.
    api.plan, api.recibidas = [mensaje(RESPUESTAS[0])], []
    dicho = _conversa(capsys, lambda ll, entorno: dict(ejecutar_correcto(ll, entorno), visto=True))
    assert "la observación de t1 lleva el campo 'visto', que la API no conoce" in dicho and len(api.recibidas) == 1
    # Un ejecutar que no acaba se corta con el tope de cada llamada, y también es cosa suya.
    def sin_fin(ll, entorno):
        while True:
            pass
    api.plan = [mensaje(RESPUESTAS[0])]
    dicho = _conversa(capsys, sin_fin)
    assert "✘ La conversación se corta después del turno 1 del modelo: tu ejecutar no ha terminado" in dicho


def test_conversar_dice_un_turno_y_no_1_turnos(api, capsys):
    api.plan = [mensaje(RESPUESTAS[0])]
    dicho = _conversa(capsys, ejecutar_correcto, tope=1)
    assert "1 turno como mucho" in dicho and "en 1 turno." in dicho and "1 turnos" not in dicho


# --------------------------------------------------------------------------- la orden del profesor

def _orden(*argumentos, carpeta, api=None):
    entorno = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    entorno["CURSO_GUIONES"] = str(carpeta)
    if api is not None:
        entorno.update(ANTHROPIC_BASE_URL=api.url, ANTHROPIC_API_KEY=CLAVE)
    return subprocess.run([sys.executable, "-m", "course.grabaciones", *argumentos], capture_output=True,
                          text=True, timeout=120, env=entorno, cwd=RAIZ)


@pytest.mark.usefixtures("procesos")
def test_la_orden_graba_una_conversacion_que_vale(api, tmp_path):
    api.plan = [mensaje(r) for r in HUEVOS]
    hecho = _orden(PETICION, "--nombre", "huevos", "--modelo", MODELO, carpeta=tmp_path, api=api)
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    assert "4 turnos, 4 llamadas, 1 con error; acaba en 'fin'" in hecho.stdout
    assert "ficheros cambiados: notas/cena.txt" in hecho.stdout and "Gastado: 400 tokens" in hecho.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huevos.json"]
    assert api.recibidas[0]["messages"] == [{"role": "user", "content": PETICION}]
    assert api.recibidas[0]["model"] == MODELO
    # Es una conversación oculta más, con el final y los ficheros del ejecutar de referencia.
    [caso] = grabaciones.conversaciones_grabadas(tmp_path)
    inicio, respuestas, visto, tope, final, ficheros = caso
    assert (inicio, respuestas, tope, final) == ([INICIO[0], ("usuario", PETICION)], HUEVOS, 4,
                                                 ("fin", "Apuntado: la tortilla lleva huevos."))
    assert visto[0][1] == error("toolu_02", "no existe el fichero 'notas/cena'") and visto[-1] is None
    assert ficheros == dict(ENTORNO, **{"notas/cena.txt": NOTA})
    # La cláusula de las conversaciones la pasa la referencia; la respuesta rara, no.
    conversaciones(ejecutar_correcto, [caso])
    espacio = {}
    exec("from harness import *\n" + RARA, espacio)
    with pytest.raises(NoCumple, match="turno 1"):
        conversaciones(espacio["ejecutar"], [caso])
    comprobado = _orden("--comprobar", carpeta=tmp_path)
    assert comprobado.returncode == 0 and "1 guion válido en" in comprobado.stdout, comprobado.stdout + comprobado.stderr


@pytest.mark.usefixtures("procesos")
def test_la_orden_no_guarda_lo_que_no_se_puede_usar(api, tmp_path):
    api.plan = [mensaje(HUEVOS[0]), mensaje([texto("Apunto")], stop_reason="max_tokens")]
    hecho = _orden(PETICION, "--nombre", "cortada", carpeta=tmp_path, api=api)
    assert hecho.returncode == 1
    assert "No vale: la conversación se ha parado en el turno 2" in hecho.stderr and "max_tokens" in hecho.stderr
    assert list(tmp_path.iterdir()) == []
    sin_clave = _orden(PETICION, carpeta=tmp_path)
    assert sin_clave.returncode == 1 and "ANTHROPIC_API_KEY" in sin_clave.stderr
    assert len(api.recibidas) == 2


@pytest.mark.usefixtures("procesos")
def test_la_orden_no_guarda_una_conversacion_que_no_ha_terminado(api, tmp_path):
    """Parada en el tope de turnos, o con un turno que la API deja en pausa una y otra vez: no es un guion."""
    api.plan = [mensaje(r) for r in HUEVOS[:2]]
    en_el_tope = _orden(PETICION, "--tope", "2", carpeta=tmp_path, api=api)
    assert en_el_tope.returncode == 1, en_el_tope.stdout + en_el_tope.stderr
    assert "No vale: la conversación no ha terminado: tras 2 turnos, el tope, el modelo aún pedía herramientas" \
        in en_el_tope.stderr
    api.plan = [mensaje(HUEVOS[0])] + [mensaje([texto("Apunto")], stop_reason="pause_turn")] * (1 + claude_.CONTINUACIONES)
    en_pausa = _orden(PETICION, carpeta=tmp_path, api=api)
    assert en_pausa.returncode == 1 and "No vale: la conversación se ha parado en el turno 2" in en_pausa.stderr
    assert "pause_turn" in en_pausa.stderr
    assert list(tmp_path.iterdir()) == [] and api.plan == [] and api.rechazadas == []


@pytest.mark.usefixtures("procesos")
def test_make_grabar_manda_la_peticion_tal_cual(api, tmp_path):
    """Comillas, apóstrofos, barras y acentos llegan a la API como se escriben en `make grabar PETICION=...`."""
    peticion = 'Apunta "huevos" en notas/cena.txt, que l\'otro día no\\ había `nada` (¡ñ!).'
    api.plan = [mensaje(r) for r in HUEVOS]
    entorno = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    entorno.update(CURSO_GUIONES=str(tmp_path), ANTHROPIC_BASE_URL=api.url, ANTHROPIC_API_KEY=CLAVE)
    # -o: la instalación se da por hecha (make test la acaba de hacer), no se rehace aquí.
    hecho = subprocess.run(["make", "-s", "-o", ".venv/.instalado", "grabar", "PETICION=" + peticion, "NOMBRE=comillas"],
                           capture_output=True, text=True, timeout=120, env=entorno, cwd=RAIZ)
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    assert api.recibidas[0]["messages"] == [{"role": "user", "content": peticion}]
    assert [p.name for p in tmp_path.iterdir()] == ["comillas.json"]
    comprobado = subprocess.run(["make", "-s", "-o", ".venv/.instalado", "grabar"], capture_output=True, text=True,
                                timeout=120, env=entorno, cwd=RAIZ)
    assert comprobado.returncode == 0 and "1 guion válido en %s" % tmp_path in comprobado.stdout, comprobado.stderr


@pytest.mark.usefixtures("procesos")
def test_un_guion_que_la_referencia_no_contesta_no_se_usa(api, tmp_path):
    api.plan = [mensaje(r) for r in HUEVOS]
    bucle(ModeloClaude(MODELO, grabar=tmp_path / "huevos.json"), [INICIO[0], ("usuario", PETICION)],
          dict(ENTORNO), 10, ejecutar_correcto)
    # A mano, la observación de toolu_02 ya no es la que da el ejecutar de referencia.
    datos = json.loads((tmp_path / "huevos.json").read_text(encoding="utf-8"))
    for turno in datos["turnos"][1:]:
        turno["enviada"][3][1][1]["content"] = "no está"
    (tmp_path / "huevos.json").write_text(json.dumps(datos, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(grabaciones.GuionRechazado, match="turno 1") as rechazo:
        grabaciones.conversaciones_grabadas(tmp_path)
    assert "huevos.json" in str(rechazo.value) and "referencia" in str(rechazo.value)
    (tmp_path / "otro.json").write_text("{}", encoding="utf-8")
    with pytest.raises(grabaciones.GuionRechazado, match="otro.json no es una conversación grabada"):
        grabaciones.conversacion_oculta(tmp_path / "otro.json")
    # `make grade` lo dice antes de corregir a nadie.
    entorno = dict(os.environ, CURSO_GUIONES=str(tmp_path))
    hecho = subprocess.run([sys.executable, "-m", "course.corregir", "--raiz", str(tmp_path)], capture_output=True,
                           text=True, timeout=120, env=entorno)
    assert hecho.returncode == 1 and "No se corrige: un guion grabado" in hecho.stderr, hecho.stdout + hecho.stderr


# --------------------------------------------------------------------------- la corrección y la lección

# Lo que hace el botón «Autograde» del formgrader con una entrega: NbGraderAPI.autograde, con la configuración del curso.
_BOTON_AUTOGRADE = """
import json, sys
from nbgrader.apps import NbGraderAPI
from nbgrader.coursedir import CourseDirectory
from traitlets.config import PyFileConfigLoader
config = PyFileConfigLoader("nbgrader_config.py", path=".").load_config()
api = NbGraderAPI(CourseDirectory(config=config), config=config)
print(json.dumps(api.autograde(sys.argv[1], sys.argv[2])))
"""


def test_el_corrector_pasa_las_conversaciones_grabadas_y_la_seccion_no_hace_nada(api, publicado, tmp_path):
    guiones = tmp_path / "guiones"
    api.plan = [mensaje(r) for r in HUEVOS]
    grabaciones.grabar(PETICION, "huevos", MODELO, carpeta=guiones)
    curso = publicado(tmp_path / "curso")
    buenas = soluciones(nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4))
    for estudiante, ejecutar in (("buena", buenas["ejecutar"]), ("rara", RARA)):
        escribir_entrega(RELEASE, dict(buenas, ejecutar=ejecutar), curso / "submitted" / estudiante / TAREA)
    # El profesor tiene la clave en su terminal: la corrección no la pasa a las entregas.
    entorno = dict(os.environ, CURSO_GUIONES=str(guiones), ANTHROPIC_API_KEY=CLAVE, ANTHROPIC_BASE_URL=api.url)
    # Con un guion roto, ni `nbgrader autograde` ni el botón del formgrader corrigen a nadie: lo dicen y acaban en error.
    rotos = tmp_path / "rotos"
    rotos.mkdir()
    (rotos / "otro.json").write_text("{}", encoding="utf-8")
    porque = ["No se corrige: un guion grabado de %s no vale." % rotos, "otro.json no es una conversación grabada"]
    roto = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", TAREA, "--force"], cwd=curso,
                          capture_output=True, text=True, timeout=300, env=dict(entorno, CURSO_GUIONES=str(rotos)))
    assert roto.returncode == 1 and all(p in roto.stderr for p in porque), roto.stderr[-3000:]
    boton = subprocess.run([sys.executable, "-c", _BOTON_AUTOGRADE, TAREA, "buena"], cwd=curso, capture_output=True,
                           text=True, timeout=300, env=dict(entorno, CURSO_GUIONES=str(rotos)))
    dice = json.loads(boton.stdout.splitlines()[-1])
    assert dice["success"] is False and all(p in dice["log"] for p in porque), boton.stdout + boton.stderr
    assert not (curso / "autograded").exists()
    with Gradebook(gradebook(curso)) as gb:
        assert gb.assignment_submissions(TAREA) == []  # ni un 0: nadie corregido
    hecho = subprocess.run([sys.executable, "-m", "nbgrader", "autograde", TAREA, "--force"], cwd=curso,
                           capture_output=True, text=True, timeout=900, env=entorno)
    assert hecho.returncode == 0, hecho.stderr[-3000:]
    from course.estado import notas as notas_de
    notas = notas_de(curso, TAREA)
    puntos = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"]
              for c in nbformat.read(RELEASE, as_version=4).cells if c.metadata.get("nbgrader", {}).get("points")}
    assert notas["buena"] == (MAXIMO, MAXIMO)
    assert notas["rara"] == (MAXIMO - puntos["ejecutar-guiones"], MAXIMO)
    rara = nbformat.read(curso / "autograded" / "rara" / TAREA / CUADERNO, as_version=4)
    [guiones_rara] = [c for c in rara.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "ejecutar-guiones"]
    assert PETICION in json.dumps(guiones_rara.outputs, ensure_ascii=False)
    # La sección optativa, en la jaula: sin clave, lo explica y no llama a nadie.
    for estudiante in ("buena", "rara"):
        corregido = nbformat.read(curso / "autograded" / estudiante / TAREA / CUADERNO, as_version=4)
        seccion = [c for c in corregido.cells if c.get("id", "").startswith(SECCION) and c.cell_type == "code"]
        assert len(seccion) == 2
        for celda in seccion:
            assert [o.output_type for o in celda.outputs] == ["stream"], celda.outputs
        assert "falta la variable de entorno ANTHROPIC_API_KEY" in seccion[0].outputs[0].text
    assert len(api.recibidas) == 4  # las de la grabación, ninguna más


def _leccion_con_respuestas(destino):
    """El cuaderno de release contestado con las soluciones, como lo tendría un estudiante."""
    escribir_entrega(RELEASE, soluciones(nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4)), destino)
    return destino / CUADERNO


@pytest.mark.usefixtures("procesos")
def test_con_clave_la_seccion_espera_al_boton(api, tmp_path):
    """«Ejecutar todas las celdas» con clave no llama a la API; el botón, sí, con el ejecutar del estudiante."""
    ruta = _leccion_con_respuestas(tmp_path)
    nb = nbformat.read(ruta, as_version=4)
    pulsar = new_code_cell("salmorejo_de_verdad.pulsar()\nconversar(INICIO[1][1], ejecutar)")
    nb.cells.append(pulsar)
    todas = len(nb.cells) - 1
    api.plan = [mensaje(r) for r in RESPUESTAS] * 2
    cliente = NotebookClient(nb, kernel_manager_class=NucleoPorFicheros, timeout=60, resources={"metadata": {"path": str(tmp_path)}})
    with cliente.setup_kernel(env=dict(os.environ)):
        for i, celda in enumerate(nb.cells[:todas]):
            cliente.execute_cell(celda, i)
        assert api.recibidas == []
        seccion = [c for c in nb.cells if c.get("id", "").startswith(SECCION) and c.cell_type == "code"]
        for celda in seccion:
            assert [o.output_type for o in celda.outputs] == ["display_data"], celda.outputs
            assert "application/vnd.jupyter.widget-view+json" in celda.outputs[0].data
        assert "salmorejo" in seccion[0].outputs[0].data["text/plain"]
        cliente.execute_cell(pulsar, todas)
    assert len(api.recibidas) == 8
    assert api.recibidas[3]["messages"] == _como_la_api(guion_de(INICIO, RESPUESTAS, VISTO)[3][0])
    salida = "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in pulsar.outputs)
    assert "bucle devuelve 'fin': " + FINAL in salida
    assert "Ficheros cambiados: ninguno" in salida
    assert "Gastado: 400 tokens de entrada y 80 de salida en 4 turnos." in salida
    assert "Tokens de entrada en cada turno: 100, 100, 100, 100" in salida


def test_el_boton_llama_solo_al_pulsarlo():
    from harness.aula import al_pulsar

    pedidas = []
    sin_caja, con_caja = al_pulsar("Uno", lambda: pedidas.append("uno")), al_pulsar("Dos", pedidas.append, encargo="hola")
    assert pedidas == []
    sin_caja.pulsar()
    con_caja.encargo.value = "adiós"
    con_caja.boton.click()
    assert pedidas == ["uno", "adiós"] and not con_caja.boton.disabled
    assert "Dos" in con_caja._repr_mimebundle_()["text/html"] and "<script" not in con_caja.html()


def test_la_seccion_se_pone_una_vez_antes_de_lo_que_viene():
    import runpy
    herramienta = runpy.run_path(str(RAIZ / "tools" / "seccion_modelo_real.py"))
    fuente = nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4)
    otra_vez = herramienta["poner"](nbformat.read(RAIZ / "source" / TAREA / CUADERNO, as_version=4))
    assert otra_vez == fuente, "tools/seccion_modelo_real.py cambia el cuaderno fuente: hay que volver a pasarla"
    ids = [c.get("id") for c in fuente.cells]
    primera = ids.index(SECCION + "-1")
    assert ids[primera:primera + 4] == [SECCION + "-%d" % i for i in range(1, 5)]
    assert fuente.cells[primera + 4].source.startswith("## Lo que viene")
    sin_final = nbformat.v4.new_notebook(cells=[c for c in fuente.cells if not c.source.startswith("## Lo que viene")])
    puesta = herramienta["poner"](sin_final)
    assert [c.get("id") for c in puesta.cells[-4:]] == [SECCION + "-%d" % i for i in range(1, 5)]
