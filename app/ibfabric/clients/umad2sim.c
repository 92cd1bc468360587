/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibsim's server protocol, so that processes running under ibsim's
 * libumad2sim.so (OpenSM, infiniband-diags) attach to ibfabric nodes.
 *
 * The rules below are ibsim 0.10's, measured and written down in
 * ibsim 0.10's ibsim/ibsim.c, ibsim/sim_mad.c, include/ibsim.h and
 * umad2sim/umad2sim.c (cited by file and function);
 * where ibfabric deliberately differs, the comment says so and why:
 *
 * - MADs become real packets (fab_node_send_mad) instead of being
 *   answered by a table lookup; only delivery back to a client follows
 *   ibsim's client-selection rules.
 * - A client whose process died is freed by a 1 s liveness check (ibsim
 *   keeps the slot, and its "SM already exists" claim, until a write to
 *   it happens to fail).
 * - IsSM is cleared when the last issm client of a port leaves by any
 *   path, as closing the kernel's issm device does (Linux user_mad.c); ibsim
 *   clears it only on SET_ISSM(0) and on its dead-client path.
 * - Nobody but a client speaks for its slot: CONNECT's pid must be the
 *   sender's (SO_PASSCRED), and later control messages for a slot are
 *   taken only from the control socket that connected it. A full table
 *   reaps dead clients before refusing.
 * - Nothing waits on a client: a delivery its socket does not take at
 *   once is queued (bounded, UMAD2SIM_QUEUE_MAX) and written when the
 *   socket turns writable; beyond the bound MADs are lost and counted.
 */

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "fab_link.h"
#include "fab_log.h"
#include "fab_node.h"
#include "fab_pkt.h"
#include "fab_route.h"
#include "fabric.h"
#include "fw_agents.h"
#include "ib_proto.h"
#include "mad.h"
#include "port_state.h"
#include "umad2sim.h"

/* Longest base name: "<base>:out63" must fit in sun_path after the NUL. */
#define U2S_BASE_MAX		80
/* Datagrams served per readiness event, so the loop keeps running the fabric. */
#define U2S_BATCH		32

struct umad2sim {
	struct fabric *f;
	char base[U2S_BASE_MAX + 1];
	int ctl_fd;
	unsigned int nclients;
	/* The event loop's writability watch (umad2sim_set_write_hook). */
	void (*want_write)(void *ctx, int fd, unsigned int slot, bool on);
	void *want_write_ctx;
	struct fab_client clients[UMAD2SIM_MAX_CLIENTS];
};

/*
 * Abstract socket address "\0<name>\0" with the trailing NUL counted in
 * the length, as ibsim and umad2sim build it (ibsim.c sim_init_conn(): abstract names
 * compare by length and bytes, so the NUL must be there).
 */
static socklen_t
u2s_make_addr(struct sockaddr_un *sa, const char *fmt, const char *base,
	      unsigned long n)
{
	size_t room = sizeof(sa->sun_path) - 1;
	int len;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	len = snprintf(sa->sun_path + 1, room, fmt, base, n);
	if (len < 0 || (size_t)len >= room)
		return 0;
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len + 1);
}

static int
u2s_bound_socket(const char *fmt, const char *base, unsigned long n)
{
	struct sockaddr_un sa;
	socklen_t len = u2s_make_addr(&sa, fmt, base, n);
	int fd, err;

	if (len == 0)
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, len) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int
umad2sim_open(struct fabric *f, const char *base)
{
	struct umad2sim *u;
	unsigned int i;
	int fd, ret;

	if (base == NULL || base[0] == '\0')
		base = getenv("IBSIM_SOCKNAME");
	if (base == NULL || base[0] == '\0')
		base = U2S_DEFAULT_BASENAME;
	if (strlen(base) > U2S_BASE_MAX)
		return -ENAMETOOLONG;

	u = calloc(1, sizeof(*u));
	if (u == NULL)
		return -ENOMEM;
	u->f = f;
	strcpy(u->base, base);
	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++) {
		u->clients[i].fd = -1;
		u->clients[i].slot = i;
	}

	fd = u2s_bound_socket("%s:ctl", base, 0);
	if (fd < 0) {
		ret = fd;
		goto err_free;
	}
	u->ctl_fd = fd;
	/* Every control datagram then carries its sender's pid (unix(7)). */
	if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &(int){ 1 }, sizeof(int)) < 0) {
		ret = -errno;
		close(fd);
		goto err_free;
	}

	/*
	 * The data sockets are bound up front, as ibsim does: the client
	 * connects to "<base>:out<slot>" right after the CONNECT reply.
	 */
	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++) {
		fd = u2s_bound_socket("%s:out%lu", base, i);
		if (fd < 0) {
			ret = fd;
			goto err_close;
		}
		u->clients[i].fd = fd;
	}
	f->u2s = u;
	f->client_deliver = umad2sim_deliver;
	f->client_drop = umad2sim_report_drop;
	return 0;

