#!/bin/sh
# 0015-target.t - the emulated target boards' plumbing (docs/target.md): the
# package list a guest gets, the scripts' answers to bad usage and to what is
# not an image, and, when this machine has an amd64 guest image already (make
# check-target ARCH=amd64 made it; building one takes minutes), one boot that
# brings a command's exit status and files back, and one that is frozen on
# purpose: the probe of its vCPUs through qemu's monitor and the watch that ends
# it. The guests' suite itself is make check-target.
. "$(dirname "$0")/lib/test-lib.sh"
plan 49

rt=$("$TOP/scripts/install-deps" --target-runtime | tr '\n' ' ')
like " $rt" " libtracecmd1 .* rt-tests rtla trace-cmd .* perl " \
	"target-0.1 install-deps --target-runtime: the runtime libraries and the tools a guest runs"
ok "target-0.2 ... and no -dev package (a guest runs, it does not build)" sh -c '! echo "$1" | grep -q -- "-dev "' - "$rt"

run_cmd "$TOP/scripts/target-image" sparc rt "$TMP/img"
like "$rc:$err" "^2:target-image: 'sparc' 'rt': ARCH is amd64, arm64 or armhf and FLAVOUR rt or std" \
	"target-0.3 target-image: an unknown architecture, exit 2 before anything is made"
ok "target-0.4 ... nothing made" test ! -e "$TMP/img"
run_cmd "$TOP/scripts/target-image" amd64 lazy "$TMP/img"
is "$rc" 2 "target-0.5 target-image: an unknown flavour, exit 2"

mkdir -p "$TMP/notimage"
run_cmd "$TOP/scripts/target-boot" "$TMP/notimage" "$TMP/res" -- true
like "$rc:$err" "^3:target-boot: $TMP/notimage: not a target image \(no image.env\)" \
	"target-0.6 target-boot: a directory without image.env is not an image, exit 3"
run_cmd "$TOP/scripts/target-boot" --smp 0 "$TMP/notimage" "$TMP/res" -- true
like "$rc:$err" "^2:target-boot: --smp '0': not a positive whole number" "target-0.7 target-boot --smp 0: exit 2"
run_cmd "$TOP/scripts/target-boot" "$TMP/notimage" "$TMP/res" true
like "$rc:$err" "^2:usage: scripts/target-boot" "target-0.8 target-boot without '--' before the command: usage, exit 2"

run_cmd "$TOP/scripts/target-check" --suite all amd64 rt
like "$rc:$err" "^2:target-check: --suite 'all': not smoke or full" "target-0.9 target-check --suite all: exit 2"
mkdir -p "$TMP/done"
run_cmd "$TOP/scripts/target-check" -o "$TMP/done" amd64 rt
like "$rc:$err" "^2:target-check: -o '$TMP/done': exists: a results directory is never written over" \
	"target-0.10 target-check never writes into an existing results directory"

run_cmd "$TOP/scripts/target-rtla"
like "$rc:$err" "^2:usage: scripts/target-rtla OUT_DIR" "target-0.11 target-rtla without a directory: usage, exit 2"
run_cmd "$TOP/scripts/target-rtla" "$TMP/rtla" 30 0
like "$rc:$err" "^2:target-rtla: HOG_MS '0': not a positive whole number" "target-0.12 target-rtla: a busy loop of 0 ms, exit 2"
run_cmd "$TOP/scripts/target-rtla" "$TMP/done"
like "$rc:$err" "^2:target-rtla: $TMP/done: exists: never written over" "target-0.13 target-rtla never writes into an existing directory"
# a PATH without rtla
mkdir "$TMP/bin"
for t in id grep mkdir; do ln -s "$(command -v $t)" "$TMP/bin/$t"; done
run_cmd env PATH="$TMP/bin" /bin/bash "$TOP/scripts/target-rtla" "$TMP/rtla"
like "$rc:$err" "^3:target-rtla: (rtla: not found in PATH \\(package rtla\\)|needs root)$" \
	"target-0.14 target-rtla without rtla: exit 3, saying so"
ok "target-0.15 and it made nothing" test ! -e "$TMP/rtla"

