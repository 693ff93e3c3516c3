#!/bin/sh
# 0581-cyclictest-bad.t - malformed cyclictest files: one error line naming
# the file and the line, exit 2, never a crash (cyclictest_load via ct_dump)
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/check-lib.sh"
FX="$TOP/t/fixtures/cyclictest"
need_ct_dump
plan 46

# bad ID FILE EXPECTED-ERROR-REGEX DESC - exit 2 and a one-line error matching
bad() {
	run_cmd "$DUMP" "$2"
	is "$rc" 2 "$1 $4: exit 2"
	like "$(printf '%s' "$err" | wc -l | tr -d ' '):$err" "^0:ct_dump: $3" "$1 $4: one line naming file:line"
}

T="$TMP"
: > "$T/empty"
bad ct-5.1 "$T/empty" "$T/empty:1: empty file" "empty file"
bad ct-5.2 "$T/none.json" "$T/none.json: cannot read: No such file" "missing file"
bad ct-5.3 "$T" "$T: cannot read" "a directory"
printf 'hello\nworld\n' > "$T/text"
bad ct-5.4 "$T/text" "$T/text:2: neither cyclictest --json output nor a -h histogram" "not cyclictest output"

# json
head -c 700 "$FX/us.json" > "$T/cut.json"
bad ct-6.1 "$T/cut.json" "$T/cut.json:[0-9]+: not valid JSON" "truncated json"
sed 's/"thread"/"threads"/' "$FX/us.json" > "$T/nothread.json"
bad ct-6.2 "$T/nothread.json" "$T/nothread.json:1: not a cyclictest --json file" "json without thread"
sed '0,/"avg": 18.50/s//"avg": 19.50/' "$FX/us.json" > "$T/avg.json"
bad ct-6.3 "$T/avg.json" "$T/avg.json:[0-9]+: thread 0: average 19.5 cannot come from this histogram" "avg contradicting the histogram"
# averages far past any int64 (the sums are computed from them: range-checked before the conversion)
sed '0,/"avg": 18.50/s//"avg": 1e300/' "$FX/us.json" > "$T/huge.json"
bad ct-6.8 "$T/huge.json" "$T/huge.json:[0-9]+: thread 0: average 1e\\+300 cannot come from this histogram" "avg 1e300"
sed '0,/"avg": 18.50/s//"avg": -1e300/' "$FX/us.json" > "$T/nhuge.json"
bad ct-6.9 "$T/nhuge.json" "$T/nhuge.json:[0-9]+: thread 0: average -1e\\+300 cannot come from this histogram" "avg -1e300"
sed '0,/"16": /s//"x6": /' "$FX/us.json" > "$T/key.json"
bad ct-6.4 "$T/key.json" "$T/key.json:[0-9]+: thread 0: histogram bucket \"x6\"" "bucket key not a number"
sed '0,/"cycles": 2000/s//"cycles": -1/' "$FX/us.json" > "$T/neg.json"
bad ct-6.5 "$T/neg.json" "$T/neg.json:64: thread 0: \"cycles\" is not a valid integer" "negative cycles, exact line"
sed '0,/"cycles": 2000/s//"cycles": 1000/' "$FX/us.json" > "$T/few.json"
bad ct-6.6 "$T/few.json" "$T/few.json:[0-9]+: thread 0: 2000 samples in the histogram but 1000 cycles" "more samples than cycles"
sed 's/"num_threads": 2/"num_threads": 3/' "$FX/us.json" > "$T/nthr.json"
bad ct-6.7 "$T/nthr.json" "$T/nthr.json:[0-9]+: \"num_threads\" is 3" "num_threads disagrees"

# histogram text
head -n 150 "$FX/us.hist" > "$T/cut.hist"
bad ct-7.1 "$T/cut.hist" "$T/cut.hist:150: no '# Histogram Overflows' line \(truncated file\?\)" "truncated histogram"
sed '20s/^000017/00001x/' "$FX/us.hist" > "$T/row.hist"
bad ct-7.2 "$T/row.hist" "$T/row.hist:20: histogram row '00001x'" "bad bucket number, exact line"
sed '21s/\t000129$//' "$FX/us.hist" > "$T/col.hist"
bad ct-7.3 "$T/col.hist" "$T/col.hist:21: histogram row of 1 counts, the rows before have 2" "missing column"
sed 's/^# Total: 000002000 000002000/# Total: 000002001 000002000/' "$FX/us.hist" > "$T/tot.hist"
bad ct-7.4 "$T/tot.hist" "$T/tot.hist:203: thread 0: total 2001 but 2000 samples" "total disagrees"
sed 's/^# Min Latencies: 00014/# Min Latencies: 00012/' "$FX/us.hist" > "$T/min.hist"
bad ct-7.5 "$T/min.hist" "$T/min.hist:205: thread 0: min 12 is not in its histogram" "min not in the histogram"
sed 's/^# Avg Latencies: 00018/# Avg Latencies: 00030/' "$FX/us.hist" > "$T/avg.hist"
bad ct-7.6 "$T/avg.hist" "$T/avg.hist:205: thread 0: average 30 cannot come" "avg contradicting the histogram"
sed '5s/\t000000\t000000$/\t000000\t000001/' "$FX/ovf-H.hist" > "$T/sum.hist"
bad ct-7.7 "$T/sum.hist" "$T/sum.hist:24: bucket 2: the sum column says 1" "-H sum column wrong"
sed 's/^# Thread 0: \(.*\) # 01523 others/# Thread 0: \1 # 01522 others/' "$FX/ovf-H.hist" > "$T/oth.hist"
bad ct-7.8 "$T/oth.hist" "$T/oth.hist:25: thread 0: 20 overflow cycles listed and 1522 others, but 1543" "overflow cycles disagree"
sed 's/^# Max Latencies: 00082/# Max Latencies: 00300/' "$FX/us.hist" > "$T/max.hist"
bad ct-7.9 "$T/max.hist" "$T/max.hist:205: thread 0: max 300 is past the histogram but no overflow" "max past the histogram without overflow"
printf '# Histogram\n000000 000001\n\001\000junk\n' > "$T/bin.hist"
bad ct-7.10 "$T/bin.hist" "$T/bin.hist:3: " "binary garbage"
done_testing
