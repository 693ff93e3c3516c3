#!/bin/sh
# 0725-run-precheck.t - 'preflight run' checks everything a scenario names before the first
# phase and before it creates anything: privileges, the run directory and its free space,
# the budgets, tools on PATH, flightapp's profile / config / args and sensorsim's sim_args (by
# their own --check); each failure one line naming the scenario file and line;
# 'preflight run --check' does only that
. "$(dirname "$0")/lib/test-lib.sh"
need ROOT BUILT:preflight BUILT:flightapp BUILT:sensorsim
plan 36

# scenario NAME TEXT - a scenario file in $TMP
scenario() { printf '%b' "$2" > "$TMP/$1.ini"; }
# nothing_made ID DIR - DIR does not exist
nothing_made() { if [ -e "$2" ]; then _report 1 "$1 nothing was created ($2 exists)"; else _report 0 "$1 nothing was created"; fi; }

APP='[phase base]\nduration = 2s\nmeasure = cyclictest\n[phase app]\nduration = 3s\nmeasure = flightapp\n'

# --- budgets named by the scenario (the missing file is the one named, at its line)
scenario b1 "[scenario]\nname = b1\nbudgets = budgets/sed.ini\n$APP"
run_cmd "$PREFLIGHT" run "$TMP/b1.ini" -o "$TMP/r-b1"
is "$rc" 2 "run-pre-1.1 a missing budgets file: exit 2 before the first phase"
like "$err" "^preflight: run: $TMP/b1.ini:3: budgets 'budgets/sed.ini': no such file" \
	"run-pre-1.2 the message names the scenario line and the file it names"
nothing_made "run-pre-1.3" "$TMP/r-b1"
printf '[REQ-X]\nmetric = tasks.*.activation_latency_ns.max\n' > "$TMP/nobound.ini"
scenario b2 "[scenario]\nbudgets = $TMP/nobound.ini\n$APP"
run_cmd "$PREFLIGHT" run --check "$TMP/b2.ini"
like "$rc:$err" "^2:preflight: run: $TMP/b2.ini:2: budgets '$TMP/nobound.ini': $TMP/nobound.ini:1: .*bound" \
	"run-pre-1.4 bad budgets content: the scenario line and the budgets file:line (asked of preflight check)"

# --- flightapp and sensorsim judge their own options and configuration
scenario a1 "[flightapp]\nprofile = defualt\n$APP"
run_cmd "$PREFLIGHT" run "$TMP/a1.ini" -o "$TMP/r-a1"
like "$rc:$err" "^2:preflight: run: $TMP/a1.ini:2: flightapp.profile 'defualt': flightapp: --profile: profile 'defualt' not found" \
	"run-pre-2.1 a misspelt profile is found before the baseline phase, with its line"
nothing_made "run-pre-2.2" "$TMP/r-a1"
scenario a2 "[flightapp]\nprofile = default\n${APP}flightapp.args = --no-rt --bogus-flag\n"
run_cmd "$PREFLIGHT" run --check "$TMP/a2.ini"
like "$rc:$err" "^2:preflight: run: $TMP/a2.ini:9: flightapp.args '--no-rt --bogus-flag': flightapp: '--bogus-flag': unknown option" \
	"run-pre-2.3 a bad app argument in a phase, with its line"
scenario a3 "[flightapp]\nconfig = $TMP/none.ini\n$APP"
run_cmd "$PREFLIGHT" run --check "$TMP/a3.ini"
like "$rc:$err" "^2:preflight: run: $TMP/a3.ini:2: flightapp.config '$TMP/none.ini': flightapp: .*none.ini" \
	"run-pre-2.4 a missing app config, with its line"
