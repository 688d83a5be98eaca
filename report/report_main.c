/** @file report_main.c
 * @brief The `report` tool (usage: main()): the programs' rows as run-all's and sweep's tables, CSV files and
 * charts, and each program's fit to t = c + bytes / b. REFERENCE: what "vs CUB" divides by ("-": none;
 * comma-separated: the fastest). Exits 1 if any row failed. It knows no step by name. */
#include <stdio.h>
#include <string.h>

#include "csv_read.h"
#include "results.h"
#include "tables.h"
#include "svg.h"

#define MAX_ROWS 1024

/** The exit code once the CSV file and the chart are written (their writers' statuses): 2 if one was not. */
static int finish_outputs(int csv_status, int svg_status, const char *csv_path, const char *svg_path, int failed)
{
    if (csv_status != 0 || svg_status != 0) {
        fprintf(stderr, "report: cannot write '%s'\n", csv_status != 0 ? csv_path : svg_path);
        return 2;
    }
    printf("\nWrote %s and %s\n", csv_path, svg_path);
    return failed;
}

/** `report run`: a row per PROGRAM (missing_row() for one that left none); none: every row, as in the file. */
static int report_run(const char *rows_path, const char *csv_path, const char *svg_path, const char *reference,
                      char **programs, int program_count)
{
    static result_row raw[MAX_ROWS], rows[MAX_ROWS];
    int raw_count = csv_read_all(rows_path, raw, MAX_ROWS);
    if (raw_count < 0)
        raw_count = 0;   /* every program failed before writing: all rows FAILED below */
    int count = program_count ? 0 : raw_count;
    memcpy(rows, raw, (size_t)count * sizeof *rows);
    for (int p = 0; p < program_count && count < MAX_ROWS; p++) {
        const result_row *found = NULL;
        for (int i = 0; i < raw_count; i++)
            if (strcmp(raw[i].step, programs[p]) == 0)
                found = &raw[i];   /* the last row of that program wins */
        if (found)
            rows[count++] = *found;
        else
            missing_row(&rows[count++], programs[p]);
    }
    int reference_index = fastest_reference(rows, count, reference, 0);   /* the fastest CUB in its default mode */
    print_run_table(stdout, rows, count, reference_index);
    return finish_outputs(write_run_csv(csv_path, rows, count, reference_index),
                          svg_write_run_chart(svg_path, rows, count, reference_index), csv_path, svg_path,
                          any_failed(rows, count));
}

/** `report sweep`: every row in file order (sizes outer, designs inner). */
static int report_sweep(const char *rows_path, const char *csv_path, const char *svg_path, const char *reference)
{
    static result_row rows[MAX_ROWS];
    int count = csv_read_some("report", rows_path, rows, MAX_ROWS);
    if (count == 0)
        return 1;
    print_sweep_table(stdout, rows, count, reference);
    print_fit_table(stdout, rows, count, NULL);
    return finish_outputs(write_sweep_csv(csv_path, rows, count, reference), svg_write_sweep_chart(svg_path, rows, count),
                          csv_path, svg_path, any_failed(rows, count));
}

/** `report field`: COLUMN's value per row (scripts read by name, not at commas a quoted label holds); 2: error. */
static int report_field(const char *path, const char *column)
{
    enum { MAX_FIELDS = 64 };
    char line[1024], *fields[MAX_FIELDS];
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "report: cannot read '%s'\n", path);
        return 2;
    }
    int index = -1, count = fgets(line, sizeof line, f) ? csv_split(line, fields, MAX_FIELDS) : -1;
    for (int i = 0; i < count; i++)
        if (strcmp(fields[i], column) == 0)
            index = i;
    if (index < 0)
        fprintf(stderr, "report: '%s' has no column '%s'\n", path, column);
    while (index >= 0 && fgets(line, sizeof line, f)) {
        count = csv_split(line, fields, MAX_FIELDS);
        printf("%s\n", count > index ? fields[index] : "");
    }
    fclose(f);
    return index < 0 ? 2 : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 6 && strcmp(argv[1], "run") == 0)
        return report_run(argv[2], argv[3], argv[4], argv[5], argv + 6, argc - 6);
    if (argc == 6 && strcmp(argv[1], "sweep") == 0)
        return report_sweep(argv[2], argv[3], argv[4], argv[5]);
    if (argc == 4 && strcmp(argv[1], "fit") == 0) {   /* rows of several types and flushes, e.g. --flush read and write */
        static result_row rows[MAX_ROWS];
        int count = csv_read_some("report", argv[2], rows, MAX_ROWS);
        int status = count > 0 ? print_fit_table(stdout, rows, count, argv[3]) : 0;
        if (status != 0)
            fprintf(stderr, "report: cannot write '%s'\n", argv[3]);
        return count == 0 ? 1 : status != 0 ? 2 : 0;
    }
    if (argc == 2 && strcmp(argv[1], "header") == 0)
        return printf("%s\n", CSV_HEADER) < 0;   /* for scripts that write rows of their own */
    if (argc == 4 && strcmp(argv[1], "field") == 0)
        return report_field(argv[2], argv[3]);
    fprintf(stderr, "usage: report run ROWS.csv OUT.csv OUT.svg REFERENCE [PROGRAM...]\n"
                    "       report sweep ROWS.csv OUT.csv OUT.svg REFERENCE\n"
                    "       report fit ROWS.csv OUT.csv\n"
                    "       report header\n"
                    "       report field CSV COLUMN\n");
    return 2;
}
