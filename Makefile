# The two commands of the README: `make quickstart` and `make test`.
# Both set up a local virtual environment in .venv; `pip install` builds the front end.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: quickstart test setup lint typecheck js-test py-test py-compat e2e-test nb-test notebooks clean

# The oldest and the newest Python the package claims: the unit suite runs under each too.
COMPAT_PYTHONS := 3.10 3.13

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
test: $(STAMP) lint typecheck js-test py-test py-compat e2e-test nb-test

# Python: ruff (rules and exceptions in pyproject.toml); the TypeScript wire and the generated
# blocks of docs/wire.md must be current with the Python schema; the front end: Biome.
lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks scripts
	$(VENV)/bin/ruff format --check src tests benchmarks scripts
	$(PY) -m chunkscope.wire.codegen --check
	cd js && npm run --silent lint

typecheck: $(STAMP)
	$(VENV)/bin/mypy
	cd js && npm run --silent typecheck

js-test: $(STAMP)
	cd js && npm test --silent

py-test: $(STAMP)
	$(PY) -m pytest --ignore=tests/e2e

# The unit suite under each claimed Python, each in a venv of its own (.venv-3.10, .venv-3.13).
py-compat: $(foreach v,$(COMPAT_PYTHONS),.venv-$(v)/.installed)
	@for v in $(COMPAT_PYTHONS); do \
	  echo "unit suite under Python $$v"; \
	  .venv-$$v/bin/python -m pytest --ignore=tests/e2e -q -p no:cacheprovider || exit 1; \
	done

# An interpreter for X.Y: python X.Y on the PATH, else one that pyenv installed.
.venv-%/.installed: pyproject.toml $(STAMP)
	@py="$$(command -v python$* 2>/dev/null || true)"; \
	if [ -z "$$py" ] || ! "$$py" -c "" 2>/dev/null; then \
	  py="$$(ls -d $(HOME)/.pyenv/versions/$**/bin/python$* 2>/dev/null | tail -n 1)"; fi; \
	if [ -z "$$py" ]; then echo "no Python $* found (python$* on the PATH or pyenv install $*)"; exit 1; fi; \
	echo "Python $* for the unit suite: $$py"; \
	"$$py" -m venv --clear .venv-$* && \
	.venv-$*/bin/python -m pip install --quiet --upgrade pip && \
	.venv-$*/bin/python -m pip install --quiet -e ".[test]" && \
	touch $@

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
	rm -rf $(VENV) $(foreach v,$(COMPAT_PYTHONS),.venv-$(v)) js/node_modules src/chunkscope/static
