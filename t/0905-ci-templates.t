#!/bin/sh
# 0905-ci-templates.t - the templates of ci/: every YAML file parses; the
# GitLab job's script runs locally on a stub board (t/tools/stub-board.sh:
# synthetic runs, the real compare and history) and passes an unchanged
# board, fails a regressed one; the LAVA run script and result translator;
# the GitHub workflow never runs for pull requests; the SQUAD upload script
# (with a stub curl).
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:t/ci_genruns
python3 -c 'import yaml' 2>/dev/null || skip_all "python3-yaml is not installed"
need CMD:xmllint
need CMD:sqlite3
plan 18

CI="$TOP/ci"
STUB="$TOP/t/tools/stub-board.sh"
export STUB_ROOT="$TMP"	# its runs' seeds from their paths below $TMP: the same in every run of this test

# yq EXPR FILE - a python expression over the YAML document d
yq() { python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[2])); print(eval(sys.argv[1]))' "$1" "$2"; }

# --- ci-tpl-1: the YAML files parse and say what they must
bad=""
for f in "$CI"/gitlab/*.yml "$CI"/github/*.yml "$CI"/lava/*.yaml; do
	python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$f" 2>"$TMP/yerr" || bad="$bad $f: $(head -1 "$TMP/yerr")"
done
is "$bad" "" "ci-tpl-1.1 every YAML template parses"
G="$CI/gitlab/preflight.gitlab-ci.yml"
is "$(yq "d['.preflight']['resource_group'], d['.preflight']['artifacts']['when'], d['.preflight']['artifacts']['reports']['junit']" "$G")" \
	"('preflight-\$PREFLIGHT_BOARD', 'always', '\$PREFLIGHT_OUT/compare.junit.xml')" \
	"ci-tpl-1.2 GitLab: a resource group per board, artifacts always, a JUnit report"
W="$CI/github/preflight.yml"
is "$(yq "sorted((d.get('on') or d.get(True)).keys()), 'self-hosted' in d['jobs']['timing']['runs-on']" "$W")" \
	"(['push', 'schedule', 'workflow_dispatch'], True)" "ci-tpl-1.3 GitHub: self-hosted, push and schedule only, no pull requests"
L="$CI/lava/preflight.yaml"
is "$(yq "d['metadata']['format'], sorted(d['params'])" "$L")" \
	"('Lava-Test Test Definition 1.0', ['BASELINE', 'BUDGETS', 'DURATION', 'REPEATS', 'SCENARIO'])" \
	"ci-tpl-1.4 LAVA: a test definition 1.0 with its params"

# --- ci-tpl-2: the GitLab job's script on a stub board
"$B/t/ci_genruns" "$TMP/base" --runs 10 --seed 31 >/dev/null || exit 1
"$PREFLIGHT" baseline create "$TMP"/base/run-* -o "$TMP/baseline.json" >/dev/null || exit 1
python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1]))
print("\n".join(d[".preflight"]["script"]))' "$G" > "$TMP/job.sh"
# gitlab_job DIR [VAR=VALUE...] - run the job's script in DIR as the runner would (bash, -e), the template's variables set
gitlab_job() {
	d=$1; shift
	mkdir -p "$d"
	(cd "$d" && env $(yq "' '.join('%s=%s' % kv for kv in d['variables'].items() if kv[1])" "$G") \
		PREFLIGHT="$STUB" PREFLIGHT_BOARD=synthetic-board PREFLIGHT_BASELINE="$TMP/baseline.json" \
		PREFLIGHT_HISTORY="$TMP/history.sqlite" "$@" bash -e "$TMP/job.sh") > "$d.log" 2>&1
}
gitlab_job "$TMP/same"
is "$?" 0 "ci-tpl-2.1 GitLab job, unchanged board: passes" || sed 's/^/# /' "$TMP/same.log" | tail -20
is "$(ls "$TMP/same/preflight-out" | paste -sd' ')" "compare.json compare.junit.xml compare.md compare.tap run-01 run-02 run-03" \
	"ci-tpl-2.2 three runs and the compare reports in the artifacts directory"
ok "ci-tpl-2.3 the JUnit report is well-formed" xmllint --noout "$TMP/same/preflight-out/compare.junit.xml"
gitlab_job "$TMP/regressed" STUB_SCALE=1.3 STUB_KERNEL=6.2.0-test
is "$?" 1 "ci-tpl-2.4 GitLab job, a board with a +30 % regression: fails"
like "$(cat "$TMP/regressed.log")" "\| REGRESSED \| \`tasks.io.activation_latency_ns.p99\` \|" "ci-tpl-2.5 the job log names the regressed metric"
is "$(sqlite3 "$TMP/history.sqlite" 'SELECT count(*) FROM runs')" 6 \
	"ci-tpl-2.6 both jobs' runs went to the history"

# --- ci-tpl-3: LAVA run script and translator
PREFLIGHT="$STUB" STUB_FAIL=1 "$CI/lava/preflight-run.sh" -s synthetic -r 3 -B "$TMP/baseline.json" -o "$TMP/lava" > "$TMP/lava.log" 2>&1
is "$?" 0 "ci-tpl-3.1 LAVA run script: exit 0 (verdicts are results)"
is "$(grep -c '' "$TMP/lava/result.txt"):$(grep '^run1_' "$TMP/lava/result.txt" | paste -sd'|')" \
	"28:run1_REQ-LAT-001_io_activation_latency_max pass 41.2 us|run1_REQ-OVR-001_io_overruns fail 1 count" \
	"ci-tpl-3.2 result.txt: the check's verdicts with their values, per run"
like "$(cat "$TMP/lava/result.txt")" "compare_tasks.io.activation_latency_ns.p50 pass [0-9.]+ us" "ci-tpl-3.3 result.txt: compare verdicts with the new median"
# one run: preflight run writes it into its directory itself, not run-01 (make check-fleet found none reported)
PREFLIGHT="$STUB" "$CI/lava/preflight-run.sh" -s synthetic -r 1 -o "$TMP/lava1" > "$TMP/lava1.log" 2>&1
is "$(grep -c "^run1_REQ-" "$TMP/lava1/result.txt"):$(grep -c "^run2_" "$TMP/lava1/result.txt")" "2:0" \
	"ci-tpl-3.3a REPEATS=1: the one run's verdicts, from the run directory itself"
rm "$TMP/lava1/runs/verdicts.json" && : > "$TMP/lava1/result.txt"
PREFLIGHT=true "$CI/lava/preflight-run.sh" -s synthetic -r 1 -o "$TMP/lava1" > "$TMP/lava1.log" 2>&1
is "$(cat "$TMP/lava1/result.txt")" "run1_verdicts fail" "ci-tpl-3.3b a run without verdicts.json: a failed case, not silence"
printf 'run1_REQ-LAT-001_io_activation_latency_max pass 41.2 us\nrun1_REQ-OVR-001_io_overruns fail 1 count\ncompare_tasks.io.activation_latency_ns.max unknown 48.300 us\ncompare_tasks.io.activation_latency_ns.p99.9 skip\n' \
	> "$TMP/sample.txt"
run_cmd "$CI/lava/result-to-lava.sh" "$TMP/sample.txt"
is "$out" "lava-test-case run1_REQ-LAT-001_io_activation_latency_max --result pass
lava-test-case run1_REQ-LAT-001_io_activation_latency_max_value --result pass --measurement 41.2 --units us
lava-test-case run1_REQ-OVR-001_io_overruns --result fail
lava-test-case run1_REQ-OVR-001_io_overruns_value --result pass --measurement 1 --units count
lava-test-case compare_tasks.io.activation_latency_ns.max --result unknown
lava-test-case compare_tasks.io.activation_latency_ns.max_value --result pass --measurement 48.300 --units us
lava-test-case compare_tasks.io.activation_latency_ns.p99.9 --result skip" \
	"ci-tpl-3.4 translator: verdict and measurement as separate cases"
mkdir -p "$TMP/bin"
printf '#!/bin/sh\necho "$*" >> "%s/ltc.log"\n' "$TMP" > "$TMP/bin/lava-test-case"
chmod +x "$TMP/bin/lava-test-case"
PATH="$TMP/bin:$PATH" "$CI/lava/result-to-lava.sh" "$TMP/sample.txt"
is "$(wc -l < "$TMP/ltc.log"):$(head -1 "$TMP/ltc.log")" "7:run1_REQ-LAT-001_io_activation_latency_max --result pass" \
	"ci-tpl-3.5 inside LAVA: lava-test-case is called"

# --- ci-tpl-4: SQUAD upload with a stub curl
"$PREFLIGHT" history export --db "$TMP/history.sqlite" --squad "$TMP/squad" >/dev/null
printf '#!/bin/sh\nfor a in "$@"; do echo "$a"; done > "%s/curl.args"\n' "$TMP" > "$TMP/bin/curl"
chmod +x "$TMP/bin/curl"
PATH="$TMP/bin:$PATH" SQUAD_TOKEN=secret "$CI/squad/submit.sh" https://squad.example.org/ rt preflight 6.2.0 board-a "$TMP/squad" >/dev/null
is "$(grep -E '^(Auth-Token|https|tests=|metadata=)' "$TMP/curl.args" | paste -sd' ')" \
	"Auth-Token: secret tests=@$TMP/squad/tests.json metadata=@$TMP/squad/metadata.json https://squad.example.org/api/submit/rt/preflight/6.2.0/board-a" \
	"ci-tpl-4.1 submit.sh posts the three files to SQUAD's submit API"
done_testing
