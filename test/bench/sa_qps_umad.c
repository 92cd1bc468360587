/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * sa_qps_umad: the peer of sa_host's QPS command (test/bench/bench_sa_qps.py)
 * on libibumad, run under ibsim's libumad2sim from a passive CA of
 * ibfabric: the same PathRecord Get queries (DGID, SGID, NumbPath 1,
 * P_Key; Linux ipoib_main.c path_rec_start()), raw SA MADs on QP1,
 * <depth> of them outstanding for <ms> milliseconds, counted and checked
 * by the same code (test/lib/sa_qps.c).
 *
 * usage: sa_qps_umad <dest file> <ms> <depth> <own lid> <own gid>
 *
 * Each outstanding query has a slot; its TransactionID is a sequence
 * number shifted left by 8 over the slot number (the low 32 bits: the
 * kernel, and libumad2sim too, puts the agent in bits 32 and up, IBA
 * 13.4.6.4 leaves the TID to the requester). libumad2sim keeps no send
 * timers, so a query not answered in TIMEOUT_MS is counted as timed out
 * here and its slot sends the next one; an ETIMEDOUT receive, as the
 * kernel gives it, counts the same.
 */

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/umad.h>

#include "sa_qps.h"

#define TIMEOUT_MS 1000
#define MAD_SIZE 256
#define SA_CLASS 0x03
#define SA_CLASS_VERSION 2
#define METHOD_GET 0x01
#define METHOD_GET_RESP 0x81
#define ATTR_PATH_REC 0x0035
#define QP1_QKEY 0x80010000u
/* IBA 15.2.5.16 PathRecord, from the start of the SA data (MAD byte 56) */
#define SA_DATA 56
#define PR_DGID 8
#define PR_SGID 24
#define PR_DLID 40
#define PR_SLID 42
#define PR_NUMB_PATH 49
#define PR_PKEY 50
/* ComponentMask bits: DGID 2, SGID 3, NumbPath 12, P_Key 13 */
#define PR_MASK ((1ull << 2) | (1ull << 3) | (1ull << 12) | (1ull << 13))

struct slot {
	uint32_t tid;		/* 0: nothing outstanding */
	unsigned int dest;
	uint64_t sent_ns;
};

static struct sa_qps_stats st;
static struct slot slots[SA_QPS_MAX_DEPTH];
static const struct sa_qps_dest *dests;
static unsigned int nb_dests, next_dest, inflight;
static uint32_t seq;
static int fd, agent;
static umad_port_t port;
static uint16_t my_lid;
static uint8_t my_gid[16];
static void *sbuf;

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint16_t
get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Send the next query on slot @s; false if the write failed. */
static bool
send_next(unsigned int s)
{
	uint8_t *mad = umad_get_mad(sbuf);
	const struct sa_qps_dest *d = &dests[next_dest];
	uint64_t be;

	memset(mad, 0, MAD_SIZE);
	mad[0] = 1;			/* BaseVersion */
	mad[1] = SA_CLASS;
	mad[2] = SA_CLASS_VERSION;
	mad[3] = METHOD_GET;
	seq++;
	slots[s].tid = (seq << 8 | s) & 0xffffffffu;
	if (slots[s].tid == 0)
		slots[s].tid = 1u << 8 | s;
	be = htobe64(slots[s].tid);
	memcpy(mad + 8, &be, 8);
	put16(mad + 16, ATTR_PATH_REC);
	be = htobe64(PR_MASK);
	memcpy(mad + 48, &be, 8);
	memcpy(mad + SA_DATA + PR_DGID, d->gid, 16);
	memcpy(mad + SA_DATA + PR_SGID, my_gid, 16);
	mad[SA_DATA + PR_NUMB_PATH] = 1;
	put16(mad + SA_DATA + PR_PKEY, 0xffff);
	umad_set_addr(sbuf, (int)port.sm_lid, 1, (int)port.sm_sl, (int)QP1_QKEY);
	umad_set_pkey(sbuf, 0);
	slots[s].dest = next_dest;
	slots[s].sent_ns = sa_qps_now_ns();
	next_dest = (next_dest + 1) % nb_dests;
	if (umad_send(fd, agent, sbuf, MAD_SIZE, TIMEOUT_MS, 0) == 0)
		return true;
	slots[s].tid = 0;
	if (st.send_errors++ == 0)
		fprintf(stderr, "sa_qps_umad: umad_send: %s\n", strerror(errno));
	return false;
}

/* Slot @s is answered or given up: refill it while the window is open. */
static void
refill(unsigned int s, uint64_t now)
{
	slots[s].tid = 0;
	if (!sa_qps_open(&st, now) || !send_next(s))
		inflight--;
}

