# GPU sum reduction, step by step: from Harris's kernel 1 to the card's bandwidth limit.
#
# Start with `make run-all` (every step on this machine's GPU, one table) or `make test`.
# `make help` lists every target and every variable, from one place: the "## " line above
# each target's rule here, and the "##= NAME=default: what it does" line next to where each
# variable's default is set (here, common/config.mk and the files in HELP_FILES). This header lists none of them, so it cannot drift from the help; make test
# checks that every target is in the help and that every default it shows is the real one.

COMMON := common
include common/config.mk

STEPS := step0_interleaved step1_strided step2_sequential step3_add_during_load \
         step4_unroll_warp step5_template_unroll step6_multi_add step7_shuffle \
         step8_vectorized step9_loads_in_flight step10_full_wave step11_single_pass
# Programs that are not steps: step 11's atomic finishes (for make sweep) and CUB.
PROGRAM_DIRS := $(STEPS) step11_single_pass/atomic_finish cub_reference

# Around the core (common/, the steps, the tools) sit extensions, each in a folder of its own
# and each removable: its .mk file, included here on one line, adds its programs to
# PROGRAM_DIRS, itself to TARGET_FILES (its targets' "## " help lines), its variables' files
# to HELP_FILES and its test suite to TEST_SUITES (tests/run.sh sources each, after its own,
# and leaves the programs of SUITE_PROGRAM_DIRS, built in its build section, to them);
# it may add host tools that `all` and `test` build (EXTRA_TOOLS), scripts that
# `make run-all` runs after its table, given its rows (RUN_ALL_EXTRAS), and its pages and
# sources to the Doxygen site (DOC_INPUTS).
TARGET_FILES := Makefile
TEST_SUITES  :=
include multi/multi.mk

##= N=2^26: elements each program of make run-all sums (N, 2^K or 2^K+M)
N      ?= 2^26
##= REPS=20: timed runs per program and size, the median reported (run-all, sweep, scaling, lab-check)
REPS   ?= 20
##= SIZES="2^16 2^18 2^20 2^22 2^24 2^26 2^28": the sizes of make sweep
SIZES  ?= 2^16 2^18 2^20 2^22 2^24 2^26 2^28
##= DEVICE=0: the GPU the one-GPU programs use (run-all, sweep, lab-check)
DEVICE ?= 0
##= STEP=: the step of make diff, lab and lab-check, e.g. STEP=3
##= SUBMISSIONS=: lab-grade-all's folder, one folder per student holding stepK_name/reduce.cu
STEP   ?=

TOOLS      := build/tools
UNIT_TESTS := build/$(TYPE)/unit_tests
PURE_SOURCES := common/options.c common/data.c common/results.c common/svg.c common/diagnose.c \
                common/lab_verdict.c common/lab_grade.c

export TYPE SUFFIX N REPS SIZES DEVICE NVCC CUDA_PATH V

.PHONY: all $(PROGRAM_DIRS) run-all sweep test ci-setup profile resources sanitize diff diffs docs check-archs check-toolkit \
        clean help \
        lab lab-check lab-status lab-grade lab-grade-all lab-grade-demo

## all: build every program (the steps, step 11's atomic finishes, CUB, and the extensions' programs and tools), the report tool and the unit tests; plain `make` does this
all: $(PROGRAM_DIRS) $(TOOLS)/report $(UNIT_TESTS) $(EXTRA_TOOLS)

## step3_add_during_load (any program's directory): build that program alone
# -s: no "Nothing to be done" lines; step.mk still says what it compiles (V=1: how).
$(PROGRAM_DIRS):
	@$(MAKE) $(if $(Q),-s) --no-print-directory -C $@ TYPE=$(TYPE)

# The host tools depend on their command lines too (config.mk's write_if_changed).
REPORT_SOURCES := common/report_main.c common/results.c common/svg.c common/lab_verdict.c common/lab_grade.c
REPORT_CFLAGS  := -std=c11 -O2 -Wall -Wextra -Werror -Icommon
$(TOOLS)/report.cmd: FORCE
	@$(call write_if_changed,$(CC) $(REPORT_CFLAGS))
$(UNIT_TESTS).cmd: FORCE
	@$(call write_if_changed,$(CC) $(HOST_CFLAGS))

$(TOOLS)/report: $(REPORT_SOURCES) common/results.h common/svg.h common/lab_verdict.h common/lab_grade.h $(TOOLS)/report.cmd
	$(Q)$(CC) $(REPORT_CFLAGS) -o $@ $(REPORT_SOURCES) -lm

