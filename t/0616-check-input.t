#!/bin/sh
# 0616-check-input.t - 'preflight check' on mistaken budgets (issue 27): a
# --budgets name that is no file here is looked for as a data file (as the
# README says), a byte order mark is no text, a negative time or share and a
# hexadecimal bound are refused, a misspelt keyword in select is no task name;
# small bounds and absurd values print readably; a metric in compare's older
# spelling is its results.json path.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:t/ci_genruns
plan 17

"$B/t/ci_genruns" "$TMP/runs" --runs 1 --seed 41 >/dev/null || exit 1
R="$TMP/runs/run-01"
cd "$TMP" || exit 1

# --- check-input-1: --budgets as a data file, outside the source tree
run_cmd "$PREFLIGHT" check "$R" --budgets seed
like "$rc:$(printf '%s\n' "$out" | sed -n 2p)" "^[01]:# preflight check: .* against $TOP/budgets/seed.ini$" \
	"check-input-1.1 --budgets seed: budgets/seed.ini of the data directory"
run_cmd "$PREFLIGHT" check "$R" --budgets budgets/seed.ini
like "$rc" "^[01]$" "check-input-1.2 --budgets budgets/seed.ini outside the source tree"
run_cmd "$PREFLIGHT" check "$R" --budgets nonesuch
like "$rc:$err" "^2:preflight: check: --budgets nonesuch: no such file here, nor as budgets/nonesuch.ini: searched .*nonesuch.ini \(build tree\)" \
	"check-input-1.3 a name found nowhere: every place searched"

# budget FILE SELECT BOUND - one requirement over every task
budget() { printf '[REQ-X]\ntext = t\nmetric = tasks.*.activation_latency_ns.max\nselect = %s\nbound = %s\n' "$2" "$3" > "$1"; }

# --- check-input-2: a UTF-8 byte order mark
budget b.ini rt '<= 62us'
printf '\357\273\277' > bom.ini && cat b.ini >> bom.ini
run_cmd "$PREFLIGHT" check "$R" --budgets bom.ini
is "$rc:$err" "0:" "check-input-2.1 a budget file with a byte order mark reads as without"

# --- check-input-3: bounds no budget means
for b in '<= -62us:a time is never negative' '<= -5%:a share is never negative' \
	"<= 0x10us:is not \\[<\\|<=\\|>\\|>=\\|==\\|!=\\] NUMBER \\[UNIT\\]"; do
	budget b.ini rt "${b%%:*}"
	run_cmd "$PREFLIGHT" check "$R" --budgets b.ini
	like "$rc:$err" "^2:preflight: check: b.ini:5: bound '${b%%:*}'.*${b#*:}" "check-input-3 '${b%%:*}' refused at its line"
done

# --- check-input-4: select
budget b.ini 'rt periodc' '<= 62us'
run_cmd "$PREFLIGHT" check "$R" --budgets b.ini
like "$rc:$err" "^2:.*b.ini:4: select term 'periodc' is the keyword 'periodic' misspelt .* 'name=periodc'" \
	"check-input-4.1 a misspelt keyword is refused, not taken for a task name"
budget b.ini 'rt periodic io' '<= 62us'
run_cmd "$PREFLIGHT" check "$R" --budgets b.ini
is "$rc:$err" "0:" "check-input-4.2 the keywords and a name"
budget b.ini 'name=periodc' '<= 62us'
run_cmd "$PREFLIGHT" check "$R" --budgets b.ini
like "$out" "# SKIP not measured: no element of tasks\[\] selected by name=periodc" "check-input-4.3 name=periodc: such a task, if there were one (not measured here)"
# --- check-input-5: numbers as people read them
printf '[REQ-X]\ntext = t\nmetric = tasks.io.activation_latency_ns.max\nbound = <= 0.000062s\n' > s.ini
run_cmd "$PREFLIGHT" check "$R" --budgets s.ini
like "$(printf '%s\n' "$out" | sed -n 4p)" '^#   0\.0000[0-9]+ s <= 0\.000062 s \(margin [0-9]+ %\)$' \
	"check-input-5.1 a bound of 0.000062 s shows as such (it was '0 s')"
cp -r "$R" "$TMP/huge"
perl -MJSON::PP -0777 -i -pe '$j = JSON::PP->new->canonical; $r = $j->decode($_);
	$_->{activation_latency_ns}{max} = 1e308 for grep { $_->{name} eq "io" } @{$r->{tasks}}; $_ = $j->encode($r)' "$TMP/huge/results.json"
printf '[REQ-X]\ntext = t\nmetric = tasks.io.activation_latency_ns.max\nbound = <= 62us\n' > u.ini
run_cmd "$PREFLIGHT" check "$TMP/huge" --budgets u.ini
is "$(printf '%s\n' "$out" | sed -n 4p)" '#   1e+305 us <= 62 us (margin -1.61e+305 %)' "check-input-5.2 an absurd value: a short margin"
# --- check-input-6: a string in results.json is results.json's fault, not the budget's
cp -r "$R" "$TMP/str"
perl -MJSON::PP -0777 -i -pe '$j = JSON::PP->new->canonical; $r = $j->decode($_);
	$_->{activation_latency_ns}{max} = "abc" for grep { $_->{name} eq "io" } @{$r->{tasks}}; $_ = $j->encode($r)' "$TMP/str/results.json"
run_cmd "$PREFLIGHT" check "$TMP/str" --budgets u.ini
is "$rc:$err" "2:preflight: check: $TMP/str/results.json: 'tasks.io.activation_latency_ns.max' is a string, not a number: a corrupt or hand-edited results.json (read for u.ini:3)" \
	"check-input-6.1 a string where results.json has a number: results.json named"
# --- check-input-7: one name per metric (issue 27, "Names"): compare's older names are paths too
printf '[REQ-X]\ntext = t\nmetric = tasks.io.activation_latency_ns.max\nbound = <= 62us\n[REQ-Y]\ntext = t\nmetric = tasks.*.overruns\nbound = == 0\n' > p.ini
printf '[REQ-X]\ntext = t\nmetric = io.activation_latency.max\nbound = <= 62us\n[REQ-Y]\ntext = t\nmetric = *.overruns.count\nbound = == 0\n' > o.ini
run_cmd "$PREFLIGHT" check "$R" --budgets p.ini --json p.json
want="$rc:$(printf '%s\n' "$out" | sed 1,2d)"
is "$(printf '%s\n' "$want" | grep -Ec '^([01]:)?ok [12] - REQ-[XY] io')" 2 "check-input-7.0 the budget of paths judges io twice"
run_cmd "$PREFLIGHT" check "$R" --budgets o.ini --json o.json
is "$rc:$(printf '%s\n' "$out" | sed 1,2d)" "$want" \
	"check-input-7.1 a budget naming io.activation_latency.max and *.overruns.count: the verdicts of their paths"
is "$(json_get o.json verdicts.0.metric verdicts.1.metric | paste -sd" ")" \
	"tasks.io.activation_latency_ns.max tasks.io.overruns" "check-input-7.2 ... and verdicts.json names the paths"
printf '[REQ-X]\ntext = t\nmetric = io.activation_latency.maximum\nbound = <= 62us\n' > w.ini
run_cmd "$PREFLIGHT" check "$R" --budgets w.ini
like "$rc:$(printf '%s\n' "$err" | wc -l):$err" \
	"^2:1:preflight: check: w.ini:3: metric 'io.activation_latency.maximum' names no key of results.json \(docs/results.md; 'preflight check --keys' lists them\)" \
	"check-input-7.3 a wrong name: exit 2, one line saying where the names are listed"
done_testing
