/*
 * fattree.c - the fat-tree model: topology.conf parser, generator, writer,
 * names and hops.  MSUs live in fattree_msu.c.  See fattree.h.
 */
#include "topology/fattree.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/conffile.h"
#include "base/hostlist.h"
#include "base/name_index.h"

/* fattree_msu.c: (re)build the MSU partition from t->opts. */
int tp_fattree_build_msus(tp_fattree *t, tp_error *err);
/* fattree_fabric.c: fabric of every switch, t->nfabric, t->fabric_root. */
int tp_fattree_build_fabrics(tp_fattree *t, tp_error *err);

#define MAX_GENERATED_NODES (1 << 24)

/* ---- allocation of the model ---- */

void tp_fattree_free(tp_fattree *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nswitch; i++) {
		free(t->sw[i].name);
		free(t->sw[i].child);
	}
	free(t->sw);
	for (int i = 0; i < t->nnodes; i++)
		free(t->node_name[i]);
	free(t->node_name);
	free(t->node_leaf);
	free(t->node_msu);
	tp_name_index_fini(&t->node_index);
	free(t->leaves);
	free(t->postorder);
	free(t->fabric_root);
	free(t->msu_lo);
	free(t->msu_leaf);
	free(t->path);
	free(t);
}

static tp_fattree *fattree_new(const char *path)
{
	tp_fattree *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	tp_fattree_opts_default(&t->opts);
	t->root = -1;
	if (!(t->path = strdup(path))) {
		free(t);
		return NULL;
	}
	return t;
}

/* Append a switch; returns its index or -1 on ENOMEM. */
static int add_switch(tp_fattree *t, int *cap, const char *name, int line)
{
	if (t->nswitch == *cap) {
		int nc = *cap ? 2 * *cap : 16;
		tp_fattree_switch *p = realloc(t->sw, (size_t)nc * sizeof(*p));
		if (!p)
			return -1;
		t->sw = p;
		*cap = nc;
	}
	tp_fattree_switch *s = &t->sw[t->nswitch];
	memset(s, 0, sizeof(*s));
	s->parent = -1;
	s->line = line;
	s->link_speed = 1;
	s->node_lo = s->node_hi = -1;
	if (!(s->name = strdup(name)))
		return -1;
	return t->nswitch++;
}

static int add_node(tp_fattree *t, int *cap, const char *name)
{
	if (t->nnodes == *cap) {
		int nc = *cap ? 2 * *cap : 64;
		char **p = realloc(t->node_name, (size_t)nc * sizeof(*p));
		if (!p)
			return -1;
		t->node_name = p;
		*cap = nc;
	}
	if (!(t->node_name[t->nnodes] = strdup(name)))
		return -1;
	return t->nnodes++;
}

/* ---- completing a model whose switches, children and leaves are set ---- */

static int oom(tp_error *err, const tp_fattree *t)
{
	return tp_errorf(err, "%s: out of memory", t->path);
}

/* "FILE:LINE: " prefix for switch s (no line for generated switches). */
static int err_at(tp_error *err, const tp_fattree *t, int s, const char *msg,
		  const char *value)
{
	if (t->sw[s].line > 0)
		return tp_errorf(err, "%s:%d: %s '%s'", t->path, t->sw[s].line,
				 msg, value);
	return tp_errorf(err, "%s: %s '%s'", t->path, msg, value);
}

/* Every switch must hang below a root; the rest sit on or below a cycle. */
static int check_acyclic(tp_fattree *t, tp_error *err)
{
	int n = t->nswitch, *stack = malloc((size_t)n * sizeof(int));
	char *seen = calloc((size_t)n, 1);
	if (!stack || !seen) {
		free(stack);
		free(seen);
		return oom(err, t);
	}
	int sp = 0;
	for (int i = 0; i < n; i++)
		if (t->sw[i].parent < 0) {
			stack[sp++] = i;
			seen[i] = 1;
		}
	while (sp) {
		tp_fattree_switch *s = &t->sw[stack[--sp]];
		for (int c = 0; c < s->nchild; c++)
			if (!seen[s->child[c]]) {
				seen[s->child[c]] = 1;
				stack[sp++] = s->child[c];
			}
	}
	int bad = -1;
	for (int i = 0; i < n && bad < 0; i++)
		if (!seen[i])
			bad = i;
	free(stack);
	free(seen);
	if (bad < 0)
		return 0;
	/* Walking up n times from below a cycle lands on the cycle. */
	for (int k = 0; k < n; k++)
		bad = t->sw[bad].parent;
	return err_at(err, t, bad, "switches form a cycle through", t->sw[bad].name);
}

