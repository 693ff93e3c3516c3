#!/bin/sh
# 0903-ci-history.t - preflight history on SQLite: add is idempotent by run
# UUID (merging CI artifacts is adding them), the schema version and its
# migration, two writers at once, trend (CSV, PNG, SVG) and the SQUAD export.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:t/ci_genruns
need CMD:sqlite3
need CMD:gnuplot
need CMD:xmllint
plan 35

G="$B/t/ci_genruns"
D="$TMP/runs"
DB="$TMP/h.sqlite"
mkdir -p "$D"
"$G" "$D/k1" --runs 4 --seed 21 --kernel 6.1.0 || exit 1
"$G" "$D/k2" --runs 4 --seed 22 --first 5 --kernel 6.2.0 --scale 1.3 || exit 1
# the verdicts of run-08 are its verdicts.json (docs/verdicts.md); its verdicts.tap, reworded, is never read
cat > "$D/k2/run-08/verdicts.json" <<'JSON'
{"schema": "preflight-verdicts/1", "result": "not_valid", "exit_code": 1, "verdicts": [
 {"test": 1, "id": "REQ-LAT-001", "label": "io activation_latency max", "verdict": "pass", "value": 21, "unit": "us"},
 {"test": 2, "id": "REQ-SPI-001", "label": "fsw spi_transfer max", "verdict": "not_measured", "reason": "no 'fsw' in results.json"},
 {"test": 3, "id": "REQ-CPU-001", "label": "app utilisation", "verdict": "not_valid", "reason": "the cpu load achieved 39.5 % of its target"}]}
JSON
printf '1..1\nok 1 - reworded: the TAP is not what history reads\n' > "$D/k2/run-08/verdicts.tap"

# --- ci-hist-1: add, idempotent
run_cmd "$PREFLIGHT" history add --db "$DB" "$D"/k1/run-*
is "$rc:$out" "0:history: 4 runs added, 0 already there" "ci-hist-1.1 four runs added"
run_cmd "$PREFLIGHT" history add --db "$DB" "$D"/k1/run-* "$D"/k2/run-*
is "$rc:$out" "0:history: 4 runs added, 4 already there" "ci-hist-1.2 adding them again changes nothing"
is "$(sqlite3 "$DB" 'SELECT count(*) FROM runs; SELECT count(*) FROM metrics' | paste -sd/)" "8/176" "ci-hist-1.3 8 runs, 22 metrics each"
is "$(sqlite3 "$DB" 'PRAGMA user_version')" 4 "ci-hist-1.4 the schema version is in PRAGMA user_version"
is "$(sqlite3 "$DB" "SELECT uuid FROM runs WHERE path LIKE '%k1/run-01'")" "$(json_get "$D/k1/run-01/run.json" uuid)" \
	"ci-hist-1.5 a run is keyed by run.json's uuid"
run_cmd "$PREFLIGHT" history list --db "$DB"
is "$(printf '%s\n' "$out" | grep -c 'synthetic-board  6\.[12]\.0  synthetic')" 8 "ci-hist-1.6 list: one line per run"

# the fleet's board: the latest run per board and kernel, its verdicts, its report (issue 31.3)
run_cmd "$PREFLIGHT" history board --db "$DB"
is "$rc:$(printf '%s\n' "$out" | grep -v '^#' | awk '{ print $1, $2, $5, $6, $7, $8 }' | paste -sd'|')" \
	"0:synthetic-board 6.1.0 unknown 0/0/0 $D/k1/run-04/report.html $(json_get "$D/k1/run-04/run.json" uuid)|synthetic-board 6.2.0 unknown 1/1/1 $D/k2/run-08/report.html $(json_get "$D/k2/run-08/run.json" uuid)" \
	"ci-hist-1.7 board: one line per board and kernel, its latest run (run-04, run-08), its verdicts passed/failed/skipped, its report"

# exit 0 is a pass on the board only when every verdict was measured: one not measured (or none at
# all) is incomplete, never a pass on nothing
for k in pass inc none; do
	cp -r "$D/k1/run-04" "$D/b-$k"
	perl -MJSON::PP -i -0777 -pe 'my $j = decode_json($_); $j->{uuid} = "board-'$k'"; $j->{exit_code} = 0;
		$_ = encode_json($j)' "$D/b-$k/run.json"
	perl -MJSON::PP -i -0777 -pe 'my $j = decode_json($_); $j->{hostname} = "board-'$k'"; $_ = encode_json($j)' \
		"$D/b-$k/sysinfo.json"
