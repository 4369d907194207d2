/* batsim_csv.c - see batsim_csv.h. */
#include "batsim_csv.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *sim_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

void sim_batsim_header(FILE *fp)
{
	fputs("job_id,workload_name,profile,submission_time,"
	      "requested_number_of_resources,requested_time,success,final_state,"
	      "starting_time,execution_time,finish_time,waiting_time,"
	      "turnaround_time,stretch,allocated_resources,consumed_energy,"
	      "metadata\n", fp);
}

/* A text field: quoted (RFC 4180) only when it must be. */
static void put_field(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* Seconds: whole ones as integers (the cluster engine's clock), others
 * with Batsim's six decimals (the heterogeneous simulator's). */
static void put_time(FILE *fp, double t)
{
	if (t == floor(t) && fabs(t) < 9e15)
		fprintf(fp, ",%.0f", t);
	else
		fprintf(fp, ",%.6f", t);
}

/* What every line has, whichever simulator made it. */
typedef struct batsim_row {
	const char *workload, *profile;
	int64_t id;
	int attempt;         /* 1: the job's id as it is; n > 1: "ID#n-1" */
	double submit, start, end, requested_time;
	int requested;
	bool killed;         /* ended at its limit */
	const char *resources; /* Batsim interval set */
	const char *metadata;
} batsim_row;

static void put_row(FILE *fp, const batsim_row *b)
{
	double exec = b->end - b->start, turn = b->end - b->submit;
	fprintf(fp, "%" PRId64, b->id);
	if (b->attempt > 1)
		fprintf(fp, "#%d", b->attempt - 1);
	fputc(',', fp);
	put_field(fp, b->workload);
	fputc(',', fp);
	put_field(fp, b->profile);
	put_time(fp, b->submit);
	fprintf(fp, ",%d", b->requested);
	put_time(fp, b->requested_time);
	fprintf(fp, ",%d,%s", b->killed ? 0 : 1,
		b->killed ? "COMPLETED_WALLTIME_REACHED" : "COMPLETED_SUCCESSFULLY");
	put_time(fp, b->start);
	put_time(fp, exec);
	put_time(fp, b->end);
	put_time(fp, b->start - b->submit);
	put_time(fp, turn);
	/* A run of no time has no stretch (Batsim would divide by zero). */
	if (exec > 0)
		fprintf(fp, ",%.6f", turn / exec);
	else
		fputc(',', fp);
	fprintf(fp, ",%s,-1,", b->resources);
	put_field(fp, b->metadata);
	fputc('\n', fp);
}

/* "0-3,8" (the engine's node list) -> "0-3 8" into buf; a list longer
 * than buf is allocated (*own, to free). */
static const char *interval_set(const char *list, char *buf, size_t len,
				char **own)
{
	size_t n = strlen(list) + 1;
	char *out = buf;
	*own = NULL;
	if (n > len && !(out = *own = malloc(n)))
		return NULL;
	for (size_t i = 0; i < n; i++)
		out[i] = list[i] == ',' ? ' ' : list[i];
	return out;
}

int sim_batsim_write_runs(FILE *fp, const tp_sim_result *r,
			  const char *workload_name, sim_cost_column cost)
{
	sim_batsim_header(fp);
	for (size_t i = 0; i < r->nrec; i++) {
		const tp_record *x = &r->rec[i];
		char buf[256], meta[160], *own;
		const char *res = interval_set(x->nodelist ? x->nodelist : "", buf,
					       sizeof(buf), &own);
		if (!res)
			return -1;
		int m = snprintf(meta, sizeof(meta), "attempt=%d;fill=%d;extensions=%d",
				 x->attempt, x->fill, x->extensions);
		if (x->cost >= 0)
			snprintf(meta + m, sizeof(meta) - (size_t)m, ";%s=%.*f",
				 cost.name, cost.decimals, x->cost);
		batsim_row b = { .workload = workload_name, .profile = "delay",
				 .id = x->id, .attempt = x->attempt,
				 .submit = (double)x->submit,
				 .start = (double)x->start, .end = (double)x->end,
				 .requested_time = (double)x->estimate,
				 .requested = x->nodes_req,
				 .killed = x->status == TP_KILLED,
				 .resources = res, .metadata = meta };
		put_row(fp, &b);
		free(own);
	}
	return ferror(fp) ? -1 : 0;
}

/* Ascending node indices -> "0-3 7" (malloc'd; NULL out of memory). */
static char *het_interval_set(const int *node, int n)
{
	char *s = malloc((size_t)n * 24 + 1), *p = s;
	if (!s)
		return NULL;
	*p = '\0';
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && node[j + 1] == node[j] + 1)
			j++;
		p += sprintf(p, "%s%d", i ? " " : "", node[i]);
		if (j > i)
			p += sprintf(p, "-%d", node[j]);
		i = j + 1;
	}
	return s;
}

int sim_batsim_write_het(FILE *fp, const tp_het_conf *c,
			 const tp_het_workload *w, const tp_het_sim_result *r,
			 const char *workload_name)
{
	sim_batsim_header(fp);
	for (size_t i = 0; i < r->n; i++) {
		const tp_het_sim_job *o = &r->job[i];
		const tp_het_job *j = &w->job[i];
		if (!o->ran)
			continue;
		char *res = het_interval_set(o->node, o->nodes), meta[256];
		if (!res)
			return -1;
		snprintf(meta, sizeof(meta), "partition=%s;nodes=%d;parallel=%d;prio=%d",
			 c->part[o->part].name, o->nodes, o->parallel, o->prio);
		batsim_row b = { .workload = workload_name,
				 .profile = w->jclass_name[o->jclass],
				 .id = o->id, .attempt = 1,
				 .submit = (double)o->submit, .start = o->start,
				 .end = o->end,
				 .requested_time = (double)j->estimate,
				 .requested = j->nmin, .killed = o->killed,
				 .resources = res, .metadata = meta };
		put_row(fp, &b);
		free(res);
	}
	return ferror(fp) ? -1 : 0;
}
