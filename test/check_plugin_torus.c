/* check_plugin_torus.c - unit tests for select/torus's Slurm-free code:
 * SchedulerParameters keys (plugins/select_torus/tt_options.c), loading
 * settings + torus.conf + allocator (tt_state.c), and the box a node set
 * is (tt_box.c), against brute force on small tori. */
#define _GNU_SOURCE /* strcasestr */
#include "check_util.h"
#include "tmpdir_util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "alloc/alloc.h"
#include "model/rng.h"
#include "topology/torus.h"
#include "tt_box.h"
#include "tt_options.h"
#include "tt_state.h"

/* ---- helpers ---------------------------------------------------------- */


static tp_torus *gen(int ndims, const int *dims, const bool *wrap)
{
	tp_error err;
	tp_torus *t = tp_torus_generate(ndims, dims, wrap, &err);
	ck_assert_msg(t, "%s", err.msg);
	return t;
}

/* Node set of the coordinates listed (ndims ints each). */
static void set_coords(const tp_torus *t, tp_nodeset *s, const int *c,
		       int count)
{
	int n = tp_torus_ndims(t);
	tp_nodeset_zero(s);
	for (int k = 0; k < count; k++) {
		int idx = tp_torus_index(t, c + k * n);
		ck_assert_int_ge(idx, 0);
		tp_nodeset_set(s, idx);
	}
}

/* ---- SchedulerParameters ---------------------------------------------- */

START_TEST(test_options_none)
{
	tt_options o;
	tp_error err = { { 0 } };
	ck_assert_int_eq(tt_options_parse(&o, NULL, &err), 0);
	ck_assert_ptr_null(o.conf);
	ck_assert(!o.have_method);
	ck_assert_int_eq(tt_options_parse(&o, "", &err), 0);
	ck_assert_int_eq(tt_options_parse(&o, "bf_interval=1,sched_interval=2,defer",
					  &err), 0);
	ck_assert_ptr_null(o.conf);
	ck_assert(!o.have_method);
	/* a key that merely contains ours is not ours */
	ck_assert_int_eq(tt_options_parse(&o, "mytorus_method=x", &err), 0);
	ck_assert(!o.have_method);
}
END_TEST

START_TEST(test_options_keys_among_slurms)
{
	tt_options o;
	tp_error err = { { 0 } };
	ck_assert_int_eq(tt_options_parse(&o,
		"sched_interval=2,bf_interval=1, torus_method=fs,torus_conf=t/x.conf,bf_resolution=1",
		&err), 0);
	ck_assert(o.have_method);
	ck_assert_int_eq(o.method, TP_TORUS_FS);
	ck_assert_str_eq(o.conf, "t/x.conf");
	tt_options_fini(&o);
	ck_assert_ptr_null(o.conf);

	/* keys and method names are case-insensitive, as Slurm's */
	ck_assert_int_eq(tt_options_parse(&o, "Torus_Method=BASE", &err), 0);
	ck_assert_int_eq(o.method, TP_TORUS_BASE);
	ck_assert_int_eq(tt_options_parse(&o, "torus_method=mss", &err), 0);
	ck_assert_int_eq(o.method, TP_TORUS_MSS);
}
END_TEST

/* The error message must contain every string of `want`. */
static void expect_error(const char *params, const char *const *want)
{
	tt_options o;
	tp_error err = { { 0 } };
	ck_assert_int_eq(tt_options_parse(&o, params, &err), -1);
	ck_assert_ptr_null(o.conf);
	ck_assert(!o.have_method);
	for (; *want; want++)
		ck_assert_msg(strstr(err.msg, *want), "'%s' lacks '%s'",
			      err.msg, *want);
}

START_TEST(test_options_errors)
{
	expect_error("torus_method=best",
		     (const char *[]){ "SchedulerParameters", "torus_method",
				       "'best'", NULL });
	expect_error("bf_interval=1,torus_mehtod=fs",
		     (const char *[]){ "unknown key 'torus_mehtod'", NULL });
	expect_error("torus_method=fs,torus_method=mss",
		     (const char *[]){ "twice", "'mss'", NULL });
	expect_error("torus_conf=a,torus_conf=b",
		     (const char *[]){ "torus_conf given twice", NULL });
	expect_error("torus_conf",
		     (const char *[]){ "'torus_conf' needs a value", NULL });
	expect_error("torus_conf=",
		     (const char *[]){ "empty path", NULL });
	expect_error("torus_conf=/srv/deferred/torus.conf",
		     (const char *[]){ "'defer'", "/srv/deferred", NULL });
}
END_TEST

