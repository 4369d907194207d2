/* check_torus_compact.c - unit tests for torus-compact
 * (alloc_torus_compact.c, torus.conf Method=compact): its choice against
 * a brute-force reading of the rule on random 2D-4D states, and what the
 * rule promises against torus-base and torus-mss. */
#include "check_util.h"
#include "torus_fixtures.h"
#include "alloc/alloc.h"
#include "topology/torus.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static tp_torus *gen(int n, const int *dims, const bool *wrap, int slack)
{
	tp_error err;
	tp_torus *t = tp_torus_generate(n, dims, wrap, &err);
	ck_assert_msg(t != NULL, "%s", err.msg);
	tp_torus_opts o = *tp_torus_options(t);
	o.compact_slack = slack;
	ck_assert_msg(!tp_torus_set_options(t, &o, &err), "%s", err.msg);
	return t;
}

/* a's mean diameter x num <= b's x den, exactly (pair sums
 * cross-multiplied, as the shape order compares). */
static bool md_at_most(const tp_torus_shape *a, const tp_torus_shape *b,
		       unsigned num, unsigned den)
{
	unsigned __int128 pa = a->size > 1 ? (unsigned __int128)a->size * (a->size - 1) : 1;
	unsigned __int128 pb = b->size > 1 ? (unsigned __int128)b->size * (b->size - 1) : 1;
	return (unsigned __int128)a->pair_sum * pb * num <=
	       (unsigned __int128)b->pair_sum * pa * den;
}

static int64_t phi_after(const tp_torus *t, const tp_nodeset *avail,
			 const tp_box *b)
{
	tp_nodeset s;
	tp_nodeset_init(&s, tp_torus_nnodes(t));
	tp_nodeset_copy(&s, avail);
	tp_nodeset box;
	tp_nodeset_init(&box, tp_torus_nnodes(t));
	tp_torus_box_nodes(t, b, &box);
	tp_nodeset_andnot(&s, &box);
	int64_t phi = tp_torus_mss_phi(t, &s);
	tp_nodeset_fini(&box);
	tp_nodeset_fini(&s);
	return phi;
}

/* The rule read literally (torus.conf(5) Method=compact, FsOrder=offset):
 * the shapes whose mean diameter is at most (100 + slack) % of the first
 * shape with a free box; per class of equal mean diameter, the free box
 * of largest phi after it, the lowest low corner then the shape order on
 * a tie; of the classes' boxes the one leaving the largest free box
 * (phi / N), the earlier class on a tie.  Every phi evaluated directly.
 * 0 with *out, or -1 when no box is free. */
static int reference(const tp_torus *t, const tp_nodeset *avail, int w,
		     int slack, tp_box *out)
{
	tp_torus_shape *sh;
	int nsh = tp_torus_shapes(t, w, 0, &sh), head = -1;
	int64_t N = tp_torus_nnodes(t), best_left = -1;
	for (int r = 0; r < nsh && head < 0; r++)
		for (long p = 0; p < tp_torus_placements(t, sh[r].len); p++) {
			tp_box b;
			tp_torus_placement(t, sh[r].len, p, &b);
			if (tp_torus_box_all_free(t, &b, avail)) {
				head = r;
				break;
			}
		}
	for (int r = head; head >= 0 && r < nsh &&
	     md_at_most(&sh[r], &sh[head], 100, 100 + (unsigned)slack);) {
		int end = r + 1;
		while (end < nsh && md_at_most(&sh[end], &sh[r], 1, 1) &&
		       md_at_most(&sh[r], &sh[end], 1, 1))
			end++;
		bool found = false;
		int64_t best = 0;
		int best_corner = 0;
		tp_box bb;
		for (int q = r; q < end; q++)
			for (long p = 0; p < tp_torus_placements(t, sh[q].len); p++) {
				tp_box b;
				tp_torus_placement(t, sh[q].len, p, &b);
				if (!tp_torus_box_all_free(t, &b, avail))
					continue;
				int64_t phi = phi_after(t, avail, &b);
				int corner = tp_torus_box_corner(t, &b);
				/* offset-major: lower corner first; the
				 * same corner: the earlier shape (q rises) */
				if (!found || phi > best ||
				    (phi == best && corner < best_corner)) {
					found = true;
					best = phi;
					best_corner = corner;
					bb = b;
				}
			}
		if (found && best / N > best_left) {
			best_left = best / N;
			*out = bb;
		}
		r = end;
	}
	free(sh);
	return best_left >= 0 ? 0 : -1;
}

