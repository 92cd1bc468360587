/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Second pass of the net-file parser: every port line's declaration
 * resolved to its peer, both ends checked to agree, cables made; then
 * NodeGUIDs and port GUIDs checked unique (IBA 4.1.1).
 */

#include <stdlib.h>
#include <string.h>

#include "fab_node.h"
#include "fabric.h"
#include "topo_lex.h"
#include "topo_node.h"
#include "topo_resolve.h"
#include "topo_state.h"

/* ------------------------------------------------------------------ */
/* Second pass: resolve and cable */

int
tp_resolve_links(struct tp *tp)
{
	struct fabric *f = tp->f;
	struct fab_node *a, *b;
	struct fab_port *pa, *pb;
	const struct tp_decl *d, *e;
	const char *peer;
	uint32_t i, *slot;
	int rc;

	for (i = 0; i < tp->ndecls; i++) {
		d = &tp->decls[i];
		a = f->nodes[d->node];
		pa = &a->ports[d->port];
		peer = tp->names + d->peer;
		b = fabric_find_node(f, peer);
		if (b == NULL)
			return tp_error_at(tp, d->file, d->line,
					   "\"%s\"[%u]: unknown peer node \"%s\"",
					   a->name, d->port, peer);
		if (d->rport == 0 || d->rport > b->nports)
			return tp_error_at(tp, d->file, d->line,
					   "\"%s\"[%u]: peer port \"%s\"[%u] out of range (NumPorts %u)",
					   a->name, d->port, peer, (unsigned int)d->rport, b->nports);
		pb = &b->ports[d->rport];
		if (pa == pb)
			return tp_error_at(tp, d->file, d->line,
					   "\"%s\"[%u] is cabled to itself", a->name, d->port);
		slot = tp_port_decl(tp, b, d->rport);
		if (slot != NULL && *slot != TP_NONE) {
			e = &tp->decls[*slot];
			if (e->rport != d->port || strcmp(tp->names + e->peer, a->name) != 0)
				return tp_error_at(tp, d->file, d->line,
						   "asymmetric link: \"%s\"[%u] -> \"%s\"[%u], but \"%s\"[%u] -> \"%s\"[%u] (%s:%u)",
						   a->name, d->port, b->name, (unsigned int)d->rport,
						   b->name, (unsigned int)d->rport,
						   tp->names + e->peer, (unsigned int)e->rport,
						   tp->files[e->file], (unsigned int)e->line);
			if (pa->peer == pb)
				continue;	/* cabled when its other end was read */
		}
		if (pb->peer != NULL && pb->peer != pa)
			return tp_error_at(tp, d->file, d->line,
					   "port cabled twice: \"%s\"[%u] -> \"%s\"[%u], which is already cabled to \"%s\"[%u]",
					   a->name, d->port, b->name, (unsigned int)d->rport,
					   pb->peer->node->name, pb->peer->num);
		if (pa->peer != NULL && pa->peer != pb)
			return tp_error_at(tp, d->file, d->line,
					   "port cabled twice: \"%s\"[%u] is already cabled to \"%s\"[%u]",
					   a->name, d->port, pa->peer->node->name, pa->peer->num);
		rc = fabric_connect(f, pa, pb);
		if (rc != 0)
			return tp_error_at(tp, d->file, d->line, "cannot cable \"%s\"[%u] to \"%s\"[%u]: %s",
					   a->name, d->port, b->name, (unsigned int)d->rport,
					   strerror(-rc));
	}
	return 0;
}

struct guid_slot {
	uint64_t guid;
	uint32_t node;
};

static unsigned int
guid_slot_of(uint64_t g, size_t cap)
{
	g ^= g >> 31;
	g *= 0x9e3779b97f4a7c15ull;
	g ^= g >> 29;
	return (unsigned int)(g & (cap - 1));
}

/* Insert; returns the node already holding @p g, or UINT32_MAX. */
static uint32_t
guid_insert(struct guid_slot *t, size_t cap, uint64_t g, uint32_t node)
{
	unsigned int s = guid_slot_of(g, cap);

	while (t[s].guid != 0) {
		if (t[s].guid == g && t[s].node != node)
			return t[s].node;
		if (t[s].guid == g)
			return UINT32_MAX;
		s = (s + 1) & (unsigned int)(cap - 1);
	}
	t[s].guid = g;
	t[s].node = node;
	return UINT32_MAX;
}

/* NodeGUIDs and port GUIDs must be unique in a subnet (IBA 4.1.1). */
int
tp_check_guids(struct tp *tp)
{
	struct fabric *f = tp->f;
	struct guid_slot *t;
	struct fab_node *n;
	size_t cap = 64, total = 0;
	unsigned int i, j, k;
	uint32_t other;
	uint64_t g;

	for (i = 0; i < f->nnodes; i++)
		total += 1u + (f->nodes[i]->type == FAB_NODE_SWITCH ? 0 : f->nodes[i]->nports);
	while (cap < total * 2)
		cap *= 2;
	t = calloc(cap, sizeof(t[0]));
	if (t == NULL)
		return tp_nomem(tp);
	for (i = 0; i < f->nnodes; i++) {
		n = f->nodes[i];
		for (j = 0; j <= (n->type == FAB_NODE_SWITCH ? 0u : n->nports); j++) {
			g = j == 0 ? n->node_guid : n->ports[j].guid;
			if (g == 0)
				continue;
			other = guid_insert(t, cap, g, i);
			if (other == UINT32_MAX)
				continue;
			free(t);
			k = n->index - tp->first_node;
			return tp_error_at(tp,
					   n->index >= tp->first_node && k < tp->ntnodes ?
					   tp->tnodes[k].file : 0, n->line,
					   "GUID 0x%016llx of \"%s\"%s is already used by \"%s\"",
					   (unsigned long long)g, n->name,
					   j == 0 ? "" : " port", f->nodes[other]->name);
		}
	}
	free(t);
	return 0;
}
