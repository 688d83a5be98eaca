/** @file csv_read.c
 * @brief Reading CSV back (see csv_read.h). */
#include "csv_read.h"

#include <stdio.h>
#include <string.h>

int csv_split(char *line, char **fields, int max)
{
    int count = 0;
    char *p = line;
    while (count < max) {
        char *out = p;
        fields[count++] = out;
        if (*p == '"') {
            for (p++; *p != '"' || p[1] == '"'; p++) {   /* up to the closing quote */
                if (*p == '\0')
                    return -1;                 /* unterminated quote */
                *out++ = *p;
                p += *p == '"';                /* a doubled quote is one quote */
            }
            p++;
        } else {
            while (*p && *p != ',' && *p != '\n' && *p != '\r')
                *out++ = *p++;
        }
        char end = *p;
        *out = '\0';
        if (end != ',')
            return (end == '\0' || end == '\n' || end == '\r') ? count : -1;
        p++;
    }
    return -1;                                 /* more fields than expected */
}

/** Copies a parsed field into a fixed buffer; -1 if it does not fit. */
static int copy_field(char *dst, size_t size, const char *src)
{
    return snprintf(dst, size, "%s", src) >= (int)size ? -1 : 0;
}

/** Parses a whole field with `format` ("%llu%n", "%d%n", "%lf%n"); -1 if it is empty or anything follows the number. */
static int number(const char *text, const char *format, void *value)
{
    int used = -1;
    return sscanf(text, format, value, &used) == 1 && used >= 0 && text[used] == '\0' ? 0 : -1;
}

int csv_parse_row(const char *line, result_row *r)
{
    enum { FIELDS = 20 };
    char buffer[1024];
    char *f[FIELDS];
    if (copy_field(buffer, sizeof buffer, line) || csv_split(buffer, f, FIELDS) != FIELDS || strcmp(f[0], "step") == 0)
        return -1;
    memset(r, 0, sizeof *r);
    /* f[15], % of peak, is derived */
    return copy_field(r->step, sizeof r->step, f[0]) || copy_field(r->label, sizeof r->label, f[1]) ||
                   copy_field(r->type, sizeof r->type, f[2]) || copy_field(r->device, sizeof r->device, f[5]) ||
                   copy_field(r->status, sizeof r->status, f[17]) || number(f[3], "%llu%n", &r->n) ||
                   number(f[4], "%llu%n", &r->bytes) || number(f[6], "%lf%n", &r->peak_gbs) ||
                   number(f[7], "%d%n", &r->reps) || number(f[8], "%d%n", &r->flushed) ||
                   number(f[9], "%lf%n", &r->median_ms) || number(f[10], "%lf%n", &r->min_ms) ||
                   number(f[11], "%lf%n", &r->max_ms) || number(f[12], "%lf%n", &r->ci_low_ms) ||
                   number(f[13], "%lf%n", &r->ci_high_ms) || number(f[14], "%lf%n", &r->gbs) ||
                   number(f[16], "%lf%n", &r->rel_error) || number(f[18], "%d%n", &r->gpus) ||
                   number(f[19], "%lf%n", &r->combine_ms) ? -1 : 0;
}

int csv_read_all(const char *path, result_row *rows, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024];
    int count = 0;
    while (count < max && fgets(line, sizeof line, f))
        if (csv_parse_row(line, &rows[count]) == 0)
            count++;
    fclose(f);
    return count;
}

int csv_read_some(const char *tool, const char *path, result_row *rows, int max)
{
    int count = csv_read_all(path, rows, max);
    if (count <= 0)
        fprintf(stderr, "%s: no rows in '%s'\n", tool, path);
    return count > 0 ? count : 0;
}

int any_failed(const result_row *rows, int count)
{
    int failed = 0;
    for (int i = 0; i < count; i++)
        failed |= !row_passed(&rows[i]);
    return failed;
}

void missing_row(result_row *row, const char *program)
{
    *row = (result_row){ .status = "FAILED" };
    snprintf(row->step, sizeof row->step, "%s", program);
    snprintf(row->label, sizeof row->label, "%s", program);
}
