/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The fabric container: node allocation with default SMA state, the
 * name index, lookups by name, description and LID, cabling, and GUID
 * assignment.
 *
 * Fabrics reach several thousand nodes and the net-file parser looks up
 * every peer name once per link, so names are indexed in an open
 * addressing hash table (linear probing, power-of-two size, at most half
 * full). Nodes are never removed, so the table needs no tombstones.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fab_link.h"
#include "fab_node.h"
#include "fabric.h"
#include "fw_agents.h"
#include "ib_proto.h"
#include "port_state.h"

/* FNV-1a, 64-bit (offset basis and prime of the published algorithm). */
#define FNV64_OFFSET	0xcbf29ce484222325ull
#define FNV64_PRIME	0x00000100000001b3ull

/*
 * Mellanox's IEEE OUI 00-02-C9 in the top 24 bits, as on InfiniHost
 * parts (NodeGUID is an EUI-64, IBA 4.1.1), so that tools print
 * familiar-looking GUIDs.
 */
#define FAB_GUID_OUI	0x0002c9ull

/* Derived GUIDs keep the low byte zero: CA port GUIDs are node + port. */
#define FAB_GUID_PORT_BITS	8

struct fab_index {
	struct fab_node **names;	/* name table, NULL = empty slot */
	unsigned int names_cap;		/* power of two */
	uint64_t *guids;		/* derived node GUIDs in use, 0 = empty */
	unsigned int guids_cap;		/* power of two */
	unsigned int guids_used;
};

static uint64_t
fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= FNV64_PRIME;
	}
	return h;
}

static uint64_t
name_hash(const char *name)
{
	return fnv1a(FNV64_OFFSET, name, strlen(name));
}

/* Spread a 64-bit hash over a table index (the low bits of FNV are weak). */
static unsigned int
slot_of(uint64_t h, unsigned int cap)
{
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (unsigned int)(h & (cap - 1));
}

static uint64_t
guid_derive(const char *name, enum fab_node_type type, unsigned int salt)
{
	uint8_t t = (uint8_t)type;
	uint64_t h;
	uint64_t low;

	h = fnv1a(FNV64_OFFSET, &t, 1);
	h = fnv1a(h, name, strlen(name));
	if (salt != 0)
		h = fnv1a(h, &salt, sizeof(salt));
	/*
	 * FNV-1a barely moves the high bits for names that differ only in
	 * their last characters (H0001, H0002): finish with splitmix64's
	 * mixer, then keep 32 bits between the OUI and the port byte.
	 */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	h ^= h >> 31;
	low = h & 0xffffffffull;
	return (FAB_GUID_OUI << 40) | (low << FAB_GUID_PORT_BITS);
}

uint64_t
fabric_guid_for_name(const char *name, enum fab_node_type type)
{
	if (name == NULL)
		return 0;
	return guid_derive(name, type, 0);
}

struct fabric *
fabric_new(void)
{
	struct fabric *f;
	struct fab_index *ix;

	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return NULL;
	ix = calloc(1, sizeof(*ix));
	if (ix == NULL)
		goto err_free_fabric;
	ix->names_cap = 64;
	ix->names = calloc(ix->names_cap, sizeof(ix->names[0]));
	if (ix->names == NULL)
		goto err_free_index;
	ix->guids_cap = 64;
	ix->guids = calloc(ix->guids_cap, sizeof(ix->guids[0]));
	if (ix->guids == NULL)
		goto err_free_names;
	f->name_index = ix;
	/* Any non-zero seed will do for link.c's xorshift fault generator. */
	f->rng = 0x9e3779b97f4a7c15ull;
	return f;

err_free_names:
	free(ix->names);
err_free_index:
	free(ix);
err_free_fabric:
	free(f);
	return NULL;
}

static void
node_free(struct fab_node *n)
{
	unsigned int i;

	if (n == NULL)
		return;
	/* link.c's per-port state: fault settings and port captures. */
	if (n->ports != NULL)
		for (i = 0; i <= n->nports; i++)
			fab_link_free(&n->ports[i]);
	if (n->sw != NULL) {
		free(n->sw->mft);
		free(n->sw);
	}
	free(n->ports);
	free(n);
}

