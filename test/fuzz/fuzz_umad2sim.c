/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: arbitrary datagrams into umad2sim.c's sockets, as a
 * crashing or hostile libumad2sim client would send them (issue 3: bad
 * control messages and MADs are dropped and counted, never fatal).
 *
 * The input is a list of records {kind, len, bytes[len]}. Two control
 * sockets of this process (client 0 and client 1, kind bit 3) speak:
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
 *                  the liveness reap;
 *   kind % 8 == 7: the fabric's budget per record (bytes[0] packets; 0:
 *                  run until quiet): deliveries interleave with the
 *                  clients' next messages.
 * After each record the server's handlers and the fabric run; replies are
 * read (CONNECT replies name the slot a client owns) unless the reader is
 * stopped. A server that blocked on a client would hang the target (a
 * libFuzzer timeout). Each input starts from a fresh fabric and server.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fab_link.h"
#include "fab_log.h"
#include "fabric.h"
#include "topo.h"
#include "umad2sim.h"

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

/* Read control replies; a successful CONNECT reply makes @p who the slot's owner. */
static void
read_replies(int fd, int who, int *owner)
{
	struct u2s_client_info ci;
	struct u2s_ctl r;

	while (recv(fd, &r, sizeof(r), MSG_DONTWAIT) == (ssize_t)sizeof(r)) {
		if (r.magic != U2S_MAGIC || r.type != U2S_CTL_CONNECT)
			continue;
		memcpy(&ci, r.data, sizeof(ci));
		if (ci.id < UMAD2SIM_MAX_CLIENTS)
			owner[ci.id] = who;
	}
}

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
	int owner[UMAD2SIM_MAX_CLIENTS];
	struct sockaddr_un sa;
	struct u2s_ctl ctl;
	struct fabric *f;
	char base[32], err[256];
	int ctl_fd[2] = { -1, -1 }, data_fd = -1, out_fd = -1;
	unsigned int budget = 10000, i;
	bool reading = true;
	size_t off = 0;

	fab_log_level = -1;	/* attach/detach lines for every input: too many */
	f = fabric_new();
	if (f == NULL)
		return 0;
	snprintf(base, sizeof(base), "fzu2s%d", (int)getpid());
	if (topo_parse_buf(f, "fuzz.net", net, sizeof(net) - 1, err, sizeof(err)) < 0 ||
	    umad2sim_open(f, base) < 0)
		goto out;
	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++)
		owner[i] = -1;
	ctl_fd[0] = socket(AF_UNIX, SOCK_DGRAM, 0);
	ctl_fd[1] = socket(AF_UNIX, SOCK_DGRAM, 0);
	data_fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	out_fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	/* A small receive buffer: a reader that stops fills it after a few MADs. */
	if (ctl_fd[0] < 0 || ctl_fd[1] < 0 || data_fd < 0 || out_fd < 0 ||
	    setsockopt(data_fd, SOL_SOCKET, SO_RCVBUF, &(int){ 4096 }, sizeof(int)) < 0 ||
	    bind(ctl_fd[0], (struct sockaddr *)&sa, addr(&sa, base, "ctl", id)) < 0 ||
	    bind(ctl_fd[1], (struct sockaddr *)&sa, addr(&sa, base, "ctlb", id)) < 0 ||
	    bind(data_fd, (struct sockaddr *)&sa, addr(&sa, base, "in", id)) < 0)
		goto out;

	while (off + 2 <= size) {
		unsigned int kind = data[off] % 8, who = (data[off] >> 3) & 1;
		size_t len = data[off + 1];
		const uint8_t *p = data + off + 2;
		uint8_t buf[sizeof(struct u2s_request) + 8];
		int victim = -1;

		if (len > size - off - 2)
			len = size - off - 2;
		off += 2 + len;
		memset(buf, 0, sizeof(buf));
		switch (kind) {
		case 0:
			(void)sendto(ctl_fd[who], p, len, MSG_DONTWAIT, (struct sockaddr *)&sa,
				     addr(&sa, base, "ctl", -1));
			break;
		case 1:
		case 2:
			memset(&ctl, 0, sizeof(ctl));
			memcpy((uint8_t *)&ctl + 4, p,
			       len < sizeof(ctl) - 4 ? len : sizeof(ctl) - 4);
			ctl.magic = U2S_MAGIC;
			if (kind == 2) {
				struct u2s_client_info ci;

				memset(&ci, 0, sizeof(ci));
				/* bit 1: claim a pid that is not the sender's */
				ci.id = len > 0 && (p[0] & 2) ? (uint32_t)id + 1 : (uint32_t)id;
				ci.issm = len > 0 ? p[0] & 1 : 0;
				memcpy(ci.nodeid, p + (len > 0),
				       len > 1 ? (len - 1 < 31 ? len - 1 : 31) : 0);
				ctl.clientid = 0;
				ctl.type = U2S_CTL_CONNECT;
				ctl.len = sizeof(ci);
				memcpy(ctl.data, &ci, sizeof(ci));
			}
			(void)sendto(ctl_fd[who], &ctl, sizeof(ctl), MSG_DONTWAIT,
				     (struct sockaddr *)&sa, addr(&sa, base, "ctl", -1));
			break;
		case 3:
			if (len == 0)
				break;
			(void)connect(out_fd, (struct sockaddr *)&sa,
				      addr(&sa, base, "out", p[0] % UMAD2SIM_MAX_CLIENTS));
			memcpy(buf, p + 1, len - 1);
			(void)send(out_fd, buf, len == 255 ? sizeof(struct u2s_request) : len - 1,
				   MSG_DONTWAIT);
			umad2sim_data_ready(f, p[0] % UMAD2SIM_MAX_CLIENTS);
			break;
		case 4:
			/* A control message for a slot, from client "who". */
			memset(&ctl, 0, sizeof(ctl));
			ctl.magic = U2S_MAGIC;
			ctl.clientid = len > 0 ? p[0] % UMAD2SIM_MAX_CLIENTS : 0;
			ctl.type = len > 1 && p[1] % 11 != U2S_CTL_CONNECT ? p[1] % 11 :
				   U2S_CTL_DISCONNECT;
			if (umad2sim_client(f, ctl.clientid) != NULL &&
			    owner[ctl.clientid] != (int)who)
				victim = (int)ctl.clientid;
			(void)sendto(ctl_fd[who], &ctl, sizeof(ctl), MSG_DONTWAIT,
				     (struct sockaddr *)&sa, addr(&sa, base, "ctl", -1));
			break;
		case 5:
			reading = !reading;
			break;
		case 6:
			if (len > 0)
				umad2sim_slot_writable(f, p[0] % UMAD2SIM_MAX_CLIENTS);
			else
				(void)umad2sim_reap(f);
			break;
		default:
			budget = len > 0 && p[0] != 0 ? p[0] : 10000;
			break;
		}
		umad2sim_ctl_ready(f);
		/* Only the socket that connected a slot speaks for it. */
		if (victim >= 0 && umad2sim_client(f, (unsigned int)victim) == NULL)
			abort();
		fabric_run(f, budget);
		read_replies(ctl_fd[0], 0, owner);
		read_replies(ctl_fd[1], 1, owner);
		for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++)
			if (umad2sim_client(f, i) == NULL)
				owner[i] = -1;
		if (reading)
			drain(data_fd);
		drain(out_fd);
		check_server(f, owner);
	}
out:
	for (i = 0; i < 2; i++)
		if (ctl_fd[i] >= 0)
			close(ctl_fd[i]);
	if (data_fd >= 0)
		close(data_fd);
	if (out_fd >= 0)
		close(out_fd);
	umad2sim_close(f);
	fabric_free(f);
	return 0;
}
