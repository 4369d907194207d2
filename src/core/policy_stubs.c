/* TEMPORARY: placeholders until each policy module lands. */
#include "policy.h"
static void none(tp_policy *p, tp_cluster *c) { (void)p; (void)c; }
