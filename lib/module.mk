# lib/ - code shared by every program: errors, time, parsing, histogram.
LIB_SRCS += lib/common.c lib/hist.c lib/ini.c lib/command.c lib/proc.c
LIB_PKGS := jansson inih
