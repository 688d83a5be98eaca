# GPU sum reduction, step by step: from Harris's kernel 1 to the card's bandwidth limit.
#
# Start with `make run-all` (every step on this machine's GPU, one table) or `make test`.
# `make help` lists every target and every variable, from one place: the "## " line above
# each target's rule here, and the "##= NAME=default: what it does" line next to where each
# variable's default is set (here, common/config.mk and the files in HELP_FILES). This
# header lists none of them, so it cannot drift from the help; make lint checks that every
# target is in the help and that every default it shows is the real one.

COMMON := common
include common/config.mk
include common/harness.mk

STEPS := step0_interleaved step1_strided step2_sequential step3_add_during_load \
         step4_unroll_warp step5_template_unroll step6_multi_add step7_shuffle \
         step8_vectorized step9_loads_in_flight step10_full_wave step11_single_pass \
         step14_same_bits
# Programs that are not steps: step 11's atomic finishes (for make sweep), CUB (the toolkit's;
# make cccl's newest, one program per determinism mode) and the extensions' (multi/multi.mk).
PROGRAM_DIRS := $(STEPS) step11_single_pass/atomic_finish cub_reference cub_reference/newest
# What make sweep compares: the designs past Harris (STEPS' 7th to 13th: steps 6 to 11, 14),
# step 11's two atomic finishes, and CUB
SWEEP_PROGRAMS := $(addsuffix /reduce,$(wordlist 7,13,$(STEPS))) \
                  step11_single_pass/atomic_finish/reduce_block_atomic \
                  step11_single_pass/atomic_finish/reduce_warp_atomic cub_reference/reduce \
                  $(addprefix cub_reference/newest/reduce_,run_to_run not_guaranteed gpu_to_gpu)
# A course's handout (make handout) has no folder of its exercises and later steps: the lists keep those here
STEPS := $(foreach d,$(STEPS),$(if $(wildcard $d/Makefile),$d))
PROGRAM_DIRS := $(foreach d,$(PROGRAM_DIRS),$(if $(wildcard $d/Makefile),$d))
SWEEP_PROGRAMS := $(foreach p,$(SWEEP_PROGRAMS),$(if $(wildcard $(dir $p)Makefile),$p))

