# shellcheck shell=bash
# lab-check on the CPU where no GPU answers: lab/lab_check.sh's no_gpu sources this file (not
# lab-grade's: grading needs the GPU). The copy built by g++ (cpu/Makefile), checked at its
# sizes up to CPU_MAX_N; a failed size, a race or a deadlock is said and exits 1; a copy g++
# cannot build is said and not checked here; on_cpu tells no_gpu what passed.
# shellcheck disable=SC2154,SC2034  # lab/lab_check.sh's dest, sizes, built, log, t; on_cpu is its
cpu_rel=$(realpath -m --relative-to=. "$dest")
mapfile -t sizes < <(printf '%s\n' "${sizes[@]}" | awk -v m="${CPU_MAX_N:-2049}" '$1 <= m')
echo "== correctness on the CPU (cpu/README.md): threads in reverse order, shared memory watched for races, at ${#sizes[@]} sizes (${sizes[*]})"
on_cpu=", and its sums and shared memory are right on the CPU up to n = ${sizes[-1]}; its time, larger sizes and the sanitizers"
for t in $built; do
    if ! make -s --no-print-directory -C cpu TYPE="$t" STEPS="$cpu_rel" > "$log/cpu-$t.txt" 2>&1; then
        echo "not checked on the CPU: $(grep -m1 'error' "$log/cpu-$t.txt") (cpu/README.md says what it lacks)"
        on_cpu=""
        break
    fi
    check_sizes "build/cpu/$t/$cpu_rel/reduce" "$t" "${sizes[@]}" > "$log/sizes-$t.txt" ||
        { grep -v 'hint: a CUDA error\|--tool memcheck' "$log/sizes-$t.txt"; exit 1; }
    echo "PASS $t"
done
