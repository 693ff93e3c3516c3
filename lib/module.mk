# lib/ - code shared by every program: errors, time, parsing, histogram.
LIB_SRCS += lib/common.c lib/hist.c lib/inierr.c
LIB_SRCS += lib/jpath.c
LIB_PKGS := jansson
