#!/bin/sh
# 0006-cross.t - the cross-build plumbing that runs without a cross toolchain: the
# package list scripts/make-sysroot reads from scripts/install-deps, make-sysroot's usage,
# and make's answers to an unknown ARCH, a missing sysroot and the native ARCH
# (docs/target.md). The cross builds themselves are tested by make check-cross.
. "$(dirname "$0")/lib/test-lib.sh"
plan 9

libs=$("$TOP/scripts/install-deps" --target-libs | tr '\n' ' ')
like "$libs" "^([a-z0-9.+-]+-dev )+$" "cross-0.1 install-deps --target-libs: only -dev packages ($libs)"
like " $libs" " libtracecmd-dev .* libjansson-dev .* systemtap-sdt-dev .* libgsl-dev " \
	"cross-0.2 ... the libraries the build links against, sys/sdt.h and GSL (the tail statistics: the armhf and arm64 sysroots get it) among them"

run_cmd "$TOP/scripts/make-sysroot" arm64
is "$rc:$out" "2:" "cross-0.3 make-sysroot without DIR: usage, exit 2"
run_cmd "$TOP/scripts/make-sysroot" 'arm64;x' "$TMP/s"
is "$rc:$(test -e "$TMP/s" && echo made)" "2:" "cross-0.4 make-sysroot: a bad architecture name is refused before anything is made"

# mk ARGS... - make in the tree, with nothing of an outer make
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u ARCH make -C "$TOP" --no-print-directory "$@"; }
run_cmd mk -n ARCH=sparc64 all
is "$rc" 2 "cross-0.5 make ARCH=sparc64: an unknown target stops make"
like "$err" "preflight: build: ARCH=sparc64: not a known target \(arm64, armhf\)" "cross-0.6 ... saying which are known"
run_cmd mk -n ARCH=armhf SYSROOT="$TMP/none" all
like "$rc:$err" "^2:.*preflight: build: no sysroot at $TMP/none: run scripts/make-sysroot armhf $TMP/none" \
	"cross-0.7 a missing sysroot stops make with the command that makes it"
# a sysroot made before a library joined the list (gsl, issue 28): make it again, not install-deps
mkdir -p "$TMP/old/usr/include"
run_cmd mk -n ARCH=armhf SYSROOT="$TMP/old" all
like "$rc:$err" "^2:.*preflight: build: missing .*libgsl-dev \(gsl\).*: $TMP/old lacks them: it was made from an older list of scripts/install-deps, run scripts/make-sysroot armhf $TMP/old to make it again" \
	"cross-0.9 a sysroot without a library of the list: the command that makes it again"
run_cmd mk -n ARCH="$(dpkg --print-architecture)" all
like "$rc:$out" "^0:" "cross-0.8 ARCH of this machine is the native build"
done_testing
