#!/bin/sh
# 0009-fuzz-replay.t - every libFuzzer harness (t/fuzz/, docs/fuzzing.md),
# built with the ordinary compiler against t/fuzz/replay.c, replays its
# committed corpus t/fuzz/<name>/: the seeds and every input that once made
# it crash. A crash, a sanitizer error (make check SANITIZE=...) or an abort
# of a harness's own consistency check fails the test.
. "$(dirname "$0")/lib/test-lib.sh"
harnesses=$(sed -n '/^FUZZ_HARNESSES/,/[^\\]$/p' "$TOP/t/fuzz/fuzz.mk" | sed 's/^FUZZ_HARNESSES *:= *//; s/\\//g' | tr -s ' \t\n' ' ')
n=$(echo $harnesses | wc -w)
plan $((n * 2 + 1))
ok "fuzz-1.1 $n harnesses listed in t/fuzz/fuzz.mk" [ "$n" -ge 15 ]
export FUZZ_TOP="$TOP"
for h in $harnesses; do
	if test_have_prereq "BUILT:t/fuzz/$h" "FILE:$TOP/t/fuzz/$h"; then
		inputs=$(find "$TOP/t/fuzz/$h" -type f | wc -l)
		ok "fuzz-2.$h the corpus of $h has inputs ($inputs)" [ "$inputs" -gt 0 ]
		ok "fuzz-3.$h $h replays its $inputs inputs without a crash" "$B/t/fuzz/$h" "$TOP/t/fuzz/$h"
	else
		skip "fuzz-2.$h fuzz-3.$h"
	fi
done
done_testing
