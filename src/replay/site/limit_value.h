/*
 * limit_value.h - a limit as sacctmgr prints it, in its `show qos`,
 * `show assoc` and `dump` forms: a count ("4", empty: none) or a TRES
 * list ("cpu=8,mem=4G,node=2") of which cpu= and node= are modelled.
 */
#ifndef TP_LIMIT_VALUE_H
#define TP_LIMIT_VALUE_H

#include <stdint.h>

/* A whole number >= 0 into *x (empty: -1, none).  0, or -1 when v is
 * not one. */
int tp_limit_count(const char *v, int64_t *x);

/* cpu= and node= of a TRES list into *cpus and *nodes (-1 when absent);
 * other TRES are skipped.  0, or -1 on a bad number. */
int tp_limit_tres(const char *v, int64_t *cpus, int64_t *nodes);

#endif