# Around the core (common/, the steps, the tools) sit extensions, each in a folder of its own
# and each removable: its .mk file, included here on one line, adds its programs to
# PROGRAM_DIRS, itself to TARGET_FILES (its targets' "## " help lines), its variables' files to
# HELP_FILES, its test suite to TEST_SUITES and make test-ci's to CI_SUITES (tests/run.sh sources
# each after its own, leaving it SUITE_PROGRAM_DIRS' programs, built in its build section); it may
# add host tools that `all` and `test` build (EXTRA_TOOLS), scripts `make run-all` runs after its
# table, given its rows (RUN_ALL_EXTRAS), its pages and sources to the Doxygen site (DOC_INPUTS),
# and what it installs into build/ (INSTALLED). It adds its name to EXTENSIONS and its folders to
# NAME_FOLDERS: make test-ci checks that a copy without them and its include line passes.
TARGET_FILES := Makefile tests/lint.mk
TEST_SUITES  :=
EXTENSIONS   :=
HELP_FILES   := Makefile common/config.mk $(wildcard scripts/*.sh) cub_reference/defect/defect.sh
DOC_INPUTS   := cub_reference/defect/README.md
EXTRA_TOOLS  :=
RUN_ALL_EXTRAS     :=
SUITE_PROGRAM_DIRS :=
# what make installed into build/ (a toolkit, an MPI): make clean keeps it, make distclean not
INSTALLED    := build/toolkit build/cccl build/cccl-wheel build/cccl-patched
# the targets that need no compiler (an extension adds its own)
NO_NVCC_GOALS := help clean distclean diff diffs docs cccl print-%
include tests/lint.mk
include lab/lab.mk
include multi/multi.mk
include cpu/cpu.mk

# Without nvcc every build fails, so a target that builds says so once, first, and stops
# (exit 2); the targets that need no compiler still answer.
ifeq ($(NVCC_FOUND),)
ifneq ($(filter-out $(NO_NVCC_GOALS),$(or $(MAKECMDGOALS),all)),)
ifeq ($(origin CUDA_PATH)$(origin NVCC),filefile)
$(error no nvcc found (not on PATH, not in CUDA_HOME, not at $(NVCC)): install the CUDA Toolkit, or give its folder, make CUDA_PATH=/path/to/cuda)
else
$(error no nvcc at $(NVCC) (CUDA_PATH=$(CUDA_PATH)): give CUDA_PATH the toolkit's folder, the one holding bin/nvcc (or NVCC the compiler itself)$(foreach p,$(shell command -v nvcc 2>/dev/null),; or leave it out to use the nvcc on PATH ($p)))
endif
endif
endif

##= N=2^26: elements each program of make run-all sums (N, 2^K or 2^K+M)
N      ?= 2^26
##= REPS=20: timed runs per program and size, the median reported (run-all, sweep, scaling, lab-check)
REPS   ?= 20
##= SIZES="2^16 2^18 2^20 2^22 2^24 2^26 2^28": the sizes of make sweep
SIZES  ?= 2^16 2^18 2^20 2^22 2^24 2^26 2^28
##= DEVICE=0: the GPU the one-GPU programs use (run-all, sweep, lab-check)
DEVICE ?= 0
##= STEP=: the step of make diff, lab and lab-check, e.g. STEP=3
STEP   ?=

TOOLS      := build/tools
UNIT_TESTS := build/$(TYPE)/unit_tests
REPORT_LIB   := report/csv_read.c report/tables.c report/svg.c
PURE_SOURCES := common/options.c common/data.c common/results.c common/diagnose.c $(REPORT_LIB)

export TYPE SUFFIX N REPS SIZES DEVICE NVCC CUDA_PATH V
# for the scripts: the extensions' pages and sources (make docs: docs/Doxyfile adds them to its INPUT),
# the one list of the program folders (scripts/gpus.sh: program_dirs, step_dir), and what make
# installed into build/ (make check-toolkit's copy of the tree shares it)
export DOC_INPUTS PROGRAM_DIRS INSTALLED

.PHONY: all harness $(PROGRAM_DIRS) run-all sweep test test-ci ci-setup profile resources sanitize diff diffs docs check-archs check-toolkit cccl cub-defect clean distclean help

## all: build every program (the steps, step 11's atomic finishes, CUB, and the extensions' programs and tools), the report tool and the unit tests; plain `make` does this
all: $(PROGRAM_DIRS) $(TOOLS)/report $(TOOLS)/mixed_data $(UNIT_TESTS) $(EXTRA_TOOLS)

## step3_add_during_load (any program's directory): build that program alone
# -s: no "Nothing to be done" lines; step.mk still says what it compiles (V=1: how).
# The harness library first, once (common/harness.mk), then the folders, in parallel with -j.
$(PROGRAM_DIRS): harness
	@$(MAKE) $(if $(Q),-s) --no-print-directory -C $@ TYPE=$(TYPE)

## harness: the harness library of this TYPE (build/TYPE/harness-ARCH/), which every program links
harness: $(HARNESS_LIB) $(HARNESS_MAIN_OBJ)

# The report tool (report/) and the unit tests, each depending on its command line too (config.mk)
REPORT_CFLAGS  := -std=c11 -O2 -Wall -Wextra -Werror -Icommon -Ireport
UNIT_CFLAGS    := $(HOST_CFLAGS) -Ireport
$(TOOLS)/report.cmd: FORCE
	@$(call write_if_changed,$(CC) $(REPORT_CFLAGS))
$(UNIT_TESTS).cmd: FORCE
	@$(call write_if_changed,$(CC) $(UNIT_CFLAGS))

$(TOOLS)/report: report/report_main.c common/results.c $(REPORT_LIB) common/results.h $(wildcard report/*.h) $(TOOLS)/report.cmd
	$(Q)$(CC) $(REPORT_CFLAGS) -o $@ report/report_main.c common/results.c $(REPORT_LIB) -lm

# mixed data for --input (step 14): here, not in step14_same_bits/, which a handout may leave out
$(TOOLS)/mixed_data: report/mixed_data.c common/data.c common/data.h $(TOOLS)/report.cmd
	$(Q)$(CC) $(REPORT_CFLAGS) -o $@ report/mixed_data.c common/data.c -lm -pthread

$(UNIT_TESTS): tests/unit_tests.c $(PURE_SOURCES) $(wildcard common/*.h report/*.h) $(UNIT_TESTS).cmd
	$(Q)$(CC) $(UNIT_CFLAGS) -o $@ tests/unit_tests.c $(PURE_SOURCES) -lm -pthread

## run-all: every step and CUB (the toolkit's, and each mode of the newest CCCL's where make cccl fetched it) on the same n, then Harris's table (results/run-all.csv, .svg), then the extensions' tables (RUN_ALL_EXTRAS); N and REPS are read first, by the first step's own parser, before make all
run-all:
	@scripts/preflight.sh $@
	@$(MAKE) --no-print-directory -s $(firstword $(STEPS)) && $(firstword $(STEPS))/reduce$(SUFFIX) -n '$(N)' -r '$(REPS)' --describe > /dev/null
	@$(MAKE) --no-print-directory all
	@RUN_ALL_EXTRAS="$(RUN_ALL_EXTRAS)" scripts/run_all.sh $(STEPS) cub_reference cub_reference/newest

## sweep: step6..step11 and step14 (and step11's atomic finishes) and CUB (the toolkit's, and each mode of the newest CCCL's: make cccl) over SIZES (results/sweep.csv, .svg)
sweep:
	@scripts/preflight.sh $@
	@$(MAKE) --no-print-directory all
	@scripts/run_all.sh --sweep $(SWEEP_PROGRAMS)

## test: unit tests, build, bad input; the GPU checks when a GPU answers (TYPE=float, TYPE=double: the other types)
test: $(TOOLS)/report $(TOOLS)/mixed_data $(UNIT_TESTS) $(EXTRA_TOOLS)
	@TEST_SUITES="$(TEST_SUITES)" SUITE_PROGRAM_DIRS="$(SUITE_PROGRAM_DIRS)" tests/run.sh $(PROGRAM_DIRS)

## test-ci: what only CI runs (.ci/run): how the toolkit is found, each extension taken out of a scratch copy, and the extensions' CI suites (the lab's: make docs and make lint in the handouts for 3 and 1-3; make check-archs and check-toolkit are CI's too)
test-ci: $(TOOLS)/report $(UNIT_TESTS)
	@TEST_TIER=ci TEST_SUITES="$(CI_SUITES)" tests/run.sh $(PROGRAM_DIRS)

## profile: Nsight Compute metrics per step, one table (make -C stepN_x profile: one step)
profile:
	@scripts/preflight.sh $@ ncu
	@$(MAKE) --no-print-directory all
	@scripts/profile.sh $(STEPS) cub_reference

## resources: per step, threads, registers per thread and shared memory per block, and on a GPU resident blocks per SM and occupancy (occupancy API); without a GPU, the compiler's figures
resources: all
	@scripts/resources.sh $(STEPS) cub_reference

## sanitize: compute-sanitizer memcheck, racecheck, synccheck, initcheck on every step
sanitize:
	@scripts/preflight.sh $@ compute-sanitizer
	@$(MAKE) --no-print-directory all
	@scripts/sanitize.sh $(PROGRAM_DIRS)

## diff STEP=k: what step k changed, as a diff of step k-1's kernel file against step k's
diff:
	@scripts/diff_steps.sh show $(STEP)

## diffs: every consecutive diff into results/diffs/
diffs:
	@scripts/diff_steps.sh all

## docs: the Doxygen site in docs/html (warnings are errors)
docs:
	@DOC_INPUTS="$(DOC_INPUTS)" scripts/docs.sh

## check-archs: compile every program for every real architecture nvcc supports for int, the oldest and newest for float and double (no GPU needed)
check-archs:
	@scripts/check_archs.sh $(PROGRAM_DIRS)

## ci-setup: what .ci/run installs before the tests, beyond doxygen and shellcheck: the newest CCCL headers (make cccl), and each extension's own (a rule of its .mk)
# A failed fetch is no failure: the newest CUB's programs then say, by name, that they skip.
ci-setup::
	@$(MAKE) --no-print-directory cccl || echo "make ci-setup: no newest CCCL (see above): its CUB programs are skipped"

## cccl: fetch the newest CCCL headers (CUB, Thrust, libcu++) from the nvidia-cuda-cccl wheel into build/cccl/include, for the newest CUB's determinism modes (CCCL_WHEEL=FILE: that wheel, no network)
cccl:
	@scripts/get_cccl.sh

## cub-defect: CCCL 3.5.0's gpu_to_gpu defect (cub_reference/defect/README.md): its headers patched in a copy (build/cccl-patched), the reproducer built against each and run on both (DEFECT_SIZES); make then builds cub_reference/newest/reduce_gpu_to_gpu_renorm too
cub-defect:
	@cub_reference/defect/defect.sh

## check-toolkit: build every program and run the unit tests with the newest CUDA on PyPI (build/toolkit), and compile every program (int) for its oldest and newest architecture and each one the system's nvcc lacks
check-toolkit:
	@scripts/check_toolkit.sh $(PROGRAM_DIRS)

## -C step4_unroll_warp race-demo: Harris's 2007 last warp under compute-sanitizer's racecheck, next to this repository's
## -C DIR run|profile|resource-usage|check-archs|clean: one program: build and run it once (ARGS="-n 2^20"), its Nsight Compute metrics, ptxas's registers and shared memory (no GPU needed), its kernel file compiled for every architecture (no GPU needed), or remove its build

## clean: remove every build, program and the generated docs, for every TYPE (kept: results/, the lab's copies, and what make installed into build/: the toolkit of check-toolkit, make cccl's headers, make mpich's MPI)
clean:
	@for d in $(PROGRAM_DIRS); do $(MAKE) -s --no-print-directory -C $$d clean; done
	@rm -rf docs/html $(filter-out $(INSTALLED),$(wildcard build/*))

## distclean: make clean, and remove what make installed into build/ too (make check-toolkit, make cccl and make mpich install it again)
distclean: clean
	@rm -rf build

## help: this list: every target, then every variable with its default (make VAR=value)
help:
	@echo "Targets (make TARGET):"
	@sed -n 's/^## /  /p' $(TARGET_FILES)
	@echo "Variables (make VAR=value), each with its default after the =:"
	@sed -n 's/^##= /  /p' $(HELP_FILES)

# print-VAR: the value make gives VAR (make test compares it with the default help shows)
print-%:
	@echo '$($*)'
