# make lab's relabelling (lab/lab.sh relabel): FILE without its @file header, its STEP labels
# the lab copy's (.number, .name, .title, .citation, .idea), so that the two kernels' diff has
# no hunk there; fails unless STEP sets all five. Usage: awk -v k=K -v dir=DIR -v title=TITLE
# -v idea=IDEA -f lab/lab_relabel.awk FILE
# set(key, value): the value after ".key = " (a number or a quoted string) replaced
function set(key, value,    at, rest, end) {
    if (!(at = index($0, "." key " = "))) return
    rest = substr($0, at + length(key) + 4)
    if (substr(rest, 1, 1) == "\"") end = index(substr(rest, 2), "\"") + 1
    else { match(rest, /^-?[0-9]+/); end = RLENGTH }
    $0 = substr($0, 1, at + length(key) + 3) value substr(rest, end + 1)
    found[key]++
}
NR == 1 && /^\/\*\*/ { header = 1 }
header { if (/\*\//) header = 0; next }
/^extern "C" const step_info STEP = \{/ { step = 1 }
step {
    set("number", k); set("name", "\"lab/work/" dir "\""); set("title", "\"" title " (yours)\"")
    set("citation", "\"your lab copy of step " k "\""); set("idea", "\"" idea "\"")
    if ($0 ~ /^};/) step = 0
}
{ print }
END { exit !(found["number"] == 1 && found["name"] == 1 && found["title"] == 1 &&
             found["citation"] == 1 && found["idea"] == 1) }
