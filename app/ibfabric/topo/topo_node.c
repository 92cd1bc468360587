/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Net-file parser: the nodes a parse creates. Their slots in the
 * parser's tables, the declaration of each port line (local port ->
 * peer name and port, resolved by topo_resolve.c), their GUIDs (from
 * the GUID statements, or from an ibnetdiscover node id) and the
 * attributes the header line and the pending statements give them.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fab_node.h"
#include "fabric.h"
#include "topo.h"
#include "topo_lex.h"
#include "topo_node.h"
#include "topo_rate.h"
#include "topo_state.h"

/* "S-0002c90200402ec8": the GUID of an ibnetdiscover node id of @p type. */
bool
tp_guid_from_id(enum fab_node_type type, const char *id, uint64_t *guid)
{
	const char *p = id + 2;
	uint64_t v;

	if (strlen(id) != 18 || id[0] != type_prefix(type) || id[1] != '-' ||
	    tp_get_uint(&p, 16, UINT64_MAX, &v) != 0 || *p != '\0' || v == 0)
		return false;
	*guid = v;
	return true;
}

int
tp_new_node_slot(struct tp *tp, struct fab_node *n)
{
	unsigned int k = n->index - tp->first_node;
	size_t i;

	if (tp_grow_uint((void **)&tp->tnodes, &tp->tnodes_cap, k + 1, sizeof(tp->tnodes[0])) != 0 ||
	    tp_grow((void **)&tp->pdecl, &tp->pdecl_cap, tp->pdecl_len + n->nports + 1,
		 sizeof(tp->pdecl[0])) != 0)
		return tp_nomem(tp);
	tp->tnodes[k].pbase = (uint32_t)tp->pdecl_len;
	tp->tnodes[k].file = tp->file;
	tp->ntnodes = k + 1;
	for (i = 0; i <= n->nports; i++)
		tp->pdecl[tp->pdecl_len++] = TP_NONE;
	return 0;
}

/* Declaration slot of @p n's port @p port, or NULL if @p n predates this parse. */
uint32_t *
tp_port_decl(struct tp *tp, const struct fab_node *n, unsigned int port)
{
	unsigned int k;

	if (n->index < tp->first_node)
		return NULL;
	k = n->index - tp->first_node;
	if (k >= tp->ntnodes)
		return NULL;
	return &tp->pdecl[tp->tnodes[k].pbase + port];
}

/* The statement that numbers nodes of @p type ("switchguid=" ...). */
static const char *
guid_key(enum fab_node_type type)
{
	return type == FAB_NODE_SWITCH ? "switchguid" : type == FAB_NODE_ROUTER ? "rtguid" :
	       "caguid";
}

/*
 * Give @p n the NodeGUID @p guid. A CA's or router's port GUIDs follow it
 * (NodeGUID + port, as ibsim numbers them): refuse a range that would run
 * past 0xffffffffffffffff to GUID 0 and the bottom of the space rather
 * than wrap silently (GUID 0 is invalid, IBA 4.1.1).
 */
int
tp_set_guid(struct tp *tp, struct fab_node *n, uint64_t guid)
{
	unsigned int span = n->type == FAB_NODE_SWITCH ? 0 : n->nports;

	if (guid > UINT64_MAX - span)
		return tp_error(tp, "GUIDs of \"%s\" wrap: NodeGUID 0x%016llx + NumPorts %u"
				" runs past 0xffffffffffffffff", n->name,
				(unsigned long long)guid, span);
	fabric_set_node_guid(n, guid);
	return 0;
}

