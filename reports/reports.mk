# reports/reports.mk - what is made for people and for CI from a results.json:
# 'preflight check' (budgets as requirements, TAP verdicts).
PREFLIGHT_SRCS += reports/check.c
PREFLIGHT_CMDS += check
PREFLIGHT_PKGS += jansson inih
# 'preflight report': the reviewer report (self-contained HTML, gnuplot figures, PDF by Chromium).
PREFLIGHT_SRCS += reports/report.c reports/report_plots.c
PREFLIGHT_CMDS += report
PERFS += reports/report-perf.sh