done
printf '{"schema": "preflight-verdicts/1", "verdicts": [{"id": "REQ-A", "label": "a", "verdict": "pass"}]}\n' > "$D/b-pass/verdicts.json"
printf '{"schema": "preflight-verdicts/1", "verdicts": [{"id": "REQ-A", "label": "a", "verdict": "pass"},
 {"id": "REQ-B", "label": "b", "verdict": "not_measured"}]}\n' > "$D/b-inc/verdicts.json"
rm -f "$D/b-none/verdicts.json"
"$PREFLIGHT" history add --db "$TMP/b.sqlite" "$D"/b-* >/dev/null
is "$("$PREFLIGHT" history board --db "$TMP/b.sqlite" | grep -v '^#' | awk '{ print $1, $5, $6 }' | paste -sd'|')" \
	"board-inc incomplete 1/0/1|board-none incomplete 0/0/0|board-pass pass 1/0/0" \
	"ci-hist-1.9 board: exit 0 is pass only with every verdict measured; a not measured one, or none, is incomplete"
(cd "$D/k1" && "$PREFLIGHT" history add --db "$TMP/rel.sqlite" run-01 >/dev/null)
is "$(sqlite3 "$TMP/rel.sqlite" 'SELECT path FROM runs')" "$(cd "$D/k1/run-01" && pwd -P)" \
	"ci-hist-1.8 a run given by a relative path is stored by its absolute one (a shared history says where each report is)"

# --- ci-hist-2: a version-1 database is migrated; a newer one is refused
V1="$TMP/v1.sqlite"
sqlite3 "$V1" "CREATE TABLE runs (uuid TEXT PRIMARY KEY, path TEXT, started_utc TEXT, board TEXT,
	kernel_release TEXT, config_hash TEXT, isolation TEXT, scenario TEXT, scenario_hash TEXT,
	preflight_version TEXT, exit_code INTEGER, added_utc TEXT);
	CREATE TABLE metrics (uuid TEXT NOT NULL REFERENCES runs(uuid), key TEXT NOT NULL, subject TEXT, metric TEXT,
	stat TEXT, kind TEXT, unit TEXT, value DOUBLE PRECISION, samples BIGINT, PRIMARY KEY (uuid, key));
	INSERT INTO runs (uuid, board) VALUES ('old-run', 'b'); PRAGMA user_version = 1;"
run_cmd "$PREFLIGHT" history add --db "$V1" "$D/k2/run-08"
is "$rc:$(sqlite3 "$V1" 'PRAGMA user_version; SELECT count(*) FROM runs; SELECT count(*) FROM verdicts' | paste -sd/)" "0:4/2/3" \
	"ci-hist-2.1 version 1 migrated to 4, its rows kept, verdicts stored"
sqlite3 "$V1" 'PRAGMA user_version = 9'
run_cmd "$PREFLIGHT" history list --db "$V1"
like "$rc:$err" "^2:.*schema version 9 is newer than this preflight's \(4\)" "ci-hist-2.2 a newer schema is refused, exit 2"

# --- ci-hist-3: two writers at once
"$G" "$D/w" --runs 12 --seed 23 --first 20 || exit 1
W="$TMP/w.sqlite"
"$PREFLIGHT" history add --db "$W" "$D"/w/run-2* > "$TMP/w1.out" 2>&1 & p1=$!
"$PREFLIGHT" history add --db "$W" "$D"/w/run-2[4-9] "$D"/w/run-3* > "$TMP/w2.out" 2>&1 & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
is "$r1/$r2/$(sqlite3 "$W" 'SELECT count(*) FROM runs')" "0/0/12" "ci-hist-3.1 two writers at once: every run once"

# --- ci-hist-4: trend
run_cmd "$PREFLIGHT" history trend --db "$DB" --metric tasks.io.activation_latency_ns.max
is "$(printf '%s\n' "$out" | head -1)/$(printf '%s\n' "$out" | wc -l)" "started_utc,kernel_release,uuid,value/9" \
	"ci-hist-4.1 trend CSV: a header and one row per run"
like "$(printf '%s\n' "$out" | sed -n 2p)" "^2026-01-01T01:00:00Z,6\.1\.0,[0-9a-f-]{36},[0-9]+\.[0-9]{3}$" \
	"ci-hist-4.2 rows in time order, the value in us"
run_cmd "$PREFLIGHT" history trend --db "$DB" --metric tasks.io.activation_latency_ns.max --by kernel --csv "$TMP/k.csv"
is "$(cut -d, -f2,3 "$TMP/k.csv" | paste -sd' ')" "kernel_release,runs 6.1.0,4 6.2.0,4" "ci-hist-4.3 --by kernel: one row per kernel"
run_cmd "$PREFLIGHT" history trend --db "$DB" --metric tasks.io.activation_latency_ns.max --csv /dev/null \
	--plot "$TMP/t.png" --budget 62