# on a fresh machine the sysroot does not exist yet: the goals that make it must not check for it
run_cmd make -n -C "$TOP" --no-print-directory target-image ARCH=arm64 SYSROOT="$TMP/nosysroot"
like "$rc:$(printf "%s" "$out" | tr "\n" " ")" "^0:.*scripts/target-image arm64 rt " \
	"target-0.16 make target-image ARCH=arm64 without a sysroot: no build check, the image script runs (it makes the sysroot)"

# an index of the registry that does not match its Release file (bookworm-security's armhf
# Packages.xz on 2026-12-06): the base is made again without that suite
cat > "$TMP/mmdebstrap.log" <<'LOG'
Err:6 http://deb.debian.org/debian-security bookworm-security/main armhf Packages
  File has unexpected size (356624 != 356976). Mirror sync in progress? [IP: 203.0.113.80 80]
E: Failed to fetch http://deb.debian.org/debian-security/dists/bookworm-security/main/binary-armhf/Packages.xz  File has unexpected size (356624 != 356976). Mirror sync in progress? [IP: 203.0.113.80 80]
E: Some index files failed to download. They have been ignored, or old ones used instead.
E: apt-get update --error-on=any -oAPT::Status-Fd=<$fd> -oDpkg::Use-Pty=false failed
E: mmdebstrap failed to run
LOG
is "$("$TOP/scripts/apt-sources" failed "$TMP/mmdebstrap.log")" "http://deb.debian.org/debian-security bookworm-security" \
	"target-0.17 apt-sources failed: the URI and suite of the index apt-get update could not fetch"
printf 'E: dpkg: error processing package foo\nE: mmdebstrap failed to run\n' > "$TMP/other.log"
is "$("$TOP/scripts/apt-sources" failed "$TMP/other.log")" "" "target-0.18 ... nothing when apt-get update did not fail (no retry)"
cat > "$TMP/sources" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bullseye-security bookworm-security
Components: main
deb [arch=armhf signed-by=/k.gpg] http://deb.debian.org/debian-security bookworm-security main
deb http://deb.debian.org/debian bookworm-backports main
SRC
got=$("$TOP/scripts/apt-sources" without "http://deb.debian.org/debian-security bookworm-security" < "$TMP/sources" | tr '\n' '|')
is "$got" "Types: deb|URIs: http://deb.debian.org/debian|Suites: bookworm bookworm-updates|Components: main||\
|deb http://deb.debian.org/debian bookworm-backports main|Types: deb|URIs: http://deb.debian.org/debian-security|\
Suites: bullseye-security|Components: main|" \
	"target-0.19 apt-sources without: the suite gone from deb822 and one-line entries, the others kept"
run_cmd "$TOP/scripts/apt-sources" failed
is "$rc" 2 "target-0.20 apt-sources failed without its log: usage, exit 2"

# --- target-4.1's comparison: scripts/json-same ------------------------------------------------
cat > "$TMP/a.json" <<'J'
{"generator": "preflight a", "n": 12, "t_ns": 1500, "tail": {"a2": 1.63180242, "ok": true}, "name": "io"}
J
sed 's/1.63180242/1.63180236/' "$TMP/a.json" > "$TMP/near.json"
sed 's/"preflight a"/"preflight b"/' "$TMP/near.json" > "$TMP/gen.json"
run_cmd "$TOP/scripts/json-same" "$TMP/a.json" "$TMP/near.json"
is "$rc:$out" "0:1 number(s) differed within a relative 1e-06 (the largest 3.68e-08)" \
	"target-0.21 json-same: a statistic's last digits (arm64's libgsl against x86-64's) are the same analysis, said"
