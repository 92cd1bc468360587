/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: arbitrary datagrams into umad2sim.c's sockets, as a
 * crashing or hostile libumad2sim client would send them (issue 3: bad
 * control messages and MADs are dropped and counted, never fatal).
 *
 * The input is a list of records {kind, len, bytes[len]}:
 *   kind % 4 == 0: a raw control datagram;
 *   kind % 4 == 1: a control datagram with the right magic and size,
 *                  the bytes laid over clientid/type/len/data;
 *   kind % 4 == 2: a CONNECT of this client to the node named by the bytes;
 *   kind % 4 == 3: a data datagram to out<bytes[0]>, the rest as payload
 *                  (exactly 288 bytes when len says so).
 * After each record the server's handlers and the fabric run, and every
 * reply is drained. Each input starts from a fresh fabric and server.
 */

#include <stdint.h>
#include <stdio.h>
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const long id = 4000000000L;
	struct sockaddr_un sa;
	struct u2s_ctl ctl;
	struct fabric *f;
	char base[32], err[256];
	int ctl_fd = -1, data_fd = -1;
	size_t off = 0;

	fab_log_level = -1;	/* attach/detach lines for every input: too many */
	f = fabric_new();
	if (f == NULL)
		return 0;
	snprintf(base, sizeof(base), "fzu2s%d", (int)getpid());
	if (topo_parse_buf(f, "fuzz.net", net, sizeof(net) - 1, err, sizeof(err)) < 0 ||
	    umad2sim_open(f, base) < 0)
		goto out;
	ctl_fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	data_fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (ctl_fd < 0 || data_fd < 0 ||
	    bind(ctl_fd, (struct sockaddr *)&sa, addr(&sa, base, "ctl", id)) < 0 ||
	    bind(data_fd, (struct sockaddr *)&sa, addr(&sa, base, "in", id)) < 0)
		goto out;

	while (off + 2 <= size) {
		unsigned int kind = data[off] % 4;
		size_t len = data[off + 1];
		const uint8_t *p = data + off + 2;
		uint8_t buf[sizeof(struct u2s_request) + 8];

		if (len > size - off - 2)
			len = size - off - 2;
		off += 2 + len;
		memset(buf, 0, sizeof(buf));
		switch (kind) {
		case 0:
			(void)sendto(ctl_fd, p, len, MSG_DONTWAIT, (struct sockaddr *)&sa,
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
				ci.id = (uint32_t)id;
				ci.issm = len > 0 ? p[0] & 1 : 0;
				memcpy(ci.nodeid, p + (len > 0),
				       len > 1 ? (len - 1 < 31 ? len - 1 : 31) : 0);
				ctl.clientid = 0;
				ctl.type = U2S_CTL_CONNECT;
				ctl.len = sizeof(ci);
				memcpy(ctl.data, &ci, sizeof(ci));
			}
			(void)sendto(ctl_fd, &ctl, sizeof(ctl), MSG_DONTWAIT,
				     (struct sockaddr *)&sa, addr(&sa, base, "ctl", -1));
			break;
		default:
			if (len == 0)
				break;
			(void)connect(data_fd, (struct sockaddr *)&sa,
				      addr(&sa, base, "out", p[0] % UMAD2SIM_MAX_CLIENTS));
			memcpy(buf, p + 1, len - 1);
			(void)send(data_fd, buf, len == 255 ? sizeof(struct u2s_request) : len - 1,
				   MSG_DONTWAIT);
			umad2sim_data_ready(f, p[0] % UMAD2SIM_MAX_CLIENTS);
			break;
		}
		umad2sim_ctl_ready(f);
		fabric_run(f, 10000);
		drain(ctl_fd);
		drain(data_fd);
	}
out:
	if (ctl_fd >= 0)
		close(ctl_fd);
	if (data_fd >= 0)
		close(data_fd);
	umad2sim_close(f);
	fabric_free(f);
	return 0;
}
