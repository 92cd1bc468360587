/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: arbitrary datagrams into umad2sim.c's sockets, as a
 * crashing or hostile libumad2sim client would send them (issue 3: bad
 * control messages and MADs are dropped and counted, never fatal).
 *
 * The input is a list of records {kind, len, bytes[len]}. Five clients
 * speak ((kind >> 3) % 5): clients 0 and 1 are two control sockets of
 * this process (one pid: one slot at a time, as the server allows);
 * clients 2..4 are child processes of their own (own pids, own sockets,
 * commanded over a socketpair, each command finished before the server
 * runs), so several slots live at once:
 *   kind % 8 == 0: a raw control datagram;
 *   kind % 8 == 1: a control datagram with the right magic and size,
 *                  the bytes laid over clientid/type/len/data;
 *   kind % 8 == 2: a CONNECT to the node named by the bytes, claiming this
 *                  process's pid (SO_PASSCRED agrees) or, when bytes[0]
 *                  bit 1 is set, another pid (a lying client);
 *   kind % 8 == 3: a data datagram to out<bytes[0]>, the rest as payload
 *                  (exactly 288 bytes when len says so);
 *   kind % 8 == 4: a DISCONNECT, or the control type in bytes[1], for the
 *                  slot bytes[0] names: from the other client, the slot's
 *                  owner must keep it (only the connecting socket speaks
 *                  for a slot);
 *   kind % 8 == 5: the data socket stops (or resumes) reading: a slow
 *                  reader, whose MADs the server must queue, bound and
 *                  drop, never waiting for it;
 *   kind % 8 == 6: the event loop's other calls: slot bytes[0] writable,
 *                  the liveness reap; from a child: it dies (no
 *                  DISCONNECT) and another process takes its place;
 *   kind % 8 == 7: the fabric's budget per record (bytes[0] packets; 0:
 *                  run until quiet): deliveries interleave with the
 *                  clients' next messages.
 * After each record the server's handlers and the fabric run; the client
 * that spoke reads its replies (CONNECT replies name the slot it owns) and
 * its MADs unless its reader is stopped; the other children read nothing
 * until they speak again. A server that blocked on a client would hang
 * the target (a libFuzzer timeout). Each input starts from a fresh fabric
 * and server; the child processes live on.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fab_link.h"
#include "fab_log.h"
#include "fabric.h"
#include "topo.h"
#include "umad2sim.h"

#define NLOCAL		2	/* clients 0, 1: this process */
#define NCLIENTS	5	/* clients 2..4: child processes */
#define DEAD_OWNER	100	/* owner[] of a slot whose process died */

static const char net[] =
	"Switch 4 \"S1\"\n[1] \"H1\"[1]\n[2] \"H2\"[1]\n\n"
	"Hca 1 \"H1\"\n[1] \"S1\"[1]\n\n"
	"Hca 1 \"H2\"\n[1] \"S1\"[2]\n";

/* Abstract "\0<base>:<what>[<n>]\0", the trailing NUL counted (n < 0: none). */
static socklen_t
addr(struct sockaddr_un *sa, const char *base, const char *what, long n)
{
	int len;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (n < 0)
		len = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "%s:%s", base, what);
	else
		len = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "%s:%s%ld", base,
			       what, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len + 1);
}

