/**
 * @file lab_verdict.c
 * @brief The lab's timing table and verdict (see lab_verdict.h).
 */
#include "lab_verdict.h"

#include <string.h>

lab_gain lab_verdict(double start_ms, double yours_ms, double ours_ms, int start, int step, char *text, size_t size)
{
    if (!(start_ms > 0.0) || !(yours_ms > 0.0) || !(ours_ms > 0.0)) {
        snprintf(text, size, "no verdict: a time is missing");
        return GAIN_NO_DATA;
    }
    double ours = start_ms / ours_ms, yours = start_ms / yours_ms;
    if (ours < 1.0 + LAB_NOISE) {
        snprintf(text, size, "time can't tell: our step %d is only %.2fx step %d's speed on this GPU, too "
                 "little to judge yours by (yours: %.2fx); PROFILE=1 compares the metric step %d moves", step,
                 ours, start, yours, step);
        return GAIN_CANT_TELL;
    }
    double share = (yours - 1.0) / (ours - 1.0);
    if (share >= 0.75) {
        snprintf(text, size, "gain reached: yours is %.2fx faster than step %d, where you started; ours is "
                 "%.2fx%s", yours, start, ours, yours > ours * (1.0 + LAB_NOISE) ? ": yours is faster than ours!" : "");
        return GAIN_REACHED;
    }
    if (share >= 0.25) {
        snprintf(text, size, "part of the gain: yours is %.2fx faster than step %d, ours %.2fx: the idea is "
                 "partly there; compare your change with the exercise", yours, start, ours);
        return GAIN_PART;
    }
    snprintf(text, size, "gain not yet: yours runs at %.2fx step %d's speed, ours at %.2fx: step %d's idea is "
             "not in your kernel yet (the TODOs mark where it goes)", yours, start, ours, step);
    return GAIN_NOT_YET;
}

lab_gain print_lab_table(FILE *out, const result_row rows[3], int start, int step)
{
    static const char *roles[3] = { "start", "yours", "ours" };
    const result_row *head = &rows[row_passed(&rows[0]) ? 0 : row_passed(&rows[2]) ? 2 : 1];
    char n_text[32];
    format_count(n_text, sizeof n_text, head->n);
    fprintf(out, "Sum of %s %s, %s, peak %.0f GB/s, median of %d runs, %s\n", n_text, head->type, head->device,
            head->peak_gbs, head->reps, cache_state(head));
    fprintf(out, "%-6s %-42s %9s %17s %7s %9s\n", "", "Step", "Time (ms)", "Bandwidth (GB/s)", "% peak", "vs start");
    int all = 1;
    for (int i = 0; i < 3; i++) {
        const result_row *r = &rows[i];
        if (!row_passed(r)) {
            fprintf(out, "%-6s %-42s %9s\n", roles[i], r->label[0] ? r->label : r->step, "FAILED");
            all = 0;
            continue;
        }
        char speedup[16] = "";
        if (row_passed(&rows[0]))
            snprintf(speedup, sizeof speedup, "%.2fx", rows[0].median_ms / r->median_ms);
        fprintf(out, "%-6s %-42s %9.3f %17.1f %6.1f%% %9s", roles[i], r->label, r->median_ms, r->gbs,
                r->peak_gbs > 0.0 ? 100.0 * r->gbs / r->peak_gbs : 0.0, speedup);
        if (row_is_noisy(r))
            fprintf(out, "  noisy: median uncertain by more than 2%%");
        fputc('\n', out);
    }
    if (!all) {
        fprintf(out, "verdict: none, a program failed\n");
        return GAIN_NO_DATA;
    }
    char text[512];
    lab_gain gain = lab_verdict(rows[0].median_ms, rows[1].median_ms, rows[2].median_ms, start, step, text, sizeof text);
    fprintf(out, "verdict: %s\n", text);
    return gain;
}