/* Several roots: one virtual root above them all (see fattree.h). */
static int add_virtual_root(tp_fattree *t, int *cap, tp_error *err)
{
	int nroot = 0;
	for (int i = 0; i < t->nswitch; i++)
		if (t->sw[i].parent < 0)
			nroot++;
	if (nroot == 1) {
		for (int i = 0; i < t->nswitch; i++)
			if (t->sw[i].parent < 0)
				t->root = i;
		return 0;
	}
	int v = add_switch(t, cap, "(virtual-root)", 0);
	int *ch = v < 0 ? NULL : malloc((size_t)nroot * sizeof(int));
	if (!ch)
		return oom(err, t);
	tp_fattree_switch *r = &t->sw[v];
	r->is_virtual = true;
	r->child = ch;
	for (int i = 0; i < v; i++)
		if (t->sw[i].parent < 0) {
			r->child[r->nchild++] = i;
			t->sw[i].parent = v;
		}
	t->root = v;
	return 0;
}

/* Post-order (with each subtree's interval of it), levels (Slurm's),
 * depths. */
static int order_and_levels(tp_fattree *t, tp_error *err)
{
	int n = t->nswitch;
	int *stack = malloc((size_t)n * sizeof(int));
	int *next = calloc((size_t)n, sizeof(int));
	t->postorder = malloc((size_t)n * sizeof(int));
	if (!stack || !next || !t->postorder) {
		free(stack);
		free(next);
		return oom(err, t);
	}
	int sp = 0, k = 0;
	stack[sp++] = t->root;
	t->sw[t->root].depth = 0;
	while (sp) {
		int v = stack[sp - 1];
		tp_fattree_switch *s = &t->sw[v];
		if (next[v] < s->nchild) {
			int c = s->child[next[v]++];
			t->sw[c].depth = s->depth + 1;
			stack[sp++] = c;
			continue;
		}
		sp--;
		s->level = 0;
		s->post = s->post_lo = k;
		for (int c = 0; c < s->nchild; c++) {
			const tp_fattree_switch *ch = &t->sw[s->child[c]];
			if (ch->level + 1 > s->level)
				s->level = ch->level + 1;
			if (ch->post_lo < s->post_lo)
				s->post_lo = ch->post_lo;
		}
		t->postorder[k++] = v;
	}
	free(stack);
	free(next);
	t->levels = t->sw[t->root].level + 1;
	return 0;
}

/* Leaves in node order, node -> leaf, node names -> indices (a file's
 * reader indexed them as it read them; a generated tree's are indexed
 * here). */
static int index_nodes(tp_fattree *t, tp_error *err)
{
	t->leaves = malloc((size_t)(t->nswitch ? t->nswitch : 1) * sizeof(int));
	t->node_leaf = malloc((size_t)(t->nnodes ? t->nnodes : 1) * sizeof(int));
	if (!t->leaves || !t->node_leaf)
		return oom(err, t);
	while (t->node_index.count < t->nnodes)
		if (tp_name_index_add(&t->node_index, t->node_name))
			return oom(err, t);
	t->nleaf = 0;
	t->max_leaf = 0;
	for (int i = 0; i < t->nswitch; i++) {
		tp_fattree_switch *s = &t->sw[i];
		if (s->node_lo < 0)
			continue;
		t->leaves[t->nleaf++] = i;
		if (s->node_hi - s->node_lo > t->max_leaf)
			t->max_leaf = s->node_hi - s->node_lo;
		for (int v = s->node_lo; v < s->node_hi; v++)
			t->node_leaf[v] = i;
	}
	return 0;
}

static int finish(tp_fattree *t, int *cap, tp_error *err)
{
	if (check_acyclic(t, err) || add_virtual_root(t, cap, err) ||
	    order_and_levels(t, err) || index_nodes(t, err) ||
	    tp_fattree_build_fabrics(t, err))
		return -1;
	return tp_fattree_build_msus(t, err);
}

/* ---- topology.conf parser ---- */

typedef struct raw_line {
	const char *name, *nodes, *switches, *speed;
} raw_line;

static const char *const known_keys[] = { "SwitchName", "Nodes", "Switches",
					  "LinkSpeed", NULL };

