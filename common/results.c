/** @file results.c
 * @brief Statistics and CSV rows (see results.h). */
/* access() is POSIX, not C11 */
#define _POSIX_C_SOURCE 200112L
#include "results.h"
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/** qsort comparator for doubles. */
static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

timing_stats summarize_times(double *ms, int count)
{
    timing_stats t = { 0.0, 0.0, 0.0, 0.0, 0.0 };
    if (count <= 0)
        return t;
    qsort(ms, (size_t)count, sizeof *ms, compare_doubles);
    t.min_ms = ms[0];
    t.max_ms = ms[count - 1];
    t.median_ms = (count % 2) ? ms[count / 2] : 0.5 * (ms[count / 2 - 1] + ms[count / 2]);
    t.ci_low_ms = t.min_ms;
    t.ci_high_ms = t.max_ms;
    if (count >= 6) {
        double half_width = 0.98 * sqrt((double)count);
        int j = (int)lround(count / 2.0 - half_width);      /* 1-based ranks */
        int k = (int)lround(count / 2.0 + half_width + 1.0);
        t.ci_low_ms = ms[(j < 1 ? 1 : j) - 1];
        t.ci_high_ms = ms[(k > count ? count : k) - 1];
    }
    return t;
}

double bandwidth_gbs(unsigned long long bytes, double ms)
{
    return ms > 0.0 ? (double)bytes / (ms * 1e-3) / 1e9 : 0.0;
}

int is_noisy(const timing_stats *t)
{
    return t->median_ms > 0.0 && (t->ci_high_ms > t->median_ms * (1.0 + NOISE_THRESHOLD) ||
                                  t->ci_low_ms < t->median_ms * (1.0 - NOISE_THRESHOLD));
}

int row_passed(const result_row *r)
{
    return strcmp(r->status, "PASSED") == 0 && r->median_ms > 0.0;
}

int row_is_noisy(const result_row *r)
{
    timing_stats t = { r->median_ms, r->min_ms, r->max_ms, r->ci_low_ms, r->ci_high_ms };
    return is_noisy(&t);
}

const char CSV_HEADER[] = "step,label,type,n,bytes,device,peak_gbs,reps,l2_flushed,median_ms,min_ms,max_ms,"
                         "ci_low_ms,ci_high_ms,gbs,pct_peak,rel_error,status,gpus,combine_ms";

void csv_write_field(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    fputc('"', f);
}

void csv_write_fields(FILE *f, const result_row *r)
{
    csv_write_field(f, r->step);
    fputc(',', f);
    csv_write_field(f, r->label);
    fputc(',', f);
    csv_write_field(f, r->type);
    fprintf(f, ",%llu,%llu,", r->n, r->bytes);
    csv_write_field(f, r->device);
    fprintf(f, ",%.1f,%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.2f,%.2f,%.3e,", r->peak_gbs, r->reps, r->flushed,
            r->median_ms, r->min_ms, r->max_ms, r->ci_low_ms, r->ci_high_ms, r->gbs,
            r->peak_gbs > 0 ? 100.0 * r->gbs / r->peak_gbs : 0.0, r->rel_error);
    csv_write_field(f, r->status);
    fprintf(f, ",%d,%.6f", r->gpus, r->combine_ms);
}

int csv_append(const char *path, const result_row *row)
{
    int is_new = access(path, F_OK) != 0;
    FILE *f = fopen(path, "a");
    if (!f)
        return -1;
    if (is_new)
        fprintf(f, "%s\n", CSV_HEADER);
    csv_write_fields(f, row);
    fputc('\n', f);
    return fclose(f) == 0 ? 0 : -1;
}

int csv_check_writable(const char *path, char *error, size_t size)
{
    if (path[0] == '\0') {
        snprintf(error, size, "--csv needs a file name, e.g. --csv results/mine.csv");
        return -1;
    }
    int existed = access(path, F_OK) == 0;
    FILE *f = fopen(path, "a");
    if (!f) {
        snprintf(error, size, "--csv: cannot append to '%s' (%s); give a file you may write, in a folder "
                 "that exists", path, strerror(errno));
        return -1;
    }
    fclose(f);
    if (!existed)
        remove(path);   /* leave no trace: csv_append() makes it, with its header */
    return 0;
}

void format_count(char *buf, size_t size, unsigned long long n)
{
    char digits[32];
    snprintf(digits, sizeof digits, "%llu", n);
    size_t len = strlen(digits), out = 0;
    for (size_t i = 0; i < len && out + 2 < size; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[out++] = ',';
        buf[out++] = digits[i];
    }
    buf[out] = '\0';
}

void format_bytes(char *buf, size_t size, unsigned long long bytes)
{
    static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double value = (double)bytes;
    int unit = 0;
    while (value >= 1024.0 && unit < 4) {
        value /= 1024.0;
        unit++;
    }
    snprintf(buf, size, value == floor(value) ? "%.0f %s" : "%.1f %s", value, units[unit]);
}

const char *flush_name(int flushed)
{
    return flushed == FLUSH_READ ? "read" : flushed == FLUSH_WRITE ? "write" : flushed == FLUSH_NONE ? "hot" : "?";
}

const char *cache_state(const result_row *r)
{
    return r->flushed == FLUSH_READ ? "L2 flushed by reading (--flush read)"
         : r->flushed ? "L2 flushed by writing (--flush write)" : "L2 warm (--hot)";
}

