# The harness (common/), built once per type and architecture into the library every
# program links, build/TYPE/harness-ARCH/libharness.a, and main.o beside it (the one-GPU
# driver). The top Makefile's `harness` target builds it before the program folders, so
# that `make -j` never has two compile one object. Its own flags (not a folder's) serve
# every folder; each file is written under a temporary name and renamed, so that builds
# side by side (lab copies) never see half a file.

harness_empty :=
harness_comma := ,
harness_arch  := $(subst $(harness_empty) $(harness_empty),-,$(subst $(squote),,$(subst =,-,$(subst $(harness_comma),-,$(NVCC_ARCH)))))
# absolute paths: the command lines are the same from every folder
HARNESS_SRC   := $(abspath $(COMMON))
HARNESS_DIR   := $(abspath $(COMMON)/..)/build/$(TYPE)/harness-$(harness_arch)
HARNESS_LIB   := $(HARNESS_DIR)/libharness.a
HARNESS_MAIN_OBJ := $(HARNESS_DIR)/main.o
HARNESS_C     := harness gpu_slot options data results gpu passes diagnose
HARNESS_CU    := gate flush resources
HARNESS_LIB_OBJ := $(HARNESS_C:%=$(HARNESS_DIR)/%.o) $(HARNESS_CU:%=$(HARNESS_DIR)/%.o)

# The stamps leave out the tree's path, which differs between copies and changes no object.
harness_cflags    := -std=c11 -O2 -Wall -Wextra -Werror -I$(CUDA_PATH)/include $(TYPE_FLAG)
harness_nvccflags := -O3 -arch=$(NVCC_ARCH) -lineinfo $(TYPE_FLAG)
HARNESS_CFLAGS    := $(harness_cflags) -I$(HARNESS_SRC)
HARNESS_NVCCFLAGS := $(harness_nvccflags) -I$(HARNESS_SRC)

$(HARNESS_DIR)/cc.cmd: FORCE
	@$(call write_if_changed,$(CC) $(harness_cflags))
$(HARNESS_DIR)/nvcc.cmd: FORCE
	@$(call write_if_changed,$(NVCC) $(harness_nvccflags))

$(HARNESS_DIR)/%.o: $(HARNESS_SRC)/%.c $(HARNESS_DIR)/cc.cmd
	$(Q)$(CC) $(HARNESS_CFLAGS) -MMD -MP -MT $@ -MF $@.$$$$.dtmp -c $< -o $@.$$$$.tmp && mv -f $@.$$$$.dtmp $(@:.o=.d) && mv -f $@.$$$$.tmp $@
$(HARNESS_DIR)/%.o: $(HARNESS_SRC)/%.cu $(HARNESS_DIR)/nvcc.cmd
	$(Q)$(NVCC) $(HARNESS_NVCCFLAGS) -MMD -MP -MT $@ -MF $@.$$$$.dtmp -c $< -o $@.$$$$.tmp && mv -f $@.$$$$.dtmp $(@:.o=.d) && mv -f $@.$$$$.tmp $@
$(HARNESS_LIB): $(HARNESS_LIB_OBJ)
	$(if $(Q),@echo "  AR    harness library ($(TYPE), $(NVCC_ARCH))")
	$(Q)rm -f $@.$$$$.tmp && ar rcs $@.$$$$.tmp $^ && mv -f $@.$$$$.tmp $@

-include $(wildcard $(HARNESS_DIR)/*.d)
