/* tpl_nodemap.c - Slurm <-> topology node indices; see tpl_nodemap.h. */
#include "tpl_nodemap.h"

#include <stdlib.h>

int tpl_nodemap_build(tpl_nodemap *m, const char *const *names, int nslurm,
		      const void *topo, int ntopo, tpl_topo_index_fn index,
		      tp_error *err)
{
	*m = (tpl_nodemap){ .nslurm = nslurm, .ntopo = ntopo };
	m->to_topo = malloc((size_t)(nslurm > 0 ? nslurm : 1) * sizeof(int));
	m->to_slurm = malloc((size_t)(ntopo > 0 ? ntopo : 1) * sizeof(int));
	if (!m->to_topo || !m->to_slurm) {
		tpl_nodemap_fini(m);
		return tp_errorf(err, "node map: out of memory");
	}
	for (int j = 0; j < ntopo; j++)
		m->to_slurm[j] = -1;

	for (int i = 0; i < nslurm; i++) {
		int j = names[i] ? index(topo, names[i]) : -1;
		m->to_topo[i] = j;
		if (j < 0) {
			if (names[i])
				m->nmissing++;
			continue;
		}
		if (j >= ntopo || m->to_slurm[j] >= 0) {
			tp_errorf(err, "node map: Slurm node '%s' maps to topology node %d, %s",
				  names[i], j,
				  j >= ntopo ? "out of range" : "already taken");
			tpl_nodemap_fini(m);
			return -1;
		}
		m->to_slurm[j] = i;
	}
	for (int j = 0; j < ntopo; j++)
		if (m->to_slurm[j] < 0)
			m->nunused++;
	return 0;
}

void tpl_nodemap_fini(tpl_nodemap *m)
{
	free(m->to_topo);
	free(m->to_slurm);
	*m = (tpl_nodemap){ 0 };
}

void tpl_bits_to_set(const tpl_nodemap *m, bitstr_t *bits, tp_nodeset *s)
{
	tp_nodeset_zero(s);
	int n = bit_size(bits);
	if (n > m->nslurm)
		n = m->nslurm;
	for (int i = bit_ffs(bits); i >= 0 && i < n; i++) {
		if (!bit_test(bits, i))
			continue;
		if (m->to_topo[i] >= 0)
			tp_nodeset_set(s, m->to_topo[i]);
	}
}

void tpl_set_to_bits(const tpl_nodemap *m, const tp_nodeset *s,
		     bitstr_t *bits)
{
	int n = bit_size(bits);

	bit_clear_all(bits);
	for (int j = tp_nodeset_next(s, 0); j >= 0; j = tp_nodeset_next(s, j + 1)) {
		int i = m->to_slurm[j];
		if (i >= 0 && i < n)
			bit_set(bits, i);
	}
}
