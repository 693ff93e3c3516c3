#!/bin/sh
# 0735-run-progress.t - the live progress line of 'preflight run' on a terminal: fitted to the
# terminal's width with whole entries, the worst so far in a stable order that never goes back,
# and, past the planned time, what the phase waits for. A stand-in cyclictest prints status
# lines (a thread seen again alone, a line still being written) and ends late.
. "$(dirname "$0")/lib/test-lib.sh"
need ROOT BUILT:preflight CMD:script CMD:stty
plan 8

mkdir "$TMP/bin"
cat > "$TMP/bin/cyclictest" <<'SH'
#!/bin/sh
line() { printf 'T:%2d (%5d) P:90 I:1000 C:%7d Min:      2 Act:    3 Avg:    3 Max:%8d\n' "$1" $((100 + $1)) 100 "$2"; }
line 0 50; line 1 30
sleep 1
line 1 31
printf 'T: 0 (  100) P:90 I:1000 C:    200 Min:      2 Act:    3 Avg:    3 Max:'
sleep 4
SH
chmod +x "$TMP/bin/cyclictest"
printf '[phase base]\nduration = 2s\nmeasure = cyclictest\n' > "$TMP/p.ini"

# frames COLS - run the scenario on a terminal COLS wide; every redrawn line into $TMP/frames.COLS
frames() {
	PATH="$TMP/bin:$PATH" script -qfec "stty cols $1; '$PREFLIGHT' run '$TMP/p.ini' -o '$TMP/run-$1' --no-report" \
		"$TMP/typescript" >/dev/null 2>&1
	tr '\r' '\n' < "$TMP/typescript" | sed 's/\x1b\[K//g' | grep '^\[1/1\]' > "$TMP/frames.$1"
}

frames 60
is "$(awk 'length($0) > 59' "$TMP/frames.60")" "" "progress-1.1 60 columns: every line fits in 59"
like "$(grep -c 'worst: ' "$TMP/frames.60")" '^[1-9]' "progress-1.2 the worst figures are shown"
is "$(grep 'worst: ' "$TMP/frames.60" | grep -vE 'worst: T0 50us T1 3[01]us$')" "" \
	"progress-1.3 in a stable order (T0 before T1), never going back (no 'T0 0us')"
like "$(cat "$TMP/frames.60")" "2s, 0s left  worst: T0 50us T1 31us" "progress-1.4 the worst grows as it happens"
like "$(cat "$TMP/frames.60")" "[3-9]s/2s, waiting for cyclictest to end" "progress-1.5 past the planned time it says what it waits for"
frames 40
is "$(awk 'length($0) > 39' "$TMP/frames.40")" "" "progress-2.1 40 columns: every line fits in 39"
is "$(grep -E 'us [^+]|[0-9]u$|w$|wor|T[01]$' "$TMP/frames.40")" "" "progress-2.2 entries are whole or left out (+N)"
frames 150
like "$(cat "$TMP/frames.150")" "base \\(cyclictest\\): [0-9]+s / 2s, waiting for cyclictest to end  worst: T0 50us T1 31us" \
	"progress-3.1 150 columns: the whole line"
done_testing
