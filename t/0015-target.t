#!/bin/sh
# 0015-target.t - the emulated target boards' plumbing (docs/target.md): the
# package list a guest gets, the scripts' answers to bad usage and to what is
# not an image, and, when this machine has an amd64 guest image already (make
# check-target ARCH=amd64 made it; building one takes minutes), one boot that
# brings a command's exit status and files back. The guests' suite itself is
# make check-target.
. "$(dirname "$0")/lib/test-lib.sh"
plan 24

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
	"target-0.11 make target-image ARCH=arm64 without a sysroot: no build check, the image script runs (it makes the sysroot)"

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
	"target-0.12 apt-sources failed: the URI and suite of the index apt-get update could not fetch"
printf 'E: dpkg: error processing package foo\nE: mmdebstrap failed to run\n' > "$TMP/other.log"
is "$("$TOP/scripts/apt-sources" failed "$TMP/other.log")" "" "target-0.13 ... nothing when apt-get update did not fail (no retry)"
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
	"target-0.14 apt-sources without: the suite gone from deb822 and one-line entries, the others kept"
run_cmd "$TOP/scripts/apt-sources" failed
is "$rc" 2 "target-0.15 apt-sources failed without its log: usage, exit 2"

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
done_testing
