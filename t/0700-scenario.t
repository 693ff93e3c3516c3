#!/bin/sh
# 0700-scenario.t - scenario files: every bad one is a usage error naming file:line;
# 'preflight load' parameter checking; the shipped scenarios parse
. "$(dirname "$0")/lib/test-lib.sh"
plan 38

# bad SCENARIO-TEXT EXPECTED-REGEX ID - 'preflight run' on it exits 2 with file:line
bad() {
	printf '%b' "$1" > "$TMP/bad.ini"
	run_cmd "$PREFLIGHT" run "$TMP/bad.ini" -o "$TMP/run-bad"
	is "$rc" 2 "$3 exit 2" && like "$err" "^preflight: run: $TMP/bad.ini:$2" "$3 message names file:line"
}

bad '[scenario]\nname = x\n[phase a]\nduration = 5s\nmeasure = sometimes\n' \
	'5: measure: .sometimes.: expected cyclictest, flightapp or none' "scenario-1.1 bad measure"
bad '[scenario]\n[phase a]\nduration = 5s\nloads = wifi warp\n' \
	"4: loads: 'warp': no such load" "scenario-1.2 unknown load"
bad '[load wifi]\nrate = fast\n[phase a]\nduration = 5s\n' \
	"2: wifi.rate: 'fast': bad value" "scenario-1.3 bad load parameter"
bad '[phase a]\nduration = 5s\nsd.colour = blue\n' \
	"3: sd: 'colour': unknown parameter" "scenario-1.4 unknown load parameter in a phase"
bad '[scenario]\n\n[phase a]\nmeasure = cyclictest\n[phase b]\nduration = 2s\n' \
	"3: phase 'a': no duration" "scenario-1.5 missing duration names the phase header"
bad '[phase a]\nduration = 2s\n[phase a]\nduration = 3s\n' \
	"3: phase 'a' defined twice \\(line 1\\)" "scenario-1.6 duplicate phase"
bad '[phase a]\nduration = 2s\nthis line is broken\n' \
	"3: syntax error" "scenario-1.7 syntax error"
bad "[scenario]\\ndescription = $(printf '%0300d' 0)\\n[phase a]\\nduration = 2s\\n" \
	"2: line too long \\(at most 199 characters\\)" "scenario-1.7a an overlong line is an error at its own line"
bad '[scenario]\nname = nothing\n' \
	"2: no \\[phase NAME\\] section" "scenario-1.8 no phase"
bad '[cyclictest]\npriority = 120\n[phase a]\nduration = 2s\n' \
	"2: cyclictest.priority: '120': bad value" "scenario-1.9 bad cyclictest priority"
bad '[phase a]\nduration = 0.5s\n' \
	"2: duration: '0.5s'" "scenario-1.10 duration below 1 s"
bad '[flightapp]\nmax_snapshots = 0\n[phase a]\nduration = 2s\n' \
	"2: flightapp.max_snapshots: '0': expected 1..10000" "scenario-1.11 a snapshot budget of none"
bad '[flightapp]\nwakeups = some\n[phase a]\nduration = 2s\n' \
	"2: flightapp.wakeups: 'some': expected rt or all" "scenario-1.12 a wakeup filter that is none"

run_cmd "$PREFLIGHT" run no-such-scenario -o "$TMP/run-none"
is "$rc" 2 "scenario-2.1 unknown scenario name exits 2"
like "$err" "scenario 'no-such-scenario': not found" "scenario-2.2 and says so"

for s in quick seed soak kernel-traced; do
	# --help of load lists nothing of the scenario; parse by asking run with a bad budgets file,
	# which fails after the scenario parsed (exit 2 naming the budgets, not the scenario)
	run_cmd "$PREFLIGHT" run "$s" -o "$TMP/run-$s" --budgets "$TMP/none.ini"
	like "$err" "budgets '$TMP/none.ini': no such file" "scenario-3.$s shipped scenario '$s' parses"
done

mkdir "$TMP/full" && : > "$TMP/full/old-evidence"
run_cmd "$PREFLIGHT" run quick -o "$TMP/full"
like "$rc:$err" "^2:preflight: run: run directory '$TMP/full': not empty" "scenario-2.3 never mixes two runs in one directory"

run_cmd "$PREFLIGHT" load warp
is "$rc" 2 "scenario-4.1 preflight load: unknown load exits 2"
run_cmd "$PREFLIGHT" load spi rate=fast
like "$rc:$err" "^2:.*spi: rate: 'fast': bad value" "scenario-4.2 bad parameter value exits 2 naming it"
run_cmd "$PREFLIGHT" load cpu colour=blue
like "$rc:$err" "^2:.*cpu: 'colour': unknown parameter" "scenario-4.3 unknown parameter exits 2"
run_cmd "$PREFLIGHT" load --list
like "$out" "rt-swarm - " "scenario-4.4 --list names every load"

# every key of docs/scenarios.md's Format example is named in 'run --help' (its summary of the
# file); a load's own parameters are its own --help's
keys=$(awk '/^## Format/ { on = 1 } on && /^```$/ { exit } /^\[/ { load = /^\[load / }
	on && !load && /^[a-z_]+ *=/ { sub(/ *=.*/, ""); print }' \
	"$TOP/docs/scenarios.md" | sort -u)
run_cmd "$PREFLIGHT" run --help
missing=""
for k in $keys; do
	printf '%s\n' "$out" | sed -n '/^scenario file/,/^$/p' | grep -qw -- "$k" || missing="$missing $k"
done
is "$(echo $keys | wc -w):$missing" "$(echo $keys | wc -w):" \
	"scenario-4.5 run --help names every key of the scenario file ($(echo $keys | wc -w) in docs/scenarios.md)"
done_testing
