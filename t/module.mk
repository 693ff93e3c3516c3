# t/module.mk - unit tests of lib/ (component tests are built by their component's *.mk)
UNIT_TESTS += lib_test
lib_test_SRCS := t/unit/lib_test.c
lib_test_PKGS := jansson
lib_test_LDLIBS := -lcsv
UNIT_TESTS += hist_test
hist_test_SRCS := t/unit/hist_test.c
hist_test_PKGS := jansson

UNIT_TESTS += jpath_test
jpath_test_SRCS := t/unit/jpath_test.c
jpath_test_PKGS := jansson

# rtwork: the PREEMPT_RT situations of t/fixtures/rt/, staged in the RT guest under preflight record (t/0525)
UNIT_TESTS += rtwork
rtwork_SRCS := t/tools/rtwork.c

UNIT_TESTS += load_achieved_test
load_achieved_test_SRCS := t/unit/load_achieved_test.c
load_achieved_test_PKGS := jansson
