# docs/docs.mk - what the build makes from the programs' own help texts, so that there is one
# text: a man page per command (build/man/preflight.1, preflight-COMMAND.1, flightapp.1,
# sensorsim.1, by scripts/mkman) and the bash completion (build/completion/preflight, by
# scripts/mkcompletion). Both run the built programs, so a cross build (CROSS_COMPILE) makes
# neither. The Makefile builds GENERATED with 'all' and installs it.
MAN_PAGES  = $(if $(CROSS_COMPILE),,$(B)/man/preflight.1 $(B)/man/flightapp.1 $(B)/man/sensorsim.1 \
	$(patsubst %,$(B)/man/preflight-%.1,$(sort $(filter-out help,$(PREFLIGHT_CMDS)))))
COMPLETION = $(if $(CROSS_COMPILE),,$(B)/completion/preflight)
GENERATED  = $(MAN_PAGES) $(COMPLETION)

# mkman_run - $(1) the help text's command, $(2) page name, $(3) summary, $(4) see-also names
mkman_run = @mkdir -p $(dir $@); echo "  MAN     $@"; \
	$(1) > $@.txt && scripts/mkman $(2) "$(3)" "$$($(B)/preflight --version)" $(4) < $@.txt > $@.tmp && \
	mv $@.tmp $@ && rm -f $@.txt

$(B)/man/preflight-%.1: $(B)/preflight scripts/mkman
	$(call mkman_run,$(B)/preflight help $*,preflight-$*,$$($(B)/preflight help | sed -n 's/^  $* *//p'),preflight)
$(B)/man/preflight.1: $(B)/preflight scripts/mkman
	$(call mkman_run,$(B)/preflight --help,preflight,timing analysis and latency certification for realtime Linux,\
		$(patsubst %,preflight-%,$(sort $(filter-out help,$(PREFLIGHT_CMDS)))) flightapp sensorsim)
$(B)/man/flightapp.1: $(B)/flightapp scripts/mkman
	$(call mkman_run,$(B)/flightapp --help,flightapp,the reference multirate flight application,preflight preflight-run)
$(B)/man/sensorsim.1: $(B)/sensorsim scripts/mkman
	$(call mkman_run,$(B)/sensorsim --help,sensorsim,the simulated aircraft and data-acquisition processor,\
		flightapp preflight-fly)
$(B)/completion/preflight: $(B)/preflight scripts/mkcompletion
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)scripts/mkcompletion $(B)/preflight > $@.tmp && mv $@.tmp $@
