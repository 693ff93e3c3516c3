# ci/ci.mk - regression of timing budgets in CI: 'preflight baseline'
# (many runs -> one reviewed baseline), 'preflight compare' (new runs
# against it: rank tests on run-level values, TAP / JUnit / JSON / Markdown)
# and 'preflight history' (runs in SQLite or PostgreSQL, trends, SQUAD
# export), docs/ci.md. The pipeline templates beside this file are data.
PREFLIGHT_SRCS += ci/mw_stats.c ci/runs.c ci/baseline.c ci/compare.c ci/compare_out.c ci/histdb.c ci/history.c
PREFLIGHT_CMDS += baseline compare history
PREFLIGHT_PKGS += jansson sqlite3
DLOPEN_PKGS    += libpq

# unit test of the rank statistics against hand-computed values (t/0900)
UNIT_TESTS += ci_stats_test
ci_stats_test_SRCS := t/unit/ci_stats_test.c ci/mw_stats.c

# ci_genruns: writes synthetic run directories with known distributions (t/09xx)
UNIT_TESTS += ci_genruns
ci_genruns_SRCS := t/tools/genruns.c
ci_genruns_PKGS := jansson
