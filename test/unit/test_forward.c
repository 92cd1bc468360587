/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibfabric forwarding (link.c, switch.c, node_io.c, capture.c) on a fabric
 * built by hand:
 *
 *   A[1] -- [1]S1[3] -- [5]S2[2] -- [1]B
 *            S1[2] -- [1]C
 *
 * LIDs: S1 1, S2 2, A 10, B 11, C 12. Unicast LFTs route every CA; the
 * MFT of MLID 0xc001 holds A, B and C. Cases skip while fabric.c cannot
 * build the fabric, or while the SMA does not answer NodeInfo.
 *
 * Expected numbers come from the packet sizes: a MAD packet is LRH 8 +
 * BTH 12 + DETH 8 + MAD 256 + ICRC 4 = 288 bytes = 72 words (PktLen),
 * plus the 2-byte VCRC = 290 bytes on the wire; PortXmitData/RcvData
 * count the 72 words (IBA 16.1.3.5).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "fab_link.h"
#include "fab_node.h"
#include "fab_pkt.h"
#include "fab_route.h"
#include "fabric.h"
#include "mad.h"
#include "test.h"

#define MAD_WORDS	72
#define MAD_WIRE	290

static struct fabric *fab;
static struct fab_node *A, *B, *C, *S1, *S2;
static char tmpdir[64];

static void
port_up(struct fab_port *p)
{
	p->phys_state = FAB_PHYS_LINKUP;
	p->state = FAB_PORT_ACTIVE;
	p->admin_up = true;
	p->pkeys[0] = 0xffff;
}

/* A Get(@p attr) MAD of class @p mgmt_class, version 1, everything else zero. */
static void
get_mad(uint8_t *mad, uint8_t mgmt_class, uint16_t attr)
{
	memset(mad, 0, 256);
	mad[MAD_BASE_VERSION] = 1;
	mad[MAD_MGMT_CLASS] = mgmt_class;
	mad[MAD_CLASS_VERSION] = 1;
	mad[MAD_METHOD] = MAD_METHOD_GET;
	mad_set16(mad, MAD_ATTR_ID, attr);
}

static int
fabric_setup(void)
{
	struct fab_switch *s;
	unsigned int i;

	fab = fabric_new();
	if (fab == NULL)
		return TEST_FAILED;
	A = fabric_add_node(fab, FAB_NODE_CA, "A", 1);
	B = fabric_add_node(fab, FAB_NODE_CA, "B", 1);
	C = fabric_add_node(fab, FAB_NODE_CA, "C", 1);
	S1 = fabric_add_node(fab, FAB_NODE_SWITCH, "S1", 8);
	S2 = fabric_add_node(fab, FAB_NODE_SWITCH, "S2", 8);
	if (A == NULL || B == NULL || C == NULL || S1 == NULL || S2 == NULL ||
	    S1->sw == NULL || S2->sw == NULL)
		return TEST_FAILED;
	if (fabric_connect(fab, &A->ports[1], &S1->ports[1]) != 0 ||
	    fabric_connect(fab, &S1->ports[3], &S2->ports[5]) != 0 ||
	    fabric_connect(fab, &S2->ports[2], &B->ports[1]) != 0 ||
	    fabric_connect(fab, &S1->ports[2], &C->ports[1]) != 0)
		return TEST_FAILED;
	for (i = 0; i <= 8; i++) {
		port_up(&S1->ports[i]);
		port_up(&S2->ports[i]);
	}
	port_up(&A->ports[1]);
	port_up(&B->ports[1]);
	port_up(&C->ports[1]);
	S1->ports[0].lid = 1;
	S2->ports[0].lid = 2;
	A->ports[1].lid = 10;
	B->ports[1].lid = 11;
	C->ports[1].lid = 12;

	s = S1->sw;
	memset(s->lft, FAB_NO_PORT, sizeof(s->lft));
	s->lft[1] = 0;
	s->lft[2] = 3;
	s->lft[10] = 1;
	s->lft[11] = 3;
	s->lft[12] = 2;
	s->lft_top = 12;
	s->mft[1][0] = (1 << 1) | (1 << 2) | (1 << 3);
	s = S2->sw;
	memset(s->lft, FAB_NO_PORT, sizeof(s->lft));
	s->lft[1] = 5;
	s->lft[2] = 0;
	s->lft[10] = 5;
	s->lft[11] = 2;
	s->lft[12] = 5;
	s->lft_top = 12;
	s->mft[1][0] = (1 << 2) | (1 << 5);

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_forward.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static void
fabric_teardown(void)
{
	char path[128];
	const char *names[] = { "dr.pcap", "fifo.pcap", "all.pcap" };
	unsigned int i;

	if (fab != NULL && fab->nnodes > 0) {
		for (i = 0; i < fab->nnodes; i++) {
			struct fab_node *n = fab->nodes[i];
			unsigned int p;

			for (p = 0; p <= n->nports; p++)
				fab_link_free(&n->ports[p]);
		}
		fab_pkt_pool_free(fab);
	}
	fabric_free(fab);
	fab = NULL;
	if (tmpdir[0] != '\0') {
		for (i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
			unlink(path);
		}
		rmdir(tmpdir);
		tmpdir[0] = '\0';
	}
}

/* Send a UD datagram of @p len bytes from CA port @p from to @p dlid, QP @p qp. */
static int
send_ud(struct fab_port *from, uint16_t dlid, uint32_t qp, uint32_t psn, uint32_t len)
{
	static const uint8_t payload[256];
	struct fab_pkt_addr a;
	struct fab_pkt *p = fab_pkt_alloc(fab);

	if (p == NULL)
		return -ENOMEM;
	memset(&a, 0, sizeof(a));
	a.dlid = dlid;
	a.slid = from->lid;
	a.pkey = 0xffff;
	a.dest_qp = qp;
	a.src_qp = 2;
	a.qkey = 0x11111111;
	a.psn = psn;
	if (pkt_build_ud(p, &a, payload, len) != 0) {
		fab_pkt_free(fab, p);
		return -EMSGSIZE;
	}
	fab_port_xmit(fab, from, p);
	return 0;
}

static void
run(void)
{
	fabric_run(fab, 0);
}

/* LFT unicast A -> B through S1 port 3 and S2 port 2. */
static int
test_lft_unicast(void)
{
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 11, 5, 0, 256), "send");
	run();
	TEST_ASSERT_EQUAL(A->ports[1].cnt.xmit_pkts, 1, "A sent");
	TEST_ASSERT_EQUAL(A->ports[1].cnt.xmit_data, MAD_WORDS, "A XmitData in words");
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.rcv_pkts, 1, "S1 in 1");
	TEST_ASSERT_EQUAL(S1->ports[3].cnt.xmit_pkts, 1, "S1 out 3");
	TEST_ASSERT_EQUAL(S1->ports[2].cnt.xmit_pkts, 0, "not out S1 2");
	TEST_ASSERT_EQUAL(S2->ports[5].cnt.rcv_pkts, 1, "S2 in 5");
	TEST_ASSERT_EQUAL(S2->ports[2].cnt.xmit_pkts, 1, "S2 out 2");
	TEST_ASSERT_EQUAL(B->ports[1].cnt.rcv_pkts, 1, "B received");
	TEST_ASSERT_EQUAL(B->ports[1].cnt.rcv_data, MAD_WORDS, "B RcvData in words");
	TEST_ASSERT_EQUAL(B->ports[1].cnt.unicast_rcv_pkts, 1, "unicast");
	TEST_ASSERT_EQUAL(C->ports[1].cnt.rcv_pkts, 0, "C untouched");
	TEST_ASSERT(!fabric_busy(fab), "quiet");
	return TEST_SUCCESS;
}

