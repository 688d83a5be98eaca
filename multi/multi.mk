# The multi-GPU extension: steps 12, 13 and 15 spread the input over the GPUs with NCCL, from
# one process or one MPI rank per GPU. The top Makefile includes this file (targets, tools,
# tests); each step folder includes it with MULTI_RANKS (one or mpi) to build its program,
# or to say in one line why not (NCCL, its device API for step 15, and MPI are optional).
##= NCCL_HOME=: where NCCL is (include/, lib/) when not in CUDA_PATH or /usr; steps 12, 13, 15
##= MPI_HOME=: where MPI is (bin/mpicc) when mpicc is not on PATH; step 13 only (make mpich installs one)
ifeq ($(MULTI_RANKS),)

MULTI_ONE_PROCESS_STEP  := step12_multi_gpu
MULTI_RANK_PER_GPU_STEP := step13_rank_per_gpu
MULTI_KERNEL_STEP := step15_combine_in_kernel
MULTI_STEPS  := $(MULTI_ONE_PROCESS_STEP) $(MULTI_RANK_PER_GPU_STEP) $(MULTI_KERNEL_STEP) $(MULTI_KERNEL_STEP)/rank_per_gpu
export MULTI_STEPS MULTI_ONE_PROCESS_STEP MULTI_RANK_PER_GPU_STEP MULTI_KERNEL_STEP
EXTENSIONS   += multi
multi_FOLDERS := multi $(MULTI_STEPS)
PROGRAM_DIRS += $(MULTI_STEPS)
SUITE_PROGRAM_DIRS += $(MULTI_STEPS)
TARGET_FILES += multi/multi.mk
HELP_FILES   += multi/multi.mk $(wildcard multi/*.sh)
TEST_SUITES  += multi/tests.sh
RUN_ALL_EXTRAS += multi/run_all_multi.sh
INSTALLED    += build/mpich build/mpich-wheel build/nccl build/nccl-wheel
DOC_INPUTS   += $(wildcard $(MULTI_STEPS:%=%/README.md)) multi $(MULTI_STEPS)

##= SCALING_SIZES="2^20 2^21 2^22 2^23 2^24 2^25 2^26 2^27 2^28 2^29 2^30": the sizes of make scaling
SCALING_SIZES ?= 2^20 2^21 2^22 2^23 2^24 2^25 2^26 2^27 2^28 2^29 2^30
export SCALING_SIZES

# Host tools: the tables, and their unit tests, which link the tables' weak main() with
# their own; each depends on its command line too (config.mk).
MULTI_REPORT     := build/tools/multi_report
MULTI_UNIT_TESTS := build/$(TYPE)/multi_unit_tests
EXTRA_TOOLS      += $(MULTI_REPORT) $(MULTI_UNIT_TESTS)
MULTI_REPORT_SOURCES := multi/multi_report.c common/results.c report/csv_read.c report/tables.c report/svg.c
MULTI_UNIT_SOURCES   := multi/unit_tests.c multi/multi_options.c multi/shard_reference.c common/data.c common/options.c
MULTI_CFLAGS := $(HOST_CFLAGS) -Imulti -Ireport
# the tables' tool is one for every TYPE (build/tools/), as the core's report tool is
MULTI_REPORT_CFLAGS = $(REPORT_CFLAGS) -I$(CUDA_PATH)/include -Imulti

$(MULTI_REPORT).cmd: FORCE
	@$(call write_if_changed,$(CC) $(MULTI_REPORT_CFLAGS))
$(MULTI_UNIT_TESTS).cmd: FORCE
	@$(call write_if_changed,$(CC) $(MULTI_CFLAGS))

$(MULTI_REPORT): $(MULTI_REPORT_SOURCES) $(wildcard common/*.h multi/*.h report/*.h) $(MULTI_REPORT).cmd
	$(Q)$(CC) $(MULTI_REPORT_CFLAGS) -o $@ $(filter %.c,$^) -lm

$(MULTI_UNIT_TESTS): $(MULTI_UNIT_SOURCES) $(MULTI_REPORT_SOURCES) $(wildcard common/*.h multi/*.h report/*.h) $(MULTI_UNIT_TESTS).cmd
	$(Q)$(CC) $(MULTI_CFLAGS) -o $@ $(filter %.c,$^) -lm -pthread

.PHONY: scaling mpich nccl

## scaling: over SCALING_SIZES (2^20 ... 2^30) x G = 1, 2, 4 ... all GPUs: step12, step15 and step13 and step15 with one MPI rank per GPU (each where built), step13 over the network transport: speedup, efficiency, the combine, each crossover (results/scaling.csv, .svg)
scaling:
	@scripts/preflight.sh $@
	@$(MAKE) --no-print-directory all
	@multi/scaling.sh

## -C step13_rank_per_gpu mpiexec-path|nccl-include: the mpiexec of the MPI step 13 is built with, NCCL's include folder (step 12 too), for scripts
## nccl: install NCCL (pinned: 2.32.3) from its PyPI wheel into build/nccl, for steps 12, 13 and 15 where the machine's NCCL is missing or has no device API (NCCL_WHEEL=FILE: that wheel, no network)
nccl:
	@multi/get_nccl.sh

## mpich: install MPICH from its PyPI wheel into build/mpich, for step 13 where no MPI is installed (MPICH_WHEEL=FILE: that wheel, no network)
mpich:
	@multi/get_mpich.sh

# CI: MPICH where no MPI is installed, so that CI builds, links and runs step 13
ci-setup::
	@command -v mpicc > /dev/null 2>&1 || $(MAKE) --no-print-directory mpich

else
# ---------------------------------------------------------------- a step folder's build
# main.c's driver with multi_main.c's hooks and main(), and ranks_one.c or ranks_mpi.c.
# memcheck reports no API errors: NCCL asks cudaFuncGetAttributes about kernels built for
# other GPUs and handles "no kernel image" itself (H200); the program checks its own calls.
MULTI_DIR     := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
HARNESS_DIRS  := $(MULTI_DIR)
HARNESS_EXTRA := multi_main ranks_$(MULTI_RANKS) multi_options shard_reference
SANITIZE_MEMCHECK_FLAGS := --report-api-errors no
# make sanitize: on one GPU (MPI: one rank, without mpiexec)
SANITIZE_ARGS := $(if $(filter one,$(MULTI_RANKS)),--gpus 1)
CUDA_PATH ?= /usr/local/cuda
MULTIARCH := $(shell gcc -print-multiarch 2>/dev/null)

# NCCL in $(NCCL_HOME), the CUDA toolkit, the system or build/nccl (make nccl), for step 15 the
# first with a device API (nccl_lib ROOT: ROOT's libnccl.so folder)
nccl_lib = $(firstword $(foreach d,lib64 lib lib/$(MULTIARCH),$(if $(wildcard $(1)/$(d)/libnccl.so*),$(1)/$(d))))
NCCL_ROOTS := $(foreach r,$(NCCL_HOME) $(CUDA_PATH) /usr $(abspath $(MULTI_DIR)/..)/build/nccl,$(if $(and $(wildcard $(r)/include/nccl.h),$(call nccl_lib,$(r))),$(r)))
NCCL_ROOT := $(firstword $(if $(MULTI_DEVICE_API),$(foreach r,$(NCCL_ROOTS),$(if $(wildcard $(r)/include/nccl_device.h),$(r)))) $(NCCL_ROOTS))
MULTI_SKIP := $(if $(NCCL_ROOT),,NCCL not found (install libnccl-dev, set NCCL_HOME=... or run make nccl))
# step 15's device API (nccl_device.h): NCCL 2.28 or newer
MULTI_SKIP := $(or $(MULTI_SKIP),$(if $(MULTI_DEVICE_API),$(if $(wildcard $(NCCL_ROOT)/include/nccl_device.h),,NCCL in $(NCCL_ROOT) has no device API (nccl_device.h): install NCCL 2.28 or newer (libnccl-dev) and set NCCL_HOME=..., or run make nccl)))

# MPI, step 13 only: $(MPI_HOME)/bin/mpicc, mpicc on PATH, build/mpich/bin/mpicc (make
# mpich); `mpicc -show` (MPICH) or `--showme` (Open MPI) says where its files are
ifeq ($(MULTI_RANKS),mpi)
MPICC := $(firstword $(if $(MPI_HOME),$(wildcard $(MPI_HOME)/bin/mpicc)) $(shell command -v mpicc 2>/dev/null) \
                     $(wildcard $(abspath $(MULTI_DIR)/..)/build/mpich/bin/mpicc))
MPI_SHOW := $(if $(MPICC),$(shell $(MPICC) -show 2>/dev/null || $(MPICC) --showme 2>/dev/null))
MULTI_SKIP := $(if $(strip $(MPI_SHOW)),$(MULTI_SKIP),MPI not found (install libmpich-dev or libopenmpi-dev, set MPI_HOME=..., or run make mpich))
endif

ifeq ($(MULTI_SKIP),)
ifeq ($(MULTI_RANKS),mpi)
# The launcher of the same MPI: on Debian /usr/bin/mpiexec may be another MPI's than mpicc;
# mpiexec.openmpi or mpiexec.mpich beside mpicc is not
MPI_FLAVOUR  := $(if $(findstring openmpi,$(MPI_SHOW)),openmpi,mpich)
MPIEXEC      := $(firstword $(wildcard $(dir $(MPICC))mpiexec.$(MPI_FLAVOUR) $(dir $(MPICC))mpiexec))
# The wrapper's folders but /usr/include (-I on it would put its headers ahead of the
# toolkit's). No C++ bindings: MPI's C interface is used.
MPI_INCLUDES := $(filter-out /usr/include,$(patsubst -I%,%,$(filter -I%,$(MPI_SHOW))))
MPI_LIBDIRS  := $(patsubst -L%,%,$(filter -L%,$(MPI_SHOW)))
EXTRA_NVCC_FLAGS += $(MPI_INCLUDES:%=-I%) -DMPICH_SKIP_MPICXX -DOMPI_SKIP_MPICXX
EXTRA_CFLAGS     += $(MPI_INCLUDES:%=-I%)
# rpath: the same libmpi at run time. rpath-link: libmpi's own libraries where it keeps them
# (the wheel's libfabric in lib/mpich), before another -rpath folder's older ones (NCCL's
# /usr/lib/<arch>: undefined references to fi_getinfo@FABRIC_1.9)
MPI_LINK_DIRS := $(MPI_LIBDIRS) $(wildcard $(MPI_LIBDIRS:%=%/mpich))
EXTRA_LIBS       += $(MPI_LIBDIRS:%=-L%) $(MPI_LINK_DIRS:%=-Xlinker -rpath-link=%) $(MPI_LIBDIRS:%=-Xlinker -rpath=%) \
                    $(filter -l%,$(MPI_SHOW))
endif
NCCL_INCLUDE := $(NCCL_ROOT)/include
NCCL_LIB     := $(call nccl_lib,$(NCCL_ROOT))
# The compiler sees nccl.h (nccl_device*) alone, through a folder of links: -I on NCCL's folder
# would put every header there (another toolkit's, /usr/include) ahead of the compiling toolkit's.
NCCL_SHIM := build/nccl-include
EXTRA_NVCC_FLAGS += -I$(NCCL_SHIM)
EXTRA_CFLAGS     += -I$(NCCL_SHIM)
# rpath: the same libnccl at run time
EXTRA_LIBS       += -L$(NCCL_LIB) -lnccl -Xlinker -rpath=$(NCCL_LIB)
include $(MULTI_DIR)/../common/step.mk

$(BUILD)/step.o $(HARNESS_OBJ) $(CHECK_ARCH_TARGETS): | $(NCCL_SHIM)/nccl.h
$(NCCL_SHIM)/nccl.h:
	@mkdir -p $(NCCL_SHIM)
	@ln -sf $(NCCL_INCLUDE)/nccl.h $(wildcard $(NCCL_INCLUDE)/nccl_device*) $(NCCL_SHIM)

.PHONY: nccl-include mpiexec-path
nccl-include:
	@echo $(NCCL_INCLUDE)
mpiexec-path:
	@echo $(MPIEXEC)
else
.PHONY: all programs clean nccl-include run mpiexec-path check-archs sanitize-flags
all check-archs:
	@echo "$(notdir $(CURDIR)): skipped, $(MULTI_SKIP)"
# run: the same line, and a failure (a skipped build is not a run)
run:
	@echo "$(notdir $(CURDIR)): skipped, $(MULTI_SKIP)" >&2; exit 2
programs nccl-include mpiexec-path sanitize-flags:
	@true
clean:
	@rm -rf build reduce reduce_*
endif
endif
