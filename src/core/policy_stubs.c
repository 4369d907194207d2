/* TEMPORARY: placeholders until each policy module lands. */
#include "policy.h"
static void none(tp_policy *p, tp_cluster *c) { (void)p; (void)c; }
const tp_policy_ops tp_policy_conservative = { "conservative", "", none, NULL };
const tp_policy_ops tp_policy_batch_njob = { "batch-njob", "", none, NULL };
const tp_policy_ops tp_policy_rb_har = { "rb-har", "", none, NULL };
const tp_policy_ops tp_policy_easy = { "easy", "", none, NULL };
const tp_policy_ops tp_policy_fcfs = { "fcfs", "", none, NULL };
const tp_policy_ops tp_policy_window_ff = { "window-ff", "", none, NULL };
