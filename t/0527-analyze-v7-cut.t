#!/bin/sh
# 0527-analyze-v7-cut.t - a trace-cmd v7 (compressed) trace cut short (a full
# disk, a killed copy): every cut said "corrupt or truncated trace-cmd
# headers" with no position (issue 27 item 6). trace-cmd writes the index of
# a v7 file's CPU data last, in an options section after the data, so a cut
# loses it; analyze now says so with the byte the file ends at and the
# section it lacks, exit 2. Salvaging the complete compressed blocks (as a
# v6 file cut short is read as far as it goes) is not done yet.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:t/gentrace CMD:trace-cmd
plan 6

"$B/t/gentrace" basic "$TMP/b.dat" >/dev/null
trace-cmd convert --file-version 7 --compression zstd -i "$TMP/b.dat" -o "$TMP/b7.dat" >/dev/null 2>&1
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/b7.dat" -o "$TMP/whole.json"
is "$rc:$(head -c 11 "$TMP/b7.dat" | tail -c 1)" "0:7" "v7cut-1.1 the whole v7 file analyses"
size=$(wc -c < "$TMP/b7.dat")
n=2
# cuts in the headers, in the CPU data, just before the last options section
for cut in 100 $((size / 2)) $((size - 200)); do
	head -c "$cut" "$TMP/b7.dat" > "$TMP/cut.dat"
	run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/cut.dat" -o "$TMP/cut.json"
	like "$rc:$err" "^2:preflight: analyze: $TMP/cut\\.dat: offset $cut: a trace-cmd v7 \\(compressed\\) file cut short: its options section at byte [0-9]+, .* is not all there" \
		"v7cut-1.$n cut at byte $cut of $size: exit 2, the position said"
	n=$((n + 1))
done
ok "v7cut-1.5 ... no results.json written" test ! -e "$TMP/cut.json"
head -c 20 "$TMP/b7.dat" > "$TMP/tiny.dat"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/tiny.dat" -o "$TMP/tiny.json"
like "$rc:$err" "^2:preflight: analyze: $TMP/tiny\\.dat: " "v7cut-1.6 20 bytes: exit 2, one line"
