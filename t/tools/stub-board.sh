#!/bin/sh
# stub-board.sh - stands in for 'preflight' on a board in the tests of the
# ci/ templates (t/0905): 'run SCENARIO ... -o DIR' writes one synthetic run
# directory, with '--repeats N' DIR/run-01 ... run-NN as 'preflight run' does
# (build/t/ci_genruns, the seed from the directory below $STUB_ROOT, so reruns are the same;
# STUB_SCALE=1.3 makes it a regression, STUB_KERNEL names the kernel) with a
# verdicts.json and verdicts.tap, all passed (STUB_FAIL=1: one failed, exit 1); every other
# command is the real build/preflight.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${1:-}" != run ]; then
	exec "$top/build/preflight" "$@"
fi
out="" repeats=1
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift ;;
	-r|--repeats) repeats=$2; shift ;;
	esac
	shift
done
[ -n "$out" ] || { echo "stub-board: run without -o" >&2; exit 2; }
if [ "$repeats" -gt 1 ]; then
	worst=0
	for i in $(seq 1 "$repeats"); do
		"$0" run -o "$(printf '%s/run-%02d' "$out" "$i")"
		rc=$?
		[ "$rc" -gt "$worst" ] && worst=$rc
	done
	exit "$worst"
fi
mkdir -p "$(dirname "$out")"
case $out in /*) abs=$out ;; *) abs=$(pwd)/$out ;; esac
seed=$(printf '%s' "${abs#"${STUB_ROOT:-}"}" | cksum | cut -d' ' -f1)	# below STUB_ROOT, the test's random $TMP: the same every run
tmp=$out.stub
"$top/build/t/ci_genruns" "$tmp" --runs 1 --seed "$seed" --scale "${STUB_SCALE:-1}" \
	--kernel "${STUB_KERNEL:-6.1.0-test}" || exit 4
mv "$tmp/run-01" "$out" && rmdir "$tmp" || exit 4
fail=${STUB_FAIL:-0}
printf '1..2\nok 1 - REQ-LAT-001 io activation_latency max\n#   41.2 us <= 62 us (margin 34 %%)\n%s 2 - REQ-OVR-001 io overruns\n#   %s == 0\n' \
	"$([ "$fail" = 1 ] && echo "not ok" || echo ok)" "$fail" > "$out/verdicts.tap"
cat > "$out/verdicts.json" <<JSON
{"schema": "preflight-verdicts/1", "result": "$([ "$fail" = 1 ] && echo fail || echo pass)", "exit_code": $fail,
 "verdicts": [
  {"test": 1, "id": "REQ-LAT-001", "label": "io activation_latency max", "verdict": "pass", "value": 41.2, "unit": "us"},
  {"test": 2, "id": "REQ-OVR-001", "label": "io overruns", "verdict": "$([ "$fail" = 1 ] && echo fail || echo pass)",
   "value": $fail, "unit": ""}]}
JSON
echo "stub-board: $out"
exit "$fail"