is "$rc:$(head -c 4 "$TMP/t.png" | od -An -c | tr -d ' ')" '0:211PNG' "ci-hist-4.4 a PNG plot with the budget line"
run_cmd "$PREFLIGHT" history trend --db "$DB" --metric tasks.io.activation_latency_ns.max --csv /dev/null \
	--by kernel --plot "$TMP/t.svg" --budget 62
ok "ci-hist-4.5 an SVG plot, well-formed XML" xmllint --noout "$TMP/t.svg"
run_cmd "$PREFLIGHT" history trend --db "$DB" --metric no.such.metric
is "$rc" 2 "ci-hist-4.6 a metric no run has: exit 2"

# --- ci-hist-5: export for SQUAD
uuid=$(json_get "$D/k2/run-08/run.json" uuid)
run_cmd "$PREFLIGHT" history export --db "$DB" --squad "$TMP/squad"
is "$rc:$(json_get "$TMP/squad/metadata.json" job_id)" "0:$uuid" "ci-hist-5.1 the latest run, its UUID as job_id"
is "$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0]; my $t = decode_json(<$f>);
	print join " ", map { "$_=$t->{$_}" } sort keys %$t' "$TMP/squad/tests.json")" \
	"preflight/REQ-CPU-001 app utilisation=fail preflight/REQ-LAT-001 io activation_latency max=pass preflight/REQ-SPI-001 fsw spi_transfer max=skip" \
	"ci-hist-5.2 tests.json: the verdicts of verdicts.json by their stable names (not measured: skip; not valid: fail), none of the TAP's"
like "$(cat "$TMP/squad/metrics.json")" '"preflight/tasks.io.activation_latency_ns.p99": [0-9.]+' "ci-hist-5.3 metrics.json: the run-level metrics"

# --- ci-hist-7: one name per metric, its results.json path (issue 27, "Names")
# a version-2 database keyed as preflight stored metrics before: subject.metric.stat
O="$TMP/v2-names.sqlite"
cp "$DB" "$O"
sqlite3 "$O" "UPDATE metrics SET key = subject || '.' || metric || '.' || stat; ALTER TABLE verdicts DROP COLUMN value;
	ALTER TABLE verdicts DROP COLUMN unit; ALTER TABLE verdicts DROP COLUMN bound; PRAGMA user_version = 2"
run_cmd "$PREFLIGHT" history trend --db "$DB" --metric tasks.io.activation_latency_ns.max
want="$rc:$out"
run_cmd "$PREFLIGHT" history trend --db "$O" --metric tasks.io.activation_latency_ns.max
is "$rc:$(printf '%s\n' "$out" | wc -l)" "0:9" "ci-hist-7.1 trend --metric tasks.io.activation_latency_ns.max on a database of the older names"
is "$(sqlite3 "$O" "PRAGMA user_version; SELECT count(*) FROM metrics WHERE key LIKE 'io.%'; SELECT count(*) FROM metrics WHERE key = 'tasks.io.activation_latency_ns.max'" | paste -sd/)" \
	"4/0/8" "ci-hist-7.2 ... its metrics renamed to their paths once, by the migration to version 3 (then 4)"
run_cmd "$PREFLIGHT" history trend --db "$O" --metric io.activation_latency.max
is "$rc:$out" "$want" "ci-hist-7.3 --metric in the older spelling: the same CSV"
run_cmd "$PREFLIGHT" history trend --db "$DB" --metric tasks.io.activation_latency_ns.max --budget '62 µs' --csv /dev/null --plot "$TMP/mu.svg"
is "$rc:$(grep -q 'budget 62 us' "$TMP/mu.svg" && echo drawn)" "0:drawn" "ci-hist-7.4 --budget '62 µs': a time read as check reads a bound (62 us)"
run_cmd "$PREFLIGHT" history trend --db "$DB" --metric tasks.io.activation_latency_ns.max --budget 0x10us
like "$rc:$out:$err" "^2::preflight: history: bad --budget '0x10us'" "ci-hist-7.5 --budget 0x10us: no budget, as in check (exit 2)"

