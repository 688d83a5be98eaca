# make lint (tests/lint.sh), in the tests' own file. It needs doxygen and shellcheck: without
# either it says so in one line first, before building anything.
.PHONY: lint
ifneq ($(filter lint,$(MAKECMDGOALS)),)
LINT_MISSING := $(strip $(foreach tool,doxygen shellcheck,$(if $(shell command -v $(tool) 2>/dev/null),,$(tool))))
ifneq ($(LINT_MISSING),)
$(error make lint needs $(LINT_MISSING), not installed: apt-get install -y $(LINT_MISSING) (Debian, Ubuntu), or your system's package manager)
endif
endif

# The one program make lint runs (its --help against README's flags table): the first of the
# Makefile's STEPS, built alone
LINT_HELP_DIR := $(firstword $(STEPS))
export LINT_HELP_DIR

## lint: the line budgets (tests/budgets.txt), shellcheck on every script, the Doxygen site with zero warnings, every relative link of the .md files, make help and README against the code, README's length (no GPU needed; a git checkout)
lint: $(LINT_HELP_DIR)
	@tests/lint.sh $(PROGRAM_DIRS)
