# Finds MPI for step 13, then NCCL (nccl.mk), then builds the step with step.mk; or says
# in one line that the step is skipped and how to get MPI. MPI is optional, like NCCL:
# nothing else needs it.
#
# Where it looks, in this order: $(MPI_HOME)/bin/mpicc, mpicc on PATH (Debian's
# libopenmpi-dev or libmpich-dev, a cluster's module), build/mpich/bin/mpicc (what
# `make mpich` installs from MPICH's PyPI wheel). The compiler wrapper says where its
# headers and libraries are: `mpicc -show` (MPICH), `mpicc --showme` (Open MPI).
#
#   make                     build ./reduce (or print the skip line)
#   make MPI_HOME=/opt/mpi   MPI from elsewhere
#   make mpiexec-path        print the mpiexec of the MPI found (empty: none), for scripts
#   make mpi-include         print the include folders it found (check-archs)

##= MPI_HOME=: where MPI is (bin/mpicc) when mpicc is not on PATH; step 13 only (make mpich installs one)
MPI_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
MPI_TOP    := $(abspath $(MPI_MK_DIR)/..)
MPICC := $(firstword $(if $(MPI_HOME),$(wildcard $(MPI_HOME)/bin/mpicc)) $(shell command -v mpicc 2>/dev/null) \
                     $(wildcard $(MPI_TOP)/build/mpich/bin/mpicc))
MPI_SHOW := $(if $(MPICC),$(shell $(MPICC) -show 2>/dev/null || $(MPICC) --showme 2>/dev/null))
MPI_SKIP_LINE := $(notdir $(CURDIR)): skipped, MPI not found (install libmpich-dev or libopenmpi-dev, set MPI_HOME=..., or run make mpich)

ifneq ($(strip $(MPI_SHOW)),)
# The launcher of the same MPI: on Debian, mpicc and mpiexec are separate alternatives, so
# /usr/bin/mpiexec may be another MPI's; mpiexec.openmpi or mpiexec.mpich beside mpicc is not
MPI_FLAVOUR  := $(if $(findstring openmpi,$(MPI_SHOW)),openmpi,mpich)
MPIEXEC      := $(firstword $(wildcard $(dir $(MPICC))mpiexec.$(MPI_FLAVOUR) $(dir $(MPICC))mpiexec))
# The wrapper's own folders: /usr/include is the compiler's already (and -I on it would put
# every header there ahead of the toolkit's). No C++ bindings: MPI's C interface is used.
MPI_INCLUDES := $(filter-out /usr/include,$(patsubst -I%,%,$(filter -I%,$(MPI_SHOW))))
MPI_LIBDIRS  := $(patsubst -L%,%,$(filter -L%,$(MPI_SHOW)))
EXTRA_NVCC_FLAGS += $(MPI_INCLUDES:%=-I%) -DMPICH_SKIP_MPICXX -DOMPI_SKIP_MPICXX
EXTRA_CFLAGS     += $(MPI_INCLUDES:%=-I%)
# rpath: the program finds the same libmpi at run time, wherever it was found. rpath-link:
# the linker finds libmpi's own libraries where libmpi keeps them (the wheel's libfabric in
# lib/mpich), before another -rpath folder that may hold older ones (NCCL's /usr/lib/<arch>
# can hold an older libfabric: undefined references to fi_getinfo@FABRIC_1.9)
MPI_LINK_DIRS := $(MPI_LIBDIRS) $(wildcard $(MPI_LIBDIRS:%=%/mpich))
EXTRA_LIBS       += $(MPI_LIBDIRS:%=-L%) $(MPI_LINK_DIRS:%=-Xlinker -rpath-link=%) $(MPI_LIBDIRS:%=-Xlinker -rpath=%) \
                    $(filter -l%,$(MPI_SHOW))
include $(MPI_MK_DIR)/nccl.mk

.PHONY: mpiexec-path mpi-include
mpiexec-path:
	@echo $(MPIEXEC)
mpi-include:
	@echo $(MPI_INCLUDES)
else
.PHONY: all programs clean nccl-include run mpiexec-path mpi-include check-archs sanitize-flags
all check-archs:
	@echo "$(MPI_SKIP_LINE)"
# run has nothing to run: the same line, and a failure (a skipped build is not a run)
run:
	@echo "$(MPI_SKIP_LINE)" >&2; exit 2
programs nccl-include mpiexec-path mpi-include sanitize-flags:
	@true
clean:
	@rm -rf build reduce reduce_*
endif
