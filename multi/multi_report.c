/**
 * @file multi_report.c
 * @brief build/tools/multi_report: the multi-GPU steps' tables, from the rows their programs
 * appended: `make scaling`'s (steps 12 and 13 over n, setup and G) and `make run-all`'s table
 * of step 12 (usage: main()'s lines). Exits 1 if any row failed, 2 on bad usage or a file it
 * cannot write. main() is weak: the unit tests link this file with their own.
 */
#include "multi.h"

#include <stdio.h>
#include <string.h>

#include "csv_read.h"
#include "svg.h"
#include "tables.h"

#define MAX_ROWS 1024

/** The passed row with `gpus` GPUs at size n, or NULL. */
static const result_row *row_with(const result_row *rows, int count, unsigned long long n, int gpus)
{
    for (int i = 0; i < count; i++)
        if (rows[i].n == n && rows[i].gpus == gpus && row_passed(&rows[i]))
            return &rows[i];
    return NULL;
}

/** Speedup of row r over the first passed 1-GPU row at its n (step 12's), every setup's baseline; 0: none. */
static double speedup_over_one(const result_row *rows, int count, const result_row *r)
{
    const result_row *one = row_with(rows, count, r->n, 1);
    return (one && row_passed(r)) ? one->median_ms / r->median_ms : 0.0;
}

const char *scaling_setup(const result_row *r)
{
    const char *comma = strstr(r->label, ", ");
    return comma ? comma + 2 : "";
}

unsigned long long scaling_crossover(const result_row *rows, int count, int gpus, const char *setup)
{
    unsigned long long crossover = 0;
    for (int i = 0; i < count; i++) {   /* sizes in increasing order, as make scaling runs them */
        if (rows[i].gpus != gpus || !row_passed(&rows[i]) || (setup && strcmp(scaling_setup(&rows[i]), setup) != 0))
            continue;
        const result_row *one = row_with(rows, count, rows[i].n, 1);
        if (!one)
            continue;
        if (rows[i].median_ms < one->median_ms) {
            if (crossover == 0)
                crossover = rows[i].n;
        } else {
            crossover = 0;   /* slower again: the crossover lies above */
        }
    }
    return crossover;
}

/** How the combine column is timed, and nccl-tests' way beside it: their figures differ by method. */
static void print_combine_method(void)
{
    printf("combine: the combine alone, between flushes behind a gate, the median of the runs. nccl-tests'\n"
           "all_reduce_perf -b 4 -e 4 times 20 calls back to back and reports their mean: expect its figure below ours\n");
}

/** make scaling's table: per n, setup and G, time, GB/s, speedup, efficiency, the combine; each crossover. */
static void print_scaling_table(const result_row *rows, int count)
{
    const result_row *head = &rows[first_passed(rows, count)];
    printf("Scaling (%s sums), %s, median of %d runs, %s; speedup and efficiency over 1 GPU (the first "
           "1-GPU row at each n)\n", head->type, head->device, head->reps, cache_state(head));
    printf("%-8s %-7s %-38s %4s %11s %10s %8s %10s %12s\n", "n", "step", "setup", "GPUs", "Time (us)", "GB/s",
           "speedup", "efficiency", "combine (us)");
    for (int i = 0; i < count; i++) {
        const result_row *r = &rows[i];
        char size_text[32], step_text[8];
        format_size_cell(size_text, sizeof size_text, rows, i);
        snprintf(step_text, sizeof step_text, "%.6s", r->step);
        if (!row_passed(r)) {
            printf("%-8s %-7s %-38.38s %4d %11s\n", size_text, step_text, scaling_setup(r), r->gpus, "FAILED");
            continue;
        }
        char speedup[16] = "-", efficiency[16] = "-";
        double s = speedup_over_one(rows, count, r);
        if (s > 0) {
            snprintf(speedup, sizeof speedup, "%.2fx", s);
            snprintf(efficiency, sizeof efficiency, "%.0f%%", 100.0 * s / r->gpus);
        }
        printf("%-8s %-7s %-38.38s %4d %11.1f %10.1f %8s %10s %12.1f\n", size_text, step_text, scaling_setup(r),
               r->gpus, r->median_ms * 1e3, r->gbs, speedup, efficiency, r->combine_ms * 1e3);
    }
    /* one crossover line per setup and G > 1, in the order they first appear */
    for (int i = 0; i < count; i++) {
        int seen = rows[i].gpus < 2;
        for (int j = 0; j < i && !seen; j++)
            seen = rows[j].gpus == rows[i].gpus && strcmp(scaling_setup(&rows[j]), scaling_setup(&rows[i])) == 0;
        if (seen)
            continue;
        unsigned long long c = scaling_crossover(rows, count, rows[i].gpus, scaling_setup(&rows[i]));
        char size_text[32];
        format_size(size_text, sizeof size_text, c);
        if (c)
            printf("crossover: %d GPUs, %s, beat 1 from n = %s on (and at every larger n measured)\n",
                   rows[i].gpus, scaling_setup(&rows[i]), size_text);
        else
            printf("crossover: %d GPUs, %s, do not stay ahead of 1 at any n measured\n", rows[i].gpus,
                   scaling_setup(&rows[i]));
    }
    print_combine_method();
}

