/*
 * conffile.h - read Slurm-style configuration files line by line.
 *
 * "Key=Value Key=Value ... # comment", keys case-insensitive as in Slurm;
 * a trailing backslash continues a line.  Each parsed line keeps its number
 * so callers can report "FILE:LINE: ...".
 */
#ifndef TP_CONFFILE_H
#define TP_CONFFILE_H

#include <stddef.h>

#include "base/error.h"

#define TP_CONF_MAX_PAIRS 32

typedef struct tp_conf_pair {
	char *key;
	char *value;
} tp_conf_pair;

typedef struct tp_conf_line {
	int lineno;
	size_t npairs;
	tp_conf_pair pairs[TP_CONF_MAX_PAIRS];
} tp_conf_line;

typedef struct tp_conf_reader tp_conf_reader;

tp_conf_reader *tp_conf_open(const char *path, tp_error *err);
/* Next non-empty line: 1, 0 at end, -1 with err ("FILE:LINE: ..."). */
int tp_conf_next(tp_conf_reader *r, tp_conf_line *line, tp_error *err);
const char *tp_conf_path(const tp_conf_reader *r);
/* From now on a line "Include FILE" (the word case-insensitive, as
 * slurm.conf writes it) is read as the one pair Include=FILE instead of
 * an error: for readers that follow slurm.conf's Include lines. */
void tp_conf_allow_include(tp_conf_reader *r);
void tp_conf_close(tp_conf_reader *r);

/* `file` as named in a configuration: absolute, or relative to `dir`
 * (NULL or "": as is).  malloc'd; NULL on ENOMEM. */
char *tp_conf_path_join(const char *dir, const char *file);

/* yes/no, on/off, true/false, 1/0 (case-insensitive) -> 1/0; else -1. */
int tp_conf_bool(const char *v);

/* A key given twice on the line (case-insensitive), or NULL: where a
 * format takes each key once, the second would silently replace or be
 * ignored. */
const char *tp_conf_repeated(const tp_conf_line *line);

/* Value of key (case-insensitive) in line, or NULL. */
const char *tp_conf_get(const tp_conf_line *line, const char *key);

#endif
