/* gantt.c - see gantt.h. */
#include "gantt.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Drawing area in SVG user units. */
#define W 1200.0
#define H 700.0
#define LEFT 80.0
#define RIGHT 20.0
#define TOP 50.0
#define BOTTOM 60.0

static const tp_record *sort_rec; /* qsort has no context argument */

static int by_start(const void *a, const void *b)
{
	const tp_record *x = &sort_rec[*(const size_t *)a];
	const tp_record *y = &sort_rec[*(const size_t *)b];
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* Runs of consecutive indices in a node list "0-3,8": 2. */
static size_t count_runs(const char *list)
{
	size_t n = *list ? 1 : 0;
	for (const char *p = list; *p; p++)
		n += *p == ',';
	return n;
}

/* The records in start order (*idx, to free), how many of them fit the
 * cap (*shown) and the time the chart ends (*until). */
static int choose(const tp_sim_result *r, size_t **idx, size_t *shown,
		  int64_t *until)
{
	size_t *ix = malloc((r->nrec ? r->nrec : 1) * sizeof(*ix)), rects = 0, k;
	if (!ix)
		return -1;
	for (size_t i = 0; i < r->nrec; i++)
		ix[i] = i;
	sort_rec = r->rec;
	qsort(ix, r->nrec, sizeof(*ix), by_start);
	*until = r->last_end;
	for (k = 0; k < r->nrec; k++) {
		const tp_record *x = &r->rec[ix[k]];
		size_t n = count_runs(x->nodelist ? x->nodelist : "");
		if (rects + n > SIM_GANTT_MAX_RECTS) {
			*until = x->start;
			break;
		}
		rects += n;
	}
	*idx = ix;
	*shown = k;
	return 0;
}

/* A step of 1, 2 or 5 times a power of ten giving at most ~8 ticks. */
static double nice_step(double span)
{
	double raw = span / 8, p = pow(10, floor(log10(raw > 0 ? raw : 1)));
	double m = raw / p;
	return p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10);
}

static void put_escaped(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", fp);
		else if (*s == '<')
			fputs("&lt;", fp);
		else if (*s == '>')
			fputs("&gt;", fp);
		else if (*s == '"')
			fputs("&quot;", fp);
		else
			fputc(*s, fp);
	}
}

typedef struct frame {
	int64_t t0, t1;   /* time range, s */
	int nodes;
	double unit;      /* seconds per axis unit (3600 or 86400) */
} frame;

static double xof(const frame *f, double t)
{
	return LEFT + (t - (double)f->t0) / (double)(f->t1 - f->t0) *
	       (W - LEFT - RIGHT);
}

static double yof(const frame *f, double node)
{
	return TOP + node / f->nodes * (H - TOP - BOTTOM);
}

static void axes(FILE *fp, const frame *f)
{
	double span = (double)(f->t1 - f->t0) / f->unit, st = nice_step(span);
	fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"none\" stroke=\"black\"/>\n", LEFT, TOP, W - LEFT - RIGHT,
		H - TOP - BOTTOM);
	for (double v = 0; v <= span + 1e-9; v += st) {
		double x = xof(f, (double)f->t0 + v * f->unit);
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"black\"/><text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\">%g</text>\n", x, H - BOTTOM, x,
			H - BOTTOM + 5, x, H - BOTTOM + 20, v);
	}
	double ns = nice_step(f->nodes);
	for (double v = 0; v <= f->nodes + 1e-9; v += ns) {
		double y = yof(f, v);
		fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"black\"/><text x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"end\">%g</text>\n", LEFT - 5, y, LEFT, y,
			LEFT - 8, y + 4, v);
	}
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">time since "
		"the first submit (%s)</text>\n", (LEFT + W - RIGHT) / 2, H - 15,
		f->unit == 3600 ? "hours" : "days");
	fprintf(fp, "<text transform=\"translate(20,%.1f) rotate(-90)\" "
		"text-anchor=\"middle\">node index</text>\n", (TOP + H - BOTTOM) / 2);
}

/* A colour of its own for each job (a hash of its id). */
static void job_colour(int64_t id, char *out, size_t len)
{
	uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15ULL;
	snprintf(out, len, "#%02x%02x%02x", (unsigned)(64 + (h >> 56) % 160),
		 (unsigned)(64 + (h >> 40) % 160), (unsigned)(64 + (h >> 24) % 160));
}

/* One rectangle per run of consecutive nodes, cut at the chart's end. */
static void job_rects(FILE *fp, const frame *f, const tp_record *x)
{
	char col[8];
	double a = xof(f, (double)x->start);
	double z = xof(f, (double)(x->end < f->t1 ? x->end : f->t1));
	job_colour(x->id, col, sizeof(col));
	for (const char *p = x->nodelist ? x->nodelist : ""; *p;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		fprintf(fp, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
			"fill=\"%s\" stroke=\"black\" stroke-width=\"0.2\"><title>job %"
			PRId64 "</title></rect>\n", a, yof(f, (double)lo), z - a,
			yof(f, (double)hi + 1) - yof(f, (double)lo), col, x->id);
		p = *end == ',' ? end + 1 : end;
	}
}

static void svg(FILE *fp, const tp_sim_result *r, const size_t *idx,
		size_t shown, int64_t until, const char *title)
{
	frame f = { r->first_submit, until > r->first_submit ? until : r->first_submit + 1,
		    r->nodes > 0 ? r->nodes : 1, 3600 };
	if (f.t1 - f.t0 > 3 * 86400)
		f.unit = 86400;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"%.1f\" y=\"25\" text-anchor=\"middle\" font-size=\"15\">",
		W, H, W, H, W / 2);
	put_escaped(fp, title);
	fprintf(fp, ": Gantt chart, %zu of %zu runs", shown, r->nrec);
	if (shown < r->nrec)
		fprintf(fp, " (the first %d rectangles; runs still going cut at the "
			"right edge)", SIM_GANTT_MAX_RECTS);
	fputs("</text>\n", fp);
	axes(fp, &f);
	fputs("<g>\n", fp);
	for (size_t i = 0; i < shown; i++)
		job_rects(fp, &f, &r->rec[idx[i]]);
	fputs("</g>\n</svg>\n", fp);
}

int sim_gantt_svg(const tp_sim_result *r, FILE *fp, const char *path,
		  const char *title, tp_error *err)
{
	size_t *idx, shown;
	int64_t until;
	if (choose(r, &idx, &shown, &until))
		return tp_errorf(err, "%s: out of memory", path);
	svg(fp, r, idx, shown, until, title);
	free(idx);
	return 0;
}