static void
drain(int fd)
{
	uint8_t buf[512];

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

/* One client's sockets: control, data in ("in<pid>"), data out. */
struct fz_sockets {
	int ctl, in, out;
};

/*
 * Send what record {kind, p[len]} says (kinds 0..4) from client @p c of
 * pid @p id. Returns the slot a control message names (kind 4), or -1.
 */
static int
act(const struct fz_sockets *c, const char *base, long id, unsigned int kind,
    const uint8_t *p, size_t len)
{
	uint8_t buf[sizeof(struct u2s_request) + 8];
	struct u2s_client_info ci;
	struct sockaddr_un sa;
	struct u2s_ctl ctl;

	memset(&ctl, 0, sizeof(ctl));
	ctl.magic = U2S_MAGIC;
	switch (kind) {
	case 0:
		(void)sendto(c->ctl, p, len, MSG_DONTWAIT, (struct sockaddr *)&sa,
			     addr(&sa, base, "ctl", -1));
		return -1;
	case 1:
	case 2:
		memcpy((uint8_t *)&ctl + 4, p, len < sizeof(ctl) - 4 ? len : sizeof(ctl) - 4);
		ctl.magic = U2S_MAGIC;
		if (kind == 2) {
			memset(&ci, 0, sizeof(ci));
			/* bit 1: claim a pid that is not the sender's */
			ci.id = len > 0 && (p[0] & 2) ? (uint32_t)id + 1 : (uint32_t)id;
			ci.issm = len > 0 ? p[0] & 1 : 0;
			memcpy(ci.nodeid, p + (len > 0), len > 1 ? (len - 1 < 31 ? len - 1 : 31) : 0);
			ctl.clientid = 0;
			ctl.type = U2S_CTL_CONNECT;
			ctl.len = sizeof(ci);
			memcpy(ctl.data, &ci, sizeof(ci));
		}
		break;
	case 3:
		if (len == 0)
			return -1;
		memset(buf, 0, sizeof(buf));
		(void)connect(c->out, (struct sockaddr *)&sa,
			      addr(&sa, base, "out", p[0] % UMAD2SIM_MAX_CLIENTS));
		memcpy(buf, p + 1, len - 1);
		(void)send(c->out, buf, len == 255 ? sizeof(struct u2s_request) : len - 1,
			   MSG_DONTWAIT);
		return -1;
	default:
		/* A control message for the slot bytes[0] names. */
		ctl.clientid = len > 0 ? p[0] % UMAD2SIM_MAX_CLIENTS : 0;
		ctl.type = len > 1 && p[1] % 11 != U2S_CTL_CONNECT ? p[1] % 11 :
			   U2S_CTL_DISCONNECT;
		break;
	}
	(void)sendto(c->ctl, &ctl, sizeof(ctl), MSG_DONTWAIT, (struct sockaddr *)&sa,
		     addr(&sa, base, "ctl", -1));
	return kind == 4 ? (int)ctl.clientid : -1;
}

/* Read control replies: the slot of the last successful CONNECT, or -1. */
static int
read_replies(int fd)
{
	struct u2s_client_info ci;
	struct u2s_ctl r;
	int slot = -1;

	while (recv(fd, &r, sizeof(r), MSG_DONTWAIT) == (ssize_t)sizeof(r)) {
		if (r.magic != U2S_MAGIC || r.type != U2S_CTL_CONNECT)
			continue;
		memcpy(&ci, r.data, sizeof(ci));
		if (ci.id < UMAD2SIM_MAX_CLIENTS)
			slot = (int)ci.id;
	}
	return slot;
}

/* ---- child clients --------------------------------------------------------- */

enum { CMD_ACT, CMD_SETTLE };

struct fz_cmd {
	uint8_t op, kind, reading, len;
	uint8_t bytes[255];
};

struct fz_child {
	pid_t pid;
	int cmd;			/* socketpair to it, -1: none */
	bool reading;
};

static struct fz_child children[NCLIENTS - NLOCAL];
static char base[32];

/* A child client: runs commands until the parent goes (EOF). */
static void __attribute__((noreturn))
child_main(int cmd)
{
	struct fz_sockets c;
	struct sockaddr_un sa;
	struct fz_cmd m;
	long id = (long)getpid();
	int ack, fd;

	/* Not the server's sockets: their names must go when the server closes them. */
	for (fd = 3; fd < 4096; fd++)
		if (fd != cmd)
			close(fd);
	c.ctl = socket(AF_UNIX, SOCK_DGRAM, 0);
	c.in = socket(AF_UNIX, SOCK_DGRAM, 0);
	c.out = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (c.ctl < 0 || c.in < 0 || c.out < 0 ||
	    setsockopt(c.in, SOL_SOCKET, SO_RCVBUF, &(int){ 4096 }, sizeof(int)) < 0 ||
	    bind(c.ctl, (struct sockaddr *)&sa, addr(&sa, base, "ctl", id)) < 0 ||
	    bind(c.in, (struct sockaddr *)&sa, addr(&sa, base, "in", id)) < 0)
		_exit(1);
	while (read(cmd, &m, sizeof(m)) == (ssize_t)sizeof(m)) {
		if (m.op == CMD_ACT) {
			ack = act(&c, base, id, m.kind, m.bytes, m.len);
		} else {
			ack = read_replies(c.ctl);
			if (m.reading)
				drain(c.in);
		}
		if (write(cmd, &ack, sizeof(ack)) != (ssize_t)sizeof(ack))
			break;
	}
	_exit(0);
}

static int
child_spawn(struct fz_child *ch)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
		return -1;
	ch->pid = fork();
	if (ch->pid == 0) {
		close(sv[0]);
		child_main(sv[1]);
	}
	close(sv[1]);
	if (ch->pid < 0) {
		close(sv[0]);
		return -1;
	}
	ch->cmd = sv[0];
	ch->reading = true;
	return 0;
}