/* Check keys (known, not repeated) and pick the values out. */
static int split_line(const tp_conf_line *ln, raw_line *r, const char *path,
		      tp_error *err)
{
	const char **slot[] = { &r->name, &r->nodes, &r->switches, &r->speed };
	memset(r, 0, sizeof(*r));
	for (size_t p = 0; p < ln->npairs; p++) {
		int k = 0;
		while (known_keys[k] && strcasecmp(known_keys[k], ln->pairs[p].key))
			k++;
		if (!known_keys[k])
			return tp_errorf(err, "%s:%d: unknown key '%s' (topology.conf knows SwitchName, Switches, Nodes, LinkSpeed)",
					 path, ln->lineno, ln->pairs[p].key);
		if (*slot[k])
			return tp_errorf(err, "%s:%d: key '%s' given twice",
					 path, ln->lineno, ln->pairs[p].key);
		*slot[k] = ln->pairs[p].value;
	}
	if (!r->name)
		return tp_errorf(err, "%s:%d: line without SwitchName=", path,
				 ln->lineno);
	if (r->name[strcspn(r->name, "[],")])
		return tp_errorf(err, "%s:%d: bad switch name '%s'", path,
				 ln->lineno, r->name);
	if (r->nodes && r->switches)
		return tp_errorf(err, "%s:%d: switch '%s' has both Nodes= and Switches=",
				 path, ln->lineno, r->name);
	if (!r->nodes && !r->switches)
		return tp_errorf(err, "%s:%d: switch '%s' has neither Nodes= nor Switches=",
				 path, ln->lineno, r->name);
	return 0;
}

static int parse_speed(const char *v, int *out)
{
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (errno || end == v || *end || x < 1 || x > INT_MAX)
		return -1;
	*out = (int)x;
	return 0;
}

/* Parser state: the growing model plus what later passes need. */
typedef struct loader {
	tp_fattree *t;
	int swcap, nodecap;
	char **children;     /* [switch] Switches= text, or NULL */
	int childcap;
	char **sw_name;      /* [nswitch] switch names, built after reading */
	tp_name_index sw_index; /* sw_name -> switch index */
} loader;

static int keep_children(loader *L, int s, const char *text)
{
	if (s >= L->childcap) {
		int nc = L->childcap ? 2 * L->childcap : 16;
		char **p = realloc(L->children, (size_t)nc * sizeof(*p));
		if (!p)
			return -1;
		memset(p + L->childcap, 0, (size_t)(nc - L->childcap) * sizeof(*p));
		L->children = p;
		L->childcap = nc;
	}
	return text && !(L->children[s] = strdup(text)) ? -1 : 0;
}

/* Leaf switch holding node v while switch `cur` is being read. */
static int leaf_of(const tp_fattree *t, int cur, int v)
{
	for (int k = 0; k < cur; k++)
		if (t->sw[k].node_lo <= v && v < t->sw[k].node_hi)
			return k;
	return cur;
}

/* A leaf's Nodes=: append its nodes (first appearance defines order)
 * and index their names. */
static int add_leaf_nodes(loader *L, int s, const char *expr, int line,
			  tp_error *err)
{
	tp_fattree *t = L->t;
	tp_hostlist hl = { 0 };
	char msg[256];
	if (tp_hostlist_expand(&hl, expr, msg, sizeof(msg))) {
		tp_hostlist_fini(&hl);
		return tp_errorf(err, "%s:%d: bad hostlist in Nodes=%s: %s",
				 t->path, line, expr, msg);
	}
	t->sw[s].node_lo = t->nnodes;
	int rc = 0;
	for (size_t i = 0; i < hl.n && !rc; i++) {
		int had = tp_name_index_find(&t->node_index, t->node_name,
					     hl.names[i]);
		/* Slurm's topology/tree warns and keeps such a node in every
		 * leaf that lists it; a node has one leaf here, so taking any
		 * one of them would quietly differ from Slurm's reading. */
		if (had >= 0) {
			int leaf = leaf_of(t, s, had);
			if (leaf == s)
				rc = tp_errorf(err, "%s:%d: node '%s' listed twice under switch '%s'",
					       t->path, line, hl.names[i], t->sw[s].name);
			else
				rc = tp_errorf(err, "%s:%d: node '%s' is already under leaf switch '%s' (line %d)",
					       t->path, line, hl.names[i],
					       t->sw[leaf].name, t->sw[leaf].line);
		} else if (add_node(t, &L->nodecap, hl.names[i]) < 0 ||
			   tp_name_index_add(&t->node_index, t->node_name)) {
			rc = oom(err, t);
		}
	}
	t->sw[s].node_hi = t->nnodes;
	tp_hostlist_fini(&hl);
	return rc;
}

