# lava-lib.sh - what t/fleet/ asserts on LAVA's own output of scripts/lava-check
# (OUT/results.tsv: definition, case, result, measurement, units; OUT/result.yaml)

# lava_asserts ID OUT - the job passed; the board was set up; every requirement of the
# budgets is a LAVA test case, each pass, fail or skip; every measured value a LAVA
# measurement with its units; REQ-LAT-001's io wakeup latency in us. 10 tests.
lava_asserts() {
	la_id=$1 la_out=$2
	R="$la_out/results.tsv"
	like "$(cat "$la_out/result.yaml" 2>/dev/null)" "result: pass" "$la_id.2 LAVA's verdict on the job: pass"
	# definition 0 is the board's set-up, 1 preflight's own (ci/lava/preflight.yaml from git)
	is "$(awk -F'\t' '$1 == "0_board-setup" { print $2 ":" $3 }' "$R" 2>/dev/null | paste -sd' ')" \
		"preflight-installed:pass tracefs:pass" "$la_id.3 the board set up in LAVA's test shell: preflight installed, tracefs there"
	verdicts=$(awk -F'\t' '$1 == "1_preflight" && $2 ~ /^run1_REQ-/ && $2 !~ /_value$/' "$R" 2>/dev/null)
	n=$(printf '%s' "$verdicts" | grep -c .)
	ok "$la_id.4 preflight's verdicts are LAVA test cases ($n)" test "$n" -ge 1 ||
		grep -a 'preflight-run\|preflight: run\|1_preflight' "$la_out/results.tsv" "$la_out/lava-run.log" 2>/dev/null |
		tail -n 8 | cut -c1-300 | sed 's/^/# /'	# what the board said instead
	is "$(printf '%s\n' "$verdicts" | awk -F'\t' 'NF && $3 !~ /^(pass|fail|skip)$/' | wc -l)" 0 \
		"$la_id.5 ... each with LAVA's result pass, fail or skip"
	ids=$(sed -n 's/^\[\(REQ-[A-Z0-9-]*\)\]$/\1/p' "$TOP/budgets/seed.ini" | sort -u)
	missing=$(for id in $ids; do printf '%s\n' "$verdicts" | grep -q "	run1_${id}_" || echo "$id"; done)
	is "$(echo $ids | wc -w):$missing" "$(echo $ids | wc -w):" \
		"$la_id.6 ... every requirement of the budgets the smoke judges by is among them ($(echo $ids))"
	ok "$la_id.6a ... (the budgets have requirements)" test -n "$ids"
	values=$(awk -F'\t' '$1 == "1_preflight" && $2 ~ /^run1_REQ-.*_value$/' "$R" 2>/dev/null)
	like "$(printf '%s\n' "$values" | head -n 1)" "	pass	[-0-9.e+]+	[a-z%]+$" \
		"$la_id.7 a verdict's measured value is a LAVA measurement with its units"
	is "$(printf '%s\n' "$values" | awk -F'\t' '$4 == "" || $5 == ""' | wc -l)" 0 "$la_id.8 ... every one of them"
	lat=$(printf '%s\n' "$values" | awk -F'\t' '$2 ~ /^run1_REQ-LAT-001_io_wakeup_latency_max_value$/ { print $4 " " $5 }')
	like "$lat" "^[0-9.]+ us$" "$la_id.9 REQ-LAT-001's io wakeup latency reached LAVA in us ($lat)"
}
