#!/bin/sh
# 0583-analyze-run-facts.t - 'preflight analyze' folds a run's own facts into
# results.json (--run, --partial, --loads [--phase], --fsw), so that it stays
# the only writer of the file; bad facts are one line, exit 2
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
FX="$TOP/t/fixtures/cyclictest"
plan 13

cat > "$TMP/loads.json" <<'J'
{"schema": "preflight-loads/1", "scenario": "s", "partial": false, "phases": [
 {"phase": "idle", "loads": {}},
 {"phase": "base", "loads": {"cpu": {"achieved": {"ops": 7}}}},
 {"phase": "app", "loads": {"spi": {"achieved": {"transfers": 5}}}}]}
J
echo '{"scenario": "s", "partial": false, "phases": [{"name": "idle"}]}' > "$TMP/run.json"
echo '{"schema": "preflight-fsw-stats v1", "spi_transfer_ns": {"count": 3}}' > "$TMP/fsw.json"
R="$TMP/r.json"

run_cmd "$PREFLIGHT" analyze --cyclictest "$FX/us.json" --run "$TMP/run.json" --loads "$TMP/loads.json" \
	--phase app --fsw "$TMP/fsw.json" -q -o "$R"
is "$rc" 0 "facts-1.1 the cyclictest baseline with a run's facts"
is "$(json_get "$R" run.scenario)/$(json_get "$R" partial)" "s/false" "facts-1.2 run as given, partial false without --partial"
is "$(json_get "$R" loads.spi.achieved.transfers)/$(json_get "$R" loads.cpu 2>/dev/null || echo absent)" "5/absent" "facts-1.3 only the named phase's loads"
is "$(json_get "$R" fsw.spi_transfer_ns.count)" 3 "facts-1.4 fsw as given"
is "$(json_get "$R" cyclictest.format)" json "facts-1.5 the analysis itself unchanged"

run_cmd "$PREFLIGHT" analyze --loads "$TMP/loads.json" --partial -q -o "$R"
is "$rc:$(json_get "$R" loads.spi.achieved.transfers):$(json_get "$R" loads.cpu.achieved.ops)" "0:5:7" \
	"facts-2.1 the facts alone are enough; every phase's loads merged"
is "$(json_get "$R" partial)/$(json_get "$R" trace)/$(json_get "$R" run 2>/dev/null || echo absent)" "true/null/absent" "facts-2.2 --partial, nulls for what was not measured"

run_cmd "$PREFLIGHT" analyze --loads "$TMP/loads.json" --phase nope -o "$R"
is "$rc:$err" "2:preflight: analyze: --phase: 'nope': no such phase in $TMP/loads.json" "facts-3.1 an unknown phase"
echo '[1]' > "$TMP/bad.json"
run_cmd "$PREFLIGHT" analyze --run "$TMP/bad.json" -o "$R"
is "$rc:$err" "2:preflight: analyze: --run: $TMP/bad.json: not a JSON object" "facts-3.2 --run not an object"
echo '{' > "$TMP/bad.json"
run_cmd "$PREFLIGHT" analyze --fsw "$TMP/bad.json" --run "$TMP/run.json" -o "$R"
like "$rc:$err" "^2:preflight: analyze: --fsw: $TMP/bad.json:[0-9]+: not valid JSON" "facts-3.3 --fsw not JSON"
run_cmd "$PREFLIGHT" analyze --loads "$TMP/run.json" -o "$R"
like "$rc:$err" "^2:.*not a loads report" "facts-3.4 --loads of another schema"
run_cmd "$PREFLIGHT" analyze --fsw "$TMP/run.json" --run "$TMP/run.json" -o "$R"
like "$rc:$err" "^2:preflight: analyze: --fsw: $TMP/run.json: not the flight software's statistics \(schema " \
	"facts-3.4a --fsw of another schema: refused, not written into results.json as 'fsw'"
run_cmd "$PREFLIGHT" analyze --phase app -c "$FX/us.json" -o "$R"
like "$rc:$err" "^2:.*--phase: only with --loads" "facts-3.5 --phase without --loads"
