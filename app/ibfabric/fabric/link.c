/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Cables. Every packet in flight waits in one fabric-wide FIFO: a link's
 * packets are queued in transmit order and taken out in the same order,
 * so each link (and each port pair) delivers in order, as IBA 7.1 needs
 * within a VL. The packet pool is a free list that only grows: after the
 * first sweep no packet is allocated again.
 */

#include <errno.h>
#include <stdlib.h>

#include "fab_link.h"
#include "fab_log.h"
#include "fab_node.h"
#include "fab_pkt.h"
#include "fab_route.h"
#include "fabric.h"
#include "ib_proto.h"

/* Per-direction link state, created when a fault is first set. */
struct fab_link {
	uint32_t drop_ppm;	/* packets per million lost on the wire */
	uint32_t corrupt_ppm;	/* packets per million with one byte flipped */
};

#define LRH_VL(d)	((d)[0] >> 4)
#define VL15		15

static inline uint16_t
pkt_dlid(const struct fab_pkt *p)
{
	return (uint16_t)(p->data[2] << 8 | p->data[3]);
}

/* xorshift64*: deterministic per fabric, so a fault run can be repeated. */
static uint64_t
rng_next(struct fabric *f)
{
	uint64_t x = f->rng;

	if (x == 0)
		x = 0x9e3779b97f4a7c15ull;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	f->rng = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* Whether an event of @p ppm per million happens now. */
static bool
rng_hit(struct fabric *f, uint32_t ppm)
{
	return ppm != 0 && (uint32_t)((rng_next(f) >> 32) % 1000000u) < ppm;
}

struct fab_pkt *
fab_pkt_alloc(struct fabric *f)
{
	struct fab_pkt *p = f->free_pkts;

	if (p != NULL)
		f->free_pkts = p->next;
	else if ((p = malloc(sizeof(*p))) == NULL)
		return NULL;
	p->next = NULL;
	p->dst = NULL;
	p->len = 0;
	p->origin = -1;
	p->origin_gen = 0;
	p->mad_len = 0;
	p->crc_valid = false;
	p->crc_pending = false;
	return p;
}

void
fab_pkt_free(struct fabric *f, struct fab_pkt *p)
{
	if (p == NULL)
		return;
	p->next = f->free_pkts;
	f->free_pkts = p;
}

void
fab_pkt_drop(struct fabric *f, struct fab_pkt *p, const char *why)
{
	f->pkts_dropped++;
	FAB_DBG("drop: %s (len %u, origin %d)", why, p->len, p->origin);
	if (p->origin >= 0 && f->client_drop != NULL)
		f->client_drop(f, p);
	fab_pkt_free(f, p);
}

void
fab_pkt_enqueue(struct fabric *f, struct fab_port *dst, struct fab_pkt *p)
{
	p->dst = dst;
	p->next = NULL;
	if (f->q_tail != NULL)
		f->q_tail->next = p;
	else
		f->q_head = p;
	f->q_tail = p;
}

void
fab_port_xmit(struct fabric *f, struct fab_port *out, struct fab_pkt *p)
{
	struct fab_port *peer = out->peer;
	bool smp = LRH_VL(p->data) == VL15;
	struct fab_link *l = out->link;
	uint32_t words;

	if (peer == NULL || out->phys_state != FAB_PHYS_LINKUP ||
	    peer->phys_state != FAB_PHYS_LINKUP) {
		out->cnt.xmit_discards++;
		fab_pkt_drop(f, p, "xmit: link not up");
		return;
	}
	/*
	 * IBA 7.2 (link states): a port in Init or Armed passes only
	 * SMPs (VL15); Armed may receive data but not send it. So data
	 * needs the sender Active and the receiver Armed or Active.
	 */
	if (!smp && (out->state != FAB_PORT_ACTIVE || peer->state < FAB_PORT_ARMED)) {
		out->cnt.xmit_discards++;
		fab_pkt_drop(f, p, "xmit: port not active for data");
		return;
	}

	/*
	 * IBA 16.1.3.5: PortXmitData counts the octets from the first
	 * byte of the LRH up to, not including, the VCRC, divided by 4:
	 * that is LRH PktLen.
	 */
	words = (p->len - 2) / 4;
	out->cnt.xmit_pkts++;
	out->cnt.xmit_data += words;
	if (ib_lid_is_multicast(pkt_dlid(p)))
		out->cnt.multicast_xmit_pkts++;
	else
		out->cnt.unicast_xmit_pkts++;

	/* the capture sees what the transmitter sent, before any fault */
	if (f->pcap_all != NULL || out->pcap != NULL || peer->pcap != NULL) {
		pkt_seal(p);
		fab_capture_pkt(f, out, p);
	}

	if (l != NULL) {
		if (rng_hit(f, l->drop_ppm)) {
			fab_pkt_drop(f, p, "fault: dropped on the wire");
			return;
		}
		if (rng_hit(f, l->corrupt_ppm) && p->len != 0) {
			uint32_t at = (uint32_t)((rng_next(f) >> 32) % p->len);

			pkt_seal(p);	/* damage real CRCs, not a pending trailer */

			p->data[at] ^= (uint8_t)(1u << (rng_next(f) >> 61));
			p->crc_valid = false;	/* the receiver must see the damage */
		}
	}
	/*
	 * The receiver counts what reached it, errors included (IBA
	 * 16.1.3.5 PortRcvData/PortRcvPkts); counting here keeps a
	 * node's loop-back to itself, which has no cable, out of them.
	 */
	peer->cnt.rcv_pkts++;
	peer->cnt.rcv_data += words;
	if (ib_lid_is_multicast(pkt_dlid(p)))
		peer->cnt.multicast_rcv_pkts++;
	else
		peer->cnt.unicast_rcv_pkts++;
	fab_pkt_enqueue(f, peer, p);
}

unsigned int
fabric_run(struct fabric *f, unsigned int budget)
{
	unsigned int n = 0;
	struct fab_pkt *p;

	while ((p = f->q_head) != NULL && (budget == 0 || n < budget)) {
		struct fab_port *in = p->dst;

		f->q_head = p->next;
		if (f->q_head == NULL)
			f->q_tail = NULL;
		p->next = NULL;
		n++;
		f->pkts_moved++;
		fab_port_recv(f, in, p);
	}
	return n;
}

bool
fabric_busy(const struct fabric *f)
{
	return f->q_head != NULL;
}

int
fab_link_set_faults(struct fab_port *p, uint32_t drop_ppm, uint32_t corrupt_ppm)
{
	if (p == NULL || drop_ppm > 1000000u || corrupt_ppm > 1000000u)
		return -EINVAL;
	if (p->link == NULL) {
		if (drop_ppm == 0 && corrupt_ppm == 0)
			return 0;
		p->link = calloc(1, sizeof(*p->link));
		if (p->link == NULL)
			return -ENOMEM;
	}
	p->link->drop_ppm = drop_ppm;
	p->link->corrupt_ppm = corrupt_ppm;
	return 0;
}

void
fab_link_free(struct fab_port *p)
{
	if (p == NULL)
		return;
	free(p->link);
	p->link = NULL;
	if (p->pcap != NULL)
		fab_capture_stop(NULL, p);	/* a port capture needs no fabric */
}

void
fab_pkt_pool_free(struct fabric *f)
{
	struct fab_pkt *p, *next;

	for (p = f->q_head; p != NULL; p = next) {
		next = p->next;
		free(p);
	}
	f->q_head = f->q_tail = NULL;
	for (p = f->free_pkts; p != NULL; p = next) {
		next = p->next;
		free(p);
	}
	f->free_pkts = NULL;
	if (f->pcap_all != NULL)
		fab_capture_stop(f, NULL);
}

/*
 * ibsim's "Error <rate> [attr]" (sim_mad.c): a share of the packets
 * arriving at a port is lost; with an attribute, only MADs (QP0/QP1) of
 * that AttributeID are, the way ibsim drops them before the node's
 * agent answers. The percentage is drawn from the fabric's own
 * generator, so a run can be repeated.
 */
bool
fab_link_rx_error(struct fabric *f, struct fab_port *in, struct fab_pkt *p,
		  const struct fab_hdrs *h)
{
	uint16_t attr;

	if (in->err_attr != 0) {
		if (h->dest_qp > 1 || h->payload_len < 24)
			return false;
		attr = (uint16_t)(p->data[h->payload_off + 16] << 8 |
				  p->data[h->payload_off + 17]);
		if (attr != in->err_attr)
			return false;
	}
	if ((rng_next(f) >> 32) % 100 >= in->err_pct)
		return false;
	if (in->err_attr == 0 && in->cnt.rcv_errors != UINT32_MAX)
		in->cnt.rcv_errors++;
	fab_pkt_drop(f, p, "error injection (ibsim Error)");
	return true;
}
