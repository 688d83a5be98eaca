/** @file svg.c
 * @brief Bar chart of `make run-all` and line chart of `make sweep` as plain SVG 1.1. */
#include "svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define WIDTH 960.0
#define HEIGHT 540.0
#define FONT "font-family=\"sans-serif\""
#define LABEL_MAX 42      /* longer x-axis labels are cut with "..." */
#define CHAR_WIDTH 0.6    /* estimated glyph width in ems, to size margins */
#define LABEL_ANGLE 35.0  /* x-axis labels of the bar chart, degrees below horizontal */
#define RADIANS(deg) ((deg) * 3.14159265358979323846 / 180.0)

/** Distinct colours for the designs (d3's category10); the run chart's bars are the first, CUB's the second. */
static const char *const PALETTE[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                       "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };
#define PALETTE_SIZE ((int)(sizeof PALETTE / sizeof PALETTE[0]))
#define RED "#d62728"   /* the peak, and FAILED */

/** The plot area in pixels and the value at its top; both charts share the y axis. */
typedef struct plot {
    double left, top, width, height, ymax;
} plot;

/** Writes `s` with &, <, > and " escaped, so labels such as "cub::..." stay valid XML. */
static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        const char *entity = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;" : NULL;
        if (entity)
            fputs(entity, f);
        else
            fputc(*s, f);
    }
}

/** One `<text>` element: `attrs` is raw SVG, the printf-formatted content is escaped. */
__attribute__((format(printf, 5, 6))) static void text(FILE *f, double x, double y, const char *attrs, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" " FONT " %s>", x, y, attrs);
    put_escaped(f, buf);
    fputs("</text>\n", f);
}

/** `label` cut to LABEL_MAX characters, lest one long label eat the chart (the next call reuses the buffer). */
static const char *short_label(const char *label)
{
    static char cut[LABEL_MAX + 1];
    if (strlen(label) <= LABEL_MAX)
        return label;
    snprintf(cut, sizeof cut, "%.*s...", LABEL_MAX - 3, label);
    return cut;
}

/** Estimated width in pixels of short_label(label) at `font_px`: SVG has no text metrics before rendering. */
static double label_width(const char *label, double font_px)
{
    return fmin((double)strlen(label), LABEL_MAX) * CHAR_WIDTH * font_px;
}

/** Opens the file and writes the header, white background, title and subtitle. */
static FILE *begin(const char *path, const char *title, const char *subtitle)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return NULL;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
               "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            WIDTH, HEIGHT, WIDTH, HEIGHT);
    text(f, WIDTH / 2, 26, "font-size=\"17\" font-weight=\"bold\" text-anchor=\"middle\"", "%s", title);
    if (subtitle)
        text(f, WIDTH / 2, 46, "font-size=\"12\" fill=\"#555\" text-anchor=\"middle\"", "%s", subtitle);
    return f;
}

/** Closes the document; -1 if any write failed (disk full), so callers can say so. */
static int finish(FILE *f)
{
    fputs("</svg>\n", f);
    return close_csv(f);
}

/** A valid page that says why there is no chart, rather than no file at all. */
static int write_empty(const char *path, const char *title)
{
    FILE *f = begin(path, title, NULL);
    if (!f)
        return -1;
    text(f, WIDTH / 2, HEIGHT / 2, "font-size=\"20\" fill=\"#888\" text-anchor=\"middle\"", "no results");
    return finish(f);
}

/** Sets p->ymax a little above `max`; returns the tick step, the smallest round one (1, 2, 2.5, 5 x 10^k) of <= 6 intervals. */
static double set_y_range(plot *p, double max)
{
    static const double factors[] = { 1.0, 2.0, 2.5, 5.0, 10.0 };
    if (!(max > 0.0))
        max = 1.0;
    max *= 1.05;
    double magnitude = pow(10.0, floor(log10(max / 6.0)));
    int i = 0;
    while (i < 4 && max / (factors[i] * magnitude) > 6.0)
        i++;
    double step = factors[i] * magnitude;
    p->ymax = ceil(max / step) * step;
    return step;
}

/** Pixel row of value `v` on the shared y axis. */
static double y_of(const plot *p, double v)
{
    return p->top + p->height * (1.0 - v / p->ymax);
}