/* MFT 0xc001 from A: S1 copies to 2 and 3 (not ingress 1), S2 to 2 (not 5). */
static int
test_mft_replication(void)
{
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 0xc001, 0xffffff, 0, 64), "send");
	run();
	TEST_ASSERT_EQUAL(S1->ports[2].cnt.multicast_xmit_pkts, 1, "S1 -> C");
	TEST_ASSERT_EQUAL(S1->ports[3].cnt.multicast_xmit_pkts, 1, "S1 -> S2");
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.xmit_pkts, 0, "not back to the ingress");
	TEST_ASSERT_EQUAL(S2->ports[2].cnt.multicast_xmit_pkts, 1, "S2 -> B");
	TEST_ASSERT_EQUAL(S2->ports[5].cnt.xmit_pkts, 0, "not back to S1");
	TEST_ASSERT_EQUAL(B->ports[1].cnt.multicast_rcv_pkts, 1, "B got a copy");
	TEST_ASSERT_EQUAL(C->ports[1].cnt.multicast_rcv_pkts, 1, "C got a copy");
	TEST_ASSERT_EQUAL(A->ports[1].cnt.rcv_pkts, 0, "A did not");

	/* an MLID with no members is a relay error at the ingress */
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 0xc002, 0xffffff, 0, 64), "send");
	run();
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.rcv_switch_relay_errors, 1, "no members");
	return TEST_SUCCESS;
}

