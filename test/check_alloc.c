/*
 * check_alloc.c - properties every allocator must have, checked for every
 * registered allocator on a small machine of the kind it needs:
 *   - a placement is a subset of the free nodes, with at least as many
 *     nodes as asked;
 *   - an allocator flagged TP_ALLOC_MONOTONE never fails on a superset of a
 *     set it placed on, nor on exactly the nodes it placed a job on;
 *     TP_ALLOC_FLAT ones succeed exactly when enough nodes are free.
 *   - with node constraints (tp_alloc_req allowed/required/contiguous),
 *     a placement never holds a node outside free ∩ allowed, always holds
 *     every required node, and is one run of indices when contiguous;
 *     a request whose required nodes are not all usable is refused; flat
 *     allocators place whenever enough usable nodes exist.
 * The fat-tree rules are checked NOT to be monotone (so the flag carries
 * information): the strict one fails on a superset, and with busy_fallback
 * a job may not fit its own placement (a unit and part of another).
 */
#include "check_util.h"

#include "alloc/alloc.h"
#include "alloc/alloc_memo.h"
#include "topology/fattree.h"
#include "trace/rng.h"
#include "topology/torus.h"

typedef struct machine {
	tp_fattree *ft;
	tp_torus *torus;
	tp_alloc_cfg cfg;
} machine;

static void machine_init(machine *m, bool busy_fallback)
{
	tp_error err = { "" };
	memset(m, 0, sizeof(*m));
	m->ft = tp_fattree_generate(3, 4, &err); /* 64 nodes */
	ck_assert_msg(m->ft, "%s", err.msg);
	tp_fattree_opts o;
	tp_fattree_opts_default(&o);
	o.busy_fallback = busy_fallback;
	ck_assert_int_eq(tp_fattree_set_opts(m->ft, &o, &err), 0);
	static const int dims[] = { 4, 4, 2, 2 };
	static const bool wrap[] = { true, true, true, true };
	m->torus = tp_torus_generate(4, dims, wrap, &err); /* 64 nodes */
	ck_assert_msg(m->torus, "%s", err.msg);
	m->cfg = (tp_alloc_cfg){ .nnodes = 64, .fattree = m->ft, .torus = m->torus };
}

static void machine_fini(machine *m)
{
	tp_fattree_free(m->ft);
	tp_torus_free(m->torus);
}

/* Allocator `name` on m, bare and through the failure memo (as the
 * loader builds it). */
static void bare_and_memo(machine *m, const char *name, tp_alloc **bare,
			  tp_alloc **memo)
{
	tp_error err = { "" };
	*bare = tp_alloc_create(name, &m->cfg, &err);
	*memo = tp_alloc_memo_wrap(tp_alloc_create(name, &m->cfg, &err));
	ck_assert_msg(*bare && *memo, "%s: %s", name, err.msg);
}

/* Random subset of `n` nodes with density p/8, then a random superset. */
static void random_pair(tp_rng *r, tp_nodeset *s, tp_nodeset *super)
{
	int p = 1 + (int)tp_rng_below(r, 7);
	tp_nodeset_zero(s);
	for (int i = 0; i < s->n; i++)
		if ((int)tp_rng_below(r, 8) < p)
			tp_nodeset_set(s, i);
	tp_nodeset_copy(super, s);
	for (int i = 0; i < s->n; i++)
		if (tp_rng_below(r, 4) == 0)
			tp_nodeset_set(super, i);
}

/* Counts of (placed on S, failed on its superset) over random trials. */
static long superset_failures(tp_alloc *a, uint64_t seed, int trials)
{
	tp_rng r;
	tp_rng_seed(&r, seed);
	tp_nodeset s, super, out, own;
	tp_nodeset_init(&s, a->nnodes);
	tp_nodeset_init(&super, a->nnodes);
	tp_nodeset_init(&out, a->nnodes);
	tp_nodeset_init(&own, a->nnodes);
	long bad = 0;
	for (int k = 0; k < trials; k++) {
		random_pair(&r, &s, &super);
		int n = 1 + (int)tp_rng_below(&r, 24);
		if (tp_alloc_place(a, &s, n, &out))
			continue;
		ck_assert(tp_nodeset_subset(&out, &s));
		ck_assert_int_ge(tp_nodeset_count(&out), n);
		if (tp_alloc_is_flat(a)) /* policies count on exactly n */
			ck_assert_int_eq(tp_nodeset_count(&out), n);
		tp_nodeset_copy(&own, &out);
		if (tp_alloc_place(a, &own, n, &out))
			bad++;
		if (tp_alloc_place(a, &super, n, &out))
			bad++;
		else
			ck_assert(tp_nodeset_subset(&out, &super));
		if (tp_alloc_is_flat(a))
			ck_assert(tp_nodeset_count(&s) >= n);
	}
	tp_nodeset_fini(&s);
	tp_nodeset_fini(&super);
	tp_nodeset_fini(&out);
	tp_nodeset_fini(&own);
	return bad;
}

