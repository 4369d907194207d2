/* args.c - toposim's command line; see args.h and toposim(1). */
#include "args.h"

#ifndef PACKAGE_VERSION
#error "PACKAGE_VERSION comes from configure (AC_INIT)"
#endif

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "settings/settings.h"
#include "alloc/alloc.h"
#include "alloc/outside.h"
#include "policy/policy.h"
#include "rtmodel/rtmodel.h"
#include "trace/esterr.h"
#include "topology/torus.h"
#include "cli/cli.h"

enum {
	OPT_NODES = 256, OPT_PPN, OPT_ALLOC, OPT_TOPOLOGY, OPT_FATTREE_CONF,
	OPT_TORUS, OPT_LENIENT, OPT_ESTERR, OPT_SEED, OPT_JOBS_CSV,
	OPT_SUMMARY, OPT_PLOT, OPT_CHECK, OPT_QUIET, OPT_HELP, OPT_JOB_REQS,
	OPT_SLICE, OPT_EST_FIELD, OPT_WINDOWS, OPT_BASE_SHAPES,
	OPT_MACHINE, OPT_HET_JOBS, OPT_TRUTH, OPT_EXPDB, OPT_ORACLE,
	OPT_OUTSIDE_RULE, OPT_SCALE_SIZES, OPT_LOAD, OPT_SACCT, OPT_PARTITION, OPT_SLURM_CONF,
	OPT_BATSIM_CSV, OPT_SWF_OUT, OPT_RUNTIME_MODEL, OPT_VERSION, OPT_FRAG_CSV,
	OPT_ALLOW_EMPTY,
	OPT_SACCTMGR, OPT_SPRIO_OUT, OPT_SPRIO_AT, OPT_QOS, OPT_USAGE,
	OPT_WHOLE_NODES, OPT_RHYTHM, OPT_LATENCY,
	OPT_SETTING = 1024, /* + index in tp_settings_table */
};

static const struct option fixed_opts[] = {
	{ "workload", required_argument, NULL, 'w' },
	{ "sacct", required_argument, NULL, OPT_SACCT },
	{ "partition", required_argument, NULL, OPT_PARTITION },
	{ "slurm-conf", required_argument, NULL, OPT_SLURM_CONF },
	{ "sacctmgr", required_argument, NULL, OPT_SACCTMGR },
	{ "qos", required_argument, NULL, OPT_QOS },
	{ "latency", required_argument, NULL, OPT_LATENCY },
	{ "usage", required_argument, NULL, OPT_USAGE },
	{ "whole-nodes", no_argument, NULL, OPT_WHOLE_NODES },
	{ "rhythm", required_argument, NULL, OPT_RHYTHM },
	{ "sprio-out", required_argument, NULL, OPT_SPRIO_OUT },
	{ "sprio-at", required_argument, NULL, OPT_SPRIO_AT },
	{ "scale-sizes", required_argument, NULL, OPT_SCALE_SIZES },
	{ "load", required_argument, NULL, OPT_LOAD },
	{ "nodes", required_argument, NULL, OPT_NODES },
	{ "ppn", required_argument, NULL, OPT_PPN },
	{ "alloc", required_argument, NULL, OPT_ALLOC },
	{ "topology", required_argument, NULL, OPT_TOPOLOGY },
	{ "fattree-conf", required_argument, NULL, OPT_FATTREE_CONF },
	{ "torus", required_argument, NULL, OPT_TORUS },
	{ "base-shapes", required_argument, NULL, OPT_BASE_SHAPES },
	{ "outside-rule", required_argument, NULL, OPT_OUTSIDE_RULE },
	{ "job-requests", required_argument, NULL, OPT_JOB_REQS },
	{ "jobs", required_argument, NULL, OPT_SLICE },
	{ "estimate-field", required_argument, NULL, OPT_EST_FIELD },
	{ "windows", required_argument, NULL, OPT_WINDOWS },
	{ "lenient", no_argument, NULL, OPT_LENIENT },
	{ "estimate-error", required_argument, NULL, OPT_ESTERR },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "jobs-csv", required_argument, NULL, OPT_JOBS_CSV },
	{ "summary-json", required_argument, NULL, OPT_SUMMARY },
	{ "frag-csv", required_argument, NULL, OPT_FRAG_CSV },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "batsim-csv", required_argument, NULL, OPT_BATSIM_CSV },
	{ "swf-out", required_argument, NULL, OPT_SWF_OUT },
	{ "allow-empty", no_argument, NULL, OPT_ALLOW_EMPTY },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "machine", required_argument, NULL, OPT_MACHINE },
	{ "het-jobs", required_argument, NULL, OPT_HET_JOBS },
	{ "truth", required_argument, NULL, OPT_TRUTH },
	{ "expdb", required_argument, NULL, OPT_EXPDB },
	{ "oracle", no_argument, NULL, OPT_ORACLE },
	{ "runtime-model", required_argument, NULL, OPT_RUNTIME_MODEL },
};
#define NFIXED (sizeof(fixed_opts) / sizeof(fixed_opts[0]))
#define MAX_SETTINGS 32

