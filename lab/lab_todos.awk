# make lab's TODOs: prints step k-1's kernel A with a `// TODO(step K, i of m): ...` line
# before each place where step k's B differs (`diff A B`, normal format): where, how much,
# and the names B uses there that A never does.
# Usage: awk -v step=K -f lab/lab_todos.awk A B DIFF      (POSIX awk: mawk, gawk)

# A line's code, without comments and the contents of strings; in_comment carries /* */ on.
function code_of(line,    i, n, c, two, code, in_string) {
    code = ""
    n = length(line)
    in_string = 0
    for (i = 1; i <= n; i++) {
        c = substr(line, i, 1)
        two = substr(line, i, 2)
        if (in_comment) {
            if (two == "*/") { in_comment = 0; i++ }
            continue
        }
        if (in_string) {
            if (c == "\\") i++
            else if (c == "\"") in_string = 0
            continue
        }
        if (two == "//") break
        if (two == "/*") { in_comment = 1; i++; continue }
        if (c == "\"") { in_string = 1; code = code "\"\""; continue }
        code = code c
    }
    return code
}

# The name a definition line introduces: the identifier before its first "(" or "=".
function defined_name(code,    head) {
    head = code
    if (index(head, "(") > 0) head = substr(head, 1, index(head, "(") - 1)
    else if (index(head, "=") > 0) head = substr(head, 1, index(head, "=") - 1)
    sub(/[ \t]+$/, "", head)
    if (match(head, /[A-Za-z_][A-Za-z0-9_]*$/)) return substr(head, RSTART, RLENGTH)
    return ""
}

# Adds every identifier of `code` to the array `set`.
function add_names(code, set,    rest) {
    rest = code
    while (match(rest, /[A-Za-z_][A-Za-z0-9_]*/)) {
        set[substr(rest, RSTART, RLENGTH)] = 1
        rest = substr(rest, RSTART + RLENGTH)
    }
}

# `list` (", "-separated) with the names of `code` that A never uses added, but numbers,
# one-letter names and plain words.
function new_names_of(code, list,    rest, name) {
    rest = code
    while (match(rest, /[A-Za-z0-9_]+/)) {
        name = substr(rest, RSTART, RLENGTH)
        rest = substr(rest, RSTART + RLENGTH)
        if (name ~ /^[0-9]/ || length(name) < 2 || name in a_names || name in plain_words)
            continue
        if (index(", " list ", ", ", " name ", ") == 0)
            list = list (list == "" ? "" : ", ") name
    }
    return list
}

function indent_of(line) {
    match(line, /^[ \t]*/)
    return substr(line, 1, RLENGTH)
}
function plural(count, word) {
    return count " " word (count == 1 ? "" : "s")
}

BEGIN {
    split("if else for while do return break continue ifdef ifndef endif elif define undef include pragma unroll", words, " ")
    for (w in words) plain_words[words[w]] = 1
}
FILENAME == ARGV[1] {
    a_line[FNR] = $0
    a_in_comment[FNR] = in_comment
    a_depth[FNR] = depth
    a_context[FNR] = depth > 0 ? context : ""
    code = code_of($0)
    a_code[FNR] = code
    add_names(code, a_names)
    if (depth == 0 && index(code, "("))
        last_declaration = code
    opened = gsub(/\{/, "{", code)
    closed = gsub(/\}/, "}", code)
    if (depth == 0 && opened > closed)
        context = defined_name(index(code, "(") || index(code, "=") ? code : last_declaration)
    depth += opened - closed
    a_count = FNR
    next
}
FILENAME == ARGV[2] {
    if (FNR == 1) in_comment = 0
    b_line[FNR] = $0
    b_code[FNR] = code_of($0)
    next
}
# The diff: "12,14c12,15", "20a21,25", "30,31d29"; the < > lines are not needed.
/^[0-9]+(,[0-9]+)?[acd][0-9]+(,[0-9]+)?$/ {
    match($0, /[acd]/)
    kind = substr($0, RSTART, 1)
    n = split(substr($0, 1, RSTART - 1), left, ","); a1 = left[1] + 0; a2 = left[n] + 0
    n = split(substr($0, RSTART + 1), right, ","); b1 = right[1] + 0; b2 = right[n] + 0
    removed = 0; first_code = 0
    if (kind != "a")
        for (i = a1; i <= a2; i++)
            if (a_code[i] ~ /[^ \t]/) { removed++; if (!first_code) first_code = i }
    added = 0; first_added = 0
    new_list = ""
    if (kind != "d")
        for (i = b1; i <= b2; i++)
            if (b_code[i] ~ /[^ \t]/) {
                added++
                if (!first_added) first_added = i
                new_list = new_names_of(b_code[i], new_list)
            }
    if (removed == 0 && added == 0)
        next   # comments only
    # where the TODO goes: before the first changed code line, or where code is added
    if (first_code) at = first_code
    else if (kind == "a") at = a1 + 1
    else at = a2 + 1
    while (at <= a_count && a_in_comment[at]) at++
    end = kind == "a" ? a1 : a2
    # a new TODO, unless the change is a few lines after the previous one: it shares that
    if (!todos || at - todo_end[todos] > 3) {
        todo_at[++todos] = at
        if (at <= a_count && a_context[at] != "")
            todo_where[todos] = "in " a_context[at] (a_context[at] == "STEP" ? "" : "()")
        else if (removed && index(a_code[at], "(") && defined_name(a_code[at]) != "")
            todo_where[todos] = "in the declaration of " defined_name(a_code[at]) "()"
        else
            todo_where[todos] = "at file scope"
        todo_indent[todos] = removed ? indent_of(a_line[at]) : indent_of(b_line[first_added])
    }
    todo_removed[todos] += removed
    todo_added[todos] += added
    todo_names[todos] = new_names_of(new_list, todo_names[todos])
    todo_end[todos] = end
    next
}
# What our step does at TODO t, in words.
function todo_line(t,    removed, added, what) {
    removed = todo_removed[t]
    added = todo_added[t]
    if (removed == 0) what = "adds " plural(added, "line") " here"
    else if (added == 0) what = "removes " plural(removed, "code line") " here"
    else if (removed == 1 && added == 1) what = "changes the next code line"
    else if (removed == added) what = "changes the next " plural(removed, "code line")
    else what = "turns the next " plural(removed, "code line") " into " added
    return todo_indent[t] "// TODO(step " step ", " t " of " todos "): " todo_where[t] ", our step " step " " what \
        (todo_names[t] == "" ? "" : " (names it uses that this file does not: " todo_names[t] ")")
}
END {
    t = 1
    for (i = 1; i <= a_count + 1; i++) {
        while (t <= todos && todo_at[t] == i)
            print todo_line(t++)
        if (i <= a_count) print a_line[i]
    }
}
