# reports/reports.mk - what is made for people and for CI from a run:
# 'preflight check' (budgets as requirements, TAP verdicts) and
# 'preflight summary' (the plain-text qualification summary of a run directory).
PREFLIGHT_SRCS += reports/check.c reports/summary.c reports/ct_overflow.c reports/decision.c
PREFLIGHT_CMDS += check summary
PREFLIGHT_PKGS += jansson inih
# 'preflight report': the reviewer report (self-contained HTML, gnuplot figures, PDF by Chromium).
PREFLIGHT_SRCS += reports/report.c reports/report_plots.c
PREFLIGHT_CMDS += report
PERFS += reports/report-perf.sh
