/* outside_names.c - names of the nodes beyond a topology's; see
 * outside_names.h. */
#include "outside_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_outside_names_free(char **names, int n)
{
	for (int i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

/* "n016" -> prefix length 1, number 16, width 3 (0: not padded); -1 when
 * the name ends in no number (or in more digits than a long holds). */
static int split_name(const char *s, size_t *plen, long *num, int *width)
{
	size_t len = strlen(s), k = len;
	while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	if (k == len || len - k > 18)
		return -1;
	*plen = k;
	*num = strtol(s + k, NULL, 10);
	*width = (len - k > 1 && s[k] == '0') ? (int)(len - k) : 0;
	return 0;
}

int sim_outside_names(const tp_topo *t, int n, const char *flag,
		      char ***names, tp_error *err)
{
	const char *last = tp_topo_node_name(t, t->ninside - 1);
	size_t plen;
	long num;
	int width;
	*names = NULL;
	if (!last || split_name(last, &plen, &num, &width))
		return tp_errorf(err, "%s: the topology's last node '%s' ends in no number, so the %d node(s) beyond it cannot be named after it",
				 flag, last ? last : "", n);
	char **v = calloc((size_t)n, sizeof(char *));
	if (!v)
		return tp_errorf(err, "%s: out of memory", flag);
	for (int k = 0; k < n; k++) {
		int len = snprintf(NULL, 0, "%.*s%0*ld", (int)plen, last, width,
				   num + 1 + k);
		if (!(v[k] = malloc((size_t)len + 1))) {
			sim_outside_names_free(v, n);
			return tp_errorf(err, "%s: out of memory", flag);
		}
		snprintf(v[k], (size_t)len + 1, "%.*s%0*ld", (int)plen, last,
			 width, num + 1 + k);
		if (tp_topo_node_index(t, v[k]) >= 0) {
			tp_errorf(err, "%s: the name '%s' after the topology's last node '%s' is a node of the topology already",
				  flag, v[k], last);
			sim_outside_names_free(v, n);
			return -1;
		}
	}
	*names = v;
	return 0;
}