START_TEST(test_every_allocator_keeps_its_flags)
{
	machine m;
	machine_init(&m, false);
	for (const char *const *name = tp_alloc_names(); *name; name++) {
		tp_error err = { "" };
		tp_alloc *a = tp_alloc_create(*name, &m.cfg, &err);
		ck_assert_msg(a, "%s: %s", *name, err.msg);
		long bad = superset_failures(a, 42, 3000);
		if (tp_alloc_is_monotone(a))
			ck_assert_msg(bad == 0, "%s claims monotone but failed %ld "
				      "times on a superset or its own placement",
				      *name, bad);
		tp_alloc_destroy(a);
	}
	machine_fini(&m);
}
END_TEST

/* Random constraints: allowed ~ 3/4 of the nodes; required 0-3 nodes,
 * usable or not; contiguous one time in four. */
static void random_req(tp_rng *r, const tp_nodeset *free, tp_nodeset *allowed,
		       tp_nodeset *required, tp_alloc_req *req)
{
	tp_nodeset_zero(allowed);
	tp_nodeset_zero(required);
	for (int i = 0; i < allowed->n; i++)
		if (tp_rng_below(r, 4))
			tp_nodeset_set(allowed, i);
	int nreq = (int)tp_rng_below(r, 4);
	for (int k = 0; k < nreq; k++) {
		int i = (int)tp_rng_below(r, (uint64_t)free->n);
		if (tp_rng_below(r, 5) || (tp_nodeset_test(free, i) &&
					   tp_nodeset_test(allowed, i)))
			tp_nodeset_set(required, i);
	}
	*req = (tp_alloc_req){
		.nodes = 1 + (int)tp_rng_below(r, 12),
		.allowed = tp_rng_below(r, 5) ? allowed : NULL,
		.required = required,
		.contiguous = tp_rng_below(r, 4) == 0,
	};
}

static bool is_one_run(const tp_nodeset *s)
{
	int first = tp_nodeset_next(s, 0), n = tp_nodeset_count(s);
	return first >= 0 && tp_nodeset_count_range(s, first, first + n) == n;
}

/* Checks one constrained placement; returns whether it placed. */
static bool check_constrained(tp_alloc *a, const char *name,
			      const tp_nodeset *free, const tp_alloc_req *req,
			      tp_nodeset *usable, tp_nodeset *out)
{
	tp_nodeset_copy(usable, free);
	if (req->allowed)
		tp_nodeset_and(usable, req->allowed);
	bool feasible_req = tp_nodeset_subset(req->required, usable);
	int rc = tp_alloc_place_req(a, free, req, out);
	if (rc) {
		ck_assert_msg(tp_nodeset_count(out) == 0, "%s: refusal left nodes", name);
		/* flat, no contiguity: enough usable nodes always place */
		if (tp_alloc_is_flat(a) && !req->contiguous && feasible_req)
			ck_assert_msg(tp_nodeset_count(usable) < req->nodes,
				      "%s refused %d of %d usable nodes", name,
				      req->nodes, tp_nodeset_count(usable));
		return false;
	}
	ck_assert_msg(feasible_req, "%s placed without an unusable required node", name);
	ck_assert_msg(tp_nodeset_subset(out, usable), "%s: a node outside free ∩ allowed", name);
	ck_assert_msg(tp_nodeset_subset(req->required, out), "%s: a required node missing", name);
	ck_assert_int_ge(tp_nodeset_count(out), req->nodes);
	if (req->contiguous)
		ck_assert_msg(is_one_run(out), "%s: not contiguous", name);
	return true;
}

