# Toolchain settings shared by the top-level Makefile and every step's build.

##= TYPE=int: the element type, int, float or double (objects in build/TYPE/, programs ./reduce, ./reduce_float, ./reduce_double)
TYPE      ?= int
ifeq ($(filter $(TYPE),int float double),)
$(error TYPE must be int, float or double (got '$(TYPE)'))
endif
TYPE_FLAG := $(if $(filter float,$(TYPE)),-DELEMENT_FLOAT,$(if $(filter double,$(TYPE)),-DELEMENT_DOUBLE))
SUFFIX    := $(if $(filter int,$(TYPE)),,_$(TYPE))

# NVCC_FOUND is empty when that nvcc does not answer: the top Makefile then says so first.
##= CUDA_PATH=(the nvcc on PATH's toolkit, else CUDA_HOME, else /usr/local/cuda): the CUDA Toolkit that builds (its nvcc), and whose compute-sanitizer and ncu run
ifndef CUDA_PATH
CUDA_PATH := $(or $(patsubst %/bin/nvcc,%,$(filter %/bin/nvcc,$(shell command -v nvcc 2>/dev/null))),$(CUDA_HOME),/usr/local/cuda)
endif
NVCC       ?= $(CUDA_PATH)/bin/nvcc
NVCC_FOUND := $(shell command -v $(firstword $(NVCC)) 2>/dev/null)
CC        := gcc

# Without a GPU, sm_75, the oldest the toolkit supports. SM wins over an NVCC_ARCH from the
# environment (a make above this one exports it), not over one on the command line.
##= SM=: the GPU architecture to build for, e.g. SM=90 for sm_90 (a change rebuilds)
##= NVCC_ARCH=(native, or sm_75 without a GPU): any -arch value nvcc takes, instead of SM
ifdef SM
ifneq ($(origin NVCC_ARCH),command line)
NVCC_ARCH := sm_$(SM)
endif
endif
ifndef NVCC_ARCH
NVCC_ARCH := $(shell nvidia-smi -L >/dev/null 2>&1 && echo native || echo sm_75)
endif
export NVCC_ARCH

NVCC_FLAGS      := -O3 -arch=$(NVCC_ARCH) -lineinfo -I$(COMMON) $(TYPE_FLAG) $(EXTRA_NVCC_FLAGS)
NVCC_LINK_FLAGS := -arch=$(NVCC_ARCH)
HOST_CFLAGS     := -std=c11 -O2 -Wall -Wextra -Werror -I$(COMMON) -I$(CUDA_PATH)/include $(TYPE_FLAG) $(EXTRA_CFLAGS)

# Builds that cannot be stale: every object depends on a stamp holding its command line (as
# the Linux kernel's .cmd files do), run every time (FORCE) but rewritten only when the
# line changes: `make SM=90` rebuilds what the flags touch, a second one nothing.
#   target: FORCE ; @$(call write_if_changed,TEXT)
squote := '
write_if_changed = mkdir -p $(@D) && printf '%s\n' '$(subst $(squote),'\$(squote)',$(strip $(1)))' | cmp -s - $@ || \
                   printf '%s\n' '$(subst $(squote),'\$(squote)',$(strip $(1)))' > $@
.PHONY: FORCE
FORCE:
# (FORCE is the first rule read: `all` stays what plain `make` builds)
.DEFAULT_GOAL := all

##= V=0: V=1 shows every compiler command (by default one line per kernel file)
V ?= 0
Q := $(if $(filter 1,$(V)),,@)