/* Setting names as flags: "rbhar_max_ext" -> "rbhar-max-ext". */
static char flag_names[MAX_SETTINGS][32];
/* The settings given on the command line (by index in the table), for
 * the warning about one the policy does not read. */
static bool setting_given[MAX_SETTINGS];

static void flag_name(const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s", name);
	for (char *p = out; *p; p++)
		if (*p == '_')
			*p = '-';
}

static void build_opts(struct option *opts)
{
	size_t n = 0;
	for (; n < NFIXED; n++)
		opts[n] = fixed_opts[n];
	for (size_t i = 0; tp_settings_table[i].name && i < MAX_SETTINGS; i++) {
		if (!(tp_settings_table[i].scope & TP_SCOPE_SIM))
			continue;
		flag_name(tp_settings_table[i].name, flag_names[i],
			  sizeof(flag_names[i]));
		/* -p is --policy: one option, given once */
		int val = strcmp(tp_settings_table[i].name, "policy") ?
			  OPT_SETTING + (int)i : 'p';
		opts[n++] = (struct option){ flag_names[i], required_argument,
					     NULL, val };
	}
	opts[n] = (struct option){ NULL, 0, NULL, 0 };
}

/* One setting: its values when they are names, and its default; the
 * policy has none here (toposim needs it given). */
static void usage_setting(FILE *fp, const tp_setting *e)
{
	char f[32];
	bool policy = !strcmp(e->name, "policy");
	flag_name(e->name, f, sizeof(f));
	fprintf(fp, "  --%-15s %s", f, e->help);
	if (e->type == TP_SET_CHOICE) {
		const char *sep = ": ";
		for (const char *const *n = e->choices(); *n; n++, sep = ", ")
			fprintf(fp, "%s%s", sep, *n);
	}
	if (policy)
		fputs(" (required)\n", fp);
	else
		fprintf(fp, " (default %s)\n", e->def);
}

void sim_usage(FILE *fp)
{
	fprintf(fp, "usage: toposim {--workload FILE | --sacct FILE} --policy NAME [settings]\n"
		"               [--partition NAME [--slurm-conf FILE]] [--scale-sizes F] [--load F]\n"
		"               [--sacct FILE --slurm-conf FILE [--sacctmgr FILE] [--qos FILE] [--usage replayed|recorded] [--sprio-out OUT --sprio-at T,...] [--whole-nodes] [--rhythm slurm|every-event] [--latency START,RELEASE]]\n"
		"               [--nodes N [--outside-rule never|one-node]] [--ppn P] [--alloc NAME]\n"
		"               [--topology FILE [--fattree-conf FILE] | --torus FILE [--base-shapes canonical|all]]\n"
		"               [--jobs FIRST:COUNT | --windows K:LEN:SEED | --windows LEN@I1,I2,...]\n"
		"               [--estimate-field N] [--job-requests FILE] [--lenient] [--estimate-error SPEC] [--seed S] [--check] [--quiet]\n"
		"               [--allow-empty]\n"
		"               [--runtime-model none|spread[:SHARE]]\n"
		"               [--plot PREFIX] [--batsim-csv OUT] [--swf-out OUT] [--frag-csv OUT]\n"
		"               --jobs-csv OUT --summary-json OUT\n"
		"               (OUT may be - or /dev/null; each output its own file)\n"
		"       toposim --machine FILE --het-jobs FILE --truth FILE [--expdb FILE | --oracle]\n"
		"               --policy olb|min-min|min-max|sjs|pjs [--jobs-csv OUT] [--summary-json OUT] [--batsim-csv OUT] [--quiet]\n"
		"       toposim --help | --version\n"
		"settings:\n");
	for (const tp_setting *e = tp_settings_table; e->name; e++)
		if (e->scope & TP_SCOPE_SIM)
			usage_setting(fp, e);
	fprintf(fp, "allocators:");
	for (const char *const *n = tp_alloc_names(); *n; n++)
		fprintf(fp, " %s", *n);
	fprintf(fp, "\nsee toposim(1)\n");
}

