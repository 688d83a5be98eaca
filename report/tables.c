/** @file tables.c
 * @brief The tables of make run-all and make sweep (see tables.h) from the programs' rows (results.h). */
#include "tables.h"

#include <stdlib.h>
#include <string.h>

int first_passed(const result_row *rows, int count)
{
    for (int i = 0; i < count; i++)
        if (row_passed(&rows[i]))
            return i;
    return 0;
}

FILE *create_csv(const char *path, const char *header)
{
    FILE *f = fopen(path, "w");
    if (f)
        fprintf(f, "%s\n", header);
    return f;
}

int close_csv(FILE *f)
{
    int failed = ferror(f);
    return (fclose(f) != 0 || failed) ? -1 : 0;
}

/** 1 if the row is a step's: its program is named stepN_... (the Makefile's STEPS). */
static int is_step_row(const result_row *row)
{
    return strncmp(row->step, "step", 4) == 0 && row->step[4] >= '0' && row->step[4] <= '9';
}

speedups compute_speedups(const result_row *rows, int count, int i, int reference_index)
{
    speedups s = { 0.0, 0.0, 0.0 };
    if (i < 0 || i >= count || !row_passed(&rows[i]))
        return s;
    /* a step's speedup is over the step above it; a library's row (CUB) has none */
    if (i > 0 && is_step_row(&rows[i]) && is_step_row(&rows[i - 1]) && row_passed(&rows[i - 1]))
        s.step = rows[i - 1].median_ms / rows[i].median_ms;
    if (row_passed(&rows[0]))
        s.cumulative = rows[0].median_ms / rows[i].median_ms;
    if (reference_index >= 0 && reference_index < count && row_passed(&rows[reference_index]) &&
        rows[reference_index].gbs > 0.0)
        s.vs_reference = rows[i].gbs / rows[reference_index].gbs;
    return s;
}

/** 1 if `name` is one of the comma-separated names in `list`. */
static int name_in_list(const char *name, const char *list)
{
    size_t length = strlen(name);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, length) == 0 && (p[length] == ',' || p[length] == '\0'))
            return 1;
    return 0;
}

int fastest_reference(const result_row *rows, int count, const char *candidates, unsigned long long n)
{
    int best = -1;
    for (int i = 0; i < count; i++)
        if ((n == 0 || rows[i].n == n) && row_passed(&rows[i]) && name_in_list(rows[i].step, candidates) &&
            (best < 0 || rows[i].gbs > rows[best].gbs))
            best = i;
    return best;
}

/** A speedup as "2.33x" in `buf` (16 bytes), or blank when there is none; returns buf. */
static const char *ratio_text(char *buf, double ratio)
{
    buf[0] = '\0';
    if (ratio > 0.0)
        snprintf(buf, 16, "%.2fx", ratio);
    return buf;
}

void print_run_table(FILE *out, const result_row *rows, int count, int reference_index)
{
    if (count <= 0) {
        fprintf(out, "no results\n");
        return;
    }
    const result_row *head = &rows[first_passed(rows, count)];
    char n_text[32], bytes_text[32];
    format_count(n_text, sizeof n_text, head->n);
    format_bytes(bytes_text, sizeof bytes_text, head->bytes);
    int floats = strcmp(rows[0].type, "int") != 0;   /* float or double: a relative error column */
    fprintf(out, "Sum of %s %s (%s), %s, peak %.0f GB/s, median of %d runs, %s\n", n_text, head->type,
            bytes_text, head->device, head->peak_gbs, head->reps, cache_state(head));
    fprintf(out, "%-42s %9s %17s %7s %13s %11s %7s", "Step", "Time (ms)", "Bandwidth (GB/s)", "% peak",
            "Step speedup", "Cumulative", "vs CUB");
    fprintf(out, floats ? " %10s\n" : "\n", "Rel. error");
    for (int i = 0; i < count; i++) {
        const result_row *r = &rows[i];
        if (!row_passed(r)) {
            fprintf(out, "%-42s %9s\n", r->label, "FAILED");
            continue;
        }
        speedups s = compute_speedups(rows, count, i, reference_index);
        char step[16], cumulative[16], vs[16];
        fprintf(out, "%-42s %9.3f %17.1f %6.1f%% %13s %11s %7s", r->label, r->median_ms, r->gbs,
                100.0 * r->gbs / r->peak_gbs, ratio_text(step, s.step), ratio_text(cumulative, s.cumulative),
                ratio_text(vs, s.vs_reference));
        if (floats)
            fprintf(out, " %10.1e", r->rel_error);
        if (row_is_noisy(r))
            fprintf(out, "  noisy: median uncertain by more than 2%%, try REPS=50");
        fputc('\n', out);
    }
    if (reference_index >= 0 && reference_index < count)
        fprintf(out, "vs CUB: against %s\n", rows[reference_index].label);
}