START_TEST(test_every_allocator_honours_node_constraints)
{
	machine m;
	machine_init(&m, false);
	for (const char *const *name = tp_alloc_names(); *name; name++) {
		tp_error err = { "" };
		tp_alloc *a = tp_alloc_create(*name, &m.cfg, &err);
		ck_assert_msg(a, "%s: %s", *name, err.msg);
		/* the same through the failure memo, as the loader builds it */
		tp_alloc *memo = tp_alloc_memo_wrap(tp_alloc_create(*name, &m.cfg, &err));
		ck_assert(memo);
		tp_rng r;
		tp_rng_seed(&r, 7);
		tp_nodeset free, super, allowed, required, usable, out;
		tp_nodeset_init(&free, 64);
		tp_nodeset_init(&super, 64);
		tp_nodeset_init(&allowed, 64);
		tp_nodeset_init(&required, 64);
		tp_nodeset_init(&usable, 64);
		tp_nodeset_init(&out, 64);
		int placed = 0, with_required = 0;
		for (int k = 0; k < 2000; k++) {
			tp_alloc_req req;
			random_pair(&r, &free, &super);
			random_req(&r, &free, &allowed, &required, &req);
			bool p1 = check_constrained(a, *name, &free, &req, &usable, &out);
			tp_nodeset first;
			tp_nodeset_init(&first, 64);
			tp_nodeset_copy(&first, &out);
			bool p2 = check_constrained(memo, *name, &free, &req, &usable, &out);
			ck_assert_msg(p1 == p2 && tp_nodeset_equal(&first, &out),
				      "%s: the memo changed a constrained answer", *name);
			tp_nodeset_fini(&first);
			placed += p1;
			with_required += p1 && tp_nodeset_count(&required);
		}
		/* the trials exercise both outcomes */
		ck_assert_msg(placed > 100 && placed < 1900, "%s placed %d of 2000", *name, placed);
		ck_assert_msg(with_required > 20, "%s: %d placements with required nodes",
			      *name, with_required);
		tp_nodeset_fini(&free);
		tp_nodeset_fini(&super);
		tp_nodeset_fini(&allowed);
		tp_nodeset_fini(&required);
		tp_nodeset_fini(&usable);
		tp_nodeset_fini(&out);
		tp_alloc_destroy(memo);
		tp_alloc_destroy(a);
	}
	machine_fini(&m);
}
END_TEST

static void assert_nodes(const tp_nodeset *s, const char *want)
{
	char *got = tp_nodeset_format(s);
	ck_assert_str_eq(got, want);
	free(got);
}

/* Hand-worked: -w beyond -N, contiguous around required nodes, max_nodes. */
START_TEST(test_constraints_hand_worked)
{
	tp_alloc_cfg cfg = { .nnodes = 10 };
	tp_error err = { "" };
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	tp_nodeset free, req_nodes, allowed, out;
	tp_nodeset_init(&free, 10);
	tp_nodeset_init(&req_nodes, 10);
	tp_nodeset_init(&allowed, 10);
	tp_nodeset_init(&out, 10);
	tp_nodeset_fill(&free);
	tp_nodeset_clear(&free, 4);            /* node 4 busy */
	tp_nodeset_set(&req_nodes, 6);
	tp_nodeset_set(&req_nodes, 8);
	/* -w 6,8 -N 3: the required two and the lowest other free node */
	tp_alloc_req req = { .nodes = 3, .required = &req_nodes };
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), 0);
	assert_nodes(&out, "0,6,8");
	/* -w 6,8 -N 1: exactly the two named nodes */
	req.nodes = 1;
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), 0);
	ck_assert_int_eq(tp_nodeset_count(&out), 2);
	req.max_nodes = 1; /* ... unless the job may not have two */
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), -1);
	/* contiguous 2 holding 6 and 8: the run must span 6..8 */
	req = (tp_alloc_req){ .nodes = 2, .required = &req_nodes, .contiguous = true };
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), 0);
	ck_assert_int_eq(tp_nodeset_count(&out), 3);
	ck_assert(tp_nodeset_test(&out, 6) && tp_nodeset_test(&out, 8));
	/* contiguous 5 without required nodes: 4 is busy, so 5..9 */
	req = (tp_alloc_req){ .nodes = 5, .contiguous = true };
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), 0);
	ck_assert_int_eq(tp_nodeset_next(&out, 0), 5);
	/* allowed excludes 0-2 (-x n[1-3]): three nodes are 3,5,6 */
	tp_nodeset_fill(&allowed);
	tp_nodeset_clear(&allowed, 0);
	tp_nodeset_clear(&allowed, 1);
	tp_nodeset_clear(&allowed, 2);
	req = (tp_alloc_req){ .nodes = 3, .allowed = &allowed };
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), 0);
	assert_nodes(&out, "3,5-6");
	/* a required node that is busy: refused, out cleared */
	tp_nodeset_set(&req_nodes, 4);
	req = (tp_alloc_req){ .nodes = 1, .required = &req_nodes };
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), -1);
	ck_assert_int_eq(tp_nodeset_count(&out), 0);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&req_nodes);
	tp_nodeset_fini(&allowed);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
}
END_TEST

