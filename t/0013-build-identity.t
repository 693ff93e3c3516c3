#!/bin/sh
# 0013-build-identity.t - what the build fixes for a run's identity (run.json
# "preflight", bench/run_identity.c, in build/identity.h): the git commit of the
# tree ("-dirty" when it has uncommitted changes, "unknown" built outside git) and
# the trace libraries' versions from pkg-config; git runs only when the commit
# can have changed, never in a no-op make.
. "$(dirname "$0")/lib/test-lib.sh"
need CMD:git
plan 8

# mkvar DIR VAR - the value make gives VAR in DIR's Makefile
mkvar() { make -s --no-print-directory -C "$1" --eval "pf-print-var: ; @echo \$($2)" pf-print-var 2>&1; }

# mkcommit DIR - the commit the build of DIR would record now (bench/bench.mk's run_git_commit)
mkcommit() { make -s --no-print-directory -C "$1" --eval 'pf-print-commit: ; @$(run_git_commit); echo "$$c"' pf-print-commit 2>&1; }

head=$(git -C "$TOP" rev-parse --short=12 HEAD)
like "$(mkcommit "$TOP")" "^$head(-dirty)?\$" "bid-1.1 in the git tree: its commit ($head), -dirty with changes"
is "$(mkvar "$TOP" RUN_LIB_VERSIONS)" \
	"libtracefs=$(pkg-config --modversion libtracefs) libtracecmd=$(pkg-config --modversion libtracecmd) libtraceevent=$(pkg-config --modversion libtraceevent) jansson=$(pkg-config --modversion jansson)" \
	"bid-1.2 the libraries' versions from pkg-config"
mkdir "$TMP/src"
git -C "$TOP" archive HEAD | tar -x -C "$TMP/src"
is "$(cd / && GIT_CEILING_DIRECTORIES="$TMP" mkcommit "$TMP/src")" "unknown" "bid-2.1 outside git: unknown"
is "$(strings "$B/obj/bench/run_identity.o" | grep -c "^gcc \|^clang ")" 1 "bid-3.1 the compiler and its version are in the object"

# git runs only when the commit can have changed: a git that logs its calls, first in PATH;
# make in the tree, in this test's build folder (already built: nothing is compiled)
mkdir "$TMP/bin"
printf '#!/bin/sh\necho "$*" >> "%s"\nexec %s "$@"\n' "$TMP/git.log" "$(command -v git)" > "$TMP/bin/git"
chmod +x "$TMP/bin/git"
mktop() { PATH="$TMP/bin:$PATH" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" --no-print-directory B="${B#"$TOP"/}" "$@"; }
like "$(sed -n 's/^#define PF_GIT_COMMIT "\(.*\)"$/\1/p' "$B/identity.h")" "^$head(-dirty)?\$" \
	"bid-1.3 the build records it in build/identity.h"
: > "$TMP/git.log"
run_cmd mktop all
is "$rc:$(cat "$TMP/git.log")" "0:" "bid-4.1 a make with nothing to do runs no git" || echo "$out" | sed 's/^/#   /'
gitdir=$(git -C "$TOP" rev-parse --absolute-git-dir)
run_cmd mktop -W "$gitdir/logs/HEAD" all
like "$(tr '\n' ' ' < "$TMP/git.log")" "^rev-parse --short=12 HEAD diff --quiet HEAD \$" \
	"bid-4.2 after a commit or a checkout (HEAD's reflog newer) make asks git for the commit again"
is "$rc:$(printf '%s\n' "$out" | grep -cE '^  (CC|LD) ')" "0:0" "bid-4.3 ... and, the commit the same, compiles and links nothing"