$(UNIT_TESTS): tests/unit_tests.c $(PURE_SOURCES) $(wildcard common/*.h) $(UNIT_TESTS).cmd
	$(Q)$(CC) $(HOST_CFLAGS) -o $@ tests/unit_tests.c $(PURE_SOURCES) -lm

## run-all: every step and CUB on the same n, then Harris's table (results/run-all.csv, .svg), then the extensions' tables (RUN_ALL_EXTRAS)
run-all:
	@scripts/preflight.sh $@
	@$(MAKE) --no-print-directory all
	@RUN_ALL_EXTRAS="$(RUN_ALL_EXTRAS)" scripts/run_all.sh $(STEPS) cub_reference

## sweep: step6..step11 (and step11's atomic finishes) and CUB over SIZES (results/sweep.csv, .svg)
sweep:
	@scripts/preflight.sh $@
	@$(MAKE) --no-print-directory all
	@scripts/sweep.sh

## test: unit tests, build, docs, bad input; the GPU checks when a GPU answers (TYPE=float, TYPE=double: the other types)
test: $(TOOLS)/report $(UNIT_TESTS) $(EXTRA_TOOLS)
	@TEST_SUITES="$(TEST_SUITES)" SUITE_PROGRAM_DIRS="$(SUITE_PROGRAM_DIRS)" tests/run.sh $(PROGRAM_DIRS)

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

## lab STEP=k: start lab exercise k (1..11): lab/stepK_name/ gets step k-1's kernel, the exercise and TODOs (FORCE=1 replaces it)
lab:
	@scripts/lab.sh start $(STEP)

## lab-check STEP=k: build and check your copy like make test, sanitizers too, then time it next to step k-1 and ours (PROFILE=1: ncu)
lab-check: $(TOOLS)/report
	@scripts/lab.sh check $(STEP)

## lab-grade STEP=k: lab-check's checks under a time limit on new data, scored with lab/weights.conf: lab/stepK_name/results.json (Gradescope) and a summary
lab-grade: $(TOOLS)/report
	@scripts/lab.sh grade $(STEP)

## lab-grade-all SUBMISSIONS=dir: grade every student's stepK_name/reduce.cu, each in a scratch copy, one after another: results/grades.csv and the class table
lab-grade-all: $(TOOLS)/report
	@scripts/lab_grade_all.sh "$(SUBMISSIONS)" $(STEP)

## lab-grade-demo: lab-grade-all over a folder of our steps, tests/lab_broken's copies, a build error and a kernel that never ends (build/lab-demo)
lab-grade-demo: $(TOOLS)/report
	@scripts/lab_grade_demo.sh

## lab-status: the lab steps you have started, and which passed lab-check with the step's gain
lab-status:
	@scripts/lab.sh status

## docs: the Doxygen site in docs/html (warnings are errors)
docs:
	@DOC_INPUTS="$(DOC_INPUTS)" scripts/docs.sh

## check-archs: compile every step for every real architecture nvcc supports (no GPU needed)
check-archs:
	@scripts/check_archs.sh $(PROGRAM_DIRS)

## ci-setup: what .ci/run installs before the tests, beyond doxygen and shellcheck: each extension's own (a rule of its .mk)
ci-setup:: ; @:

## check-toolkit: build every program and run the unit tests with the newest CUDA on PyPI (build/toolkit)
check-toolkit:
	@scripts/check_toolkit.sh $(PROGRAM_DIRS)

## -C step4_unroll_warp race-demo: Harris's 2007 last warp under compute-sanitizer's racecheck, next to this repository's
## -C DIR run|profile|resource-usage|clean: one program: build and run it once (ARGS="-n 2^20"), its Nsight Compute metrics, ptxas's registers and shared memory (no GPU needed), or remove its build

## clean: remove every build, program and the generated docs, for every TYPE (results/ and lab/ are kept)
clean:
	@for d in $(PROGRAM_DIRS); do $(MAKE) -s --no-print-directory -C $$d clean; done
	@rm -rf build docs/html

# The files whose "##= " lines document the variables, each next to where its default is set.
HELP_FILES += Makefile common/config.mk $(wildcard scripts/*.sh)

## help: this list: every target, then every variable with its default (make VAR=value)
help:
	@echo "Targets (make TARGET):"
	@sed -n 's/^## /  /p' $(TARGET_FILES)
	@echo "Variables (make VAR=value), each with its default after the =:"
	@sed -n 's/^##= /  /p' $(HELP_FILES)

# print-VAR: the value make gives VAR (make test compares it with the default help shows)
print-%:
	@echo '$($*)'
