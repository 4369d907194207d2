/*
 * replay_main.c - a fuzz target without libFuzzer: feeds it every file of
 * its seed corpus (fuzz/corpus/NAME, NAME from the program's name
 * replay_NAME) or of the directories and files on the command line, once
 * each.  `make check` runs one such program per target, so every seed and
 * every input that once crashed a parser (the corpus keeps them) is
 * replayed by every build, and under ASan/UBSan by build/sanitize.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"

static int replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		return -1;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int c;
	while ((c = getc(fp)) != EOF)
		putc(c, mem);
	fclose(fp);
	fclose(mem);
	/* libFuzzer hands the target a buffer of exactly the input's size;
	 * a copy of that size lets ASan see a read past it. */
	unsigned char *exact = malloc(len ? len : 1);
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order: the count, -1 on error. */
static int replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "replay: cannot open directory %s\n", dir);
		return -1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
		sprintf(names[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	int count = 0;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
			if (replay_file(names[i]))
				count = -1;
			else if (count >= 0)
				count++;
		}
		free(names[i]);
	}
	free(names);
	return count;
}

static int replay_arg(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "replay: no such file or directory: %s\n", path);
		return -1;
	}
	return S_ISDIR(st.st_mode) ? replay_dir(path)
				   : replay_file(path) ? -1 : 1;
}

int main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1
						 : argv[0];
	if (!strncmp(prog, "lt-", 3))
		prog += 3;
	int total = 0;
	if (argc > 1) {
		for (int i = 1; i < argc; i++) {
			int n = replay_arg(argv[i]);
			if (n < 0)
				return 1;
			total += n;
		}
	} else {
		/* make check: the target's corpus in the source tree */
		const char *src = getenv("TOPO_SRCDIR");
		if (!src || strncmp(prog, "replay_", 7)) {
			fprintf(stderr, "usage: replay_NAME [FILE|DIR]... (without arguments: "
				"$TOPO_SRCDIR/fuzz/corpus/NAME)\n");
			return 1;
		}
		char dir[4096];
		snprintf(dir, sizeof(dir), "%s/fuzz/corpus/%s", src, prog + 7);
		if ((total = replay_dir(dir)) < 0)
			return 1;
	}
	/* A corpus that holds nothing tests nothing: a failure. */
	if (total == 0) {
		fprintf(stderr, "%s: no input replayed\n", prog);
		return 1;
	}
	printf("%s: %d inputs replayed\n", prog, total);
	return 0;
}
