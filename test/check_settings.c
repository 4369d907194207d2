/* check_settings.c - unit tests for settings/settings.c: the one table of
 * tunables, its SchedulerParameters parser for sched/topo (topo_*) and
 * select/torus (torus_*), and the rule that no entry of ours may contain
 * one of Slurm's own SchedulerParameters keys. */
#include "check_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "hetero/het_expdb.h"
#include "settings/settings.h"

/* ---- helpers ------------------------------------------------------------ */

typedef struct msgs {
	int n;
	char last[1024];
	char all[4096];
} msgs;

static void collect(void *arg, const char *msg)
{
	msgs *m = arg;
	size_t used = strlen(m->all);
	m->n++;
	snprintf(m->last, sizeof(m->last), "%s", msg);
	snprintf(m->all + used, sizeof(m->all) - used, "%s\n", msg);
}

static int contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return 1;
	return 0;
}

/* Parse `params` for `scope` over `prev`; problems must equal reports. */
static int parse(tp_settings *out, const tp_settings *prev,
		 const char *params, unsigned scope, msgs *m)
{
	int before = m->n;
	int bad = tp_settings_parse_params(out, prev, params, scope, collect, m);
	ck_assert_int_eq(bad, m->n - before);
	return bad;
}

/* Every setting of `scope` shows the same in a and b. */
static void assert_same(const tp_settings *a, const tp_settings *b,
			unsigned scope)
{
	for (const tp_setting *e = tp_settings_table; e->name; e++) {
		if (!(e->scope & scope))
			continue;
		char x[1100], y[1100];
		tp_setting_show(e, a, x, sizeof(x));
		tp_setting_show(e, b, y, sizeof(y));
		ck_assert_msg(!strcmp(x, y), "%s: '%s' vs '%s'", e->name, x, y);
	}
}

/* ---- the table ------------------------------------------------------------ */

/* Each setting names the policies that read it, by their real names (a
 * typo would make toposim warn about every use); a policy reads its own
 * settings and not another's. */
START_TEST(policies_of_settings)
{
	for (const tp_setting *e = tp_settings_table; e->name; e++) {
		if (!e->policies)
			continue;
		char buf[128];
		snprintf(buf, sizeof(buf), "%s", e->policies);
		for (char *save, *w = strtok_r(buf, " ", &save); w;
		     w = strtok_r(NULL, " ", &save)) {
			bool known = false;
			for (const char *const *n = tp_policy_names(); *n; n++)
				known |= !strcmp(*n, w);
			ck_assert_msg(known, "%s: unknown policy '%s'", e->name, w);
		}
	}
	const tp_setting *w = tp_setting_find("window", TP_SCOPE_SIM);
	const tp_setting *r = tp_setting_find("rbhar_requeue", TP_SCOPE_SIM);
	const tp_setting *h = tp_setting_find("het_max_jobs", TP_SCOPE_SIM);
	const tp_setting *p = tp_setting_find("policy", TP_SCOPE_SIM);
	ck_assert(tp_setting_for_policy(w, "window-ff"));
	ck_assert(!tp_setting_for_policy(w, "easy"));
	ck_assert(!tp_setting_for_policy(w, "window"));
	ck_assert(tp_setting_for_policy(r, "rb-har"));
	ck_assert(!tp_setting_for_policy(r, "fcfs"));
	ck_assert(tp_setting_for_policy(h, "pjs"));
	ck_assert(tp_setting_for_policy(h, "olb"));
	ck_assert(!tp_setting_for_policy(h, "min"));
	ck_assert(!tp_setting_for_policy(h, "easy"));
	ck_assert(tp_setting_for_policy(p, "easy"));
}
END_TEST

START_TEST(table_defaults_and_scopes)
{
	tp_settings sim, live;
	tp_settings_default(&sim, false);
	tp_settings_default(&live, true);
	ck_assert_str_eq(sim.policy, "easy");
	ck_assert_int_eq(sim.popts.window, 1);
	ck_assert_int_eq(sim.popts.window_rule, TP_WINDOW_QUEUE);
	ck_assert_int_eq(sim.popts.njob, 4);
	ck_assert_int_eq(sim.popts.rbhar_max_ext, 1);
	ck_assert_int_eq(sim.popts.rbhar_max_time, 0);
	ck_assert(sim.popts.rbhar_factor == 2.0);
	ck_assert_int_eq(sim.period, 1);
	ck_assert_int_eq(sim.stats_every, 60);
	ck_assert_str_eq(sim.torus_conf, "");
	ck_assert_str_eq(sim.torus_method, "");
	/* rb-har requeues in the simulator, not under slurmctld */
	ck_assert_int_eq(sim.popts.rbhar_requeue, 1);
	ck_assert_int_eq(live.popts.rbhar_requeue, 0);
	/* the heterogeneous policies plan every job in the simulator (the
	 * paper's experiments), the first 200 under slurmctld's locks */
	ck_assert_int_eq(sim.het_max_jobs, 0);
	ck_assert_int_eq(live.het_max_jobs, 200);
	/* those are the only differences */
	live.popts.rbhar_requeue = 1;
	live.het_max_jobs = 0;
	assert_same(&sim, &live, TP_SCOPE_SIM | TP_SCOPE_SCHED | TP_SCOPE_TORUS);
	/* tp_policy_opts_default is the simulator's */
	tp_policy_opts o;
	tp_policy_opts_default(&o);
	ck_assert_int_eq(o.window, sim.popts.window);
	ck_assert_int_eq(o.njob, sim.popts.njob);
	ck_assert_int_eq(o.rbhar_requeue, 1);

	/* scopes */
	ck_assert_ptr_nonnull(tp_setting_find("window", TP_SCOPE_SIM));
	ck_assert_ptr_nonnull(tp_setting_find("window", TP_SCOPE_SCHED));
	ck_assert_ptr_null(tp_setting_find("window", TP_SCOPE_TORUS));
	ck_assert_ptr_nonnull(tp_setting_find("Rbhar_Requeue", TP_SCOPE_SCHED));
	ck_assert_ptr_null(tp_setting_find("requeue", TP_SCOPE_SCHED));
	ck_assert_ptr_nonnull(tp_setting_find("period", TP_SCOPE_SCHED));
	ck_assert_ptr_null(tp_setting_find("period", TP_SCOPE_SIM));
	ck_assert_ptr_nonnull(tp_setting_find("conf", TP_SCOPE_TORUS));
	ck_assert_ptr_nonnull(tp_setting_find("method", TP_SCOPE_TORUS));
	ck_assert_ptr_null(tp_setting_find("conf", TP_SCOPE_SCHED));
	ck_assert_ptr_null(tp_setting_find("method", TP_SCOPE_SIM));
	ck_assert_ptr_null(tp_setting_find("nosuch", ~0u));
	ck_assert_str_eq(tp_setting_prefix(TP_SCOPE_SCHED), "topo_");
	ck_assert_str_eq(tp_setting_prefix(TP_SCOPE_TORUS), "torus_");
	ck_assert_ptr_null(tp_setting_prefix(TP_SCOPE_SIM));

	/* every entry: a scope, help, a default that shows back as itself
	 * (numbers modulo formatting) and passes the range check */
	int nsched = 0, ntorus = 0;
	for (const tp_setting *e = tp_settings_table; e->name; e++) {
		ck_assert_msg(e->scope != 0, "%s", e->name);
		ck_assert_msg(e->help && e->help[0], "%s", e->name);
		ck_assert_ptr_nonnull(e->def);
		ck_assert_msg(e->offset + e->size <= sizeof(tp_settings), "%s",
			      e->name);
		nsched += !!(e->scope & TP_SCOPE_SCHED);
		ntorus += !!(e->scope & TP_SCOPE_TORUS);
		char buf[1100];
		tp_setting_show(e, &sim, buf, sizeof(buf));
		if (e->type == TP_SET_CHOICE || e->type == TP_SET_TEXT)
			ck_assert_str_eq(buf, e->def);
	}
	ck_assert_int_eq(nsched, 13);
	ck_assert_int_eq(ntorus, 2);
	tp_error err = { { 0 } };
	ck_assert_int_eq(tp_settings_check(&sim, ~0u, &err), 0);
	ck_assert_int_eq(tp_settings_check(&live, ~0u, &err), 0);
}
END_TEST

