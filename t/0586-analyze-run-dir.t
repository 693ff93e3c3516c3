#!/bin/sh
# 0586-analyze-run-dir.t - 'preflight analyze RUN' takes everything the run
# directory holds, the way 'preflight run' gives it to its own analysis
# (bench/run.c run_facts_argv): the app phase's trace, job log and fsw.json,
# run.json's facts (--run: scenario name, partial, phases) and loads.json's
# loads of that phase (--loads --phase). It took fsw.json only: check went
# from 15 pass / 7 fail to 14 / 6 / 2 not measured, REQ-SPI-001 from FAIL to
# SKIP (issue 27 item 3). A copy of the committed run (t/fixtures/run) with a
# gentrace trace and job log as its app phase's.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:t/gentrace
plan 14

R="$TMP/run"
cp -r "$TOP/t/fixtures/run" "$R"
"$B/t/gentrace" basic "$R/03-app/trace.dat" "$R/03-app/jobs.csv" >/dev/null
# the facts run gives analyze (its memory file): run.json's scenario name, partial and phases
perl -MJSON::PP -e 'my $r = decode_json(do { local $/; <STDIN> });
	print JSON::PP->new->canonical->encode({ scenario => $r->{scenario}{name}, partial => $r->{partial},
						 phases => $r->{phases} })' < "$R/run.json" > "$TMP/facts.json"

run_cmd "$PREFLIGHT" analyze -q "$R" -o "$TMP/dir.json"
is "$rc" 0 "rundir-1.1 analyze RUN"
run_cmd "$PREFLIGHT" analyze -q --trace "$R/03-app/trace.dat" --joblog "$R/03-app/jobs.csv" --run "$TMP/facts.json" \
	--loads "$R/loads.json" --phase app --fsw "$R/03-app/fsw.json" -o "$TMP/run.json"
is "$rc" 0 "rundir-1.2 analyze as preflight run calls it"
for k in run.scenario run.phases loads fsw partial; do
	[ "$(json_get "$TMP/dir.json" "$k")" = "$(json_get "$TMP/run.json" "$k")" ] || echo "$k differs"
done > "$TMP/diff"
is "$(cat "$TMP/diff")" "" "rundir-1.3 ... the same run, loads, fsw and partial in results.json"
check_tap() { "$PREFLIGHT" check --budgets "$TOP/budgets/seed.ini" "$1" | grep -v '^# preflight check: '; }
check_tap "$TMP/dir.json" > "$TMP/dir.tap"
check_tap "$TMP/run.json" > "$TMP/run.tap"
ok "rundir-1.4 check's verdicts are the run's own" diff "$TMP/run.tap" "$TMP/dir.tap"
like "$(grep 'REQ-SPI-001 loads spi' "$TMP/dir.tap")" "^not ok [0-9]+ - REQ-SPI-001 loads spi achieved transfer_time max$" \
	"rundir-1.5 REQ-SPI-001 of the spi load FAIL, not SKIP (not measured)"
is "$(json_get "$TMP/dir.json" loads.sd.load 2>/dev/null)" sd "rundir-1.6 the app phase's loads only (sd ran there)"

# a run that ended partial: the inputs are marked partial, as run's --partial does
perl -0777 -pi -e 's/"partial": false,\n  "interrupted_by"/"partial": true,\n  "interrupted_by"/' "$R/run.json"
run_cmd "$PREFLIGHT" analyze -q "$R" -o "$TMP/p.json"
is "$rc:$(json_get "$TMP/p.json" partial):$(json_get "$TMP/p.json" run.partial)" "0:true:true" \
	"rundir-2.1 run.json partial: results.json partial"

# what an option gives wins over the run directory's own
printf '{"scenario": "given"}' > "$TMP/given.json"
run_cmd "$PREFLIGHT" analyze -q "$R" --run "$TMP/given.json" -o "$TMP/g.json"
is "$rc:$(json_get "$TMP/g.json" run.scenario)" "0:given" "rundir-3.1 --run given wins over run.json"

# what run.json's phases had and the directory no longer holds is said, one note each (it was silent:
# a run whose trace --keep-trace removed, or a copy without it, re-analysed to nulls, check's FAILs to SKIPs)
run_cmd "$PREFLIGHT" analyze -q "$R" -o "$TMP/l.json"
is "$rc:$err" "0:preflight: analyze: note: $R: left out: 02-loaded/cyclictest.json is not there: no cyclictest baseline" \
	"rundir-5.1 a cyclictest phase without its cyclictest.json: said"
cp "$TOP/t/fixtures/cyclictest/ns.json" "$R/02-loaded/cyclictest.json"
run_cmd "$PREFLIGHT" analyze -q "$R" -o "$TMP/l.json"
is "$rc:$err:$(json_get "$TMP/l.json" inputs.cyclictest)" "0::$R/02-loaded/cyclictest.json" \
	"rundir-5.2 ... with it: taken, nothing said"
rm "$R/03-app/trace.dat"
perl -MJSON::PP -0777 -pi -e 'my $r = decode_json($_); $_->{trace} = "full" for @{$r->{phases}};
	$r->{traces} = [{ file => "03-app/trace.dat", action => "removed" }]; $_ = encode_json($r)' "$R/run.json"
run_cmd "$PREFLIGHT" analyze -q "$R" -o "$TMP/l.json"
is "$rc:$err" "0:preflight: analyze: note: $R: left out: 03-app/trace.dat is not there (run.json: the run's analysis, then removed): what only the trace gives (wakeup latencies, execution times, culprits, threads) is null" \
	"rundir-5.3 the app phase's trace --keep-trace removed: said, with what run.json says became of it"
rm "$R/03-app/jobs.csv"
perl -MJSON::PP -0777 -pi -e 'my $r = decode_json($_); $r->{traces} = []; $_ = encode_json($r)' "$R/run.json"
run_cmd "$PREFLIGHT" analyze -q "$R" -o "$TMP/l.json"
like "$err" "note: $R: left out: 03-app/trace\\.dat is not there \\(run.json: the phase traced full\\).*
.*note: $R: left out: 03-app/jobs\\.csv is not there: the job log's figures are null" \
	"rundir-5.4 neither trace nor job log: both said"
perl -MJSON::PP -0777 -pi -e 'my $r = decode_json($_); $_->{trace} = "flight" for @{$r->{phases}}; $_ = encode_json($r)' "$R/run.json"
run_cmd "$PREFLIGHT" analyze -q "$R" -o "$TMP/l.json"
like "$err" "note: $R: left out: 03-app's flight-recorder snapshots \\(trace-NNN\\.dat; --snapshots $R/03-app reads them\\)" \
	"rundir-5.5 a flight-recorder phase: its snapshots named as left out, and how to read them"

printf '{' > "$R/run.json"
run_cmd "$PREFLIGHT" analyze -q "$R" -o "$TMP/bad.json"
like "$rc:$err" "^2:preflight: analyze: $R/run\\.json:[0-9:]+: not a run manifest" \
	"rundir-4.1 a run.json that is not JSON: exit 2, one line"
