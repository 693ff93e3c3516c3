# t/ - unit tests of lib/ (component tests live in their component's module.mk)
UNIT_TESTS += test-lib
test-lib_SRCS := t/unit/test-lib.c
test-lib_PKGS := jansson
