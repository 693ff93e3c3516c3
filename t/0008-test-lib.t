#!/bin/sh
# 0008-test-lib.t - the test library itself: json_get reads values as the file
# writes them (dotted paths, indexes, KEY=VALUE, '*', keys holding dots, exact
# numbers, null / true / false, a missing path is an error), and the
# prerequisite helpers skip outside CI and fail under CI=true, and a failed
# script's files are kept where PF_KEEP_FAILED says.
. "$(dirname "$0")/lib/test-lib.sh"
plan 19

J="$TMP/t.json"
cat > "$J" <<'EOF'
{"schema": "x/1", "lat": {"p99": 5, "p99.9": 1.50, "p99.99": null, "max": 1700000000000000123},
 "tasks": [{"name": "io", "jobs": 3, "on": true}, {"name": "ctl.100", "jobs": 2e3, "on": false}],
 "s": "a \"q\" \u00b5s", "none": [], "obj": {"b": 2, "a": [1, 2]}}
EOF
is "$(json_get "$J" schema)/$(json_get "$J" .schema)" "x/1/x/1" "lib-json-1.1 a top-level key, leading dot optional"
is "$(json_get "$J" lat.p99)/$(json_get "$J" lat.p99.9)/$(json_get "$J" lat.p99.99)" "5/1.50/null" \
	"lib-json-1.2 keys holding dots are found as they are; numbers print as written; null"
is "$(json_get "$J" lat.max)" 1700000000000000123 "lib-json-1.3 a 64-bit integer keeps every digit"
is "$(json_get "$J" tasks.1.jobs)/$(json_get "$J" tasks.name=io.jobs)" "2e3/3" "lib-json-1.4 an array index and KEY=VALUE"
is "$(json_get "$J" tasks.name=ctl.100.on)/$(json_get "$J" tasks.0.on)" "false/true" \
	"lib-json-1.5 a KEY=VALUE whose value holds a dot; booleans as words"
is "$(json_get "$J" 'tasks.*.name')" "io ctl.100" "lib-json-1.6 '*' maps the rest of the path over an array"
is "$(json_get "$J" 'none.*.name'; echo "rc $?")" "
rc 0" "lib-json-1.7 '*' over an empty array: an empty line, success"
is "$(json_get "$J" obj)" '{"a":[1,2],"b":2}' "lib-json-1.8 an object prints as compact canonical JSON"
is "$(json_get "$J" s)" 'a "q" µs' "lib-json-1.9 a string prints decoded, in UTF-8"
json_get "$J" lat.p50 > "$TMP/miss.out" 2> "$TMP/miss.err"
is "$?:$(cat "$TMP/miss.out"):$(cat "$TMP/miss.err")" "1::json-get: $J: no lat.p50" \
	"lib-json-1.10 a missing path: nothing printed, named on stderr, exit 1"
is "$(json_get "$J" schema tasks.0.name)" "x/1
io" "lib-json-1.11 several paths: one line each"
is "$(printf '{"a": [1, {"b": 7}]}' | json_get - a.1.b)" 7 "lib-json-1.12 - reads stdin"
printf '{"a": 1,}' > "$TMP/bad.json"
json_get "$TMP/bad.json" a > /dev/null 2>&1
is "$?" 2 "lib-json-1.13 bad JSON: exit 2"
is "$(json_get "$J"; echo "rc $?"):$(json_get "$TMP/bad.json" 2>/dev/null; echo "rc $?")" "rc 0:rc 2" \
	"lib-json-1.14 no path: only whether the file is JSON, nothing printed"

# prerequisites: a script that needs what is missing here
printf '. "%s/t/lib/test-lib.sh"\nplan 2\ntest_have_prereq CMD:preflight-no-such-command || skip "x-1.1 x-1.2"\ndone_testing\n' \
	"$TOP" > "$TMP/p.t"
is "$(CI= sh "$TMP/p.t"; echo "rc $?")" "1..2
ok 1 - x-1.1 # SKIP preflight-no-such-command is not installed
ok 2 - x-1.2 # SKIP preflight-no-such-command is not installed
rc 0" "lib-prereq-1.1 skip: TAP skips with the reason outside CI"
is "$(CI=true sh "$TMP/p.t" | grep -c '^not ok .*requirement missing under CI=true')" 2 \
	"lib-prereq-1.2 skip: failures under CI=true"
printf '. "%s/t/lib/test-lib.sh"\nneed CMD:sh FILE:/preflight-no-such-file\nplan 1\n' "$TOP" > "$TMP/n.t"
is "$(CI= sh "$TMP/n.t"; echo "rc $?"):$(CI=true sh "$TMP/n.t"; echo "rc $?")" \
	"1..0 # SKIP /preflight-no-such-file not found
rc 0:1..1
not ok 1 - requirement missing under CI=true: /preflight-no-such-file not found
rc 1" "lib-prereq-1.3 need: the script skips outside CI, fails under CI=true"
# PF_KEEP_FAILED: a script with a failure leaves its files there; one without, nothing
printf '. "%s/t/lib/test-lib.sh"\nplan 1\necho evidence > "$TMP/trace.dat"\nis 1 "$1" "kf-1.1"\ndone_testing\n' "$TOP" > "$TMP/kf.t"
PF_KEEP_FAILED="$TMP/kept" sh "$TMP/kf.t" 2 > /dev/null 2>&1	# its failure on purpose: no diagnostics in the log
is "$(cat "$TMP"/kept/kf-*/trace.dat 2>/dev/null)" evidence \
	"lib-keep-1.1 PF_KEEP_FAILED: a failed script's files kept in DIR/NAME-PID"
PF_KEEP_FAILED="$TMP/kept2" sh "$TMP/kf.t" 1 > /dev/null
ok "lib-keep-1.2 ... a script that passed keeps nothing" test ! -e "$TMP/kept2"
done_testing