static double box_md(const tp_torus *t, const tp_box *b)
{
	return tp_torus_mean_diameter(t, b->len);
}

/* On random states of 2D-4D tori (rings and lines), for slacks 0, 20 and
 * 50 %: the same box as the reference; never less compact than the slack
 * allows relative to base's box (base takes the first shape with a free
 * box); with slack 0 never a lower phi than base's box (base's box is
 * one of the candidates); a box exactly when base finds one. */
START_TEST(test_compact_equals_reference)
{
	rnd_state = 2605;
	static const int d2[] = { 6, 5 }, d3[] = { 4, 4, 4 }, d3b[] = { 5, 3, 4 },
			 d4[] = { 3, 2, 4, 2 };
	const struct { int n; const int *d; } tori[] = {
		{ 2, d2 }, { 3, d3 }, { 3, d3b }, { 4, d4 },
	};
	static const int slacks[] = { 0, 20, 50 };
	long chosen = 0, differs_base = 0, differs_mss = 0;
	for (int round = 0; round < 48; round++) {
		int which = round % 4, slack = slacks[(round / 4) % 3];
		bool wrap[4] = { true, (round & 1) != 0, true, (round & 2) == 0 };
		tp_torus *t = gen(tori[which].n, tori[which].d, wrap, slack);
		int N = tp_torus_nnodes(t);
		tp_nodeset avail;
		tp_nodeset_init(&avail, N);
		for (int state = 0; state < 6; state++) {
			random_state_to(t, &avail, 70, 12);
			for (int w = 2; w <= 12 && w <= tp_nodeset_count(&avail); w++) {
				tp_box bc, br, bb, bm;
				int rc = tp_torus_place(t, TP_TORUS_COMPACT, &avail, w, 0, &bc);
				int rr = reference(t, &avail, w, slack, &br);
				int rb = tp_torus_place(t, TP_TORUS_BASE, &avail, w, 0, &bb);
				int rm = tp_torus_place(t, TP_TORUS_MSS, &avail, w, 0, &bm);
				ck_assert_int_eq(rc, rr);
				ck_assert_int_eq(rc, rb);
				if (rc)
					continue;
				char a[128], b[128];
				ck_assert_msg(tp_torus_box_equal(t, &bc, &br),
					      "w %d slack %d: %s, reference %s", w, slack,
					      tp_torus_box_format(t, &bc, a, sizeof(a)),
					      tp_torus_box_format(t, &br, b, sizeof(b)));
				ck_assert(tp_torus_box_all_free(t, &bc, &avail));
				ck_assert_int_eq(tp_torus_box_size(t, &bc), w);
				ck_assert(box_md(t, &bc) <=
					  box_md(t, &bb) * (1 + slack / 100.0) + 1e-9);
				if (!slack)
					ck_assert_int_ge(phi_after(t, &avail, &bc),
							 phi_after(t, &avail, &bb));
				/* the direct evaluation and the unbounded scan
				 * choose the same */
				tp_box bd, bn;
				ck_assert_int_eq(tp_torus_place(t, TP_TORUS_COMPACT, &avail, w,
								TP_TORUS_PLACE_DIRECT, &bd), 0);
				ck_assert_int_eq(tp_torus_place(t, TP_TORUS_COMPACT, &avail, w,
								TP_TORUS_PLACE_NO_BOUND, &bn), 0);
				ck_assert(tp_torus_box_equal(t, &bc, &bd));
				ck_assert(tp_torus_box_equal(t, &bc, &bn));
				chosen++;
				differs_base += !tp_torus_box_equal(t, &bc, &bb);
				differs_mss += !rm && !tp_torus_box_equal(t, &bc, &bm);
			}
		}
		tp_nodeset_fini(&avail);
		tp_torus_free(t);
	}
	/* the states exercise the rule: it is neither base nor mss */
	ck_assert_int_gt(chosen, 1000);
	ck_assert_int_gt(differs_base, chosen / 10);
	ck_assert_int_gt(differs_mss, chosen / 20);
}
END_TEST