int write_run_csv(const char *path, const result_row *rows, int count, int reference_index)
{
    char header[512];
    snprintf(header, sizeof header, "%s,step_speedup,cumulative,vs_cub", CSV_HEADER);
    FILE *out = create_csv(path, header);
    if (!out)
        return -1;
    for (int i = 0; i < count; i++) {
        speedups s = compute_speedups(rows, count, i, reference_index);
        csv_write_fields(out, &rows[i]);
        fprintf(out, ",%.3f,%.3f,%.3f\n", s.step, s.cumulative, s.vs_reference);
    }
    return close_csv(out);
}

void format_size(char *buf, size_t size, unsigned long long n)
{
    if (n && (n & (n - 1)) == 0)
        snprintf(buf, size, "2^%d", __builtin_ctzll(n));
    else
        format_count(buf, size, n);
}

void format_size_cell(char *buf, size_t size, const result_row *rows, int i)
{
    buf[0] = '\0';
    if (i == 0 || rows[i].n != rows[i - 1].n)
        format_size(buf, size, rows[i].n);
}

/** 1 if row j is the reference at its size (fastest_reference() of `steps`) and is labelled `label`. */
static int reference_labelled(const result_row *rows, int count, const char *steps, int j, const char *label)
{
    return fastest_reference(rows, count, steps, rows[j].n) == j && strcmp(rows[j].label, label) == 0;
}

/** Under the sweep, a line per reference row: "vs CUB: against X at 2^16 2^18", every size X was it at. */
static void print_sweep_references(FILE *out, const result_row *rows, int count, const char *steps)
{
    for (int i = 0; i < count; i++) {
        int first = reference_labelled(rows, count, steps, i, rows[i].label);   /* the first of its label */
        for (int j = 0; j < i && first; j++)
            first = !reference_labelled(rows, count, steps, j, rows[i].label);
        if (!first)
            continue;
        fprintf(out, "vs CUB: against %s at", rows[i].label);
        for (int j = i; j < count; j++) {
            char size_text[32];
            format_size(size_text, sizeof size_text, rows[j].n);
            if (reference_labelled(rows, count, steps, j, rows[i].label))
                fprintf(out, " %s", size_text);
        }
        fputc('\n', out);
    }
}

/** Row r's bandwidth over the reference's at its size, or 0 when either is missing or failed. */
static double vs_reference(const result_row *rows, int count, const char *steps, const result_row *r)
{
    int ref = fastest_reference(rows, count, steps, r->n);
    return ref >= 0 && row_passed(r) ? r->gbs / rows[ref].gbs : 0.0;
}

void print_sweep_table(FILE *out, const result_row *rows, int count, const char *reference_step)
{
    if (count <= 0) {
        fprintf(out, "no results\n");
        return;
    }
    const result_row *head = &rows[first_passed(rows, count)];
    fprintf(out, "Sweep of %s sums, %s, peak %.0f GB/s, median of %d runs, %s\n", head->type,
            head->device, head->peak_gbs, head->reps, cache_state(head));
    fprintf(out, "%-8s %-42s %10s %9s %7s %7s\n", "n", "Design", "Time (us)", "GB/s", "% peak", "vs CUB");
    for (int i = 0; i < count; i++) {
        const result_row *r = &rows[i];
        char size_text[32];
        format_size_cell(size_text, sizeof size_text, rows, i);
        if (!row_passed(r)) {
            fprintf(out, "%-8s %-42s %10s\n", size_text, r->label, "FAILED");
            continue;
        }
        char vs[16];
        fprintf(out, "%-8s %-42s %10.1f %9.1f %6.1f%% %7s\n", size_text, r->label, r->median_ms * 1e3,
                r->gbs, 100.0 * r->gbs / r->peak_gbs, ratio_text(vs, vs_reference(rows, count, reference_step, r)));
    }
    print_sweep_references(out, rows, count, reference_step);
}