/* --switches: at most N groups (leaf switches); one group: best fit. */
START_TEST(test_max_groups)
{
	tp_alloc_cfg cfg = { .nnodes = 16 };
	tp_error err = { "" };
	tp_alloc *a = tp_alloc_create("first-free", &cfg, &err);
	int of[16];
	for (int i = 0; i < 16; i++)
		of[i] = i / 4;
	tp_groups g = { .ngroups = 4, .of = of };
	tp_nodeset free, out;
	tp_nodeset_init(&free, 16);
	tp_nodeset_init(&out, 16);
	static const int f[] = { 0, 1, 4, 5, 6, 8, 9, 10, 11 };
	for (size_t k = 0; k < sizeof(f) / sizeof(*f); k++)
		tp_nodeset_set(&free, f[k]);
	tp_alloc_req req = { .nodes = 3, .max_groups = 1 };
	/* without groups the constraint means nothing: first-free's 0,1,4 */
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), 0);
	assert_nodes(&out, "0-1,4");
	a->groups = &g;
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), 0);
	assert_nodes(&out, "4-6");          /* the best-fitting group */
	req.nodes = 4;
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), 0);
	assert_nodes(&out, "8-11");
	req.nodes = 5;                      /* no group has 5 */
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), -1);
	ck_assert_int_eq(tp_nodeset_count(&out), 0);
	req.max_groups = 2;                 /* the two largest groups */
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), 0);
	assert_nodes(&out, "4-6,8-9");
	/* with other constraints inside: node 9 excluded */
	tp_nodeset allowed;
	tp_nodeset_init(&allowed, 16);
	tp_nodeset_fill(&allowed);
	tp_nodeset_clear(&allowed, 9);
	req = (tp_alloc_req){ .nodes = 3, .max_groups = 1, .allowed = &allowed };
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), 0);
	assert_nodes(&out, "4-6");
	req.nodes = 4;                      /* group 2 has 3 usable now */
	ck_assert_int_eq(tp_alloc_place_req(a, &free, &req, &out), -1);
	tp_nodeset_fini(&allowed);
	tp_nodeset_fini(&free);
	tp_nodeset_fini(&out);
	tp_alloc_destroy(a);
}
END_TEST

START_TEST(test_fattree_exact_fit_not_monotone)
{
	machine m;
	machine_init(&m, false);
	tp_error err = { "" };
	tp_alloc *a = tp_alloc_create("fattree-msu", &m.cfg, &err);
	ck_assert_msg(a, "%s", err.msg);
	ck_assert(!tp_alloc_is_monotone(a));
	/* Hand-made: unit 0 (n1-n4) has exactly 1 free node, every other unit
	 * is full.  A 1-node job fits the busy unit exactly; with one more free
	 * node there it is no exact fit and no unit is wholly free: "no". */
	tp_nodeset s, out;
	tp_nodeset_init(&s, 64);
	tp_nodeset_init(&out, 64);
	tp_nodeset_set(&s, 0);
	ck_assert_int_eq(tp_alloc_place(a, &s, 1, &out), 0);
	tp_nodeset_set(&s, 1);
	ck_assert_int_eq(tp_alloc_place(a, &s, 1, &out), -1);
	tp_alloc_destroy(a);
	machine_fini(&m);

	/* busy_fallback: the 1-node job fits again, but a 5-node job on an
	 * idle tree gets unit 0 and one node of unit 1, and on exactly those
	 * nodes unit 1 is partly used: no 2 completely free units, "no". */
	machine_init(&m, true);
	a = tp_alloc_create("fattree-msu", &m.cfg, &err);
	ck_assert(!tp_alloc_is_monotone(a));
	ck_assert_int_eq(tp_alloc_place(a, &s, 1, &out), 0);
	tp_nodeset_set_range(&s, 0, 64);
	ck_assert_int_eq(tp_alloc_place(a, &s, 5, &out), 0);
	ck_assert_int_eq(tp_nodeset_count(&out), 5);
	tp_nodeset_copy(&s, &out);
	ck_assert_int_eq(tp_alloc_place(a, &s, 5, &out), -1);
	tp_alloc_destroy(a);
	machine_fini(&m);
	tp_nodeset_fini(&s);
	tp_nodeset_fini(&out);
}
END_TEST

