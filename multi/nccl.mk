# Finds NCCL for step 12, then builds the step with step.mk, or says in one line that the
# step is skipped: NCCL is optional, and nothing else needs it.
#
# Where it looks, in this order: $(NCCL_HOME) (include/, lib/ or lib64/), the CUDA
# toolkit ($(CUDA_PATH)/include, lib64/), the system (/usr/include, /usr/lib/<arch>).
#
#   make                     build ./reduce (or print the skip line)
#   make NCCL_HOME=/opt/nccl NCCL from elsewhere
#   make nccl-include        print the include folder found (empty: none), for scripts

##= NCCL_HOME=: where NCCL is (include/, lib/) when not in CUDA_PATH or /usr; step 12 only
NCCL_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
CUDA_PATH ?= /usr/local/cuda
MULTIARCH := $(shell gcc -print-multiarch 2>/dev/null)

# nccl_lib ROOT: the first library folder under ROOT with libnccl.so, or nothing
nccl_lib = $(firstword $(foreach d,lib64 lib lib/$(MULTIARCH),$(if $(wildcard $(1)/$(d)/libnccl.so*),$(1)/$(d))))
NCCL_ROOTS := $(NCCL_HOME) $(CUDA_PATH) /usr
NCCL_ROOT  := $(firstword $(foreach r,$(NCCL_ROOTS),$(if $(and $(wildcard $(r)/include/nccl.h),$(call nccl_lib,$(r))),$(r))))
NCCL_SKIP_LINE := $(notdir $(CURDIR)): skipped, NCCL not found (install libnccl-dev or set NCCL_HOME=...)

ifneq ($(NCCL_ROOT),)
NCCL_INCLUDE := $(NCCL_ROOT)/include
NCCL_LIB     := $(call nccl_lib,$(NCCL_ROOT))
# The compiler sees nccl.h alone, through a folder of one link: -I on NCCL's own folder
# would put every header there (another CUDA toolkit's, or all of /usr/include) ahead of
# the toolkit that compiles, which breaks a build with a newer nvcc (make check-toolkit).
NCCL_SHIM := build/nccl-include
EXTRA_NVCC_FLAGS += -I$(NCCL_SHIM)
EXTRA_CFLAGS     += -I$(NCCL_SHIM)
# rpath: the program finds the same libnccl at run time, wherever it was found
EXTRA_LIBS       += -L$(NCCL_LIB) -lnccl -Xlinker -rpath=$(NCCL_LIB)
include $(NCCL_MK_DIR)/../common/step.mk

$(BUILD)/step.o $(HARNESS_OBJ) $(CHECK_ARCH_TARGETS): | $(NCCL_SHIM)/nccl.h
$(NCCL_SHIM)/nccl.h:
	@mkdir -p $(NCCL_SHIM)
	@ln -sf $(NCCL_INCLUDE)/nccl.h $@

.PHONY: nccl-include
nccl-include:
	@echo $(NCCL_INCLUDE)
else
.PHONY: all programs clean nccl-include run check-archs sanitize-flags
all check-archs:
	@echo "$(NCCL_SKIP_LINE)"
# run has nothing to run: the same line, and a failure (a skipped build is not a run)
run:
	@echo "$(NCCL_SKIP_LINE)" >&2; exit 2
programs nccl-include sanitize-flags:
	@true
clean:
	@rm -rf build reduce reduce_*
endif
