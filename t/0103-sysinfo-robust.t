#!/bin/sh
# 0103-sysinfo-robust.t - bad input never crashes the survey: empty, garbage,
# random and oversized files, directories where files belong, broken cpulists.
# Every case must exit 0 with valid JSON (unknown fields null, with notes).
. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/sysinfo-lib.sh"
plan 16

# fill TREE PERL-EXPR - replace the content of every file of a tree by the expression's value
fill() {
	find "$1" -type f | perl -e '
		srand(42); my $expr = shift;
		while (my $path = <STDIN>) { chomp $path; open my $f, ">", $path or die "$path: $!";
			print $f eval $expr; close $f; }' "$2"
}

T=$(tree_copy desktop empty)
fill "$T" '""'
survey "$T" empty
is "$rc" 0 "sysinfo-8.1 every file empty: exit 0"
ok "sysinfo-8.2 every file empty: valid JSON with every field" json_get "$TMP/empty.json" $SYSINFO_FIELDS
like "$(json_get "$TMP/empty.json" notes)" "kernel.release" "sysinfo-8.3 every file empty: notes say what is missing"

T=$(tree_copy desktop garbage)
fill "$T" '"(( x-9,,N- \"garbage\" 99999999999999999999999 : : (none) ((full)\n-1\n" x 3'
survey "$T" garbage
is "$rc" 0 "sysinfo-8.4 garbage in every file: exit 0"
ok "sysinfo-8.5 garbage in every file: valid JSON" valid_json "$TMP/garbage.json"
is "$(json_get "$TMP/garbage.json" cpus.isolated)" null "sysinfo-8.6 a garbage cpulist is null"

T=$(tree_copy desktop random)
fill "$T" 'join "", map { chr(int(rand(256))) } 1 .. 1 + int(rand(3000))'
survey "$T" random
is "$rc" 0 "sysinfo-8.7 random bytes in every file: exit 0"
ok "sysinfo-8.8 random bytes in every file: valid JSON, no field lost to bad UTF-8" \
	json_get "$TMP/random.json" $SYSINFO_FIELDS

T=$(tree_copy desktop big)
fill "$T" '"0-3 " x 40000'
survey "$T" big
is "$rc" 0 "sysinfo-8.9 160 kB in every file: exit 0"
ok "sysinfo-8.10 160 kB in every file: valid JSON" valid_json "$TMP/big.json"

T=$(tree_copy rt-board dirs)
rm "$T/proc/cmdline" "$T/sys/devices/system/cpu/online"
mkdir "$T/proc/cmdline" "$T/sys/devices/system/cpu/online"
survey "$T" dirs
is "$rc" 0 "sysinfo-8.11 directories where files belong: exit 0"
is "$(json_get "$TMP/dirs.json" kernel.cmdline) $(json_get "$TMP/dirs.json" kernel.cmdline_flags)" "null null" \
	"sysinfo-8.12 unreadable cmdline is null"
like "$(json_get "$TMP/dirs.json" notes)" "kernel.cmdline: /proc/cmdline: Is a directory" \
	"sysinfo-8.13 ... with a note giving the reason"
is "$(json_get "$TMP/dirs.json" cpus.online)" "0-3" "sysinfo-8.14 unreadable online list: counted from cpuinfo"

T=$(tree_copy rt-board badlist)
echo "0-3,x" > "$T/sys/devices/system/cpu/isolated"
gzip -c /dev/null > "$T/proc/config.gz"
survey "$T" badlist
like "$(json_get "$TMP/badlist.json" notes)" "cpus.isolated: /sys/devices/system/cpu/isolated: not a cpulist: '0-3,x'" \
	"sysinfo-8.15 a broken cpulist is noted with its text"
like "$(json_get "$TMP/badlist.json" notes)" "kernel.hz: /proc/config.gz has no CONFIG_HZ" \
	"sysinfo-8.16 an empty config is noted"
done_testing
