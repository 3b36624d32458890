#!/usr/bin/env bash
# Debian packages the test suite uses beyond Node: headless Chromium (the builder's HTML check),
# and the toolchains and drivers that check and run the generated Go, Python and Java code against
# the real databases (Go modules, PyPI and Maven are not reachable here: Debian ships them).
# Installs only what is missing.
set -eu
need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v gofmt >/dev/null || need+=(golang-go)
command -v javac >/dev/null || need+=(openjdk-17-jdk-headless)
# promtool checks the shipped Prometheus alert rules (the daemon is never started).
command -v promtool >/dev/null || need+=(prometheus)
# Go drivers for the generated stores' conformance tests (GOPATH mode, /usr/share/gocode).
# gin: the generated Gin glue (build tag gin) is compiled against Debian's gin 1.8.1.
for pkg in golang-github-lib-pq-dev golang-github-go-sql-driver-mysql-dev golang-github-mattn-go-sqlite3-dev golang-github-gomodule-redigo-dev golang-github-gin-gonic-gin-dev; do
  have_pkg "$pkg" || need+=("$pkg")
done
# Python: the drivers of Debian's /usr/bin/python3, and pyflakes as the linter.
for pkg in python3-psycopg2 python3-pymysql python3-redis pyflakes3; do
  have_pkg "$pkg" || need+=("$pkg")
done
# Java: JDBC drivers (/usr/share/java/postgresql.jar, mariadb-java-client.jar, sqlite-jdbc.jar).
for pkg in libpostgresql-jdbc-java libmariadb-java libxerial-sqlite-jdbc-java; do
  have_pkg "$pkg" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "missing system packages: ${need[*]} (install them with apt-get as root)" >&2
  fi
fi
