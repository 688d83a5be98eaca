# The CPU build (cpu/README.md): the top Makefile includes this file. make cpu builds every
# single-GPU step for the CPU (build/cpu/TYPE/STEP/reduce); make test runs cpu/tests.sh.
EXTENSIONS   += cpu
cpu_FOLDERS  := cpu
TARGET_FILES += cpu/cpu.mk
TEST_SUITES  += cpu/tests.sh
NO_NVCC_GOALS += cpu
.PHONY: cpu
## cpu: every single-GPU step built for the CPU (g++, no GPU, no nvcc), build/cpu/TYPE/STEP/reduce: --check and races on any machine
cpu:
	@$(MAKE) --no-print-directory -C cpu TYPE=$(TYPE) STEPS="$(STEPS)"
