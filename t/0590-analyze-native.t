#!/bin/sh
# 0590-analyze-native.t - the analysis of this build equals the native build's, byte for
# byte: results.json (all but its generator field), the --csv tables and the summary, on
# the reference traces, synthetic traces with a job log, and cyclictest files. Under
# 'make check-cross' this build is the target's run by qemu-user (PF_BUILD) and the
# native one is build/ (PF_NATIVE_BUILD): word size, time_t, alignment or byte order
# that leak into a number show here. Natively both are build/: the analysis is
# deterministic. Traces written by the target's gentrace must analyse as the native
# build's do.
. "$(dirname "$0")/lib/test-lib.sh"
NATIVE=${PF_NATIVE_BUILD:-$TOP/build}
need BUILT:preflight BUILT:t/gentrace FILE:"$NATIVE/preflight" FILE:"$NATIVE/t/gentrace"
plan 15

# same ARGS... - analyze with both builds into $TMP/{n,x}/ (results.json, the CSV tables
# and the summary); succeeds when both ran and every output is the same but the generator
same() {
	rm -rf "$TMP/n" "$TMP/x" && mkdir -p "$TMP/n/csv" "$TMP/x/csv" || return 1
	(cd "$TOP" && "$NATIVE/preflight" analyze "$@" -o "$TMP/n/results.json" --csv "$TMP/n/csv" \
		> "$TMP/n/summary" 2>&1) || { echo "native analyze failed: $(cat "$TMP/n/summary")"; return 1; }
	(cd "$TOP" && "$PREFLIGHT" analyze "$@" -o "$TMP/x/results.json" --csv "$TMP/x/csv" \
		> "$TMP/x/summary" 2>&1) || { echo "analyze failed: $(cat "$TMP/x/summary")"; return 1; }
	for d in n x; do
		grep -q '^ "generator": "preflight analyze ' "$TMP/$d/results.json" || { echo "$d: no generator field"; return 1; }
		sed -i '/^ "generator": /d' "$TMP/$d/results.json"
	done
	diff -r "$TMP/n" "$TMP/x" | head -20
	diff -r -q "$TMP/n" "$TMP/x" >/dev/null
}

i=0
for t in app-alone app-cpuload app-text-markers cyclictest-tracemark; do
	i=$((i + 1))
	ok "cross-1.$i traces/ref/$t.dat: results.json, CSV tables and summary as the native build's" \
		same --trace "traces/ref/$t.dat"
done
ok "cross-1.5 app-alone with --threads, --slot-ms and --top" \
	same --trace traces/ref/app-alone.dat --threads 'io,nav*,ctl*' --slot-ms 5 --top 2

# synthetic traces with known answers, written by the native gentrace
i=0
for kind in basic lost markers; do
	i=$((i + 1))
	"$NATIVE/t/gentrace" "$kind" "$TMP/$kind.dat" "$TMP/$kind.csv" >/dev/null 2>&1
	ok "cross-2.$i gentrace $kind trace and job log: the same analysis" \
		same --trace "$TMP/$kind.dat" --joblog "$TMP/$kind.csv"
done
"$NATIVE/t/gentrace" storm "$TMP/storm.dat" 50000 >/dev/null 2>&1
ok "cross-2.4 a 50000-event storm trace: the same analysis" same --trace "$TMP/storm.dat"

# the same traces written by this build's gentrace analyse as the native ones
"$B/t/gentrace" basic "$TMP/basic-x.dat" "$TMP/basic-x.csv" >/dev/null 2>&1
ok "cross-3.1 the job log this build's gentrace writes is the native one" cmp "$TMP/basic.csv" "$TMP/basic-x.csv"
(cd "$TOP" && "$NATIVE/preflight" analyze -q --trace "$TMP/basic-x.dat" --joblog "$TMP/basic.csv" -o "$TMP/bx.json")
(cd "$TOP" && "$NATIVE/preflight" analyze -q --trace "$TMP/basic.dat" --joblog "$TMP/basic.csv" -o "$TMP/bn.json")
sed -i 's/basic-x\.dat/basic.dat/' "$TMP/bx.json"
ok "cross-3.2 ... and its trace, analysed natively, gives the native trace's results" cmp "$TMP/bn.json" "$TMP/bx.json"

# cyclictest files: JSON in us and ns, histograms, overflows
FX=t/fixtures/cyclictest
ok "cross-4.1 cyclictest --json (us) import" same --cyclictest "$FX/us.json"
ok "cross-4.2 cyclictest -N --json (ns)" same --cyclictest "$FX/ns.json"
ok "cross-4.3 cyclictest -h histogram (us)" same --cyclictest "$FX/us.hist"
ok "cross-4.4 cyclictest -H histogram with overflows" same --cyclictest "$FX/ovf-H.hist"
done_testing
