# Build rules shared by every step directory (and the CUB reference): a step's Makefile
# is `include ../common/step.mk`, which builds its .cu file with the harness into ./reduce
# (./reduce_float, ./reduce_double for TYPE=float/double), objects in build/$(TYPE)/.
# Its targets and variables: make help ("-C DIR ...", and SM, NVCC_ARCH, TYPE, CUDA_PATH).

# No built-in rules (make must never "remake" a .d file by linking); objects of a pattern
# chain (a variant's step_X.o) are kept, or every later `make` would compile them again.
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:
.SECONDARY:

COMMON    := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
# HARNESS_DIRS: folders of more harness sources (searched after common/, for headers too)
EXTRA_NVCC_FLAGS += $(HARNESS_DIRS:%=-I%)
EXTRA_CFLAGS     += $(HARNESS_DIRS:%=-I%)
include $(COMMON)/config.mk
include $(COMMON)/harness.mk

STEP_SOURCE := $(firstword $(wildcard *.cu))
ifeq ($(STEP_SOURCE),)
$(error no .cu file in $(CURDIR): a step directory holds one kernel file)
endif

BUILD      := build/$(TYPE)
# A step's Makefile may name another driver (HARNESS_MAIN: a .c file in HARNESS_DIRS, without
# .c), more sources (HARNESS_EXTRA, likewise) and libraries (EXTRA_LIBS) before the include:
# built here, with its flags; the rest of the harness is the shared library (harness.mk).
HARNESS_MAIN ?= main
HARNESS_OBJ := $(if $(filter main,$(HARNESS_MAIN)),$(HARNESS_MAIN_OBJ),$(BUILD)/common/$(HARNESS_MAIN).o) \
               $(HARNESS_EXTRA:%=$(BUILD)/common/%.o)

# More programs from the same .cu file: VARIANTS := a b, VARIANT_FLAGS_a := -DX=1 before
# the include; VARIANTS_ONLY := yes builds only those (a folder of variants, not a step).
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
# asked (ptxas is in every toolkit install, cuobjdump not). One file per architecture.
RESOURCE_USAGE := $(BUILD)/resource-usage-$(NVCC_ARCH).txt
resource-usage: $(RESOURCE_USAGE)
	@cat $<

$(RESOURCE_USAGE): $(STEP_SOURCE) $(wildcard $(COMMON)/*.h) | $(BUILD)/common
	$(call say,PTXAS $(WHERE)/$< ($(TYPE), resource usage))
	$(Q)$(NVCC) $(NVCC_FLAGS) --resource-usage -cubin -o $(BUILD)/step.cubin $< 2> $@.tmp || \
	    { cat $@.tmp >&2; rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@

# check-archs: for this TYPE, the program and each VARIANT_FLAGS_x build (step 4's legacy
# one too) for every architecture, warnings as errors, so that nothing arch-specific slips
# in without a fallback: device code (-cubin), and host code too (-c) for the oldest.
# CHECK_ARCHS="sm_75 sm_121" picks some (scripts/check_archs.sh); else nvcc lists them,
# asked only when check-archs is a goal. CHECK_ARCHS_VARIANTS: the variants whose device
# code differs, where others compile the same kernels (CUB's modes: chosen at run time).
ifneq ($(filter check-archs,$(MAKECMDGOALS)),)
REAL_ARCHS := $(or $(CHECK_ARCHS),$(shell $(NVCC) --list-gpu-code 2> /dev/null | grep -E '^sm_[0-9]+$$' | sort -V))
endif
CHECKED_VARIANTS := $(or $(CHECK_ARCHS_VARIANTS),$(sort $(patsubst VARIANT_FLAGS_%,%,$(filter VARIANT_FLAGS_%,$(.VARIABLES)))))
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

# What make sanitize adds to this folder's programs' command line (SANITIZE_ARGS) and to
# memcheck's (SANITIZE_MEMCHECK_FLAGS), one line each; a step's Makefile may set them.
sanitize-flags:
	@echo '$(SANITIZE_ARGS)'; echo '$(SANITIZE_MEMCHECK_FLAGS)'

# The programs `all` builds, which tests/run.sh tests (never a leftover race-demo build).
programs:
	@echo $(PROGRAMS)

clean:
	$(Q)rm -rf build reduce reduce_*

# Header dependencies written by -MMD; they are only read, never made.
%.d: ;
-include $(wildcard $(BUILD)/*.d $(BUILD)/common/*.d)