printf '[task ctl100]\nperiod = banana\n' > "$TMP/badcfg.ini"
scenario a4 "[flightapp]\nconfig = $TMP/badcfg.ini\n$APP"
run_cmd "$PREFLIGHT" run --check "$TMP/a4.ini"
like "$rc:$err" "^2:preflight: run: $TMP/a4.ini:2: flightapp.config '$TMP/badcfg.ini': flightapp: $TMP/badcfg.ini:2" \
	"run-pre-2.5 a bad app config: the scenario line and the config's own file:line"
scenario a5 "[flightapp]\nsim = yes\nsim_args = --rt-priority 200\n$APP"
run_cmd "$PREFLIGHT" run --check "$TMP/a5.ini"
like "$rc:$err" "^2:preflight: run: $TMP/a5.ini:3: flightapp.sim_args '--rt-priority 200': sensorsim: --rt-priority" \
	"run-pre-2.6 bad simulator arguments, with their line"
is "$(printf '%s\n' "$err" | wc -l)" 1 "run-pre-2.7 one line per failure"
scenario a6 "[flightapp]\nprofile = defualt\nsim = yes\nsim_args = --bogus\n[scenario]\nbudgets = budgets/none.ini\n$APP"
run_cmd "$PREFLIGHT" run --check "$TMP/a6.ini"
is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:3" "run-pre-2.8 every failure is reported, not only the first"

# --- tools, disk space
scenario t1 "[phase base]\nduration = 2s\nmeasure = cyclictest\n"
run_cmd env PATH=/nonexistent "$PREFLIGHT" run --check "$TMP/t1.ini"
like "$rc:$err" "^3:preflight: run: phase base: cyclictest: not found in PATH" "run-pre-3.1 a tool missing from PATH: exit 3"
scenario t2 "[phase app]\nduration = 100000h\nmeasure = flightapp\n"
run_cmd "$PREFLIGHT" run "$TMP/t2.ini" -o "$TMP/r-t2"
like "$rc:$err" "^3:preflight: run: run directory '$TMP/r-t2': [0-9]+ MiB free, the planned trace and logs need about [0-9]+ MiB" \
	"run-pre-3.2 too little disk for the planned trace: exit 3 before anything runs"
nothing_made "run-pre-3.3" "$TMP/r-t2"
mkdir "$TMP/full" && : > "$TMP/full/old"
run_cmd "$PREFLIGHT" run --check "$TMP/t1.ini" -o "$TMP/full"
like "$rc:$err" "^2:preflight: run: run directory '$TMP/full': not empty" "run-pre-3.4 a used run directory is a pre-flight error"

# --- --check alone: passes, prints what passed, creates nothing
mkdir "$TMP/cwd"
run_cmd sh -c "cd '$TMP/cwd' && '$PREFLIGHT' run --check quick"
is "$rc" 0 "run-pre-4.1 run --check quick passes here (exit 0)" || printf '%s\n' "$err" | sed 's/^/#   /'
like "$out" "pre-flight: budgets .*seed.ini: ok" "run-pre-4.2 it says the budgets passed"
like "$out" "phase app: flightapp --check with flightapp.profile \\(line [0-9]+\\): ok" "run-pre-4.3 and the app's profile"
like "$out" "quick: 3 phases, [0-9]+ s: every check passed" "run-pre-4.4 and that every check passed"
is "$(ls -A "$TMP/cwd")" "" "run-pre-4.5 --check creates nothing (no runs/)"

# --- a run whose checks pass keeps what they found at the start of run.log
scenario n1 "[phase rest]\nduration = 1s\nmeasure = none\n"
run_cmd "$PREFLIGHT" run "$TMP/n1.ini" -o "$TMP/r-n1" --no-report
like "$(sed -n 2p "$TMP/r-n1/run.log" 2>/dev/null)" "pre-flight: disk: about" "run-pre-5.1 run.log starts with the pre-flight findings"
like "$(grep -n 'every check passed\|phase rest: begin' "$TMP/r-n1/run.log" | cut -d: -f1 | tr '\n' ' ')" "^[0-9]+ [0-9]+ $" \
	"run-pre-5.2 the checks passed before the first phase began"

