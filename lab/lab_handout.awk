# make handout's copy of exercise k, from make lab's (LAB_DIR=START): paths in lab/work/, no
# "Going further" (on our step k), no answer named; from a withheld step B (chained=1): the
# header alone, with the code's TODO lines, for make lab to put on the student's step B.
# Usage: awk -v start=START -v b=STEPB_DIR -v k=K -v chained=0|1 -f lab/lab_handout.awk COPY
{ gsub(" LAB_DIR=" start, ""); gsub(start "/", "lab/work/") }
/^ \* ### Going further/ { skip = 1 }
skip && !/^ \* Afterwards, our answer/ { next }
/^ \* Afterwards, our answer/ { skip = 0; $0 = " * Afterwards, our answer: your course hands it out." }
chained { bk = substr(b, 5, index(b, "_") - 5); sub("puts step " bk "\047s kernel in", "puts your step " bk " in") }
chained && /^ \* This is step / { $0 = " * This is your own step " bk " (lab/work/" b "/reduce.cu), where you finished it." }
chained && /^ \* The TODO\(step / { $0 = " * The TODO(step " k ", ...) lines at the end of this comment say where our step " k " differs from it." }
chained && /^ \*\/$/ { while ((getline line < FILENAME) > 0)
                           if (line ~ /\/\/ TODO\(step /) { sub(/^[ \t]*\/\/ /, " * ", line)
                               sub(/the next code line/, "one code line", line); sub(/the next /, "", line); print line }
                       print; exit }
{ print }
