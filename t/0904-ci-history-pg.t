#!/bin/sh
# 0904-ci-history-pg.t - preflight history against a real PostgreSQL server:
# a throw-away cluster of Debian's postgresql in a temp directory (run as an
# unprivileged user, on a Unix socket there: no TCP port taken), the same
# round trips as on SQLite, two writers at once on a fresh database (the
# migration runs once), 'history verdicts' giving the same JSON as from SQLite,
# torn down at the end.
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
psql_q postgres "CREATE DATABASE history" && psql_q postgres "CREATE DATABASE fresh" && psql_q postgres "CREATE DATABASE verdicts" ||
	skip_all "cannot create databases"
URL="postgresql://preflight@/history?host=$PGD&port=$PORT"
FRESH="postgresql://preflight@/fresh?host=$PGD&port=$PORT"
VDB="postgresql://preflight@/verdicts?host=$PGD&port=$PORT"
plan 15

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
run_cmd "$PREFLIGHT" history board --db "$URL"
printf '%s\n' "$out" > "$TMP/pg.board"
"$PREFLIGHT" history board --db "$TMP/h.sqlite" > "$TMP/lite.board"
is "$rc:$(grep -vc '^#' "$TMP/pg.board")" "0:2" "ci-pg-1.7 board: one line per board and kernel"
ok "ci-pg-1.8 ... the same as from SQLite" cmp "$TMP/pg.board" "$TMP/lite.board"
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

# --- ci-pg-4: 'history verdicts' (what 'report --history' draws) gives the same JSON from PostgreSQL as from
# SQLite: values that need 17 digits, units, bounds, nulls; two runs started in the same second (ordered by
# UUID), one without a start time (the oldest: PostgreSQL sorts NULLs first in a descending order, SQLite last)
"$G" "$D/v" --runs 6 --seed 24 --first 40 || exit 1
i=0
for r in "$D"/v/run-*; do
	i=$((i + 1))
	perl -MJSON::PP -i -0777 -pe 'my $j = JSON::PP->new->decode($_);
		$j->{started_utc} = "2026-01-02T16:00:00Z" if '$i' == 5;	# the same second as the first
		delete $j->{started_utc} if '$i' == 2;
		$_ = JSON::PP->new->canonical->encode($j)' "$r/run.json"
	# numbers written as text (perl's JSON would print 15 digits): 0.1 + 0.2 needs 17 to be itself
	cat > "$r/verdicts.json" <<-JSON
	{"schema": "preflight-verdicts/1", "result": "fail", "exit_code": 1, "verdicts": [
	 {"test": 1, "id": "REQ-LAT-001", "label": "io wakeup_latency max", "verdict": "$([ $((i % 2)) = 1 ] && echo pass || echo fail)",
	  "value": $i.30000000000000004, "unit": "us", "bound": 62},
	 {"test": 2, "id": "REQ-CPU-001", "label": "app utilisation", "verdict": "not_valid",
	  "value": 33.17978500000001$i, "unit": "%", "bound": 60.000000000000007},
	 {"test": 3, "id": "REQ-SPI-001", "label": "fsw spi_transfer max", "verdict": "pass",
	  "value": 12173$i.803000000001, "unit": "ms", "bound": 1e-7},
	 {"test": 4, "id": "REQ-OVR-001", "label": "io deadline_misses", "verdict": "fail", "value": 11$i, "bound": 0},
	 {"test": 5, "id": "REQ-LOG-001", "label": "loads sd achieved logger dropped", "verdict": "not_measured",
	  "reason": "no job"}]}
	JSON
done
"$PREFLIGHT" history add --db "$VDB" "$D"/v/run-* >/dev/null && "$PREFLIGHT" history add --db "$TMP/v.sqlite" "$D"/v/run-* >/dev/null
bad=
for args in "" "--last 3" "--last 2 --until 2026-01-02T16:00:00Z" "--last 1"; do
	"$PREFLIGHT" history verdicts --db "$VDB" --scenario synthetic $args > "$TMP/vpg.json" 2>&1 || bad="$bad pg($args)"
	"$PREFLIGHT" history verdicts --db "$TMP/v.sqlite" --scenario synthetic $args > "$TMP/vlite.json" 2>&1 || bad="$bad lite($args)"
	cmp -s "$TMP/vpg.json" "$TMP/vlite.json" || { bad="$bad differ($args)"; diff "$TMP/vlite.json" "$TMP/vpg.json" | head -10 | sed 's/^/# /'; }
