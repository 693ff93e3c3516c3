#!/bin/sh
# 0006-build-identity.t - what the build fixes for a run's identity (run.json
# "preflight", bench/run_identity.c): the git commit of the tree ("-dirty"
# when it has uncommitted changes, "unknown" built outside git) and the trace
# libraries' versions from pkg-config.
. "$(dirname "$0")/lib/test-lib.sh"
need CMD:git
plan 4

# mkvar DIR VAR - the value make gives VAR in DIR's Makefile
mkvar() { make -s --no-print-directory -C "$1" --eval "pf-print-var: ; @echo \$($2)" pf-print-var 2>&1; }

head=$(git -C "$TOP" rev-parse --short=12 HEAD)
like "$(mkvar "$TOP" RUN_GIT_COMMIT)" "^$head(-dirty)?\$" "bid-1.1 in the git tree: its commit ($head), -dirty with changes"
is "$(mkvar "$TOP" RUN_LIB_VERSIONS)" \
	"libtracefs=$(pkg-config --modversion libtracefs) libtracecmd=$(pkg-config --modversion libtracecmd) libtraceevent=$(pkg-config --modversion libtraceevent) jansson=$(pkg-config --modversion jansson)" \
	"bid-1.2 the libraries' versions from pkg-config"
mkdir "$TMP/src"
git -C "$TOP" archive HEAD | tar -x -C "$TMP/src"
is "$(cd / && GIT_CEILING_DIRECTORIES="$TMP" mkvar "$TMP/src" RUN_GIT_COMMIT)" "unknown" "bid-2.1 outside git: unknown"
is "$(strings "$B/obj/bench/run_identity.o" | grep -c "^gcc \|^clang ")" 1 "bid-3.1 the compiler and its version are in the object"
