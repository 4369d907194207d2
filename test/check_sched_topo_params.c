/* check_sched_topo_params.c - sched/topo's SchedulerParameters parser,
 * and the rule that no key of ours contains one of Slurm's keys. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_util.h"
#include "st_params.h"

typedef struct msgs {
	int n;
	char last[512];
} msgs;

static void collect(void *arg, const char *msg)
{
	msgs *m = arg;
	m->n++;
	snprintf(m->last, sizeof(m->last), "%s", msg);
}

START_TEST(defaults_without_our_keys)
{
	st_params p, d;
	msgs m = { 0 };
	st_params_default(&d);
	ck_assert_int_eq(st_params_load(&p, NULL,
		"sched_interval=-1,defer,bf_window=100,interval=30", collect, &m), 0);
	ck_assert_int_eq(m.n, 0);
	ck_assert_str_eq(p.policy, "easy");
	ck_assert_int_eq(p.period, 1);
	ck_assert_int_eq(p.stats_every, 60);
	ck_assert_int_eq(p.opts.rbhar_resubmit, 0);
	ck_assert_int_eq(p.opts.window, d.opts.window);
	ck_assert_int_eq(st_params_load(&p, NULL, NULL, collect, &m), 0);
	ck_assert_str_eq(p.policy, "easy");
}
END_TEST

START_TEST(every_key_parses)
{
	st_params p;
	msgs m = { 0 };
	int bad = st_params_load(&p, NULL,
		"sched_interval=-1, topo_policy=rb-har ,topo_window=8,topo_njob=3,"
		"topo_window_rule=index,"
		"topo_period=5,topo_rbhar_max_ext=2,topo_rbhar_max_time=600,"
		"topo_rbhar_factor=1.5,topo_requeue=yes,topo_stats_every=0",
		collect, &m);
	ck_assert_msg(bad == 0, "%s", m.last);
	ck_assert_str_eq(p.policy, "rb-har");
	ck_assert_int_eq(p.opts.window, 8);
	ck_assert_int_eq(p.opts.window_rule, TP_WINDOW_INDEX);
	ck_assert_int_eq(p.opts.njob, 3);
	ck_assert_int_eq(p.period, 5);
	ck_assert_int_eq(p.opts.rbhar_max_ext, 2);
	ck_assert_int_eq(p.opts.rbhar_max_time, 600);
	ck_assert(p.opts.rbhar_factor == 1.5);
	ck_assert_int_eq(p.opts.rbhar_resubmit, 1);
	ck_assert_int_eq(p.stats_every, 0);
	/* Keys are case-insensitive like Slurm's; values of names are not. */
	ck_assert_int_eq(st_params_load(&p, NULL, "TOPO_Policy=window-ff,topo_REQUEUE=Off",
					collect, &m), 0);
	ck_assert_str_eq(p.policy, "window-ff");
	ck_assert_int_eq(p.opts.rbhar_resubmit, 0);
}
END_TEST

/* A bad value names key and value, and the previous setting stays. */
START_TEST(bad_value_keeps_previous)
{
	st_params prev, p;
	msgs m = { 0 };
	ck_assert_int_eq(st_params_load(&prev, NULL, "topo_policy=batch-njob,topo_njob=7,topo_period=3",
					collect, &m), 0);
	int bad = st_params_load(&p, &prev,
		"topo_policy=batch-njob,topo_njob=zero,topo_period=2", collect, &m);
	ck_assert_int_eq(bad, 1);
	ck_assert_int_eq(p.opts.njob, 7);     /* kept */
	ck_assert_int_eq(p.period, 2);        /* the good key applied */
	ck_assert_ptr_nonnull(strstr(m.last, "topo_njob"));
	ck_assert_ptr_nonnull(strstr(m.last, "'zero'"));
	ck_assert_ptr_nonnull(strstr(m.last, "keeping topo_njob=7"));

	m.n = 0;
	bad = st_params_load(&p, &prev, "topo_policy=sjf,topo_period=0,"
			     "topo_window=-1,topo_rbhar_factor=0.5,topo_requeue=maybe,"
			     "topo_rbhar_max_time=1h,topo_stats_every=,topo_period=3601,"
			     "topo_window_rule=slide", collect, &m);
	ck_assert_int_eq(bad, 9);
	ck_assert_int_eq(m.n, 9);
	ck_assert_int_eq(p.opts.window_rule, prev.opts.window_rule);
	ck_assert_str_eq(p.policy, "batch-njob");
	ck_assert_int_eq(p.period, 3);
	ck_assert_int_eq(p.opts.window, prev.opts.window);
	ck_assert(p.opts.rbhar_factor == prev.opts.rbhar_factor);
	ck_assert_int_eq(p.opts.rbhar_max_time, prev.opts.rbhar_max_time);
	ck_assert_int_eq(p.stats_every, prev.stats_every);
	/* Without a previous setting, the default stays. */
	ck_assert_int_eq(st_params_load(&p, NULL, "topo_policy=nope", collect, &m), 1);
	ck_assert_str_eq(p.policy, "easy");
	ck_assert_ptr_nonnull(strstr(m.last, "rb-har"));  /* lists the known */
}
END_TEST

/* A key given twice: the last valid value wins, a later bad one does not
 * undo an earlier good one. */
