# lib/module.mk - code shared by every program: errors, time, parsing, histogram, the
# INI reader, command helpers, child processes, the data-file resolver, the
# JSON-path getter, task names and bytes that may not be UTF-8, a load's achieved share, output files,
# the job-log reader (libcsv: a program that reads job logs links -lcsv).
LIB_SRCS += lib/common.c lib/hist.c lib/ini.c lib/command.c lib/proc.c lib/datafile.c lib/jpath.c lib/cpuset.c lib/outguard.c lib/outfile.c lib/results_keys.c lib/load_achieved.c
LIB_SRCS += lib/stale.c lib/text.c lib/gnuplot.c lib/markup.c lib/joblog_read.c lib/kconfig.c lib/tail_model.c
LIB_PKGS += jansson inih
REQUIRED_HEADERS += csv.h
