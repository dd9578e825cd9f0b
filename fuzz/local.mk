# libFuzzer targets (docs/fuzzing.md): clang builds outside the source tree,
# so these rules only call the scripts.
# make fuzz: ~20 s per target; make fuzz-long: 10^7 executions per target,
# resumable (HOURS=H stops after H hours);
# make sanitizers: unit tests under ASan+UBSan and TSan.
fuzz:
	bash $(top_srcdir)/scripts/fuzz.sh --seconds 20
fuzz-long:
	bash $(top_srcdir)/scripts/fuzz.sh --total 10000000 $(if $(HOURS),--hours $(HOURS))
sanitizers:
	bash $(top_srcdir)/scripts/sanitizers.sh
.PHONY: fuzz fuzz-long sanitizers
