/* limit_value.c - limits as sacctmgr prints them; see limit_value.h. */
#include "site/limit_value.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A whole number >= 0 of a limit column into *x (empty: -1, none). */
int tp_limit_count(const char *v, int64_t *x)
{
	char *end;
	if (!*v) {
		*x = -1;
		return 0;
	}
	errno = 0;
	long long n = *v >= '0' && *v <= '9' ? strtoll(v, &end, 10) : -1;
	if (n < 0 || *end || errno)
		return -1;
	*x = n;
	return 0;
}

/* cpu= and node= of a TRES list ("cpu=8,mem=4G,node=2") into *cpus and
 * *nodes (-1 when absent); other TRES are skipped. */
int tp_limit_tres(const char *v, int64_t *cpus, int64_t *nodes)
{
	*cpus = *nodes = -1;
	for (const char *p = v; *p;) {
		size_t len = strcspn(p, ","), klen = strcspn(p, "=,");
		char num[32];
		int64_t *dst = klen == 3 && !strncasecmp(p, "cpu", 3) ? cpus :
			       klen == 4 && !strncasecmp(p, "node", 4) ? nodes : NULL;
		if (dst) {
			size_t vlen = len - klen - (klen < len);
			if (klen == len || vlen >= sizeof(num))
				return -1;
			memcpy(num, p + klen + 1, vlen);
			num[vlen] = '\0';
			if (tp_limit_count(num, dst) || *dst < 0)
				return -1;
		}
		p += len + (p[len] == ',');
	}
	return 0;
}