/* Apply the header's and the pending statements' attributes to @p n. */
int
tp_node_apply(struct tp *tp, struct fab_node *n, const struct tp_header *h)
{
	struct tp_pending *pd = &tp->pend;
	unsigned int t = type_slot(h->type), i;
	uint64_t guid, span;

	if (h->desc[0] != '\0')
		memcpy(n->desc, h->desc, strlen(h->desc) + 1);
	/*
	 * After "switchguid=" (or caguid/rtguid) ibsim numbers the following
	 * nodes of that type from the base: +1 per switch, +NumPorts+1 per CA,
	 * so that CA port GUIDs (node + port) never overlap.
	 */
	if (pd->guid_base_set[t]) {
		guid = pd->guid_next[t];
		if (pd->guid_spent[t])
			return tp_error(tp, "%s numbering ran out: \"%s\" would get a GUID past"
					" 0xffffffffffffffff", guid_key(h->type), n->name);
		if (tp_set_guid(tp, n, guid) != 0)
			return -1;
		span = h->type == FAB_NODE_SWITCH ? 0 : h->nports;
		pd->guid_spent[t] = guid + span == UINT64_MAX;
		pd->guid_next[t] = guid + span + 1;
	} else if (tp_guid_from_id(h->type, h->name, &guid)) {
		/*
		 * No GUID statement yet: a node id in ibnetdiscover's own form,
		 * "S-<NodeGUID>" (ibnetdiscover.c node_name()), says the GUID,
		 * as in an excerpt of a dump that lost its "switchguid=" lines.
		 */
		if (tp_set_guid(tp, n, guid) != 0)
			return -1;
	}
	if (h->type == FAB_NODE_SWITCH && pd->sw_port_guid_set) {
		for (i = 0; i <= n->nports; i++) {
			n->ports[i].guid = pd->sw_port_guid;
			n->ports[i].guids[0] = pd->sw_port_guid;
		}
	}
	pd->sw_port_guid_set = false;
	if (pd->sysguid_set)
		n->sys_guid = pd->sysguid;
	if (pd->vendid_set)
		n->vendor_id = pd->vendid;
	if (pd->devid_set)
		n->device_id = pd->devid;
	/* ibsim resets vendid and sysimgguid after each node; so does devid here. */
	pd->sysguid_set = pd->vendid_set = pd->devid_set = false;

	for (i = h->type == FAB_NODE_SWITCH ? 0 : 1; i <= n->nports; i++) {
		tp_port_set_width(&n->ports[i], pd->width);
		tp_port_set_speed(&n->ports[i], pd->speed);
		if (pd->extspeed_set)
			tp_port_set_ext(&n->ports[i], pd->extspeed);
	}
	if (n->sw != NULL && h->esp0 >= 0)
		n->sw->enhanced_port0 = (uint8_t)h->esp0;
	if (n->sw != NULL && h->lid_set)
		n->ports[0].lid = h->lid;
	if (n->sw != NULL && h->lmc_set)
		n->ports[0].lmc = h->lmc;
	n->line = tp->line;
	if (h->active) {
		/* One PCI bus per active HCA (mt25208_host.h): the net file's limit. */
		if (tp->nactive >= TOPO_ACTIVE_MAX)
			return tp_error(tp, "active=mt25208: more than %u active HCAs"
					" (one PCI bus each, 0x10..0xff)", TOPO_ACTIVE_MAX);
		tp->nactive++;
		n->active_hca = true;
	}
	return 0;
}

int
tp_add_decl(struct tp *tp, struct fab_node *n, unsigned int port, const char *peer,
	    uint32_t rport)
{
	uint32_t *slot = tp_port_decl(tp, n, port);
	size_t len = strlen(peer) + 1;
	struct tp_decl *d;

	if (slot != NULL && *slot != TP_NONE)
		return tp_error(tp, "port [%u] of \"%s\" listed twice (first at line %u)",
				port, n->name, (unsigned int)tp->decls[*slot].line);
	if (tp_grow_u32((void **)&tp->decls, &tp->decls_cap, (size_t)tp->ndecls + 1,
		     sizeof(tp->decls[0])) != 0 ||
	    tp_grow((void **)&tp->names, &tp->names_cap, tp->names_len + len, 1) != 0 ||
	    tp->names_len + len > UINT32_MAX)
		return tp_nomem(tp);
	d = &tp->decls[tp->ndecls];
	d->node = n->index;
	d->port = (uint8_t)port;
	d->peer = (uint32_t)tp->names_len;
	d->rport = rport;
	d->line = tp->line;
	d->file = tp->file;
	memcpy(tp->names + tp->names_len, peer, len);
	tp->names_len += len;
	if (slot != NULL)
		*slot = tp->ndecls;
	tp->ndecls++;
	return 0;
}
