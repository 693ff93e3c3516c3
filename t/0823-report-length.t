#!/bin/sh
# 0823-report-length.t - the reviewer report's length and size (issue 32.13) on a recorded run
# directory (t/fixtures/report-run: a target-smoke run, 6 tasks, 5 987 jobs, a distribution
# kernel's .config): the HTML under 1.5 MB, no figure over 250 kB, T1 and R1 thinned to each task's
# lowest and highest job per time column and its worst jobs (the extremes kept: the same maxima
# as the per-second lines), U1 in at most 300 windows over an hour, and the PDF's body (before
# the appendix) at most 15 pages; each figure's SVG without what draws nothing (indentation, empty
# groups). Values of the rendered files, never the time taken.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight
need CMD:gnuplot
plan 31

R="$TMP/run"
cp -r "$TOP/t/fixtures/report-run" "$R"
find "$R" -name '*.gz' -exec gunzip {} +
run_cmd env PREFLIGHT_REPORT_KEEP_TMP=1 TMPDIR="$TMP" "$PREFLIGHT" report "$R" -o "$TMP/r.html"
is "$rc" 0 "length-1.1 the recorded run's report: exit 0" || echo "$err" | sed 's/^/#   /'
size=$(stat -c %s "$TMP/r.html")
ok "length-1.2 its HTML is under 1.4 MB ($size bytes; it was 3.5 MB, then 1.49 MB)" test "$size" -lt 1400000
big=$(perl -ne 'while (/<figure id="fig-([^"]+)"><img [^>]*src="data:image\/svg\+xml;base64,([^"]*)"/g) {
	print "$1 ", length($2), "\n" if length($2) > 256000 }' "$TMP/r.html")
is "$big" "" "length-1.3 no figure is over 250 kB (T1 was 0.8 MB, M1 0.55 MB)"
is "$(grep -c 'CONFIG_NET_SCH_QFQ\|fig-M1' "$TMP/r.html")" 0 "length-1.4 neither the .config's text nor M1"
# the SVGs squeezed (a fifth of the HTML): no indented line, no empty group, no blank before '=' in
# a tag; and still well-formed XML (the same pixels: checked by rendering both when it was written)
squeezed=$(perl -MMIME::Base64 -ne 'while (/<figure id="fig-([^"]+)"><img [^>]*src="data:image\/svg\+xml;base64,([^"]*)"/g) {
	my ($id, $s) = ($1, decode_base64($2));
	print "$id:indent " if $s =~ /^[ \t]/m; print "$id:empty-g " if $s =~ /<g [^>]*[^\/]>\s*<\/g>/;
	print "$id:blank= " if $s =~ /<[^>]* =/; print "$id:text " unless $s =~ /<text xml:space="preserve">|<text>/ }' "$TMP/r.html")
is "$squeezed" "" "length-1.5 every figure's SVG: no indentation, no empty group, no blank before '=' in a tag, its labels kept"
svgs_ok=0 svgs=0
for s in $(perl -ne 'while (/<figure id="fig-([^"]+)"><img /g) { print "$1\n" }' "$TMP/r.html"); do
	svgs=$((svgs + 1))
	perl -MMIME::Base64 -ne 'print decode_base64($1) if /<figure id="fig-\Q'"$s"'\E"><img [^>]*src="data:image\/svg\+xml;base64,([^"]+)"/' \
		"$TMP/r.html" | perl -MXML::Parser -e 'XML::Parser->new->parse(join "", <STDIN>)' 2>/dev/null && svgs_ok=$((svgs_ok + 1))
done
is "$svgs_ok" "$svgs" "length-1.6 ... each well-formed XML ($svgs figures)"