# --- what the report compares with (--previous, --baseline, --history) is read before the run starts (issue 32.14)
scenario c0 "[scenario]\nname = c0\n[phase rest]\nduration = 1s\nmeasure = none\n"
mkdir "$TMP/prev-empty"
echo '{"schema": "preflight-compare/1"}' > "$TMP/notbase.json"
run_cmd "$PREFLIGHT" run "$TMP/c0.ini" -o "$TMP/r-c1" --previous "$TMP/prev-empty"
like "$rc:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:preflight: run: --previous: $TMP/prev-empty/verdicts.json: unable to open" \
	"run-pre-7.1 --previous without verdicts.json: exit 2, one line"
nothing_made "run-pre-7.2" "$TMP/r-c1"
run_cmd "$PREFLIGHT" run "$TMP/c0.ini" -o "$TMP/r-c2" --baseline "$TMP/notbase.json"
like "$rc:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:preflight: run: --baseline: $TMP/notbase.json: not preflight-baseline/1\$" \
	"run-pre-7.3 --baseline of another schema: exit 2, one line"
nothing_made "run-pre-7.4" "$TMP/r-c2"
run_cmd "$PREFLIGHT" run "$TMP/c0.ini" -o "$TMP/r-c3" --history "$TMP/no.sqlite"
like "$rc:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:preflight: run: --history: $TMP/no.sqlite: no such history database" \
	"run-pre-7.5 --history of a database that does not exist: exit 2, one line"
ok "run-pre-7.6 ... neither the run directory nor the database created" test ! -e "$TMP/r-c3" -a ! -e "$TMP/no.sqlite"
run_cmd "$PREFLIGHT" run --check "$TMP/c0.ini" --previous "$TMP/prev-empty" --no-report
like "$rc:$err" "^2:preflight: run: --previous goes to the report: not with --no-report" "run-pre-7.7 --previous with --no-report: exit 2"
run_cmd "$PREFLIGHT" run --check "$TMP/c0.ini" --progress-every 0
like "$rc:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:preflight: run: --progress-every '0': seconds, 1 to 3600" \
	"run-pre-7.10 --progress-every 0: exit 2, one line"
# qualify checks them before its survey and selftest: nothing of the qualification is made
mkdir "$TMP/q"
run_cmd "$PREFLIGHT" qualify -s "$TMP/c0.ini" -o "$TMP/q/r" --baseline "$TMP/notbase.json"
like "$rc:$err" "^2:preflight: qualify: --baseline: $TMP/notbase.json: not preflight-baseline/1\$" \
	"run-pre-7.8 qualify --baseline of another schema: exit 2, one line"
is "$(ls -A "$TMP/q"):$(printf '%s\n' "$out" | grep -c '^== \(system survey\|measurement validity\)')" ":0" \
	"run-pre-7.9 ... before the survey and the selftest: nothing made (no run directory, no .selftest-*)"

# --- non-root: exit 3, nothing created, not even runs/
if test_have_prereq CMD:setpriv USER:nobody &&
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$PREFLIGHT" --version >/dev/null 2>&1; then
	mkdir "$TMP/user" && chmod 777 "$TMP/user" && chmod 711 "$TMP"
	run_cmd setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		sh -c "cd '$TMP/user' && '$PREFLIGHT' run quick -o '$TMP/user/r'"
	like "$rc:$err" "^3:preflight: run: needs root" "run-pre-6.1 non-root: exit 3, needs root"
	nothing_made "run-pre-6.2" "$TMP/user/r"
	run_cmd setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		sh -c "cd '$TMP/user' && '$PREFLIGHT' run quick"
	is "$rc:$(ls -A "$TMP/user")" "3:" "run-pre-6.3 non-root without -o: no runs/ directory either"
else
	skip "run-pre-6.1 run-pre-6.2 run-pre-6.3" "${prereq_why:-user nobody cannot run $PREFLIGHT}"
fi
done_testing
