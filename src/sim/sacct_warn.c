/* sacct_warn.c - see sacct_warn.h. */
#include "sacct_warn.h"

#include <string.h>

static void one(FILE *fp, const tp_sacct *s, const tp_sacct_count *c,
		const char *what, const char *used)
{
	if (c->n)
		fprintf(fp, "toposim: warning: %s: %zu record(s) %s (first: line %zu): %s\n",
			s->name, c->n, what, c->first_line, used);
}

/* Without --partition every partition's jobs share one machine. */
static void merged(FILE *fp, const tp_sacct *s, const char *partition)
{
	if (partition || s->nparts < 2)
		return;
	fprintf(fp, "toposim: warning: %s: the jobs of %zu partitions (", s->name,
		s->nparts);
	for (size_t i = 0; i < s->nparts; i++)
		fprintf(fp, "%s%s", i ? ", " : "", s->names[s->parts[i]]);
	fprintf(fp, ") replayed together on one machine of %d nodes, each job free to use any node: --partition NAME replays one\n",
		s->w.nodes);
}

void sim_sacct_warn(FILE *fp, const tp_sacct *s, const sim_actual *a,
		    const char *partition, bool partitioned, bool shares)
{
	const tp_sacct_warnings *w = &s->warn;
	one(fp, s, &w->nnodes, "give NNodes unlike their NodeList's count",
	    "the NodeList's count used");
	one(fp, s, &w->elapsed_long, "give an Elapsed longer than End - Start",
	    "End - Start used");
	one(fp, s, &w->elapsed_short,
	    "give an Elapsed shorter than End - Start (time suspended?)",
	    "Elapsed used as the run time, the nodes held from Start to End in Slurm's schedule");
	one(fp, s, &w->duplicate, "repeat a job id seen before",
	    "the first record replayed, the later ones not");
	one(fp, s, &w->limit_partition,
	    "give Timelimit UNLIMITED or Partition_Limit",
	    "their partition's MaxTime (--slurm-conf) used as the estimate");
	if (w->limit_missing.n < s->w.njobs) /* all: warn_no_estimates */
		one(fp, s, &w->limit_missing,
		    "have no usable Timelimit (UNLIMITED or Partition_Limit without a MaxTime from --slurm-conf, INVALID, empty)",
		    "their run time used as the estimate (exact)");
	if (w->overlap.n)
		fprintf(fp, "toposim: warning: %s: %zu job(s) of other partitions ran on partition %s's nodes (first: line %zu): not replayed, so the partition's nodes were busier in Slurm's schedule than in the replay\n",
			s->name, w->overlap.n, partition ? partition : "?",
			w->overlap.first_line);
	if (!partitioned)
		merged(fp, s, partition);
	if (a && a->shared && shares)
		fprintf(fp, "toposim: %s: %zu job(s) shared a node with another job in Slurm's schedule (first: line %zu): replayed with resources inside nodes, so they may share nodes in the replay too; both utilisations count a node once however many jobs it held\n",
			s->name, a->shared, a->first_shared_line);
	else if (a && a->shared)
		fprintf(fp, "toposim: warning: %s: %zu job(s) shared a node with another job in Slurm's schedule (first: line %zu): the replay gives every job whole nodes, so its waits are not comparable with Slurm's; Slurm's utilisation counts a node once however many jobs it held\n",
			s->name, a->shared, a->first_shared_line);
}

static void count_json(FILE *fp, const char *name, const tp_sacct_count *c,
		       const char *sep)
{
	fprintf(fp, "\"%s\": %zu%s", name, c->n, sep);
}

void sim_sacct_warn_json(FILE *fp, const tp_sacct *s, size_t shared)
{
	const tp_sacct_warnings *w = &s->warn;
	fputs("    \"warnings\": {", fp);
	count_json(fp, "nnodes_unlike_nodelist", &w->nnodes, ", ");
	count_json(fp, "elapsed_longer", &w->elapsed_long, ", ");
	count_json(fp, "elapsed_shorter", &w->elapsed_short, ", ");
	count_json(fp, "duplicate_id", &w->duplicate, ", ");
	count_json(fp, "limit_from_partition", &w->limit_partition, ", ");
	count_json(fp, "limit_missing", &w->limit_missing, ", ");
	count_json(fp, "other_partition_on_nodes", &w->overlap, ", ");
	fprintf(fp, "\"partitions\": %zu, \"shared_node_jobs\": %zu},\n",
		s->nparts, shared);
}
