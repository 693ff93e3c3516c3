#!/bin/sh
# 0018-completion.t - the bash completion scripts/mkcompletion makes from the
# help texts (build/completion/preflight): an option's list of words is
# completed instead of file names, --help is offered once, and a subcommand
# offers its own options only (issue 27).
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight FILE:$B/completion/preflight
need CMD:bash
plan 6

C="$B/completion/preflight"
cd "$TMP" || exit 1
touch rfile kfile
comp() { bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _preflight; echo "${COMPREPLY[*]}"' _ "$C" "$@"; }
is "$(comp preflight history trend --by '')" "run kernel" "completion-1.1 --by offers its words, not file names"
is "$(comp preflight history trend --by r)" "run" "completion-1.2 ... the ones that match"
is "$(comp preflight report --h)" "--help --history" "completion-1.3 --help once (and report's --history)"
is "$(comp preflight history trend --)" "--metric --by --csv --plot --budget --db --help" \
	"completion-1.4 trend offers its own options, not export's --squad / --run"
is "$(comp preflight history export --)" "--squad --run --db --help" "completion-1.5 export its own"
is "$(comp preflight history verdicts --)" "--scenario --last --until --db --help" "completion-1.6 verdicts its own"
done_testing
