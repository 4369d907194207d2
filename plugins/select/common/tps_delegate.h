/*
 * tps_delegate.h - the select operations a topology plugin leaves to
 * select/linear.
 *
 * A topology select plugin decides only WHICH nodes a job gets
 * (select_p_job_test) and keeps its topology current (init, fini,
 * select_p_node_init, select_p_reconfigure); it defines those itself.
 * tps_delegate.c defines the other 33 of Slurm 22.05's 36 select
 * operations as plain calls into the delegate below, so every plugin
 * shares one copy of them.  Each plugin's .so gets its own instance
 * (the file is linked into each; -Bsymbolic binds its references there).
 */
#ifndef TPS_DELEGATE_H
#define TPS_DELEGATE_H

#include "tps_linear.h"

/* This plugin's select/linear: loaded by its init() (tps_linear_load),
 * unloaded by its fini(). */
extern tps_linear tps_delegate;

#endif
