# The "## Exercise" section of a step's README: every line up to the next "## " heading
# ("### " stays in), without the blank lines around it; exits 1 when there is none. make
# lab copies it into the copy's header and lab/tests.sh checks that it did: one reading.
# Usage: awk -f lab/lab_exercise.awk stepK_name/README.md      (POSIX awk: mawk, gawk)

/^## / { inside = ($0 ~ /^## Exercise[ \t]*$/); if (inside) { found = 1; next } }
inside && (printed || $0 ~ /[^ \t]/) {
    for (; blanks > 0; blanks--)
        print ""
    if ($0 ~ /[^ \t]/) {
        print
        printed = 1
    } else {
        blanks++
    }
}
END { exit !found }