/* Packets a switch cannot relay, and ports that may not carry them. */
static int
test_drop_counters(void)
{
	uint64_t dropped = fab->pkts_dropped;

	/* LFT entry 0xff */
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 7, 5, 0, 8), "send");
	run();
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.rcv_switch_relay_errors, 1, "no route");
	/* beyond LinearFDBTop (12) even with an entry */
	S1->sw->lft[13] = 3;
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 13, 5, 0, 8), "send");
	run();
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.rcv_switch_relay_errors, 2, "beyond top");
	TEST_ASSERT_EQUAL(S1->ports[3].cnt.xmit_pkts, 0, "nothing relayed");
	/* egress == ingress: LFT says port 1 for A's own LID, sent by A */
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 10, 5, 0, 8), "send");
	run();
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.rcv_switch_relay_errors, 3, "egress == ingress");
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.xmit_pkts, 0, "not sent back");
	/* permissive DLID on a non-SMP */
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 0xffff, 5, 0, 8), "send");
	run();
	TEST_ASSERT_EQUAL(fab->pkts_dropped, dropped + 4, "four drops");

	/* data out of a port in Init is discarded; VL15 is not (IBA 7.2) */
	A->ports[1].state = FAB_PORT_INIT;
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 11, 5, 0, 8), "send");
	run();
	TEST_ASSERT_EQUAL(A->ports[1].cnt.xmit_discards, 1, "data from Init");
	TEST_ASSERT_EQUAL(A->ports[1].cnt.xmit_pkts, 4, "only the four before");
	{
		/* a VL15 packet (an SMP's VL) does leave a port in Init */
		static const uint8_t smp[256] = { 1, 0x81, 1, 1 };
		struct fab_pkt_addr va;
		struct fab_pkt *vp = fab_pkt_alloc(fab);

		TEST_ASSERT(vp != NULL, "packet");
		memset(&va, 0, sizeof(va));
		va.vl = 15;
		va.dlid = 0xffff;
		va.slid = 0xffff;
		va.pkey = 0xffff;
		TEST_ASSERT_SUCCESS(pkt_build_ud(vp, &va, smp, sizeof(smp)), "build");
		fab_port_xmit(fab, &A->ports[1], vp);
		run();
		TEST_ASSERT_EQUAL(A->ports[1].cnt.xmit_pkts, 5, "VL15 passes Init");
		TEST_ASSERT_EQUAL(S1->ports[1].cnt.rcv_pkts, 5, "and arrives");
	}
	A->ports[1].state = FAB_PORT_ACTIVE;
	/* data into a port in Init: the sender discards it */
	S1->ports[1].state = FAB_PORT_INIT;
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 11, 5, 0, 8), "send");
	run();
	TEST_ASSERT_EQUAL(A->ports[1].cnt.xmit_discards, 2, "data to Init");
	S1->ports[1].state = FAB_PORT_ACTIVE;

	/* physical link down */
	A->ports[1].phys_state = FAB_PHYS_POLLING;
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 11, 5, 0, 8), "send");
	run();
	TEST_ASSERT_EQUAL(A->ports[1].cnt.xmit_discards, 3, "link down");
	A->ports[1].phys_state = FAB_PHYS_LINKUP;

	/* a corrupted packet fails the receiver's CRC check */
	TEST_ASSERT_SUCCESS(fab_link_set_faults(&A->ports[1], 0, 1000000), "corrupt");
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 11, 5, 0, 8), "send");
	run();
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.rcv_errors, 1, "bad CRC counted");
	TEST_ASSERT_EQUAL(S1->ports[3].cnt.xmit_pkts, 0, "not relayed");
	/* a dropping link loses everything */
	TEST_ASSERT_SUCCESS(fab_link_set_faults(&A->ports[1], 1000000, 0), "drop");
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 11, 5, 0, 8), "send");
	run();
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.rcv_pkts, 6, "lost on the wire");
	TEST_ASSERT_SUCCESS(fab_link_set_faults(&A->ports[1], 0, 0), "clear");
	TEST_ASSERT(fab_link_set_faults(&A->ports[1], 1000001, 0) != 0, "rate > 1e6");
	return TEST_SUCCESS;
}

/* Read every record of @p path into PSNs (BTH bytes 17..19 without a GRH). */
static int
read_psns(const char *path, uint32_t *psn, unsigned int max, int *dlt)
{
	char err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *ph;
	const u_char *d;
	unsigned int n = 0;
	pcap_t *pd;

	pd = pcap_open_offline(path, err);
	if (pd == NULL)
		return -1;
	*dlt = pcap_datalink(pd);
	while (pcap_next_ex(pd, &ph, &d) == 1 && n < max) {
		if (ph->caplen < 20)
			break;
		psn[n++] = (uint32_t)d[17] << 16 | (uint32_t)d[18] << 8 | d[19];
	}
	pcap_close(pd);
	return (int)n;
}

/*
 * In-order delivery: 16 datagrams A -> B interleaved with 16 C -> A on a
 * shared link (S1 port 1): B's port capture shows PSNs 0..15 in order.
 */