/* Slurm finds its keys as substrings of the whole string: a value of ours
 * containing any of them is refused, whatever the case. */
START_TEST(test_options_refuse_every_slurm_key)
{
	int n = 0;
	for (const char *const *k = tt_slurm_sched_keys; *k; k++, n++) {
		char params[256], upper[128];
		size_t i;
		for (i = 0; (*k)[i] && i < sizeof(upper) - 1; i++)
			upper[i] = (char)((*k)[i] >= 'a' && (*k)[i] <= 'z'
					  ? (*k)[i] - 32 : (*k)[i]);
		upper[i] = '\0';
		snprintf(params, sizeof(params), "torus_conf=/a/%sb", upper);
		tt_options o;
		tp_error err = { { 0 } };
		ck_assert_msg(tt_options_parse(&o, params, &err) == -1,
			      "'%s' accepted", params);
		/* it names the (first listed) Slurm key found */
		ck_assert_msg(strstr(err.msg, "Slurm's own look-ups"), "%s",
			      err.msg);
	}
	ck_assert_int_gt(n, 50);
	/* our own key names contain none of Slurm's */
	for (const char *const *k = tt_slurm_sched_keys; *k; k++) {
		ck_assert_ptr_null(strcasestr("torus_method=", *k));
		ck_assert_ptr_null(strcasestr("torus_conf=", *k));
	}
}
END_TEST

/* The compiled-in list holds every key of the project's list of Slurm's
 * SchedulerParameters keys (made from the Slurm source). */
START_TEST(test_options_list_covers_slurm_keys)
{
	FILE *fp = fopen(TT_SLURM_KEYS_FILE, "r");
	ck_assert_msg(fp, "cannot read %s", TT_SLURM_KEYS_FILE);
	char line[256];
	int n = 0;
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		bool found = false;
		for (const char *const *k = tt_slurm_sched_keys; *k && !found; k++)
			found = !strcmp(*k, line);
		ck_assert_msg(found, "Slurm key '%s' (%s) is not in tt_slurm_sched_keys",
			      line, TT_SLURM_KEYS_FILE);
		n++;
	}
	fclose(fp);
	ck_assert_int_gt(n, 50);
}
END_TEST

/* ---- loading ------------------------------------------------------------ */

static const char conf_4422[] =
	"# 64 nodes\n"
	"Dimensions=4x4x2x2 Nodes=n[1-64]\n"
	"Method=fs\n";

START_TEST(test_state_method_from_file_and_option)
{
	ck_assert_int_eq(tmpdir_make("check_plugin_torus"), 0);
	const char *p = tmpdir_write("torus.conf", conf_4422);
	tt_state s;
	tp_error err = { { 0 } };

	ck_assert_int_eq(tt_state_load(&s, "bf_interval=1", p, tmpdir, &err), 0);
	ck_assert_str_eq(s.alloc_name, "torus-fs");
	ck_assert_int_eq(s.method, TP_TORUS_FS);
	ck_assert_ptr_nonnull(strstr(s.method_from, "torus.conf"));
	ck_assert_str_eq(s.conf_path, p);
	ck_assert_int_eq(tp_torus_nnodes(s.torus), 64);
	ck_assert_int_eq(s.alloc->nnodes, 64);
	ck_assert_int_eq(tt_state_node_index(s.torus, "n1"), 0);
	ck_assert_int_eq(tt_state_node_index(s.torus, "n64"), 63);
	ck_assert_int_eq(tt_state_node_index(s.torus, "n65"), -1);
	tt_state_fini(&s);

	ck_assert_int_eq(tt_state_load(&s, "torus_method=mss", p, tmpdir,
				       &err), 0);
	ck_assert_str_eq(s.alloc_name, "torus-mss");
	ck_assert_ptr_nonnull(strstr(s.method_from, "torus_method"));

	/* the allocator places boxes */
	tp_nodeset free_all, out;
	tp_nodeset_init(&free_all, 64);
	tp_nodeset_init(&out, 64);
	tp_nodeset_set_range(&free_all, 0, 64);
	for (int k = 1; k <= 64; k *= 2) {
		tp_box box;
		ck_assert_int_eq(tp_alloc_place(s.alloc, &free_all, k, &out), 0);
		ck_assert_int_eq(tp_nodeset_count(&out), k);
		ck_assert_int_eq(tt_box_of(s.torus, &out, &box), 0);
	}
	tp_nodeset_fini(&free_all);
	tp_nodeset_fini(&out);
	tt_state_fini(&s);
	tmpdir_remove();
}
END_TEST

