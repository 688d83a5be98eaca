/**
 * @file csv_read.c
 * @brief Reading CSV back (see csv_read.h).
 */
#include "csv_read.h"

#include <stdio.h>
#include <stdlib.h>
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
    if (strlen(src) >= size)
        return -1;
    strcpy(dst, src);
    return 0;
}

/** Parses a whole field as an unsigned count; -1 if anything follows the number. */
static int number_field(const char *text, unsigned long long *value)
{
    char *end;
    *value = strtoull(text, &end, 10);
    return *end ? -1 : 0;
}

/** Parses a whole field as an int; -1 if anything follows the number. */
static int int_field(const char *text, int *value)
{
    char *end;
    *value = (int)strtol(text, &end, 10);
    return *end ? -1 : 0;
}

/** Parses a whole field as a double; -1 if anything follows the number. */
static int real_field(const char *text, double *value)
{
    char *end;
    *value = strtod(text, &end);
    return *end ? -1 : 0;
}

int csv_parse_row(const char *line, result_row *r)
{
    enum { FIELDS = 20 };
    char buffer[1024];
    char *f[FIELDS];
    if (strlen(line) >= sizeof buffer)
        return -1;
    strcpy(buffer, line);
    if (csv_split(buffer, f, FIELDS) != FIELDS || strcmp(f[0], "step") == 0)
        return -1;
    memset(r, 0, sizeof *r);
    if (copy_field(r->step, sizeof r->step, f[0]) || copy_field(r->label, sizeof r->label, f[1]) ||
        copy_field(r->type, sizeof r->type, f[2]) || copy_field(r->device, sizeof r->device, f[5]) ||
        copy_field(r->status, sizeof r->status, f[17]))
        return -1;
    /* f[15], % of peak, is derived */
    if (number_field(f[3], &r->n) || number_field(f[4], &r->bytes) || real_field(f[6], &r->peak_gbs) ||
        int_field(f[7], &r->reps) || int_field(f[8], &r->flushed) || real_field(f[9], &r->median_ms) ||
        real_field(f[10], &r->min_ms) || real_field(f[11], &r->max_ms) || real_field(f[12], &r->ci_low_ms) ||
        real_field(f[13], &r->ci_high_ms) || real_field(f[14], &r->gbs) || real_field(f[16], &r->rel_error) ||
        int_field(f[18], &r->gpus) || real_field(f[19], &r->combine_ms))
        return -1;
    return 0;
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
    if (count > 0)
        return count;
    fprintf(stderr, "%s: no rows in '%s'\n", tool, path);
    return 0;
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
    memset(row, 0, sizeof *row);
    snprintf(row->step, sizeof row->step, "%s", program);
    snprintf(row->label, sizeof row->label, "%s", program);
    snprintf(row->status, sizeof row->status, "FAILED");
}