static void
answer(const uint8_t *umad, int len)
{
	const uint8_t *mad = umad_get_mad((void *)(uintptr_t)umad);
	uint64_t be, now = sa_qps_now_ns();
	unsigned int s;
	uint32_t tid;

	if (len < MAD_SIZE && umad_status((void *)(uintptr_t)umad) == 0)
		return;
	memcpy(&be, mad + 8, 8);
	tid = (uint32_t)be64toh(be);
	s = tid & 0xff;
	if (s >= SA_QPS_MAX_DEPTH || slots[s].tid != tid)
		return;		/* answer to a query already given up */
	if (umad_status((void *)(uintptr_t)umad) == ETIMEDOUT)
		st.timeouts++;
	else if (mad[3] != METHOD_GET_RESP || get16(mad + 4) != 0)
		st.errors++;
	else
		sa_qps_answer(&st, now, &dests[slots[s].dest], my_lid, my_gid,
			      get16(mad + SA_DATA + PR_SLID), get16(mad + SA_DATA + PR_DLID),
			      mad + SA_DATA + PR_SGID, mad + SA_DATA + PR_DGID);
	refill(s, now);
}

static void
expire(unsigned int depth)
{
	uint64_t now = sa_qps_now_ns();
	unsigned int s;

	for (s = 0; s < depth; s++)
		if (slots[s].tid != 0 &&
		    now - slots[s].sent_ns > (uint64_t)TIMEOUT_MS * 1000000u) {
			st.timeouts++;
			refill(s, now);
		}
}

int
main(int argc, char **argv)
{
	unsigned int ms, depth, s, lid;
	struct sa_qps_dest *d;
	uint64_t give_up;
	char err[256];
	void *rbuf;
	int len;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 6 || sscanf(argv[2], "%u", &ms) != 1 ||
	    sscanf(argv[3], "%u", &depth) != 1 || depth == 0 ||
	    depth > SA_QPS_MAX_DEPTH || sscanf(argv[4], "%u", &lid) != 1 ||
	    lid == 0 || lid > 0xbfff || inet_pton(AF_INET6, argv[5], my_gid) != 1) {
		fprintf(stderr, "usage: %s <dest file> <ms> <depth 1-%u> <own lid> "
			"<own gid>\n", argv[0], SA_QPS_MAX_DEPTH);
		return 2;
	}
	my_lid = (uint16_t)lid;
	nb_dests = sa_qps_load(argv[1], &d, err, sizeof(err));
	if (nb_dests == 0) {
		printf("ERR %s\n", err);
		return 1;
	}
	dests = d;
	if (umad_init() < 0 || umad_get_port(NULL, 0, &port) < 0) {
		printf("ERR no user-MAD port: %s\n", strerror(errno));
		return 1;
	}
	fd = umad_open_port(NULL, 0);
	agent = fd < 0 ? -1 : umad_register(fd, SA_CLASS, SA_CLASS_VERSION, 0, NULL);
	sbuf = umad_alloc(1, umad_size() + MAD_SIZE);
	rbuf = umad_alloc(1, umad_size() + MAD_SIZE);
	if (fd < 0 || agent < 0 || sbuf == NULL || rbuf == NULL || port.sm_lid == 0) {
		printf("ERR SA agent on %s port %d (SM LID %u): %s\n", port.ca_name,
		       port.portnum, port.sm_lid, strerror(errno));
		return 1;
	}
	if (!sa_qps_start(&st, ms)) {
		printf("ERR %u ms: %u to %u\n", ms, SA_QPS_SLICE_MS,
		       SA_QPS_SLICE_MS * SA_QPS_MAX_SLICES);
		return 2;
	}
	inflight = depth;
	for (s = 0; s < depth; s++)
		if (!send_next(s))
			inflight--;
	give_up = st.t0_ns + st.window_ns + 5ull * TIMEOUT_MS * 1000000u;
	while (inflight > 0 && sa_qps_now_ns() < give_up) {
		len = MAD_SIZE;
		if (umad_recv(fd, rbuf, &len, 10) >= 0)
			answer(rbuf, len);
		expire(depth);
	}
	if (inflight > 0) {
		printf("ERR %u queries stuck\n", inflight);
		return 1;
	}
	sa_qps_print(&st, depth, nb_dests);
	umad_unregister(fd, agent);
	umad_close_port(fd);
	umad_release_port(&port);
	umad_free(sbuf);
	umad_free(rbuf);
	free(d);
	umad_done();
	return 0;
}
