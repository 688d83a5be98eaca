/**
 * @file multi_report.c
 * @brief build/tools/multi_report: the multi-GPU steps' tables, from the rows their programs appended
 * (usage: main()'s lines). Exits 1 if any row failed, 2 on bad usage or a file it cannot write.
 */
#include <stdio.h>
#include <string.h>

#include "csv_read.h"
#include "multi_results.h"
#include "results.h"
#include "svg.h"

#define MAX_ROWS 1024

/**
 * `scaling`: the multi-GPU steps' rows over n (outer), setup and G (inner): the table, its
 * CSV, and the sweep chart with one line per step, setup and G (bandwidth in all against n).
 */
static int report_scaling(const char *rows_path, const char *csv_path, const char *svg_path)
{
    static result_row rows[MAX_ROWS], lines[MAX_ROWS];
    int count = csv_read_some("multi_report", rows_path, rows, MAX_ROWS);
    if (count == 0)
        return 1;
    print_scaling_table(stdout, rows, count);
    if (write_scaling_csv(csv_path, rows, count) != 0) {
        fprintf(stderr, "multi_report: cannot write '%s'\n", csv_path);
        return 2;
    }
    for (int i = 0; i < count; i++) {   /* one line of the chart per step, setup and G */
        lines[i] = rows[i];
        snprintf(lines[i].step, sizeof lines[i].step, "%.20s %.38s %d", rows[i].step, scaling_setup(&rows[i]),
                 rows[i].gpus);
        snprintf(lines[i].label, sizeof lines[i].label, "%.6s, %d GPU%s, %.60s", rows[i].step, rows[i].gpus,
                 rows[i].gpus == 1 ? "" : "s", scaling_setup(&rows[i]));
    }
    if (svg_write_sweep_chart(svg_path, lines, count) != 0) {
        fprintf(stderr, "multi_report: cannot write '%s'\n", svg_path);
        return 2;
    }
    printf("\nWrote %s and %s\n", csv_path, svg_path);
    return any_failed(rows, count);
}

/** `multi`: run-all's step 12 rows, against `baseline`'s run-all row (the step each GPU runs). */
static int report_multi(const char *rows_path, const char *run_rows_path, const char *baseline)
{
    static result_row rows[MAX_ROWS], run[MAX_ROWS];
    int count = csv_read_some("multi_report", rows_path, rows, MAX_ROWS);
    if (count == 0)
        return 1;
    int run_count = csv_read_all(run_rows_path, run, MAX_ROWS);
    const result_row *baseline_row = NULL;
    for (int i = 0; i < run_count; i++)
        if (strcmp(run[i].step, baseline) == 0)
            baseline_row = &run[i];
    print_multi_table(stdout, rows, count, baseline_row);
    return any_failed(rows, count);
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "scaling") == 0)
        return report_scaling(argv[2], argv[3], argv[4]);
    if (argc == 5 && strcmp(argv[1], "multi") == 0)
        return report_multi(argv[2], argv[3], argv[4]);
    fprintf(stderr, "usage: multi_report scaling ROWS.csv OUT.csv OUT.svg\n"
                    "       multi_report multi ROWS.csv RUN-ALL-ROWS.csv BASELINE\n");
    return 2;
}