/* The memo answers exactly as the allocator it wraps, over a stream of
 * queries where free sets and sizes repeat (as in a pass), and answers
 * some of them from memory. */
START_TEST(test_memo_same_answers)
{
	machine m;
	machine_init(&m, false);
	/* Failures are what the memo keeps: sizes without a box fail too. */
	tp_torus_opts o = *tp_torus_options(m.torus);
	o.shapeless = TP_TORUS_SHAPELESS_REFUSE;
	tp_torus_set_options(m.torus, &o, NULL);
	static const char *names[] = { "torus-mss", "torus-base", "fattree-msu" };
	for (size_t k = 0; k < 3; k++) {
		tp_alloc *bare, *memo;
		bare_and_memo(&m, names[k], &bare, &memo);
		ck_assert_str_eq(memo->ops->name, names[k]);
		ck_assert_uint_eq(memo->flags, bare->flags);
		tp_rng r;
		tp_rng_seed(&r, 7 + k);
		tp_nodeset sets[3], o1, o2, junk;
		for (int i = 0; i < 3; i++)
			tp_nodeset_init(&sets[i], 64);
		tp_nodeset_init(&o1, 64);
		tp_nodeset_init(&o2, 64);
		tp_nodeset_init(&junk, 64);
		for (int round = 0; round < 200; round++) {
			if (round % 20 == 0)
				for (int i = 0; i < 3; i++)
					random_pair(&r, &sets[i], &junk);
			const tp_nodeset *f = &sets[tp_rng_below(&r, 3)];
			int n = 1 + (int)tp_rng_below(&r, 20);
			int a = tp_alloc_place(bare, f, n, &o1);
			int b = tp_alloc_place(memo, f, n, &o2);
			ck_assert_int_eq(a, b);
			if (!a)
				ck_assert(tp_nodeset_equal(&o1, &o2));
		}
		uint64_t asked, answered;
		tp_alloc_memo_stats(memo, &asked, &answered);
		ck_assert_uint_eq(asked, 200);
		ck_assert_uint_gt(answered, 0);
		for (int i = 0; i < 3; i++)
			tp_nodeset_fini(&sets[i]);
		tp_nodeset_fini(&o1);
		tp_nodeset_fini(&o2);
		tp_nodeset_fini(&junk);
		tp_alloc_destroy(bare);
		tp_alloc_destroy(memo);
	}
	machine_fini(&m);
}
END_TEST

/* Requests with a node cap or for boxes only (slurmctld's) get whole
 * answers kept on the last few free sets: over random churns of free
 * sets - more of them than are kept, each asked about again and again,
 * now and then one node freed or taken - every answer, placement and
 * refusal, is the wrapped allocator's, and some come from memory. */