# --- ci-hist-7: the verdicts of a scenario's last runs, with their values (what 'report --history' draws)
run_cmd "$PREFLIGHT" history verdicts --db "$DB" --scenario synthetic --last 2
is "$rc:$(printf '%s\n' "$out" | perl -MJSON::PP -e 'local $/; my $j = decode_json(<>); my @r = @{$j->{runs}};
	print join " ", $j->{schema}, scalar @r, map({ $_->{started_utc} } @r),
		map { my $v = $r[-1]{verdicts}{$_}; "$_=" . join "/", map { $v->{$_} // "null" } qw(result value unit bound) }
		sort keys %{$r[-1]{verdicts}}')" \
	"0:preflight-history-verdicts/1 2 2026-01-01T07:00:00Z 2026-01-01T08:00:00Z REQ-CPU-001 app utilisation=fail/null/null/null REQ-LAT-001 io activation_latency max=pass/21/us/null REQ-SPI-001 fsw spi_transfer max=skip/null/null/null" \
	"ci-hist-7.1 the last 2 runs of the scenario, oldest first; the latest's verdicts with value, unit and bound (null where the record has none)"
run_cmd "$PREFLIGHT" history verdicts --db "$DB" --scenario no-such-scenario
is "$rc:$(printf '%s\n' "$out" | tr -d ' \n')" '0:{"boards":[],"runs":[],"scenario":"no-such-scenario","schema":"preflight-history-verdicts/1"}' \
	"ci-hist-7.2 a scenario with no run: no runs, no board, exit 0"
# the scenario's board beside its runs (the report's fleet table): the same rows as 'history board --scenario'
run_cmd "$PREFLIGHT" history verdicts --db "$DB" --scenario synthetic --last 2
is "$(printf '%s\n' "$out" | perl -MJSON::PP -e 'local $/; print join "|", map { join " ", @$_{qw(board kernel_release result)},
	"$_->{passed}/$_->{failed}/$_->{skipped}", "$_->{path}/report.html", $_->{uuid} } @{decode_json(<>)->{boards}}')" \
	"$("$PREFLIGHT" history board --db "$DB" --scenario synthetic | grep -v '^#' | awk '{ print $1, $2, $5, $6, $7, $8 }' | paste -sd'|')" \
	"ci-hist-7.8 verdicts: the scenario's board, as 'history board --scenario' prints it"
run_cmd "$PREFLIGHT" history board --db "$DB" --scenario no-such-scenario
is "$rc:$out" "0:# board  kernel_release  started_utc  scenario  result  passed/failed/skipped  report  uuid" \
	"ci-hist-7.9 board --scenario of a scenario with no run: the header alone"
run_cmd "$PREFLIGHT" history verdicts --db "$DB"
like "$rc:$err" "^2:preflight: history: verdicts: no --scenario NAME$" "ci-hist-7.3 no --scenario: exit 2, said"
run_cmd "$PREFLIGHT" history list --db "$DB" --last 3
like "$rc:$err" "^2:.*list: --last is an option of verdicts only" "ci-hist-7.4 --last belongs to verdicts"
# --until: the runs started at or before it (a report of an old run shows none after it, issue 32)
run_cmd "$PREFLIGHT" history verdicts --db "$DB" --scenario synthetic --last 3 --until 2026-01-01T05:00:00Z
is "$rc:$(printf '%s\n' "$out" | perl -MJSON::PP -e 'local $/; print join " ", map { $_->{started_utc} } @{decode_json(<>)->{runs}}')" \
	"0:2026-01-01T03:00:00Z 2026-01-01T04:00:00Z 2026-01-01T05:00:00Z" \
	"ci-hist-7.6 verdicts --until 05:00: the last 3 runs up to and including 05:00, none after"
run_cmd "$PREFLIGHT" history verdicts --db "$DB" --scenario synthetic --until 2026-01-01
like "$rc:$err" "^2:preflight: history: bad --until '2026-01-01' \(a UTC time as run.json's started_utc" \
	"ci-hist-7.7 --until not a UTC time as run.json writes it: exit 2, said"

# libpq is loaded when a PostgreSQL URL is opened (ci/histdb.c): without it, one line and exit 3,
# here with libpq.so.5 hidden (an empty file over it) in a mount namespace of the command's own
libpq=$(ldconfig -p | awk '$1 == "libpq.so.5" {print $NF; exit}')
if test_have_prereq ROOT && [ -n "$libpq" ] && unshare -m true 2>/dev/null; then
	run_cmd unshare -m sh -c "mount --bind /dev/null '$libpq' && exec '$PREFLIGHT' history list --db postgresql://nobody@127.0.0.1:1/none"
	like "$rc:$(printf '%s\n' "$err" | wc -l):$err" \
		'^3:1:preflight: history: postgresql://nobody@127.0.0.1:1/none: cannot connect: libpq cannot be loaded \(.*apt install libpq5\)$' \
		"ci-hist-6.1 libpq missing: one line saying so, exit 3"
else
	skip "ci-hist-6.1" "${prereq_why:-no libpq.so.5, or no mount namespace}"
fi
done_testing
