/* progress.c - see progress.h. */
#include "progress.h"

#include <stdio.h>
#include <unistd.h>

bool sim_progress_wanted(void)
{
	return isatty(STDERR_FILENO);
}

void sim_progress(void *arg, size_t done, size_t total)
{
	const char *label = arg;
	int width = 40, fill = total ? (int)(width * done / total) : width;
	fprintf(stderr, "\r%-12s [%.*s%*s] %3zu%%", label ? label : "",
		fill, "########################################", width - fill, "",
		total ? 100 * done / total : 100);
	if (done >= total)
		fputc('\n', stderr);
	fflush(stderr);
}
