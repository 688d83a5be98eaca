#!/usr/bin/env bash
# Doxygen's filter for *.md (docs/Doxyfile's FILTER_PATTERNS): pictures from the site's image
# path, and a link to a page this copy of the tree lacks (an extension removed: lab/, multi/;
# a course's handout) shown as its text rather than failing the site on an unresolved \ref
awk -v dir="$(dirname "$1")" '
{
    gsub(/\]\(\.\.\/docs\/images\//, "](docs/images/")
    out = ""
    while (match($0, /\[[^]]*\]\([^)#]*\.md(#[^)]*)?\)/)) {
        link = substr($0, RSTART, RLENGTH)
        text = link; sub(/\]\(.*$/, "", text); sub(/^\[/, "", text)
        target = link; sub(/^.*\]\(/, "", target); sub(/[#)].*$/, "", target)
        out = out substr($0, 1, RSTART - 1) (system("test -e \"" dir "/" target "\"") == 0 ? link : text)
        $0 = substr($0, RSTART + RLENGTH)
    }
    print out $0
}' "$1"
