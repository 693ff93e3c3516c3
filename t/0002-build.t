#!/bin/sh
# 0002-build.t - the build itself, on a copy of the top-level Makefile, lib/ and
# preflight.c in a temporary tree: header dependencies rebuild what they must
# (and only that), CC and CROSS_COMPILE reach the compiler, archiver and
# pkg-config, CI=true adds -Werror, make install honours PREFIX and DESTDIR, and
# make check JUNIT=path.xml writes JUnit XML and keeps prove's verdict; the
# required packages are checked before anything is built (a missing pkg-config
# module or sys/sdt.h stops make with one line naming scripts/install-deps),
# NO_USDT=1 builds without probes and switching it rebuilds the users of
# app/marker.h, a no-op make calls pkg-config once, and a libtracecmd other than the
# one traces/rec_tracecmd.h declares the private API of stops the build; the
# fragments of the whole tree give the same commands in any order.
. "$(dirname "$0")/lib/test-lib.sh"
plan 36

S="$TMP/src"
mkdir -p "$S/t" "$S/app" "$TMP/x"
cp -R "$TOP/Makefile" "$TOP/preflight.c" "$TOP/lib" "$TOP/scripts" "$S/"
# a user of app/marker.h: one USDT probe, built as build/usdtprobe
cp "$TOP/app/marker.h" "$S/app/"
printf '#include "app/marker.h"\nint main(int argc, char **argv)\n{\n\tDTRACE_PROBE3(preflight, test_probe, argc, 2, 3);\n\treturn 0;\n}\n' \
	> "$S/t/usdtprobe.c"
printf 'PROGRAMS += usdtprobe\nusdtprobe_SRCS := t/usdtprobe.c\n' > "$S/t/usdtprobe.mk"
# mk ARGS... - make in the copy, with nothing of an outer make (MAKEFLAGS would carry JUNIT=...)
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CI make -C "$S" --no-print-directory "$@"; }

run_cmd mk all
is "$rc" 0 "build-1.1 a tree with lib/ and preflight.c builds"
run_cmd mk all
is "$(printf '%s\n' "$out" | grep -cE '^  (CC|AR|LD) ')" 0 "build-1.2 a second make rebuilds nothing"
touch "$S/lib/hist.h"
run_cmd mk all
is "$(printf '%s\n' "$out" | grep -E '^  CC ' | sed 's/^  CC *//' | sort | tr '\n' ' ')" \
	"lib/hist.c " "build-1.3 an edited lib/hist.h rebuilds the file that includes it, not lib/common.c or lib/ini.c"
like "$out" "LD +build/preflight" "build-1.4 ... and relinks the program"
touch "$S/lib/command.h"
run_cmd mk all
is "$(printf '%s\n' "$out" | grep -E '^  CC ' | sed 's/^  CC *//' | sort | tr '\n' ' ')" "lib/command.c preflight.c " \
	"build-1.5 an edited lib/command.h rebuilds preflight.c and lib/command.c"
# a fragment whose first rule is not a program (as app/fsw/fsw.mk's archive) must not become the default goal
printf '$(B)/aaa.stamp:\n\ttouch $@\n' > "$S/lib/aaa.mk"
rm -f "$S/build/preflight"
run_cmd mk
ok "build-1.6 'make' alone builds every program even when a fragment's first rule is something else" \
	test -x "$S/build/preflight"
rm -f "$S/lib/aaa.mk"

# fake cross tools: log their name, run the host's
for t in gcc ar pkg-config; do
	printf '#!/bin/sh\necho "%s" >> "%s"\nexec %s "$@"\n' "$t" "$TMP/x/log" "$t" > "$TMP/x/xx-$t"
	chmod +x "$TMP/x/xx-$t"
done
run_cmd mk B=build-cross CROSS_COMPILE="$TMP/x/xx-" all
is "$rc" 0 "build-2.1 CROSS_COMPILE build"
is "$(sort -u "$TMP/x/log" | tr '\n' ' ')" "ar gcc pkg-config " \
	"build-2.2 CROSS_COMPILE prefixes the compiler, the archiver and pkg-config (when the target's exists)"
rm "$TMP/x/log" "$TMP/x/xx-pkg-config"
run_cmd mk B=build-cross2 CROSS_COMPILE="$TMP/x/xx-" all
is "$rc:$(sort -u "$TMP/x/log" | tr '\n' ' ')" "0:ar gcc " "build-2.3 no target pkg-config: the host's is used"
rm "$TMP/x/log"
printf '#!/bin/sh\necho "cc" >> "%s"\nexec gcc "$@"\n' "$TMP/x/log" > "$TMP/x/my-cc"
chmod +x "$TMP/x/my-cc"
run_cmd mk B=build-cc CC="$TMP/x/my-cc" CROSS_COMPILE="$TMP/x/xx-" all
is "$rc:$(sort -u "$TMP/x/log" | tr '\n' ' ')" "0:ar cc " "build-2.4 an explicit CC wins over CROSS_COMPILE (the archiver still follows it)"