err_close:
	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++)
		if (u->clients[i].fd >= 0)
			close(u->clients[i].fd);
	close(u->ctl_fd);
err_free:
	free(u);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Slots                                                               */

static bool
u2s_port_has_issm(const struct fab_port *port)
{
	const struct fab_client *c;

	for (c = port->clients; c != NULL; c = c->next_on_port)
		if (c->issm)
			return true;
	return false;
}

/*
 * Set or clear PortInfo CapabilityMask.IsSM (bit 1, IBA 14.2.5.6 table
 * 152) of @p port, as ibsim's SET_ISSM does (ibsim.c sim_ctl_set_issm()), and let the
 * port model send trap 144 when the mask changed.
 */
static void
u2s_set_issm_bit(struct fabric *f, struct fab_port *port, bool on)
{
	uint32_t old = port->cap_mask;

	if (on)
		port->cap_mask |= PI_CAP_IS_SM;
	else
		port->cap_mask &= ~PI_CAP_IS_SM;
	if (port->cap_mask != old)
		port_state_cap_mask_changed(f, port);
}

static void
u2s_detach(struct umad2sim *u, struct fab_client *c)
{
	struct fab_client **pp;
	struct sockaddr sa = { .sa_family = AF_UNSPEC };
	struct fab_port *port = c->port;
	bool was_issm = c->issm;

	if (!c->attached)
		return;
	for (pp = &port->clients; *pp != NULL; pp = &(*pp)->next_on_port) {
		if (*pp == c) {
			*pp = c->next_on_port;
			break;
		}
	}
	FAB_INFO("umad2sim: client %u (pid %" PRIu32 ") left %s port %u",
		 c->slot, c->pid, port->node->name, port->num);
	c->attached = false;
	c->issm = false;
	c->next_on_port = NULL;
	c->port = NULL;
	c->pid = 0;
	c->ctl_addrlen = 0;
	if (c->q_len != 0 && u->want_write != NULL)
		u->want_write(u->want_write_ctx, c->fd, c->slot, false);
	c->q_len = 0;
	c->q_head = 0;
	free(c->q);
	c->q = NULL;
	u->nclients--;
	/* Forget the peer so stale datagrams from it are refused. */
	(void)connect(c->fd, &sa, sizeof(sa));
	if (was_issm && !u2s_port_has_issm(port))
		u2s_set_issm_bit(u->f, port, false);
}

void
umad2sim_close(struct fabric *f)
{
	struct umad2sim *u = f->u2s;
	unsigned int i;

	if (u == NULL)
		return;
	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++) {
		u2s_detach(u, &u->clients[i]);
		close(u->clients[i].fd);
	}
	close(u->ctl_fd);
	free(u);
	f->u2s = NULL;
	f->client_deliver = NULL;
	f->client_drop = NULL;
}

const char *
umad2sim_basename(const struct fabric *f)
{
	return f->u2s != NULL ? f->u2s->base : NULL;
}

int
umad2sim_ctl_fd(const struct fabric *f)
{
	return f->u2s != NULL ? f->u2s->ctl_fd : -1;
}

int
umad2sim_slot_fd(const struct fabric *f, unsigned int slot)
{
	if (f->u2s == NULL || slot >= UMAD2SIM_MAX_CLIENTS)
		return -1;
	return f->u2s->clients[slot].fd;
}

unsigned int
umad2sim_nclients(const struct fabric *f)
{
	return f->u2s != NULL ? f->u2s->nclients : 0;
}

const struct fab_client *
umad2sim_client(const struct fabric *f, unsigned int slot)
{
	if (f->u2s == NULL || slot >= UMAD2SIM_MAX_CLIENTS ||
	    !f->u2s->clients[slot].attached)
		return NULL;
	return &f->u2s->clients[slot];
}

static bool
u2s_pid_gone(uint32_t pid)
{
	if (pid == 0 || pid > INT32_MAX)
		return true;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

unsigned int
umad2sim_reap(struct fabric *f)
{
	struct umad2sim *u = f->u2s;
	unsigned int i, n = 0;

	if (u == NULL)
		return 0;
	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++) {
		struct fab_client *c = &u->clients[i];

		if (c->attached && u2s_pid_gone(c->pid)) {
			u2s_detach(u, c);
			n++;
		}
	}
	return n;
}

int
umad2sim_kick(struct fabric *f, unsigned int slot)
{
	struct umad2sim *u = f->u2s;

	if (u == NULL || slot >= UMAD2SIM_MAX_CLIENTS || !u->clients[slot].attached)
		return -ENOENT;
	/* ibsim "X": the slot is freed; the process is not told, as with ibsim. */
	u2s_detach(u, &u->clients[slot]);
	return 0;
}

