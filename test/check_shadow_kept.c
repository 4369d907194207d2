/* check_shadow_kept.c - unit tests for shadow_kept.c: on random chains of
 * cluster states (runs starting and ending, limits moved, a run's nodes
 * changed under the same count, two runs trading nodes, nodes leaving the
 * free set, time moving on or back, the head's request and the allocator
 * changing), the kept shadow equals a fresh tp_shadow_compute() every
 * time, on a flat machine and a torus, bare and behind the failure memo;
 * and both answers occur. */
#include "check_util.h"
#include "alloc/alloc.h"
#include "alloc/alloc_memo.h"
#include "policy/shadow_kept.h"
#include "topology/torus.h"
#include "torus_fixtures.h"

#include <stdlib.h>
#include <string.h>

/* more than a machine's nodes: no running job's record is reused */
#define JOBS 256

typedef struct chain {
	tp_cluster c;
	tp_job jobs[JOBS];
	int next_job;
	tp_job head;
	tp_nodeset pick;
	int64_t next_id;
} chain;

static void chain_init(chain *ch, tp_alloc *a)
{
	memset(ch, 0, sizeof(*ch));
	tp_cluster_init(&ch->c, a->nnodes, a);
	tp_nodeset_fill(&ch->c.free);
	tp_cluster_recount_free(&ch->c);
	tp_nodeset_init(&ch->pick, a->nnodes);
	ch->c.now = 1000;
	ch->next_id = 1;
	ch->head = (tp_job){ .id = 100000, .nodes = 1 + (int)rnd(a->nnodes),
			     .estimate = 100 };
}

static void chain_fini(chain *ch)
{
	tp_cluster_fini(&ch->c);
	tp_nodeset_fini(&ch->pick);
}

/* Up to `want` random free nodes into ch->pick; how many. */
static int pick_free(chain *ch, int want)
{
	tp_nodeset_zero(&ch->pick);
	int got = 0;
	for (int v = tp_nodeset_next(&ch->c.free, (int)rnd((unsigned)ch->c.nnodes));
	     v >= 0 && got < want; v = tp_nodeset_next(&ch->c.free, v + 1)) {
		if (rnd(3)) {
			tp_nodeset_set(&ch->pick, v);
			got++;
		}
	}
	return got;
}

static void start_run(chain *ch)
{
	if (!pick_free(ch, 1 + (int)rnd(ch->c.nnodes / 3 + 1)))
		return;
	tp_job *j = &ch->jobs[ch->next_job++ % JOBS];
	*j = (tp_job){ .id = ch->next_id++, .nodes = tp_nodeset_count(&ch->pick),
		       .estimate = 10 + rnd(500) };
	/* limits often shared, some already passed */
	int64_t limit = ch->c.now - 50 + 10 * (int64_t)rnd(60);
	ck_assert_int_ge(tp_cluster_add_run(&ch->c, j, ch->c.now, limit,
					    &ch->pick, TP_NOT_FILL), 0);
}

/* A run's nodes change under the same count: one node given back, a
 * free one taken (slurmctld's records, not the engine's). */
static void move_a_node(chain *ch)
{
	tp_run *r = &ch->c.run[rnd((unsigned)ch->c.nrun)];
	if (!pick_free(ch, 1))
		return;
	int gone = tp_nodeset_next(&r->nodes, 0), got = tp_nodeset_next(&ch->pick, 0);
	tp_nodeset_clear(&r->nodes, gone);
	tp_nodeset_set(&r->nodes, got);
	tp_nodeset_span(&r->nodes, &r->wlo, &r->whi);
	tp_nodeset_set(&ch->c.free, gone);
	tp_nodeset_clear(&ch->c.free, got);
	tp_cluster_recount_free(&ch->c);
}

/* Two runs trade nodes, each keeping its limit: the free set and the
 * limits stay as they were, only the runs' nodes tell. */
static void trade_nodes(chain *ch)
{
	tp_run *a = &ch->c.run[rnd((unsigned)ch->c.nrun)];
	tp_run *b = &ch->c.run[rnd((unsigned)ch->c.nrun)];
	tp_run t = *a;
	a->nodes = b->nodes;
	a->count = b->count;
	a->wlo = b->wlo;
	a->whi = b->whi;
	b->nodes = t.nodes;
	b->count = t.count;
	b->wlo = t.wlo;
	b->whi = t.whi;
}