/** The scaling table as CSV: step, setup, n, gpus, median us, GB/s, speedup, efficiency, combine us, status. */
static int write_scaling_csv(const char *path, const result_row *rows, int count)
{
    FILE *out = create_csv(path, "step,setup,n,gpus,median_us,gbs,speedup,efficiency,combine_us,status");
    if (!out)
        return -1;
    for (int i = 0; i < count; i++) {
        const result_row *r = &rows[i];
        double s = speedup_over_one(rows, count, r);
        fprintf(out, "%s,", r->step);
        csv_write_field(out, scaling_setup(r));   /* quoted, a quote doubled: the one CSV writer */
        fprintf(out, ",%llu,%d,%.2f,%.2f,%.3f,%.3f,%.2f,%s\n", r->n, r->gpus, r->median_ms * 1e3, r->gbs, s,
                r->gpus > 0 ? s / r->gpus : 0.0, r->combine_ms * 1e3, r->status);
    }
    return close_csv(out);
}

/** `scaling`: the table, its CSV, the chart (a line per step, setup and G). NULL, or the path it cannot write. */
static const char *report_scaling(const result_row *rows, int count, const char *csv_path, const char *svg_path)
{
    static result_row lines[MAX_ROWS];
    print_scaling_table(rows, count);
    if (write_scaling_csv(csv_path, rows, count) != 0)
        return csv_path;
    for (int i = 0; i < count; i++) {
        lines[i] = rows[i];
        snprintf(lines[i].step, sizeof lines[i].step, "%.20s %.38s %d", rows[i].step, scaling_setup(&rows[i]),
                 rows[i].gpus);
        snprintf(lines[i].label, sizeof lines[i].label, "%.6s, %d GPU%s, %.60s", rows[i].step, rows[i].gpus,
                 rows[i].gpus == 1 ? "" : "s", scaling_setup(&rows[i]));
    }
    if (svg_write_sweep_chart(svg_path, lines, count) != 0)
        return svg_path;
    printf("\nWrote %s and %s\n", csv_path, svg_path);
    return NULL;
}

/** `multi`: run-all's rows of steps 12 and 15 (one per step and G), their speedup over `baseline`'s in RUN-ALL-ROWS. */
static void report_multi(const result_row *rows, int count, const char *run_rows_path, const char *baseline)
{
    static result_row run[MAX_ROWS];
    int run_count = csv_read_all(run_rows_path, run, MAX_ROWS);
    const result_row *base = NULL;
    for (int i = 0; i < run_count; i++)
        if (strcmp(run[i].step, baseline) == 0)
            base = &run[i];
    printf("The multi-GPU steps on G GPUs, same n; speedup over %s on one GPU (%.1f us)\n", baseline,
           base ? base->median_ms * 1e3 : 0.0);
    printf("%-7s %-4s %11s %10s %8s %12s\n", "step", "GPUs", "Time (us)", "GB/s", "speedup", "combine (us)");
    for (int i = 0; i < count; i++) {
        const result_row *r = &rows[i];
        char speedup[16] = "-";
        if (!row_passed(r)) {
            printf("%-7.6s %-4d %11s\n", r->step, r->gpus, "FAILED");
            continue;
        }
        if (base && row_passed(base))
            snprintf(speedup, sizeof speedup, "%.2fx", base->median_ms / r->median_ms);
        printf("%-7.6s %-4d %11.1f %10.1f %8s %12.1f\n", r->step, r->gpus, r->median_ms * 1e3, r->gbs, speedup,
               r->combine_ms * 1e3);
    }
    print_combine_method();
}

__attribute__((weak)) int main(int argc, char **argv)
{
    static result_row rows[MAX_ROWS];
    int scaling = argc == 5 && strcmp(argv[1], "scaling") == 0;
    if (!scaling && !(argc == 5 && strcmp(argv[1], "multi") == 0)) {
        fprintf(stderr, "usage: multi_report scaling ROWS.csv OUT.csv OUT.svg\n"
                        "       multi_report multi ROWS.csv RUN-ALL-ROWS.csv BASELINE\n");
        return 2;
    }
    int count = csv_read_some("multi_report", argv[2], rows, MAX_ROWS);
    if (count == 0)
        return 1;
    const char *unwritten = NULL;
    if (scaling)
        unwritten = report_scaling(rows, count, argv[3], argv[4]);
    else
        report_multi(rows, count, argv[3], argv[4]);
    if (unwritten) {
        fprintf(stderr, "multi_report: cannot write '%s'\n", unwritten);
        return 2;
    }
    return any_failed(rows, count);
}
