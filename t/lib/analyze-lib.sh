# analyze-lib.sh - helpers of the 'preflight analyze' tests (t/05xx)
GEN="$B/t/gentrace"

need_gentrace() {
	[ -x "$GEN" ] || { echo "1..1"; echo "not ok 1 - gentrace: not built (run make unit-tests)"; exit 1; }
}
