# Build rules shared by every step directory (and the CUB reference).
#
# A step's Makefile is one line, `include ../common/step.mk`: it builds the step's .cu
# file with the harness in common/ into ./reduce (./reduce_float, ./reduce_double for
# TYPE=float/double). Objects go to build/$(TYPE)/, so switching type never mixes them.
# Its targets and variables: make help ("-C DIR ...", and SM, NVCC_ARCH, TYPE, CUDA_PATH).

# No built-in rules: make must never try to "remake" a dependency file (.d) by linking.
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:
# Objects made by a pattern chain (a variant's step_X.o) are kept, not deleted as
# intermediate files: otherwise every later `make` would compile them again.
.SECONDARY:

COMMON    := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
# A step's Makefile may add harness sources from folders of their own: HARNESS_DIRS, the
# folders (searched after common/, their headers found by the step's kernel file too)
EXTRA_NVCC_FLAGS += $(HARNESS_DIRS:%=-I%)
EXTRA_CFLAGS     += $(HARNESS_DIRS:%=-I%)
include $(COMMON)/config.mk
include $(COMMON)/harness.mk

STEP_SOURCE := $(firstword $(wildcard *.cu))
ifeq ($(STEP_SOURCE),)
$(error no .cu file in $(CURDIR): a step directory holds one kernel file)
endif

BUILD      := build/$(TYPE)
# A step's Makefile may name another driver (HARNESS_MAIN, a .c file's name without .c, in a
# folder of HARNESS_DIRS), more sources of its own (HARNESS_EXTRA, likewise) and more
# libraries (EXTRA_LIBS) before the include. The folder's own objects (HARNESS_OBJ) are
# built here, with its flags; the rest of the harness is the shared library (harness.mk).
HARNESS_MAIN ?= main
HARNESS_OBJ := $(if $(filter main,$(HARNESS_MAIN)),$(HARNESS_MAIN_OBJ),$(BUILD)/common/$(HARNESS_MAIN).o) \
               $(HARNESS_EXTRA:%=$(BUILD)/common/%.o)

# Extra programs from the same .cu file with other -D flags: a step's Makefile may set
# VARIANTS := a b  and  VARIANT_FLAGS_a := -DX=1  before the include; VARIANTS_ONLY := yes
# builds only those (a directory of variants, not a step).
PROGRAMS := $(if $(VARIANTS_ONLY),,reduce$(SUFFIX)) $(foreach v,$(VARIANTS),reduce_$(v)$(SUFFIX))

.PHONY: all run profile resource-usage clean programs check-archs sanitize-flags
all: $(PROGRAMS)

# Quiet by default (V=0): one line per kernel file compiled, what takes the time.
WHERE := $(patsubst $(abspath $(COMMON)/..)/%,%,$(CURDIR))
say = $(if $(Q),@echo "  $(1)")

# The command lines' stamps (config.mk); nvcc's holds every variant's flags too.
$(BUILD)/nvcc.cmd: FORCE
	@$(call write_if_changed,$(NVCC) $(NVCC_FLAGS) $(foreach v,$(VARIANTS),$(v): $(VARIANT_FLAGS_$(v))))
$(BUILD)/cc.cmd: FORCE
	@$(call write_if_changed,$(CC) $(HOST_CFLAGS))
$(BUILD)/link.cmd: FORCE
	@$(call write_if_changed,$(NVCC) $(NVCC_LINK_FLAGS) $(EXTRA_LIBS))

reduce$(SUFFIX): $(BUILD)/step.o $(HARNESS_OBJ) $(HARNESS_LIB) $(BUILD)/link.cmd
	$(Q)$(NVCC) $(NVCC_LINK_FLAGS) -o $@ $(filter %.o %.a,$^) $(EXTRA_LIBS)

reduce_%$(SUFFIX): $(BUILD)/step_%.o $(HARNESS_OBJ) $(HARNESS_LIB) $(BUILD)/link.cmd
	$(Q)$(NVCC) $(NVCC_LINK_FLAGS) -o $@ $(filter %.o %.a,$^) $(EXTRA_LIBS)

$(BUILD)/step.o: $(STEP_SOURCE) $(BUILD)/nvcc.cmd | $(BUILD)/common
	$(call say,NVCC  $(WHERE)/$< ($(TYPE)))
	$(Q)$(NVCC) $(NVCC_FLAGS) -MMD -MP -c $< -o $@

$(BUILD)/step_%.o: $(STEP_SOURCE) $(BUILD)/nvcc.cmd | $(BUILD)/common
	$(call say,NVCC  $(WHERE)/$< ($(TYPE), $*))
	$(Q)$(NVCC) $(NVCC_FLAGS) $(VARIANT_FLAGS_$*) -MMD -MP -c $< -o $@