done
is "$bad" "" "ci-pg-4.1 verdicts: the same JSON from PostgreSQL as from SQLite (all runs, --last 3, --last 2 --until, --last 1)"
"$PREFLIGHT" history verdicts --db "$VDB" --scenario synthetic > "$TMP/vpg.json"
is "$(perl -MJSON::PP -e 'local $/; my @r = @{decode_json(<>)->{runs}}; print join(" ", map { $_->{started_utc} // "none" } @r),
	$r[1]{uuid} lt $r[2]{uuid} ? " by-uuid" : " not-by-uuid"' "$TMP/vpg.json")" \
	"none 2026-01-02T16:00:00Z 2026-01-02T16:00:00Z 2026-01-02T18:00:00Z 2026-01-02T19:00:00Z 2026-01-02T21:00:00Z by-uuid" \
	"ci-pg-4.2 ... oldest first: the run without a start time first, the two of one second by UUID"
# the values exactly as verdicts.json has them (each number read back as the same double)
diffs=
for r in "$D"/v/run-*; do
	uuid=$(json_get "$r/run.json" uuid)
	for db in "$VDB" "$TMP/v.sqlite"; do
		"$PREFLIGHT" history verdicts --db "$db" --scenario synthetic > "$TMP/all.json"
		diffs="$diffs$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0]; my $v = decode_json(<$f>); open $f, "<", $ARGV[1];
			my ($run) = grep { $_->{uuid} eq $ARGV[2] } @{decode_json(<$f>)->{runs}};
			for my $rec (@{$v->{verdicts}}) { my $h = $run->{verdicts}{"$rec->{id} $rec->{label}"};
				for my $k (qw(value unit bound)) { my ($a, $b) = ($rec->{$k}, $h->{$k});
					print " $ARGV[2]:$rec->{id}:$k:", $a // "null", "/", $b // "null"
						unless defined $a ? defined $b && ($k eq "unit" ? $a eq $b : $a == $b) : !defined $b } }' \
			"$r/verdicts.json" "$TMP/all.json" "$uuid")"
	done
done
is "$diffs" "" "ci-pg-4.3 ... each value, unit and bound that of its record (17 digits kept), on both databases"

# --- ci-pg-3: a server that is not there is an environment problem
run_cmd "$PREFLIGHT" history list --db "postgresql://preflight@/history?host=$PGD&port=$((PORT + 1))"
like "$rc:$err" "^3:preflight: history: postgresql://.*: cannot connect" "ci-pg-3.1 no server: exit 3, one line"

# --- ci-pg-5: the server's disk full (a database in a tablespace on a small tmpfs, filled): an
# environment problem, exit 3 as on SQLite (it was exit 2: only SQLite's codes were classified)
if test_have_prereq ROOT && mkdir "$TMP/fs" && mount -t tmpfs -o size=16m "pf-t0904-$$" "$TMP/fs"; then
	mkdir "$TMP/fs/ts" && chown nobody "$TMP/fs/ts"
	if psql_q postgres "CREATE TABLESPACE small LOCATION '$TMP/fs/ts'" 2>"$TMP/ts.err" &&
	   psql_q postgres "CREATE DATABASE fulldisk TABLESPACE small" 2>>"$TMP/ts.err"; then
		psql_q fulldisk "SELECT 1" >/dev/null	# its first connection writes the relation cache's file there
		dd if=/dev/zero of="$TMP/fs/fill" bs=4k 2>/dev/null
		run_cmd "$PREFLIGHT" history add --db "postgresql://preflight@/fulldisk?host=$PGD&port=$PORT" "$D"/k1/run-*
		like "$rc:$(printf '%s\n' "$err" | wc -l):$err" "^3:1:preflight: history: postgresql: .*(No space left|could not extend)" \
			"ci-pg-5.1 the server's disk full: exit 3, one line, the server's reason"
	else
		sed "s/^/# /" "$TMP/ts.err"; skip "ci-pg-5.1" "cannot make a tablespace on the tmpfs"
	fi
	psql_q postgres "DROP DATABASE IF EXISTS fulldisk" >/dev/null 2>&1
	psql_q postgres "DROP TABLESPACE IF EXISTS small" >/dev/null 2>&1
	umount "$TMP/fs"
else
	skip "ci-pg-5.1" "${prereq_why:-cannot mount a tmpfs}"
fi
done_testing
