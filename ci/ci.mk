# ci/ci.mk - regression of timing budgets in CI: 'preflight baseline'
# (many runs -> one reviewed baseline) and 'preflight compare' (new runs
# against it: rank tests on run-level values, TAP / JUnit / JSON / Markdown),
# docs/ci.md. The pipeline templates beside this file are data, not built.
PREFLIGHT_SRCS += ci/stats.c ci/runs.c ci/baseline.c ci/compare.c ci/report.c
PREFLIGHT_CMDS += baseline compare
PREFLIGHT_PKGS += jansson

# unit test of the rank statistics against hand-computed values (t/0900)
UNIT_TESTS += ci_stats_test
ci_stats_test_SRCS := t/unit/ci_stats_test.c ci/stats.c

# ci_genruns: writes synthetic run directories with known distributions (t/09xx)
UNIT_TESTS += ci_genruns
ci_genruns_SRCS := ci/tools/genruns.c
ci_genruns_PKGS := jansson
