# Two commands set everything up on a fresh machine: `make lab` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.instalado
# The assignment (a folder of source/): the lesson's (course.TAREA) unless TAREA=... is given.
TAREA  ?=
CON_TAREA = $(if $(TAREA),--tarea $(TAREA))
# nbgrader runs helpers (alembic) by name: the venv's bin must come first on PATH.
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: install lab profesor lite test test-rapido bwrap release grade grabar demo limpiar-demo informe bench capturas bundle clean hub extension

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lite]'
	$(BIN)/python -m course.entorno
	touch $@

# The lesson as a student sees it (the same JupyterLab as the student bundle's empezar.py: no teacher tools).
lab: $(STAMP)
	$(BIN)/python -m course.lab

# JupyterLab in the course root with the teacher's tools: formgrader, «Crear tarea», Curso › Corregir.
profesor: $(STAMP)
	$(BIN)/python -m course.lab --profesor

# Todas las pruebas, en dos niveles, como el CI de rasbt/LLMs-from-scratch: primero el rápido (las de
# `make test-rapido` y el cuaderno de la lección ejecutado de arriba abajo en núcleos de verdad, el de
# source/ con su solución y el de release/), y solo si pasa, el lento, con todo lo demás: un import roto o
# una celda que ya no corre fallan en un minuto, sin esperar al resto. Cada prueba va en un nivel y en uno
# solo (tests/conftest.py les pone la marca; tests/test_niveles.py lo comprueba). El sitio sin instalación
# y bubblewrap solo los necesita el lento: con `make -j`, se preparan mientras corre el rápido.
# Cada nivel, un fichero por proceso (pytest-xdist), el más largo primero, con un proceso más que núcleos:
# parte del tiempo de cada fichero es espera (un JupyterLab que arranca, el navegador), y con uno de más los
# núcleos no se quedan parados. La carga no cambia ninguna nota: los topes de la corrección no cobran la
# espera por la CPU (docs/rendimiento.md). PROCESOS_DE_PRUEBAS=1 para uno solo.
# `make test-rapido`: solo las que no lanzan ningún proceso (ni núcleos, ni nbgrader, ni navegador), en
# segundos; tests/conftest.py dice cuáles son.
PROCESOS_DE_PRUEBAS ?= $(shell $(PYTHON) -c 'import course; print(course.procesos())')
NIVEL_RAPIDO := rapido or cuaderno
NIVEL_LENTO  := lento and not cuaderno
EN_PARALELO = $(BIN)/python -m pytest -n $(PROCESOS_DE_PRUEBAS) --dist loadfile --no-loadscope-reorder
test: test-nivel-lento

test-nivel-rapido: $(STAMP)
	$(EN_PARALELO) -m "$(NIVEL_RAPIDO)"

test-nivel-lento: test-nivel-rapido bwrap lite
	$(EN_PARALELO) -m "$(NIVEL_LENTO)"

test-rapido: $(STAMP)
	$(BIN)/python -m pytest -m rapido -p no:xdist

# The install-free site (JupyterLite + Pyodide) in dist/lite/; downloads cached in build/lite-cache/.
lite: $(STAMP)
	$(BIN)/python -m course.lite

# Grading runs each student's code inside bubblewrap (Debian's package `bubblewrap`).
bwrap:
	@command -v bwrap >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get install -y -qq bubblewrap >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq bubblewrap; }; \
	  else echo "Grading needs bubblewrap: sudo apt-get install bubblewrap" >&2; exit 1; fi; }

# Removes what set-up and `make lab`/`make bundle` made; never submitted/, autograded/ or the gradebook.
clean:
	rm -rf $(VENV) trabajo dist

# The student version, regenerated from source/ by nbgrader (commit it with the source).
release: $(STAMP)
	$(BIN)/nbgrader generate_assignment $(or $(TAREA),$(shell $(BIN)/python -c 'import course; print(course.TAREA)')) --force

# Release, autograde, feedback, grades CSV and class report of one assignment, end to end, on every
# core (TRABAJOS=N to choose, TAREA=... for another assignment than the lesson's). With no submission
# of the lesson in submitted/ it grades the demo course in demo/ instead.
TRABAJOS ?=
grade: $(STAMP) bwrap
	$(BIN)/python -m course.corregir $(CON_TAREA) $(if $(TRABAJOS),--trabajos $(TRABAJOS))

# A real model's conversation (needs ANTHROPIC_API_KEY), kept in course/guiones/ as one more hidden
# conversation of ejecutar-guiones: make grabar PETICION="..." [NOMBRE=...] [MODELO=...] [TOPE=...].
# Without PETICION it checks the scripts already there. The values reach Python through the environment
# (make exports command-line variables), never through the shell, so quotes and backslashes arrive as
# typed; only `$`, which make itself expands, is written `$$`.
grabar: $(STAMP)
	$(BIN)/python -m course.grabaciones $(if $(PETICION),--de-make,--comprobar)

# The example submissions, graded in a course of their own (demo/, with its own gradebook).
demo: $(STAMP) bwrap
	$(BIN)/python -m course.corregir --demo $(if $(TRABAJOS),--trabajos $(TRABAJOS))

limpiar-demo:
	rm -rf demo

# exports/informe.html and the LMS files again, from the gradebook and autograded/ (make grade already writes them).
informe: $(STAMP)
	$(BIN)/python -m course.informe $(CON_TAREA)

# Isolated grading vs plain nbgrader on the same honest submissions (a ratio, not a test), and
# a class of 40 with `make grade` vs nbgrader's own sequential chain (bench/clase.py), and what a fork bomb
# costs the honest submissions graded beside it (bench/bomba.py).
bench: $(STAMP) bwrap
	$(BIN)/python bench/correccion.py; a=$$?; $(BIN)/python bench/clase.py; b=$$?; $(BIN)/python bench/bomba.py; c=$$?; exit $$((a || b || c))

# Screenshots of the explorer and the viewer for the docs, taken by the browser test.
capturas: $(STAMP)
	CAPTURAS=$(CURDIR)/docs/img $(BIN)/python -m pytest tests/test_navegador.py -k leccion

# What a teacher hands to students: dist/curso-harness-estudiante.zip, and the install-free
# site to host: dist/curso-harness-sitio.zip.
bundle: $(STAMP) lite
	$(BIN)/python -m course.paquete

# The course on a JupyterHub on this machine, on 127.0.0.1 (needs root, npm and node): the hub's
# environment, the roster's users and nbgrader's exchange in HUB; then the hub runs as a systemd
# service where systemd runs (`systemctl stop curso-harness-hub` stops it), else here until Ctrl+C
# (course/hub/, docs/hub.md). New users' passwords go to HUB/estado/claves.txt only.
HUB ?= /srv/curso-harness
PUERTO ?= 8000
PROFESOR ?= profesora
ROSTER ?= course/hub/roster-de-ejemplo.csv
hub: $(STAMP) bwrap
	$(BIN)/python -m course.hub --destino $(HUB) --puerto $(PUERTO) --profesor $(PROFESOR) --roster $(ROSTER)

# The course's JupyterLab extension (course/extension/), rebuilt with npm and JupyterLab's builder
# into course/extension/labextension/: commit that folder (nobody installing the course needs node).
extension: $(STAMP)
	cd course/extension && npm install --no-audit --no-fund --loglevel=error
	$(BIN)/jupyter labextension build course/extension