static int
test_fifo_order(void)
{
	char path[128];
	uint32_t psn[64];
	unsigned int i;
	int n, dlt;

	snprintf(path, sizeof(path), "%s/fifo.pcap", tmpdir);
	TEST_ASSERT_SUCCESS(fab_capture_start(fab, &B->ports[1], path), "capture");
	for (i = 0; i < 16; i++) {
		TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 11, 5, i, 4 * i), "A->B");
		TEST_ASSERT_SUCCESS(send_ud(&C->ports[1], 10, 5, 100 + i, 8), "C->A");
		if (i % 5 == 0)
			fabric_run(fab, 3);	/* partial runs keep the order too */
	}
	run();
	fab_capture_stop(fab, &B->ports[1]);
	TEST_ASSERT_EQUAL(B->ports[1].cnt.rcv_pkts, 16, "all arrived");
	TEST_ASSERT_EQUAL(A->ports[1].cnt.rcv_pkts, 16, "C's arrived");
	n = read_psns(path, psn, 64, &dlt);
	TEST_ASSERT_EQUAL(n, 16, "records");
	TEST_ASSERT_EQUAL(dlt, DLT_INFINIBAND, "LINKTYPE 247");
	for (i = 0; i < 16; i++)
		TEST_ASSERT_EQUAL(psn[i], i, "record %u out of order", i);
	return TEST_SUCCESS;
}

/*
 * DR SubnGet(NodeInfo) from A along InitialPath {0, 1, 3, 2}: S1, S2,
 * B's SMA; the GetResp retraces ReturnPath {_, 1, 5, 1}. A's port
 * capture holds the request (D=0, HopPointer 1 after A's C14-9:1 step)
 * and the reply as S1 sent it (D=1, HopPointer 1 after S1's C14-13:2),
 * carrying B's NodeInfo.
 */
static int
test_dr_two_switches(void)
{
	struct fab_mad_addr a;
	char path[128], err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *ph;
	const u_char *d;
	uint8_t mad[256];
	struct fab_pkt pk;
	struct fab_hdrs h;
	unsigned int n = 0;
	pcap_t *pd;
	bool reply_seen = false;

	get_mad(mad, MAD_CLASS_SMI_DR, SMP_ATTR_NODE_INFO);
	mad_set64(mad, MAD_TID, 0x1234);
	mad[MAD_DR_HOP_CNT] = 3;
	mad_set16(mad, MAD_DR_SLID, 0xffff);
	mad_set16(mad, MAD_DR_DLID, 0xffff);
	mad[MAD_DR_INITIAL_PATH + 1] = 1;
	mad[MAD_DR_INITIAL_PATH + 2] = 3;
	mad[MAD_DR_INITIAL_PATH + 3] = 2;
	memset(&a, 0, sizeof(a));
	a.dlid = 0xffff;
	a.slid = 0xffff;

	snprintf(path, sizeof(path), "%s/dr.pcap", tmpdir);
	TEST_ASSERT_SUCCESS(fab_capture_start(fab, &A->ports[1], path), "capture");
	fab_node_send_mad(fab, &A->ports[1], &a, mad, sizeof(mad), -1, 0);
	run();
	fab_capture_stop(fab, &A->ports[1]);

	TEST_ASSERT_EQUAL(B->ports[1].cnt.rcv_pkts, 1, "request reached B");
	TEST_ASSERT_EQUAL(S2->ports[2].cnt.xmit_pkts, 1, "S2 relayed out InitialPath[3]");
	TEST_ASSERT(B->ports[1].cnt.xmit_pkts != 0, "B's SMA answered");
	TEST_ASSERT_EQUAL(S2->ports[5].cnt.xmit_pkts, 1, "S2 relayed the reply out RP[2]");
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.xmit_pkts, 1, "S1 relayed the reply out RP[1]");
	TEST_ASSERT_EQUAL(A->ports[1].cnt.rcv_pkts, 1, "reply back at A");

	pd = pcap_open_offline(path, err);
	TEST_ASSERT(pd != NULL, "open %s: %s", path, err);
	while (pcap_next_ex(pd, &ph, &d) == 1) {
		const uint8_t *m;

		n++;
		TEST_ASSERT_EQUAL(ph->caplen, MAD_WIRE, "record %u length", n);
		pk.len = ph->caplen;
		memcpy(pk.data, d, ph->caplen);
		if (pkt_parse(&pk, &h) != 0) {
			pcap_close(pd);
			TEST_ASSERT(0, "record %u has bad CRCs or headers", n);
		}
		m = pk.data + h.payload_off;
		if (mad_dr_is_return(m)) {
			reply_seen = true;
			if (m[MAD_METHOD] != MAD_METHOD_GET_RESP || m[MAD_DR_HOP_PTR] != 1 ||
			    mad_get64(m, MAD_TID) != 0x1234 ||
			    m[MAD_SMP_DATA + NI_NODE_TYPE] != FAB_NODE_CA ||
			    mad_get64(m, MAD_SMP_DATA + NI_NODE_GUID) != B->node_guid ||
			    m[MAD_SMP_DATA + NI_LOCAL_PORT] != 1 ||
			    m[MAD_DR_RETURN_PATH + 1] != 1 || m[MAD_DR_RETURN_PATH + 2] != 5 ||
			    m[MAD_DR_RETURN_PATH + 3] != 1) {
				pcap_close(pd);
				TEST_ASSERT(0, "reply content (method 0x%x hp %u)",
					    m[MAD_METHOD], m[MAD_DR_HOP_PTR]);
			}
		} else if (m[MAD_DR_HOP_PTR] != 1 || h.vl != 15 || h.dlid != 0xffff) {
			pcap_close(pd);
			TEST_ASSERT(0, "request record: hp %u vl %u", m[MAD_DR_HOP_PTR], h.vl);
		}
	}
	pcap_close(pd);
	TEST_ASSERT_EQUAL(n, 2, "request and reply on A's cable");
	TEST_ASSERT(reply_seen, "reply captured");
	return TEST_SUCCESS;
}

