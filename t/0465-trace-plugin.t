#!/bin/sh
# 0465-trace-plugin.t - the libtraceevent plugin (build/plugins/plugin_preflight.so): with it,
# trace-cmd report prints the app's binary job markers (docs/markers.md) decoded, as
# 'job_start ctl100 #0 release=1342.559286733', on a reference recording and on a synthetic
# trace whose markers are known by construction
. "$(dirname "$0")/lib/test-lib.sh"
need CMD:trace-cmd BUILT:plugins/plugin_preflight.so BUILT:t/gentrace FILE:"$TOP/traces/ref/app-alone.dat"
plan 7

REF="$TOP/traces/ref/app-alone.dat"
report() { TRACEEVENT_PLUGIN_DIR="$B/plugins" trace-cmd report "$@" 2>/dev/null; }

# (no plugin at all, -N: an installed one, a guest's image, is not loaded)
hex=$(trace-cmd report -N "$REF" 2>/dev/null | grep -c 'raw_data: *id:50464d31 00000053')
like "$hex" '^[1-9]' "plugin-1.1 without the plugin: the start markers are their id and first word ($hex)"
like "$(report "$REF" | grep -m1 'ctl100-.*raw_data')" "raw_data: +job_start ctl100 #0 release=1342\\.559286733$" \
	"plugin-1.2 with it: ctl100's first job, its release time from the payload"
is "$(report "$REF" | grep -c 'raw_data: *job_start ')" "$hex" "plugin-1.3 every start marker decoded"
is "$(report "$REF" | grep -c '50464d31')" 0 "plugin-1.4 no marker left in hex"
like "$(report "$REF" | grep -m1 'raw_data: *job_end nav10 ')" "job_end nav10 #0 release=1342\\.559286733 flags=0x0$" \
	"plugin-1.5 end markers with their flags"

"$B/t/gentrace" markers "$TMP/m.dat" "$TMP/m.csv" >/dev/null 2>&1
is "$(report "$TMP/m.dat" | grep 'raw_data:' | sed -n 3p | sed 's/.*raw_data: *//')" "job_start io #1 release=1000.010000000" \
	"plugin-2.1 a synthetic trace: io's second job, released at 1000.010 s"
is "$(report "$TMP/m.dat" | grep -c 'raw_data: *job_end io ')" "$(grep -c '^io,' "$TMP/m.csv")" \
	"plugin-2.2 one end marker per job of its job log"
done_testing