static int read_lines(loader *L, tp_conf_reader *r, tp_error *err)
{
	tp_fattree *t = L->t;
	tp_conf_line ln;
	int rc;
	while ((rc = tp_conf_next(r, &ln, err)) == 1) {
		raw_line raw;
		int speed = 1;
		if (split_line(&ln, &raw, t->path, err)) {
			rc = -1;
			break;
		}
		if (raw.speed && parse_speed(raw.speed, &speed)) {
			rc = tp_errorf(err, "%s:%d: bad LinkSpeed '%s' (want a positive integer)",
				       t->path, ln.lineno, raw.speed);
			break;
		}
		int s = add_switch(t, &L->swcap, raw.name, ln.lineno);
		if (s < 0 || keep_children(L, s, raw.switches)) {
			rc = oom(err, t);
			break;
		}
		t->sw[s].link_speed = speed;
		if (raw.nodes &&
		    add_leaf_nodes(L, s, raw.nodes, ln.lineno, err)) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && t->nswitch == 0)
		rc = tp_errorf(err, "%s: no switches defined", t->path);
	return rc;
}

/* Switch names -> indices; a repeated SwitchName is an error. */
static int index_switches(loader *L, tp_error *err)
{
	tp_fattree *t = L->t;
	char **names = malloc((size_t)t->nswitch * sizeof(char *));
	if (!names)
		return oom(err, t);
	for (int i = 0; i < t->nswitch; i++)
		names[i] = t->sw[i].name;
	L->sw_name = names;
	int rc = 0;
	for (int i = 0; i < t->nswitch && !rc; i++) {
		int had = tp_name_index_find(&L->sw_index, names, names[i]);
		if (had >= 0)
			rc = tp_errorf(err, "%s:%d: switch '%s' already defined at line %d",
				       t->path, t->sw[i].line, names[i], t->sw[had].line);
		else if (tp_name_index_add(&L->sw_index, names))
			rc = oom(err, t);
	}
	return rc;
}

static int switch_by_name(const loader *L, const char *name)
{
	return tp_name_index_find(&L->sw_index, L->sw_name, name);
}

/* Resolve one inner switch's Switches= list into child indices. */
static int link_children(loader *L, int s, tp_error *err)
{
	tp_fattree *t = L->t;
	tp_fattree_switch *sw = &t->sw[s];
	const char *expr = L->children[s];
	tp_hostlist hl = { 0 };
	char msg[256];
	if (tp_hostlist_expand(&hl, expr, msg, sizeof(msg))) {
		tp_hostlist_fini(&hl);
		return tp_errorf(err, "%s:%d: bad hostlist in Switches=%s: %s",
				 t->path, sw->line, expr, msg);
	}
	int rc = 0;
	if (!(sw->child = malloc(hl.n * sizeof(int))))
		rc = oom(err, t);
	for (size_t i = 0; i < hl.n && !rc; i++) {
		int c = switch_by_name(L, hl.names[i]);
		if (c < 0)
			rc = tp_errorf(err, "%s:%d: switch '%s' lists unknown switch '%s'",
				       t->path, sw->line, sw->name, hl.names[i]);
		else if (c == s)
			rc = tp_errorf(err, "%s:%d: switches form a cycle through '%s' (it lists itself)",
				       t->path, sw->line, sw->name);
		else if (t->sw[c].parent == s)
			rc = tp_errorf(err, "%s:%d: switch '%s' lists switch '%s' twice in Switches=%s",
				       t->path, sw->line, sw->name, hl.names[i], expr);
		else if (t->sw[c].parent >= 0)
			rc = tp_errorf(err, "%s:%d: switch '%s' has two parents: '%s' (line %d) and '%s'",
				       t->path, sw->line, hl.names[i],
				       t->sw[t->sw[c].parent].name,
				       t->sw[t->sw[c].parent].line, sw->name);
		else {
			t->sw[c].parent = s;
			sw->child[sw->nchild++] = c;
		}
	}
	tp_hostlist_fini(&hl);
	return rc;
}