/*
 * LID-routed SubnGet(NodeInfo) from A to S2 (LID 2, QP0, VL15): S1's LFT
 * sends it out 3; S2 answers with LIDs swapped; the reply comes back by
 * the LFTs. The whole-fabric capture sees 4 packets.
 */
static int
test_lid_routed_smp(void)
{
	struct fab_mad_addr a;
	char path[128], err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *ph;
	const u_char *d;
	uint8_t mad[256];
	unsigned int n = 0;
	pcap_t *pd;

	get_mad(mad, MAD_CLASS_SMI, SMP_ATTR_NODE_INFO);
	memset(&a, 0, sizeof(a));
	a.dlid = 2;

	snprintf(path, sizeof(path), "%s/all.pcap", tmpdir);
	TEST_ASSERT_SUCCESS(fab_capture_start(fab, NULL, path), "capture");
	fab_node_send_mad(fab, &A->ports[1], &a, mad, sizeof(mad), -1, 0);
	run();
	fab_capture_stop(fab, NULL);
	TEST_ASSERT_EQUAL(S2->ports[5].cnt.rcv_pkts, 1, "request at S2");
	TEST_ASSERT(S2->ports[5].cnt.xmit_pkts != 0, "S2's SMA answered");
	TEST_ASSERT_EQUAL(A->ports[1].cnt.rcv_pkts, 1, "reply at A");

	pd = pcap_open_offline(path, err);
	TEST_ASSERT(pd != NULL, "open: %s", err);
	while (pcap_next_ex(pd, &ph, &d) == 1) {
		n++;
		if (n == 4 && (mad_get16(d, 2) != 10 || mad_get16(d, 6) != 2)) {
			pcap_close(pd);
			TEST_ASSERT(0, "reply LIDs swapped");
		}
	}
	pcap_close(pd);
	TEST_ASSERT_EQUAL(n, 4, "two hops each way");
	return TEST_SUCCESS;
}

/*
 * IBA 7.6.5 / 7.9.4: QP0 (subnet management) traffic travels on VL15
 * only. A LID-routed SubnGet(NodeInfo) from A to B on VL0 is dropped by
 * B unanswered; the same SMP on VL15 is answered.
 */
static int
test_smp_needs_vl15(void)
{
	struct fab_pkt_addr a;
	uint8_t mad[256];
	unsigned int vl;

	get_mad(mad, MAD_CLASS_SMI, SMP_ATTR_NODE_INFO);
	for (vl = 0; vl <= 15; vl += 15) {
		struct fab_pkt *p = fab_pkt_alloc(fab);
		uint64_t xmit = B->ports[1].cnt.xmit_pkts, rcv = B->ports[1].cnt.rcv_pkts;

		TEST_ASSERT(p != NULL, "packet");
		memset(&a, 0, sizeof(a));
		a.vl = (uint8_t)vl;
		a.dlid = 11;
		a.slid = 10;
		a.pkey = 0xffff;
		TEST_ASSERT_SUCCESS(pkt_build_ud(p, &a, mad, sizeof(mad)), "build");
		fab_port_xmit(fab, &A->ports[1], p);
		run();
		TEST_ASSERT_EQUAL(B->ports[1].cnt.rcv_pkts, rcv + 1, "SMP on VL%u reached B", vl);
		TEST_ASSERT_EQUAL(B->ports[1].cnt.xmit_pkts, xmit + (vl == 15),
				  "SMP on VL%u: %s", vl, vl == 15 ? "answered" : "dropped");
	}
	return TEST_SUCCESS;
}

/* DR hop count 0: the node's own SMA, no packet on any cable. */
static int
test_dr_hop_count_zero(void)
{
	struct fab_mad_addr a;
	uint8_t mad[256];
	uint64_t dropped = fab->pkts_dropped;

	get_mad(mad, MAD_CLASS_SMI_DR, SMP_ATTR_NODE_INFO);
	mad_set16(mad, MAD_DR_SLID, 0xffff);
	mad_set16(mad, MAD_DR_DLID, 0xffff);
	memset(&a, 0, sizeof(a));
	a.dlid = 0xffff;
	a.slid = 0xffff;
	fab_node_send_mad(fab, &A->ports[1], &a, mad, sizeof(mad), -1, 0);
	run();
	TEST_ASSERT_EQUAL(A->ports[1].cnt.xmit_pkts, 0, "nothing sent");
	/* the reply (or the request, unanswered) finds no client: one drop */
	TEST_ASSERT_EQUAL(fab->pkts_dropped, dropped + 1, "delivered locally");
	return TEST_SUCCESS;
}

