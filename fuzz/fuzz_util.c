/* fuzz_util.c - see fuzz_util.h. */
#include "fuzz_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];
static char paths[8][320];
static int npaths;

static void cleanup(void)
{
	for (int i = 0; i < npaths; i++) {
		char tmp[400];
		unlink(paths[i]);
		snprintf(tmp, sizeof(tmp), "%.300s.tmp", paths[i]); /* atomic saves */
		unlink(tmp);
		snprintf(tmp, sizeof(tmp), "%.300s.new", paths[i]);
		unlink(tmp);
	}
	rmdir(dir);
}

const char *fuzz_path(const char *name)
{
	if (!dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof(dir), "%s/topo-fuzz-XXXXXX",
			 t && *t ? t : "/tmp");
		if (!mkdtemp(dir))
			fuzz_fail("mkdtemp %s failed", dir);
		atexit(cleanup);
	}
	for (int i = 0; i < npaths; i++)
		if (!strcmp(strrchr(paths[i], '/') + 1, name))
			return paths[i];
	if (npaths == (int)(sizeof(paths) / sizeof(paths[0])))
		fuzz_fail("fuzz_path: too many files");
	snprintf(paths[npaths], sizeof(paths[0]), "%s/%s", dir, name);
	return paths[npaths++];
}

const char *fuzz_write(const char *name, const uint8_t *data, size_t size)
{
	const char *p = fuzz_path(name);
	FILE *fp = fopen(p, "w");
	if (!fp || (size && fwrite(data, 1, size, fp) != size) || fclose(fp))
		fuzz_fail("cannot write %s", p);
	return p;
}

char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		fuzz_fail("out of memory");
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

char *fuzz_slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int c;
	while ((c = getc(fp)) != EOF)
		putc(c, out);
	fclose(fp);
	fclose(out);
	return buf;
}

int fuzz_writable_name(const char *name)
{
	size_t n = strlen(name);
	return !n || (name[n - 1] != '\\' && name[n - 1] != '\r');
}

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("fuzz check failed: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

void fuzz_check_error(int rc, const char *msg, const char *path)
{
	if (rc == 0)
		return;
	if (!msg[0])
		fuzz_fail("failed without a message (%s)", path);
	if (!strstr(msg, path))
		fuzz_fail("message does not name the file %s: %s", path, msg);
}
