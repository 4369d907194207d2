/* check_id_table.c - base/id_table.h against a plain model: random adds,
 * removals and keeps leave the same ids, in ascending order, with each
 * record's payload intact and new records zeroed. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check_util.h"
#include "base/id_table.h"

typedef struct rec {
	int64_t id;
	int payload;
	char pad[3]; /* an odd size: records are not 8-byte multiples */
} rec;

#define IDS 300

static bool keep_even_payload(const void *r)
{
	return ((const rec *)r)->payload % 2 == 0;
}

/* The table holds exactly the ids `in` marks, in order, payload = id * 3
 * (or what the test set). */
static void check_same(const tp_id_table *t, const bool *in, const int *payload)
{
	size_t n = 0;
	for (int64_t id = 0; id < IDS; id++) {
		const rec *r = tp_id_table_find(t, id);
		ck_assert_int_eq(r != NULL, in[id]);
		if (r) {
			ck_assert_int_eq(r->id, id);
			ck_assert_int_eq(r->payload, payload[id]);
			n++;
		}
	}
	ck_assert_uint_eq(t->n, n);
	for (size_t i = 1; i < t->n; i++)
		ck_assert_int_lt(((rec *)tp_id_table_at(t, i - 1))->id,
				 ((rec *)tp_id_table_at(t, i))->id);
}

START_TEST(test_against_model)
{
	tp_id_table t;
	tp_id_table_init(&t, sizeof(rec));
	bool in[IDS] = { false };
	int payload[IDS] = { 0 };
	uint64_t x = 88172645463325252ull; /* xorshift: a fixed sequence */
	for (int step = 0; step < 4000; step++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		int64_t id = (int64_t)(x % IDS);
		int op = (int)((x >> 32) % 16);
		if (op < 9) {
			bool added;
			rec *r = tp_id_table_get(&t, id, &added);
			ck_assert_ptr_nonnull(r);
			ck_assert_int_eq(added, !in[id]);
			if (added)
				ck_assert_int_eq(r->payload, 0);
			r->payload = (int)(x >> 40) & 0xff;
			payload[id] = r->payload;
			in[id] = true;
		} else if (op < 15) {
			ck_assert_int_eq(tp_id_table_remove(&t, id), in[id]);
			in[id] = false;
		} else {
			size_t gone = 0;
			for (int k = 0; k < IDS; k++)
				if (in[k] && payload[k] % 2) {
					in[k] = false;
					gone++;
				}
			ck_assert_uint_eq(tp_id_table_keep(&t, keep_even_payload), gone);
		}
		if (step % 32 == 0)
			check_same(&t, in, payload);
	}
	check_same(&t, in, payload);
	tp_id_table_fini(&t);
	ck_assert_uint_eq(t.n, 0);
	ck_assert_ptr_null(tp_id_table_find(&t, 1));
}
END_TEST

START_TEST(test_negative_and_extreme_ids)
{
	tp_id_table t;
	tp_id_table_init(&t, sizeof(rec));
	int64_t ids[] = { INT64_MAX, -5, 0, INT64_MIN, 7 };
	for (size_t i = 0; i < sizeof(ids) / sizeof(*ids); i++)
		ck_assert_ptr_nonnull(tp_id_table_get(&t, ids[i], NULL));
	int64_t want[] = { INT64_MIN, -5, 0, 7, INT64_MAX };
	ck_assert_uint_eq(t.n, 5);
	for (size_t i = 0; i < t.n; i++)
		ck_assert_int_eq(((rec *)tp_id_table_at(&t, i))->id, want[i]);
	tp_id_table_fini(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("id_table");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_against_model);
	tcase_add_test(tc, test_negative_and_extreme_ids);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