/* Whole-string integer in [lo, hi] into *out, or a usage error naming
 * the option. */
static int int_arg(tp_cli *cl, const char *opt, const char *v, long long lo,
		   long long hi, long long *out)
{
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (!*v || *end || errno || x < lo || x > hi)
		return tp_cli_fail(cl, "--%s: expected an integer in [%lld, %lld], got '%s'",
				   opt, lo, hi, v);
	*out = x;
	return 0;
}

/* A factor: a number in (0, 1e6], or a usage error naming the option. */
static int factor_arg(tp_cli *cl, const char *opt, const char *v, double *out)
{
	char *end;
	double x = strtod(v, &end);
	if (!*v || *end || !(x > 0 && x <= 1e6))
		return tp_cli_fail(cl, "--%s: expected a number above 0 (at most 1e6), got '%s'",
				   opt, v);
	*out = x;
	return 0;
}

/* --latency START,RELEASE: two whole numbers of seconds in [0, 3600]. */
static int latency_arg(tp_cli *cl, sim_config *c, const char *v)
{
	char *end, *end2 = NULL;
	errno = 0;
	long long a = strtoll(v, &end, 10), b = -1;
	if (end != v && *end == ',' && end[1])
		b = strtoll(end + 1, &end2, 10);
	if (b < 0 || errno || *end2 || a < 0 || a > 3600 || b > 3600)
		return tp_cli_fail(cl, "--latency: expected START,RELEASE (whole seconds in [0, 3600]), got '%s'",
				   v);
	c->latency_start = a;
	c->latency_release = b;
	return 0;
}

/* --jobs FIRST:COUNT: FIRST >= 0, COUNT >= 1. */
static int slice_arg(tp_cli *cl, sim_config *c, const char *v)
{
	char *end;
	errno = 0;
	long long first = strtoll(v, &end, 10), count = -1;
	if (end != v && *end == ':' && end[1])
		count = strtoll(end + 1, &end, 10);
	if (*v == '-' || *end || errno || first < 0 || count < 1)
		return tp_cli_fail(cl, "--jobs: expected FIRST:COUNT (FIRST >= 0, "
				   "COUNT >= 1), got '%s'", v);
	c->slice_first = (size_t)first;
	c->slice_count = (size_t)count;
	return 0;
}

static int windows_arg(tp_cli *cl, sim_config *c, const char *v)
{
	char why[128];
	if (sim_windows_parse(v, &c->windows, why, sizeof(why)))
		return tp_cli_fail(cl, "--windows: '%s': %s", v, why);
	return 0;
}

/* --base-shapes: torus-base's reading, replacing torus.conf's BaseShapes=. */
static int base_shapes_arg(tp_cli *cl, sim_config *c, const char *v)
{
	static const char *const names[] = { "canonical", "all", NULL };
	tp_torus_base_shapes r;
	if (tp_torus_base_shapes_parse(v, &r))
		return tp_cli_choice(cl, "--base-shapes", v, names, "reading");
	c->base_shapes = (int)r;
	return 0;
}

/* --outside-rule: which jobs may use the nodes beyond the topology's
 * (alloc/outside.h). */
static int outside_rule_arg(tp_cli *cl, sim_config *c, const char *v)
{
	static const char *const names[] = { "never", "one-node", NULL };
	tp_outside_rule r;
	if (tp_outside_rule_parse(v, &r))
		return tp_cli_choice(cl, "--outside-rule", v, names, "rule");
	c->outside_rule = (int)r;
	return 0;
}

/* --runtime-model none|spread[:SHARE] (rtmodel.h). */
static int runtime_model_arg(tp_cli *cl, sim_config *c, const char *v)
{
	char why[128];
	if (tp_rtmodel_parse(v, &c->runtime_model, &c->comm_share, why,
			     sizeof(why)))
		return tp_cli_fail(cl, "--runtime-model: '%s': %s", v, why);
	return 0;
}