void
umad2sim_show_clients(const struct fabric *f, FILE *out)
{
	unsigned int i;

	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++) {
		const struct fab_client *c = umad2sim_client(f, i);

		if (c == NULL)
			continue;
		fprintf(out, "client slot=%u pid=%" PRIu32 " node=\"%s\" port=%u"
			" lid=%u issm=%d qp=%" PRIu32 " mads_in=%" PRIu64
			" mads_out=%" PRIu64 " mads_lost=%" PRIu64 " queued=%u\n",
			c->slot, c->pid, c->port->node->name, c->port->num,
			c->port->lid, c->issm ? 1 : 0, c->qp, c->mads_in,
			c->mads_out, c->mads_lost, c->q_len);
	}
}

/* ------------------------------------------------------------------ */
/* Control socket                                                      */

/* A client attaches to port 0 of a switch, port 1 of a CA (ibsim.c sim_ctl_new_client()). */
static struct fab_port *
u2s_attach_port(struct fab_node *n)
{
	if (n->type == FAB_NODE_SWITCH)
		return &n->ports[0];
	if (n->nports == 0)
		return NULL;
	return &n->ports[1];
}

static bool
u2s_node_has_issm(const struct umad2sim *u, const struct fab_node *n)
{
	unsigned int i;

	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++) {
		const struct fab_client *c = &u->clients[i];

		if (c->attached && c->issm && c->port->node == n)
			return true;
	}
	return false;
}

static struct fab_client *
u2s_free_slot(struct umad2sim *u)
{
	unsigned int i;

	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++)
		if (!u->clients[i].attached)
			return &u->clients[i];
	return NULL;
}

static int
u2s_ctl_connect(struct umad2sim *u, struct u2s_ctl *ctl, const struct ucred *cred,
		const struct sockaddr_un *from, socklen_t fromlen)
{
	struct u2s_client_info ci;
	struct fabric *f = u->f;
	struct fab_client *c = NULL;
	struct fab_node *n;
	struct fab_port *port;
	struct sockaddr_un sa;
	socklen_t salen;
	char nodeid[U2S_NODEID_LEN];
	unsigned int i;

	memcpy(&ci, ctl->data, sizeof(ci));
	memcpy(nodeid, ci.nodeid, sizeof(nodeid));
	nodeid[sizeof(nodeid) - 1] = '\0';

	/*
	 * The pid names the client's data socket and decides its liveness:
	 * it must be the sender's own, or one process could take over or
	 * evict another's slot.
	 */
	if (cred == NULL || cred->pid <= 0 || (uint32_t)cred->pid != ci.id) {
		FAB_ERR("umad2sim: CONNECT claims pid %" PRIu32 " but was sent by pid %ld:"
			" refused", ci.id, cred != NULL ? (long)cred->pid : -1L);
		u->f->bad_ctl_msgs++;
		return -EPERM;
	}

	/*
	 * A pid can hold one umad2sim connection; a second CONNECT from it
	 * means the first one died without DISCONNECT and the pid was reused.
	 */
	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++)
		if (u->clients[i].attached && u->clients[i].pid == ci.id)
			u2s_detach(u, &u->clients[i]);

	/* Node id, else NodeDescription, else the default port (ibsim.c sim_ctl_new_client()). */
	if (nodeid[0] != '\0') {
		n = fabric_find_node(f, nodeid);
		if (n == NULL)
			n = fabric_find_node_by_desc(f, nodeid);
		if (n == NULL) {
			FAB_ERR("umad2sim: pid %" PRIu32 ": SIM_HOST \"%s\": no such node",
				ci.id, nodeid);
			return -ENOENT;
		}
		port = u2s_attach_port(n);
	} else {
		port = f->sm_port;
	}
	if (port == NULL) {
		FAB_ERR("umad2sim: pid %" PRIu32 ": no port to attach to", ci.id);
		return -ENOENT;
	}
	if (ci.issm != 0 && u2s_node_has_issm(u, port->node)) {
		FAB_ERR("umad2sim: pid %" PRIu32 ": SM already exists on \"%s\"",
			ci.id, port->node->name);
		return -EBUSY;
	}
	c = u2s_free_slot(u);
	/* A full table first frees the slots of clients that are gone. */
	if (c == NULL && umad2sim_reap(f) > 0)
		c = u2s_free_slot(u);
	if (c == NULL) {
		FAB_ERR("umad2sim: pid %" PRIu32 ": all %u client slots in use",
			ci.id, UMAD2SIM_MAX_CLIENTS);
		return -ENOSPC;
	}

	/* The client bound "<base>:in<pid>" before CONNECT (ibsim.c sim_ctl_new_client()). */
	salen = u2s_make_addr(&sa, "%s:in%lu", u->base, ci.id);
	if (salen == 0 || connect(c->fd, (struct sockaddr *)&sa, salen) < 0) {
		FAB_ERR("umad2sim: pid %" PRIu32 ": cannot connect to %s:in%" PRIu32 ": %s",
			ci.id, u->base, ci.id, strerror(errno));
		return -ECONNREFUSED;
	}

	c->attached = true;
	c->gen++;
	c->pid = ci.id;
	c->qp = ci.qp;
	c->issm = ci.issm != 0;
	c->port = port;
	c->mads_in = c->mads_out = c->mads_lost = 0;
	memcpy(&c->ctl_addr, from, fromlen);
	c->ctl_addrlen = fromlen;
	memset(c->classes_sent, 0, sizeof(c->classes_sent));
	c->next_on_port = port->clients;
	port->clients = c;
	u->nclients++;
	if (c->issm)
		u2s_set_issm_bit(f, port, true);

	ci.id = c->slot;
	/* Names longer than nodeid[32] are cut, as ibsim's strncpy does. */
	memset(ci.nodeid, 0, sizeof(ci.nodeid));
	memcpy(ci.nodeid, port->node->name,
	       strnlen(port->node->name, sizeof(ci.nodeid) - 1));
	memcpy(ctl->data, &ci, sizeof(ci));
	FAB_INFO("umad2sim: client %u (pid %" PRIu32 ") attached to %s port %u%s",
		 c->slot, c->pid, port->node->name, port->num,
		 c->issm ? " as SM" : "");
	return 0;
}

