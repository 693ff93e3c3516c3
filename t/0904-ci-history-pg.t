#!/bin/sh
# 0904-ci-history-pg.t - preflight history against a real PostgreSQL server:
# a throw-away cluster of Debian's postgresql in a temp directory (run as an
# unprivileged user, on a Unix socket there: no TCP port taken), the same
# round trips as on SQLite, two writers at once on a fresh database (the
# migration runs once), torn down at the end.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:t/ci_genruns
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] || skip_all "PostgreSQL server binaries (package postgresql) not installed"
need CMD:psql

# the server runs as 'nobody' when we are root (postgres refuses root), else as us
if [ "$(id -u)" -eq 0 ]; then
	as_pg() { runuser -u nobody -- "$@"; }
	chmod 755 "$TMP"
else
	as_pg() { "$@"; }
fi
PGD="$TMP/pg"
mkdir -p "$PGD" && { [ "$(id -u)" -ne 0 ] || chown nobody "$PGD"; }
stop_pg() { as_pg "$PGBIN/pg_ctl" -D "$PGD/data" -m immediate stop >/dev/null 2>&1; }
trap 'stop_pg; rm -rf "$TMP"' EXIT
PORT=$((20000 + $$ % 20000))
as_pg "$PGBIN/initdb" -D "$PGD/data" -U preflight --auth=trust >"$TMP/initdb.log" 2>&1 ||
	{ sed 's/^/# /' "$TMP/initdb.log" | tail -5; missing "initdb failed"; }
as_pg "$PGBIN/pg_ctl" -D "$PGD/data" -l "$PGD/log" -w -o "-p $PORT -k $PGD -c listen_addresses=''" start \
	>"$TMP/pgctl.log" 2>&1 || { sed 's/^/# /' "$PGD/log" | tail -5; missing "the PostgreSQL server did not start"; }
psql_q() { psql -h "$PGD" -p "$PORT" -U preflight -d "$1" -Atqc "$2"; }
psql_q postgres "CREATE DATABASE history" && psql_q postgres "CREATE DATABASE fresh" || skip_all "cannot create databases"
URL="postgresql://preflight@/history?host=$PGD&port=$PORT"
FRESH="postgresql://preflight@/fresh?host=$PGD&port=$PORT"
plan 9

G="$B/t/ci_genruns"
D="$TMP/runs"
mkdir -p "$D"
"$G" "$D/k1" --runs 4 --seed 21 --kernel 6.1.0 || exit 1
"$G" "$D/k2" --runs 4 --seed 22 --first 5 --kernel 6.2.0 --scale 1.3 || exit 1

# --- ci-pg-1: the round trips of t/0903 on a server
run_cmd "$PREFLIGHT" history add --db "$URL" "$D"/k1/run-*
is "$rc:$out" "0:history: 4 runs added, 0 already there" "ci-pg-1.1 four runs added"
run_cmd "$PREFLIGHT" history add --db "$URL" "$D"/k1/run-* "$D"/k2/run-*
is "$rc:$out" "0:history: 4 runs added, 4 already there" "ci-pg-1.2 adding them again changes nothing"
is "$(psql_q history 'SELECT count(*) FROM runs' )/$(psql_q history 'SELECT count(*) FROM metrics')/$(psql_q history 'SELECT version FROM preflight_schema')" \
	"8/176/4" "ci-pg-1.3 8 runs, 22 metrics each, schema version 4"
run_cmd "$PREFLIGHT" history trend --db "$URL" --metric tasks.io.activation_latency_ns.max
printf '%s\n' "$out" > "$TMP/pg.csv"
"$PREFLIGHT" history add --db "$TMP/h.sqlite" "$D"/k1/run-* "$D"/k2/run-* >/dev/null
"$PREFLIGHT" history trend --db "$TMP/h.sqlite" --metric tasks.io.activation_latency_ns.max > "$TMP/lite.csv"
ok "ci-pg-1.4 trend: the same CSV as from SQLite" cmp "$TMP/pg.csv" "$TMP/lite.csv"
run_cmd "$PREFLIGHT" history list --db "$URL"
is "$(printf '%s\n' "$out" | grep -c 'synthetic-board')" 8 "ci-pg-1.5 list: one line per run"
run_cmd "$PREFLIGHT" history export --db "$URL" --squad "$TMP/squad"
is "$rc:$(json_get "$TMP/squad/metadata.json" job_id)" "0:$(json_get "$D/k2/run-08/run.json" uuid)" \
	"ci-pg-1.6 export: the latest run, its UUID as job_id"

# --- ci-pg-2: two writers at once on a fresh database
"$G" "$D/w" --runs 12 --seed 23 --first 20 || exit 1
"$PREFLIGHT" history add --db "$FRESH" "$D"/w/run-2* > "$TMP/w1.out" 2>&1 & p1=$!
"$PREFLIGHT" history add --db "$FRESH" "$D"/w/run-2[4-9] "$D"/w/run-3* > "$TMP/w2.out" 2>&1 & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
is "$r1/$r2" "0/0" "ci-pg-2.1 both writers succeed" || sed 's/^/# /' "$TMP/w1.out" "$TMP/w2.out"
is "$(psql_q fresh 'SELECT count(*) FROM runs')/$(psql_q fresh 'SELECT count(*) FROM preflight_schema')" "12/1" \
	"ci-pg-2.2 every run once, the schema migrated once"

# --- ci-pg-3: a server that is not there is an environment problem
run_cmd "$PREFLIGHT" history list --db "postgresql://preflight@/history?host=$PGD&port=$((PORT + 1))"
like "$rc:$err" "^3:preflight: history: postgresql://.*: cannot connect" "ci-pg-3.1 no server: exit 3, one line"
done_testing