/*
 * Mixed path (IBA 14.2.2.2 / 14.2.2.4): DrSLID = A's LID 10, LRH DLID =
 * S1's LID 1: LID-routed to S1, whose C14-9:1 starts the directed part
 * out InitialPath[1] = 3; S2 relays out InitialPath[2] = 2 to B (hop
 * count 2). The reply walks ReturnPath {_, 5, 1} back to S1, where
 * C14-13:3 LID-routes it to DrSLID 10: S1's LFT sends it out port 1.
 */
static int
test_dr_mixed_path(void)
{
	struct fab_mad_addr a;
	uint8_t mad[256];

	get_mad(mad, MAD_CLASS_SMI_DR, SMP_ATTR_NODE_INFO);
	mad[MAD_DR_HOP_CNT] = 2;
	mad_set16(mad, MAD_DR_SLID, 10);
	mad_set16(mad, MAD_DR_DLID, 0xffff);
	mad[MAD_DR_INITIAL_PATH + 1] = 3;
	mad[MAD_DR_INITIAL_PATH + 2] = 2;
	memset(&a, 0, sizeof(a));
	a.dlid = 1;

	fab_node_send_mad(fab, &A->ports[1], &a, mad, sizeof(mad), -1, 0);
	run();
	TEST_ASSERT_EQUAL(S1->ports[3].cnt.xmit_pkts, 1, "S1 started the DR part");
	TEST_ASSERT_EQUAL(B->ports[1].cnt.rcv_pkts, 1, "request at B");
	TEST_ASSERT(B->ports[1].cnt.xmit_pkts != 0, "B's SMA answered");
	TEST_ASSERT_EQUAL(S1->ports[3].cnt.rcv_pkts, 1, "reply back at S1");
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.xmit_pkts, 1, "S1 LID-routed it to A");
	TEST_ASSERT_EQUAL(A->ports[1].cnt.rcv_pkts, 1, "reply at A");
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.rcv_switch_relay_errors, 0, "no relay error");
	return TEST_SUCCESS;
}

/*
 * LID-routed tail (IBA 14.2.2.2 C14-9:3 / 14.2.2.4 C14-13:1): hop count
 * 1 from A to S1, DrDLID = B's LID 11. S1 ends the directed part and
 * LID-routes it (S1 -> S2 -> B by the LFTs); B's reply is LID-routed back
 * to S1 (LID 1), which walks ReturnPath[1] = 1 to A.
 */
static int
test_dr_lid_tail(void)
{
	struct fab_mad_addr a;
	uint8_t mad[256];

	get_mad(mad, MAD_CLASS_SMI_DR, SMP_ATTR_NODE_INFO);
	mad[MAD_DR_HOP_CNT] = 1;
	mad_set16(mad, MAD_DR_SLID, 0xffff);
	mad_set16(mad, MAD_DR_DLID, 11);
	mad[MAD_DR_INITIAL_PATH + 1] = 1;
	memset(&a, 0, sizeof(a));
	a.dlid = 0xffff;
	a.slid = 0xffff;

	fab_node_send_mad(fab, &A->ports[1], &a, mad, sizeof(mad), -1, 0);
	run();
	TEST_ASSERT_EQUAL(S1->ports[3].cnt.xmit_pkts, 1, "S1 LID-routed the tail");
	TEST_ASSERT_EQUAL(B->ports[1].cnt.rcv_pkts, 1, "request at B");
	TEST_ASSERT(B->ports[1].cnt.xmit_pkts != 0, "B's SMA answered");
	TEST_ASSERT_EQUAL(S2->ports[5].cnt.xmit_pkts, 1, "reply LID-routed to S1");
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.xmit_pkts, 1, "S1 walked RP[1]");
	TEST_ASSERT_EQUAL(A->ports[1].cnt.rcv_pkts, 1, "reply at A");
	TEST_ASSERT_EQUAL(S1->ports[3].cnt.rcv_switch_relay_errors +
			  S2->ports[2].cnt.rcv_switch_relay_errors, 0, "no relay error");
	return TEST_SUCCESS;
}

