/* args.c - toposim's command line; see args.h and toposim(1). */
#include "args.h"

#ifndef PACKAGE_VERSION
#error "PACKAGE_VERSION comes from configure (AC_INIT)"
#endif

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
#include "topology/torus.h"

enum {
	OPT_NODES = 256, OPT_PPN, OPT_ALLOC, OPT_TOPOLOGY, OPT_FATTREE_CONF,
	OPT_TORUS, OPT_LENIENT, OPT_ESTERR, OPT_SEED, OPT_JOBS_CSV,
	OPT_SUMMARY, OPT_PLOT, OPT_CHECK, OPT_QUIET, OPT_HELP, OPT_JOB_REQS,
	OPT_SLICE, OPT_EST_FIELD, OPT_WINDOWS, OPT_BASE_SHAPES,
	OPT_MACHINE, OPT_HET_JOBS, OPT_TRUTH, OPT_EXPDB, OPT_ORACLE,
	OPT_OUTSIDE_RULE, OPT_SCALE_SIZES, OPT_LOAD, OPT_SACCT, OPT_PARTITION, OPT_SLURM_CONF,
	OPT_BATSIM_CSV, OPT_SWF_OUT, OPT_RUNTIME_MODEL, OPT_VERSION, OPT_FRAG_CSV,
	OPT_SACCTMGR, OPT_SPRIO_OUT, OPT_SPRIO_AT, OPT_WHOLE_NODES,
	OPT_SETTING = 1024, /* + index in tp_settings_table */
};