static void loader_fini(loader *L)
{
	if (L->children)
		for (int i = 0; i < L->childcap; i++)
			free(L->children[i]);
	free(L->children);
	tp_name_index_fini(&L->sw_index);
	free(L->sw_name);
}

tp_fattree *tp_fattree_load(const char *path, tp_error *err)
{
	loader L = { 0 };
	tp_conf_reader *r = tp_conf_open(path, err);
	if (!r)
		return NULL;
	if (!(L.t = fattree_new(path))) {
		tp_conf_close(r);
		tp_errorf(err, "%s: out of memory", path);
		return NULL;
	}
	int rc = read_lines(&L, r, err);
	tp_conf_close(r);
	if (!rc)
		rc = index_switches(&L, err);
	for (int s = 0; !rc && s < L.t->nswitch; s++)
		if (s < L.childcap && L.children[s])
			rc = link_children(&L, s, err);
	if (!rc)
		rc = finish(L.t, &L.swcap, err);
	loader_fini(&L);
	if (rc) {
		tp_fattree_free(L.t);
		return NULL;
	}
	return L.t;
}

/* ---- generator ---- */

static int ipow_capped(int b, int e, long cap, long *out)
{
	long v = 1;
	for (int i = 0; i < e; i++) {
		v *= b;
		if (v > cap)
			return -1;
	}
	*out = v;
	return 0;
}

tp_fattree *tp_fattree_generate(int levels, int width, tp_error *err)
{
	long nnodes;
	if (levels < 1 || width < 1) {
		tp_errorf(err, "fat tree: levels (%d) and width (%d) must be >= 1",
			  levels, width);
		return NULL;
	}
	if (ipow_capped(width, levels, MAX_GENERATED_NODES, &nnodes)) {
		tp_errorf(err, "fat tree: %d^%d nodes is more than %d", width,
			  levels, MAX_GENERATED_NODES);
		return NULL;
	}
	tp_fattree *t = fattree_new("(generated)");
	if (!t) {
		tp_errorf(err, "fat tree: out of memory");
		return NULL;
	}
	int swcap = 0, nodecap = 0, rc = 0;
	char name[64];
	/* Level by level from the leaves, as topology.conf files are written. */
	long count = nnodes / width, first_prev = 0;
	for (int lv = 0; lv < levels && !rc; lv++, count /= width) {
		long first = t->nswitch;
		for (long i = 0; i < count && !rc; i++) {
			snprintf(name, sizeof(name), "s%d-%ld", lv, i);
			int s = add_switch(t, &swcap, name, 0);
			if (s < 0) {
				rc = -1;
				break;
			}
			tp_fattree_switch *sw = &t->sw[s];
			if (lv == 0) {
				sw->node_lo = t->nnodes;
				for (int k = 0; k < width && !rc; k++) {
					snprintf(name, sizeof(name), "n%d", t->nnodes + 1);
					rc = add_node(t, &nodecap, name) < 0;
				}
				sw->node_hi = t->nnodes;
				continue;
			}
			if (!(sw->child = malloc((size_t)width * sizeof(int)))) {
				rc = -1;
				break;
			}
			for (int k = 0; k < width; k++) {
				int c = (int)(first_prev + i * width + k);
				sw->child[sw->nchild++] = c;
				t->sw[c].parent = s;
			}
		}
		first_prev = first;
	}
	if (rc) {
		tp_errorf(err, "fat tree: out of memory");
		tp_fattree_free(t);
		return NULL;
	}
	if (finish(t, &swcap, err)) {
		tp_fattree_free(t);
		return NULL;
	}
	return t;
}

/* ---- writer (hostlist-compressed topology.conf) ---- */

/* Split "pre123" into prefix length and number; digits' count in *nd.
 * Returns 0 if the name has no trailing digits (or too many). */
static int split_num(const char *s, size_t *plen, long *num, int *nd)
{
	size_t len = strlen(s), k = len;
	while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	if (k == len || len - k > 9)
		return 0;
	*plen = k;
	*nd = (int)(len - k);
	*num = strtol(s + k, NULL, 10);
	return 1;
}

/* Zero padding the number was written with (0 = none), as the hostlist
 * expander reads it back: padded iff it has a leading zero. */
static int pad_of(const char *digits, int nd)
{
	return (nd > 1 && digits[0] == '0') ? nd : 0;
}

