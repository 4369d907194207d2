/*
 * tmpdir_util.h - a private, flat temporary directory for tests that write
 * configuration files (topology.conf, torus.conf, fattree.conf...).
 * /dev/shm when writable (no disk I/O), else /tmp.
 */
#ifndef TP_TMPDIR_UTIL_H
#define TP_TMPDIR_UTIL_H

#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* BASE/PREFIX.XXXXXX: short, so callers may build paths in small buffers. */
static char tmpdir[256];

/* Create tmpdir as BASE/PREFIX.XXXXXX; 0 or -1. */
static inline int tmpdir_make(const char *prefix)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/%s.XXXXXX", base, prefix);
	return mkdtemp(tmpdir) ? 0 : -1;
}

/* Remove the files in tmpdir, then tmpdir. */
static inline void tmpdir_remove(void)
{
	DIR *d = opendir(tmpdir);
	char path[PATH_MAX + 256];
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", tmpdir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(tmpdir);
}

/* Write `text` to tmpdir/name; returns the path (static buffer). */
static inline const char *tmpdir_write(const char *name, const char *text)
{
	static char path[sizeof(tmpdir) + 256];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

#endif