START_TEST(test_memo_answers_same)
{
	machine m;
	machine_init(&m, false);
	/* transit nodes: a node cap changes the torus's answers */
	tp_torus_opts o = *tp_torus_options(m.torus);
	o.ntransit = 2;
	ck_assert_int_eq(tp_torus_set_options(m.torus, &o, NULL), 0);
	static const char *names[] = { "torus-mss", "torus-base", "torus-fs",
				       "fattree-msu", "fattree", "tree-slurm" };
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		tp_alloc *bare, *memo;
		bare_and_memo(&m, names[k], &bare, &memo);
		tp_rng r;
		tp_rng_seed(&r, 99 + k);
		enum { NSETS = 7 };
		tp_nodeset sets[NSETS], o1, o2, junk;
		tp_nodeset_init(&o1, 64);
		tp_nodeset_init(&o2, 64);
		tp_nodeset_init(&junk, 64);
		for (int i = 0; i < NSETS; i++) {
			tp_nodeset_init(&sets[i], 64);
			random_pair(&r, &sets[i], &junk);
		}
		int placed = 0, refused = 0;
		for (int round = 0; round < 3000; round++) {
			tp_nodeset *f = &sets[tp_rng_below(&r, round % 500 < 250 ? 3 : NSETS)];
			if (tp_rng_below(&r, 50) == 0) {
				int v = (int)tp_rng_below(&r, 64);
				if (tp_nodeset_test(f, v))
					tp_nodeset_clear(f, v);
				else
					tp_nodeset_set(f, v);
			}
			int n = 1 + (int)tp_rng_below(&r, 20);
			tp_alloc_req req = { .nodes = n };
			switch (tp_rng_below(&r, 3)) {
			case 0: req.max_nodes = n; break;
			case 1: req.max_nodes = n + (int)tp_rng_below(&r, 4); break;
			default: break;
			}
			req.boxes_only = tp_rng_below(&r, 2);
			tp_nodeset_fill(&o2); /* a refusal must clear it */
			int a = tp_alloc_place_req(bare, f, &req, &o1);
			int b = tp_alloc_place_req(memo, f, &req, &o2);
			ck_assert_int_eq(a, b);
			ck_assert(tp_nodeset_equal(&o1, &o2));
			placed += !a;
			refused += !!a;
		}
		uint64_t asked, answered;
		tp_alloc_memo_stats(memo, &asked, &answered);
		ck_assert_uint_gt(answered, 50);
		ck_assert_int_gt(placed, 100);
		ck_assert_int_gt(refused, 20);
		for (int i = 0; i < NSETS; i++)
			tp_nodeset_fini(&sets[i]);
		tp_nodeset_fini(&o1);
		tp_nodeset_fini(&o2);
		tp_nodeset_fini(&junk);
		tp_alloc_destroy(bare);
		tp_alloc_destroy(memo);
	}
	machine_fini(&m);
}
END_TEST

/* slurmctld's "could it ever run" question is asked on every node: those
 * answers are kept for good (memo_whole.h).  Every size and node cap is
 * asked on the whole machine, then more sizes on other sets than the
 * last few free sets keep answers for, then all again: every answer is
 * the wrapped allocator's, and the second round's come from memory. */
START_TEST(test_memo_whole_machine)
{
	machine m;
	machine_init(&m, false);
	static const char *names[] = { "torus-mss", "torus-base", "fattree-msu",
				       "fattree", "tree-slurm" };
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		tp_alloc *bare, *memo;
		bare_and_memo(&m, names[k], &bare, &memo);
		tp_rng r;
		tp_rng_seed(&r, 7 + k);
		tp_nodeset all, other, junk, o1, o2;
		tp_nodeset_init(&all, 64);
		tp_nodeset_init(&other, 64);
		tp_nodeset_init(&junk, 64);
		tp_nodeset_init(&o1, 64);
		tp_nodeset_init(&o2, 64);
		tp_nodeset_fill(&all);
		int placed = 0, refused = 0;
		uint64_t asked, before = 0, after;
		for (int round = 0; round < 2; round++) {
			for (int n = 1; n <= 64; n++)
				for (int v = 0; v < 3; v++) {
					tp_alloc_req req = { .nodes = n,
							     .max_nodes = n + v,
							     .boxes_only = v == 2 };
					tp_nodeset_fill(&o2);
					int a = tp_alloc_place_req(bare, &all, &req, &o1);
					int b = tp_alloc_place_req(memo, &all, &req, &o2);
					ck_assert_int_eq(a, b);
					ck_assert(tp_nodeset_equal(&o1, &o2));
					placed += !a;
					refused += !!a;
				}
			if (round == 0)
				tp_alloc_memo_stats(memo, &asked, &before);
			/* other sets and sizes in between */
			for (int i = 0; i < 40; i++) {
				random_pair(&r, &other, &junk);
				int n = 1 + (int)tp_rng_below(&r, 20);
				tp_alloc_req req = { .nodes = n, .max_nodes = n };
				int a = tp_alloc_place_req(bare, &other, &req, &o1);
				int b = tp_alloc_place_req(memo, &other, &req, &o2);
				ck_assert_int_eq(a, b);
				ck_assert(tp_nodeset_equal(&o1, &o2));
			}
		}
		tp_alloc_memo_stats(memo, &asked, &after);
		/* every question of the second round on the whole machine */
		ck_assert_uint_ge(after - before, 64 * 3);
		ck_assert_int_gt(placed, 64);
		if (strncmp(names[k], "torus", 5) == 0)
			ck_assert_int_gt(refused, 0); /* sizes with no box */
		tp_nodeset_fini(&all);
		tp_nodeset_fini(&other);
		tp_nodeset_fini(&junk);
		tp_nodeset_fini(&o1);
		tp_nodeset_fini(&o2);
		tp_alloc_destroy(bare);
		tp_alloc_destroy(memo);
	}
	machine_fini(&m);
}
END_TEST