run_cmd mk -n -B V=1 CI=true build/obj/lib/hist.o
like "$out" "-Wall -Wextra.* -Werror" "build-3.1 CI=true compiles with -Werror"
run_cmd mk -n -B V=1 build/obj/lib/hist.o
is "$(printf '%s\n' "$out" | grep -c -- -Werror)" 0 "build-3.2 ... and without CI=true it does not"

run_cmd mk install PREFIX=/opt/pf DESTDIR="$TMP/dest"
ok "build-4.1 make install honours PREFIX and DESTDIR" test -x "$TMP/dest/opt/pf/bin/preflight"

# make check JUNIT=: two test scripts, one of them failing on demand
printf '#!/bin/sh\necho 1..1\necho "ok 1 - a-1.1 passes"\n' > "$S/t/0001-a.t"
printf '#!/bin/sh\necho 1..1\nif [ -e "%s" ]; then echo "not ok 1 - b-1.1 fails"; else echo "ok 1 - b-1.1 passes"; fi\n' \
	"$TMP/fail" > "$S/t/0002-b.t"
chmod +x "$S/t/"*.t
run_cmd mk check JUNIT="$TMP/ok.xml"
is "$rc:$(grep -c '<testcase ' "$TMP/ok.xml" 2>/dev/null):$(grep -c '<failure' "$TMP/ok.xml" 2>/dev/null)" "0:2:0" \
	"build-5.1 make check JUNIT=path.xml: exit 0, one JUnit testcase per test, no failure"
like "$out" "Result: PASS" "build-5.2 ... and prove's summary is still printed"
: > "$TMP/fail"
run_cmd mk check JUNIT="$TMP/fail.xml"
like "$rc:$(grep -c '<failure' "$TMP/fail.xml" 2>/dev/null)" "^[1-9][0-9]*:1$" \
	"build-5.3 a failing test: make check fails and the XML holds the failure"
like "$out" "Result: FAIL" "build-5.4 ... and prove's summary says so"
( cd "$S" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory check JUNIT=rel.xml >/dev/null 2>&1 )
ok "build-5.5 a relative JUNIT path is relative to where make runs" test -s "$S/rel.xml"
# the files that need the realtime CPUs are the longest path: the first of them starts first,
# beside the others, not after them. Two other files (two slots) wait until it has started.
rm -f "$S/t/"*.t "$S/rel.xml"
printf '#!/bin/sh\nneed() { :; }\nneed RT\necho start >> "%s"\necho 1..1\necho "ok 1 - s-1.1"\n' "$TMP/order" > "$S/t/0009-s.t"
for p in 0003-p 0004-q; do
	printf '#!/bin/sh\ni=0\nwhile ! grep -q start "%s" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done\necho "end %s" >> "%s"\necho 1..1\necho "ok 1 - p-1.1"\n' \
		"$TMP/order" "$p" "$TMP/order" > "$S/t/$p.t"
done
chmod +x "$S/t/"*.t
run_cmd mk check PROVE_JOBS=2
is "$rc:$(head -1 "$TMP/order" 2>/dev/null)" "0:start" \
	"build-5.6 make check starts the files that need the realtime CPUs first, beside the others (they wait for it)"

