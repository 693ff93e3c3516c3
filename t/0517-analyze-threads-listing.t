#!/bin/sh
# 0516-analyze-threads-listing.t - which threads results.json lists: by
# default the app's threads, every realtime one, the culprits and the 10
# busiest and 10 worst-woken of the rest, with threads_listing counting what
# was left out; --all-threads and --threads list what they say; and a budget
# on threads.* that could have taken a thread left out is not measured, never
# silently passed.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:t/gentrace PERL:JSON::PP
plan 10

"$B/t/gentrace" storm "$TMP/storm.dat" 300000 >/dev/null || skip_all "gentrace storm failed"
"$PREFLIGHT" analyze --trace "$TMP/storm.dat" -o "$TMP/def.json" -q
"$PREFLIGHT" analyze --trace "$TMP/storm.dat" -o "$TMP/all.json" -q --all-threads

# the set the rule gives, computed from the complete listing, against the default one
expected_and_listed() {
	perl -MJSON::PP -e '
		sub rd { local $/; open my $f, "<", $_[0] or die; decode_json(<$f>) }
		my ($all, $def) = (rd($ARGV[0]), rd($ARGV[1]));
		my @th = @{$all->{threads}};
		my %want;
		$want{$_->{pid}} = 1 for grep { ($_->{policy} // "") =~ /^(rt|deadline)$/ } @th;
		for my $t (@{$all->{tasks}}) {
			$want{$t->{tid}} = 1 if $t->{tid};
			for my $c (@{$t->{culprits} // []}) {
				$want{$_->{id}} = 1 for grep { $_->{kind} eq "thread" } @{$c->{contributors}};
			}
		}
		my @rest = grep { !$want{$_->{pid}} } @th;
		my @run = sort { $b->{runtime_ns} <=> $a->{runtime_ns} } @rest;
		my @wk = sort { $b->{wakeup_latency_ns}{max} <=> $a->{wakeup_latency_ns}{max} }
			 grep { ($_->{wakeup_latency_ns}{count} // 0) > 0 } @rest;
		$want{$_->{pid}} = 1 for @run[0 .. ($#run < 9 ? $#run : 9)];
		$want{$_->{pid}} = 1 for @wk[0 .. ($#wk < 9 ? $#wk : 9)];
		my %got = map { $_->{pid} => 1 } @{$def->{threads}};
		print join(",", sort { $a <=> $b } keys %want), " | ", join(",", sort { $a <=> $b } keys %got), "\n";
	' "$@"
}
sets=$(expected_and_listed "$TMP/all.json" "$TMP/def.json")
is "${sets%% | *}" "${sets##* | }" "thr-list-1.1 the default listing is the app's, the realtime, the culprit and the top 10 + 10 other threads"
seen=$(json_get "$TMP/all.json" threads_listing.threads_seen)
is "$(json_get "$TMP/def.json" threads_listing.mode threads_listing.threads_seen)" "default
$seen" "thr-list-1.2 threads_listing says the mode and every thread seen"
listed=$(json_get "$TMP/def.json" threads_listing.listed)
omitted=$(json_get "$TMP/def.json" threads_listing.omitted)
ok "thr-list-1.3 listed + omitted = seen, and some were left out ($listed + $omitted = $seen)" \
	[ $((listed + omitted)) -eq "$seen" -a "$omitted" -gt 0 ]
is "$(perl -MJSON::PP -0e 'print scalar @{decode_json(<>)->{threads}}' "$TMP/def.json")" "$listed" \
	"thr-list-1.5 threads[] holds exactly 'listed' entries"
is "$(json_get "$TMP/all.json" threads_listing.mode threads_listing.omitted)" "all
0" "thr-list-1.6 --all-threads lists every thread seen"
"$PREFLIGHT" analyze --trace "$TMP/storm.dat" -o "$TMP/pat.json" -q --threads 'worker1*/0,101'
is "$(perl -MJSON::PP -0e 'print join ",", sort map { $_->{comm} } @{decode_json(<>)->{threads}}' "$TMP/pat.json")" \
	"io,worker1/0,worker10/0,worker11/0,worker12/0,worker13/0,worker14/0,worker15/0,worker16/0,worker17/0,worker18/0,worker19/0" \
	"thr-list-1.7 --threads lists exactly the threads it names"

# --- check: a budget that could have taken a thread left out is not measured
cat > "$TMP/b.ini" <<'INI'
[REQ-ANY]
text   = every thread woken within 1 s
metric = threads.*.wakeup_latency_ns.max
bound  = <= 1s

[REQ-RT]
text   = every realtime thread woken within 1 s
metric = threads.*.wakeup_latency_ns.max
select = rt
bound  = <= 1s

[REQ-ONE]
text   = worker33/1 woken within 1 s
metric = threads.worker33/1.wakeup_latency_ns.max
bound  = <= 1s
INI
run_cmd "$PREFLIGHT" check "$TMP/def.json" --budgets "$TMP/b.ini"
like "$out" "ok [0-9]+ - REQ-ANY [^#]*# SKIP not measured: $omitted threads left out of threads\[\] \(analyze --all-threads lists every one\)" \
	"thr-list-2.1 threads.* over a cut listing: not measured, saying how many were left out"
ok "thr-list-2.2 select = rt sees every realtime thread: nothing left out" \
	sh -c '! printf "%s\n" "$1" | grep REQ-RT | grep -q "left out"' - "$out"
like "$(printf '%s\n' "$out" | grep REQ-ONE)" "SKIP not measured: $omitted threads left out" \
	"thr-list-2.3 a named thread that was left out is not measured for that reason, not 'no element'"
run_cmd "$PREFLIGHT" check "$TMP/all.json" --budgets "$TMP/b.ini"
ok "thr-list-2.4 with --all-threads every thread is judged" sh -c '! printf "%s\n" "$1" | grep -q "left out"' - "$out"
done_testing