/* A pass's stream of plain requests: the free set shrinks as jobs start
 * (subsets of sets where sizes failed), grows when one ends, and now and
 * then a projected superset is asked about, with sizes that have boxes
 * and sizes packed without one (Shapeless=pack).  Every answer through
 * the memo, placement and refusal, is the wrapped allocator's; failures
 * on subsets are answered from memory. */
START_TEST(test_memo_churn_same)
{
	machine m;
	machine_init(&m, false);
	static const char *names[] = { "torus-base", "torus-fs", "torus-mss",
				       "torus-anchor", "fattree-msu", "fattree", "tree-slurm",
				       "tree-greedy" };
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		tp_alloc *bare, *memo;
		bare_and_memo(&m, names[k], &bare, &memo);
		tp_rng r;
		tp_rng_seed(&r, 2024 + k);
		tp_nodeset free, proj, o1, o2, *ask;
		tp_nodeset_init(&free, 64);
		tp_nodeset_init(&proj, 64);
		tp_nodeset_init(&o1, 64);
		tp_nodeset_init(&o2, 64);
		tp_nodeset_fill(&free);
		int placed = 0, refused = 0;
		for (int round = 0; round < 4000; round++) {
			ask = &free;
			if (tp_rng_below(&r, 5) == 0) {
				/* a projection: the free set and some busy nodes */
				tp_nodeset_copy(&proj, &free);
				for (int v = 0; v < 64; v++)
					if (tp_rng_below(&r, 3) == 0)
						tp_nodeset_set(&proj, v);
				ask = &proj;
			} else if (tp_rng_below(&r, 8) == 0) {
				/* a job ends: some nodes free again */
				for (int v = 0; v < 64; v++)
					if (tp_rng_below(&r, 6) == 0)
						tp_nodeset_set(&free, v);
			}
			int n = 1 + (int)tp_rng_below(&r, 24);
			tp_alloc_req req = { .nodes = n };
			tp_nodeset_fill(&o2); /* a refusal must clear it */
			int a = tp_alloc_place_req(bare, ask, &req, &o1);
			int b = tp_alloc_place_req(memo, ask, &req, &o2);
			ck_assert_msg(a == b, "%s round %d size %d: %d vs %d",
				      names[k], round, n, a, b);
			ck_assert(tp_nodeset_equal(&o1, &o2));
			placed += !a;
			refused += !!a;
			/* a job starts: the free set shrinks */
			if (!a && ask == &free && tp_rng_below(&r, 2))
				tp_nodeset_andnot(&free, &o1);
		}
		uint64_t asked, answered;
		tp_alloc_memo_stats(memo, &asked, &answered);
		ck_assert_uint_gt(answered, 300);
		ck_assert_int_gt(placed, 300);
		ck_assert_int_gt(refused, 300);
		tp_nodeset_fini(&free);
		tp_nodeset_fini(&proj);
		tp_nodeset_fini(&o1);
		tp_nodeset_fini(&o2);
		tp_alloc_destroy(bare);
		tp_alloc_destroy(memo);
	}
	machine_fini(&m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alloc");
	TCase *tc = tcase_create("properties");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_every_allocator_keeps_its_flags);
	tcase_add_test(tc, test_fattree_exact_fit_not_monotone);
	tcase_add_test(tc, test_every_allocator_honours_node_constraints);
	tcase_add_test(tc, test_constraints_hand_worked);
	tcase_add_test(tc, test_max_groups);
	tcase_add_test(tc, test_memo_same_answers);
	tcase_add_test(tc, test_memo_answers_same);
	tcase_add_test(tc, test_memo_whole_machine);
	tcase_add_test(tc, test_memo_churn_same);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
