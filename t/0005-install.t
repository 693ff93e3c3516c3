#!/bin/sh
# 0005-install.t - an installed preflight finds its data files: 'make install
# DESTDIR=...' from this tree, then, from another directory, the installed
# programs find scenarios, profiles and budgets by name in the installed
# share directory (no source tree, no $PREFLIGHT_DATA), run a tiny scenario and
# a qualification of it, and produce their verdicts. A name not found is one
# error line naming every place searched. The man pages (one per command, from the --help
# texts), the bash completion, the docs and the trace-cmd plugin are installed where Debian
# keeps them under the prefix.
#
# Installed with DESTDIR, the way a package is staged: build/'s programs are
# copied as they are (their DATADIR is the default, which holds nothing here),
# and find the data in share/preflight beside their bin/, so nothing is relinked
# under the tests that run beside this one.
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
need RT
need BUILT:preflight BUILT:flightapp
plan 24

P="$TMP/d/usr/local"
D="$P/share/preflight"
# (the build's own identity, so that a tree edited since the build, "-dirty", relinks nothing
# under the tests running beside this one: t/0905 once found build/preflight half written)
ident=$(sed -n 's/^#define PF_GIT_COMMIT "\(.*\)"$/\1/p' "$B/identity.h" 2>/dev/null)
run_cmd env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u PREFLIGHT_DATA make -C "$TOP" --no-print-directory install DESTDIR="$TMP/d" \
	PREFIX=/usr/local PLUGINDIR=/usr/local/lib/traceevent/plugins ${ident:+RUN_GIT_COMMIT="$ident"}
is "$rc" 0 "install-1.1 make install DESTDIR=... succeeds"
ok "install-1.2 ... installs the programs" test -x "$P/bin/preflight" -a -x "$P/bin/flightapp"
ok "install-1.3 ... and the budgets, profiles and scenarios" \
	test -r "$D/budgets/seed.ini" -a -r "$D/profiles/omap3-60.ini" -a -r "$D/scenarios/quick.ini"

# man pages: one per command and program, made from the same text as --help
M="$P/share/man/man1"
cmds=$("$P/bin/preflight" help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' | grep -v '^help$')
missing=
for c in $cmds; do [ -r "$M/preflight-$c.1" ] || missing="$missing preflight-$c.1"; done
for m in preflight flightapp sensorsim; do [ -r "$M/$m.1" ] || missing="$missing $m.1"; done
is "$missing" "" "install-7.1 a man page for preflight, each command, flightapp and sensorsim in share/man/man1"
page=$(MANPATH="$P/share/man" LC_ALL=C MANWIDTH=200 man preflight-run 2>/dev/null)
absent=
for o in $("$P/bin/preflight" help run | grep -oE '^ +(-[a-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
	printf '%s' "$page" | grep -q -- "$o" || absent="$absent $o"
done
like "$(printf '%s' "$page" | head -1):$absent" "^PREFLIGHT-RUN\(1\).*:$" "install-7.2 'man preflight-run' shows every option of its --help"
like "$(printf '%s\n' "$page" | grep -A1 -- '--check$' | tail -1)" "only the pre-flight checks" "install-7.3 ... with the --help text"
like "$(MANPATH="$P/share/man" LC_ALL=C man preflight 2>/dev/null | grep -c 'preflight-')" '^[1-9]' "install-7.4 'man preflight' lists the commands' pages"
C="$P/share/bash-completion/completions/preflight"
comp() { bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _preflight; echo "${COMPREPLY[*]}"' _ "$C" "$@"; }
is "$(comp preflight r)" "record report run" "install-7.5 bash completion: the commands"
is "$(comp preflight run --ch):$(comp preflight history e)" "--check:export" "install-7.6 ... each command's options and subcommands"
ok "install-7.7 the docs in share/doc/preflight" test -r "$P/share/doc/preflight/README.md" -a -r "$P/share/doc/preflight/scenarios.md"
if test_have_prereq CMD:trace-cmd; then
	like "$(TRACEEVENT_PLUGIN_DIR="$P/lib/traceevent/plugins" trace-cmd report "$TOP/traces/ref/app-alone.dat" 2>/dev/null | grep -m1 raw_data)" \
		"raw_data: +job_start io #0 " "install-7.8 the trace-cmd plugin, installed in PLUGINDIR, decodes the markers"
else
	skip "install-7.8"
fi

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
	"^2:1:preflight: run: scenario 'no-such-scenario': not found \\(searched .*\\(build tree\\), $D/scenarios/no-such-scenario\\.ini \\(installed beside the program\\), /usr/local/share/preflight/scenarios/no-such-scenario\\.ini \\(installed\\)\\)$" \
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
duration = 1s
measure  = cyclictest
[phase app]
duration = 2s
measure  = flightapp
INI
# (no report: what it costs, two thirds of the run, buys no assertion here)
run_cmd "$P/bin/preflight" run "$TMP/tiny.ini" -o run1 --no-report
like "$rc" "^[01]$" "install-4.1 the installed preflight runs a scenario to its verdicts (exit 0 or 1)"
ok "install-4.2 ... with verdicts.tap" test -s run1/verdicts.tap
is "$(json_get run1/verdicts.json schema)" "preflight-verdicts/1" "install-4.2a ... and verdicts.json, the same verdicts as records"
ok "install-4.3 ... from the installed budgets/seed.ini" cmp -s run1/budgets.ini "$D/budgets/seed.ini"
like "$(head -1 run1/verdicts.tap)" "^1\\.\\.[1-9]" "install-4.4 ... which is TAP with a plan"
is "$(json_get run1/02-app/app-stats.json .config)" "$D/profiles/omap3-60.ini" \
	"install-4.5 ... and the app ran on the installed profile"

# (the selftest and the report find no data file: what they cost buys no assertion here)
run_cmd "$P/bin/preflight" qualify --scenario "$TMP/tiny.ini" -o run2 --no-selftest --no-report
like "$rc" "^[01]$" "install-5.1 the installed preflight qualifies (exit 0 or 1)"
ok "install-5.2 ... with verdicts.tap" test -s run2/verdicts.tap
ok "install-5.3 ... and its summary" test -s run2/qualification.txt

# a budgets file that is named but not installed: the run stops before its first phase
run_cmd "$P/bin/preflight" run "$TMP/tiny.ini" -o run3 --budgets budgets/none.ini
like "$rc:$err" "^2:preflight: run: budgets 'budgets/none.ini': no such file; searched .*$D/budgets/none\\.ini \\(installed beside the program\\), /usr/local/share/preflight/budgets/none\\.ini \\(installed\\)$" \
	"install-6.1 budgets not found: exit 2 before any phase, naming every place searched"
done_testing