static void step(chain *ch, tp_alloc **alloc, int nalloc)
{
	tp_cluster *c = &ch->c;
	switch (rnd(12)) {
	case 0: case 1: /* a job queued, or a pass that started nothing */
		break;
	case 2:
		start_run(ch);
		break;
	case 3:
		if (c->nrun)
			tp_cluster_end_run(c, rnd((unsigned)c->nrun), 1);
		break;
	case 4:
		c->now += rnd(3) ? (int64_t)rnd(200) : -(int64_t)rnd(5);
		break;
	case 5:
		if (c->nrun)
			c->run[rnd((unsigned)c->nrun)].limit += 10;
		break;
	case 6:
		if (c->nrun)
			rnd(2) ? move_a_node(ch) : trade_nodes(ch);
		break;
	case 7: /* a node drained */
		if (pick_free(ch, 1)) {
			tp_nodeset_andnot(&c->free, &ch->pick);
			tp_cluster_recount_free(c);
		}
		break;
	case 8: /* another head, or the same one's request changed */
		ch->head.nodes = 1 + (int)rnd((unsigned)c->nnodes);
		ch->head.max_nodes = 0;
		break;
	case 9:
		ch->head.max_nodes = ch->head.nodes + (int)rnd(3) * (int)rnd(9);
		break;
	case 10:
		c->alloc = alloc[rnd((unsigned)nalloc)];
		break;
	default:
		if (c->nrun > 3)
			tp_cluster_end_run(c, 0, 1);
		else
			start_run(ch);
	}
}

/* `steps` states on allocators of one machine: kept against fresh. */
static void run_chain(tp_alloc **alloc, int nalloc, int steps,
		      unsigned long *hits, unsigned long *computed)
{
	chain ch;
	chain_init(&ch, alloc[0]);
	tp_shadow_kept *k = tp_shadow_kept_new();
	ck_assert_ptr_nonnull(k);
	tp_shadow fresh, kept;
	tp_shadow_init(&fresh, alloc[0]->nnodes);
	tp_shadow_init(&kept, alloc[0]->nnodes);
	for (int s = 0; s < steps; s++) {
		step(&ch, alloc, nalloc);
		unsigned long before = tp_shadow_kept_hits(k);
		ck_assert_int_eq(tp_shadow_compute(&ch.c, &ch.head, NULL, &fresh), 0);
		ck_assert_int_eq(tp_shadow_compute_kept(k, &ch.c, &ch.head, &kept), 0);
		ck_assert_int_eq(kept.time, fresh.time);
		if (fresh.time != INT64_MAX)
			ck_assert(tp_nodeset_equal(&kept.free, &fresh.free));
		if (tp_shadow_kept_hits(k) > before)
			++*hits;
		else
			++*computed;
	}
	tp_shadow_fini(&fresh);
	tp_shadow_fini(&kept);
	tp_shadow_kept_free(k);
	chain_fini(&ch);
}

START_TEST(test_kept_flat)
{
	rnd_state = 7;
	tp_error err = { "" };
	unsigned long hits = 0, computed = 0;
	for (int round = 0; round < 20; round++) {
		tp_alloc_cfg cfg = { .nnodes = 20 + (int)rnd(150) };
		tp_alloc *a[2] = { tp_alloc_create("first-free", &cfg, &err),
				   tp_alloc_create("first-free", &cfg, &err) };
		ck_assert_ptr_nonnull(a[0]);
		ck_assert_ptr_nonnull(a[1]);
		run_chain(a, 2, 300, &hits, &computed);
		tp_alloc_destroy(a[0]);
		tp_alloc_destroy(a[1]);
	}
	ck_assert_uint_gt(hits, 500);
	ck_assert_uint_gt(computed, 500);
}
END_TEST

START_TEST(test_kept_torus)
{
	rnd_state = 11;
	tp_error err = { "" };
	unsigned long hits = 0, computed = 0;
	static const int shapes[][3] = { { 4, 4, 4 }, { 3, 5, 2 }, { 6, 2, 4 } };
	for (int round = 0; round < 9; round++) {
		tp_torus *t = tp_torus_generate(3, shapes[round % 3], NULL, &err);
		ck_assert_ptr_nonnull(t);
		tp_alloc_cfg cfg = { .nnodes = tp_torus_nnodes(t), .torus = t };
		const char *name = round % 2 ? "torus-base" : "torus-mss";
		/* anchor places on its own grids: it refuses sizes the
		 * others place */
		tp_alloc *a[3] = { tp_alloc_create(name, &cfg, &err),
				   tp_alloc_memo_wrap(tp_alloc_create(name, &cfg, &err)),
				   tp_alloc_memo_wrap(tp_alloc_create("torus-anchor", &cfg, &err)) };
		for (int i = 0; i < 3; i++)
			ck_assert_ptr_nonnull(a[i]);
		run_chain(a, 3, 300, &hits, &computed);
		for (int i = 0; i < 3; i++)
			tp_alloc_destroy(a[i]);
		tp_torus_free(t);
	}
	ck_assert_uint_gt(hits, 300);
	ck_assert_uint_gt(computed, 300);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shadow_kept");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_kept_flat);
	tcase_add_test(tc, test_kept_torus);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