/** Gridlines, tick labels and title of the y axis, plus the x axis line. */
static void draw_y_axis(FILE *f, const plot *p, double step)
{
    for (int i = 0; i * step <= p->ymax * (1.0 + 1e-9); i++) {
        double y = y_of(p, i * step);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", p->left, y,
                p->left + p->width, y, i == 0 ? "#333" : "#e3e3e3");
        text(f, p->left - 8, y + 4, "font-size=\"12\" text-anchor=\"end\"", "%g", i * step);
    }
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", p->left, p->top,
            p->left, p->top + p->height);
    double cx = p->left - 58, cy = p->top + p->height / 2;
    char attrs[112];
    snprintf(attrs, sizeof attrs, "font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\"", cx, cy);
    text(f, cx, cy, attrs, "Bandwidth (GB/s)");
}

/** Dashed line at the theoretical peak: the ceiling every step is measured against. */
static void draw_peak(FILE *f, const plot *p, double peak)
{
    if (!(peak > 0.0))
        return;
    double y = y_of(p, peak);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" RED "\" "
               "stroke-width=\"1.5\" stroke-dasharray=\"6,4\"/>\n", p->left, y, p->left + p->width, y);
    text(f, p->left + 6, y - 5, "font-size=\"12\" fill=\"" RED "\"", "peak %.0f GB/s", peak);
}

/** Left margin that keeps the rotated x labels of the first bars inside the picture. */
static double bar_left_margin(const result_row *rows, int count, double right)
{
    double left = 70.0, c = cos(RADIANS(LABEL_ANGLE));
    for (int pass = 0; pass < 3; pass++) {
        double slot = (WIDTH - left - right) / count, need = 0.0;
        for (int i = 0; i < count; i++)
            need = fmax(need, label_width(rows[i].label, 11) * c - (i + 0.5) * slot + 10.0);
        left = fmin(fmax(need, 70.0), WIDTH / 3);
    }
    return left;
}

int svg_write_run_chart(const char *path, const result_row *rows, int count, int reference_index)
{
    if (count <= 0)
        return write_empty(path, "Sum reduction: bandwidth per step");
    const result_row *h = &rows[first_passed(rows, count)];
    char n_text[32], bytes_text[32], title[320], subtitle[320];
    format_count(n_text, sizeof n_text, h->n);
    format_bytes(bytes_text, sizeof bytes_text, h->bytes);
    snprintf(title, sizeof title, "Sum of %s %s (%s) on %s", n_text, h->type, bytes_text, h->device);
    snprintf(subtitle, sizeof subtitle, "Bandwidth per program, median of %d runs, %s; %s%s", h->reps,
             cache_state(h), row_passed(&rows[0]) ? "above each bar: speedup over " :
             "no speedups: the first program failed", row_passed(&rows[0]) ? short_label(rows[0].label) : "");
    FILE *f = begin(path, title, subtitle);
    if (!f)
        return -1;
    double max = h->peak_gbs, longest = 0.0;
    for (int i = 0; i < count; i++) {
        longest = fmax(longest, label_width(rows[i].label, 11));
        if (row_passed(&rows[i]))
            max = fmax(max, rows[i].gbs);
    }
    double bottom = fmin(longest * sin(RADIANS(LABEL_ANGLE)) + 22.0, HEIGHT / 2);
    double left = bar_left_margin(rows, count, 30.0);
    plot p = { left, 70.0, WIDTH - left - 30.0, HEIGHT - 70.0 - bottom, 0.0 };
    double step = set_y_range(&p, max);
    draw_y_axis(f, &p, step);
    double slot = p.width / count, base = y_of(&p, 0.0);
    for (int i = 0; i < count; i++) {
        const result_row *r = &rows[i];
        double cx = p.left + (i + 0.5) * slot;
        if (row_passed(r)) {
            double y = y_of(&p, r->gbs);
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
                    cx - 0.3 * slot, y, 0.6 * slot, base - y, PALETTE[i == reference_index]);
            put_escaped(f, r->label);
            fprintf(f, ": %.1f GB/s, %.3f ms</title></rect>\n", r->gbs, r->median_ms);
            speedups s = compute_speedups(rows, count, i, reference_index);
            if (s.cumulative > 0.0)
                text(f, cx, y - 5, "font-size=\"11\" text-anchor=\"middle\"", "%.1fx", s.cumulative);
        } else {
            text(f, cx, base - 8, "font-size=\"11\" font-weight=\"bold\" fill=\"" RED
                 "\" text-anchor=\"middle\"", "FAILED");
        }
        char attrs[128];
        snprintf(attrs, sizeof attrs, "font-size=\"11\" text-anchor=\"end\" transform=\"rotate(%.0f %.1f %.1f)\"",
                 -LABEL_ANGLE, cx, base + 14);
        text(f, cx, base + 14, attrs, "%s", short_label(r->label));
    }
    draw_peak(f, &p, h->peak_gbs);
    return finish(f);
}

