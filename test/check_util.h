/* check_util.h - shared helpers for the Check unit tests. */
#ifndef TP_CHECK_UTIL_H
#define TP_CHECK_UTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* Run one suite; exit status for automake's test driver. */
static inline int tp_check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The data directory (data/README.md): $TP_SHARED_DATA, which make check
 * sets to the source tree's data/ unless it is set already.  A test run
 * by hand without it fails saying so rather than reading another place. */
static inline const char *tp_data_dir(void)
{
	const char *d = getenv("TP_SHARED_DATA");
	if (d && *d)
		return d;
	fprintf(stderr, "TP_SHARED_DATA is not set: run the tests with make check, "
		"or set it to the source tree's data/ directory\n");
	exit(EXIT_FAILURE);
}

#endif
