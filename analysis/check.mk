# analysis/check.mk - 'preflight check' (budgets as requirements) and the
# cyclictest import used by 'preflight analyze --cyclictest'.
PREFLIGHT_SRCS += analysis/cyclictest.c analysis/check.c
PREFLIGHT_CMDS += check
PREFLIGHT_PKGS += jansson inih

# ct-dump: prints what cyclictest_load() makes of a file (tests 0580-0581)
UNIT_TESTS += ct-dump
ct-dump_SRCS := t/unit/ct-dump.c analysis/cyclictest.c
ct-dump_PKGS := jansson
