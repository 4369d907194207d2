/* tps_linear.c - select/linear as the delegate; see tps_linear.h. */
#include "tps_linear.h"

#include "src/common/log.h"

/*
 * Same names, same order as slurm_select_ops_t and node_select_syms[] in
 * Slurm 22.05's src/common/select.c: plugin_id and 36 operations.
 */
static const char *linear_syms[] = {
	"plugin_id",
	"select_p_state_save",
	"select_p_state_restore",
	"select_p_job_init",
	"select_p_node_init",
	"select_p_job_test",
	"select_p_job_begin",
	"select_p_job_ready",
	"select_p_job_expand",
	"select_p_job_resized",
	"select_p_job_signal",
	"select_p_job_fini",
	"select_p_job_suspend",
	"select_p_job_resume",
	"select_p_step_pick_nodes",
	"select_p_step_start",
	"select_p_step_finish",
	"select_p_select_nodeinfo_pack",
	"select_p_select_nodeinfo_unpack",
	"select_p_select_nodeinfo_alloc",
	"select_p_select_nodeinfo_free",
	"select_p_select_nodeinfo_set_all",
	"select_p_select_nodeinfo_set",
	"select_p_select_nodeinfo_get",
	"select_p_select_jobinfo_alloc",
	"select_p_select_jobinfo_free",
	"select_p_select_jobinfo_set",
	"select_p_select_jobinfo_get",
	"select_p_select_jobinfo_copy",
	"select_p_select_jobinfo_pack",
	"select_p_select_jobinfo_unpack",
	"select_p_select_jobinfo_sprint",
	"select_p_select_jobinfo_xstrdup",
	"select_p_get_info_from_plugin",
	"select_p_update_node_config",
	"select_p_reconfigure",
	"select_p_resv_test",
};

/* A Slurm release that changes the ops table must fail the build here,
 * not corrupt the delegate's function pointers at run time. */
_Static_assert(sizeof(linear_syms) / sizeof(linear_syms[0]) ==
	       sizeof(slurm_select_ops_t) / sizeof(void *),
	       "linear_syms[] does not match slurm_select_ops_t");

int tps_linear_load(tps_linear *l)
{
	l->ctx = plugin_context_create("select", "select/linear",
				       (void **)&l->ops, linear_syms,
				       sizeof(linear_syms));
	if (!l->ctx) {
		error("cannot load select/linear (the delegate for node bookkeeping): is %s in PluginDir?",
		      "select_linear.so");
		return -1;
	}
	return 0;
}

void tps_linear_unload(tps_linear *l)
{
	if (l->ctx)
		plugin_context_destroy(l->ctx);
	l->ctx = NULL;
}