int write_sweep_csv(const char *path, const result_row *rows, int count, const char *reference_step)
{
    FILE *out = create_csv(path, "step,label,type,n,median_us,gbs,pct_peak,vs_cub,status");
    if (!out)
        return -1;
    for (int i = 0; i < count; i++) {
        const result_row *r = &rows[i];
        fprintf(out, "%s,", r->step);
        csv_write_field(out, r->label);   /* quoted, a quote doubled: the one CSV writer */
        fprintf(out, ",%s,%llu,%.2f,%.2f,%.2f,%.3f,%s\n", r->type, r->n, r->median_ms * 1e3, r->gbs,
                r->peak_gbs > 0 ? 100.0 * r->gbs / r->peak_gbs : 0.0, vs_reference(rows, count, reference_step, r), r->status);
    }
    return close_csv(out);
}

time_fit fit_time(const double *bytes, const double *us, int count)
{
    double mean_x = 0.0, mean_t = 0.0, sxx = 0.0, sxt = 0.0;
    for (int i = 0; i < count; i++) {
        mean_x += bytes[i] / count;
        mean_t += us[i] / count;
    }
    for (int i = 0; i < count; i++) {   /* sums about the means: no 10^18-sized cancellations */
        sxx += (bytes[i] - mean_x) * (bytes[i] - mean_x);
        sxt += (bytes[i] - mean_x) * (us[i] - mean_t);
    }
    if (count < 2 || sxx <= 0.0 || sxt <= 0.0)
        return (time_fit){ 0.0, 0.0, 0 };
    double us_per_byte = sxt / sxx;   /* b: a byte per us is 10^6 bytes/s */
    return (time_fit){ mean_t - us_per_byte * mean_x, 1e-3 / us_per_byte, count };
}

/** 1 if rows a and b are the same program, type and flush: one line of the fit table. */
static int same_series(const result_row *a, const result_row *b)
{
    return strcmp(a->step, b->step) == 0 && strcmp(a->type, b->type) == 0 && a->flushed == b->flushed;
}

int print_fit_table(FILE *out, const result_row *rows, int count, const char *csv_path)
{
    FILE *csv = csv_path ? create_csv(csv_path, "step,label,type,flush,sizes,fixed_us,gbs,pct_peak") : NULL;
    double *bytes = malloc(((size_t)count + 1) * sizeof *bytes), *us = malloc(((size_t)count + 1) * sizeof *us);
    int status = (csv_path && !csv) || !bytes || !us ? -1 : 0;
    fprintf(out, "\nt = c + bytes / b, least squares over each design's sizes above: c, the time of no bytes "
                 "(launch, gate, finish); b, the streaming rate\n");
    fprintf(out, "%-42s %-6s %-6s %10s %9s %7s\n", "Design", "Type", "Flush", "c (us)", "b (GB/s)", "% peak");
    for (int i = 0; i < count && status == 0; i++) {
        int first = 1, points = 0;
        for (int j = 0; j < i && first; j++)
            first = !same_series(&rows[j], &rows[i]);
        for (int j = i; j < count && first; j++)
            if (same_series(&rows[j], &rows[i]) && row_passed(&rows[j])) {
                bytes[points] = (double)rows[j].bytes;
                us[points++] = rows[j].median_ms * 1e3;
            }
        if (!first)
            continue;
        time_fit fit = fit_time(bytes, us, points);
        const char *flush = flush_name(rows[i].flushed);
        double pct = rows[i].peak_gbs > 0 ? 100.0 * fit.gbs / rows[i].peak_gbs : 0.0;
        if (fit.points)
            fprintf(out, "%-42s %-6s %-6s %10.2f %9.1f %6.1f%%\n", rows[i].label, rows[i].type, flush,
                    fit.fixed_us, fit.gbs, pct);
        else
            fprintf(out, "%-42s %-6s %-6s %10s (fewer than two sizes passed, or no growth)\n", rows[i].label,
                    rows[i].type, flush, "-");
        if (csv) {
            fprintf(csv, "%s,", rows[i].step);
            csv_write_field(csv, rows[i].label);
            fprintf(csv, ",%s,%s,%d,%.3f,%.1f,%.2f\n", rows[i].type, flush, fit.points, fit.fixed_us, fit.gbs, pct);
        }
    }
    free(bytes);
    free(us);
    return csv && close_csv(csv) != 0 ? -1 : status;
}