/* --estimate-error SPEC: checked here (a usage error, exit 2); applied
 * once the trace is read. */
static int esterr_arg(tp_cli *cl, sim_config *c, const char *v)
{
	tp_esterr e;
	tp_error err;
	if (tp_esterr_parse(v, &e, &err))
		return tp_cli_fail(cl, "--estimate-error: %s", err.msg);
	c->esterr = v;
	return 0;
}

/* --alloc: a name of the registry, checked before anything is read
 * (whether it suits the machine is the loader's to say). */
static int alloc_arg(tp_cli *cl, sim_config *c, const char *v)
{
	c->alloc = v;
	return tp_cli_choice(cl, "--alloc", v, tp_alloc_names(), "allocator");
}

/* A setting of the table: a name among its choices (with the nearest
 * suggested), else the table's own check. */
static int set_setting(tp_cli *cl, sim_config *c, size_t i, const char *arg)
{
	const tp_setting *e = &tp_settings_table[i];
	char why[256], flag[40];
	snprintf(flag, sizeof(flag), "--%s", flag_names[i]);
	if (e->type == TP_SET_CHOICE &&
	    tp_cli_choice(cl, flag, arg, e->choices(), flag_names[i]))
		return TP_CLI_ERROR;
	if (tp_setting_set(e, &c->set, arg, why, sizeof(why)))
		return tp_cli_fail(cl, "%s: '%s' is %s", flag, arg, why);
	if (!strcmp(e->name, "policy"))
		c->policy_given = true;
	setting_given[i] = true;
	return 0;
}

/* An option's value into c: 0, or TP_CLI_ERROR. */
static int parse_value(tp_cli *cl, sim_config *c, int o, const char *arg)
{
	long long v;
	switch (o) {
	case 'w': c->workload = arg; return 0;
	case OPT_SACCT: c->sacct = arg; return 0;
	case OPT_SCALE_SIZES: return factor_arg(cl, "scale-sizes", arg, &c->swf.scale_sizes);
	case OPT_LOAD: return factor_arg(cl, "load", arg, &c->load);
	case OPT_PARTITION: c->partition = arg; return 0;
	case OPT_SLURM_CONF: c->slurm_conf = arg; return 0;
	case OPT_SACCTMGR: c->sacctmgr = arg; return 0;
	case OPT_QOS: c->qos = arg; return 0;
	case OPT_USAGE:
		if (!strcmp(arg, "recorded"))
			c->usage_recorded = true;
		else if (strcmp(arg, "replayed"))
			return tp_cli_fail(cl, "--usage: '%s' is neither replayed nor recorded", arg);
		return 0;
	case OPT_RHYTHM:
		if (!strcmp(arg, "every-event"))
			c->every_event = true;
		else if (strcmp(arg, "slurm"))
			return tp_cli_fail(cl, "--rhythm: '%s' is neither slurm nor every-event", arg);
		c->rhythm_given = true;
		return 0;
	case OPT_LATENCY: return latency_arg(cl, c, arg);
	case OPT_SPRIO_OUT: c->sprio_out = arg; return 0;
	case OPT_SPRIO_AT: c->sprio_at = arg; return 0;
	case 'p': return set_setting(cl, c, 0, arg);
	case OPT_NODES:
		if (int_arg(cl, "nodes", arg, 1, 1 << 24, &v))
			return TP_CLI_ERROR;
		c->swf.nodes = (int)v;
		return 0;
	case OPT_PPN:
		if (int_arg(cl, "ppn", arg, 1, 1 << 20, &v))
			return TP_CLI_ERROR;
		c->swf.ppn = (int)v;
		return 0;
	case OPT_ALLOC: return alloc_arg(cl, c, arg);
	case OPT_TOPOLOGY: c->topology = arg; return 0;
	case OPT_FATTREE_CONF: c->fattree_conf = arg; return 0;
	case OPT_TORUS: c->torus = arg; return 0;
	case OPT_BASE_SHAPES: return base_shapes_arg(cl, c, arg);
	case OPT_OUTSIDE_RULE: return outside_rule_arg(cl, c, arg);
	case OPT_JOB_REQS: c->job_reqs = arg; return 0;
	case OPT_SLICE: return slice_arg(cl, c, arg);
	case OPT_WINDOWS: return windows_arg(cl, c, arg);
	case OPT_EST_FIELD:
		if (int_arg(cl, "estimate-field", arg, 1, 18, &v))
			return TP_CLI_ERROR;
		c->swf.estimate_field = (int)v;
		return 0;
	case OPT_ESTERR: return esterr_arg(cl, c, arg);
	case OPT_SEED:
		if (int_arg(cl, "seed", arg, 0, INT64_MAX, &v))
			return TP_CLI_ERROR;
		c->seed = (uint64_t)v;
		return 0;
	case OPT_JOBS_CSV: c->jobs_csv = arg; return 0;
	case OPT_SUMMARY: c->summary_json = arg; return 0;
	case OPT_FRAG_CSV: c->frag_csv = arg; return 0;
	case OPT_PLOT: c->plot = arg; return 0;
	case OPT_BATSIM_CSV: c->batsim_csv = arg; return 0;
	case OPT_SWF_OUT: c->swf_out = arg; return 0;
	case OPT_MACHINE: c->machine = arg; return 0;
	case OPT_HET_JOBS: c->het_jobs = arg; return 0;
	case OPT_TRUTH: c->truth = arg; return 0;
	case OPT_EXPDB: c->expdb = arg; return 0;
	case OPT_RUNTIME_MODEL: return runtime_model_arg(cl, c, arg);
	default:
		if (o >= OPT_SETTING && o < OPT_SETTING + MAX_SETTINGS)
			return set_setting(cl, c, (size_t)(o - OPT_SETTING), arg);
		return tp_cli_fail(cl, "internal: option %d not handled", o);
	}
}

