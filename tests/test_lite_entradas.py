"""`make lite` solo reconstruye el sitio cuando cambia alguna de sus entradas (course/lite.py).

Otra vez sin cambios no toca dist/lite/; cualquier cambio en una entrada (editar, borrar o añadir
un fichero, otra versión de un paquete instalado) lo señala. Sin navegador: `tests/test_lite.py`
prueba el sitio de verdad.
"""

import json
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course import RAIZ, lite


def _estado(*rutas):
    """{fichero: (tamaño, mtime_ns)} de todo lo que hay en `rutas` (carpetas o ficheros)."""
    ficheros = [f for r in rutas for f in ([r] if r.is_file() else sorted(r.rglob("*"))) if f.is_file()]
    return {f: (f.stat().st_size, f.stat().st_mtime_ns) for f in ficheros}


@pytest.mark.usefixtures("procesos")
def test_make_lite_sin_cambios_no_toca_el_sitio():
    lite.construir()  # como lo deja `make lite` (aquí solo construye si no lo estaba)
    anotacion = lite.fichero_de_entradas()
    antes = _estado(lite.DESTINO, anotacion)
    hecho = subprocess.run(["make", "-s", "lite"], cwd=RAIZ, capture_output=True, text=True)
    assert hecho.returncode == 0, hecho.stdout + hecho.stderr
    assert "dist/lite/ está al día" in hecho.stdout, hecho.stdout
    assert _estado(lite.DESTINO, anotacion) == antes


@pytest.mark.usefixtures("procesos")
def test_las_entradas_son_las_mismas_en_cualquier_proceso():
    # setuptools, al importarse, pone en sys.path los paquetes que lleva dentro: no son del entorno.
    import setuptools  # noqa: F401

    lite._instalados.cache_clear()
    fuera = subprocess.run([sys.executable, "-c", "import json; from course import lite; print(json.dumps(lite.entradas()))"],
                           cwd=RAIZ, capture_output=True, text=True, check=True)
    assert lite.entradas() == json.loads(fuera.stdout)


@pytest.fixture(scope="module")
def copia_de_las_entradas(tmp_path_factory):
    """Las ENTRADAS del sitio en una raíz aparte y un sitio «construido» con ellas (su anotación)."""
    raiz = tmp_path_factory.mktemp("entradas")
    for entrada in lite.ENTRADAS:
        (raiz / entrada).parent.mkdir(parents=True, exist_ok=True)
        if (RAIZ / entrada).is_dir():
            shutil.copytree(RAIZ / entrada, raiz / entrada, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(RAIZ / entrada, raiz / entrada)
    destino = raiz / "dist" / "lite"
    destino.mkdir(parents=True)
    (destino / "index.html").write_text("<!doctype html>\n")
    lite.anotar(lite.entradas(raiz), destino)
    return raiz, destino


def test_sin_sitio_se_construye_y_los_paquetes_instalados_cuentan(copia_de_las_entradas, tmp_path):
    raiz, destino = copia_de_las_entradas
    vistas = lite.entradas(raiz)
    assert lite.cambios(vistas, destino) == []
    assert lite.cambios(vistas, tmp_path / "lite") is None  # nunca construido
    # Lo que Python deja al importar no es una entrada.
    (raiz / "harness" / "__pycache__").mkdir(exist_ok=True)
    (raiz / "harness" / "__pycache__" / "bucle.cpython-311.pyc").write_bytes(b"\0")
    assert lite.cambios(lite.entradas(raiz), destino) == []
    shutil.rmtree(raiz / "harness" / "__pycache__")
    # Las herramientas que construyen el sitio son entradas: otra versión de una, otro sitio.
    assert {"pip:jupyterlite-core", "pip:jupyterlite-pyodide-kernel", "pip:pyodide-lock",
            "pip:jupyterlab-language-pack-es-es"} <= vistas.keys()
    assert lite.cambios(dict(vistas, **{"pip:jupyterlite-core": "0.0.1"}), destino) == ["pip:jupyterlite-core"]


@settings(max_examples=15, deadline=None)
@given(datos=st.data())
def test_cualquier_cambio_en_una_entrada_reconstruye(copia_de_las_entradas, datos):
    raiz, destino = copia_de_las_entradas
    entrada = raiz / datos.draw(st.sampled_from(lite.ENTRADAS), label="entrada")
    ficheros = sorted(f for f in entrada.rglob("*") if f.is_file()) if entrada.is_dir() else [entrada]
    fichero = datos.draw(st.sampled_from(ficheros), label="fichero")
    original = fichero.read_bytes()
    cambio = datos.draw(st.sampled_from(["editar", "borrar", "añadir"] if entrada.is_dir() else ["editar", "borrar"]))
    tocado = fichero
    try:
        if cambio == "editar":  # un byte más en cualquier sitio
            donde = datos.draw(st.integers(0, len(original)), label="posición")
            fichero.write_bytes(original[:donde] + datos.draw(st.binary(min_size=1, max_size=1)) + original[donde:])
        elif cambio == "borrar":
            fichero.unlink()
        else:
            tocado = fichero.with_name(fichero.name + datos.draw(st.sampled_from(["~", ".bak", "_nuevo.py"])))
            tocado.write_bytes(original)
        assert lite.cambios(lite.entradas(raiz), destino) == [tocado.relative_to(raiz).as_posix()]
    finally:
        if tocado != fichero:
            tocado.unlink()
        fichero.write_bytes(original)
    assert lite.cambios(lite.entradas(raiz), destino) == []