vpath %.c $(HARNESS_DIRS)
$(BUILD)/common/%.o: %.c $(BUILD)/cc.cmd | $(BUILD)/common
	$(Q)$(CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/common:
	@mkdir -p $@

run: reduce$(SUFFIX)
	./reduce$(SUFFIX) $(ARGS)

profile: reduce$(SUFFIX)
	@../scripts/profile.sh $(notdir $(CURDIR))

# ptxas's report of the step's kernel, which `make resources` shows where no GPU can be
# asked. cuobjdump --dump-resource-usage would read the same from the program, but
# cuobjdump is not in every toolkit install (nor in the PyPI wheels of make check-toolkit);
# ptxas always is. One file per architecture: SM=90 reports sm_90 beside an older build.
RESOURCE_USAGE := $(BUILD)/resource-usage-$(NVCC_ARCH).txt
resource-usage: $(RESOURCE_USAGE)
	@cat $<

$(RESOURCE_USAGE): $(STEP_SOURCE) $(wildcard $(COMMON)/*.h) | $(BUILD)/common
	$(call say,PTXAS $(WHERE)/$< ($(TYPE), resource usage))
	$(Q)$(NVCC) $(NVCC_FLAGS) --resource-usage -cubin -o $(BUILD)/step.cubin $< 2> $@.tmp || \
	    { cat $@.tmp >&2; rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@

# check-archs: for this TYPE, the program and each variant whose flags the step's Makefile
# sets (VARIANT_FLAGS_x: step 4's legacy build too), warnings as errors: nothing
# arch-specific may slip in without a fallback. Device code alone (-cubin, a second per file
# and architecture), and for the oldest architecture the host code as well (-c). The
# architectures are asked for only when check-archs is a goal; CHECK_ARCHS="sm_75 sm_121"
# picks some (scripts/check_archs.sh: the oldest and the newest, for float and double).
ifneq ($(filter check-archs,$(MAKECMDGOALS)),)
REAL_ARCHS := $(or $(CHECK_ARCHS),$(shell $(NVCC) --list-gpu-code 2> /dev/null | grep -E '^sm_[0-9]+$$' | sort -V))
endif
CHECKED_VARIANTS := $(sort $(patsubst VARIANT_FLAGS_%,%,$(filter VARIANT_FLAGS_%,$(.VARIABLES))))
CHECKED_BUILDS   := $(strip $(if $(VARIANTS_ONLY),,program) $(CHECKED_VARIANTS))
CHECK_ARCH_TARGETS := $(REAL_ARCHS:%=check-arch-%)
CHECK_FLAGS = $(filter-out -arch=%,$(NVCC_FLAGS)) -gencode arch=compute_$(1:sm_%=%),code=$(1) \
              -Werror all-warnings $(if $(filter $(1),$(firstword $(REAL_ARCHS))),-c,-cubin)
check-archs: $(CHECK_ARCH_TARGETS)
	@[ -n "$(REAL_ARCHS)" ] || { echo "$(WHERE): check-archs: '$(NVCC) --list-gpu-code' lists no architecture" >&2; exit 2; }
.PHONY: $(CHECK_ARCH_TARGETS)
$(CHECK_ARCH_TARGETS): check-arch-%: | $(BUILD)/common
	@log=$(BUILD)/check-archs-$*.log; \
	if { $(foreach b,$(CHECKED_BUILDS),echo "== $(b)" && \
	     $(NVCC) $(call CHECK_FLAGS,$*) $(if $(filter program,$(b)),,$(VARIANT_FLAGS_$(b))) $(STEP_SOURCE) -o /dev/null &&) \
	     true; } > $$log 2>&1; then \
	    echo "ok      $(WHERE) $* ($(TYPE): $(CHECKED_BUILDS))"; \
	else \
	    echo "FAILED  $(WHERE) $* ($(TYPE): $(CHECKED_BUILDS)), see $(WHERE)/$$log"; sed -n '1,6p' $$log; exit 1; \
	fi

# What make sanitize adds, for this folder's programs, to their command line (first line:
# SANITIZE_ARGS) and to memcheck's (second line: SANITIZE_MEMCHECK_FLAGS); a step's
# Makefile may set them before the include (a program of several GPUs run on one, say).
sanitize-flags:
	@echo '$(SANITIZE_ARGS)'; echo '$(SANITIZE_MEMCHECK_FLAGS)'

# The programs `all` builds, one line; tests/run.sh tests exactly these, never a
# leftover such as step4's race-demo build.
programs:
	@echo $(PROGRAMS)

clean:
	$(Q)rm -rf build reduce reduce_*

# Header dependencies written by -MMD; they are only read, never made.
%.d: ;
-include $(wildcard $(BUILD)/*.d $(BUILD)/common/*.d)