START_TEST(repeated_keys)
{
	st_params p;
	msgs m = { 0 };
	ck_assert_int_eq(st_params_load(&p, NULL, "topo_window=2,topo_window=5", collect, &m), 0);
	ck_assert_int_eq(p.opts.window, 5);
	ck_assert_int_eq(st_params_load(&p, NULL, "topo_window=4,topo_window=x", collect, &m), 1);
	ck_assert_int_eq(p.opts.window, 4);
}
END_TEST

/* Whole entries only: a key is matched exactly, never as a substring. */
START_TEST(whole_entries)
{
	st_params p;
	msgs m = { 0 };
	ck_assert_int_eq(st_params_load(&p, NULL, "xtopo_window=9,my_topo_njob=9",
					collect, &m), 0);
	ck_assert_int_eq(p.opts.window, 1);
	ck_assert_int_eq(p.opts.njob, 4);
	ck_assert_int_eq(st_params_load(&p, NULL, "topo_windows=9", collect, &m), 1);
	ck_assert_ptr_nonnull(strstr(m.last, "unknown key 'topo_windows'"));
	ck_assert_int_eq(st_params_load(&p, NULL, "topo_window", collect, &m), 1);
	ck_assert_ptr_nonnull(strstr(m.last, "needs a value"));
	ck_assert_int_eq(p.opts.window, 1);
}
END_TEST

START_TEST(format_round_trips)
{
	st_params p, q;
	char text[512];
	msgs m = { 0 };
	ck_assert_int_eq(st_params_load(&p, NULL, "topo_policy=conservative,topo_window=3,"
					"topo_rbhar_factor=2.5,topo_requeue=yes,"
					"topo_window_rule=index", collect, &m), 0);
	st_params_format(&p, text, sizeof(text));
	ck_assert_int_eq(st_params_load(&q, NULL, text, collect, &m), 0);
	ck_assert(memcmp(&p, &q, sizeof(p)) == 0);
}
END_TEST

/* Slurm's keys, from the checked-in list (see the file's header). */
static int load_slurm_keys(char keys[][64], int max)
{
	FILE *fp = fopen(ST_SLURM_KEYS, "r");
	ck_assert_msg(fp != NULL, "cannot open %s", ST_SLURM_KEYS);
	char line[256];
	int n = 0;
	while (fgets(line, sizeof(line), fp) && n < max) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		snprintf(keys[n++], 64, "%.63s", line);
	}
	fclose(fp);
	return n;
}

static int contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return 1;
	return 0;
}

/* Every "key=value" we document, as an admin would write it. */
static const char *const examples[] = {
	"topo_policy=fcfs", "topo_policy=easy", "topo_policy=conservative",
	"topo_policy=window-ff", "topo_policy=batch-njob", "topo_policy=rb-har",
	"topo_window=16", "topo_window_rule=queue", "topo_window_rule=index",
	"topo_njob=4", "topo_period=1",
	"topo_rbhar_max_ext=1", "topo_rbhar_max_time=600",
	"topo_rbhar_factor=2", "topo_requeue=yes", "topo_requeue=no",
	"topo_requeue=on", "topo_requeue=off", "topo_stats_every=60", NULL,
};

START_TEST(no_key_contains_a_slurm_key)
{
	static char keys[512][64];
	int n = load_slurm_keys(keys, 512);
	/* The list is real: it holds keys we know Slurm 22.05 reads. */
	ck_assert_int_ge(n, 60);
	int have_interval = 0, have_bf_window = 0;
	for (int i = 0; i < n; i++) {
		have_interval |= !strcmp(keys[i], "interval=");
		have_bf_window |= !strcmp(keys[i], "bf_window=");
	}
	ck_assert(have_interval && have_bf_window);

	const char *const *ours = st_params_keys();
	int nours = 0;
	for (; ours[nours]; nours++)
		for (int i = 0; i < n; i++)
			ck_assert_msg(!contains_ci(ours[nours], keys[i]),
				      "our key '%s' contains Slurm's '%s'",
				      ours[nours], keys[i]);
	ck_assert_int_eq(nours, 10);
	for (int e = 0; examples[e]; e++)
		for (int i = 0; i < n; i++)
			ck_assert_msg(!contains_ci(examples[e], keys[i]),
				      "'%s' contains Slurm's '%s'", examples[e],
				      keys[i]);
	/* And every example parses. */
	for (int e = 0; examples[e]; e++) {
		st_params p;
		msgs m = { 0 };
		ck_assert_msg(st_params_load(&p, NULL, examples[e], collect, &m) == 0,
			      "%s: %s", examples[e], m.last);
	}
	/* The check itself catches the pitfall it exists for. */
	ck_assert(contains_ci("topo_interval=5", "interval="));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sched_topo_params");
	TCase *tc = tcase_create("params");
	tcase_add_test(tc, defaults_without_our_keys);
	tcase_add_test(tc, every_key_parses);
	tcase_add_test(tc, bad_value_keeps_previous);
	tcase_add_test(tc, repeated_keys);
	tcase_add_test(tc, whole_entries);
	tcase_add_test(tc, format_round_trips);
	tcase_add_test(tc, no_key_contains_a_slurm_key);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