static const struct option fixed_opts[] = {
	{ "workload", required_argument, NULL, 'w' },
	{ "sacct", required_argument, NULL, OPT_SACCT },
	{ "partition", required_argument, NULL, OPT_PARTITION },
	{ "slurm-conf", required_argument, NULL, OPT_SLURM_CONF },
	{ "sacctmgr", required_argument, NULL, OPT_SACCTMGR },
	{ "whole-nodes", no_argument, NULL, OPT_WHOLE_NODES },
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
		opts[n++] = (struct option){ flag_names[i], required_argument,
					     NULL, OPT_SETTING + (int)i };
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

static void usage(FILE *fp)
{
	fprintf(fp, "usage: toposim {--workload FILE | --sacct FILE} --policy NAME [settings]\n"
		"               [--partition NAME [--slurm-conf FILE]] [--scale-sizes F] [--load F]\n"
		"               [--sacct FILE --slurm-conf FILE [--sacctmgr FILE] [--sprio-out OUT --sprio-at T,...] [--whole-nodes]]\n"
		"               [--nodes N [--outside-rule never|one-node]] [--ppn P] [--alloc NAME]\n"
		"               [--topology FILE [--fattree-conf FILE] | --torus FILE [--base-shapes canonical|all]]\n"
		"               [--jobs FIRST:COUNT | --windows K:LEN:SEED | --windows LEN@I1,I2,...]\n"
		"               [--estimate-field N] [--job-requests FILE] [--lenient] [--estimate-error SPEC] [--seed S] [--check] [--quiet]\n"
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

/* Whole-string integer in [lo, hi], or exit naming the option. */
static long long int_arg(const char *opt, const char *v, long long lo,
			 long long hi)
{
	char *end;
	long long x = strtoll(v, &end, 10);
	if (!*v || *end || x < lo || x > hi) {
		fprintf(stderr, "toposim: --%s: expected an integer in [%lld, %lld], "
			"got '%s'\n", opt, lo, hi, v);
		exit(2);
	}
	return x;
}

/* A factor: a number in (0, 1e6], or exit naming the option. */
static double factor_arg(const char *opt, const char *v)
{
	char *end;
	double x = strtod(v, &end);
	if (!*v || *end || !(x > 0 && x <= 1e6)) {
		fprintf(stderr, "toposim: --%s: expected a number above 0 (at most 1e6), got '%s'\n",
			opt, v);
		exit(2);
	}
	return x;
}

/* --jobs FIRST:COUNT: FIRST >= 0, COUNT >= 1, or exit naming the value. */
static void slice_arg(sim_config *c, const char *v)
{
	char *end;
	long long first = strtoll(v, &end, 10), count = -1;
	if (end != v && *end == ':' && end[1])
		count = strtoll(end + 1, &end, 10);
	if (*v == '-' || *end || first < 0 || count < 1) {
		fprintf(stderr, "toposim: --jobs: expected FIRST:COUNT (FIRST >= 0, "
			"COUNT >= 1), got '%s'\n", v);
		exit(2);
	}
	c->slice_first = (size_t)first;
	c->slice_count = (size_t)count;
}

static void windows_arg(sim_config *c, const char *v)
{
	char why[128];
	sim_windows_fini(&c->windows);
	if (sim_windows_parse(v, &c->windows, why, sizeof(why))) {
		fprintf(stderr, "toposim: --windows: '%s': %s\n", v, why);
		exit(2);
	}
}

/* --base-shapes: torus-base's reading, replacing torus.conf's BaseShapes=. */
static void base_shapes_arg(sim_config *c, const char *v)
{
	tp_torus_base_shapes r;
	if (tp_torus_base_shapes_parse(v, &r)) {
		fprintf(stderr, "toposim: --base-shapes: expected canonical or all, got '%s'\n",
			v);
		exit(2);
	}
	c->base_shapes = (int)r;
}

/* --outside-rule: which jobs may use the nodes beyond the topology's
 * (alloc/outside.h). */
static void outside_rule_arg(sim_config *c, const char *v)
{
	tp_outside_rule r;
	if (tp_outside_rule_parse(v, &r)) {
		fprintf(stderr, "toposim: --outside-rule: expected never or one-node, got '%s'\n",
			v);
		exit(2);
	}
	c->outside_rule = (int)r;
}

/* --runtime-model none|spread[:SHARE] (rtmodel.h). */
static void runtime_model_arg(sim_config *c, const char *v)
{
	char why[128];
	if (tp_rtmodel_parse(v, &c->runtime_model, &c->comm_share, why,
			     sizeof(why))) {
		fprintf(stderr, "toposim: --runtime-model: '%s': %s\n", v, why);
		exit(2);
	}
}

static void set_setting(sim_config *c, size_t i, const char *arg)
{
	const tp_setting *e = &tp_settings_table[i];
	char why[256];
	if (tp_setting_set(e, &c->set, arg, why, sizeof(why))) {
		fprintf(stderr, "toposim: --%s: '%s' is %s\n", flag_names[i], arg,
			why);
		exit(2);
	}
	if (!strcmp(e->name, "policy"))
		c->policy_given = true;
	setting_given[i] = true;
}

static void parse_one(sim_config *c, int o, const char *arg)
{
	switch (o) {
	case 'w': c->workload = arg; break;
	case OPT_SACCT: c->sacct = arg; break;
	case OPT_SCALE_SIZES: c->swf.scale_sizes = factor_arg("scale-sizes", arg); break;
	case OPT_LOAD: c->load = factor_arg("load", arg); break;
	case OPT_PARTITION: c->partition = arg; break;
	case OPT_SLURM_CONF: c->slurm_conf = arg; break;
	case OPT_SACCTMGR: c->sacctmgr = arg; break;
	case OPT_WHOLE_NODES: c->whole_nodes = true; break;
	case OPT_SPRIO_OUT: c->sprio_out = arg; break;
	case OPT_SPRIO_AT: c->sprio_at = arg; break;
	case 'p': set_setting(c, 0, arg); break;
	case OPT_NODES: c->swf.nodes = (int)int_arg("nodes", arg, 1, 1 << 24); break;
	case OPT_PPN: c->swf.ppn = (int)int_arg("ppn", arg, 1, 1 << 20); break;
	case OPT_ALLOC: c->alloc = arg; break;
	case OPT_TOPOLOGY: c->topology = arg; break;
	case OPT_FATTREE_CONF: c->fattree_conf = arg; break;
	case OPT_TORUS: c->torus = arg; break;
	case OPT_BASE_SHAPES: base_shapes_arg(c, arg); break;
	case OPT_OUTSIDE_RULE: outside_rule_arg(c, arg); break;
	case OPT_JOB_REQS: c->job_reqs = arg; break;
	case OPT_SLICE: slice_arg(c, arg); break;
	case OPT_WINDOWS: windows_arg(c, arg); break;
	case OPT_EST_FIELD: c->swf.estimate_field = (int)int_arg("estimate-field", arg, 1, 18); break;
	case OPT_LENIENT: c->swf.lenient = true; break;
	case OPT_ESTERR: c->esterr = arg; break;
	case OPT_SEED: c->seed = (uint64_t)int_arg("seed", arg, 0, INT64_MAX); break;
	case OPT_JOBS_CSV: c->jobs_csv = arg; break;
	case OPT_SUMMARY: c->summary_json = arg; break;
	case OPT_FRAG_CSV: c->frag_csv = arg; break;
	case OPT_PLOT: c->plot = arg; break;
	case OPT_BATSIM_CSV: c->batsim_csv = arg; break;
	case OPT_SWF_OUT: c->swf_out = arg; break;
	case OPT_CHECK: c->check = true; break;
	case OPT_QUIET: c->quiet = true; break;
	case OPT_HELP: usage(stdout); exit(0);
	case OPT_VERSION: printf("toposim (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION); exit(0);
	case OPT_MACHINE: c->machine = arg; break;
	case OPT_HET_JOBS: c->het_jobs = arg; break;
	case OPT_TRUTH: c->truth = arg; break;
	case OPT_EXPDB: c->expdb = arg; break;
	case OPT_ORACLE: c->oracle = true; break;
	case OPT_RUNTIME_MODEL: runtime_model_arg(c, arg); break;
	default:
		if (o >= OPT_SETTING && o < OPT_SETTING + MAX_SETTINGS) {
			set_setting(c, (size_t)(o - OPT_SETTING), arg);
			break;
		}
		usage(stderr);
		exit(2);
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

static void usage_error(const char *msg)
{
	fprintf(stderr, "toposim: %s\n", msg);
	exit(2);
}

/* --machine: the heterogeneous simulator; its options only. */
static void check_het(sim_config *c)
{
	if (!c->policy_given)
		usage_error("--policy is required (olb, min-min, min-max, sjs or pjs with --machine)");
	if (c->het_algo < 0) {
		fprintf(stderr, "toposim: --policy %s is not a heterogeneous policy: "
			"--machine needs olb, min-min, min-max, sjs or pjs\n", c->set.policy);
		exit(2);
	}
	if (!c->het_jobs || !c->truth)
		usage_error(!c->het_jobs ? "--machine needs --het-jobs FILE"
				       : "--machine needs --truth FILE (the actual run times)");
	if (c->expdb && c->oracle)
		usage_error("--expdb and --oracle exclude each other");
	if (c->workload || c->sacct || c->swf.scale_sizes || c->load || c->partition || c->slurm_conf || c->topology || c->fattree_conf || c->torus ||
	    c->job_reqs || c->windows.k || c->slice_count || c->plot || c->esterr ||
	    c->outside_rule >= 0 || c->swf_out || c->runtime_model)
		usage_error("--machine runs the heterogeneous simulator: --workload, --sacct, --scale-sizes, --load, --partition, --slurm-conf, --topology, "
			    "--fattree-conf, --torus, --job-requests, --windows, --jobs, --plot, "
			    "--swf-out, --estimate-error, --outside-rule and --runtime-model do not apply");
}

/* --sacct is the workload; --partition and --slurm-conf go with it or
 * restrict any workload's machine. */
static void check_sacct(sim_config *c)
{
	if (c->sacct && c->workload)
		usage_error("--workload and --sacct exclude each other (one workload)");
	if (c->sacct) {
		c->workload = c->sacct;
		if (c->swf.estimate_field)
			usage_error("--estimate-field is an SWF option: sacct's estimate is Timelimit");
		if (c->swf.ppn)
			usage_error("--ppn is an SWF option: sacct gives NNodes");
	}
	if (c->slurm_conf && !c->partition && !c->sacct)
		usage_error("--slurm-conf gives a partition's nodes: it needs --partition NAME");
	if (c->whole_nodes && !(c->sacct && c->slurm_conf))
		usage_error("--whole-nodes turns the site's resources inside nodes off: it needs --sacct and --slurm-conf");
	if ((c->sacctmgr || c->sprio_out) && !(c->sacct && c->slurm_conf))
		usage_error("--sacctmgr and --sprio-out model the site's priority: they need --sacct and --slurm-conf");
	if (!c->sprio_out != !c->sprio_at)
		usage_error("--sprio-out FILE and --sprio-at T[,T...] go together");
	if (c->partition && !c->slurm_conf && !c->sacct)
		usage_error("--partition NAME needs --slurm-conf FILE (its nodes) or --sacct FILE (its jobs)");
	if (c->partition && c->slurm_conf && c->swf.nodes)
		usage_error("--partition with --slurm-conf sizes the machine: not with --nodes");
	if (c->partition && c->slurm_conf && c->torus)
		usage_error("--partition with --slurm-conf restricts a fat tree or a flat machine, not a torus");
}

static void check_required(sim_config *c)
{
	c->het_algo = c->policy_given ? policy_het_algo(c) : -1;
	if (c->frag_csv && (c->machine || c->windows.k))
		usage_error("--frag-csv follows one replay of one cluster: not with --machine or --windows");
	if (c->machine) {
		check_het(c);
		return;
	}
	if (c->het_jobs || c->truth || c->expdb || c->oracle)
		usage_error("--het-jobs, --truth, --expdb and --oracle need --machine FILE");
	if (c->het_algo >= 0) {
		fprintf(stderr, "toposim: --policy %s is a heterogeneous policy: it needs "
			"--machine FILE --het-jobs FILE --truth FILE\n", c->set.policy);
		exit(2);
	}
	check_sacct(c);
	const char *missing = !c->workload ? "--workload"
			    : !c->policy_given ? "--policy"
			    : !c->jobs_csv ? "--jobs-csv"
			    : !c->summary_json ? "--summary-json" : NULL;
	if (missing) {
		fprintf(stderr, "toposim: %s is required\n", missing);
		usage(stderr);
		exit(2);
	}
	if (c->windows.k && c->slice_count) {
		fprintf(stderr, "toposim: --jobs and --windows exclude each other\n");
		exit(2);
	}
	if (c->windows.k && (c->plot || c->batsim_csv || c->swf_out)) {
		fprintf(stderr, "toposim: --%s %s one schedule: not with --windows\n",
			c->plot ? "plot" : c->batsim_csv ? "batsim-csv" : "swf-out",
			c->plot ? "draws" : "writes");
		exit(2);
	}
	if ((c->topology || c->fattree_conf) && c->torus) {
		fprintf(stderr, "toposim: --topology/--fattree-conf and --torus exclude each other\n");
		exit(2);
	}
	if (c->outside_rule >= 0 && !c->topology && !c->fattree_conf && !c->torus) {
		fprintf(stderr, "toposim: --outside-rule is for nodes outside a topology: it needs --topology, --fattree-conf or --torus\n");
		exit(2);
	}
	if (c->base_shapes >= 0 && !c->torus) {
		fprintf(stderr, "toposim: --base-shapes is a torus option: it needs --torus\n");
		exit(2);
	}
	if (c->runtime_model && !c->topology && !c->fattree_conf && !c->torus) {
		fprintf(stderr, "toposim: --runtime-model spread measures placements: it needs --topology, --fattree-conf or --torus\n");
		exit(2);
	}
	if (c->runtime_model && c->windows.k) {
		fprintf(stderr, "toposim: --runtime-model is not available with --windows\n");
		exit(2);
	}
	if (c->job_reqs && !c->topology && !c->fattree_conf && !c->torus) {
		fprintf(stderr, "toposim: --job-requests names nodes: it needs --topology, --fattree-conf or --torus\n");
		exit(2);
	}
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

void sim_parse_args(sim_config *c, int argc, char **argv)
{
	struct option opts[NFIXED + MAX_SETTINGS + 1];
	memset(c, 0, sizeof(*c));
	tp_settings_default(&c->set, false);
	c->seed = 1;
	c->base_shapes = -1;
	c->outside_rule = -1;
	build_opts(opts);
	int o;
	while ((o = getopt_long(argc, argv, "w:p:", opts, NULL)) != -1)
		parse_one(c, o, optarg);
	if (optind < argc) {
		fprintf(stderr, "toposim: unexpected argument '%s'\n", argv[optind]);
		exit(2);
	}
	check_required(c);
	warn_unread_settings(c);
}
