# The CPU build (cpu/README.md): the top Makefile includes this file. make cpu builds every
# single-GPU step for the CPU (build/cpu/TYPE/STEP/reduce); make test runs cpu/tests.sh.
EXTENSIONS   += cpu
cpu_FOLDERS  := cpu
TARGET_FILES += cpu/cpu.mk
TEST_SUITES  += cpu/tests.sh
DOC_INPUTS   += cpu
NO_NVCC_GOALS += cpu cpu-pictures
.PHONY: cpu cpu-pictures
## cpu: every single-GPU step built for the CPU (g++, no GPU, no nvcc), build/cpu/TYPE/STEP/reduce: --check and races on any machine
cpu:
	@$(MAKE) --no-print-directory -C cpu TYPE=$(TYPE) STEPS="$(STEPS)"
## cpu-pictures: each single-GPU step's picture atop its README (docs/images: tree-STEP.svg for steps 0-7, loads-STEP.svg for the others), drawn from its kernel traced on the CPU
cpu-pictures:
	@$(MAKE) --no-print-directory -C cpu TYPE=int STEPS="$(STEPS)" pictures
