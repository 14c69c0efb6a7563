"""Configuración común de pytest para tests/."""

import os
import sys

import pytest


# --- Prueba de navegador (tests/test_navegador.py) -------------------------------------------
# Guarda el informe de cada fase en el item (item.informe_setup/call/teardown), para que los
# fixtures sepan en su teardown si la prueba ha fallado y guarden capturas en tests/artefactos/.
@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    informe = yield
    setattr(item, "informe_" + informe.when, informe)
    return informe


# nbgrader lanza `alembic` por su nombre al crear el gradebook: el bin del entorno virtual va
# delante en PATH también cuando se llama a pytest sin `make test`.
os.environ["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])


# Chromium de Debian para las pruebas de navegador (navegador.py dice cómo se asegura).
@pytest.fixture(scope="module")
def chromium():
    import navegador as nv

    nv.asegurar_playwright()
    nv.asegurar_chromium()
    return nv.CHROMIUM
