#!/usr/bin/env bash
# make lint: the checks of the text around the code, no GPU needed, one line each: docs (the
# Doxygen site, zero warnings), links (of every .md), budgets (tests/budgets.txt: the layers,
# bash, each script, and the ratchet), scripts (shellcheck), help (every target, each
# variable's true default), readme (the flags of --help, its length, what it must say).
# Without doxygen or shellcheck the check FAILS, saying how to install it. Last line "N passed,
# N failed"; exit 1 if any failed. Usage: tests/lint.sh PROGRAM_DIR... (make lint passes them).
# No -e: a command that fails is a FAIL line to count, and the run goes on to the next check.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. scripts/gpus.sh   # make_var, usage
type=${TYPE:-int} suffix=${SUFFIX-}
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || usage "tests/lint.sh PROGRAM_DIR... (make lint passes them)"
passed=0 failed=0
log=build/$type/lint-log
mkdir -p "$log"

pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1${2:+: $2}"; failed=$((failed + 1)); }
# result NAME STATUS DETAIL: pass NAME when STATUS (a condition's $?) is 0, else fail it with DETAIL
result() { if [ "$2" -eq 0 ]; then pass "$1"; else fail "$1" "$3"; fi; }
# ---------------------------------------------------------------- docs
if command -v doxygen > /dev/null 2>&1; then
    if make --no-print-directory docs > "$log/docs.txt" 2>&1; then
        pass "docs build with zero warnings"
        # every relative link of the site leads to a page of it (Doxygen makes a README's link
        # to a source file, or text such as file:line, a link to nowhere)
        dead=$(cd docs/html && grep -ho 'href="[^"]*"' ./*.html | sed 's/^href="//; s/"$//; s/#.*//' |
               grep -vE '^(https?:|mailto:|$)' | sort -u | while read -r target; do
                   [ -e "$target" ] || printf '%s ' "$target"; done)
        [ -z "$dead" ] && grep -q 'docs/html' "$log/docs.txt"
        result "docs: every link of the site leads somewhere, and make docs says where the site is" $? \
               "dead: ${dead:-none}; said: $(tail -1 "$log/docs.txt")"
    else
        fail "docs build with zero warnings" "see $log/docs.txt"
        tail -5 "$log/docs.txt"
    fi
else
    fail "docs build with zero warnings" "doxygen not installed: apt-get install -y doxygen (Debian, Ubuntu), dnf install doxygen, brew install doxygen"
