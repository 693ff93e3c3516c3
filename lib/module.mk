# lib/ - code shared by every program: errors, time, parsing, histogram, the
# INI reader, command helpers, child processes, the data-file resolver.
LIB_SRCS += lib/common.c lib/hist.c lib/ini.c lib/command.c lib/proc.c lib/datafile.c
LIB_PKGS := jansson inih
