#!/bin/sh
# 0005-install.t - an installed preflight finds its data files: 'make install
# PREFIX=...' from this tree, then, from another directory, the installed
# programs find scenarios, profiles and budgets by name in the installed
# share directory (no source tree, no $PREFLIGHT_DATA), run a tiny scenario and
# a qualification of it, and produce their verdicts. A name not found is one
# error line naming every place searched.
#
# The install relinks build/'s programs with the test's DATADIR compiled in;
# they still find the source tree first, and the next make puts back the
# default.
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
need RT
need BUILT:preflight BUILT:flightapp
plan 15

P="$TMP/p"
D="$P/share/preflight"
run_cmd env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u PREFLIGHT_DATA make -C "$TOP" --no-print-directory install PREFIX="$P"
is "$rc" 0 "install-1.1 make install PREFIX=... succeeds"
ok "install-1.2 ... installs the programs" test -x "$P/bin/preflight" -a -x "$P/bin/flightapp"
ok "install-1.3 ... and the budgets, profiles and scenarios" \
	test -r "$D/budgets/seed.ini" -a -r "$D/profiles/omap3-60.ini" -a -r "$D/scenarios/quick.ini"

# from a directory that is not the source tree, with nothing pointing at the data
cd "$TMP" || exit 1
unset PREFLIGHT_DATA

# a scenario by name: 'quick' resolves and parses (the non-empty run directory then stops it)
mkdir full && : > full/x
run_cmd "$P/bin/preflight" run quick -o full
is "$rc:$err" "2:preflight: run: run directory 'full': not empty" \
	"install-2.1 'run quick' finds the scenario in the installed share directory"
run_cmd "$P/bin/preflight" run no-such-scenario -o full
like "$rc:$(printf '%s\n' "$err" | wc -l | tr -d ' '):$err" \
	"^2:1:preflight: run: scenario 'no-such-scenario': not found \\(searched .*\\(build tree\\), $D/scenarios/no-such-scenario\\.ini \\(installed\\)\\)$" \
	"install-2.2 a scenario not found: one line naming every place searched"

# a profile by name, from the installed flightapp
run_cmd "$P/bin/flightapp" --no-rt --quiet --duration 0.05 --profile omap3-60 --stats-json "$TMP/app.json"
is "$rc:$(json_get "$TMP/app.json" .config)" "0:$D/profiles/omap3-60.ini" \
	"install-3.1 flightapp --profile NAME finds the installed profile"

# a tiny scenario: a short cyclictest baseline, then the app on a named profile;
# no budgets key, so the default budgets/seed.ini must come from the installed share
cat > "$TMP/tiny.ini" <<'INI'
[scenario]
name        = tiny
description = a short idle cyclictest phase, then the app on a profile
[flightapp]
profile = omap3-60
sim     = no
[phase idle]
duration = 2s
measure  = cyclictest
[phase app]
duration = 2s
measure  = flightapp
INI
run_cmd "$P/bin/preflight" run "$TMP/tiny.ini" -o run1
like "$rc" "^[01]$" "install-4.1 the installed preflight runs a scenario to its verdicts (exit 0 or 1)"
ok "install-4.2 ... with verdicts.tap" test -s run1/verdicts.tap
ok "install-4.3 ... from the installed budgets/seed.ini" cmp -s run1/budgets.ini "$D/budgets/seed.ini"
like "$(head -1 run1/verdicts.tap)" "^1\\.\\.[1-9]" "install-4.4 ... which is TAP with a plan"
is "$(json_get run1/02-app/app-stats.json .config)" "$D/profiles/omap3-60.ini" \
	"install-4.5 ... and the app ran on the installed profile"

run_cmd "$P/bin/preflight" qualify --scenario "$TMP/tiny.ini" -o run2
like "$rc" "^[01]$" "install-5.1 the installed preflight qualifies (exit 0 or 1)"
ok "install-5.2 ... with verdicts.tap" test -s run2/verdicts.tap
ok "install-5.3 ... and its summary" test -s run2/qualification.txt

# a budgets file that is named but not installed: the run stops before its first phase
run_cmd "$P/bin/preflight" run "$TMP/tiny.ini" -o run3 --budgets budgets/none.ini
like "$rc:$err" "^2:preflight: run: budgets 'budgets/none.ini': no such file; searched .*$D/budgets/none\\.ini \\(installed\\)$" \
	"install-6.1 budgets not found: exit 2 before any phase, naming every place searched"
done_testing