static void
child_reap(struct fz_child *ch)
{
	if (ch->cmd >= 0)
		close(ch->cmd);
	if (ch->pid > 0)
		(void)waitpid(ch->pid, NULL, 0);
	ch->cmd = -1;
	ch->pid = 0;
}

static void
children_end(void)
{
	unsigned int i;

	for (i = 0; i < NCLIENTS - NLOCAL; i++)
		child_reap(&children[i]);
}

/* Run one command in child @p ch and wait for it: its ack. */
static int
child_cmd(struct fz_child *ch, uint8_t op, unsigned int kind, const uint8_t *p, size_t len)
{
	struct fz_cmd m;
	int ack = -1;

	memset(&m, 0, sizeof(m));
	m.op = op;
	m.kind = (uint8_t)kind;
	m.reading = ch->reading;
	m.len = (uint8_t)len;
	if (len > 0)
		memcpy(m.bytes, p, len);
	if (write(ch->cmd, &m, sizeof(m)) != (ssize_t)sizeof(m) ||
	    read(ch->cmd, &ack, sizeof(ack)) != (ssize_t)sizeof(ack))
		abort();	/* a child client is gone: the harness broke */
	return ack;
}

static int
children_start(void)
{
	unsigned int i;

	if (children[0].pid > 0)
		return 0;
	snprintf(base, sizeof(base), "fzu2s%d", (int)getpid());
	for (i = 0; i < NCLIENTS - NLOCAL; i++)
		if (child_spawn(&children[i]) != 0)
			return -1;
	atexit(children_end);
	return 0;
}

/* ---- the server's invariants ------------------------------------------------- */

