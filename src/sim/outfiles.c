/* outfiles.c - the table of toposim's output files; see outfiles.h. */
#include "outfiles.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"

typedef struct out_kind {
	const char *option;     /* as the user wrote it, for messages */
	size_t field;           /* its const char * in sim_config */
	const char *suffix;     /* appended to the value (--plot PREFIX) */
	bool by_tool;           /* written by another program (gnuplot):
				 * opened only to prove it can be written */
} out_kind;

#define CFG(f) offsetof(sim_config, f)

static const out_kind kinds[SIM_OUT_N] = {
	[SIM_OUT_JOBS_CSV] = { "--jobs-csv", CFG(jobs_csv), NULL, false },
	[SIM_OUT_SUMMARY_JSON] = { "--summary-json", CFG(summary_json), NULL, false },
	[SIM_OUT_BATSIM_CSV] = { "--batsim-csv", CFG(batsim_csv), NULL, false },
	[SIM_OUT_SWF_OUT] = { "--swf-out", CFG(swf_out), NULL, false },
	[SIM_OUT_FRAG_CSV] = { "--frag-csv", CFG(frag_csv), NULL, false },
	[SIM_OUT_PLOT_GANTT] = { "--plot", CFG(plot), "-gantt.svg", false },
	[SIM_OUT_PLOT_UTIL] = { "--plot", CFG(plot), "-util.dat", false },
	[SIM_OUT_PLOT_WAIT] = { "--plot", CFG(plot), "-wait.dat", false },
	[SIM_OUT_PLOT_SCRIPT] = { "--plot", CFG(plot), ".gp", false },
	[SIM_OUT_PLOT_UTIL_PNG] = { "--plot", CFG(plot), "-util.png", true },
	[SIM_OUT_PLOT_WAIT_PNG] = { "--plot", CFG(plot), "-wait.png", true },
};

/* What a path names, to tell two outputs in one file apart from two
 * files: standard output ("-"), an existing file (device and inode, so
 * that "./a" and "a" or a link are one), or a file to be created (its
 * directory resolved, then its name). */
typedef struct out_ident {
	bool is_stdout, is_null, has_id;
	dev_t dev;
	ino_t ino;
	char where[PATH_MAX + NAME_MAX + 2];
} out_ident;

static void ident_new(const char *path, out_ident *id)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? path : ".");
	if (!dir[0])
		snprintf(dir, sizeof(dir), "/");
	if (!realpath(dir, real)) /* fopen will say why */
		snprintf(real, sizeof(real), "%s", dir);
	snprintf(id->where, sizeof(id->where), "%s/%s", real, base);
}

static void ident_of(const char *path, const struct stat *null,
		     out_ident *id)
{
	struct stat st;
	memset(id, 0, sizeof(*id));
	id->is_stdout = !strcmp(path, "-");
	if (id->is_stdout ? !fstat(STDOUT_FILENO, &st) : !stat(path, &st)) {
		id->has_id = true;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		id->is_null = null && st.st_dev == null->st_dev &&
			      st.st_ino == null->st_ino;
	} else if (!id->is_stdout) {
		ident_new(path, id);
	}
}

static bool same_file(const out_ident *a, const out_ident *b)
{
	if (a->is_stdout && b->is_stdout)
		return true;
	if (a->is_null || b->is_null)
		return false;
	if (a->has_id && b->has_id)
		return a->dev == b->dev && a->ino == b->ino;
	return !a->has_id && !b->has_id && a->where[0] &&
	       !strcmp(a->where, b->where);
}

static char *out_path(const out_kind *k, const char *value)
{
	size_t n = strlen(value) + (k->suffix ? strlen(k->suffix) : 0) + 1;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s%s", value, k->suffix ? k->suffix : "");
	return p;
}

/* The paths c asks for; -1 when out of memory. */
static int fill_paths(sim_outfiles *o, const sim_config *c, tp_error *err)
{
	for (int i = 0; i < SIM_OUT_N; i++) {
		const char *v = *(const char *const *)((const char *)c + kinds[i].field);
		if (v && !(o->path[i] = out_path(&kinds[i], v)))
			return tp_errorf(err, "out of memory");
	}
	return 0;
}

/* Refuse one file given for two outputs: the second would overwrite the
 * first, or both would interleave on standard output. */
static int check_distinct(const sim_outfiles *o, tp_error *err)
{
	static out_ident id[SIM_OUT_N];
	struct stat null;
	bool have_null = !stat("/dev/null", &null);
	for (int i = 0; i < SIM_OUT_N; i++) {
		if (!o->path[i])
			continue;
		ident_of(o->path[i], have_null ? &null : NULL, &id[i]);
		for (int j = 0; j < i; j++)
			if (o->path[j] && same_file(&id[i], &id[j]))
				return tp_errorf(err, "%s: '%s' is the file %s already writes ('%s'): give each output its own file (/dev/null may be given for several)",
						 kinds[i].option, o->path[i],
						 kinds[j].option, o->path[j]);
	}
	return 0;
}

static int open_one(sim_outfiles *o, int i, tp_error *err)
{
	tp_error why;
	FILE *fp = sim_open_out(o->path[i], &why);
	struct stat st;
	if (!fp)
		return tp_errorf(err, "%s: %s", kinds[i].option, why.msg);
	o->regular[i] = fp != stdout && !fstat(fileno(fp), &st) &&
			S_ISREG(st.st_mode);
	if (kinds[i].by_tool)
		return sim_close_out(fp, o->path[i], err);
	o->fp[i] = fp;
	return 0;
}

int sim_outfiles_init(sim_outfiles *o, const sim_config *c, tp_error *err)
{
	memset(o, 0, sizeof(*o));
	return fill_paths(o, c, err) || check_distinct(o, err) ? -1 : 0;
}

int sim_outfiles_open(sim_outfiles *o, tp_error *err)
{
	int rc = 0;
	for (int i = 0; i < SIM_OUT_N && !rc; i++)
		if (o->path[i])
			rc = open_one(o, i, err);
	if (rc)
		sim_outfiles_discard(o);
	return rc;
}

FILE *sim_outfile(const sim_outfiles *o, sim_out_id id)
{
	return o->fp[id];
}

const char *sim_outfile_path(const sim_outfiles *o, sim_out_id id)
{
	return o->path[id];
}

int sim_outfile_close(sim_outfiles *o, sim_out_id id, tp_error *err)
{
	tp_error ignored;
	FILE *fp = o->fp[id];
	o->fp[id] = NULL;
	if (!fp)
		return 0;
	int rc = sim_close_out(fp, o->path[id], err ? err : &ignored);
	o->whole[id] = !rc;
	return rc;
}

void sim_outfiles_discard(sim_outfiles *o)
{
	for (int i = 0; i < SIM_OUT_N; i++) {
		if (o->fp[i]) { /* still open: cut short */
			sim_outfile_close(o, (sim_out_id)i, NULL);
			o->whole[i] = false;
		}
		if (o->path[i] && o->regular[i] && !o->whole[i])
			unlink(o->path[i]);
		o->regular[i] = false;
	}
}

int sim_outfiles_close(sim_outfiles *o, tp_error *err)
{
	int rc = 0;
	for (int i = 0; i < SIM_OUT_N; i++)
		if (sim_outfile_close(o, (sim_out_id)i, rc ? NULL : err))
			rc = -1;
	return rc;
}

void sim_outfiles_fini(sim_outfiles *o)
{
	for (int i = 0; i < SIM_OUT_N; i++) {
		free(o->path[i]);
		o->path[i] = NULL;
	}
}