/*
 * The idle 4x4 torus (rings), a job of 4 nodes.  A row (1x4) leaves the
 * other three rows, a 3x4 box: phi = 16 x 12 + 1 = 193; a 2x2 square
 * leaves the two rows and the two columns it misses, two boxes of 8:
 * phi = 16 x 8 + 2 = 130.  mss takes the row.  The square's mean diameter
 * is 16/12, the row's 20/12: 25 % more.  So compact takes the square
 * (base's box) up to CompactSlack=24 and the row from 25 on, where the
 * row is within reach and leaves the larger free box: the slack is
 * compared exactly.  Ties go to the lowest corner, then the shape order
 * (1x4 before 4x1).
 */
START_TEST(test_compact_slack_gates_shapes)
{
	int dims[] = { 4, 4 };
	static const int slacks[] = { 0, 20, 24, 25, 30 };
	for (int k = 0; k < 5; k++) {
		int slack = slacks[k];
		tp_torus *t = gen(2, dims, NULL, slack);
		tp_nodeset avail;
		tp_nodeset_init(&avail, 16);
		tp_nodeset_fill(&avail);
		tp_box bc, br, bm;
		ck_assert_int_eq(tp_torus_place(t, TP_TORUS_MSS, &avail, 4, 0, &bm), 0);
		ck_assert_int_eq(phi_after(t, &avail, &bm), 193);
		ck_assert(bm.off[0] == 0 && bm.off[1] == 0 && bm.len[0] == 1 && bm.len[1] == 4);
		ck_assert_int_eq(tp_torus_place(t, TP_TORUS_COMPACT, &avail, 4, 0, &bc), 0);
		ck_assert_int_eq(reference(t, &avail, 4, slack, &br), 0);
		ck_assert(tp_torus_box_equal(t, &bc, &br));
		ck_assert(bc.off[0] == 0 && bc.off[1] == 0);
		if (slack < 25) {
			ck_assert_msg(bc.len[0] == 2 && bc.len[1] == 2, "slack %d: 2x2", slack);
			ck_assert_int_eq(phi_after(t, &avail, &bc), 130);
		} else {
			ck_assert(tp_torus_box_equal(t, &bc, &bm));
		}
		tp_nodeset_fini(&avail);
		tp_torus_free(t);
	}
}
END_TEST

/* torus.conf: Method=compact is the default; CompactSlack= is read,
 * written back and checked. */
START_TEST(test_compact_conf)
{
	char dir[] = "/tmp/check_torus_compact.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof(path), "%s/t.conf", dir);
	const char *good[] = { "Dimensions=4x4\nNodes=n[1-16]\n",
			       "Dimensions=4x4\nNodes=n[1-16]\nCompactSlack=35\n" };
	for (int k = 0; k < 2; k++) {
		FILE *fp = fopen(path, "w");
		fputs(good[k], fp);
		fclose(fp);
		tp_error err;
		tp_torus *t = tp_torus_load(path, &err);
		ck_assert_msg(t != NULL, "%s", err.msg);
		ck_assert_int_eq(tp_torus_default_method(t), TP_TORUS_COMPACT);
		ck_assert_str_eq(tp_torus_method_name(TP_TORUS_COMPACT), "compact");
		ck_assert_int_eq(tp_torus_options(t)->compact_slack, k ? 35 : 20);
		fp = fopen(path, "w");
		ck_assert_int_eq(tp_torus_write_conf(t, fp), 0);
		fclose(fp);
		tp_torus *back = tp_torus_load(path, &err);
		ck_assert_msg(back != NULL, "%s", err.msg);
		ck_assert_int_eq(tp_torus_options(back)->compact_slack, k ? 35 : 20);
		tp_torus_free(back);
		tp_torus_free(t);
	}
	const char *bad[] = { "-1", "1001", "20%", "0.2" };
	for (int k = 0; k < 4; k++) {
		FILE *fp = fopen(path, "w");
		fprintf(fp, "Dimensions=4x4\nNodes=n[1-16]\nCompactSlack=%s\n", bad[k]);
		fclose(fp);
		tp_error err;
		ck_assert_ptr_null(tp_torus_load(path, &err));
		char want[512];
		snprintf(want, sizeof(want),
			 "%s:3: bad CompactSlack=%s (need a whole percentage, 0 to 1000)",
			 path, bad[k]);
		ck_assert_str_eq(err.msg, want);
	}
	unlink(path);
	rmdir(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("torus_compact");
	TCase *tc = tcase_create("compact");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_compact_conf);
	tcase_add_test(tc, test_compact_slack_gates_shapes);
	tcase_add_test(tc, test_compact_equals_reference);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
