#!/bin/sh
# 0104-sysinfo-cli.t - the command line of 'preflight sysinfo': --help, usage
# errors, a broken --root (exit 2, one line), -o FILE, and every warning id
# the code can emit documented in docs/sysinfo.md.
. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/sysinfo-lib.sh"
plan 22

run_cmd "$PREFLIGHT" sysinfo --help
is "$rc" 0 "sysinfo-9.1 --help exits 0"
for o in "--json" "--root DIR" "--output FILE" "--help"; do
	printf '%s\n' "$out" | grep -q -- "$o" || break
done
is "$o" "--help" "sysinfo-9.2 --help lists --json, --root, --output, --help"
like "$out" "default: /\)" "sysinfo-9.3 --help gives the defaults"
help_out=$out
run_cmd "$PREFLIGHT" help sysinfo
is "$out" "$help_out" "sysinfo-9.4 'preflight help sysinfo' shows the same text"

run_cmd "$PREFLIGHT" sysinfo --root "$TMP/nonexistent"
is "$rc" 2 "sysinfo-9.5 nonexistent --root: exit 2"
is "$err" "preflight: sysinfo: --root '$TMP/nonexistent': No such file or directory" "sysinfo-9.6 ... one-line error"
is "$out" "" "sysinfo-9.7 ... nothing on stdout"
: > "$TMP/afile"
run_cmd "$PREFLIGHT" sysinfo --json --root "$TMP/afile"
is "$rc:$err" "2:preflight: sysinfo: --root '$TMP/afile': Not a directory" "sysinfo-9.8 --root a file: exit 2, one line"
mkdir "$TMP/emptydir"
run_cmd "$PREFLIGHT" sysinfo --root "$TMP/emptydir"
is "$rc:$err" "2:preflight: sysinfo: --root '$TMP/emptydir': neither proc/ nor sys/ in it" \
	"sysinfo-9.9 --root without proc/ nor sys/: exit 2, one line"
run_cmd "$PREFLIGHT" sysinfo --root ""
is "$rc" 2 "sysinfo-9.10 empty --root: exit 2"

run_cmd "$PREFLIGHT" sysinfo --bogus
is "$rc:$err" "2:preflight: sysinfo: '--bogus': unknown option (see 'preflight sysinfo --help')" \
	"sysinfo-9.11 unknown option: exit 2, one line"
run_cmd "$PREFLIGHT" sysinfo extra
is "$rc:$err" "2:preflight: sysinfo: 'extra': unexpected argument (see 'preflight sysinfo --help')" \
	"sysinfo-9.12 stray argument: exit 2"
run_cmd "$PREFLIGHT" sysinfo --root
is "$rc" 2 "sysinfo-9.13 --root without a value: exit 2"

run_cmd "$PREFLIGHT" sysinfo --json --root "$FIX/desktop" -o "$TMP/out.json"
is "$rc:$out" "0:" "sysinfo-9.14 -o FILE: exit 0, nothing on stdout"
run_cmd "$PREFLIGHT" sysinfo --json --root "$FIX/desktop"
printf '%s\n' "$out" > "$TMP/stdout.json"
is "$(json_get "$TMP/out.json" warnings)" "$(json_get "$TMP/stdout.json" warnings)" "sysinfo-9.15 -o FILE holds the same survey as stdout"
is "$(ls "$TMP" | grep -c 'out.json.tmp')" 0 "sysinfo-9.16 no temp file left beside FILE"
run_cmd "$PREFLIGHT" sysinfo --root "$FIX/desktop" -o "$TMP/out.txt"
like "$(head -n 1 "$TMP/out.txt")" "^host +devlaptop" "sysinfo-9.17 -o FILE without --json writes the table"
run_cmd "$PREFLIGHT" sysinfo --root "$FIX/desktop" -o "$TMP/no/such/dir/x.json"
is "$rc" 2 "sysinfo-9.18 -o FILE in no directory: exit 2 (a wrong name; README exit codes)"
is "$(printf '%s\n' "$err" | wc -l)" 1 "sysinfo-9.19 ... with one line"

# Every id the judge can emit is documented, and the eleven warnings of docs/sysinfo.md are all there.
ids=$(grep -o 'si_warn(w, "[a-z_]*"' "$TOP/bench/survey/sysinfo_judge.c" | sed 's/.*"\(.*\)"/\1/' | sort | tr '\n' ' ')
is "$ids" "deep_idle_states emulated_cpu governor_not_performance no_isolated_cpus not_preempt_rt rt_throttling smt_enabled swap_enabled tracefs_unavailable unstable_clocksource virtualized " \
	"sysinfo-9.20 the judge emits the eleven warning ids"
missing=""
for id in $ids; do grep -q "^### \`$id\`" "$TOP/docs/sysinfo.md" || missing="$missing $id"; done
is "$missing" "" "sysinfo-9.21 docs/sysinfo.md has a section for each warning id"
grep -q '"preflight-sysinfo/1"' "$TOP/docs/sysinfo.md"
is "$?" 0 "sysinfo-9.22 docs/sysinfo.md names the schema version"
done_testing
