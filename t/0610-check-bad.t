#!/bin/sh
# 0610-check-bad.t - bad budget files and bad results: 'file:line: what is
# wrong' on one line, exit 2, no verdicts printed
. "$(dirname "$0")/lib/test-lib.sh"
FX="$TOP/t/fixtures/results"
plan 69

# bad ID REGEX DESC - the budget in $TMP/b.ini is refused with REGEX, exit 2, nothing on stdout
bad() {
	run_cmd "$PREFLIGHT" check "$FX/pass.json" --budgets "$TMP/b.ini"
	is "$rc" 2 "$1 $3: exit 2"
	like "$(printf '%s' "$err" | wc -l | tr -d ' '):$err" "^0:preflight: check: $2" "$1 $3: one line, file:line"
	is "$out" "" "$1 $3: no verdicts"
}
ok_req='[REQ-A-001]
text = fine
metric = app.utilisation
bound = <= 60%'
B="$TMP/b.ini"

printf '%s\nthis line is junk\n' "$ok_req" > "$B"
bad check-6.1 "$B:5: not '\[REQ-ID\]', 'key = value' or a comment" "a line that is not INI"
printf 'metric = app.utilisation\n%s\n' "$ok_req" > "$B"
bad check-6.2 "$B:1: 'metric' outside a \[REQ-...\] section" "key before any section"
printf '%s\nlimit = 3\n' "$ok_req" > "$B"
bad check-6.3 "$B:5: unknown key 'limit' \(text, metric, select, bound\)" "unknown key"
printf '%s\nbound = <= 50%%\n' "$ok_req" > "$B"
bad check-6.4 "$B:5: 'bound' given twice in \[REQ-A-001\]" "key twice"
printf '%s\n\n; again\n%s\n' "$ok_req" "$ok_req" > "$B"
bad check-6.5 "$B:7: requirement \[REQ-A-001\] again \(first at line 1\)" "requirement id twice"
printf '[REQ-A-001]\ntext = t\nbound = < 1ms\n' > "$B"
bad check-6.6 "$B:1: \[REQ-A-001\] has no 'metric'" "no metric"
printf '[REQ-A-001]\ntext = t\nmetric = app.utilisation\n' > "$B"
bad check-6.7 "$B:1: \[REQ-A-001\] has no 'bound'" "no bound"
printf '[REQ-A-001]\nmetric = app.utilisation\nbound = < 1\n' > "$B"
bad check-6.8 "$B:1: \[REQ-A-001\] has no 'text'" "no text"
printf '[REQ-A-001]\ntext = t\nmetric = app.utilisation\nbound = about 60%%\n' > "$B"
bad check-6.9 "$B:4: bound 'about 60%' is not \[<\|<=\|>\|>=\|==\|!=\] NUMBER \[UNIT\]" "bound that is not a comparison"
printf '[REQ-A-001]\ntext = t\nmetric = app.utilisation\nbound = <= sixty\n' > "$B"
bad check-6.10 "$B:4: bound '<= sixty' is not " "bound without number"
printf '[REQ-A-001]\ntext = t\nmetric = app.utilisation\nbound = <= 60 furlongs\n' > "$B"
bad check-6.11 "$B:4: bound '<= 60 furlongs': unknown unit 'furlongs'" "unknown unit"
printf '[REQ-A-001]\ntext = t\nmetric = tasks..max\nbound = <= 60%%\n' > "$B"
bad check-6.12 "$B:3: metric 'tasks..max' is not a dotted path" "bad metric path"
printf '[REQ-A-001]\ntext = t\nmetric = tasks.*.jobs\nselect = prio>>3\nbound = > 1\n' > "$B"
bad check-6.13 "$B:4: select term 'prio>>3' is neither a name nor" "bad select predicate"
printf '[REQ-A-001]\ntext = t\nmetric = tasks.*.jobs\nselect = prio>high\nbound = > 1\n' > "$B"
bad check-6.14 "$B:4: select term 'prio>high' compares with 'high', which is not a number" "select compares with a word"
printf '[REQ A 1]\ntext = t\nmetric = app.utilisation\nbound = <= 60%%\n' > "$B"
bad check-6.15 "$B:1: requirement id 'REQ A 1' may hold only letters, digits and ._-/" "id with spaces"
printf '; only comments\n' > "$B"
bad check-6.16 "$B:1: no requirements" "no requirements"

printf '[REQ-A-001]\ntext = %s\nmetric = app.utilisation\nbound = <= 60%%\n' "$(printf '%05000d' 0)" > "$B"
bad check-6.17 "$B:2: line too long \\(at most 4095 characters\\)" "a line too long for the INI reader"

# --- the budget does not fit the results: still a budget error, at its line
printf '[REQ-A-001]\ntext = t\nmetric = tasks.*.activation_latency_ns\nbound = <= 62us\n' > "$B"
bad check-7.1 "$B:3: metric 'tasks.io.activation_latency_ns' is an object, not a number" "metric naming a statistics object"
printf '[REQ-A-001]\ntext = t\nmetric = tasks.*.activation_latency_ns.max\nbound = <= 62\n' > "$B"
bad check-7.2 "$B:4: bound '<= 62' is a count but 'tasks.io.activation_latency_ns.max' is a time: give a unit" "time metric, bound without unit"
printf '[REQ-A-001]\ntext = t\nmetric = app.utilisation\nbound = <= 0.6\n' > "$B"
bad check-7.3 "$B:4: bound '<= 0.6' is a count but 'app.utilisation' is a fraction: give it in %" "fraction without %"
printf '[REQ-A-001]\ntext = t\nmetric = slots.overruns\nbound = <= 1ms\n' > "$B"
bad check-7.4 "$B:4: bound '<= 1ms' is a time but 'slots.overruns' is a count" "count with a time bound"

# --- bad results
printf '%s\n' "$ok_req" > "$B"
run_cmd "$PREFLIGHT" check "$TMP/none.json" --budgets "$B"
is "$rc" 2 "check-8.1 missing results.json: exit 2"
like "$err" "^preflight: check: $TMP/none.json: cannot read" "check-8.2 names the file"
head -c 300 "$FX/pass.json" > "$TMP/cut.json"
run_cmd "$PREFLIGHT" check "$TMP/cut.json" --budgets "$B"
is "$rc" 2 "check-8.3 truncated results.json: exit 2"
like "$err" "^preflight: check: $TMP/cut.json:[0-9]+: not valid JSON" "check-8.4 file:line"
sed 's|preflight-results/1|preflight-results/2|' "$FX/pass.json" > "$TMP/v2.json"
run_cmd "$PREFLIGHT" check "$TMP/v2.json" --budgets "$B"
is "$rc:$err" "2:preflight: check: $TMP/v2.json: schema 'preflight-results/2' is not preflight-results/1" \
	"check-8.5 an unknown schema major version is refused"
run_cmd "$PREFLIGHT" check "$FX/pass.json" --budgets "$TMP/nobudget.ini"
is "$rc" 2 "check-8.6 missing budget file: exit 2"
done_testing
