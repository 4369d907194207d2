/* tpt_info.c - `scontrol show topology` records; see tpt_info.h. */
#include "tpt_info.h"

#include <stdlib.h>

#include "src/common/hostlist.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

void tpt_info_add(tpt_info *info, const char *name, const char *nodes,
		  const char *line)
{
	xrecalloc(info->rec, info->count + 1, sizeof(*info->rec));
	tpt_record *r = &info->rec[info->count++];
	r->name = xstrdup(name);
	r->nodes = xstrdup(nodes);
	r->line = xstrdup(line);
}

void tpt_info_free(tpt_info *info)
{
	if (!info)
		return;
	for (uint32_t i = 0; i < info->count; i++) {
		xfree(info->rec[i].name);
		xfree(info->rec[i].nodes);
		xfree(info->rec[i].line);
	}
	xfree(info->rec);
	xfree(info);
}

void tpt_info_pack(const tpt_info *info, buf_t *buffer)
{
	pack32(info->count, buffer);
	for (uint32_t i = 0; i < info->count; i++) {
		packstr(info->rec[i].name, buffer);
		packstr(info->rec[i].nodes, buffer);
		packstr(info->rec[i].line, buffer);
	}
}

tpt_info *tpt_info_unpack(buf_t *buffer)
{
	tpt_info *info = xmalloc(sizeof(*info));
	uint32_t count;

	safe_unpack32(&count, buffer);
	if (count > remaining_buf(buffer))
		goto unpack_error; /* each record takes bytes */
	info->rec = xcalloc(count ? count : 1, sizeof(*info->rec));
	for (; info->count < count; info->count++) {
		tpt_record *r = &info->rec[info->count];
		safe_unpackstr(&r->name, buffer);
		safe_unpackstr(&r->nodes, buffer);
		safe_unpackstr(&r->line, buffer);
	}
	return info;

unpack_error:
	tpt_info_free(info);
	return NULL;
}

/* SLURM_TOPO_LEN cuts lines, as for topology/tree. */
static void print_record(const tpt_record *r, char **out)
{
	char *env = getenv("SLURM_TOPO_LEN");
	if (env)
		xstrfmtcat(*out, "%.*s\n", atoi(env), r->line);
	else
		xstrfmtcat(*out, "%s\n", r->line);
}

static bool holds_node(const tpt_record *r, const char *node)
{
	if (!r->nodes || !r->nodes[0])
		return false;
	hostset_t *hs = hostset_create(r->nodes);
	if (!hs)
		return false;
	bool in = hostset_within(hs, node);
	hostset_destroy(hs);
	return in;
}

void tpt_info_print(const tpt_info *info, const char *name, char **out)
{
	int matched = 0;

	*out = NULL;
	if (!info || !info->count) {
		error("No topology information available");
		return;
	}
	for (uint32_t i = 0; name && name[0] && i < info->count; i++)
		if (!xstrcmp(info->rec[i].name, name)) {
			print_record(&info->rec[i], out);
			return;
		}
	for (uint32_t i = 0; i < info->count; i++) {
		if (name && name[0] && !holds_node(&info->rec[i], name))
			continue;
		print_record(&info->rec[i], out);
		matched++;
	}
	if (!matched)
		error("Topology information contains no switch or node named %s",
		      name);
}

void tpt_info_print_match(const tpt_info *info, const char *nodes,
			  const char *unit, char **out)
{
	int matched = 0;

	*out = NULL;
	if (nodes && !nodes[0])
		nodes = NULL;
	if (unit && !unit[0])
		unit = NULL;
	if (!info || !info->count) {
		error("No topology information available");
		return;
	}
	for (uint32_t i = 0; i < info->count; i++) {
		if (unit && xstrcmp(info->rec[i].name, unit))
			continue;
		if (nodes && !holds_node(&info->rec[i], nodes))
			continue;
		print_record(&info->rec[i], out);
		matched++;
	}
	if (!matched)
		error("Topology information contains no switch or torus%s%s%s%s",
		      unit ? " named " : "", unit ? unit : "",
		      nodes ? " with nodes " : "", nodes ? nodes : "");
}