run_cmd "$TOP/scripts/json-same" --rel 1e-9 "$TMP/a.json" "$TMP/near.json"
is "$rc:$out" "1:.tail.a2: 1.63180242 against 1.63180236 (relative 3.68e-08)" "target-0.22 ... not within a smaller --rel: exit 1, its path"
sed 's/"t_ns": 1500/"t_ns": 1501/' "$TMP/a.json" > "$TMP/int.json"
run_cmd "$TOP/scripts/json-same" "$TMP/a.json" "$TMP/int.json"
is "$rc:$out" "1:.t_ns: 1500 against 1501 (integers)" "target-0.23 ... an integer (a count, a time in ns) must be exact"
sed 's/"n": 12/"n": "12"/; s/"ok": true/"ok": false/' "$TMP/a.json" > "$TMP/type.json"
run_cmd "$TOP/scripts/json-same" "$TMP/a.json" "$TMP/type.json"
is "$rc:$(echo $out)" "1:.n: 12 against 12 (a number against not a number) .tail.ok: true against false" "target-0.24 ... a number is not a string, true is not false"
run_cmd "$TOP/scripts/json-same" "$TMP/a.json" "$TMP/gen.json"
is "$rc:$out" "1:.generator: preflight a against preflight b" "target-0.25 ... the generator differs"
run_cmd "$TOP/scripts/json-same" --ignore .generator "$TMP/a.json" "$TMP/gen.json"
is "$rc" 0 "target-0.26 ... unless left out (--ignore .generator)"
run_cmd "$TOP/scripts/json-same" "$TMP/a.json" "$TMP/missing.json"
like "$rc:$err" "^2:json-same: $TMP/missing.json: No such file" "target-0.27 ... an unreadable file: exit 2, one line"

image=${PREFLIGHT_CACHE:-/var/cache/preflight}/target/amd64-rt
if [ "$(id -u)" -eq 0 ] && [ -f "$image/image.env" ] && command -v qemu-system-x86_64 >/dev/null; then
	run_cmd "$TOP/scripts/target-boot" --smp 1 --mem 512 --timeout 600 "$image" "$TMP/boot" -- \
		sh -c 'uname -v > kernel.txt; nproc > cpus.txt; cat /proc/cmdline > cmdline.txt; exit 7'
	is "$rc" 7 "target-1.1 a command's exit status comes back from the guest"
	like "$(cat "$TMP/boot/kernel.txt" 2>/dev/null)" "PREEMPT_RT" "target-1.2 ... it ran on the image's PREEMPT_RT kernel"
	is "$(cat "$TMP/boot/cpus.txt" 2>/dev/null)" 1 "target-1.3 ... with the one CPU asked for"
	like "$(cat "$TMP/boot/cmdline.txt" 2>/dev/null)" " preflight.emulated=tcg " \
		"target-1.4 ... and told by its kernel command line that its CPU is emulated"
else
	# not a requirement of this machine: the image is made by make check-target, minutes of mmdebstrap
	for id in target-1.1 target-1.2 target-1.3 target-1.4; do
		echo "ok $((_n + 1)) - $id # SKIP no amd64 guest image in $image (make check-target ARCH=amd64 makes it) or not root"
		_n=$((_n + 1))
	done
fi

# --- a guest that stops moving: scripts/target-probe and scripts/target-watch --------------------

run_cmd "$TOP/scripts/target-probe" "$TMP/none.sock"
like "$rc:$err" "^2:usage: scripts/target-probe" "target-2.1 target-probe without an architecture: usage, exit 2"
run_cmd "$TOP/scripts/target-probe" "$TMP/none.sock" sparc
like "$rc:$err" "^2:target-probe: 'sparc': not amd64, arm64 or armhf" "target-2.2 target-probe: an unknown architecture, exit 2"
run_cmd "$TOP/scripts/target-probe" "$TMP/none.sock" arm64
like "$rc:$err" "^3:target-probe: $TMP/none.sock: cannot reach qemu's monitor: " \
	"target-2.3 target-probe: no monitor at the socket, exit 3 in one line"

# the guest's kernel symbols, and what qemu shows of two arm64 vCPUs: one in the kernel, one in user space
cat > "$TMP/kallsyms" <<'SYMS'
ffff800008010000 T _stext
ffff8000080a0000 T rb_read_page
ffff8000080a0400 t rb_get_reader_page
ffff8000080a0000 d not_text
ffff800001000000 t virtio_dev_probe	[virtio]
SYMS
cat > "$TMP/regs-arm64" <<'REGS'
CPU#0
 PC=ffff8000080a0468  X00=0000000000000000 X01=0000000000000001
PSTATE=600003c5 -ZC- EL1h     FPCR=00000000 FPSR=00000000
CPU#1
 PC=0000aaaab2c41234  X00=0000000000000000 X01=0000000000000001