# probes NAME - how many USDT probes the program build/NAME (or a path) carries
probes() {
	case "$1" in */*) f=$1 ;; *) f=$S/build/$1 ;; esac
	readelf -n "$f" 2>/dev/null | grep -c 'Name: test_probe'
}
# cc_names - the sources the last make compiled, sorted, on one line
cc_names() { printf '%s\n' "$out" | grep -E '^  CC ' | sed 's/^  CC *//' | sort | tr '\n' ' '; }

# USDT: required, NO_USDT=1 builds without; switching rebuilds the users of app/marker.h
is "$(probes usdtprobe)" 1 "build-6.1 a default build has the USDT probes"
run_cmd mk NO_USDT=1 all
is "$rc:$(cc_names)" "0:t/usdtprobe.c " "build-6.2 make NO_USDT=1 after a build rebuilds the users of app/marker.h, only them"
is "$(probes usdtprobe)" 0 "build-6.3 ... and they have no probe"
run_cmd mk all
is "$rc:$(cc_names):$(probes usdtprobe)" "0:t/usdtprobe.c :1" \
	"build-6.4 make without NO_USDT=1 again: rebuilt, and the probes are back (no make clean needed)"
# a compiler that does not find sys/sdt.h (a fake one, stopped by #error, comes first)
mkdir -p "$TMP/nosdt/sys"
echo '#error sys/sdt.h hidden by the test' > "$TMP/nosdt/sys/sdt.h"
printf '#!/bin/sh\nexec gcc -I"%s" "$@"\n' "$TMP/nosdt" > "$TMP/x/nosdt-cc"
chmod +x "$TMP/x/nosdt-cc"
run_cmd mk B=build-nosdt CC="$TMP/x/nosdt-cc" all
is "$rc:$out:$(printf '%s\n' "$err" | wc -l)" "2::1" "build-6.5 no sys/sdt.h: make stops at once, with one line on stderr"
like "$err" "missing systemtap-sdt-dev \(sys/sdt.h\): run scripts/install-deps.*apt-get install -y systemtap-sdt-dev.*NO_USDT=1" \
	"build-6.6 ... naming the package, scripts/install-deps, the apt-get line and NO_USDT=1"
ok "build-6.7 ... and nothing is built" test ! -e "$S/build-nosdt/obj"
run_cmd mk B=build-nosdt CC="$TMP/x/nosdt-cc" NO_USDT=1 all
is "$rc:$(probes "$S/build-nosdt/usdtprobe")" "0:0" "build-6.8 no sys/sdt.h, make NO_USDT=1: builds, without probes"

# a pkg-config that does not know jansson (the one package of lib/)
printf '#!/bin/sh\necho "$*" >> "%s"\ncase " $* " in *" jansson "*) echo "Package jansson was not found" >&2; exit 1;; esac\nexec pkg-config "$@"\n' \
	"$TMP/x/pc.log" > "$TMP/x/nojansson-pkg-config"
chmod +x "$TMP/x/nojansson-pkg-config"
run_cmd mk B=build-nopkg PKG_CONFIG="$TMP/x/nojansson-pkg-config" all
is "$rc:$out:$(printf '%s\n' "$err" | wc -l)" "2::1" "build-7.1 a package missing: make stops at once, with one line on stderr"
like "$err" "missing libjansson-dev \(jansson\): run scripts/install-deps.*apt-get install -y libjansson-dev" \
	"build-7.2 ... naming the package, scripts/install-deps and the apt-get line"
ok "build-7.3 ... and nothing is built" test ! -e "$S/build-nopkg"
# a logging pkg-config that knows everything: a no-op make asks it once
printf '#!/bin/sh\necho "$*" >> "%s"\nexec pkg-config "$@"\n' "$TMP/x/pc.log" > "$TMP/x/log-pkg-config"
chmod +x "$TMP/x/log-pkg-config"
mk all >/dev/null 2>&1
rm -f "$TMP/x/pc.log"
run_cmd mk PKG_CONFIG="$TMP/x/log-pkg-config" all
is "$rc:$(wc -l < "$TMP/x/pc.log")" "0:1" "build-7.4 a no-op make calls pkg-config once"
# a libtracecmd other than the one traces/rec_tracecmd.h declares the private API of
printf 'REC_TRACECMD_VERSIONS := 0.9.%%\n' > "$S/t/tcmd.mk"
run_cmd mk all
is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "build-8.1 an unknown libtracecmd version: make stops at once, with one line on stderr"
like "$err" "libtracecmd [0-9.]*: traces/rec_tracecmd.h declares the private API \(output and the undeclared reading functions\) of libtracecmd 0.9.x only" \
	"build-8.2 ... naming the version found and the one the declarations match"
rm "$S/t/tcmd.mk"

# the fragments' order does not matter: the whole tree's commands, its fragments read in
# reverse, are the same (the Makefile, "The fragments"); no fragment turns on
# .SECONDEXPANSION, which would change how every rule after it is read
top() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CI make -C "$TOP" --no-print-directory -n -B "$@" all unit-tests 2>&1 | sort; }
is "$(cd "$TOP" && grep -l '^[[:space:]]*\.SECONDEXPANSION' Makefile */*.mk */*/*.mk)" "" \
	"build-9.1 no fragment turns on .SECONDEXPANSION"
top > "$TMP/order.fwd"
top FRAGMENTS="$(cd "$TOP" && ls */*.mk */*/*.mk | sort -r | tr '\n' ' ')" > "$TMP/order.rev"
ok "build-9.2 the fragments read in reverse order give the same commands" cmp "$TMP/order.fwd" "$TMP/order.rev"
is "$(grep -c -e ' -o build/preflight ' -e ' -o build/t/fuzz/rec_cut ' "$TMP/order.fwd")" 2 \
	"build-9.3 ... and they are the build's (they link preflight and a fuzz replay program)"
done_testing