/* What no client may ever see, whatever it sends. */
static void
check_server(const struct fabric *f, const int *owner)
{
	const struct fab_client *c;
	unsigned int i, n = 0;

	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++) {
		c = umad2sim_client(f, i);
		if (c == NULL)
			continue;
		n++;
		if (c->q_len > UMAD2SIM_QUEUE_MAX || owner[i] < 0)
			abort();	/* unbounded queue; a slot nobody connected */
	}
	if (n != umad2sim_nclients(f))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const long id = (long)getpid();
	struct fz_sockets local[NLOCAL] = { { -1, -1, -1 }, { -1, -1, -1 } };
	int owner[UMAD2SIM_MAX_CLIENTS];
	struct sockaddr_un sa;
	struct fabric *f;
	char err[256];
	unsigned int budget = 10000, i;
	bool reading = true;
	size_t off = 0;

	fab_log_level = -1;	/* attach/detach lines for every input: too many */
	if (children_start() != 0)
		return 0;
	f = fabric_new();
	if (f == NULL)
		return 0;
	if (topo_parse_buf(f, "fuzz.net", net, sizeof(net) - 1, err, sizeof(err)) < 0 ||
	    umad2sim_open(f, base) < 0)
		goto out;
	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++)
		owner[i] = -1;
	/* Replies never outlive a record (the child that spoke read them). */
	for (i = 0; i < NCLIENTS - NLOCAL; i++)
		children[i].reading = true;
	for (i = 0; i < NLOCAL; i++) {
		local[i].ctl = socket(AF_UNIX, SOCK_DGRAM, 0);
		local[i].out = socket(AF_UNIX, SOCK_DGRAM, 0);
		if (local[i].ctl < 0 || local[i].out < 0 ||
		    bind(local[i].ctl, (struct sockaddr *)&sa,
			 addr(&sa, base, i == 0 ? "ctl" : "ctlb", id)) < 0)
			goto out;
	}
	/* One pid, one data socket; a small buffer: a reader that stops fills it. */
	local[0].in = socket(AF_UNIX, SOCK_DGRAM, 0);
	local[1].in = local[0].in;
	if (local[0].in < 0 ||
	    setsockopt(local[0].in, SOL_SOCKET, SO_RCVBUF, &(int){ 4096 }, sizeof(int)) < 0 ||
	    bind(local[0].in, (struct sockaddr *)&sa, addr(&sa, base, "in", id)) < 0)
		goto out;

	while (off + 2 <= size) {
		unsigned int kind = data[off] % 8, who = (data[off] >> 3) % NCLIENTS;
		struct fz_child *ch = who >= NLOCAL ? &children[who - NLOCAL] : NULL;
		size_t len = data[off + 1];
		const uint8_t *p = data + off + 2;
		int slot, victim = -1;

		if (len > size - off - 2)
			len = size - off - 2;
		off += 2 + len;
		if (kind <= 4) {
			/* Only the socket that connected a slot speaks for it. */
			slot = kind == 4 ? (len > 0 ? p[0] % UMAD2SIM_MAX_CLIENTS : 0) : -1;
			if (slot >= 0 && umad2sim_client(f, (unsigned int)slot) != NULL &&
			    owner[slot] != (int)who)
				victim = slot;
			if (ch != NULL)
				(void)child_cmd(ch, CMD_ACT, kind, p, len);
			else
				(void)act(&local[who], base, id, kind, p, len);
			if (kind == 3 && len > 0)
				umad2sim_data_ready(f, p[0] % UMAD2SIM_MAX_CLIENTS);
		} else if (kind == 5) {
			if (ch != NULL)
				ch->reading = !ch->reading;
			else
				reading = !reading;
		} else if (kind == 6 && ch != NULL) {
			/* The process dies without DISCONNECT; another takes its place. */
			child_reap(ch);
			for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++)
				if (owner[i] == (int)who)
					owner[i] = DEAD_OWNER;
			if (child_spawn(ch) != 0)
				abort();
			(void)child_cmd(ch, CMD_SETTLE, 0, NULL, 0);
		} else if (kind == 6) {
			if (len > 0)
				umad2sim_slot_writable(f, p[0] % UMAD2SIM_MAX_CLIENTS);
			else
				(void)umad2sim_reap(f);
		} else {
			budget = len > 0 && p[0] != 0 ? p[0] : 10000;
		}
		umad2sim_ctl_ready(f);
		if (victim >= 0 && umad2sim_client(f, (unsigned int)victim) == NULL)
			abort();
		fabric_run(f, budget);
		for (i = 0; i < NLOCAL; i++)
			if ((slot = read_replies(local[i].ctl)) >= 0)
				owner[slot] = (int)i;
		/* The child that spoke reads its replies (the others' wait: slow readers). */
		if (ch != NULL && kind <= 4 &&
		    (slot = child_cmd(ch, CMD_SETTLE, 0, NULL, 0)) >= 0)
			owner[slot] = (int)who;
		for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++)
			if (umad2sim_client(f, i) == NULL)
				owner[i] = -1;
		if (reading)
			drain(local[0].in);
		check_server(f, owner);
	}
out:
	for (i = 0; i < NLOCAL; i++) {
		if (local[i].ctl >= 0)
			close(local[i].ctl);
		if (local[i].out >= 0)
			close(local[i].out);
	}
	if (local[0].in >= 0)
		close(local[0].in);
	umad2sim_close(f);
	fabric_free(f);
	return 0;
}
