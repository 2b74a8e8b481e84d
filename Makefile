# Smoki: `make run` starts everything on embedded defaults; `make test` runs the suite.
# Needs only Python 3.13 and make: uv is installed into .tools/ when it is not on PATH.

UV := $(shell command -v uv 2>/dev/null || echo .tools/bin/uv)
RUN := $(UV) run --frozen
HOST ?= 127.0.0.1
PORT ?= 8000
# Links in emails point where `make run` serves (override SITE_URL behind a proxy).
SITE_URL ?= http://$(HOST):$(PORT)
export SITE_URL

.PHONY: install run test rules-wheel lint format bench bench-games load sweep-bench email-bench messages compilemessages faults prodlike page-weight leaderboard-bench bot-strength tournament-bench quick-match-bench live-bench stream-bench season-bench review-bench

.tools/bin/uv:
	python3 -m venv .tools
	.tools/bin/pip install --quiet --disable-pip-version-check uv

install: $(if $(findstring .tools/,$(UV)),.tools/bin/uv)
	@$(UV) sync --frozen --quiet

# Quiet: migrations, the demo data and the worker say only what goes wrong
# (no banner, warnings only); emails print whole. Once the site answers, the
# demo's logins and the address are printed last (`demo --announce`).
run: install
	@$(RUN) python manage.py migrate --noinput --verbosity 0
	@$(RUN) python manage.py demo --verbosity 0
	@mkdir -p var
	@# Development VAPID keys for web push, made once (docs/operations.md).
	@$(RUN) python manage.py vapid_keys --dev var/vapid.json
	@# The worker with beat, the bots' worker, the demo's announcement and the
	@# server; Ctrl-C or a TERM stops them all within seconds (config/run_local.py).
	@exec $(RUN) python -m config.run_local --host $(HOST) --port $(PORT)

test: install
	$(RUN) pytest -n auto

lint: install
	$(RUN) ruff check .
	$(RUN) ruff format --check .
	$(RUN) lint-imports

format: install
	$(RUN) ruff format .
	$(RUN) ruff check --fix .

bench: install
	$(RUN) pytest tests --benchmark-enable --benchmark-only -q

bench-games: install
	$(RUN) python tests/load/games_per_second.py

# Strong against heuristic, heuristic against random (docs/bots.md).
bot-strength: install
	$(RUN) python tests/load/bot_strength.py $(ARGS)

# The computer review of a 100-decision match, against one hint (docs/bots.md, "Reviews").
review-bench: install
	$(RUN) python tests/load/review_bench.py $(ARGS)

# The rules and bots as a wheel for bot authors, into dist/ (docs/bots.md).
rules-wheel: install
	$(RUN) python tools/rules_package.py --out dist

load: install
	$(RUN) python tests/load/move_load.py

sweep-bench: install
	$(RUN) python tests/load/sweep_bench.py

email-bench: install
	$(RUN) python tests/load/email_bench.py

# The leaderboard and player page on PostgreSQL with 100,000 players and
# 1,000,000 finished seats (DATABASE_URL's server, database smoki_leaderboard).
leaderboard-bench: install
	$(RUN) python tests/load/leaderboard_bench.py

tournament-bench: install
	$(RUN) python tests/load/tournament_bench.py

# 500 open live streams against uvicorn: commit-to-event delay and memory
# (docs/performance.md; needs the machine's Redis).
live-bench: install
	$(RUN) python tests/load/live_bench.py

# 1,000 idle API event streams against uvicorn: their memory, and the delay
# from a move's commit to its event on every stream of that match, beside the
# match pages' live streams (docs/performance.md; needs the machine's Redis).
stream-bench: install
	$(RUN) python tests/load/stream_bench.py

# One quick-match pass over 10,000 waiting requests (docs/performance.md).
season-bench: install
	$(RUN) python tests/load/season_bench.py

quick-match-bench: install
	$(RUN) python tests/load/quick_match_bench.py

# Gather translatable strings: each game's into games/catalog/<package>/locale,
# the site's into locale/ (the boards' .jinja templates too: Django reads their
# _("…")). Then edit the .po files and run `make compilemessages`.
messages: install
	$(RUN) python manage.py makemessages -l pl -l cs --extension=html,txt,py,jinja --ignore=.venv --ignore=.tools --ignore=tests --ignore=var --ignore=staticfiles --no-obsolete

compilemessages: install
	$(RUN) python manage.py compilemessages --ignore=.venv --ignore=.tools

# The fault run: PostgreSQL (DATABASE_URL's server, database smoki_faults),
# its own redis-server, two workers, two beats, gunicorn and aiosmtpd, broken
# on purpose; see tests/faults/fault_run.py and docs/reliability.md.
faults: install
	$(RUN) python tests/faults/fault_run.py $(ARGS)

# The production topology on this machine: Caddy, gunicorn, one Celery worker
# per queue, one beat, PgBouncer before PostgreSQL, Redis; under supervisord,
# in the foreground (Ctrl-C stops it). See deploy/ and docs/operations.md.
prodlike:
	@bash deploy/prodlike.sh

# Bytes on the wire and LCP of every page on an emulated slow phone
# (docs/performance.md, "Page weight"); ARGS="--url http://127.0.0.1:8080" for prodlike.
page-weight: install
	$(RUN) python tests/load/page_weight.py $(ARGS)
