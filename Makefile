# Two commands set everything up on a fresh machine: `make lab` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.instalado
ASSIGNMENT := errores-como-observaciones
# JupyterLab refuses to run as root unless told to (CI and these machines run as root).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: install lab test grade bundle clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

lab: $(STAMP)
	$(BIN)/python -m course.lab $(ROOT_FLAG)

test: $(STAMP)
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) gradebook.db autograded/* feedback exports trabajo dist
