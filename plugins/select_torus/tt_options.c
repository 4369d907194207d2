/* tt_options.c - select/torus's SchedulerParameters keys; see tt_options.h. */
#include "tt_options.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define WHERE "SchedulerParameters"
#define PREFIX "torus_"

/*
 * Every string Slurm 22.05.8 looks for in SchedulerParameters: the list
 * of plugins/sched_topo/slurm_sched_keys.txt (which says how it was made
 * from the source; test/check_plugin_torus.c checks that every key there
 * is here), plus the PowerParameters keys that power_cray_aries.c reads
 * through a variable also called sched_params - not SchedulerParameters,
 * kept to err on the safe side.  A Slurm release that adds keys should
 * add them to both.
 */
const char *const tt_slurm_sched_keys[] = {
	"Ignore_NUMA", "allow_zero_lic", "assoc_limit_stop",
	"balance_interval=", "batch_sched_delay=", "bb_array_stage_cnt=",
	"bf_busy_nodes", "bf_continue", "bf_hetjob_immediate",
	"bf_hetjob_prio=", "bf_interval=", "bf_job_part_count_reserve=",
	"bf_licenses", "bf_max_job_array_resv=", "bf_max_job_assoc=",
	"bf_max_job_part=", "bf_max_job_start=", "bf_max_job_test=",
	"bf_max_job_user=", "bf_max_job_user_part=", "bf_max_time=",
	"bf_min_age_reserve=", "bf_min_prio_reserve=",
	"bf_node_space_size=", "bf_one_resv_per_job", "bf_resolution=",
	"bf_running_job_reserve", "bf_window=", "bf_window_linear=",
	"bf_yield_interval=", "bf_yield_sleep=", "build_queue_timeout=",
	"cap_watts=", "capmc_path=", "correspond_after_task_cnt=",
	"decrease_rate=", "default_queue_depth=", "defer", "delay_boot=",
	"disable_hetero_steps", "disable_hetjob_steps", "disable_job_shrink",
	"enable_user_top", "get_timeout=", "ignore_prefer_validation",
	"increase_rate=", "interval=", "job_level", "job_no_level",
	"jobs_per_user_per_hour=", "lower_threshold=", "max_array_tasks=",
	"max_job_bf=", "max_rpc_cnt=", "max_rpc_count=", "max_sched_time=",
	"max_script_size=", "max_switch_wait=", "no_backup_scheduling",
	"no_env_cache", "nohold_on_prolog_fail", "pack_serial_at_end",
	"partition_job_depth=", "permit_job_expansion",
	"preempt_reorder_count=", "preempt_strict_order",
	"preempt_youngest_first", "recent_job=", "reduce_completing_frag",
	"requeue_setup_env_fail", "salloc_wait_nodes", "sbatch_wait_nodes",
	"sched_interval=", "sched_max_job_start=", "sched_min_interval=",
	"set_timeout=", "set_watts=", "spec_cores_first",
	"step_retry_count=", "step_retry_time=", "upper_threshold=",
	"whole_hetjob", "whole_pack",
	NULL
};

/* Slurm's key that `s` contains (case-insensitively), or NULL. */
static const char *slurm_key_in(const char *s)
{
	for (const char *const *k = tt_slurm_sched_keys; *k; k++) {
		size_t n = strlen(*k);
		for (const char *p = s; *p; p++)
			if (!strncasecmp(p, *k, n))
				return *k;
	}
	return NULL;
}

static int set_method(tt_options *o, const char *val, tp_error *err)
{
	if (o->have_method)
		return tp_errorf(err, WHERE ": torus_method given twice ('%s')",
				 val);
	if (tp_torus_method_parse(val, &o->method))
		return tp_errorf(err, WHERE ": torus_method: unknown method '%s' (known: base, fs, mss)",
				 val);
	o->have_method = true;
	return 0;
}

static int set_conf(tt_options *o, const char *val, tp_error *err)
{
	if (o->conf)
		return tp_errorf(err, WHERE ": torus_conf given twice ('%s')",
				 val);
	if (!val[0])
		return tp_errorf(err, WHERE ": torus_conf: empty path");
	o->conf = strdup(val);
	return o->conf ? 0 : tp_errorf(err, WHERE ": out of memory");
}

/* One comma-separated item "key[=value]" that starts with torus_. */
static int set_item(tt_options *o, const char *item, tp_error *err)
{
	const char *eq = strchr(item, '=');
	size_t klen = eq ? (size_t)(eq - item) : strlen(item);
	const char *val = eq ? eq + 1 : NULL;
	const char *clash = slurm_key_in(item);

	if (clash)
		return tp_errorf(err, WHERE ": '%s' contains '%s', which Slurm's own look-ups would take as its setting",
				 item, clash);
	if (!val)
		return tp_errorf(err, WHERE ": '%s' needs a value (%.*s=...)",
				 item, (int)klen, item);
	if (klen == strlen("torus_method") &&
	    !strncasecmp(item, "torus_method", klen))
		return set_method(o, val, err);
	if (klen == strlen("torus_conf") &&
	    !strncasecmp(item, "torus_conf", klen))
		return set_conf(o, val, err);
	return tp_errorf(err, WHERE ": unknown key '%.*s' (known: torus_conf, torus_method)",
			 (int)klen, item);
}

int tt_options_parse(tt_options *o, const char *sched_params, tp_error *err)
{
	*o = (tt_options){ 0 };
	if (!sched_params)
		return 0;
	char *copy = strdup(sched_params), *save = NULL;
	if (!copy)
		return tp_errorf(err, WHERE ": out of memory");
	int rc = 0;
	for (char *item = strtok_r(copy, ",", &save); item && !rc;
	     item = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*item))
			item++;
		if (!strncasecmp(item, PREFIX, strlen(PREFIX)))
			rc = set_item(o, item, err);
	}
	free(copy);
	if (rc)
		tt_options_fini(o);
	return rc;
}

void tt_options_fini(tt_options *o)
{
	free(o->conf);
	*o = (tt_options){ 0 };
}