/* A flag into c. */
static void parse_flag(sim_config *c, int o)
{
	switch (o) {
	case OPT_WHOLE_NODES: c->whole_nodes = true; break;
	case OPT_LENIENT: c->swf.lenient = true; break;
	case OPT_CHECK: c->check = true; break;
	case OPT_QUIET: c->quiet = true; break;
	case OPT_ORACLE: c->oracle = true; break;
	case OPT_ALLOW_EMPTY: c->allow_empty = true; break;
	default: break;
	}
}

/* The policy's tp_het_algo, -1 for a policy that passes over one
 * cluster: the driver says which (tp_driver_scope_of), as it does for
 * sched/topo. */
static int policy_het_algo(const sim_config *c)
{
	tp_error err;
	tp_policy *p = tp_policy_create(c->set.policy, &c->set.popts, &err);
	int a = p && tp_driver_scope_of(p) == TP_DRIVE_MACHINE ?
		tp_policy_het_algo(p) : -1;
	tp_policy_destroy(p);
	return a;
}

/* --machine: the heterogeneous simulator; its options only. */
static int check_het(tp_cli *cl, sim_config *c)
{
	if (!c->policy_given)
		return tp_cli_fail(cl, "--policy is required (olb, min-min, min-max, sjs or pjs with --machine)");
	if (c->het_algo < 0)
		return tp_cli_fail(cl, "--policy %s is not a heterogeneous policy: "
				   "--machine needs olb, min-min, min-max, sjs or pjs", c->set.policy);
	if (!c->het_jobs)
		return tp_cli_fail(cl, "--machine needs --het-jobs FILE");
	if (!c->truth)
		return tp_cli_fail(cl, "--machine needs --truth FILE (the actual run times)");
	if (c->expdb && c->oracle)
		return tp_cli_fail(cl, "--expdb and --oracle exclude each other");
	if (c->workload || c->sacct || c->swf.scale_sizes || c->load || c->partition || c->slurm_conf || c->topology || c->fattree_conf || c->torus ||
	    c->job_reqs || c->windows.k || c->slice_count || c->plot || c->esterr ||
	    c->outside_rule >= 0 || c->swf_out || c->runtime_model || c->alloc)
		return tp_cli_fail(cl, "--machine runs the heterogeneous simulator: --workload, --sacct, --scale-sizes, --load, --partition, --slurm-conf, --topology, "
				   "--fattree-conf, --torus, --alloc, --job-requests, --windows, --jobs, --plot, "
				   "--swf-out, --estimate-error, --outside-rule and --runtime-model do not apply");
	return 0;
}

