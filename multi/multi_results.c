/**
 * @file multi_results.c
 * @brief The multi-GPU tables (see multi_results.h).
 */
#include "multi_results.h"

#include <string.h>

/** The passed row with `gpus` GPUs at size n, or NULL. */
static const result_row *row_with(const result_row *rows, int count, unsigned long long n, int gpus)
{
    for (int i = 0; i < count; i++)
        if (rows[i].n == n && rows[i].gpus == gpus && row_passed(&rows[i]))
            return &rows[i];
    return NULL;
}

/**
 * Speedup of row r over one GPU at its n: the first passed 1-GPU row at that n (make
 * scaling runs step 12 --gpus 1 first), the same baseline for every setup. 0 when r failed
 * or there is no such row.
 */
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

void print_scaling_table(FILE *out, const result_row *rows, int count)
{
    if (count <= 0) {
        fprintf(out, "no results\n");
        return;
    }
    const result_row *head = &rows[first_passed(rows, count)];
    fprintf(out, "Scaling (%s sums), %s, median of %d runs, %s; speedup and efficiency over 1 GPU (the first "
            "1-GPU row at each n)\n", head->type, head->device, head->reps, cache_state(head));
    fprintf(out, "%-8s %-7s %-38s %4s %11s %10s %8s %10s %12s\n", "n", "step", "setup", "GPUs", "Time (us)", "GB/s",
            "speedup", "efficiency", "combine (us)");
    for (int i = 0; i < count; i++) {
        const result_row *r = &rows[i];
        char size_text[32], step_text[8];
        format_size_cell(size_text, sizeof size_text, rows, i);
        snprintf(step_text, sizeof step_text, "%.6s", r->step);
        if (!row_passed(r)) {
            fprintf(out, "%-8s %-7s %-38.38s %4d %11s\n", size_text, step_text, scaling_setup(r), r->gpus, "FAILED");
            continue;
        }
        char speedup[16] = "-", efficiency[16] = "-";
        double s = speedup_over_one(rows, count, r);
        if (s > 0) {
            snprintf(speedup, sizeof speedup, "%.2fx", s);
            snprintf(efficiency, sizeof efficiency, "%.0f%%", 100.0 * s / r->gpus);
        }
        fprintf(out, "%-8s %-7s %-38.38s %4d %11.1f %10.1f %8s %10s %12.1f\n", size_text, step_text, scaling_setup(r),
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
            fprintf(out, "crossover: %d GPUs, %s, beat 1 from n = %s on (and at every larger n measured)\n",
                    rows[i].gpus, scaling_setup(&rows[i]), size_text);
        else
            fprintf(out, "crossover: %d GPUs, %s, do not stay ahead of 1 at any n measured\n", rows[i].gpus,
                    scaling_setup(&rows[i]));
    }
}

int write_scaling_csv(const char *path, const result_row *rows, int count)
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

void print_multi_table(FILE *out, const result_row *rows, int count, const result_row *baseline)
{
    fprintf(out, "step12 on G GPUs, same n; speedup over step11 on one GPU (%.1f us)\n",
            baseline ? baseline->median_ms * 1e3 : 0.0);
    fprintf(out, "%-4s %11s %10s %8s %12s\n", "GPUs", "Time (us)", "GB/s", "speedup", "combine (us)");
    for (int i = 0; i < count; i++) {
        const result_row *r = &rows[i];
        if (!row_passed(r)) {
            fprintf(out, "%-4d %11s\n", r->gpus, "FAILED");
            continue;
        }
        char speedup[16] = "-";
        if (baseline && row_passed(baseline))
            snprintf(speedup, sizeof speedup, "%.2fx", baseline->median_ms / r->median_ms);
        fprintf(out, "%-4d %11.1f %10.1f %8s %12.1f\n", r->gpus, r->median_ms * 1e3, r->gbs, speedup,
                r->combine_ms * 1e3);
    }
}
