/* check_util.h - shared helpers for the Check unit tests. */
#ifndef TP_CHECK_UTIL_H
#define TP_CHECK_UTIL_H

#include <check.h>
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

/* The data directory: the source tree's data/ (data/README.md), or the
 * directory named by $TP_SHARED_DATA. */
static inline const char *tp_data_dir(void)
{
	const char *d = getenv("TP_SHARED_DATA");
	return d ? d : TP_DEFAULT_DATA_DIR;
}

#endif
