# The multi-GPU extension, included from the top Makefile on one line: steps 12 and 13
# spread the input over the GPUs with NCCL, from one process (12) or one MPI rank per GPU
# (13); without NCCL, or MPI, their builds say they are skipped (multi/nccl.mk,
# multi/mpi.mk). Everything of it is in multi/ and the two step folders: removing them
# and the include line leaves the core whole.

# The step of one process for every GPU, and the step of one MPI rank per GPU: the scripts
# and the suite take them from here (exported)
MULTI_ONE_PROCESS_STEP  := step12_multi_gpu
MULTI_RANK_PER_GPU_STEP := step13_rank_per_gpu
MULTI_STEPS  := $(MULTI_ONE_PROCESS_STEP) $(MULTI_RANK_PER_GPU_STEP)
export MULTI_STEPS MULTI_ONE_PROCESS_STEP MULTI_RANK_PER_GPU_STEP
EXTENSIONS   += multi
multi_FOLDERS := multi $(MULTI_STEPS)
PROGRAM_DIRS += $(MULTI_STEPS)
SUITE_PROGRAM_DIRS += $(MULTI_STEPS)
TARGET_FILES += multi/multi.mk
HELP_FILES   += multi/multi.mk multi/nccl.mk multi/mpi.mk $(wildcard multi/*.sh)
TEST_SUITES  += multi/tests.sh
RUN_ALL_EXTRAS += multi/run_all_multi.sh
INSTALLED    += build/mpich build/mpich-wheel
DOC_INPUTS   += step12_multi_gpu/README.md step13_rank_per_gpu/README.md multi $(MULTI_STEPS)

##= SCALING_SIZES="2^20 2^21 2^22 2^23 2^24 2^25 2^26 2^27 2^28 2^29 2^30": the sizes of make scaling
SCALING_SIZES ?= 2^20 2^21 2^22 2^23 2^24 2^25 2^26 2^27 2^28 2^29 2^30
export SCALING_SIZES

# The host tools, beside the top Makefile's: the multi-GPU tables (make scaling, run-all's
# table of step 12) and the unit tests of the multi-GPU flags and tables; each depends on
# its command line too (config.mk).
MULTI_REPORT     := build/tools/multi_report
MULTI_UNIT_TESTS := build/$(TYPE)/multi_unit_tests
EXTRA_TOOLS      += $(MULTI_REPORT) $(MULTI_UNIT_TESTS)
MULTI_REPORT_SOURCES := multi/multi_report.c multi/multi_results.c common/results.c scripts/csv_read.c scripts/tables.c scripts/svg.c
MULTI_UNIT_SOURCES   := multi/unit_tests.c multi/multi_options.c multi/multi_results.c multi/shard_reference.c common/data.c common/options.c common/results.c scripts/tables.c
MULTI_CFLAGS := $(HOST_CFLAGS) -Imulti -Iscripts -Itests

$(MULTI_REPORT).cmd $(MULTI_UNIT_TESTS).cmd: FORCE
	@$(call write_if_changed,$(CC) $(MULTI_CFLAGS))

$(MULTI_REPORT): $(MULTI_REPORT_SOURCES) $(wildcard common/*.h multi/*.h) scripts/csv_read.h scripts/tables.h scripts/svg.h $(MULTI_REPORT).cmd
	$(Q)$(CC) $(MULTI_CFLAGS) -o $@ $(MULTI_REPORT_SOURCES) -lm

$(MULTI_UNIT_TESTS): $(MULTI_UNIT_SOURCES) $(wildcard common/*.h multi/*.h) scripts/tables.h tests/unit_test.h $(MULTI_UNIT_TESTS).cmd
	$(Q)$(CC) $(MULTI_CFLAGS) -o $@ $(MULTI_UNIT_SOURCES) -lm -pthread

.PHONY: scaling latency mpich

## scaling: over SCALING_SIZES (2^20 ... 2^30) x G = 1, 2, 4 ... all GPUs: step12, step13 (one MPI rank per GPU, when built) and step13 over the network transport: speedup, efficiency, the all-reduce, each crossover (results/scaling.csv, .svg)
scaling:
	@scripts/preflight.sh $@
	@$(MAKE) --no-print-directory all
	@multi/scaling.sh

## latency: the combine alone on all GPUs and its variants: step12 under each NCCL_PROTO and NCCL_ALGO, step13 (when built) and step13 over the network transport; a summary, plain and CUDA graph (results/latency.txt)
latency:
	@scripts/preflight.sh $@
	@$(MAKE) --no-print-directory all
	@multi/latency.sh

## -C step13_rank_per_gpu mpiexec-path|mpi-include|nccl-include: the mpiexec of the MPI step 13 is built with, MPI's include folders, NCCL's (step 12 too), for scripts
## mpich: install MPICH from its PyPI wheel into build/mpich, for step 13 where no MPI is installed (MPICH_WHEEL=FILE: that wheel, no network)
mpich:
	@multi/get_mpich.sh

# CI (.ci/run: make ci-setup): step 13 needs MPI; where none is installed, MPICH from its
# PyPI wheel into build/mpich, so that CI builds, links and runs it (without a GPU: every
# rank stops with the no-GPU line)
ci-setup::
	@command -v mpicc > /dev/null 2>&1 || $(MAKE) --no-print-directory mpich