void
fabric_free(struct fabric *f)
{
	struct fab_index *ix;
	struct fab_do_cmd *c, *next;
	unsigned int i;

	if (f == NULL)
		return;
	/* Queued and pooled packets and the whole-fabric capture (link.c). */
	fab_pkt_pool_free(f);
	for (i = 0; i < f->nnodes; i++)
		node_free(f->nodes[i]);
	free(f->nodes);
	ix = f->name_index;
	if (ix != NULL) {
		free(ix->names);
		free(ix->guids);
		free(ix);
	}
	for (c = f->do_cmds; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	free(f);
}

static int
index_grow_names(struct fab_index *ix)
{
	struct fab_node **t;
	unsigned int cap = ix->names_cap * 2;
	unsigned int i, s;

	t = calloc(cap, sizeof(t[0]));
	if (t == NULL)
		return -ENOMEM;
	for (i = 0; i < ix->names_cap; i++) {
		if (ix->names[i] == NULL)
			continue;
		s = slot_of(name_hash(ix->names[i]->name), cap);
		while (t[s] != NULL)
			s = (s + 1) & (cap - 1);
		t[s] = ix->names[i];
	}
	free(ix->names);
	ix->names = t;
	ix->names_cap = cap;
	return 0;
}

static int
index_grow_guids(struct fab_index *ix)
{
	uint64_t *t;
	unsigned int cap = ix->guids_cap * 2;
	unsigned int i, s;

	t = calloc(cap, sizeof(t[0]));
	if (t == NULL)
		return -ENOMEM;
	for (i = 0; i < ix->guids_cap; i++) {
		if (ix->guids[i] == 0)
			continue;
		s = slot_of(ix->guids[i], cap);
		while (t[s] != 0)
			s = (s + 1) & (cap - 1);
		t[s] = ix->guids[i];
	}
	free(ix->guids);
	ix->guids = t;
	ix->guids_cap = cap;
	return 0;
}

static bool
index_has_guid(const struct fab_index *ix, uint64_t guid)
{
	unsigned int s = slot_of(guid, ix->guids_cap);

	while (ix->guids[s] != 0) {
		if (ix->guids[s] == guid)
			return true;
		s = (s + 1) & (ix->guids_cap - 1);
	}
	return false;
}

/* Caller made room (guids_used + 1 <= cap / 2). */
static void
index_add_guid(struct fab_index *ix, uint64_t guid)
{
	unsigned int s = slot_of(guid, ix->guids_cap);

	while (ix->guids[s] != 0)
		s = (s + 1) & (ix->guids_cap - 1);
	ix->guids[s] = guid;
	ix->guids_used++;
}

struct fab_node *
fabric_find_node(const struct fabric *f, const char *name)
{
	const struct fab_index *ix;
	unsigned int s;

	if (f == NULL || name == NULL || f->name_index == NULL)
		return NULL;
	ix = f->name_index;
	s = slot_of(name_hash(name), ix->names_cap);
	while (ix->names[s] != NULL) {
		if (strcmp(ix->names[s]->name, name) == 0)
			return ix->names[s];
		s = (s + 1) & (ix->names_cap - 1);
	}
	return NULL;
}

struct fab_node *
fabric_find_node_by_desc(const struct fabric *f, const char *desc)
{
	unsigned int i;

	if (f == NULL || desc == NULL)
		return NULL;
	for (i = 0; i < f->nnodes; i++)
		if (strcmp(f->nodes[i]->desc, desc) == 0)
			return f->nodes[i];
	return NULL;
}

void
fabric_set_node_guid(struct fab_node *n, uint64_t guid)
{
	unsigned int i;
	struct fab_port *p;

	if (n == NULL)
		return;
	n->node_guid = guid;
	n->sys_guid = guid;
	if (n->ports == NULL)
		return;
	for (i = 0; i <= n->nports; i++) {
		p = &n->ports[i];
		if (n->type == FAB_NODE_SWITCH) {
			/* Switch ports share port 0's GUID (NodeInfo PortGUID, IBA 14.2.5.3). */
			p->guid = guid;
		} else {
			if (i == 0)
				continue;
			p->guid = guid + i;
		}
		p->guids[0] = p->guid;
	}
}

/* Identity fields, set before and re-asserted after the SMA defaults. */
static void
node_set_identity(struct fab_node *n, enum fab_node_type type, const char *name,
		  unsigned int nports, uint64_t guid)
{
	unsigned int i;

	n->type = type;
	memcpy(n->name, name, strlen(name) + 1);
	memcpy(n->desc, name, strlen(name) + 1);
	n->nports = (uint8_t)nports;
	for (i = 0; i <= nports; i++) {
		n->ports[i].node = n;
		n->ports[i].num = (uint8_t)i;
	}
	fabric_set_node_guid(n, guid);
}

static bool
node_type_valid(enum fab_node_type type)
{
	return type == FAB_NODE_CA || type == FAB_NODE_SWITCH ||
	       type == FAB_NODE_ROUTER;
}

struct fab_node *
fabric_add_node(struct fabric *f, enum fab_node_type type, const char *name,
		unsigned int nports)
{
	struct fab_index *ix;
	struct fab_node *n;
	struct fab_node **nodes;
	size_t len;
	unsigned int cap, s, i, salt;
	uint64_t guid;

	if (f == NULL || f->name_index == NULL || name == NULL ||
	    !node_type_valid(type) || nports == 0 || nports > FAB_MAX_PORTS) {
		errno = EINVAL;
		return NULL;
	}
	len = strlen(name);
	if (len == 0 || len >= FAB_NAME_MAX) {
		errno = EINVAL;
		return NULL;
	}
	if (fabric_find_node(f, name) != NULL) {
		errno = EEXIST;
		return NULL;
	}
	ix = f->name_index;

	/* Make room first, so that nothing below can fail half-way. */
	if (f->nnodes == f->nodes_cap) {
		cap = f->nodes_cap != 0 ? f->nodes_cap * 2 : 64;
		nodes = realloc(f->nodes, cap * sizeof(nodes[0]));
		if (nodes == NULL)
			goto err_nomem;
		f->nodes = nodes;
		f->nodes_cap = cap;
	}
	if ((f->nnodes + 1) * 2 > ix->names_cap && index_grow_names(ix) != 0)
		goto err_nomem;
	if ((ix->guids_used + 1) * 2 > ix->guids_cap && index_grow_guids(ix) != 0)
		goto err_nomem;

	n = calloc(1, sizeof(*n));
	if (n == NULL)
		goto err_nomem;
	n->ports = calloc(nports + 1, sizeof(n->ports[0]));
	if (n->ports == NULL)
		goto err_free_node;
	if (type == FAB_NODE_SWITCH) {
		n->sw = calloc(1, sizeof(*n->sw));
		if (n->sw == NULL)
			goto err_free_node;
		n->sw->mft = calloc(FAB_MFT_CAP, sizeof(n->sw->mft[0]));
		if (n->sw->mft == NULL)
			goto err_free_node;
		/* An unprogrammed LFT routes nowhere (IBA 14.2.5.10: port 255 = drop). */
		memset(n->sw->lft, FAB_NO_PORT, sizeof(n->sw->lft));
	}

	/*
	 * Stable per name; on the rare 32-bit collision with another derived
	 * GUID, re-hash with a salt so that GUIDs stay unique in the fabric.
	 */
	salt = 0;
	do
		guid = guid_derive(name, type, salt++);
	while (index_has_guid(ix, guid) && salt < 1024);
	index_add_guid(ix, guid);

	node_set_identity(n, type, name, nports, guid);
	sma_init_node(n);
	for (i = type == FAB_NODE_SWITCH ? 0 : 1; i <= nports; i++)
		sma_init_port(&n->ports[i]);
	node_set_identity(n, type, name, nports, guid);

	n->index = f->nnodes;
	f->nodes[f->nnodes++] = n;
	s = slot_of(name_hash(n->name), ix->names_cap);
	while (ix->names[s] != NULL)
		s = (s + 1) & (ix->names_cap - 1);
	ix->names[s] = n;
	return n;

err_free_node:
	node_free(n);
err_nomem:
	errno = ENOMEM;
	return NULL;
}

struct fab_port *
fabric_find_port_by_lid(const struct fabric *f, uint16_t lid)
{
	const struct fab_node *n;
	struct fab_port *p;
	unsigned int i, j, first, last;
	uint16_t mask;

	if (f == NULL || lid == 0 || lid >= IB_LID_MULTICAST_MIN)
		return NULL;
	for (i = 0; i < f->nnodes; i++) {
		n = f->nodes[i];
		/* A switch has one LID, that of port 0 (IBA 14.2.5.6 PortInfo LID). */
		first = n->type == FAB_NODE_SWITCH ? 0 : 1;
		last = n->type == FAB_NODE_SWITCH ? 0 : n->nports;
		for (j = first; j <= last; j++) {
			p = &n->ports[j];
			if (p->lid == 0)
				continue;
			/*
			 * A port answers 2^LMC consecutive LIDs from its base
			 * LID, whose low LMC bits are zero (IBA 4.1.3 LMC).
			 */
			mask = (uint16_t)~((1u << (p->lmc & 7)) - 1);
			if ((lid & mask) == (p->lid & mask))
				return p;
		}
	}
	return NULL;
}

int
fabric_connect(struct fabric *f, struct fab_port *a, struct fab_port *b)
{
	if (f == NULL || a == NULL || b == NULL || a == b)
		return -EINVAL;
	/* Switch port 0 is the management port: it has no cable (IBA ch. 18). */
	if (a->num == 0 || b->num == 0)
		return -EINVAL;
	if (a->peer != NULL || b->peer != NULL)
		return -EBUSY;
	a->peer = b;
	b->peer = a;
	port_state_link_update(f, a);
	return 0;
}