/* tp_setting_set / show on each type, and the "valid is" text. */
START_TEST(set_and_show_each_type)
{
	tp_settings s;
	char why[256], buf[64];
	tp_settings_default(&s, false);
	const tp_setting *w = tp_setting_find("window", TP_SCOPE_SIM);
	const tp_setting *mt = tp_setting_find("rbhar_max_time", TP_SCOPE_SIM);
	const tp_setting *f = tp_setting_find("rbhar_factor", TP_SCOPE_SIM);
	const tp_setting *rq = tp_setting_find("rbhar_requeue", TP_SCOPE_SIM);
	const tp_setting *pol = tp_setting_find("policy", TP_SCOPE_SIM);
	const tp_setting *rule = tp_setting_find("window_rule", TP_SCOPE_SIM);
	const tp_setting *conf = tp_setting_find("conf", TP_SCOPE_TORUS);
	const tp_setting *meth = tp_setting_find("method", TP_SCOPE_TORUS);

	/* INT: whole numbers within [lo, hi] */
	ck_assert_int_eq(tp_setting_set(w, &s, "1000000", why, sizeof(why)), 0);
	ck_assert_int_eq(s.popts.window, 1000000);
	why[0] = '\0';
	ck_assert_int_eq(tp_setting_set(w, &s, "1000001", why, sizeof(why)), -1);
	ck_assert_str_eq(why, "not a whole number from 1 to 1000000");
	ck_assert_int_eq(s.popts.window, 1000000); /* unchanged */
	ck_assert_int_eq(tp_setting_set(w, &s, "0", why, sizeof(why)), -1);
	ck_assert_int_eq(tp_setting_set(w, &s, "2.5", why, sizeof(why)), -1);
	ck_assert_int_eq(tp_setting_set(w, &s, "", why, sizeof(why)), -1);
	ck_assert_int_eq(tp_setting_set(w, &s, "99999999999999999999", why,
					sizeof(why)), -1);
	ck_assert_int_eq(s.popts.window, 1000000);
	tp_setting_show(w, &s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1000000");
	/* an int64 field */
	ck_assert_int_eq(tp_setting_set(mt, &s, "1000000000000", why,
					sizeof(why)), 0);
	ck_assert(s.popts.rbhar_max_time == 1000000000000LL);
	tp_setting_show(mt, &s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1000000000000");
	ck_assert_int_eq(tp_setting_set(mt, &s, "-1", why, sizeof(why)), -1);

	/* REAL: finite, within range */
	ck_assert_int_eq(tp_setting_set(f, &s, "1.25", why, sizeof(why)), 0);
	ck_assert(s.popts.rbhar_factor == 1.25);
	tp_setting_show(f, &s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1.25");
	ck_assert_int_eq(tp_setting_set(f, &s, "0.99", why, sizeof(why)), -1);
	ck_assert_str_eq(why, "not a number from 1 to 1e+06");
	ck_assert_int_eq(tp_setting_set(f, &s, "nan", why, sizeof(why)), -1);
	ck_assert_int_eq(tp_setting_set(f, &s, "inf", why, sizeof(why)), -1);
	ck_assert_int_eq(tp_setting_set(f, &s, "2x", why, sizeof(why)), -1);
	ck_assert(s.popts.rbhar_factor == 1.25);

	/* BOOL: yes/no, on/off, true/false, 1/0 in any case */
	static const char *const yes[] = { "yes", "ON", "True", "1", NULL };
	static const char *const no[] = { "no", "Off", "FALSE", "0", NULL };
	for (int i = 0; yes[i]; i++) {
		ck_assert_int_eq(tp_setting_set(rq, &s, no[i], why, sizeof(why)), 0);
		ck_assert_int_eq(s.popts.rbhar_requeue, 0);
		tp_setting_show(rq, &s, buf, sizeof(buf));
		ck_assert_str_eq(buf, "no");
		ck_assert_int_eq(tp_setting_set(rq, &s, yes[i], why, sizeof(why)), 0);
		ck_assert_int_eq(s.popts.rbhar_requeue, 1);
		tp_setting_show(rq, &s, buf, sizeof(buf));
		ck_assert_str_eq(buf, "yes");
	}
	ck_assert_int_eq(tp_setting_set(rq, &s, "maybe", why, sizeof(why)), -1);
	ck_assert_str_eq(why, "not yes or no");
	ck_assert_int_eq(s.popts.rbhar_requeue, 1);

	/* CHOICE kept as text: the canonical name */
	ck_assert_int_eq(tp_setting_set(pol, &s, "RB-HAR", why, sizeof(why)), 0);
	ck_assert_str_eq(s.policy, "rb-har");
	ck_assert_int_eq(tp_setting_set(pol, &s, "sjf", why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "not one of"));
	for (const char *const *n = tp_policy_names(); *n; n++)
		ck_assert_msg(strstr(why, *n), "'%s' lacks %s", why, *n);
	ck_assert_str_eq(s.policy, "rb-har");
	/* CHOICE kept as an enum */
	ck_assert_int_eq(tp_setting_set(rule, &s, "Index", why, sizeof(why)), 0);
	ck_assert_int_eq(s.popts.window_rule, TP_WINDOW_INDEX);
	tp_setting_show(rule, &s, buf, sizeof(buf));
	ck_assert_str_eq(buf, "index");
	ck_assert_int_eq(tp_setting_set(rule, &s, "slide", why, sizeof(why)), -1);
	ck_assert_str_eq(why, "not one of queue index");
	ck_assert_int_eq(s.popts.window_rule, TP_WINDOW_INDEX);
	ck_assert_int_eq(tp_setting_set(meth, &s, "FS", why, sizeof(why)), 0);
	ck_assert_str_eq(s.torus_method, "fs");
	ck_assert_int_eq(tp_setting_set(meth, &s, "best", why, sizeof(why)), -1);
	ck_assert_str_eq(why, "not one of base fs mss anchor compact");

	/* TEXT: non-empty, fits its field */
	ck_assert_int_eq(tp_setting_set(conf, &s, "t/x.conf", why, sizeof(why)), 0);
	ck_assert_str_eq(s.torus_conf, "t/x.conf");
	ck_assert_int_eq(tp_setting_set(conf, &s, "", why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "empty"));
	char longer[sizeof(s.torus_conf) + 1];
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	ck_assert_int_eq(tp_setting_set(conf, &s, longer, why, sizeof(why)), -1);
	longer[sizeof(s.torus_conf) - 1] = '\0'; /* exactly the room there is */
	ck_assert_int_eq(tp_setting_set(conf, &s, longer, why, sizeof(why)), 0);
	ck_assert_int_eq((int)strlen(s.torus_conf), (int)sizeof(s.torus_conf) - 1);

	/* a short buffer is cut, not overrun */
	char small[8];
	memset(small, 'x', sizeof(small));
	tp_setting_show(conf, &s, small, 4);
	ck_assert_str_eq(small, "aaa");
	ck_assert_int_eq(small[5], 'x');
}
END_TEST

/* Values set in code are checked against the same ranges. */
START_TEST(check_values_set_in_code)
{
	tp_settings s;
	tp_error err = { { 0 } };
	tp_settings_default(&s, false);
	s.popts.window = 0;
	ck_assert_int_eq(tp_settings_check(&s, TP_SCOPE_SCHED, &err), -1);
	ck_assert_msg(strstr(err.msg, "window") && strstr(err.msg, "'0'"), "%s",
		      err.msg);
	/* not a torus setting */
	ck_assert_int_eq(tp_settings_check(&s, TP_SCOPE_TORUS, &err), 0);
	tp_policy_opts o = s.popts;
	ck_assert_int_eq(tp_policy_opts_check(&o, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "window"));

	tp_settings_default(&s, false);
	s.popts.rbhar_factor = NAN;
	ck_assert_int_eq(tp_settings_check(&s, TP_SCOPE_SIM, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "rbhar_factor"));
	tp_settings_default(&s, false);
	s.popts.window_rule = (tp_window_rule)2;
	ck_assert_int_eq(tp_settings_check(&s, TP_SCOPE_SIM, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "window_rule"));
	tp_settings_default(&s, false);
	s.popts.rbhar_requeue = 2;
	ck_assert_int_eq(tp_settings_check(&s, TP_SCOPE_SIM, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "rbhar_requeue"));
	/* a choice kept as text: checked against its names */
	tp_settings_default(&s, false);
	snprintf(s.policy, sizeof(s.policy), "nosuch");
	ck_assert_int_eq(tp_settings_check(&s, TP_SCOPE_SIM, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "policy"));
	tp_settings_default(&s, false);
	snprintf(s.torus_method, sizeof(s.torus_method), "bogus");
	ck_assert_int_eq(tp_settings_check(&s, TP_SCOPE_TORUS, &err), -1);
	s.torus_method[0] = '\0'; /* unset: torus.conf's Method= */
	ck_assert_int_eq(tp_settings_check(&s, TP_SCOPE_TORUS, &err), 0);
	tp_settings_default(&s, false);
	s.period = 0;
	ck_assert_int_eq(tp_settings_check(&s, TP_SCOPE_SIM, &err), 0);
	ck_assert_int_eq(tp_settings_check(&s, TP_SCOPE_SCHED, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "period"));
	tp_settings_default(&s, false);
	s.popts.rbhar_max_time = -5;
	ck_assert_int_eq(tp_settings_check(&s, TP_SCOPE_SCHED, &err), -1);
	ck_assert_msg(strstr(err.msg, "rbhar_max_time") && strstr(err.msg, "'-5'"),
		      "%s", err.msg);
}
END_TEST

/* ---- sched/topo: topo_* ------------------------------------------------- */

START_TEST(defaults_without_our_keys)
{
	tp_settings p, d;
	msgs m = { 0 };
	tp_settings_default(&d, true);
	ck_assert_int_eq(parse(&p, NULL,
		"sched_interval=-1,defer,bf_window=100,interval=30",
		TP_SCOPE_SCHED, &m), 0);
	ck_assert_int_eq(m.n, 0);
	ck_assert_str_eq(p.policy, "easy");
	ck_assert_int_eq(p.period, 1);
	ck_assert_int_eq(p.stats_every, 60);
	ck_assert_int_eq(p.popts.rbhar_requeue, 0); /* slurmctld's default */
	ck_assert_int_eq(p.popts.window, d.popts.window);
	assert_same(&p, &d, ~0u);
	ck_assert_int_eq(parse(&p, NULL, NULL, TP_SCOPE_SCHED, &m), 0);
	ck_assert_str_eq(p.policy, "easy");
	ck_assert_int_eq(parse(&p, NULL, "", TP_SCOPE_SCHED, &m), 0);
	assert_same(&p, &d, ~0u);
	/* a NULL report function is fine */
	ck_assert_int_eq(tp_settings_parse_params(&p, NULL, "topo_window=0",
						  TP_SCOPE_SCHED, NULL, NULL), 1);
	ck_assert_int_eq(p.popts.window, 1);
}
END_TEST

START_TEST(every_key_parses)
{
	tp_settings p;
	msgs m = { 0 };
	int bad = parse(&p, NULL,
		"sched_interval=-1, topo_policy=rb-har ,topo_window=8,topo_njob=3,"
		"topo_window_rule=index,"
		"topo_period=5,topo_rbhar_max_ext=2,topo_rbhar_max_time=600,"
		"topo_rbhar_factor=1.5,topo_rbhar_requeue=yes,topo_stats_every=0",
		TP_SCOPE_SCHED, &m);
	ck_assert_msg(bad == 0, "%s", m.last);
	ck_assert_str_eq(p.policy, "rb-har");
	ck_assert_int_eq(p.popts.window, 8);
	ck_assert_int_eq(p.popts.window_rule, TP_WINDOW_INDEX);
	ck_assert_int_eq(p.popts.njob, 3);
	ck_assert_int_eq(p.period, 5);
	ck_assert_int_eq(p.popts.rbhar_max_ext, 2);
	ck_assert_int_eq(p.popts.rbhar_max_time, 600);
	ck_assert(p.popts.rbhar_factor == 1.5);
	ck_assert_int_eq(p.popts.rbhar_requeue, 1);
	ck_assert_int_eq(p.stats_every, 0);
	/* Keys are case-insensitive like Slurm's, and so are names; the
	 * canonical name is kept. */
	ck_assert_int_eq(parse(&p, NULL,
		"TOPO_Policy=Window-FF,topo_RBHAR_REQUEUE=Off", TP_SCOPE_SCHED,
		&m), 0);
	ck_assert_str_eq(p.policy, "window-ff");
	ck_assert_int_eq(p.popts.rbhar_requeue, 0);
	/* the old key is gone */
	ck_assert_int_eq(parse(&p, NULL, "topo_requeue=yes", TP_SCOPE_SCHED,
			       &m), 1);
	ck_assert_ptr_nonnull(strstr(m.last, "unknown key 'topo_requeue'"));
	ck_assert_ptr_nonnull(strstr(m.last, "topo_rbhar_requeue"));
	ck_assert_int_eq(p.popts.rbhar_requeue, 0);
	/* the heterogeneous policies' class key: an enum of
	 * tp_class_key_names(), sched/topo only */
	ck_assert_int_eq(parse(&p, NULL, "topo_class_key=wckey", TP_SCOPE_SCHED,
			       &m), 0);
	ck_assert_int_eq(p.class_key, TP_CLASS_WCKEY);
	ck_assert_int_eq(parse(&p, &p, "topo_class_key=account", TP_SCOPE_SCHED,
			       &m), 1);
	ck_assert_ptr_nonnull(strstr(m.last, "'account'"));
	ck_assert_int_eq(p.class_key, TP_CLASS_WCKEY);
	ck_assert_ptr_null(tp_setting_find("class_key", TP_SCOPE_SIM));
	/* every policy name */
	for (const char *const *n = tp_policy_names(); *n; n++) {
		char text[64];
		snprintf(text, sizeof(text), "topo_policy=%s", *n);
		ck_assert_int_eq(parse(&p, NULL, text, TP_SCOPE_SCHED, &m), 0);
		ck_assert_str_eq(p.policy, *n);
	}
}
END_TEST

/* A bad value names key and value, and the previous setting stays. */
START_TEST(bad_value_keeps_previous)
{
	tp_settings prev, p;
	msgs m = { 0 };
	ck_assert_int_eq(parse(&prev, NULL,
		"topo_policy=batch-njob,topo_njob=7,topo_period=3",
		TP_SCOPE_SCHED, &m), 0);
	int bad = parse(&p, &prev,
		"topo_policy=batch-njob,topo_njob=zero,topo_period=2",
		TP_SCOPE_SCHED, &m);
	ck_assert_int_eq(bad, 1);
	ck_assert_int_eq(p.popts.njob, 7);     /* kept */
	ck_assert_int_eq(p.period, 2);         /* the good key applied */
	ck_assert_ptr_nonnull(strstr(m.last, "topo_njob"));
	ck_assert_ptr_nonnull(strstr(m.last, "'zero'"));
	ck_assert_ptr_nonnull(strstr(m.last, "keeping topo_njob=7"));

	m.n = 0;
	m.all[0] = '\0';
	bad = parse(&p, &prev, "topo_policy=sjf,topo_period=0,"
		    "topo_window=-1,topo_rbhar_factor=0.5,topo_rbhar_requeue=maybe,"
		    "topo_rbhar_max_time=1h,topo_stats_every=,topo_period=3601,"
		    "topo_window_rule=slide", TP_SCOPE_SCHED, &m);
	ck_assert_int_eq(bad, 9);
	ck_assert_int_eq(m.n, 9);
	ck_assert_int_eq(p.popts.window_rule, prev.popts.window_rule);
	ck_assert_str_eq(p.policy, "batch-njob");
	ck_assert_int_eq(p.period, 3);
	ck_assert_int_eq(p.popts.window, prev.popts.window);
	ck_assert(p.popts.rbhar_factor == prev.popts.rbhar_factor);
	ck_assert_int_eq(p.popts.rbhar_max_time, prev.popts.rbhar_max_time);
	ck_assert_int_eq(p.popts.rbhar_requeue, prev.popts.rbhar_requeue);
	ck_assert_int_eq(p.stats_every, prev.stats_every);
	/* each problem reported once, naming its value */
	static const char *const vals[] = { "'sjf'", "'0'", "'-1'", "'0.5'",
		"'maybe'", "'1h'", "''", "'3601'", "'slide'", NULL };
	for (int i = 0; vals[i]; i++)
		ck_assert_msg(strstr(m.all, vals[i]), "no %s in:\n%s", vals[i],
			      m.all);
	/* Keys not given start from their defaults, not from prev. */
	ck_assert_int_eq(parse(&p, &prev, "topo_period=4", TP_SCOPE_SCHED, &m), 0);
	ck_assert_str_eq(p.policy, "easy");
	ck_assert_int_eq(p.popts.njob, 4);
	ck_assert_int_eq(p.period, 4);
	/* prev and out may be one struct (a reconfigure in place). */
	tp_settings same = prev;
	ck_assert_int_eq(parse(&same, &same, "topo_policy=batch-njob,topo_njob=zero",
			       TP_SCOPE_SCHED, &m), 1);
	ck_assert_int_eq(same.popts.njob, 7);
	/* Without a previous setting, the default stays. */
	ck_assert_int_eq(parse(&p, NULL, "topo_policy=nope", TP_SCOPE_SCHED, &m), 1);
	ck_assert_str_eq(p.policy, "easy");
	ck_assert_ptr_nonnull(strstr(m.last, "rb-har"));  /* lists the known */
	ck_assert_ptr_nonnull(strstr(m.last, "keeping topo_policy=easy"));
}
END_TEST

/* A key given twice is a problem: the first valid value stands, and a
 * bad first value does not count as given. */
START_TEST(repeated_keys)
{
	tp_settings p;
	msgs m = { 0 };
	ck_assert_int_eq(parse(&p, NULL, "topo_window=2,topo_window=5",
			       TP_SCOPE_SCHED, &m), 1);
	ck_assert_int_eq(p.popts.window, 2);
	ck_assert_msg(strstr(m.last, "topo_window") && strstr(m.last, "'5'") &&
		      strstr(m.last, "given again") && strstr(m.last, "first value, 2, stands"),
		      "%s", m.last);
	ck_assert_int_eq(parse(&p, NULL, "topo_window=4,topo_window=x",
			       TP_SCOPE_SCHED, &m), 1);
	ck_assert_int_eq(p.popts.window, 4);
	ck_assert_int_eq(parse(&p, NULL, "topo_window=x,topo_window=4",
			       TP_SCOPE_SCHED, &m), 1);
	ck_assert_int_eq(p.popts.window, 4);
	ck_assert_int_eq(parse(&p, NULL, "topo_window=3,topo_WINDOW=3,topo_window=3",
			       TP_SCOPE_SCHED, &m), 2);
	ck_assert_int_eq(p.popts.window, 3);
	ck_assert_int_eq(parse(&p, NULL, "topo_policy=fcfs,topo_policy=easy",
			       TP_SCOPE_SCHED, &m), 1);
	ck_assert_str_eq(p.policy, "fcfs");
}
END_TEST

/* A valid setting the chosen policy does not read is reported once,
 * with the entry as given and who reads it; settings it reads, settings
 * that are no policy option, Slurm's keys and bad entries are not. */
START_TEST(unread_settings)
{
	msgs m = { 0 };
	ck_assert_int_eq(tp_settings_report_unread(
		"sched_interval=-1,topo_policy=easy, topo_window=4,topo_njob=2,"
		"topo_WINDOW=5,topo_period=3,topo_bogus=1,topo_window_rule",
		TP_SCOPE_SCHED, "easy", collect, &m), 2);
	ck_assert_int_eq(m.n, 2);
	ck_assert_msg(strstr(m.all, "topo_window=4 has no effect with topo_policy=easy (it is read by window-ff)"),
		      "%s", m.all);
	ck_assert_msg(strstr(m.all, "topo_njob=2 has no effect") &&
		      strstr(m.all, "read by batch-njob"), "%s", m.all);
	ck_assert_ptr_null(strstr(m.all, "topo_WINDOW"));
	ck_assert_ptr_null(strstr(m.all, "topo_period"));
	msgs none = { 0 };
	ck_assert_int_eq(tp_settings_report_unread("topo_window=4,topo_window_rule=index",
						   TP_SCOPE_SCHED, "window-ff",
						   collect, &none), 0);
	ck_assert_int_eq(tp_settings_report_unread(NULL, TP_SCOPE_SCHED, "easy",
						   collect, &none), 0);
	/* entries the parser refuses are its to report */
	ck_assert_int_eq(tp_settings_report_unread("topo_window=x,topo_njob=0",
						   TP_SCOPE_SCHED, "easy",
						   collect, &none), 0);
	ck_assert_int_eq(tp_settings_report_unread("torus_method=torus-mss",
						   TP_SCOPE_TORUS, "easy",
						   collect, &none), 0);
	ck_assert_int_eq(none.n, 0);
}
END_TEST

/* Whole entries only: a key is matched exactly, never as a substring. */
START_TEST(whole_entries)
{
	tp_settings p;
	msgs m = { 0 };
	ck_assert_int_eq(parse(&p, NULL, "xtopo_window=9,my_topo_njob=9",
			       TP_SCOPE_SCHED, &m), 0);
	ck_assert_int_eq(p.popts.window, 1);
	ck_assert_int_eq(p.popts.njob, 4);
	ck_assert_int_eq(parse(&p, NULL, "topo_windows=9", TP_SCOPE_SCHED, &m), 1);
	ck_assert_ptr_nonnull(strstr(m.last, "unknown key 'topo_windows'"));
	ck_assert_int_eq(parse(&p, NULL, "topo_window", TP_SCOPE_SCHED, &m), 1);
	ck_assert_ptr_nonnull(strstr(m.last, "needs a value"));
	ck_assert_int_eq(p.popts.window, 1);
	/* blanks around entries are no part of them; empty entries are none */
	ck_assert_int_eq(parse(&p, NULL, ",, \ttopo_window=6\t ,,",
			       TP_SCOPE_SCHED, &m), 0);
	ck_assert_int_eq(p.popts.window, 6);
}
END_TEST

START_TEST(format_round_trips)
{
	tp_settings p, q;
	char text[1024];
	msgs m = { 0 };
	ck_assert_int_eq(parse(&p, NULL, "topo_policy=conservative,topo_window=3,"
			       "topo_rbhar_factor=2.5,topo_rbhar_requeue=yes,"
			       "topo_window_rule=index,topo_rbhar_max_time=86400",
			       TP_SCOPE_SCHED, &m), 0);
	tp_settings_format(&p, TP_SCOPE_SCHED, text, sizeof(text));
	ck_assert_ptr_nonnull(strstr(text, "topo_policy=conservative"));
	ck_assert_ptr_nonnull(strstr(text, "topo_rbhar_requeue=yes"));
	ck_assert_ptr_nonnull(strstr(text, "topo_window_rule=index"));
	ck_assert_ptr_null(strstr(text, "torus_"));
	ck_assert_int_eq(parse(&q, NULL, text, TP_SCOPE_SCHED, &m), 0);
	assert_same(&p, &q, TP_SCOPE_SCHED | TP_SCOPE_TORUS);
	/* the defaults, too */
	tp_settings_default(&p, true);
	tp_settings_format(&p, TP_SCOPE_SCHED, text, sizeof(text));
	ck_assert_ptr_nonnull(strstr(text, "topo_rbhar_requeue=no"));
	ck_assert_int_eq(parse(&q, NULL, text, TP_SCOPE_SCHED, &m), 0);
	assert_same(&p, &q, ~0u);

	/* torus_* */
	ck_assert_int_eq(parse(&p, NULL, "torus_conf=/etc/t.conf,torus_method=mss",
			       TP_SCOPE_TORUS, &m), 0);
	tp_settings_format(&p, TP_SCOPE_TORUS, text, sizeof(text));
	ck_assert_str_eq(text, "torus_conf=/etc/t.conf,torus_method=mss");
	ck_assert_int_eq(parse(&q, NULL, text, TP_SCOPE_TORUS, &m), 0);
	assert_same(&p, &q, ~0u);

	/* a short buffer is cut, not overrun */
	char small[16];
	memset(small, 'x', sizeof(small));
	tp_settings_format(&p, TP_SCOPE_TORUS, small, 10);
	ck_assert_int_eq((int)strlen(small), 9);
	ck_assert_int_eq(small[11], 'x');
}
END_TEST

/* sched/topo's and select/torus's keys share one string and do not see
 * each other's. */
START_TEST(scopes_share_one_string)
{
	const char *params = "bf_interval=1,topo_policy=fcfs,torus_method=fs,"
			     "topo_window=3,torus_conf=t.conf";
	tp_settings a, b;
	msgs m = { 0 };
	ck_assert_int_eq(parse(&a, NULL, params, TP_SCOPE_SCHED, &m), 0);
	ck_assert_str_eq(a.policy, "fcfs");
	ck_assert_int_eq(a.popts.window, 3);
	ck_assert_str_eq(a.torus_method, "");
	ck_assert_str_eq(a.torus_conf, "");
	/* torus over the sched result: the sched settings stay */
	ck_assert_int_eq(parse(&b, &a, params, TP_SCOPE_TORUS, &m), 0);
	ck_assert_str_eq(b.torus_method, "fs");
	ck_assert_str_eq(b.torus_conf, "t.conf");
	ck_assert_str_eq(b.policy, "fcfs");
	ck_assert_int_eq(b.popts.window, 3);
	/* a key of the other scope, with its prefix, is unknown there */
	ck_assert_int_eq(parse(&b, NULL, "topo_method=fs", TP_SCOPE_SCHED, &m), 1);
	ck_assert_ptr_nonnull(strstr(m.last, "unknown key 'topo_method'"));
	ck_assert_ptr_nonnull(strstr(m.last, "topo_policy"));
	ck_assert_int_eq(parse(&b, NULL, "torus_policy=fcfs", TP_SCOPE_TORUS, &m), 1);
	ck_assert_ptr_nonnull(strstr(m.last, "unknown key 'torus_policy'"));
	ck_assert_ptr_nonnull(strstr(m.last, "torus_conf"));
	ck_assert_ptr_nonnull(strstr(m.last, "torus_method"));
	ck_assert_str_eq(b.policy, "easy");
	/* the simulator's scope has no SchedulerParameters keys */
	ck_assert_int_eq(parse(&b, NULL, "topo_window=3", TP_SCOPE_SIM, &m), 0);
	ck_assert_int_eq(b.popts.window, 1);
}
END_TEST

/* ---- select/torus: torus_* ---------------------------------------------- */

START_TEST(torus_none)
{
	tp_settings o;
	msgs m = { 0 };
	ck_assert_int_eq(parse(&o, NULL, NULL, TP_SCOPE_TORUS, &m), 0);
	ck_assert_str_eq(o.torus_conf, "");
	ck_assert_str_eq(o.torus_method, "");
	ck_assert_int_eq(parse(&o, NULL, "", TP_SCOPE_TORUS, &m), 0);
	ck_assert_int_eq(parse(&o, NULL, "bf_interval=1,sched_interval=2,defer",
			       TP_SCOPE_TORUS, &m), 0);
	ck_assert_str_eq(o.torus_conf, "");
	ck_assert_str_eq(o.torus_method, "");
	/* a key that merely contains ours is not ours */
	ck_assert_int_eq(parse(&o, NULL, "mytorus_method=x", TP_SCOPE_TORUS, &m), 0);
	ck_assert_str_eq(o.torus_method, "");
	ck_assert_int_eq(m.n, 0);
}
END_TEST

START_TEST(torus_keys_among_slurms)
{
	tp_settings o;
	msgs m = { 0 };
	ck_assert_int_eq(parse(&o, NULL,
		"sched_interval=2,bf_interval=1, torus_method=fs,torus_conf=t/x.conf,bf_resolution=1",
		TP_SCOPE_TORUS, &m), 0);
	ck_assert_str_eq(o.torus_method, "fs");
	ck_assert_str_eq(o.torus_conf, "t/x.conf");

	/* keys and method names are case-insensitive, as Slurm's */
	ck_assert_int_eq(parse(&o, NULL, "Torus_Method=BASE", TP_SCOPE_TORUS, &m), 0);
	ck_assert_str_eq(o.torus_method, "base");
	ck_assert_int_eq(parse(&o, NULL, "torus_method=mss", TP_SCOPE_TORUS, &m), 0);
	ck_assert_str_eq(o.torus_method, "mss");
	/* the method names are the torus's own */
	for (const char *const *n = (const char *const[]){ "base", "fs", "mss", "anchor",
							    "compact", NULL };
	     *n; n++) {
		char text[64];
		snprintf(text, sizeof(text), "torus_method=%s", *n);
		ck_assert_int_eq(parse(&o, NULL, text, TP_SCOPE_TORUS, &m), 0);
		ck_assert_str_eq(o.torus_method, *n);
	}
}
END_TEST

/* One problem, and its report contains every string of `want`. */
static void expect_problem(const char *params, const char *const *want)
{
	tp_settings o;
	msgs m = { 0 };
	ck_assert_int_eq(parse(&o, NULL, params, TP_SCOPE_TORUS, &m), 1);
	for (; *want; want++)
		ck_assert_msg(strstr(m.last, *want), "'%s' lacks '%s'", m.last,
			      *want);
}

START_TEST(torus_problems)
{
	tp_settings o;
	msgs m = { 0 };
	expect_problem("torus_method=best",
		       (const char *[]){ "SchedulerParameters", "torus_method",
					 "'best'", "base fs mss anchor", NULL });
	expect_problem("bf_interval=1,torus_mehtod=fs",
		       (const char *[]){ "unknown key 'torus_mehtod'", NULL });
	expect_problem("torus_conf=a,torus_conf=b",
		       (const char *[]){ "torus_conf given again", "'b'", NULL });
	expect_problem("torus_conf",
		       (const char *[]){ "'torus_conf'", "needs a value", NULL });
	expect_problem("torus_conf=",
		       (const char *[]){ "torus_conf", "empty", NULL });
	expect_problem("torus_conf=/srv/deferred/torus.conf",
		       (const char *[]){ "'defer'", "/srv/deferred",
					 "Slurm's own look-ups", NULL });
	/* given twice: the first stands */
	ck_assert_int_eq(parse(&o, NULL, "torus_method=fs,torus_method=mss",
			       TP_SCOPE_TORUS, &m), 1);
	ck_assert_str_eq(o.torus_method, "fs");
	ck_assert_msg(strstr(m.last, "given again") && strstr(m.last, "'mss'"),
		      "%s", m.last);
	ck_assert_int_eq(parse(&o, NULL, "torus_conf=a,torus_conf=b",
			       TP_SCOPE_TORUS, &m), 1);
	ck_assert_str_eq(o.torus_conf, "a");
	/* a bad value keeps the previous one */
	tp_settings prev;
	ck_assert_int_eq(parse(&prev, NULL, "torus_method=base,torus_conf=p.conf",
			       TP_SCOPE_TORUS, &m), 0);
	ck_assert_int_eq(parse(&o, &prev, "torus_method=fast,torus_conf=/x/defer.conf",
			       TP_SCOPE_TORUS, &m), 2);
	ck_assert_str_eq(o.torus_method, "base");
	/* a clash is ignored: the setting starts from its default */
	ck_assert_str_eq(o.torus_conf, "");
}
END_TEST

/* Slurm finds its keys as substrings of the whole string: an entry of ours
 * containing any of them is refused, whatever the case, in either scope. */
START_TEST(refuse_every_slurm_key)
{
	int n = 0;
	for (const char *const *k = tp_slurm_sched_keys; *k; k++, n++) {
		char params[256], upper[128];
		size_t i;
		for (i = 0; (*k)[i] && i < sizeof(upper) - 1; i++)
			upper[i] = (char)((*k)[i] >= 'a' && (*k)[i] <= 'z'
					  ? (*k)[i] - 32 : (*k)[i]);
		upper[i] = '\0';

		snprintf(params, sizeof(params), "torus_conf=/a/%sb", upper);
		const char *found = tp_slurm_key_in(params);
		ck_assert_msg(found != NULL, "%s", params);
		/* the key found is the one put in, or a key within it */
		ck_assert_msg(contains_ci(*k, found), "%s: found '%s'", *k, found);
		tp_settings o;
		msgs m = { 0 };
		ck_assert_msg(parse(&o, NULL, params, TP_SCOPE_TORUS, &m) == 1,
			      "'%s' accepted", params);
		ck_assert_str_eq(o.torus_conf, "");
		ck_assert_msg(strstr(m.last, "Slurm's own look-ups"), "%s", m.last);
		char quoted[80];
		snprintf(quoted, sizeof(quoted), "'%s'", found);
		ck_assert_msg(strstr(m.last, quoted), "%s lacks %s", m.last, quoted);

		/* a value of sched/topo's, too (not a valid one anyway, but
		 * the clash is what is reported) */
		snprintf(params, sizeof(params), "topo_policy=%s", upper);
		ck_assert_int_eq(parse(&o, NULL, params, TP_SCOPE_SCHED, &m), 1);
		ck_assert_msg(strstr(m.last, "Slurm's own look-ups"), "%s", m.last);
	}
	ck_assert_int_gt(n, 50);
	ck_assert_ptr_null(tp_slurm_key_in("torus_conf=/etc/slurm/torus.conf"));
	ck_assert_ptr_null(tp_slurm_key_in(""));
}
END_TEST

/* ---- the list of Slurm's keys -------------------------------------------- */

/* Every "key=value" we document, as an admin would write it. */
static const char *const examples[] = {
	"topo_policy=fcfs", "topo_policy=easy", "topo_policy=conservative",
	"topo_policy=window-ff", "topo_policy=batch-njob", "topo_policy=rb-har",
	"topo_window=16", "topo_window_rule=queue", "topo_window_rule=index",
	"topo_njob=4", "topo_period=1",
	"topo_rbhar_max_ext=1", "topo_rbhar_max_time=600",
	"topo_rbhar_factor=2", "topo_rbhar_requeue=yes", "topo_rbhar_requeue=no",
	"topo_rbhar_requeue=on", "topo_rbhar_requeue=off", "topo_stats_every=60",
	"torus_method=base", "torus_method=fs", "torus_method=mss",
	"torus_conf=torus.conf", "torus_conf=/etc/slurm/torus.conf", NULL,
};

START_TEST(slurm_key_list)
{
	/* The list is real: it holds keys we know Slurm 22.05 reads. */
	static const char *const known[] = { "bf_window=", "defer",
		"sched_interval=", "max_switch_wait=", "cap_watts=", "interval=",
		"bf_interval=", "bf_resolution=", "default_queue_depth=", NULL };
	int n = 0;
	for (const char *const *k = tp_slurm_sched_keys; *k; k++, n++) {
		/* non-comment, non-empty, one word */
		ck_assert_msg((*k)[0] != '\0' && (*k)[0] != '#', "entry %d", n);
		ck_assert_msg(!strpbrk(*k, " \t\r\n,"), "'%s'", *k);
		/* no duplicates */
		for (const char *const *j = tp_slurm_sched_keys; j < k; j++)
			ck_assert_msg(strcmp(*j, *k), "'%s' twice", *k);
	}
	ck_assert_int_ge(n, 60);
	for (int i = 0; known[i]; i++) {
		bool have = false;
		for (const char *const *k = tp_slurm_sched_keys; *k && !have; k++)
			have = !strcmp(*k, known[i]);
		ck_assert_msg(have, "no '%s' in tp_slurm_sched_keys", known[i]);
	}
	/* case-insensitive substring search, the first listed key found */
	ck_assert_str_eq(tp_slurm_key_in("topo_INTERVAL=5"), "interval=");
	ck_assert_str_eq(tp_slurm_key_in("xDeFeRx"), "defer");
	ck_assert_ptr_null(tp_slurm_key_in("topo_window=3"));
}
END_TEST

START_TEST(no_key_contains_a_slurm_key)
{
	int nours = 0;
	for (const tp_setting *e = tp_settings_table; e->name; e++) {
		for (unsigned scope = TP_SCOPE_SCHED; scope <= TP_SCOPE_TORUS;
		     scope <<= 1) {
			if (!(e->scope & scope))
				continue;
			char key[128];
			snprintf(key, sizeof(key), "%s%s=",
				 tp_setting_prefix(scope), e->name);
			const char *k = tp_slurm_key_in(key);
			ck_assert_msg(k == NULL, "our key '%s' contains Slurm's '%s'",
				      key, k);
			for (const char *const *s = tp_slurm_sched_keys; *s; s++)
				ck_assert_msg(!contains_ci(key, *s),
					      "our key '%s' contains Slurm's '%s'",
					      key, *s);
			nours++;
		}
	}
	ck_assert_int_eq(nours, 15);
	for (int e = 0; examples[e]; e++)
		ck_assert_msg(tp_slurm_key_in(examples[e]) == NULL,
			      "'%s' contains Slurm's '%s'", examples[e],
			      tp_slurm_key_in(examples[e]));
	/* And every example parses in its scope. */
	for (int e = 0; examples[e]; e++) {
		tp_settings p;
		msgs m = { 0 };
		unsigned scope = !strncmp(examples[e], "topo_", 5) ? TP_SCOPE_SCHED
								  : TP_SCOPE_TORUS;
		ck_assert_msg(parse(&p, NULL, examples[e], scope, &m) == 0,
			      "%s: %s", examples[e], m.last);
	}
	/* The check itself catches the pitfall it exists for. */
	ck_assert(contains_ci("topo_interval=5", "interval="));
	ck_assert_ptr_nonnull(tp_slurm_key_in("topo_interval=5"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("settings");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, table_defaults_and_scopes);
	tcase_add_test(tc, set_and_show_each_type);
	tcase_add_test(tc, check_values_set_in_code);
	tcase_add_test(tc, policies_of_settings);
	suite_add_tcase(s, tc);
	tc = tcase_create("sched");
	tcase_add_test(tc, defaults_without_our_keys);
	tcase_add_test(tc, every_key_parses);
	tcase_add_test(tc, bad_value_keeps_previous);
	tcase_add_test(tc, repeated_keys);
	tcase_add_test(tc, unread_settings);
	tcase_add_test(tc, whole_entries);
	tcase_add_test(tc, format_round_trips);
	tcase_add_test(tc, scopes_share_one_string);
	suite_add_tcase(s, tc);
	tc = tcase_create("torus");
	tcase_add_test(tc, torus_none);
	tcase_add_test(tc, torus_keys_among_slurms);
	tcase_add_test(tc, torus_problems);
	tcase_add_test(tc, refuse_every_slurm_key);
	suite_add_tcase(s, tc);
	tc = tcase_create("slurm_keys");
	tcase_add_test(tc, slurm_key_list);
	tcase_add_test(tc, no_key_contains_a_slurm_key);
	suite_add_tcase(s, tc);
	return tp_check_run(s);
}
