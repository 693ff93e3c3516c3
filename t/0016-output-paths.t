#!/bin/sh
# 0016-output-paths.t - every output path of every command that takes one
# (lib/outfile.h), on nodes made in a scratch directory, never in /dev: a
# character device stays a device (written in place; a full one is exit 3 and
# one line), a FIFO's reader gets the output, a directory is refused (exit 2,
# one line), a regular file is replaced whole by a rename, a new name is
# written, /dev/stdout is stdout. Then the stdout writers on a full device
# (exit 3, one line naming stdout and why) and a writer killed before its rename (the old file stays
# whole, the leftover NAME.tmp is never the output and goes at the next write).
. "$(dirname "$0")/lib/test-lib.sh"
need ROOT
need BUILT:preflight BUILT:t/gentrace BUILT:t/ci_genruns
need CMD:gnuplot CMD:mknod CMD:mkfifo CMD:timeout
plan 239

RUN="$TMP/run"
"$TOP/t/fixtures/report/make-rundir.sh" full "$RUN" >"$TMP/mk.log" 2>&1 ||
	{ echo "# make-rundir failed:"; sed 's/^/#   /' "$TMP/mk.log"; }
G="$B/t/ci_genruns"
mkdir -p "$TMP/runs"
"$G" "$TMP/runs/base" --runs 10 --seed 11 >/dev/null || exit 1
"$G" "$TMP/runs/new" --runs 3 --seed 12 --first 11 >/dev/null || exit 1
"$PREFLIGHT" baseline create "$TMP"/runs/base/run-* -o "$TMP/bl.json" >/dev/null || exit 1
DB="$TMP/h.sqlite"
"$PREFLIGHT" history add --db "$DB" "$TMP"/runs/base/run-* >/dev/null || exit 1
FULL="$TMP/full"
mknod "$FULL" c 1 7 || exit 1

# run_out PATH CMD... - run_cmd CMD with each @OUT@ replaced by PATH
run_out() {
	_p=$1
	shift
	for _a; do
		shift
		[ "$_a" = @OUT@ ] && _a=$_p
		set -- "$@" "$_a"
	done
	run_cmd "$@"
}

# one_line - the last command said one line on stderr
one_line() { [ -n "$err" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]; }

# paths ID CMD... - the sixteen cases of one output option (@OUT@ in CMD)
paths() {
	id=$1
	shift
	d="$TMP/$id"
	mkdir -p "$d"
	run_out "$d/new" "$@"
	want=$rc
	ok "$id.1 a new name: written (exit $want)" test -s "$d/new" || echo "$err" | sed 's/^/#   /'

	echo old > "$d/file"
	ino=$(stat -c %i "$d/file")
	run_out "$d/file" "$@"
	is "$rc" "$want" "$id.2 an existing file: exit $want"
	ok "$id.3 ... replaced whole by a rename (a new inode), no NAME.tmp left" \
		sh -c "[ \"\$(cat '$d/file')\" != old ] && [ \$(stat -c %i '$d/file') != $ino ] && [ ! -e '$d/file.tmp' ]"

	mknod "$d/full" c 1 7
	run_out "$d/full" "$@"
	is "$rc" 3 "$id.4 a full character device: exit 3"
	ok "$id.5 ... one line on stderr" one_line || echo "$err" | sed 's/^/#   /'
	ok "$id.6 ... the node is still a character device" test -c "$d/full"

	mknod "$d/null" c 1 3
	run_out "$d/null" "$@"
	is "$rc" "$want" "$id.7 a null character device: exit $want"
	ok "$id.8 ... the node is still a character device" test -c "$d/null"

	mkfifo "$d/fifo"
	timeout 30 cat "$d/fifo" > "$d/fifo.got" &
	reader=$!
	run_out "$d/fifo" "$@"
	[ -p "$d/fifo" ] || timeout 1 cat "$d/fifo" > /dev/null 2>&1	# a FIFO renamed over: free the reader
	wait "$reader"
	is "$rc" "$want" "$id.9 a FIFO: exit $want"
	ok "$id.10 ... its reader gets the output" test -s "$d/fifo.got"
	ok "$id.11 ... and it is still a FIFO" test -p "$d/fifo"

	mkdir "$d/dir"
	run_out "$d/dir" "$@"
	is "$rc" 2 "$id.12 a directory: refused, exit 2"
	ok "$id.13 ... one line on stderr" one_line || echo "$err" | sed 's/^/#   /'
	ok "$id.14 ... nothing written in it or beside it" \
		sh -c "[ -d '$d/dir' ] && [ -z \"\$(ls -A '$d/dir')\" ] && [ ! -e '$d/dir.tmp' ]"

	run_out /dev/stdout "$@"
	is "$rc" "$want" "$id.15 /dev/stdout: exit $want"
	like "$out" . "$id.16 ... the output is on stdout"
}

