#!/usr/bin/env bash
# Doxygen's filter for *.md (docs/Doxyfile's FILTER_PATTERNS): pictures from the site's image path, and
# a relative link (its text may span lines) to a file this tree lacks (lab/ or multi/ removed, a handout)
# shown as its text, not failing the site on an unresolved \ref. --text FILE: the dead links alone made
# text (make handout); --dead (make lint): FILE:LINE: TARGET per dead link of the .md files, exit 1 if any.
mode=doxygen files=("$@")
case ${1:-} in --text) mode=text files=("${@:2}") ;; --dead) mode=dead; mapfile -t files < <(find . -path ./build -prune -o -name '*.md' -print | sort) ;; esac
for file in "${files[@]}"; do
    awk -v dir="$(dirname "$file")" -v mode="$mode" -v file="${file#./}" '{ text = text $0 "\n" } END {
        while (match(text, /\[[^][]+\]\([^)\t\n ]+\)/)) {
            link = substr(text, RSTART, RLENGTH); out = out substr(text, 1, RSTART - 1); text = substr(text, RSTART + RLENGTH)
            target = link; sub(/^[^]]*\]\(/, "", target); sub(/[#)].*$/, "", target)
            if (target == "" || target ~ /^[a-z]+:/ || system("test -e \"" dir "/" target "\"") == 0) {
                if (mode == "doxygen") sub(/\]\(\.\.\/docs\/images\//, "](docs/images/", link)
                out = out link; continue }
            label = link; sub(/\]\([^)]*\)$/, "", label); out = out substr(label, 2)
            if (mode == "dead") { dead = 1; print file ":" gsub(/\n/, "\n", out) + 1 - gsub(/\n/, "\n", label) ": " target } }
        if (mode != "dead") printf "%s", out text
        exit dead }' "$file" || status=1
done
exit "${status:-0}"