PSTATE=80000000 N--- EL0t     FPCR=00000000 FPSR=00000000
REGS
perl "$TOP/t/lib/fake-qemu-monitor.pl" "$TMP/a64.sock" "$TMP/regs-arm64" & fake=$!
wait_for 30 test -S "$TMP/a64.sock"
run_cmd "$TOP/scripts/target-probe" --samples 3 "$TMP/a64.sock" arm64 "$TMP/kallsyms"
is "$rc" 0 "target-2.4 target-probe of an arm64 guest through its monitor: exit 0"
like "$(printf '%s\n' "$out" | grep '^sample 2: ')" "^sample 2: CPU 0 rb_get_reader_page\+0x68; CPU 1 user space \(0xaaaab2c41234\)$" \
	"target-2.5 ... each vCPU's PC named by the text symbol it is in, or user space (EL0)"
like "$(printf '%s\n' "$out" | sed -n '/^where each vCPU was/,$p' | tr '\n' '|')" \
	"^where each vCPU was, of 3 samples:\|CPU 0: rb_get_reader_page 3\|CPU 1: user space 3\|$" \
	"target-2.6 ... and where each vCPU was, of all the samples"
is "$(grep -c '^stop$' "$TMP/a64.sock.log"):$(grep -c '^cont$' "$TMP/a64.sock.log")" "3:3" \
	"target-2.7 ... the machine stopped for each sample and let go again (never left stopped)"
kill $fake

cat > "$TMP/regs-armhf" <<'REGS'
CPU#0
R00=00000000 R01=00000001 R02=c1a2b3c4 R03=00000000
R12=00000000 R13=c2001f48 R14=c0310a1c R15=c0310a40
PSR=600001d3 -ZC- A svc32
REGS
printf 'c0008000 T _stext\nc0310a00 T rcu_gp_fqs_loop\n' > "$TMP/kallsyms32"
perl "$TOP/t/lib/fake-qemu-monitor.pl" "$TMP/a32.sock" "$TMP/regs-armhf" & fake=$!
wait_for 30 test -S "$TMP/a32.sock"
run_cmd "$TOP/scripts/target-probe" --samples 2 "$TMP/a32.sock" armhf "$TMP/kallsyms32"
like "$(printf '%s\n' "$out" | grep '^CPU 0: ')" "^CPU 0: rcu_gp_fqs_loop 2$" \
	"target-2.8 target-probe of an armhf guest: R15 in the kernel (svc32) named by its symbol"

# the watch: a guest whose monitor.log stopped is probed and ended; one that ends by itself is left
mkdir -p "$TMP/watch"
printf '%s\n' 23:01:00 '1.00 1.00 1.00 1/80 200' '  PID STAT' ' 2144 R preflight record --recover' > "$TMP/watch/monitor.log"
touch -d '-2 minutes' "$TMP/watch/monitor.log"
cp "$TMP/kallsyms32" "$TMP/watch/kallsyms"
sleep 600 & guest=$!
run_cmd env PREFLIGHT_TARGET_FROZEN_S=5 "$TOP/scripts/target-watch" $guest "$TMP/watch" armhf "$TMP/a32.sock"
is "$rc" 1 "target-2.9 target-watch: monitor.log silent past the bound: the guest is frozen, exit 1"
ok "target-2.10 ... and the guest ended" sh -c '! kill -0 "$1" 2>/dev/null' - $guest
like "$(tr '\n' '|' < "$TMP/watch/frozen.txt")" \
	"^the guest stopped moving: monitor.log not written for [0-9]+ s\|the monitor's last picture:\|23:01:00\|.* 2144 R preflight record --recover\|.*where its vCPUs were .*\|CPU 0: rcu_gp_fqs_loop 20\|" \
	"target-2.11 ... frozen.txt has the monitor's last picture and where the vCPUs were (the guest's kallsyms)"