/*
 * Ask the node's own SMA for an attribute, exactly as an SMP arriving on
 * @p port would (a LID-routed Get, IBA 14.2.1.1), and copy the 64-byte
 * attribute data out. One encoder of PortInfo and NodeInfo, in sma.c.
 */
static int
u2s_sma_get(struct fabric *f, struct fab_port *port, uint16_t attr,
	    uint32_t mod, uint8_t *data)
{
	uint8_t mad[MAD_SIZE];

	memset(mad, 0, sizeof(mad));
	mad[MAD_BASE_VERSION] = MAD_BASE_VERSION_1;
	mad[MAD_MGMT_CLASS] = MAD_CLASS_SMI;
	mad[MAD_CLASS_VERSION] = MAD_SMP_CLASS_VERSION;
	mad[MAD_METHOD] = MAD_METHOD_GET;
	mad_set16(mad, MAD_ATTR_ID, attr);
	mad_set32(mad, MAD_ATTR_MOD, mod);
	if (sma_process(f, port->node, port, mad) != FAB_MAD_REPLY)
		return -EIO;
	if ((mad_get16(mad, MAD_STATUS) & ~MAD_STATUS_DR_D) != MAD_STATUS_OK)
		return -EIO;
	memcpy(data, mad + MAD_SMP_DATA, MAD_SMP_DATA_SIZE);
	return 0;
}

static int
u2s_ctl_get_portinfo(struct fabric *f, struct fab_client *c, struct u2s_ctl *ctl)
{
	struct fab_node *n = c->port->node;
	unsigned int num = ctl->data[0];
	struct fab_port *p;

	/* 0 or out of range: the client's own port (ibsim sim_ctl_get_portinfo). */
	if (num == 0 || num > n->nports)
		p = c->port;
	else
		p = &n->ports[num];
	return u2s_sma_get(f, p, SMP_ATTR_PORT_INFO, p->num, ctl->data);
}

static void
u2s_ctl_get_pkeys(const struct fab_client *c, struct u2s_ctl *ctl)
{
	unsigned int i, n = U2S_CTL_DATA_MAX / 2;

	/* PartitionCap P_Keys, at most what fits, big-endian (ibsim.c sim_ctl()). */
	if (n > FAB_PKEY_TABLE_SIZE)
		n = FAB_PKEY_TABLE_SIZE;
	memset(ctl->data, 0, sizeof(ctl->data));
	for (i = 0; i < n; i++)
		mad_set16(ctl->data, 2 * i, c->port->pkeys[i]);
}

static void
u2s_ctl_get_gid(const struct fab_client *c, struct u2s_ctl *ctl)
{
	uint64_t guid = c->port->node->node_guid;

	/*
	 * ibsim quirk kept (ibsim.c sim_ctl()): the prefix in wire order, then the
	 * *node* GUID in host memory order.
	 */
	memset(ctl->data, 0, sizeof(ctl->data));
	mad_set64(ctl->data, 0, c->port->gid_prefix);
	memcpy(ctl->data + 8, &guid, sizeof(guid));
}

