#!/usr/bin/env bash
# Starts any local service the tests need that is not answering (this kind of machine starts
# them before a session; a stopped one is restarted with the machine's own start command).
set -u
up() { timeout 2 bash -c "</dev/tcp/127.0.0.1/$1" 2>/dev/null; }
wait_for() { for _ in $(seq 1 30); do up "$1" && return 0; sleep 1; done; echo "service on port $1 did not come up" >&2; return 1; }

if ! up 5432 && command -v pg_ctlcluster >/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start && wait_for 5432
fi
# The PostgreSQL race tests hold 64 connections while other test files run beside them.
if up 5432 && command -v psql >/dev/null; then
  max=$(psql -h 127.0.0.1 -U postgres -tAc 'show max_connections' 2>/dev/null || echo 0)
  if [ "${max:-0}" -lt 300 ] && command -v pg_ctlcluster >/dev/null; then
    psql -h 127.0.0.1 -U postgres -qc 'ALTER SYSTEM SET max_connections = 300' &&
      pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main restart && wait_for 5432
  fi
fi
if ! up 6379 && command -v redis-server >/dev/null; then
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log && wait_for 6379
fi
if ! up 3306 && [ -x /usr/sbin/mariadbd ]; then
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd && wait_for 3306
fi
if ! up 5672 && command -v rabbitmq-server >/dev/null; then
  rabbitmq-server -detached && wait_for 5672
fi
if ! up 4222 && [ -x /usr/sbin/nats-server ]; then
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log && wait_for 4222
fi
exit 0
