# reports/reports.mk - what is made for people and for CI from a run:
# 'preflight check' (budgets as requirements, TAP verdicts) and
# 'preflight summary' (the plain-text qualification summary of a run directory).
PREFLIGHT_SRCS += reports/check.c reports/summary.c
PREFLIGHT_CMDS += check summary
PREFLIGHT_PKGS += jansson inih