static int
u2s_ctl_dispatch(struct umad2sim *u, struct u2s_ctl *ctl, const struct ucred *cred,
		 const struct sockaddr_un *from, socklen_t fromlen)
{
	struct fabric *f = u->f;
	struct fab_client *c;
	struct u2s_port sp;
	struct u2s_vendor v;
	uint64_t guid;
	int32_t issm;

	if (ctl->type == U2S_CTL_CONNECT)
		return u2s_ctl_connect(u, ctl, cred, from, fromlen);
	if (ctl->clientid >= UMAD2SIM_MAX_CLIENTS)
		return -EINVAL;
	c = &u->clients[ctl->clientid];
	if (!c->attached)
		/* ibsim answers DISCONNECT of a free slot with success. */
		return ctl->type == U2S_CTL_DISCONNECT ? 0 : -ENOTCONN;
	/* Only the socket that connected the slot speaks for it. */
	if (fromlen != c->ctl_addrlen || memcmp(from, &c->ctl_addr, fromlen) != 0) {
		FAB_ERR("umad2sim: control message type %" PRIu32 " for slot %u (pid %"
			PRIu32 ") from pid %ld, not from its client: refused", ctl->type,
			c->slot, c->pid, cred != NULL ? (long)cred->pid : -1L);
		f->bad_ctl_msgs++;
		return -EPERM;
	}

	switch (ctl->type) {
	case U2S_CTL_DISCONNECT:
		u2s_detach(u, c);
		return 0;
	case U2S_CTL_GET_PORT:
		memset(&sp, 0, sizeof(sp));
		sp.lid = c->port->lid;
		sp.state = c->port->state;
		memcpy(ctl->data, &sp, sizeof(sp));
		return 0;
	case U2S_CTL_GET_VENDOR:
		memset(&v, 0, sizeof(v));
		v.vendor_id = c->port->node->vendor_id;
		v.vendor_part_id = c->port->node->device_id;
		v.hw_ver = c->port->node->revision;
		v.fw_ver = 1;
		memcpy(ctl->data, &v, sizeof(v));
		return 0;
	case U2S_CTL_GET_GID:
		u2s_ctl_get_gid(c, ctl);
		return 0;
	case U2S_CTL_GET_GUID:
		guid = c->port->node->node_guid;
		memcpy(ctl->data, &guid, sizeof(guid));
		return 0;
	case U2S_CTL_GET_NODEINFO:
		return u2s_sma_get(f, c->port, SMP_ATTR_NODE_INFO, 0, ctl->data);
	case U2S_CTL_GET_PORTINFO:
		return u2s_ctl_get_portinfo(f, c, ctl);
	case U2S_CTL_SET_ISSM:
		/* No uniqueness check here, as in ibsim (ibsim.c sim_ctl_set_issm()). */
		memcpy(&issm, ctl->data, sizeof(issm));
		c->issm = issm != 0;
		if (c->issm)
			u2s_set_issm_bit(f, c->port, true);
		else if (!u2s_port_has_issm(c->port))
			u2s_set_issm_bit(f, c->port, false);
		return 0;
	case U2S_CTL_GET_PKEYS:
		u2s_ctl_get_pkeys(c, ctl);
		return 0;
	default:
		/* Unknown types are echoed unchanged, not as ERROR (ibsim.c sim_ctl()). */
		f->bad_ctl_msgs++;
		return 0;
	}
}

/* Close descriptors a sender passed (SCM_RIGHTS): nobody asked for them. */
static void
u2s_close_passed_fds(struct msghdr *mh)
{
	struct cmsghdr *cm;
	size_t i, nfd;
	int fd;

	for (cm = CMSG_FIRSTHDR(mh); cm != NULL; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		nfd = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < nfd; i++) {
			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(fd));
			close(fd);
		}
	}
}

