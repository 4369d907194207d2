/*
 * id_table.h - records kept sorted by a 64-bit id: the per-job tables a
 * scheduler carries from one cycle to the next (sched/topo's fill jobs,
 * the driver's refused starts), found, added and removed by job id.
 *
 * A record is a struct whose first member is `int64_t id` (whatever its
 * name); the table knows only that and the record's size, so each user
 * keeps its own record type and rules and none of them repeats the
 * search, growth and unsee/drop bookkeeping.  A record's address is good
 * until the next add or removal.
 */
#ifndef TP_ID_TABLE_H
#define TP_ID_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tp_id_table {
	void *v;      /* n records of `size` bytes, ascending ids */
	size_t n, cap;
	size_t size;
} tp_id_table;

void tp_id_table_init(tp_id_table *t, size_t record_size);
void tp_id_table_fini(tp_id_table *t);

/* Record i (0 <= i < n), in id order. */
static inline void *tp_id_table_at(const tp_id_table *t, size_t i)
{
	return (char *)t->v + i * t->size;
}

/* The record of `id`, or NULL. */
void *tp_id_table_find(const tp_id_table *t, int64_t id);
/* The record of `id`: the one there, or a new zeroed one with its id set
 * (*added, if not NULL, says which).  NULL when out of memory (the table
 * is then unchanged). */
void *tp_id_table_get(tp_id_table *t, int64_t id, bool *added);
/* Remove the record of `id`; false when there was none. */
bool tp_id_table_remove(tp_id_table *t, int64_t id);
/* Keep the records for which keep(record) is true, in order; how many
 * went. */
size_t tp_id_table_keep(tp_id_table *t, bool (*keep)(const void *record));

#endif