/* Can name b continue a run that ended with name a (same prefix, next
 * number, same padding rule)? */
static int continues(const char *a, const char *b, int pad)
{
	size_t pa, pb;
	long na, nb;
	int da, db;
	if (!split_num(a, &pa, &na, &da) || !split_num(b, &pb, &nb, &db))
		return 0;
	if (pa != pb || strncmp(a, b, pa) || nb != na + 1)
		return 0;
	if (pad)
		return db == pad;
	return pad_of(b + pb, db) == 0;
}

static int write_hostlist(FILE *fp, char *const *names, int n)
{
	for (int i = 0; i < n;) {
		size_t plen;
		long lo;
		int nd, pad = 0, j = i + 1;
		if (split_num(names[i], &plen, &lo, &nd)) {
			pad = pad_of(names[i] + plen, nd);
			while (j < n && continues(names[j - 1], names[j], pad))
				j++;
		}
		if (fprintf(fp, "%s", i ? "," : "") < 0)
			return -1;
		if (j - i == 1) {
			if (fputs(names[i], fp) < 0)
				return -1;
		} else if (fprintf(fp, "%.*s[%0*ld-%0*ld]", (int)plen, names[i],
				   pad, lo, pad, lo + (j - i - 1)) < 0) {
			return -1;
		}
		i = j;
	}
	return 0;
}

int tp_fattree_write_conf(const tp_fattree *t, FILE *fp)
{
	char **tmp = malloc((size_t)(t->nswitch ? t->nswitch : 1) * sizeof(char *));
	if (!tmp)
		return -1;
	int rc = fprintf(fp, "# %d nodes, %d switches, %d levels\n", t->nnodes,
			 t->nswitch - (t->sw[t->root].is_virtual ? 1 : 0),
			 t->levels - (t->sw[t->root].is_virtual ? 1 : 0)) < 0;
	for (int i = 0; i < t->nswitch && !rc; i++) {
		const tp_fattree_switch *s = &t->sw[i];
		if (s->is_virtual)
			continue;
		rc = fprintf(fp, "SwitchName=%s ", s->name) < 0;
		if (!rc && s->node_lo >= 0) {
			rc = fputs("Nodes=", fp) < 0 ||
			     write_hostlist(fp, t->node_name + s->node_lo,
					    s->node_hi - s->node_lo);
		} else if (!rc) {
			for (int c = 0; c < s->nchild; c++)
				tmp[c] = t->sw[s->child[c]].name;
			rc = fputs("Switches=", fp) < 0 ||
			     write_hostlist(fp, tmp, s->nchild);
		}
		if (!rc && s->link_speed != 1)
			rc = fprintf(fp, " LinkSpeed=%d", s->link_speed) < 0;
		if (!rc)
			rc = fputc('\n', fp) < 0;
	}
	free(tmp);
	return rc ? -1 : 0;
}

/* ---- queries ---- */

int tp_fattree_nnodes(const tp_fattree *t)
{
	return t->nnodes;
}

const char *tp_fattree_node_name(const tp_fattree *t, int i)
{
	return (i >= 0 && i < t->nnodes) ? t->node_name[i] : NULL;
}

int tp_fattree_node_index(const tp_fattree *t, const char *name)
{
	return tp_name_index_find(&t->node_index, t->node_name, name);
}

int tp_fattree_switch_index(const tp_fattree *t, const char *name)
{
	for (int i = 0; i < t->nswitch; i++)
		if (!strcmp(t->sw[i].name, name))
			return i;
	return -1;
}

/* Lowest common ancestor by climbing (depth is small). */
static int lca(const tp_fattree *t, int a, int b)
{
	while (t->sw[a].depth > t->sw[b].depth)
		a = t->sw[a].parent;
	while (t->sw[b].depth > t->sw[a].depth)
		b = t->sw[b].parent;
	while (a != b) {
		a = t->sw[a].parent;
		b = t->sw[b].parent;
	}
	return a;
}

int tp_fattree_switch_dist(const tp_fattree *t, int a, int b)
{
	return t->sw[a].depth + t->sw[b].depth - 2 * t->sw[lca(t, a, b)].depth;
}

int tp_fattree_hops(const tp_fattree *t, int a, int b)
{
	if (a == b)
		return 0;
	return tp_fattree_switch_dist(t, t->node_leaf[a], t->node_leaf[b]) + 1;
}