fi
scripts/md_filter.sh --dead > "$log/links.txt"
result "links: every relative link of the .md files leads to a file" $? "dead: $(paste -sd';' "$log/links.txt")"
# ---------------------------------------------------------------- budgets
# One rule (tests/budgets.txt's header): git's files but the prose and the lessons' kernels.
counted() { git ls-files -- "$@" 2> /dev/null | grep -vE '\.(md|svg)$|^docs/|^step[^/]*/.*\.cu$'; }
lines_of() { counted "$@" | tr '\n' '\0' | xargs -0 -r cat -- | wc -l; }
budget() { awk -v k="$1" '$1 == k { print $2 }' "${2:-tests/budgets.txt}"; }
# is_script FILE: a shell script: *.sh, or a bash #! line (the scripts section checks these too)
is_script() { [[ $1 == *.sh ]] || head -c 40 "$1" 2> /dev/null | grep -q '^#!.*bash'; }
bash_scripts() { git ls-files --cached "$@" | while IFS= read -r f; do is_script "$f" && echo "$f"; done; }
if ! git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    fail "budgets: every layer within its line budget" "not a git checkout: the budgets count git's files"
else
    over="" named=() total=0
    while read -r what most; do
        case $what in ''|'#'*|total|whole|bash|script|other) continue ;; esac
        named+=(":(exclude)$what") got=$(lines_of "$what")
        [ "$what" = cpu ] || total=$((total + got))
        [ "$got" -le "$most" ] || over+=" $what $got > $most;"
    done < tests/budgets.txt
    got=$(lines_of . "${named[@]}") total=$((total + got))
    [ "$got" -le "$(budget other)" ] || over+=" other (outside the named folders) $got > $(budget other);"
    [ "$total" -le "$(budget total)" ] || over+=" total $total > $(budget total);"
    whole=$((total + $(lines_of cpu)))
    [ "$whole" -le "$(budget whole)" ] || over+=" whole (cpu/ too) $whole > $(budget whole);"
    mapfile -t scripts < <(bash_scripts)
    bash_lines=$(printf '%s\n' "${scripts[@]}" | grep -v '^cpu/' | xargs cat | wc -l)   # cpu/'s: in its own
    [ "$bash_lines" -le "$(budget bash)" ] || over+=" bash $bash_lines > $(budget bash);"
    for script in "${scripts[@]}"; do
        got=$(wc -l < "$script")
        [ "$got" -le "$(budget script)" ] || over+=" $script $got > $(budget script) (a script);"
    done
    if [ -z "$over" ]; then pass "budgets: every layer within its line budget (tests/budgets.txt), $total lines of $(budget total), bash $bash_lines of $(budget bash)"
    else fail "budgets: every layer within its line budget (tests/budgets.txt)" "over:$over"; fi
    # The ratchet, against the last commit (a change not yet committed) and the one before
    # it (the last commit's own change): total, whole, cpu (reserved), bash and script never
    # rise; a layer's number may rise only by what other layers' numbers fall in the same
    # change (a new layer rises from 0, a gone one falls to 0): together they never rise.
    for rev in HEAD HEAD~1; do
        if ! git show "$rev:tests/budgets.txt" > "$log/budgets-$rev.txt" 2> /dev/null; then
            echo "     (budgets: no tests/budgets.txt at $rev, so no ratchet against it)"; continue
        fi
        raised=$(awk 'FNR == NR { if ($1 !~ /^#/ && NF == 2) before[$1] = $2; next }
                      $1 !~ /^#/ && NF == 2 { now[$1] = $2 }
                      END { for (k in before) if (!(k in now)) now[k] = 0
                            for (k in now) {
                                if (k ~ /^(total|whole|cpu|bash|script)$/) {
                                    if (k in before && now[k] > before[k]) printf " %s %d > %d;", k, now[k], before[k]
                                    continue }
                                sum_now += now[k]; sum_before += before[k]
                                if (now[k] > before[k]) up = up sprintf(" %s %d > %d,", k, now[k], before[k]) }
                            if (sum_now > sum_before) printf "%s not paid: the layers together %d > %d;", up, sum_now, sum_before }' \
                    "$log/budgets-$rev.txt" tests/budgets.txt)
        result "budgets only go down: none above $rev's, a layer's rise paid by others" "$([ -z "$raised" ]; echo $?)" "raised:$raised"
    done
fi
# ---------------------------------------------------------------- scripts
# every script, untracked ones too (.shellcheckrc lets shellcheck follow what they source)
mapfile -t scripts < <(bash_scripts --others --exclude-standard)
if [ ${#scripts[@]} -lt 10 ]; then
    fail "shellcheck: every script" "found ${#scripts[@]} scripts only (git ls-files)"
elif command -v shellcheck > /dev/null 2>&1; then
    for script in "${scripts[@]}"; do
        shellcheck -f gcc "$script" > "$log/shellcheck.txt" 2>&1
        result "shellcheck $script" $? "$(wc -l < "$log/shellcheck.txt") findings, the first: $(head -1 "$log/shellcheck.txt")"
    done
else
    fail "shellcheck: every script" "shellcheck not installed: apt-get install -y shellcheck (Debian, Ubuntu), dnf install ShellCheck, brew install shellcheck"
fi
# ---------------------------------------------------------------- make help
# The targets: the .PHONY lists of TARGET_FILES, step.mk's and the program folders' own
# (step 4's race-demo), but internal ones. A variable's true default: make's own (print-VAR,
# from an empty environment), or ${VAR:-default} in the script that documents it.
make --no-print-directory help > "$log/help.txt" 2>&1
makefiles=("${dirs[@]/%//Makefile}")
read -ra target_files <<< "$(make --no-print-directory -s print-TARGET_FILES)"
read -ra help_files <<< "$(make --no-print-directory -s print-HELP_FILES)"
phony=$(awk '/^\.PHONY:/ { on = 1 } on { print; if ($0 !~ /\\$/) on = 0 }' "${target_files[@]}" common/step.mk "${makefiles[@]}" |
        tr ' \134' '\n' | grep -vE '^(\.PHONY:|\$\(.*\)|programs|sanitize-flags|FORCE|)$' | sort -u)
missing=$(for t in $phony; do grep -qE "^  (-C [^ ]+ )?([a-z0-9|_-]*\|)?$t([ :|]|$)" "$log/help.txt" || echo "$t"; done | tr '\n' ' ')
if [ -n "$phony" ] && [ -z "$missing" ]; then pass "make help lists every target ($(wc -w <<< "$phony") of them)"
else fail "make help lists every target" "missing: ${missing:-the .PHONY list was not found}"; fi
wrong=""
while IFS= read -r line; do
    file=${line%%:*} line=${line#*:##= }
    name=${line%%=*} value=${line#*=}
    value=${value%%: *} value=${value#\"} value=${value%\"}
    case $value in "("*) continue ;; esac   # a default that depends on the machine, in words
    case $file in
        *.sh) grep -qF "\${$name:-$value}" "$file" || wrong="$wrong $name ($file has no \${$name:-$value})" ;;
        *) actual=$(env -i PATH="$PATH" HOME="${HOME:-/}" make --no-print-directory -s "print-$name")
           [ "$actual" = "$value" ] || wrong="$wrong $name (make says '$actual', help '$value')" ;;
    esac
done < <(grep -H '^##= ' "${help_files[@]}")
count=$(grep -c '^  [A-Z_]*=' "$log/help.txt")
for name in TYPE N REPS SIZES SM NVCC_ARCH CUDA_PATH DEVICE V; do
    grep -q "^  $name=" "$log/help.txt" || wrong="$wrong $name (not in make help)"
done
if [ -z "$wrong" ] && [ "$count" -ge 12 ]; then pass "make help shows every variable with its real default ($count of them)"
else fail "make help shows every variable with its real default" "${wrong:-only $count variables}"; fi
# ---------------------------------------------------------------- README
# the flags: those the one-GPU programs' --help names (asked of LINT_HELP_DIR's, the first
# step, which make lint builds; an extension's suite checks its own), -n's notations too
table=$(awk '/^\| flag \| meaning \|/ { on = 1 } on && !/^\|/ { exit } on' README.md)
helps=$("$(make_var LINT_HELP_DIR)/reduce$suffix" --help 2>&1)
flags=$(echo "$helps" | grep -oE -- '(^|[ ,(])(--[a-z][a-z-]*|-[a-z],|2\^K[+-]M)' | sed 's/^[ ,(]//; s/,$//' | sort -u)
missing=$(for f in $flags; do grep -qF -e "\`$f" -e ", $f" <<< "$table" || echo "$f"; done | tr '\n' ' ')
count=$(wc -w <<< "$flags")
[ -n "$table" ] && [ "$count" -ge 17 ] && [ -z "$missing" ]
result "README's flags table lists every flag of --help ($count)" $? "missing: ${missing:-the table, or flags in --help}"
grep -qF 'make test TYPE=float' README.md && grep -qF 'make test TYPE=double' README.md && grep -qF 'make clean' README.md
result "README says make test TYPE=float, TYPE=double and make clean" $? "one of them is not in README.md"
# README is a newcomer's page: short, and no run log (a commit hash names one)
hashes=$(grep -oE '\b[0-9a-f]{7,40}\b' README.md | grep '[a-f]' | grep '[0-9]' | paste -sd' ')
[ "$(wc -l < README.md)" -le 350 ] && [ -z "$hashes" ]
result "README is at most 350 lines and names no commit" $? "$(wc -l < README.md) lines; ${hashes:-no hash}"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
