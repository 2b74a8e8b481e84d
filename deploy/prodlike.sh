#!/usr/bin/env bash
# `make prodlike`: the production topology on one machine, from a fresh clone.
#
#   Caddy (deploy/caddy/Caddyfile) on http://127.0.0.1:$PRODLIKE_PORT: static
#     files from disk (Brotli/gzip copies), the rest to gunicorn, /readyz checked
#   gunicorn, uvicorn for the live event streams (/m/<id>/events), the
#     default, mail and bots workers and one beat
#     (deploy/supervisor/smoki.conf), restarted whenever one exits
#   PgBouncer in transaction mode (deploy/pgbouncer/pgbouncer.ini) before
#     the machine's PostgreSQL; the machine's Redis for the broker and the cache
# all under supervisord, in the foreground: Ctrl-C (or SIGTERM) stops it all.
# State (logs, static files, the secret key, generated configs) in
# $PRODLIKE_DIR (var/prodlike). Installs Debian's caddy and pgbouncer when
# missing (as root). See docs/operations.md, "Production".
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

STATE=${PRODLIKE_DIR:-$ROOT/var/prodlike}
PORT=${PRODLIKE_PORT:-8080}
WEB_PORT=${PRODLIKE_WEB_PORT:-8001}
LIVE_PORT=${PRODLIKE_LIVE_PORT:-8002}
PGBOUNCER_PORT=${PRODLIKE_PGBOUNCER_PORT:-6432}
DB=${PRODLIKE_DB:-smoki_prodlike}
PG_HOST=${PRODLIKE_PG_HOST:-127.0.0.1}
PG_PORT=${PRODLIKE_PG_PORT:-5432}
REDIS=${PRODLIKE_REDIS:-redis://127.0.0.1:6379}
BROKER_DB=${PRODLIKE_BROKER_DB:-0}
CACHE_DB=${PRODLIKE_CACHE_DB:-1}
CADDY_ADMIN=${PRODLIKE_CADDY_ADMIN:-localhost:2019}
UV=$(command -v uv 2>/dev/null || echo .tools/bin/uv)
say() { printf '== %s\n' "$*" >&2; }

missing=()
command -v caddy >/dev/null 2>&1 || missing+=(caddy)
command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    say "needs Debian's ${missing[*]}: sudo apt-get install ${missing[*]}"
    exit 1
  fi
  say "installing Debian's ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
PGBOUNCER=$(command -v pgbouncer 2>/dev/null || echo /usr/sbin/pgbouncer)

# PostgreSQL and Redis as the machine runs them (started if they are not).
if ! pg_isready -h "$PG_HOST" -p "$PG_PORT" -q; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  for _ in $(seq 30); do pg_isready -h "$PG_HOST" -p "$PG_PORT" -q && break; sleep 1; done
fi
redis_port=${REDIS##*:}
if ! redis-cli -p "$redis_port" ping >/dev/null 2>&1; then
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/prodlike.log
  for _ in $(seq 30); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 1; done
fi
if ! psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$DB'" | grep -q 1; then
  psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -qc "CREATE DATABASE \"$DB\""
fi

mkdir -p "$STATE/log" "$STATE/pgbouncer" "$STATE/caddy"
[ -s "$STATE/secret_key" ] || python3 -c "import secrets; print(secrets.token_urlsafe(50))" >"$STATE/secret_key"

# The README's production settings, on plain HTTP at 127.0.0.1.
export DEBUG=false
SECRET_KEY=$(cat "$STATE/secret_key")
export SECRET_KEY
export DATABASE_URL="postgres://postgres@127.0.0.1:$PGBOUNCER_PORT/$DB"
export DATABASE_TRANSACTION_POOLING=true
export CELERY_BROKER_URL="$REDIS/$BROKER_DB"
export CACHE_URL="$REDIS/$CACHE_DB"
export SMOKI_REDIS_URL="$REDIS/$CACHE_DB"
export EMAIL_URL=${EMAIL_URL:-consolemail://}
export ALLOWED_HOSTS=${ALLOWED_HOSTS:-127.0.0.1,localhost}
export SITE_URL=${SITE_URL:-http://127.0.0.1:$PORT}
export SECURE_SSL_REDIRECT=false SESSION_COOKIE_SECURE=false CSRF_COOKIE_SECURE=false
export TRUSTED_PROXY_COUNT=1
export STATIC_ROOT="$STATE/static"
export MEDIA_ROOT="$STATE/media"
export LOG_LEVEL=${LOG_LEVEL:-WARNING}
export SMOKI_DIR="$ROOT" SMOKI_LOG_DIR="$STATE/log" SMOKI_BEAT_SCHEDULE="$STATE/celerybeat-schedule"
export SMOKI_WEB_BIND="127.0.0.1:$WEB_PORT"
export SMOKI_WEB_WORKERS=${SMOKI_WEB_WORKERS:-4}
export SMOKI_WORKER_CONCURRENCY=${SMOKI_WORKER_CONCURRENCY:-2}
export SMOKI_BOT_PROCESSES=${SMOKI_BOT_PROCESSES:-1}
export SMOKI_LIVE_HOST=127.0.0.1 SMOKI_LIVE_PORT="$LIVE_PORT"
export SMOKI_SITE_ADDRESS="http://127.0.0.1:$PORT" SMOKI_WEB_UPSTREAMS="127.0.0.1:$WEB_PORT"
export SMOKI_LIVE_UPSTREAMS="127.0.0.1:$LIVE_PORT"
export SMOKI_CADDY_ADMIN="$CADDY_ADMIN"
export XDG_DATA_HOME="$STATE/caddy" XDG_CONFIG_HOME="$STATE/caddy"

# PgBouncer's configuration from the shipped template.
export PGBOUNCER_DB="$DB" PGBOUNCER_SERVER_HOST="$PG_HOST" PGBOUNCER_SERVER_PORT="$PG_PORT"
export PGBOUNCER_SERVER_DB="$DB" PGBOUNCER_PORT PGBOUNCER_POOL_SIZE=${PGBOUNCER_POOL_SIZE:-8}
# It logs to supervisord (no logfile) and runs in the foreground (no pidfile).
PGBOUNCER_DIR="$STATE/pgbouncer"
PGBOUNCER_USER=""
if [ "$(id -u)" = 0 ]; then
  # PgBouncer will not run as root: as postgres, from a folder postgres can
  # reach whatever the permissions of the folders above $STATE.
  PGBOUNCER_DIR=$(mktemp -d /tmp/smoki-pgbouncer.XXXXXX)
  PGBOUNCER_USER="-u postgres"
fi
export PGBOUNCER_AUTH_TYPE=trust PGBOUNCER_AUTH_FILE="$PGBOUNCER_DIR/userlist.txt"
export PGBOUNCER_LOG="" PGBOUNCER_PID=""
envsubst <deploy/pgbouncer/pgbouncer.ini >"$PGBOUNCER_DIR/pgbouncer.ini"
echo '"postgres" ""' >"$PGBOUNCER_DIR/userlist.txt"
[ -z "$PGBOUNCER_USER" ] || chown -R postgres "$PGBOUNCER_DIR"

say "install, migrate, collectstatic"
make --no-print-directory install
# The site's own VAPID pair for web push, made once like the secret key.
[ -s "$STATE/vapid.env" ] || "$UV" run --frozen python manage.py vapid_keys >"$STATE/vapid.env"
set -a
. "$STATE/vapid.env"
set +a
DATABASE_URL="postgres://postgres@$PG_HOST:$PG_PORT/$DB" "$UV" run --frozen python manage.py migrate --noinput -v0
"$UV" run --frozen python manage.py collectstatic --noinput -v0

cat >"$STATE/supervisord.conf" <<EOF
[supervisord]
nodaemon=true
logfile=$STATE/log/supervisord.log
pidfile=$STATE/supervisord.pid
childlogdir=$STATE/log

[unix_http_server]
file=$STATE/supervisor.sock

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[supervisorctl]
serverurl=unix://$STATE/supervisor.sock

[program:pgbouncer]
stopsignal=INT
command=$PGBOUNCER $PGBOUNCER_USER $PGBOUNCER_DIR/pgbouncer.ini
priority=10
autorestart=true
redirect_stderr=true
stdout_logfile=$STATE/log/pgbouncer.log

[program:caddy]
command=caddy run --config $ROOT/deploy/caddy/Caddyfile --adapter caddyfile
priority=900
autorestart=true
stopasgroup=true
redirect_stderr=true
stdout_logfile=$STATE/log/caddy.log

[include]
files = $ROOT/deploy/supervisor/smoki.conf
EOF

(
  for _ in $(seq 240); do
    if curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; then
      say "Smoki in the production topology at http://127.0.0.1:$PORT/ (logs: $STATE/log; Ctrl-C stops it)"
      exit 0
    fi
    sleep 0.5
  done
  say "the proxy did not answer /readyz within 120 s: see $STATE/log"
) &
say "starting supervisord ($STATE/supervisord.conf)"
exec "$ROOT/.venv/bin/supervisord" -c "$STATE/supervisord.conf"