/** 1 if row i is the first of its design (`step`): designs keep their order of appearance. */
static int first_of_design(const result_row *rows, int i)
{
    for (int j = 0; j < i; j++)
        if (strcmp(rows[j].step, rows[i].step) == 0)
            return 0;
    return 1;
}

/** Next passing row of design `step` with the smallest n above `after`, or -1: sorts without memory. */
static int next_point(const result_row *rows, int count, const char *step, unsigned long long after)
{
    int best = -1;
    for (int i = 0; i < count; i++)
        if (row_passed(&rows[i]) && rows[i].n > after && strcmp(rows[i].step, step) == 0 &&
            (best < 0 || rows[i].n < rows[best].n))
            best = i;
    return best;
}

int svg_write_sweep_chart(const char *path, const result_row *rows, int count)
{
    if (count <= 0)
        return write_empty(path, "Sum reduction: bandwidth against size");
    const result_row *h = &rows[first_passed(rows, count)];
    char title[320], subtitle[160];
    snprintf(title, sizeof title, "Sum of %s against size on %s", h->type, h->device);
    snprintf(subtitle, sizeof subtitle, "Bandwidth per design, median of %d runs, %s", h->reps,
             cache_state(h));
    FILE *f = begin(path, title, subtitle);
    if (!f)
        return -1;
    double max = h->peak_gbs, lo = 1e9, hi = -1e9, legend = 0.0;
    for (int i = 0; i < count; i++) {
        legend = fmax(legend, label_width(rows[i].label, 12));
        if (row_passed(&rows[i]) && rows[i].n > 0) {
            max = fmax(max, rows[i].gbs);
            lo = fmin(lo, floor(log2((double)rows[i].n)));
            hi = fmax(hi, ceil(log2((double)rows[i].n)));
        }
    }
    if (hi < lo)
        lo = 16, hi = 28;  /* every run failed: an empty but labelled axis */
    if (hi - lo < 2)
        lo -= 1, hi += 1;
    legend = fmin(legend + 40.0, WIDTH / 3);
    plot p = { 80.0, 70.0, WIDTH - 80.0 - legend - 30.0, HEIGHT - 70.0 - 70.0, 0.0 };
    double step = set_y_range(&p, max), base = y_of(&p, 0.0);
    draw_y_axis(f, &p, step);
    double xlo = lo - 0.25, xhi = hi + 0.25;
#define X_OF(e) (p.left + p.width * ((e) - xlo) / (xhi - xlo))
    int stride = 1;
    while ((hi - lo) / stride > 8)
        stride *= 2;
    for (int e = (int)ceil(lo / stride) * stride; e <= (int)hi; e += stride) {
        double x = X_OF(e);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n", x, base, x, base + 5);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" " FONT " font-size=\"12\" text-anchor=\"middle\">"
                   "2<tspan dy=\"-6\" font-size=\"9\">%d</tspan></text>\n", x, base + 22, e);
    }
    text(f, p.left + p.width / 2, base + 50, "font-size=\"13\" text-anchor=\"middle\"", "Elements n");
    int designs = 0;
    for (int i = 0; i < count; i++) {
        if (!first_of_design(rows, i))
            continue;
        const char *colour = PALETTE[designs % PALETTE_SIZE];
        int first = next_point(rows, count, rows[i].step, 0);   /* -1: no point passed, an empty line */
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
        for (int j = first; j >= 0; j = next_point(rows, count, rows[i].step, rows[j].n))
            fprintf(f, "%.1f,%.1f ", X_OF(log2((double)rows[j].n)), y_of(&p, rows[j].gbs));
        fputs("\"/>\n", f);
        for (int j = first; j >= 0; j = next_point(rows, count, rows[i].step, rows[j].n))
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", X_OF(log2((double)rows[j].n)),
                    y_of(&p, rows[j].gbs), colour);
        double lx = p.left + p.width + 20.0, ly = p.top + 10.0 + 20.0 * designs;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n"
                   "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n",
                lx, ly, lx + 22, ly, colour, lx + 11, ly, colour);
        text(f, lx + 28, ly + 4, "font-size=\"12\"", "%s", short_label(rows[i].label));
        designs++;
    }
#undef X_OF
    draw_peak(f, &p, h->peak_gbs);
    return finish(f);
}
