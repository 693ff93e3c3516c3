#!/bin/sh
# 0821-report-hostile.t - 'preflight report' on a run directory whose names
# are hostile (issue 27): a task name with quotes, markup and a newline is
# text in every HTML attribute and cell (one escape, lib/markup.c) and data in
# every gnuplot script (lib/gnuplot.c: no command of it runs, every figure is
# still drawn); the run's own warnings (run.json) are at the top; a copied
# run keeps its id; an invalid results.json is named as such.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:t/gentrace
need BUILT:preflight
need CMD:gnuplot
plan 11

"$TOP/t/fixtures/report/make-rundir.sh" full "$TMP/run" >"$TMP/mk.log" 2>&1 || { sed 's/^/# /' "$TMP/mk.log"; exit 1; }
cd "$TMP" || exit 1
# figures FILE - the ids of the figures, in order
figures() { grep -o '<figure id="fig-[A-Z0-9.]*"' "$1" | sed 's/.*fig-//; s/"//' | tr '\n' ' '; }
"$PREFLIGHT" report "$TMP/run" -o "$TMP/plain.html" >/dev/null 2>&1

# the task io renamed: a quote of each kind, markup, gnuplot commands, a newline and EOD
NAME='io"><b id=x>'"'"'); system('"'"'touch PWNED'"'"'); print ('"'"'
EOD
system("touch PWNED2")'
NAME="$NAME" perl -MJSON::PP -0777 -i -pe '$j = JSON::PP->new->canonical; $r = $j->decode($_);
	$_->{name} = $ENV{NAME} for grep { $_->{name} eq "io" } @{$r->{tasks}};
	$_ = $j->encode($r)' "$TMP/run/results.json"
perl -MJSON::PP -0777 -i -pe '$j = JSON::PP->new->canonical; $r = $j->decode($_);
	$r->{warnings} = ["phase app: no housekeeping CPU <i>shared</i>"];
	$r->{phases}[0]{name} = "idle'"'"'; system('"'"'touch PWNED3'"'"') #";
	$r->{dir} = "runs/20260102T030405Z-board/";
	$_ = $j->encode($r)' "$TMP/run/run.json"
run_cmd "$PREFLIGHT" report "$TMP/run" -o "$TMP/h.html"
is "$rc" 0 "report-hostile-1.1 exit 0" || printf '%s\n' "$err" | sed 's/^/#   /'
is "$(ls "$TMP" | grep -c '^PWNED')" 0 "report-hostile-1.2 no command of the names ran (gnuplot got them as data)"
# (sorted: renamed, io is judged by no verdict, so its worst case and G1 go to the appendix)
is "$(figures "$TMP/h.html" | tr ' ' '\n' | sort | tr '\n' ' ')" "$(figures "$TMP/plain.html" | tr ' ' '\n' | sort | tr '\n' ' ')" \
	"report-hostile-1.3 every figure still drawn"
is "$(grep -c 'could not be drawn' "$TMP/h.html")" 0 "report-hostile-1.4 no figure failed"
is "$(grep -c '<b id=x>' "$TMP/h.html")" 0 "report-hostile-1.5 the name's markup is nowhere markup"
is "$(grep -c '<tr data-task="io&quot;&gt;&lt;b id=x&gt;&#39;); system(&#39;touch PWNED&#39;); print (&#39;$' "$TMP/h.html")" 5 \
	"report-hostile-1.6 data-task escaped as the cell text is (four metric rows and the counts)"
like "$(grep -c 'id="task-io&quot;&gt;' "$TMP/h.html")" '^[1-9]' "report-hostile-1.7 ... and so is the task's anchor"
like "$(grep -o '<p class="partial">WARNING: [^<]*' "$TMP/h.html")" \
	'WARNING: phase app: no housekeeping CPU &lt;i&gt;shared&lt;/i&gt;' "report-hostile-2.1 run.json's warnings at the top"
# the run's id is the directory 'run' made (run.json), not the name of a copy
like "$(grep -o '<h1>Timing evidence: run [^<]*' "$TMP/h.html")" 'run 20260102T030405Z-board$' \
	"report-hostile-3.1 a copied run is titled by its id from run.json"
# a results.json that does not parse is named, not 'missing'
cp -r "$TMP/run" "$TMP/bad"
printf '{"schema": "preflight-results/1",\n "tasks": [' > "$TMP/bad/results.json"
run_cmd "$PREFLIGHT" report "$TMP/bad" -o "$TMP/bad.html"
is "$rc" 2 "report-hostile-4.1 an invalid results.json: exit 2"
like "$err" "^preflight: report: $TMP/bad/results.json:2: not valid JSON: " "report-hostile-4.2 ... the file and line named"
done_testing
