#!/bin/sh
# 0612-check-bounds.t - a percentile known only by a bound is judged on it:
# cyclictest's histogram overflowed (t/fixtures/cyclictest/ovf.json: 3 384 of
# 3 907 samples past its 20 us range), so p99 is null in results.json with
# bounds [20 us, 48.9 ms]. A lower bound above the budget is a proven
# violation (it was "not measured", exit 0); an upper bound below it passes;
# a bound that cannot decide stays "not measured", with the bound shown.
. "$(dirname "$0")/lib/test-lib.sh"
plan 7

R="$TMP/r.json"
"$PREFLIGHT" analyze -q --cyclictest "$TOP/t/fixtures/cyclictest/ovf.json" -o "$R"
is "$(json_get "$R" cyclictest.all.latency_ns.p99):$(json_get "$R" cyclictest.all.latency_ns.bounds.p99)" \
	'null:{"<=":48939000,">=":20000}' "check-bnd-1.1 the fixture: p99 null, known in [20 us, 48939 us]"

# verdict BOUND - check p99 against BOUND; $rc and $out
verdict() {
	printf '[REQ-CT-001]\ntext = the tail stays small\nmetric = cyclictest.all.latency_ns.p99\nbound = %s\n' "$1" > "$TMP/b.ini"
	run_cmd "$PREFLIGHT" check "$R" --budgets "$TMP/b.ini"
}
verdict '<= 10us'
like "$rc:$out" "^1:.*not ok 1 - REQ-CT-001 [^#]*p99
#   20 us <= 10 us \(only a bound is known: >= 20 us, <= 48939 us\)" \
	"check-bnd-2.1 a lower bound above the budget fails (exit 1), the bound shown"
like "$out" "measured: cyclictest.all.latency_ns.p99 = null, known only as >= 20 us, <= 48939 us" \
	"check-bnd-2.2 ... and what was measured says so"
verdict '<= 100ms'
like "$rc:$out" "^0:.*ok 1 - REQ-CT-001 [^#]*p99
#   48.939 ms <= 100 ms" "check-bnd-2.3 an upper bound within the budget passes"
verdict '>= 10us'
like "$rc:$out" "^0:.*ok 1 - REQ-CT-001 [^#]*p99
#   20 us >= 10 us" "check-bnd-2.4 >=: the lower bound decides a pass"
verdict '<= 50us'
like "$out" "ok 1 - REQ-CT-001 .*p99 # SKIP not measured: only a bound is known \(>= 20 us, <= 48939 us\), which cannot decide" \
	"check-bnd-2.5 a bound that cannot decide is not measured, with the bound shown"
is "$rc" 1 "check-bnd-2.6 ... and nothing measured is no pass (exit 1)"