/* QP1: a P_Key not in the table is dropped and counted (IBA 10.9.3). */
static int
test_qp1_pkey_check(void)
{
	static const uint8_t payload[256];
	struct fab_pkt_addr a;
	struct fab_pkt *p = fab_pkt_alloc(fab);

	TEST_ASSERT(p != NULL, "packet");
	memset(&a, 0, sizeof(a));
	a.dlid = 11;
	a.slid = 10;
	a.pkey = 0x1234;		/* B's table holds 0xffff only */
	a.dest_qp = 1;
	a.src_qp = 1;
	a.qkey = 0x80010000u;
	TEST_ASSERT_SUCCESS(pkt_build_ud(p, &a, payload, sizeof(payload)), "build");
	fab_port_xmit(fab, &A->ports[1], p);
	run();
	TEST_ASSERT_EQUAL(B->ports[1].cnt.rcv_pkts, 1, "arrived");
	TEST_ASSERT_EQUAL(B->ports[1].pkey_violations, 1, "P_Key violation");

	/* 0x7fff (limited member of the default partition) matches 0xffff */
	p = fab_pkt_alloc(fab);
	TEST_ASSERT(p != NULL, "packet");
	a.pkey = 0x7fff;
	a.qkey = 0x1;			/* but the GSI Q_Key is wrong */
	TEST_ASSERT_SUCCESS(pkt_build_ud(p, &a, payload, sizeof(payload)), "build");
	fab_port_xmit(fab, &A->ports[1], p);
	run();
	TEST_ASSERT_EQUAL(B->ports[1].pkey_violations, 1, "limited member accepted");
	TEST_ASSERT_EQUAL(B->ports[1].qkey_violations, 1, "Q_Key violation");
	return TEST_SUCCESS;
}

/*
 * IBA 10.9.3 and 13.5.3 for MADs: QP1 of a passive CA accepts a GMP only
 * when its P_Key matches an entry of the port's P_Key table (low 15 bits
 * equal and not zero, at least one full member). Both CAs get the table
 * {0xffff, 0x8123 full member of 0x0123, 0x0456 limited member of 0x0456};
 * each row sends a PerfMgt Get(ClassPortInfo) with the row's P_Key to the
 * other's PMA, both ways. Accepted: the PMA answers with the request's
 * P_Key (IBA 13.5.3: a response uses the request's P_Key), which the
 * requester accepts in turn. Refused: no answer, P_KeyViolations + 1.
 */
static int
gmp_row(struct fab_node *tx, struct fab_node *rx, uint16_t pkey, bool ok, const char *rule)
{
	struct fab_pkt_addr a;
	struct fab_pkt *p = fab_pkt_alloc(fab);
	uint8_t mad[256];
	uint64_t rx_xmit = rx->ports[1].cnt.xmit_pkts, tx_rcv = tx->ports[1].cnt.rcv_pkts;
	uint16_t rx_viol = rx->ports[1].pkey_violations, tx_viol = tx->ports[1].pkey_violations;

	printf("  %s -> %s: GMP with P_Key 0x%04x: %s\n", tx->name, rx->name, pkey, rule);
	TEST_ASSERT(p != NULL, "packet");
	get_mad(mad, MAD_CLASS_PERF, MAD_ATTR_CLASS_PORT_INFO);
	mad_set64(mad, MAD_TID, 0x4711);
	memset(&a, 0, sizeof(a));
	a.dlid = rx->ports[1].lid;
	a.slid = tx->ports[1].lid;
	a.pkey = pkey;
	a.dest_qp = 1;
	a.src_qp = 1;
	a.qkey = 0x80010000u;
	TEST_ASSERT_SUCCESS(pkt_build_ud(p, &a, mad, sizeof(mad)), "build");
	fab_port_xmit(fab, &tx->ports[1], p);
	run();
	if (ok) {
		TEST_ASSERT_EQUAL(rx->ports[1].pkey_violations, rx_viol, "%s: no violation", rule);
		TEST_ASSERT_EQUAL(rx->ports[1].cnt.xmit_pkts, rx_xmit + 1, "%s: the PMA answered",
				  rule);
		TEST_ASSERT_EQUAL(tx->ports[1].cnt.rcv_pkts, tx_rcv + 1, "answer back");
		TEST_ASSERT_EQUAL(tx->ports[1].pkey_violations, tx_viol,
				  "%s: the requester accepts the answer's P_Key", rule);
	} else {
		TEST_ASSERT_EQUAL(rx->ports[1].pkey_violations, rx_viol + 1,
				  "%s: P_KeyViolations + 1", rule);
		TEST_ASSERT_EQUAL(rx->ports[1].cnt.xmit_pkts, rx_xmit, "%s: no answer", rule);
	}
	return TEST_SUCCESS;
}

#define GMP_ROW(pkey, ok, rule) do { \
	TEST_ASSERT_SUCCESS(gmp_row(A, B, pkey, ok, rule), "A -> B"); \
	TEST_ASSERT_SUCCESS(gmp_row(B, A, pkey, ok, rule), "B -> A"); \
} while (0)

