#!/bin/sh
# 0001-cli.t - the preflight front end: help, version, unknown commands, exit codes
. "$(dirname "$0")/lib/test-lib.sh"
plan 8

run_cmd "$PREFLIGHT" --version
like "$out" '^preflight [0-9]+\.[0-9]+' "cli-1.1 --version prints the version"
is "$rc" 0 "cli-1.2 --version exits 0"

run_cmd "$PREFLIGHT"
is "$rc" 2 "cli-1.3 no command is a usage error (exit 2)"

run_cmd "$PREFLIGHT" help
like "$out" 'help +show the commands' "cli-1.4 help lists the commands"

run_cmd "$PREFLIGHT" frobnicate
is "$rc" 2 "cli-1.5 unknown command exits 2"
is "$err" "preflight: 'frobnicate': no such command (see 'preflight help')" "cli-1.6 one-line error quoting the input"

run_cmd "$PREFLIGHT" help frobnicate
is "$rc" 2 "cli-1.7 help on an unknown command exits 2"

run_cmd "$PREFLIGHT" --bogus
is "$rc" 2 "cli-1.8 unknown top-level option exits 2"
done_testing
