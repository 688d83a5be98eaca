# The classroom lab (lab/README.md): a student turns step k-1 into step k in a copy of
# their own (lab/work/stepK_name/, git-ignored), checks it, and an instructor grades a class.
# An extension: `git rm -r lab` and the top Makefile's one include line remove it.

# Save the default goal: the rules below come before the top Makefile's `all`.
lab_default_goal := $(.DEFAULT_GOAL)

LAB_TOOL       := build/tools/lab_grade
LAB_UNIT_TESTS := build/$(TYPE)/lab_unit_tests
LAB_SOURCES    := lab/lab_grade.c common/results.c common/options.c report/csv_read.c
LAB_CFLAGS     := -std=c11 -O2 -Wall -Wextra -Werror -Icommon -Ireport -Ilab
LAB_HEADERS    := lab/lab_grade.h common/results.h common/options.h report/csv_read.h
# what the lab scripts run: the steps (from the top Makefile), the lab's tool, the core's report
LAB_ENV         = LAB_STEPS="$(STEPS)" LAB_GRADER=$(LAB_TOOL)

EXTENSIONS   += lab
NO_NVCC_GOALS += lab-status lab-clean
lab_FOLDERS  := lab
TARGET_FILES += lab/lab.mk
HELP_FILES   += lab/lab.mk lab/lab.sh lab/lab_check.sh lab/lab_grade_all.sh lab/handout.sh lab/tests.sh
LAB_SUITES   := lab/tests.sh lab/tests_grade.sh lab/tests_handout.sh
TEST_SUITES  += $(LAB_SUITES)
CI_SUITES    += lab/tests_handout.sh
DOC_INPUTS   += lab/README.md lab/STUDENTS.md lab/ANSWERS.md lab
.PHONY: lab lab-check lab-status lab-grade lab-grade-all lab-grade-demo lab-clean handout test-lab

##= SUBMISSIONS=: lab-grade-all's folder, one folder per student holding stepK_name/reduce.cu
SUBMISSIONS ?=

all test: $(LAB_TOOL) $(LAB_UNIT_TESTS)

$(LAB_TOOL).cmd: FORCE
	@$(call write_if_changed,$(CC) $(LAB_CFLAGS))
$(LAB_UNIT_TESTS).cmd: FORCE
	@$(call write_if_changed,$(CC) $(HOST_CFLAGS) -Ireport -Ilab)

$(LAB_TOOL): lab/lab_grade_main.c $(LAB_SOURCES) $(LAB_HEADERS) $(LAB_TOOL).cmd
	$(Q)$(CC) $(LAB_CFLAGS) -o $@ lab/lab_grade_main.c $(LAB_SOURCES) -lm

$(LAB_UNIT_TESTS): lab/unit_tests.c $(LAB_SOURCES) $(LAB_HEADERS) common/unit_test.h $(LAB_UNIT_TESTS).cmd
	$(Q)$(CC) $(HOST_CFLAGS) -Ireport -Ilab -o $@ lab/unit_tests.c $(LAB_SOURCES) -lm

## lab STEP=k: start lab exercise k (1..11, 14): lab/work/stepK_name/ gets step k-1's kernel (step 11's for 14), the exercise and TODOs (FORCE=1 replaces it)
lab:
	@$(LAB_ENV) lab/lab.sh start $(STEP)

## lab-check STEP=k: build and check your copy like make test, sanitizers too, then time it next to step k-1 and ours (PROFILE=1: ncu)
lab-check: $(LAB_TOOL) build/tools/report
	@$(LAB_ENV) lab/lab.sh check $(STEP)

## lab-grade STEP=k: lab-check's checks under a time limit on new data, scored with lab/weights.conf: lab/work/stepK_name/results.json (Gradescope) and a summary (make exits 2 on any failure; lab/lab.sh grade K exits 3 without a GPU)
lab-grade: $(LAB_TOOL) build/tools/report
	@$(LAB_ENV) lab/lab.sh grade $(STEP)

## lab-grade-all SUBMISSIONS=dir: grade every student's stepK_name/reduce.cu, each in a scratch copy, one after another: results/grades.csv and the class table
lab-grade-all: $(LAB_TOOL) build/tools/report
	@$(LAB_ENV) lab/lab_grade_all.sh "$(SUBMISSIONS)" $(STEP)

## lab-grade-demo: lab-grade-all over a folder of our steps and the broken copies (lab/broken/*.patch: a build error and a kernel that never ends among them), in build/lab-demo
lab-grade-demo: $(LAB_TOOL) build/tools/report
	@$(LAB_ENV) lab/lab_grade_all.sh --demo

## handout EXERCISES=3|7-9|all HANDOUT_DIR=dir: a course's students' repository, without the answers (lab/README.md, "For a course"); on the lab GPU, with our times
handout:
	@$(LAB_ENV) lab/handout.sh

## test-lab: the lab's own tier, which a TA runs on the lab GPU before a course (TYPE=float, TYPE=double too): every lab copy built and lab-checked with its time's verdict, each broken copy rejected, lab-grade's timed runs, lab-grade-all over a class, make handout and its make test; without a GPU, all that runs without one, each GPU check named as SKIP
test-lab: $(STEPS) build/tools/report $(LAB_TOOL) $(LAB_UNIT_TESTS)
	@TEST_TIER=lab TEST_SUITES="$(LAB_SUITES)" tests/run.sh $(PROGRAM_DIRS)

## lab-status: the lab steps you have started, and which passed lab-check with the step's gain
lab-status:
	@$(LAB_ENV) lab/lab.sh status

## lab-clean: remove the students' copies (lab/work/, or LAB_DIR), after listing them; no tracked file is touched
lab-clean:
	@$(LAB_ENV) lab/lab.sh clean

.DEFAULT_GOAL := $(lab_default_goal)