static int
test_gmp_pkey_membership(void)
{
	static const uint16_t table[] = { 0xffff, 0x8123, 0x0456 };

	memcpy(A->ports[1].pkeys, table, sizeof(table));
	memcpy(B->ports[1].pkeys, table, sizeof(table));
	GMP_ROW(0xffff, true, "default partition, full/full: answered");
	GMP_ROW(0x7fff, true, "default partition, limited requester: answered");
	GMP_ROW(0x8123, true, "full/full: answered");
	GMP_ROW(0x0123, true, "limited requester, full responder: answered");
	GMP_ROW(0x8456, true, "full requester, limited responder: answered");
	GMP_ROW(0x0456, false, "limited/limited: dropped");
	GMP_ROW(0x8789, false, "a partition not in the table: dropped");
	GMP_ROW(0x0000, false, "P_Key 0 (invalid) matches nothing: dropped");
	/* a table holding only the limited default member refuses a limited GMP */
	A->ports[1].pkeys[0] = 0x7fff;
	B->ports[1].pkeys[0] = 0x7fff;
	GMP_ROW(0x7fff, false, "default partition, limited/limited: dropped");
	return TEST_SUCCESS;
}

/* A CA's MAD to its own LID loops back without touching the cable. */
static int
test_ca_loopback(void)
{
	struct fab_mad_addr a;
	uint8_t mad[256];
	uint64_t moved = fab->pkts_moved;

	get_mad(mad, MAD_CLASS_PERF, PMA_ATTR_PORT_COUNTERS);
	mad[MAD_GMP_DATA + PC_PORT_SELECT] = 1;
	memset(&a, 0, sizeof(a));
	a.dlid = 10;
	a.dqp = 1;
	a.sqp = 1;
	fab_node_send_mad(fab, &A->ports[1], &a, mad, sizeof(mad), -1, 0);
	run();
	TEST_ASSERT_EQUAL(A->ports[1].cnt.xmit_pkts, 0, "nothing on the cable");
	TEST_ASSERT_EQUAL(A->ports[1].cnt.rcv_pkts, 0, "loop-back is not link traffic");
	TEST_ASSERT(fab->pkts_moved > moved, "went through the FIFO");
	return TEST_SUCCESS;
}

/*
 * A capture holds what the transmitter sent: with a link corrupting
 * every packet, the pcap record still has good CRCs while the receiver
 * counts a PortRcvErrors.
 */
static int
test_capture_before_fault(void)
{
	char path[128], err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *ph;
	const u_char *d;
	struct fab_pkt pk;
	struct fab_hdrs h;
	pcap_t *pd;
	int rc;

	snprintf(path, sizeof(path), "%s/all.pcap", tmpdir);
	TEST_ASSERT_SUCCESS(fab_capture_start(fab, &A->ports[1], path), "capture");
	TEST_ASSERT_SUCCESS(fab_link_set_faults(&A->ports[1], 0, 1000000), "corrupt all");
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 11, 5, 77, 100), "send");
	run();
	fab_capture_stop(fab, &A->ports[1]);
	TEST_ASSERT_EQUAL(S1->ports[1].cnt.rcv_errors, 1, "receiver saw the damage");

	pd = pcap_open_offline(path, err);
	TEST_ASSERT(pd != NULL, "open: %s", err);
	rc = pcap_next_ex(pd, &ph, &d);
	if (rc == 1) {
		pk.len = ph->caplen;
		memcpy(pk.data, d, ph->caplen);
	}
	pcap_close(pd);
	TEST_ASSERT_EQUAL(rc, 1, "one record");
	TEST_ASSERT_SUCCESS(pkt_parse(&pk, &h), "captured packet has good CRCs");
	TEST_ASSERT_EQUAL(h.psn, 77, "it is ours");
	return TEST_SUCCESS;
}

static unsigned int hook_calls;
static uint32_t hook_qp;

static void
hook_recv(struct fabric *f, struct fab_port *in, struct fab_pkt *p, const struct fab_hdrs *h)
{
	(void)in;
	hook_calls++;
	hook_qp = h->dest_qp;
	fab_pkt_free(f, p);
}

/* An active HCA's packets go to the device model's hook, not node_io.c's firmware. */
static int
test_active_hca_hook(void)
{
	B->active_hca = true;
	fab->hca_recv = hook_recv;
	hook_calls = 0;
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 11, 0x42, 0, 16), "send");
	run();
	TEST_ASSERT_EQUAL(hook_calls, 1, "hook got it");
	TEST_ASSERT_EQUAL(hook_qp, 0x42, "parsed headers passed on");
	B->active_hca = false;
	TEST_ASSERT_SUCCESS(send_ud(&A->ports[1], 11, 0x42, 0, 16), "send");
	run();
	TEST_ASSERT_EQUAL(hook_calls, 1, "passive again");
	return TEST_SUCCESS;
}

static struct unit_test_suite forward_suite = {
	.suite_name = "ibfabric forwarding (link.c, switch.c, node_io.c, capture.c)",
	.unit_test_cases = {
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_lft_unicast),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_mft_replication),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_drop_counters),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_fifo_order),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_dr_two_switches),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_lid_routed_smp),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_smp_needs_vl15),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_dr_hop_count_zero),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_dr_mixed_path),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_dr_lid_tail),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_qp1_pkey_check),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_gmp_pkey_membership),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_ca_loopback),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_capture_before_fault),
		TEST_CASE_ST(fabric_setup, fabric_teardown, test_active_hca_hook),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&forward_suite);
}