# the console still beating while monitor.log is silent: the share stopped, not the guest
mkdir -p "$TMP/watch/.boot"
printf 'target-suite: heartbeat 23:11:30 load 3.1 2.0 1.0 2/90\r\ntarget-suite: D: \r\n' > "$TMP/watch/.boot/console.log"
printf 'target-suite: heartbeat 23:12:00 load 3.1 2.0 1.0 2/90\r\ntarget-suite: D: 512 prove p9_client_rpc; \r\n' >> "$TMP/watch/.boot/console.log"
sleep 600 & guest=$!
run_cmd env PREFLIGHT_TARGET_FROZEN_S=5 "$TOP/scripts/target-watch" $guest "$TMP/watch" armhf
like "$rc:$(head -n 4 "$TMP/watch/frozen.txt" | tr '\n' '|')" \
	"^1:the guest stopped moving: .*\|but its console still beats \(written [0-9]+ s ago\): the guest runs, its share \(9p\) stopped; the last heartbeat:\|target-suite: heartbeat 23:12:00 load 3.1 2.0 1.0 2/90\|target-suite: D: 512 prove p9_client_rpc; \|$" \
	"target-2.11a ... with the console's heartbeat still coming: frozen.txt says the share stopped, not the guest, with the last beat's D-state processes"
kill $fake
rm -r "$TMP/watch/.boot"
sleep 600 & guest=$!
touch "$TMP/watch/monitor.log"
( sleep 2; kill $guest ) &
run_cmd env PREFLIGHT_TARGET_FROZEN_S=60 "$TOP/scripts/target-watch" $guest "$TMP/watch" armhf
is "$rc" 0 "target-2.12 target-watch: a guest that ends by itself, exit 0 (nothing ended here)"

# a real guest: probed while it idles, then frozen on purpose (a SCHED_FIFO 99 spinner on its
# one CPU, realtime throttling off), found frozen by the watch and ended
if [ "$(id -u)" -eq 0 ] && [ -f "$image/image.env" ] && command -v qemu-system-x86_64 >/dev/null; then
	mkdir -p "$TMP/fsrc"
	cat > "$TMP/fsrc/freeze.sh" <<'SH'
grep -E '^[0-9a-f]+ [tTwW] ' /proc/kallsyms > kallsyms
touch idle
while [ ! -e go ]; do sleep 0.5; done
date -u +%T > monitor.log
echo -1 > /proc/sys/kernel/sched_rt_runtime_us
chrt -f 99 sh -c 'while :; do :; done'
SH
	"$TOP/scripts/target-boot" --smp 1 --mem 512 --timeout 900 --src "$TMP/fsrc" --monitor "$TMP/q.sock" \
		"$image" "$TMP/frz" -- bash "$TMP/fsrc/freeze.sh" > "$TMP/frz.log" 2>&1 & boot=$!
	wait_for 600 test -e "$TMP/frz/idle"
	run_cmd "$TOP/scripts/target-probe" --samples 5 "$TMP/q.sock" amd64 "$TMP/frz/kallsyms"
	like "$(printf '%s\n' "$out" | grep '^CPU 0: ')" "^CPU 0: .*[a-z_]+ [1-5]" \
		"target-2.13 target-probe of a live amd64 guest: its vCPU's samples named by the guest's own kernel symbols (KASLR)"
	touch "$TMP/frz/go"
	wait_for 600 test -s "$TMP/frz/monitor.log"
	run_cmd env PREFLIGHT_TARGET_FROZEN_S=5 "$TOP/scripts/target-watch" $boot "$TMP/frz" amd64 "$TMP/q.sock"
	is "$rc" 1 "target-2.14 the guest frozen by a SCHED_FIFO 99 spinner: target-watch finds it frozen and ends it"
	wait $boot
	is "$?" 130 "target-2.15 ... target-boot, ended by the watch's SIGTERM, says it was interrupted (exit 130)"
	like "$(grep '^CPU 0: ' "$TMP/frz/frozen-cpus.txt")" "^CPU 0: user space ([5-9]|1[0-9]|20)\b" \
		"target-2.16 ... and where its vCPU was: in user space (the spinner), in most samples"
	ok "target-2.17 ... the monitor's socket removed with the guest" test ! -e "$TMP/q.sock"
else
	# not a requirement of this machine (as target-1.x above): the image is make check-target's
	for id in target-2.13 target-2.14 target-2.15 target-2.16 target-2.17; do
		echo "ok $((_n + 1)) - $id # SKIP no amd64 guest image in $image (make check-target ARCH=amd64 makes it) or not root"
		_n=$((_n + 1))
	done
fi
done_testing
