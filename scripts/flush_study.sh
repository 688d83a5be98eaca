#!/usr/bin/env bash
# What the L2 flush before each timed run costs the run (issue 41), on one GPU, everything
# written under $OUT (results/flush_study without it):
#   ncu.csv        step 11's kernel under Nsight Compute after each flush (--flush write, the
#                  memset; --flush read, clean; --hot), int and float, at 2^26 and 2^28: the
#                  DRAM bytes it writes and reads, and its time, with their units (ncu keeps
#                  our flush: --cache-control none; clocks as they are: --clock-control none)
#   rows.csv       step 11 and CUB timed with each flush at 2^20 ... 2^30, int and float,
#                  median of REPS runs (the programs' own --csv rows; l2_flushed: 0 hot,
#                  1 write, 2 read)
#   fit.csv        t = c + bytes / b per program, type and flush, least squares over the sizes
#   method.csv     the method alone with each flush (build/tools/method, scripts/method.cu):
#                  nothing and an empty kernel between the events (the floor), and a
#                  device-to-device copy (the practical bandwidth limit), and the flush itself
#   study.txt      all of it as tables for people; logs/ the raw output of every command
# Usage: OUT=DIR scripts/flush_study.sh   (DEVICE=0, STUDY_REPS=50; about 5 minutes on an H100)
set -euo pipefail
cd "$(dirname "$0")/.." || exit
. scripts/gpus.sh   # find_ncu, NCU_MISSING, gpu_missing
out=${OUT:-results/flush_study}
device=${DEVICE:-0}
reps=${STUDY_REPS:-50}
sizes=(2^20 2^24 2^26 2^28 2^30)
ncu_sizes=(2^26 2^28)
flushes=(write read hot)
missing=$(gpu_missing)
[ -z "$missing" ] || { echo "flush_study: not run, $missing" >&2; exit 3; }
mkdir -p "$out/logs"
table() { column -s, -t "$1" 2> /dev/null || cat "$1"; }
flag() { if [ "$1" = hot ]; then echo --hot; else echo "--flush=$1"; fi; }