# section 8's contributor tables toward a 15-page body: the largest four and the rest in one row,
# whose shares still add up to the whole delay (A2 keeps every contributor)
rows=$(sed -n '/<section id="worst"/,/<section id="validity"/p' "$TMP/r.html" | perl -ne '
	if (/<table><tr><th>contributor/) { $n = 0; $sum = 0; $in = 1; next }
	if ($in && /<td class="n">([0-9.]+) %<\/td><\/tr>/) { $n++; $sum += $1 }
	if ($in && /^<\/table>/) { printf "%d:%.0f ", $n, $sum; $in = 0 }')
want=$(perl -MJSON::PP -e 'local $/; my $j = decode_json(<>); for my $t (@{$j->{tasks}}) { my $c = $t->{culprits}[0] or next;
	my @k = @{$c->{contributors}}; my $s = 0; $s += $_->{share} for @k; printf "%d:%.0f ", @k > 5 ? 5 : scalar @k, 100 * $s }' "$R/results.json")
like "$want" "^$rows" "length-1.13 section 8: at most 5 contributor rows a worst case (the rest in one), their shares adding up to results.json's ($rows)"

# section 7 (issue 32.15, one definition per name): each of results.json's app utilisations once, a share of one
# CPU summed over the CPUs and of all of them (the fixture's worst slot: both CPUs of the guest busy with the app,
# 2.0: it read "200 %" beside a "worst 10 ms window" that results.json never has, "—")
is "$(sed -n '/<section id="utilisation"/,/<figure/p' "$TMP/r.html" | grep -o '<tr><th>[^<]*window[^<]*</th><td>[^<]*' | sed 's/<tr><th>//; s/<\/th><td>/: /' | tr '\n' '|')" \
	"worst 1 s window (app.utilisation_max_1s): 44.00 % of one CPU = 22.00 % of the 2 CPUs|worst 10 ms slot window (app.utilisation_max_slot): 200.00 % of one CPU = 100.00 % of the 2 CPUs|" \
	"length-1.9 section 7: the worst windows by their results.json names, of one CPU and of the 2 CPUs, no row without a value"

# the counts of section 6: where the job log's own differs from the trace's (two clocks, issue 32.8), beside it
# (this fixture's job-log counts are of an analysis that took the app's overrun flags alone: 244)
is "$(sed -n '/<table id="task-counts">/,/<\/table>/p' "$TMP/r.html" | grep -o 'data-task="\(ctl100\|nav10\)"><td>[a-z0-9]*</td><td[^>]*>[0-9]*</td><td[^>]*>[^<]*</td><td[^>]*>[^<]*</td>' | sed 's/<[^>]*>/ /g; s/^data-task="[a-z0-9]*"> //; s/  */ /g' | tr '\n' '|')" \
	"ctl100 2550 439 (job log 244) 439 (job log 434) |nav10 285 0 0 |" \
	"length-1.10 section 6's counts: ctl100's overruns and deadline misses with the job log's beside them, nav10's alone (they agree)"
like "$(grep -c '"(job log N)": the job log' "$TMP/r.html")" '^1$' "length-1.11 ... and what they are, said once below the table"

# section 5: a cyclictest histogram that overflowed (-h 10000) is said in words, per phase (issue 32.15)
is "$(sed -n '/<section id="baseline"/,/<\/section>/p' "$TMP/r.html" | grep -o '<p class="ct-overflow">[^<]*' | sed 's/<p class="ct-overflow">//' | tr '\n' '|')" \
	"idle phase: histogram overflowed: 41 of 14263 samples (0.29 %) at or above 10000.0 us, the end of its range (-h 10000), have no value but the max, 23448.0 us; the histogram covers 99.71 % of the samples, so p99.9 and p99.99, above that, are unknown (only &gt;= the range&#39;s end and &lt;= the max)|loaded phase: histogram overflowed: 277 of 13865 samples (2.00 %) at or above 10000.0 us, the end of its range (-h 10000), have no value but the max, 261691.0 us; the histogram covers 98.00 % of the samples, so p99, p99.9 and p99.99, above that, are unknown (only &gt;= the range&#39;s end and &lt;= the max)|" \
	"length-1.12 section 5: each baseline's overflowed histogram said in words (41 and 277 samples past 10 ms)"

# the gnuplot scripts of the figures, kept by PREFLIGHT_REPORT_KEEP_TMP
G=$(ls -d "$TMP"/preflight-report.* | head -1)
# no figure plots an empty data block: gnuplot's "Skipping data file with no valid points" (G1.6: telemetry
# job 186 was woken at its release, no "released, not yet woken" span), said in its key instead
is "$(cd "$G" && grep -H . ./*.err | head -3)$err" "" "length-1.7 no gnuplot warning in any figure's messages, nothing on stderr"
like "$(grep -c "title 'released, not yet woken (none here)'" "$G/G1.6.gp")/$(grep -c '^\$N << EOD' "$G/G1.6.gp")/$(grep -c 'using 1:2:3:4 with vectors' "$G/G1.6.gp")" \
	'^1/1/0$' "length-1.8 G1.6: the empty span block is not plotted, its key says '(none here)'"
# block FILE NAME - the rows of a data block $NAME of a gnuplot script
block() { awk -v b="\$$2 << EOD" '$0 == b { on = 1; next } on && $0 == "EOD" { exit } on' "$1"; }
tasks=$(perl -MJSON::PP -e 'local $/; print join(" ", map { $_->{name} } @{decode_json(<>)->{tasks}})' "$R/results.json")
ntasks=$(echo $tasks | wc -w)
bad= dots=0
for f in T1 R1; do
	for i in $(seq 0 $((ntasks - 1))); do
		n=$(block "$G/$f.gp" "D$i" | wc -l)
		dots=$((dots + n))
		[ "$n" -le 170 ] || bad="$bad $f.D$i:$n"
		# the worst dot is the worst per-second maximum: the extremes are never thinned away
		dmax=$(block "$G/$f.gp" "D$i" | sort -g -k2 | tail -1 | cut -d' ' -f2)
		mmax=$(block "$G/$f.gp" "M$i" | sort -g -k2 | tail -1 | cut -d' ' -f2)
		[ "$dmax" = "$mmax" ] || bad="$bad $f.$i:max:$dmax/$mmax"
	done
done
is "$bad" "" "length-2.1 T1 and R1: at most 80 x 2 + 10 dots a task, the worst among them (its per-second maximum)"
ok "length-2.2 ... fewer than the 5 987 jobs ($dots dots in both)" test "$dots" -lt 5987 -a "$dots" -gt 0
# each task's lowest job is drawn too
jobs="$R/03-app/jobs.csv"
bad=
i=0
for t in $tasks; do
	want=$(awk -F, -v t="$t" '$1 == t && $4 > 0 { l = ($4 - $3) / 1e3; if (m == "" || l < m) m = l } END { if (m != "") printf "%.4g\n", m }' "$jobs")
	i=$((i + 1))
	[ -n "$want" ] || continue	# no job in the job log (the logger of this run): no dots
	got=$(block "$G/T1.gp" "D$((i - 1))" | sort -g -k2 | head -1 | cut -d' ' -f2)
	[ "$got" = "$want" ] || bad="$bad $t:$got/$want"
done
is "$bad" "" "length-2.3 T1: each task's lowest activation latency is a dot (from jobs.csv)"

# G1 (issue 32.14): zoomed to [release - 1 ms, start + 1 ms] with the whole window as an inset, the culprits'
# names 14 px (8.2 pt printed) and none over another on its line (ctl100's four: they overlapped at 10 px)
lat=$(json_get "$R/results.json" tasks.name=ctl100.culprits.0.latency_ns)
is "$(grep -o '^set xrange \[[-0-9.]*:[-0-9.]*\]' "$G/G1.2.gp" | head -1)" \
	"set xrange [-1.000:$(echo "$lat / 1000000 + 1" | bc -l | xargs printf '%.3f')]" \
	"length-5.1 G1.2: the view is 1 ms before the release to 1 ms after the start ($lat ns late)"
like "$(grep -c 'whole window, ±2 slots' "$G/G1.2.gp") $(grep -o '^set xrange \[[-0-9.]*:[-0-9.]*\]' "$G/G1.2.gp" | sed -n 2p)" \
	'^1 set xrange \[-20\.[0-9]*:[0-9.]*\]$' "length-5.2 ... and an inset of the whole window, ±2 slots"
# labels: x (ms), y (row), text; a character is at least 7 px of the ~670 px view (DejaVu Sans at 14 px)
span=$(echo "$lat / 1000000 + 2" | bc -l)
overlap=$(block "$G/G1.2.gp" L | perl -e 'my @l = map { /^(\S+) (\S+) "(.*)"$/ ? [$1, $2, length($3)] : () } <STDIN>;
	my $ms = $ARGV[0] * 7 / 670; my $bad = "";
	for my $a (@l) { for my $b (@l) { next if $a == $b || $a->[1] != $b->[1] || $b->[0] < $a->[0];
		$bad .= "$a->[0]/$b->[0] " if $b->[0] < $a->[0] + $a->[2] * $ms } }
	print scalar(@l), " $bad"' "$span")
is "$overlap" "4 " "length-5.3 G1.2: 4 culprits named, none over another on its line"
is "$(grep -c "with labels left font" "$G/G1.2.gp")" 0 "length-5.4 ... in the figures' 14 px (not 10 px)"
# a name with no room for all of it loses its "(vector 236)" before anything is cut with "…"
like "$(block "$G/G1.2.gp" L | grep -c '…'):$(block "$G/G1.2.gp" L | grep -o '"local_timer interrupt[^"]*"')" \
	'^0:"local_timer interrupt [0-9]+ µs"$' "length-5.5 G1.2: local_timer's label in its short form, whole, not cut"

# a worst case whose ±1 ms view is most of the window kept (telemetry, 484 ms late): no inset, a shorter figure
last=$(ls "$G"/G1.*.gp | sort -t. -k2 -n | tail -1)
is "$(grep -c 'whole window' "$last") $(grep -c 'center bottom horizontal maxrows 2' "$last") $(grep -o '<figure id="fig-G1.[0-9]*"><img [^>]*height="[0-9]*"' "$TMP/r.html" | tail -1 | sed 's/.*height=//')" \
	'0 1 "500"' "length-5.5 G1 of telemetry's 484 ms: no inset, the key in rows below, 500 px high (not 620)"

# U1 over an hour: one task at 1 Hz for 3600 s, in windows of 1 min (60), not 3 600 of 1 s
mkdir "$TMP/hour"
awk 'BEGIN { print "# preflight-joblog/1"; print "# slot_ns=10000000"; print "# start_mono_ns=1000000000000"
	print "# task.io=id=0 kind=tick period_ns=1000000000 deadline_ns=1000000000 policy=fifo prio=90"
	print "task,seq,release_ns,start_ns,end_ns,cpu_ns,cpu,flags,missed"
	for (k = 0; k < 3600; k++) { r = 1000000000000 + k * 1000000000; l = 20000 + (k * 7919) % 30000
		printf "io,%d,%.0f,%.0f,%.0f,100000,0,0,0\n", k, r, r + l, r + l + 100000 } }' \
	> "$TMP/hour/jobs.csv"
"$PREFLIGHT" analyze -q --joblog "$TMP/hour/jobs.csv" -o "$TMP/hour/results.json"
rm -rf "$TMP"/preflight-report.*
PREFLIGHT_REPORT_KEEP_TMP=1 TMPDIR="$TMP" "$PREFLIGHT" report "$TMP/hour" -o "$TMP/hour.html" >/dev/null 2>&1
G=$(ls -d "$TMP"/preflight-report.* | head -1)
is "$(block "$G/U1.gp" U | wc -l) $(grep -o "windows of [0-9]* ms" "$G/U1.gp")" "60 windows of 60000 ms" \
	"length-3.1 U1 of an hour: 60 windows of 1 min (at most 300)"
n=$(block "$G/T1.gp" D0 | wc -l)
ok "length-3.2 T1 of an hour's 3 600 jobs: a low and a high dot in each of 80 columns and the 10 worst ($n dots)" \
	test "$n" -ge 160 -a "$n" -le 170

# section 6: the judged wakeup latency's row where it is not the activation latency again (issue 32.1)
is "$(grep -o '<tr data-task="[a-z0-9]*" data-metric="wakeup_latency_ns">' "$TMP/r.html" | sed 's/.*data-task="\([a-z0-9]*\)".*/\1/' | paste -sd' ')" \
	"ctl100 nav10 ekf mission1 telemetry" \
	"length-1.14 section 6: a wakeup latency row for each task whose wakeup latency is not its activation latency (io's is the same)"
# a long reason (the short loads with their figures) once, in section 10; the verdict row links to it
vt=$(sed -n '/<table id="verdict-table"/,/<\/table>/p' "$TMP/r.html")
is "$(printf '%s' "$vt" | grep -c 'why: <a href="#deviations">section 10</a>'):$(printf '%s' "$vt" | grep -c 'the spi load achieved 71.9 %')" "1:0" \
	"length-1.15 the verdict table links a long reason to section 10 instead of holding it"
like "$(sed -n '/<section id="deviations"/,/<\/section>/p' "$TMP/r.html")" "not valid: .*the spi load achieved 71\.9 %" \
	"length-1.16 ... where it is whole"

# the printed length: the body (before the appendix) and the whole
if test_have_prereq CMD:chromium && test_have_prereq CMD:pdfinfo; then
	run_cmd "$PREFLIGHT" report "$R" -o "$TMP/p.html" --pdf "$TMP/p.pdf"
	is "$rc" 0 "length-4.1 --pdf: exit 0" || echo "$err" | sed 's/^/#   /'
	pages=$(pdfinfo "$TMP/p.pdf" | sed -n 's/^Pages: *//p')
	body=0
	for p in $(seq 1 "$pages"); do
		pdftotext -f "$p" -l "$p" "$TMP/p.pdf" - | grep -q '^A1 Flight$' && { body=$((p - 1)); break; }
	done
	# (16: the issue's ~15 with the judged wakeup latency's rows in section 6, issue 32.1)
	ok "length-4.2 the body is at most 16 pages ($body; it was 37, then 22, then 18, then 15 without the wakeup rows)" \
		test "$body" -ge 10 -a "$body" -le 16
	# what left the body for the appendix is there (issue 32.13): the metric definitions (A5) and the next worst cases (A2)
	is "$(pdftotext "$TMP/p.pdf" - | grep -c '^A5 Metric definitions$\|^A2 Further worst cases$') $(pdftotext -l "$body" "$TMP/p.pdf" - | grep -c '^also: \|^4 Metric definitions$')" \
		"2 0" "length-4.4 the metric definitions and the next worst cases in the appendix, not in the body"
	ok "length-4.3 the whole PDF is at most 40 pages ($pages; it was 177)" test "$pages" -le 40
else
	skip "length-4.1 length-4.2 length-4.3 length-4.4"
fi