CT="$TMP/runs/new/run-11"
paths out-1 "$PREFLIGHT" analyze "$RUN" -o @OUT@
paths out-2 "$PREFLIGHT" check "$RUN" -o @OUT@
paths out-3 "$PREFLIGHT" summary "$RUN" -o @OUT@
paths out-4 "$PREFLIGHT" report "$RUN" -o @OUT@
paths out-5 "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$TMP"/runs/new/run-* --tap @OUT@
paths out-6 "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$TMP"/runs/new/run-* --tap /dev/null --json @OUT@
paths out-7 "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$TMP"/runs/new/run-* --tap /dev/null --md @OUT@
paths out-8 "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$TMP"/runs/new/run-* --tap /dev/null --junit @OUT@
paths out-9 "$PREFLIGHT" baseline create "$TMP"/runs/base/run-* -o @OUT@
paths out-10 "$PREFLIGHT" history trend --db "$DB" --metric io.activation_latency.max --csv @OUT@
paths out-11 "$PREFLIGHT" sysinfo -o @OUT@
paths out-12 "$PREFLIGHT" load cpu -d 100ms -o @OUT@

# --- out-13: what goes to stdout, on a full device: exit 3, one line (out-13.11, 13.12:
# analyze with a trace and record --summary write it from pf_isolate's child: exit 0 before)
n=0
for c in "history list --db $DB" "history trend --db $DB --metric io.activation_latency.max" \
	"compare --baseline $TMP/bl.json $CT" "check $RUN" "summary $RUN" \
	"analyze $RUN -o -" "sysinfo" "baseline create $TMP/runs/base/run-0* $TMP/runs/base/run-10 -o $TMP/b2.json" \
	"load cpu -d 100ms" "help" "analyze $RUN -o $TMP/o13.json" "record --summary $RUN/03-app/trace.dat" "sysinfo --json"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	run_cmd sh -c '"$@" > "$0"' "$FULL" "$PREFLIGHT" $c
	is "$rc" 3 "out-13.$n $c > a full device: exit 3"
	ok "out-13.$n ... one line on stderr" one_line || echo "$err" | sed 's/^/#   /'
	like "$err" ": stdout: cannot write: No space left on device\$" "out-13.$n ... naming stdout and why"
done

# --- out-14: killed between the last write and the rename (PREFLIGHT_TEST_OUTFILE_KILL)
n=0
for c in "report $RUN -o" "baseline create $TMP/runs/base/run-0* $TMP/runs/base/run-10 -o"; do
	f="$TMP/killed-$n"
	echo old > "$f"
	# shellcheck disable=SC2086
	run_cmd env PREFLIGHT_TEST_OUTFILE_KILL="killed-$n" "$PREFLIGHT" $c "$f"
	is "$rc" 137 "out-14.$((n * 4 + 1)) ${c%% *} killed before its rename (SIGKILL)"
	ok "out-14.$((n * 4 + 2)) ... the old file stays whole, the new text only in NAME.tmp" \
		sh -c "[ \"\$(cat '$f')\" = old ] && [ -s '$f.tmp' ]"
	# shellcheck disable=SC2086
	run_cmd "$PREFLIGHT" $c "$f"
	is "$rc" 0 "out-14.$((n * 4 + 3)) the next ${c%% *} over the leftover: exit 0"
	ok "out-14.$((n * 4 + 4)) ... its output in place, the leftover gone" \
		sh -c "[ \"\$(cat '$f')\" != old ] && [ ! -e '$f.tmp' ]"
	n=$((n + 1))
done
done_testing