# the whole study; its output goes to study.txt too
study() {
echo "== build: step 11, CUB (int, float), the report tool, the method tool"
{
    make --no-print-directory -j"$(nproc)" harness step11_single_pass cub_reference build/tools/report &&
        make --no-print-directory -j"$(nproc)" TYPE=float harness step11_single_pass cub_reference &&
        "$(make -s --no-print-directory print-NVCC)" -O3 -arch="$(make -s --no-print-directory print-NVCC_ARCH)" \
            -Icommon -o build/tools/method scripts/method.cu "$(make -s --no-print-directory print-HARNESS_LIB)"
} > "$out/logs/build.txt" 2>&1 || { tail -20 "$out/logs/build.txt"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv -i "$device" | tee "$out/logs/gpu.txt" || true

echo
echo "== 1. DRAM bytes of step 11's timed kernel (reduce_pass, its 2nd launch: 1 warm-up, 1 timed run)"
if ! ncu=$(find_ncu); then
    echo "skipped: $NCU_MISSING"
else
    "$ncu" --version | tail -1
    echo "type,n,flush,dram_bytes_write,unit,dram_bytes_read,unit,gpu_time,unit" > "$out/ncu.csv"
    metrics=dram__bytes_write.sum,dram__bytes_read.sum,gpu__time_duration.sum
    for suffix in "" _float; do
        for n in "${ncu_sizes[@]}"; do
            for flush in "${flushes[@]}"; do
                log=$out/logs/ncu${suffix}_${n/^/}_$flush.txt
                # application replay: a metric that needs a second pass reruns the program,
                # flush and all, rather than restore memory (which would dirty L2 itself)
                if ! "$ncu" --cache-control none --clock-control none --replay-mode application \
                       --kernel-name-base function --kernel-id ::reduce_pass:2 --metrics "$metrics" \
                       --csv --page raw --print-units base \
                       "./step11_single_pass/reduce$suffix" -n "$n" -r 1 --warmup 1 --no-gate --device "$device" --quiet \
                       "$(flag "$flush")" > "$log" 2>&1; then
                    echo "ncu failed: $(grep -m1 -E 'ERR|rror' "$log" || tail -1 "$log")"
                    continue
                fi
                # the header row, the units row, the kernel's row: each metric by its name
                grep -E '^"' "$log" | awk -F'","' -v t="${suffix:-_int}" -v n="$n" -v f="$flush" -v m="$metrics" '
                    NR == 1 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); col[$i] = i } }
                    NR == 2 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); unit[i] = $i } }
                    NR == 3 { k = split(m, names, ","); line = substr(t, 2) "," n "," f
                              for (j = 1; j <= k; j++) { i = col[names[j]]; v = $i; gsub(/[",]/, "", v)
                                                         line = line "," v "," unit[i] }
                              print line }' >> "$out/ncu.csv" || true
                grep -q "^${suffix:-_int},$n,$flush," <(sed 's/^/_/' "$out/ncu.csv") ||
                    echo "ncu profiled no reduce_pass for ${suffix:-_int} $n $flush: see $log"
            done
        done
    done
    table "$out/ncu.csv"
fi

echo
echo "== 2. step 11 and CUB, median of $reps runs, with each flush (a dot per run)"
rm -f "$out/rows.csv"
for suffix in "" _float; do
    for n in "${sizes[@]}"; do
        printf '%-6s n = %-5s' "${suffix:-_int}" "$n"
        for program in step11_single_pass/reduce cub_reference/reduce; do
            for flush in "${flushes[@]}"; do
                if "./$program$suffix" -n "$n" -r "$reps" --device "$device" --quiet --csv "$out/rows.csv" \
                       "$(flag "$flush")" >> "$out/logs/runs.txt" 2>&1; then printf .
                else printf ' %s %s FAILED' "$program$suffix" "$flush"; fi
            done
        done
        echo
    done
done
field() { build/tools/report field "$out/rows.csv" "$1"; }
echo
echo "time in us (% of peak), and CUB's time / step 11's with the same flush"
paste -d, <(field type) <(field n) <(field step) <(field l2_flushed) <(field median_ms) <(field gbs) <(field peak_gbs) |
    awk -F, '{ key = $1 " " $2; if (!(key in seen)) { seen[key] = 1; order[++count] = key }
               t[key, $3, $4] = sprintf("%9.1f (%4.1f%%)", $5 * 1000, 100 * $6 / $7); ms[key, $3, $4] = $5 }
         END { printf "%-6s %-11s %-16s %-16s %-16s %-16s %-16s %-16s %7s %7s %7s\n", "type", "n", "step11 write",
                      "step11 read", "step11 hot", "cub write", "cub read", "cub hot", "x write", "x read", "x hot"
               for (c = 1; c <= count; c++) { k = order[c]; split(k, p, " "); line = sprintf("%-6s %-11s", p[1], p[2])
                   for (s = 0; s < 2; s++) for (f = 0; f < 3; f++) {
                       fl = f == 2 ? 0 : f + 1; st = s ? "cub_reference" : "step11_single_pass"
                       line = line " " sprintf("%-16s", t[k, st, fl]) }
                   for (f = 0; f < 3; f++) { fl = f == 2 ? 0 : f + 1; a = ms[k, "step11_single_pass", fl]
                       line = line sprintf(" %6.3fx", a > 0 ? ms[k, "cub_reference", fl] / a : 0) }
                   print line } }'

echo
echo "== 3. the fit per program, type and flush, over ${sizes[*]}"
build/tools/report fit "$out/rows.csv" "$out/fit.csv"

echo
echo "== 4. the method alone (the harness's slot: flush, gate, events), median of $reps runs, 1 GiB buffer"
if build/tools/method -n 2^28 -r "$reps" --device "$device" > "$out/method.csv" 2> "$out/logs/method.txt"; then
    table "$out/method.csv"
else
    echo "method failed: $(head -1 "$out/logs/method.txt")"
fi
echo
echo "wrote $out: study.txt, ncu.csv, rows.csv, fit.csv, method.csv, logs/"
}
study 2>&1 | tee "$out/study.txt"
exit "${PIPESTATUS[0]}"