/* The sender's credentials the kernel attached (SO_PASSCRED), or NULL. */
static const struct ucred *
u2s_msg_cred(struct msghdr *mh)
{
	struct cmsghdr *cm;

	for (cm = CMSG_FIRSTHDR(mh); cm != NULL; cm = CMSG_NXTHDR(mh, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_CREDENTIALS &&
		    cm->cmsg_len >= CMSG_LEN(sizeof(struct ucred)))
			return (const struct ucred *)CMSG_DATA(cm);
	return NULL;
}

void
umad2sim_ctl_ready(struct fabric *f)
{
	struct umad2sim *u = f->u2s;
	/* One byte more than a sim_ctl, to see oversized datagrams. */
	uint8_t buf[sizeof(struct u2s_ctl) + 1];
	union {
		struct cmsghdr align;
		uint8_t b[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(16 * sizeof(int))];
	} cbuf;
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct sockaddr_un from;
	struct ucred cred_copy;
	const struct ucred *cred;
	struct u2s_ctl ctl;
	struct msghdr mh;
	unsigned int i;
	ssize_t n;

	for (i = 0; i < U2S_BATCH; i++) {
		memset(&mh, 0, sizeof(mh));
		memset(&from, 0, sizeof(from));
		mh.msg_name = &from;
		mh.msg_namelen = sizeof(from);
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = cbuf.b;
		mh.msg_controllen = sizeof(cbuf.b);
		n = recvmsg(u->ctl_fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (n < 0)
			return;
		cred = u2s_msg_cred(&mh);
		if (cred != NULL) {
			memcpy(&cred_copy, cred, sizeof(cred_copy));
			cred = &cred_copy;
		}
		/* Descriptors nobody asked for are closed, not leaked. */
		u2s_close_passed_fds(&mh);
		memcpy(&ctl, buf, sizeof(ctl));
		/* Wrong size or magic: dropped unanswered, as ibsim.c sim_ctl() does. */
		if (n != (ssize_t)sizeof(ctl) || ctl.magic != U2S_MAGIC) {
			f->bad_ctl_msgs++;
			continue;
		}
		if (u2s_ctl_dispatch(u, &ctl, cred, &from, mh.msg_namelen) < 0)
			ctl.type = U2S_CTL_ERROR;
		/* An unbound sender cannot be answered; nothing to do then. */
		(void)sendto(u->ctl_fd, &ctl, sizeof(ctl), MSG_DONTWAIT | MSG_NOSIGNAL,
			     (struct sockaddr *)&from, mh.msg_namelen);
	}
}

/* ------------------------------------------------------------------ */
/* Data path                                                           */

/*
 * One non-blocking write of @p r to @p c: 1 written, 0 no room (the
 * client's receive queue is full: its socket is connected to ours, so
 * the bound is our send buffer), -1 the client is gone (a refused write,
 * which frees its slot, ibsim.c sim_read_pkt()).
 */
static int
u2s_write(struct umad2sim *u, struct fab_client *c, const struct u2s_request *r)
{
	ssize_t n;

	do {
		n = send(c->fd, r, sizeof(*r), MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(*r)) {
		c->mads_out++;
		return 1;
	}
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS))
		return 0;
	c->mads_lost++;
	u2s_detach(u, c);
	return -1;
}

/*
 * Hand one sim_request to @p c without ever waiting for it: written now,
 * or queued behind the MADs already waiting (in order) until its socket
 * turns writable, or lost and counted when the queue is full (a real
 * HCA drops MADs without a receive buffer), so a client that reads
 * slowly, never reads or is stopped cannot delay anyone else.
 */
static int
u2s_send(struct umad2sim *u, struct fab_client *c, const struct u2s_request *r)
{
	int ret;

	if (c->q_len == 0) {
		ret = u2s_write(u, c, r);
		if (ret != 0)
			return ret > 0 ? 0 : -EIO;
	}
	if (c->q_len == UMAD2SIM_QUEUE_MAX) {
		c->mads_lost++;
		return -EIO;
	}
	if (c->q == NULL) {
		c->q = malloc(UMAD2SIM_QUEUE_MAX * sizeof(*c->q));
		if (c->q == NULL) {
			c->mads_lost++;
			return -EIO;
		}
	}
	memcpy(&c->q[(c->q_head + c->q_len) % UMAD2SIM_QUEUE_MAX], r, sizeof(*r));
	if (c->q_len++ == 0 && u->want_write != NULL)
		u->want_write(u->want_write_ctx, c->fd, c->slot, true);
	return 0;
}

void
umad2sim_slot_writable(struct fabric *f, unsigned int slot)
{
	struct umad2sim *u = f->u2s;
	struct fab_client *c;
	int ret;

	if (u == NULL || slot >= UMAD2SIM_MAX_CLIENTS)
		return;
	c = &u->clients[slot];
	while (c->attached && c->q_len != 0) {
		ret = u2s_write(u, c, &c->q[c->q_head]);
		if (ret <= 0)
			return;		/* still full, or the client is gone */
		c->q_head = (c->q_head + 1) % UMAD2SIM_QUEUE_MAX;
		if (--c->q_len == 0 && u->want_write != NULL)
			u->want_write(u->want_write_ctx, c->fd, c->slot, false);
	}
}

void
umad2sim_set_write_hook(struct fabric *f,
			void (*fn)(void *ctx, int fd, unsigned int slot, bool on), void *ctx)
{
	if (f->u2s == NULL)
		return;
	f->u2s->want_write = fn;
	f->u2s->want_write_ctx = ctx;
}

static void
u2s_handle_request(struct umad2sim *u, struct fab_client *c, struct u2s_request *r)
{
	struct fabric *f = u->f;
	struct fab_mad_addr a;
	uint64_t len = be64toh(r->length);
	uint64_t tid;

	/*
	 * umad2sim never writes more than 256 MAD bytes (ibsim.h struct sim_request); a
	 * MAD shorter than its common header is not a MAD.
	 */
	if (len > IB_MAD_SIZE || len < MAD_HDR_SIZE ||
	    r->mad[MAD_BASE_VERSION] != MAD_BASE_VERSION_1) {
		f->bad_mads++;
		return;
	}
	/*
	 * The MAD on the wire is always 256 bytes (IBA 13.4.1); umad2sim
	 * leaves stack garbage after "length" (ibsim.h struct sim_request), so zero it as the
	 * kernel pads short MADs (Linux user_mad.c). "length" itself rides along
	 * in the packet's side-band mad_len for the receiving client.
	 */
	memset(r->mad + len, 0, IB_MAD_SIZE - len);

	/* Requests get the client slot in TID bits 63..48 (ibsim.c find_client()). */
	if (!mad_is_response(r->mad)) {
		tid = mad_tid(r->mad);
		tid = (tid & 0x0000ffffffffffffull) | ((uint64_t)c->slot << 48);
		mad_set64(r->mad, MAD_TID, tid);
	}

	memset(&a, 0, sizeof(a));
	a.dlid = u2s_lid_get(r->dlid);
	a.slid = u2s_lid_get(r->slid);
	a.dqp = ntohl(r->dqp);
	a.sqp = ntohl(r->sqp);
	a.qkey = a.dqp != 0 ? IB_QP1_QKEY : 0;
	c->mads_in++;
	c->classes_sent[r->mad[MAD_MGMT_CLASS] >> 5] |= 1u << (r->mad[MAD_MGMT_CLASS] & 31);
	fab_node_send_mad(f, c->port, &a, r->mad, (uint32_t)len,
			  (int)c->slot, c->gen);
}

void
umad2sim_data_ready(struct fabric *f, unsigned int slot)
{
	/*
	 * Room for one byte more than a sim_request, to see oversized
	 * datagrams; rows padded to 8 bytes so that every row is a properly
	 * aligned struct u2s_request (288 + 1 would misalign rows 1..).
	 */
	static uint8_t bufs[U2S_BATCH][sizeof(struct u2s_request) + 8]
		__attribute__((aligned(8)));
	struct mmsghdr msgs[U2S_BATCH];
	struct iovec iov[U2S_BATCH];
	struct umad2sim *u = f->u2s;
	struct fab_client *c;
	int i, n;

	if (u == NULL || slot >= UMAD2SIM_MAX_CLIENTS)
		return;
	c = &u->clients[slot];
	/* All pending MADs in one system call: a sweep is thousands of them. */
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < U2S_BATCH; i++) {
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = sizeof(struct u2s_request) + 1;
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	do {
		n = recvmmsg(c->fd, msgs, U2S_BATCH, MSG_DONTWAIT, NULL);
	} while (n < 0 && errno == EINTR);
	for (i = 0; i < n; i++) {
		/* Exactly one struct sim_request per datagram (ibsim.h); else drop and count. */
		if (msgs[i].msg_len != sizeof(struct u2s_request) ||
		    (msgs[i].msg_hdr.msg_flags & MSG_TRUNC) || !c->attached) {
			f->bad_mads++;
			continue;
		}
		u2s_handle_request(u, c, (struct u2s_request *)bufs[i]);
	}
}

static bool
u2s_has_sent(const struct fab_client *c, uint8_t mgmt_class)
{
	return (c->classes_sent[mgmt_class >> 5] & (1u << (mgmt_class & 31))) != 0;
}

/* An SM sends SMPs of either form; OpenSM's sweep is all directed route. */
static bool
u2s_is_sm(const struct fab_client *c)
{
	return u2s_has_sent(c, MAD_CLASS_SMI) || u2s_has_sent(c, MAD_CLASS_SMI_DR);
}

/*
 * Which client gets a MAD that reached @p port (ibsim.c find_client()):
 * responses go to the slot in TID bits 63..48 if it is attached here;
 * requests to another QP than 0/1 to the client that registered that QP;
 * requests to QP0/QP1 only to an issm client: the first (lowest slot), as
 * ibsim does, unless another issm client has itself sent MADs of that
 * class, which makes it the better guess for the agent.
 *
 * Beyond ibsim: SMP requests (SMInfo, traps) go only to an issm client
 * that has sent SMPs, i.e. an SM. libumad2sim crashes on a MAD of a class
 * it has no agent for (seen with ibsim 0.10's libumad2sim), and an "ibping -S" server, which
 * must be issm to get its pings, would otherwise be sent OpenSM's SMInfo
 * polls. Likewise every other class goes only to a client known to have
 * an agent for it: one that has sent MADs of that class, an SM for SubnAdm
 * (the SA lives with the SM, IBA 15.1), or an issm client that is not an
 * SM (an "ibping -S" server: the only reason to be issm without sending
 * SMPs). An SM is never handed a class it has not used: "ibping <SM LID>"
 * used to reach OpenSM's libumad2sim with a vendor MAD and kill it.
 * Without a taker the request is dropped and its sender told at once
 * (status 110), where a kernel would answer "unsupported" (Linux user_mad.c).
 */
static struct fab_client *
u2s_find_client(struct umad2sim *u, struct fab_port *port, const uint8_t *mad,
		uint32_t dqp)
{
	bool response = mad_is_response(mad) != 0;
	uint8_t mclass = mad[MAD_MGMT_CLASS];
	bool smp = mclass == MAD_CLASS_SMI || mclass == MAD_CLASS_SMI_DR;
	unsigned int slot = (unsigned int)(mad_tid(mad) >> 48);
	struct fab_client *c, *first = NULL;

	if (response) {
		if (slot < UMAD2SIM_MAX_CLIENTS && u->clients[slot].attached &&
		    u->clients[slot].port == port)
			return &u->clients[slot];
		return NULL;
	}
	for (c = port->clients; c != NULL; c = c->next_on_port) {
		if (dqp > 1) {
			if (c->qp == dqp)
				return c;
			continue;
		}
		if (!c->issm || (smp && !u2s_is_sm(c)))
			continue;
		if (u2s_has_sent(c, mclass))
			return c;
		if (!smp && u2s_is_sm(c) && mclass != MAD_CLASS_SA)
			continue;
		if (first == NULL || c->slot < first->slot)
			first = c;
	}
	return first;
}

static void
u2s_fill_request(struct u2s_request *r, const struct fab_hdrs *h,
		 const struct fab_pkt *p, uint32_t status)
{
	uint32_t len = h->payload_len;

	memset(r, 0, sizeof(*r));
	r->dlid = u2s_lid_set(h->dlid);
	r->slid = u2s_lid_set(h->slid);
	r->dqp = htonl(h->dest_qp);
	r->sqp = htonl(h->src_qp);
	r->status = htonl(status);
	if (len > IB_MAD_SIZE)
		len = IB_MAD_SIZE;
	memcpy(r->mad, p->data + h->payload_off, len);
	/* ibsim keeps the sender's "length" (ibsim.h struct sim_request); firmware MADs are 256. */
	r->length = htobe64(p->mad_len != 0 && p->mad_len <= IB_MAD_SIZE ?
			    p->mad_len : IB_MAD_SIZE);
}

int
umad2sim_deliver(struct fabric *f, struct fab_port *port,
		 const struct fab_hdrs *h, struct fab_pkt *p)
{
	struct umad2sim *u = f->u2s;
	const uint8_t *mad;
	struct fab_client *c;
	struct u2s_request r;

	if (u == NULL || port->clients == NULL || h->payload_len < MAD_HDR_SIZE ||
	    h->payload_off + h->payload_len > p->len)
		return -ENOENT;
	mad = p->data + h->payload_off;
	c = u2s_find_client(u, port, mad, h->dest_qp);
	if (c == NULL)
		return -ENOENT;
	u2s_fill_request(&r, h, p, 0);
	if (u2s_send(u, c, &r) < 0)
		return -ENOENT;
	fab_pkt_free(f, p);
	return 0;
}

void
umad2sim_report_drop(struct fabric *f, const struct fab_pkt *p)
{
	struct umad2sim *u = f->u2s;
	struct fab_client *c;
	struct fab_hdrs h;
	struct u2s_request r;
	int ret;

	if (u == NULL || p->origin < 0 || p->origin >= UMAD2SIM_MAX_CLIENTS)
		return;
	c = &u->clients[p->origin];
	/* The slot changed hands since the MAD was sent: nobody to tell. */
	if (!c->attached || c->gen != p->origin_gen)
		return;
	ret = pkt_parse(p, &h);
	if (ret == -EILSEQ) {
		/*
		 * Bad CRCs: a corrupted packet, or a DR SMP its last node
		 * already updated for local delivery. The headers are still
		 * where they were; re-seal a copy to read them.
		 */
		static struct fab_pkt copy;

		memcpy(&copy, p, offsetof(struct fab_pkt, data) + p->len);
		pkt_update_crcs(&copy);
		ret = pkt_parse(&copy, &h);
		p = &copy;
	}
	if (ret != 0 || h.payload_len < MAD_HDR_SIZE ||
	    h.payload_off + h.payload_len > p->len)
		return;
	/* The original request, dlid/slid not swapped, status 110 (ibsim.c find_client()). */
	u2s_fill_request(&r, &h, p, U2S_STATUS_TIMEOUT);
	(void)u2s_send(u, c, &r);
}
