# t/ - unit tests of lib/ (component tests live in their component's module.mk)
UNIT_TESTS += lib_test
lib_test_SRCS := t/unit/lib_test.c
lib_test_PKGS := jansson