/* --sacct is the workload; --partition and --slurm-conf go with it or
 * restrict any workload's machine. */
static int check_sacct(tp_cli *cl, sim_config *c)
{
	if (c->sacct && c->workload)
		return tp_cli_fail(cl, "--workload and --sacct exclude each other (one workload)");
	if (c->sacct) {
		c->workload = c->sacct;
		if (c->swf.estimate_field)
			return tp_cli_fail(cl, "--estimate-field is an SWF option: sacct's estimate is Timelimit");
		if (c->swf.ppn)
			return tp_cli_fail(cl, "--ppn is an SWF option: sacct gives NNodes");
	}
	if (c->slurm_conf && !c->partition && !c->sacct)
		return tp_cli_fail(cl, "--slurm-conf gives a partition's nodes: it needs --partition NAME");
	if ((c->sacctmgr || c->qos || c->sprio_out || c->usage_recorded) && !(c->sacct && c->slurm_conf))
		return tp_cli_fail(cl, "--sacctmgr, --qos, --usage and --sprio-out model the site's priority: they need --sacct and --slurm-conf");
	if (c->rhythm_given && !(c->sacct && c->slurm_conf))
		return tp_cli_fail(cl, "--rhythm chooses the site's scheduler rhythm: it needs --sacct and --slurm-conf");
	if (c->whole_nodes && !(c->sacct && c->slurm_conf))
		return tp_cli_fail(cl, "--whole-nodes turns the site's resources inside nodes off: it needs --sacct and --slurm-conf");
	if (!c->sprio_out != !c->sprio_at)
		return tp_cli_fail(cl, "--sprio-out FILE and --sprio-at T[,T...] go together");
	if (c->partition && !c->slurm_conf && !c->sacct)
		return tp_cli_fail(cl, "--partition NAME needs --slurm-conf FILE (its nodes) or --sacct FILE (its jobs)");
	if (c->partition && c->slurm_conf && c->swf.nodes)
		return tp_cli_fail(cl, "--partition with --slurm-conf sizes the machine: not with --nodes");
	if (c->partition && c->slurm_conf && c->torus)
		return tp_cli_fail(cl, "--partition with --slurm-conf restricts a fat tree or a flat machine, not a torus");
	return 0;
}

/* Options that need another, or exclude one. */
static int check_combinations(tp_cli *cl, const sim_config *c)
{
	bool machine_file = c->topology || c->fattree_conf || c->torus;
	if (c->windows.k && c->slice_count)
		return tp_cli_fail(cl, "--jobs and --windows exclude each other");
	if (c->windows.k && (c->plot || c->batsim_csv || c->swf_out))
		return tp_cli_fail(cl, "--%s %s one schedule: not with --windows",
				   c->plot ? "plot" : c->batsim_csv ? "batsim-csv" : "swf-out",
				   c->plot ? "draws" : "writes");
	if ((c->topology || c->fattree_conf) && c->torus)
		return tp_cli_fail(cl, "--topology/--fattree-conf and --torus exclude each other");
	if (c->outside_rule >= 0 && !machine_file)
		return tp_cli_fail(cl, "--outside-rule is for nodes outside a topology: it needs --topology, --fattree-conf or --torus");
	if (c->base_shapes >= 0 && !c->torus)
		return tp_cli_fail(cl, "--base-shapes is a torus option: it needs --torus");
	if (c->runtime_model && !machine_file)
		return tp_cli_fail(cl, "--runtime-model spread measures placements: it needs --topology, --fattree-conf or --torus");
	if (c->runtime_model && c->windows.k)
		return tp_cli_fail(cl, "--runtime-model is not available with --windows");
	if (c->job_reqs && !machine_file)
		return tp_cli_fail(cl, "--job-requests names nodes: it needs --topology, --fattree-conf or --torus");
	return 0;
}

/* --plot PREFIX: gnuplot reads the file names from its script, where a
 * line break cannot be written; known before the replay, not after. */
