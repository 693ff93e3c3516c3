#!/bin/sh
# 0772-tool-requirements.t - docs/tool-requirements.md traces every metric: each key of
# docs/results.md's tables appears there as section.key, and every test id it cites as
# verifying evidence is a test that exists.
. "$(dirname "$0")/lib/test-lib.sh"
plan 3

TOR="$TOP/docs/tool-requirements.md"
# keys - 'prefix.key' for every backticked key in the first column of docs/results.md's
# tables, the prefix named by the section heading (top-level keys stand alone)
keys() {
	awk '
	/^## / { p = "-"
		if ($0 ~ /Top level/) p = ""
		else if ($0 ~ /`trace`/) p = "trace."
		else if ($0 ~ /`threads\[\]`/) p = "threads[]."
		else if ($0 ~ /`cpus\[\]`/) p = "cpus[]."
		else if ($0 ~ /`tasks\[\]`/) p = "tasks[]."
		else if ($0 ~ /`app`/) p = "app."
		else if ($0 ~ /`slots`/) p = "slots."
		else if ($0 ~ /`lost_events`/) p = "lost_events."
		else if ($0 ~ /`cyclictest_wakeups`/) p = "cyclictest_wakeups."
	}
	/^### culprits/ { p = "tasks[].culprits[]." }
	/^### tail objects/ { p = "tasks[].tail.*." }
	/^\| `/ && p != "-" { split($0, c, "|"); s = c[2]
		while (match(s, /`[^`]+`/)) { print p substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) } }
	' "$TOP/docs/results.md"
}
keys > "$TMP/keys"
n=$(wc -l < "$TMP/keys" | tr -d ' ')
like "$n:$(sort -u "$TMP/keys" | wc -l | tr -d ' ')" '^1[0-9][0-9]:' "tor-1.1 docs/results.md's keys read: over 100 (got $n)"
missing=$(while read -r k; do grep -qF "\`$k\`" "$TOR" || echo "$k"; done < "$TMP/keys" | tr '\n' ' ')
is "$missing" "" "tor-1.2 every key of docs/results.md ($(wc -l < "$TMP/keys" | tr -d ' ')) is traced in docs/tool-requirements.md"

# every cited test id (syn-4.14, and both ends of syn-4.14..4.17) names a test
ids=$(sed -n 's/^| TOR-[^|]*|[^|]*|[^|]*|[^|]*| \(.*\) |$/\1/p' "$TOR" | tr ',' '\n' |
	sed 's/^ *//; s/ .*//' | grep -E '^[a-z]+-[0-9]+\.[0-9]+[a-z]?(\.\.[0-9]+\.[0-9]+)?$' |
	sed 's/^\([a-z]*-\)\([0-9.a-z]*\)\.\.\([0-9.]*\)$/\1\2\n\1\3/')
echo "# $(echo $ids | wc -w) test ids cited"
unknown=$(for id in $ids; do
	grep -rqE "[\"(]$id[ \"]" "$TOP"/t/*.t "$TOP"/t/unit/*.c || echo "$id"
done | sort -u | tr '\n' ' ')
is "$unknown" "" "tor-1.3 every test id docs/tool-requirements.md cites exists in t/"
