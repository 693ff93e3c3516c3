# lib/module.mk - code shared by every program: errors, time, parsing, histogram, the
# INI reader, command helpers, child processes, the data-file resolver, the
# JSON-path getter.
LIB_SRCS += lib/common.c lib/hist.c lib/ini.c lib/command.c lib/proc.c lib/datafile.c lib/jpath.c lib/cpuset.c lib/outguard.c lib/outfile.c lib/results_keys.c
LIB_SRCS += lib/stale.c
LIB_PKGS := jansson inih