static int check_plot(tp_cli *cl, const sim_config *c)
{
	if (!c->plot)
		return 0;
	if (!c->plot[0])
		return tp_cli_fail(cl, "--plot: expected a PREFIX for the file names, got ''");
	for (const unsigned char *p = (const unsigned char *)c->plot; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return tp_cli_fail(cl, "--plot: the PREFIX holds a control character (byte %d): gnuplot's script cannot name such a file",
					   *p);
	return 0;
}

static int check_required(tp_cli *cl, sim_config *c)
{
	c->het_algo = c->policy_given ? policy_het_algo(c) : -1;
	if (c->frag_csv && (c->machine || c->windows.k))
		return tp_cli_fail(cl, "--frag-csv follows one replay of one cluster: not with --machine or --windows");
	if (c->machine)
		return check_het(cl, c);
	if (c->het_jobs || c->truth || c->expdb || c->oracle)
		return tp_cli_fail(cl, "--het-jobs, --truth, --expdb and --oracle need --machine FILE");
	if (c->het_algo >= 0)
		return tp_cli_fail(cl, "--policy %s is a heterogeneous policy: it needs "
				   "--machine FILE --het-jobs FILE --truth FILE", c->set.policy);
	if (check_sacct(cl, c))
		return TP_CLI_ERROR;
	if (!c->workload)
		return tp_cli_fail(cl, "a workload is required: --workload FILE (SWF), "
				   "--sacct FILE (sacct -P output) or --machine FILE (heterogeneous)");
	const char *missing = !c->policy_given ? "--policy"
			    : !c->jobs_csv ? "--jobs-csv"
			    : !c->summary_json ? "--summary-json" : NULL;
	if (missing)
		return tp_cli_fail(cl, "%s is required", missing);
	if (check_combinations(cl, c) || check_plot(cl, c))
		return TP_CLI_ERROR;
	return 0;
}

/* A setting given for a policy that does not read it (--window with
 * easy): the run goes on, but the user learns the option did nothing.
 * Which policy reads which setting is the settings table's. */
static void warn_unread_settings(const sim_config *c)
{
	for (size_t i = 0; tp_settings_table[i].name && i < MAX_SETTINGS; i++) {
		const tp_setting *e = &tp_settings_table[i];
		if (setting_given[i] && !tp_setting_for_policy(e, c->set.policy))
			fprintf(stderr, "toposim: warning: --%s has no effect with --policy %s (it is read by %s)\n",
				flag_names[i], c->set.policy, e->policies);
	}
}

/* The options in turn: SIM_ARGS_RUN at their end, HELP or VERSION at
 * once, USAGE at the first error. */
static sim_args_verdict read_options(tp_cli *cl, sim_config *c)
{
	const char *arg;
	int o;
	while ((o = tp_cli_next(cl, &arg)) != -1) {
		if (o == TP_CLI_ERROR)
			return SIM_ARGS_USAGE;
		if (o == OPT_HELP)
			return SIM_ARGS_HELP;
		if (o == OPT_VERSION)
			return SIM_ARGS_VERSION;
		if (!arg)
			parse_flag(c, o);
		else if (parse_value(cl, c, o, arg))
			return SIM_ARGS_USAGE;
	}
	int first = tp_cli_operands(cl);
	if (first < cl->argc) {
		tp_cli_fail(cl, "unexpected argument '%s' (every input is an option's value: --workload FILE, ...)",
			    cl->argv[first]);
		return SIM_ARGS_USAGE;
	}
	return SIM_ARGS_RUN;
}

sim_args_verdict sim_parse_args(sim_config *c, int argc, char **argv,
				char *msg, size_t len)
{
	struct option opts[NFIXED + MAX_SETTINGS + 1];
	static tp_cli cl;
	memset(c, 0, sizeof(*c));
	memset(setting_given, 0, sizeof(setting_given));
	tp_settings_default(&c->set, false);
	c->seed = 1;
	c->base_shapes = -1;
	c->outside_rule = -1;
	build_opts(opts);
	tp_cli_init(&cl, "toposim", opts, "w:p:", argc, argv);
	sim_args_verdict v = read_options(&cl, c);
	if (v == SIM_ARGS_RUN && check_required(&cl, c))
		v = SIM_ARGS_USAGE;
	if (v == SIM_ARGS_USAGE)
		snprintf(msg, len, "%s", cl.msg);
	else if (v == SIM_ARGS_RUN)
		warn_unread_settings(c);
	if (v != SIM_ARGS_RUN)
		sim_windows_fini(&c->windows);
	return v;
}
