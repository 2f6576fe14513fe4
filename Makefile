# The two commands of the README: `make quickstart` and `make test`.
# Both set up a local virtual environment in .venv; `pip install` builds the front end.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: quickstart test setup lint typecheck js-test py-test e2e-test nb-test notebooks clean

$(STAMP): pyproject.toml js/package.json js/package-lock.json
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

setup: $(STAMP)

## Set up, then open the quickstart notebook (demo agent: no API key, no network).
quickstart: $(STAMP)
	$(PY) -m jupyterlab --ServerApp.ip=127.0.0.1 --allow-root notebooks/01-quickstart.ipynb

## Set up, then run every check and test: lint, types, front-end tests, Python and browser tests.
test: $(STAMP) lint typecheck js-test py-test e2e-test nb-test

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src

typecheck: $(STAMP)
	$(VENV)/bin/mypy
	cd js && npm run --silent typecheck

js-test: $(STAMP)
	cd js && npm test --silent

py-test: $(STAMP)
	$(PY) -m pytest --ignore=tests/e2e

# The browser tests run in a session of their own: Playwright's sync API keeps an event loop
# running in the main thread for as long as its browser lives.
e2e-test: $(STAMP)
	$(PY) -m pytest tests/e2e

## The teaching notebooks, compared strictly with a fresh run.
nb-test: $(STAMP)
	$(PY) -m pytest --nbval notebooks/ -p no:cacheprovider

## Re-execute the teaching notebooks after a change to what they show (then commit them).
notebooks: $(STAMP)
	$(PY) scripts/execute_notebooks.py

clean:
	rm -rf $(VENV) js/node_modules src/chunkscope/static
