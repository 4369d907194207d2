/*
 * tpt_info.h - `scontrol show topology` for our topology plugins: the
 * machine as a list of records, packed by slurmctld and printed by the
 * client (both load the same plugin).  Each record is one line of text
 * plus the name and node list it is found by, so that `scontrol show
 * topology NAME` prints the record NAME or the records holding node NAME,
 * as topology/tree does.
 */
#ifndef TPT_INFO_H
#define TPT_INFO_H

#include "config.h"

#include <stdint.h>

#include "slurm/slurm.h"
#include "src/common/slurm_xlator.h" /* before other Slurm headers */

#include "src/common/pack.h"

typedef struct tpt_record {
	char *name;   /* switch or torus name */
	char *nodes;  /* its nodes as a hostlist, or NULL */
	char *line;   /* what scontrol prints */
} tpt_record;

typedef struct tpt_info {
	uint32_t count;
	tpt_record *rec;
} tpt_info;

/* Append a record (strings copied). */
void tpt_info_add(tpt_info *info, const char *name, const char *nodes,
		  const char *line);
void tpt_info_free(tpt_info *info);
void tpt_info_pack(const tpt_info *info, buf_t *buffer);
/* NULL on a malformed buffer. */
tpt_info *tpt_info_unpack(buf_t *buffer);
/* 24.11: every record, the one named `name`, or those holding node
 * `name`. */
void tpt_info_print(const tpt_info *info, const char *name, char **out);
/* 26.05 (scontrol show topology [unit=NAME] [nodes=LIST]), as
 * topology/tree: every record when neither is given, else the records
 * named `unit` (if given) whose nodes hold all of `nodes` (if given). */
void tpt_info_print_match(const tpt_info *info, const char *nodes,
			  const char *unit, char **out);

#endif