START_TEST(test_state_conf_option_relative_to_confdir)
{
	ck_assert_int_eq(tmpdir_make("check_plugin_torus"), 0);
	tmpdir_write("other.conf", "Dimensions=2x3 Nodes=a[1-6] Method=base\n");
	tt_state s;
	tp_error err = { { 0 } };
	char want[2 * PATH_MAX];

	ck_assert_int_eq(tt_state_load(&s, "torus_conf=other.conf",
				       "/nonexistent/torus.conf", tmpdir,
				       &err), 0);
	snprintf(want, sizeof(want), "%s/other.conf", tmpdir);
	ck_assert_str_eq(s.conf_path, want);
	ck_assert_str_eq(s.alloc_name, "torus-base");
	ck_assert_int_eq(tt_state_node_index(s.torus, "a6"), 5);
	tt_state_fini(&s);

	/* an absolute path is taken as is */
	ck_assert_int_eq(tt_state_load(&s, (snprintf(want, sizeof(want),
			 "torus_conf=%s/other.conf", tmpdir), want),
			 "/nonexistent/torus.conf", "/elsewhere", &err), 0);
	tt_state_fini(&s);
	tmpdir_remove();
}
END_TEST

START_TEST(test_state_errors_name_file_line_or_key)
{
	ck_assert_int_eq(tmpdir_make("check_plugin_torus"), 0);
	const char *bad = tmpdir_write("bad.conf",
				     "Dimensions=4x4\nNodes=n[1-16] Colour=red\n");
	tt_state s;
	tp_error err = { { 0 } };
	char want[PATH_MAX + 16];

	ck_assert_int_eq(tt_state_load(&s, NULL, bad, tmpdir, &err), -1);
	snprintf(want, sizeof(want), "%s:2:", bad);
	ck_assert_msg(strstr(err.msg, want), "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "Colour"), "%s", err.msg);
	ck_assert_ptr_null(s.torus);
	ck_assert_ptr_null(s.alloc);

	/* torus.conf is required */
	ck_assert_int_eq(tt_state_load(&s, NULL, "/nonexistent/torus.conf",
				       tmpdir, &err), -1);
	ck_assert_msg(strstr(err.msg, "/nonexistent/torus.conf"), "%s",
		      err.msg);

	/* a bad key stops before any file is read */
	const char *good = tmpdir_write("torus.conf", conf_4422);
	ck_assert_int_eq(tt_state_load(&s, "torus_method=fast", good, tmpdir,
				       &err), -1);
	ck_assert_msg(strstr(err.msg, "SchedulerParameters") &&
		      strstr(err.msg, "'fast'"), "%s", err.msg);
	tmpdir_remove();
}
END_TEST

/* With Ntransit=1 the core gives some jobs a box one node larger; under a
 * node limit equal to the request it never does, and a limit one larger
 * allows it again.  Placements are boxes of the allowed sizes. */
START_TEST(test_state_limit_transit)
{
	ck_assert_int_eq(tmpdir_make("check_plugin_torus"), 0);
	const char *p = tmpdir_write("torus.conf",
		"Dimensions=4x4x2x2 Nodes=n[1-64] Method=mss Ntransit=1\n");
	tt_state s;
	tp_error err = { { 0 } };
	ck_assert_int_eq(tt_state_load(&s, NULL, p, tmpdir, &err), 0);
	tp_nodeset avail, out;
	tp_nodeset_init(&avail, 64);
	tp_nodeset_init(&out, 64);
	tp_rng rng;
	tp_rng_seed(&rng, 5);
	int bigger = 0, tries = 0;

	for (int round = 0; round < 40; round++) {
		/* a random state: about a third of the nodes busy */
		tp_nodeset_zero(&avail);
		for (int j = 0; j < 64; j++)
			if (round == 0 || tp_rng_below(&rng, 3))
				tp_nodeset_set(&avail, j);
		for (int k = 1; k <= 9; k++) {
			tp_box box;
			tt_state_limit(&s, 0);
			if (tp_alloc_place(s.alloc, &avail, k, &out) == 0) {
				int got = tp_nodeset_count(&out);
				ck_assert(got == k || got == k + 1);
				ck_assert_int_eq(tt_box_of(s.torus, &out, &box), 0);
				bigger += got == k + 1;
			}
			tt_state_limit(&s, k);
			if (tp_alloc_place(s.alloc, &avail, k, &out) == 0) {
				ck_assert_int_eq(tp_nodeset_count(&out), k);
				ck_assert_int_eq(tt_box_of(s.torus, &out, &box), 0);
				tries++;
			}
			if (k > 1) { /* below the request: no (0 = no limit) */
				tt_state_limit(&s, k - 1);
				ck_assert_int_eq(tp_alloc_place(s.alloc, &avail, k, &out), -1);
			}
			tt_state_limit(&s, k + 1);
			if (tp_alloc_place(s.alloc, &avail, k, &out) == 0)
				ck_assert_int_le(tp_nodeset_count(&out), k + 1);
		}
	}
	/* the limit mattered, and exact placements were found */
	ck_assert_int_gt(bigger, 0);
	ck_assert_int_gt(tries, 100);
	/* the torus keeps its configured Ntransit */
	ck_assert_int_eq(tp_torus_ntransit(s.torus), 1);
	tp_nodeset_fini(&avail);
	tp_nodeset_fini(&out);
	tt_state_fini(&s);
	tmpdir_remove();
}
END_TEST

/* ---- boxes --------------------------------------------------------------- */

START_TEST(test_box_hand_worked)
{
	int d2[] = { 4, 4 };
	bool rings[] = { true, true }, lines[] = { false, false };
	tp_torus *t = gen(2, d2, rings), *l = gen(2, d2, lines);
	tp_nodeset s;
	tp_box b;
	tp_nodeset_init(&s, 16);

	/* (0,3),(0,0): across the seam of ring 1 */
	set_coords(t, &s, (int[]){ 0, 3, 0, 0 }, 2);
	ck_assert_int_eq(tt_box_of(t, &s, &b), 0);
	ck_assert_int_eq(b.off[0], 0);
	ck_assert_int_eq(b.off[1], 3);
	ck_assert_int_eq(b.len[0], 1);
	ck_assert_int_eq(b.len[1], 2);
	/* the same nodes on lines are two pieces */
	set_coords(l, &s, (int[]){ 0, 3, 0, 0 }, 2);
	ck_assert_int_eq(tt_box_of(l, &s, &b), -1);

	/* rows 3 and 0 spanning ring 1: off (3,0), len (2,4) */
	tp_nodeset_zero(&s);
	for (int c = 0; c < 4; c++) {
		tp_nodeset_set(&s, tp_torus_index(t, (int[]){ 3, c }));
		tp_nodeset_set(&s, tp_torus_index(t, (int[]){ 0, c }));
	}
	ck_assert_int_eq(tt_box_of(t, &s, &b), 0);
	ck_assert_int_eq(b.off[0], 3);
	ck_assert_int_eq(b.off[1], 0);
	ck_assert_int_eq(b.len[0], 2);
	ck_assert_int_eq(b.len[1], 4);

	/* an L of three nodes: intervals 2x2 but only 3 nodes */
	set_coords(t, &s, (int[]){ 1, 1, 1, 2, 2, 1 }, 3);
	ck_assert_int_eq(tt_box_of(t, &s, &b), -1);
	/* two separate runs in one dimension */
	set_coords(t, &s, (int[]){ 0, 0, 0, 2 }, 2);
	ck_assert_int_eq(tt_box_of(t, &s, &b), -1);
	/* empty */
	tp_nodeset_zero(&s);
	ck_assert_int_eq(tt_box_of(t, &s, &b), -1);
	/* everything: offset 0 everywhere */
	tp_nodeset_set_range(&s, 0, 16);
	ck_assert_int_eq(tt_box_of(t, &s, &b), 0);
	ck_assert(b.off[0] == 0 && b.off[1] == 0 && b.len[0] == 4 &&
		  b.len[1] == 4);

	tp_nodeset_fini(&s);
	tp_torus_free(t);
	tp_torus_free(l);
}
END_TEST

/* Every placement of every shape is recognised as exactly itself. */
START_TEST(test_box_every_placement)
{
	int dims[] = { 4, 3, 2 };
	bool wrap[] = { true, false, true };
	tp_torus *t = gen(3, dims, wrap);
	tp_nodeset s;
	tp_nodeset_init(&s, 24);
	int checked = 0;

	for (int p0 = 1; p0 <= 4; p0++)
		for (int p1 = 1; p1 <= 3; p1++)
			for (int p2 = 1; p2 <= 2; p2++) {
				int len[TP_TORUS_MAX_DIMS] = { p0, p1, p2 };
				long np = tp_torus_placements(t, len);
				for (long k = 0; k < np; k++) {
					tp_box want, got;
					tp_torus_placement(t, len, k, &want);
					tp_nodeset_zero(&s);
					tp_torus_box_nodes(t, &want, &s);
					ck_assert_int_eq(tt_box_of(t, &s, &got), 0);
					ck_assert(tp_torus_box_equal(t, &want, &got));
					for (int i = 0; i < 3; i++) {
						ck_assert_int_eq(got.off[i], want.off[i]);
						ck_assert_int_eq(got.len[i], want.len[i]);
					}
					checked++;
				}
			}
	ck_assert_int_gt(checked, 100);
	tp_nodeset_fini(&s);
	tp_torus_free(t);
}
END_TEST

/* Brute force: is `s` the node set of some placement of some shape? */
static bool is_box_brute(const tp_torus *t, const tp_nodeset *s)
{
	int n = tp_torus_ndims(t), N = tp_torus_nnodes(t);
	const int *d = tp_torus_dims(t);
	int len[TP_TORUS_MAX_DIMS] = { 0 };
	tp_nodeset b;
	bool found = false;
	tp_nodeset_init(&b, N);
	for (int i = 0; i < n; i++)
		len[i] = 1;
	for (;;) {
		long np = tp_torus_placements(t, len);
		for (long k = 0; k < np && !found; k++) {
			tp_box box;
			tp_torus_placement(t, len, k, &box);
			tp_nodeset_zero(&b);
			tp_torus_box_nodes(t, &box, &b);
			found = tp_nodeset_equal(&b, s);
		}
		int i = 0;
		while (i < n && ++len[i] > d[i])
			len[i++] = 1;
		if (i == n || found)
			break;
	}
	tp_nodeset_fini(&b);
	return found;
}

/* Random sets (dense enough to be boxes now and then) on small tori of
 * mixed rings and lines agree with brute force. */
START_TEST(test_box_random_sets_match_brute_force)
{
	static const struct { int n; int d[3]; bool w[3]; } tori[] = {
		{ 2, { 3, 4 }, { true, false } },
		{ 3, { 2, 3, 3 }, { true, true, false } },
		{ 1, { 5 }, { true } },
		{ 2, { 4, 2 }, { false, false } },
	};
	tp_rng rng;
	tp_rng_seed(&rng, 20251122);
	int boxes = 0, others = 0;

	for (size_t ti = 0; ti < sizeof(tori) / sizeof(tori[0]); ti++) {
		tp_torus *t = gen(tori[ti].n, tori[ti].d, tori[ti].w);
		int N = tp_torus_nnodes(t);
		tp_nodeset s;
		tp_nodeset_init(&s, N);
		for (int round = 0; round < 400; round++) {
			tp_nodeset_zero(&s);
			/* half the rounds: a random box with a node toggled
			 * or not, so near-boxes are common */
			if (round % 2) {
				int len[TP_TORUS_MAX_DIMS] = { 0 };
				for (int i = 0; i < tori[ti].n; i++)
					len[i] = 1 + (int)tp_rng_below(&rng, (uint64_t)tori[ti].d[i]);
				tp_box box;
				tp_torus_placement(t, len, (long)tp_rng_below(&rng,
					(uint64_t)tp_torus_placements(t, len)), &box);
				tp_torus_box_nodes(t, &box, &s);
				if (tp_rng_below(&rng, 2)) {
					int j = (int)tp_rng_below(&rng, (uint64_t)N);
					if (tp_nodeset_test(&s, j))
						tp_nodeset_clear(&s, j);
					else
						tp_nodeset_set(&s, j);
				}
			} else {
				for (int j = 0; j < N; j++)
					if (tp_rng_below(&rng, 3) == 0)
						tp_nodeset_set(&s, j);
			}
			tp_box got;
			bool mine = tt_box_of(t, &s, &got) == 0;
			bool brute = tp_nodeset_count(&s) > 0 &&
				     is_box_brute(t, &s);
			ck_assert_msg(mine == brute, "torus %zu round %d", ti, round);
			if (mine) {
				tp_nodeset b;
				tp_nodeset_init(&b, N);
				tp_torus_box_nodes(t, &got, &b);
				ck_assert(tp_nodeset_equal(&b, &s));
				tp_nodeset_fini(&b);
				boxes++;
			} else {
				others++;
			}
		}
		tp_nodeset_fini(&s);
		tp_torus_free(t);
	}
	/* both outcomes were exercised */
	ck_assert_int_gt(boxes, 100);
	ck_assert_int_gt(others, 100);
}
END_TEST

START_TEST(test_describe)
{
	int dims[] = { 4, 4, 2, 2 };
	tp_torus *t = gen(4, dims, NULL);
	tp_nodeset s;
	char buf[256];
	tp_nodeset_init(&s, 64);

	/* (3,0,0,0) and (0,0,0,0): a 2-node box across ring 0's seam */
	set_coords(t, &s, (int[]){ 3, 0, 0, 0, 0, 0, 0, 0 }, 2);
	tt_describe(t, &s, 2, buf, sizeof(buf));
	ck_assert_str_eq(buf, "box_off=3,0,0,0 box_len=2,1,1,1 mean_dist=1.000");
	/* asked for one node, got two: one transit node */
	tt_describe(t, &s, 1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "box_off=3,0,0,0 box_len=2,1,1,1 mean_dist=1.000 transit=1");
	/* (0,0,0,0) and (0,2,0,0): no box */
	set_coords(t, &s, (int[]){ 0, 0, 0, 0, 0, 2, 0, 0 }, 2);
	tt_describe(t, &s, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "box=none mean_dist=2.000");
	/* a short buffer is cut, not overrun */
	char small[12];
	memset(small, 'x', sizeof(small));
	set_coords(t, &s, (int[]){ 3, 0, 0, 0, 0, 0, 0, 0 }, 2);
	tt_describe(t, &s, 2, small, 8);
	ck_assert_int_eq((int)strlen(small), 7);
	ck_assert_int_eq(small[9], 'x');
	tp_nodeset_fini(&s);
	tp_torus_free(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plugin_torus");
	TCase *tc = tcase_create("options");
	tcase_add_test(tc, test_options_none);
	tcase_add_test(tc, test_options_keys_among_slurms);
	tcase_add_test(tc, test_options_errors);
	tcase_add_test(tc, test_options_refuse_every_slurm_key);
	tcase_add_test(tc, test_options_list_covers_slurm_keys);
	suite_add_tcase(s, tc);
	tc = tcase_create("state");
	tcase_add_test(tc, test_state_method_from_file_and_option);
	tcase_add_test(tc, test_state_conf_option_relative_to_confdir);
	tcase_add_test(tc, test_state_errors_name_file_line_or_key);
	tcase_add_test(tc, test_state_limit_transit);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tc = tcase_create("box");
	tcase_add_test(tc, test_box_hand_worked);
	tcase_add_test(tc, test_box_every_placement);
	tcase_add_test(tc, test_box_random_sets_match_brute_force);
	tcase_add_test(tc, test_describe);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
