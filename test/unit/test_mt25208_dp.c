/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of the MT25208 model's data path (app/ibfabric/mt25208/mt25208_dp*.c),
 * in one process: two models on a one-switch fabric, each driven by the
 * driver-less host library (test/lib/hca_host) through
 * plain-memory BARs, the model run from the host's wait loops. No SM: the
 * test sets LIDs, the switch's LFT and port states itself.
 *
 * Expected values come from Linux mthca / rdma-core (cited by function),
 * the IBA and the topology below, derived in each case's comment.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "test.h"

#include "fab_link.h"
#include "fab_log.h"
#include "fab_node.h"
#include "fab_pkt.h"
#include "fab_route.h"
#include "fabric.h"
#include "hh_host.h"
#include "mt25208.h"
#include "mt25208_dp.h"
#include "mt25208_host.h"
#include "port_state.h"
#include "topo.h"

#define DMA_SIZE	(40u << 20)
#define DMA_IOVA	0x0000004000000000ull
#define LID_SW		1
#define LID_A		2
#define LID_B		3
#define MLID		0xc001

static const char net[] =
	"Switch 4 \"sw\"\n"
	"[1] \"a\"[1]\n"
	"[2] \"b\"[1]\n"
	"Ca 2 \"a\" active=mt25208\n"
	"[1] \"sw\"[1]\n"
	"Ca 2 \"b\" active=mt25208\n"
	"[1] \"sw\"[2]\n";

struct side {
	struct mt25208 *dev;
	uint8_t *bar0, *bar2, *dma;
	struct hh_host h;
	struct fab_node *node;
};

static struct fabric *fab;
static struct side A, B;

static void
run_all(void *arg)
{
	(void)arg;
	/* ibfabric's pass over each model (hca_set_poll()) */
	mt25208_host_poll(A.dev);
	mt25208_host_poll(B.dev);
	fabric_run(fab, 1024);
}

static int
side_irq(void *arg, uint32_t vector)
{
	struct side *s = arg == &A.h ? &A : &B;
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	s->dev->vec_fd[vector & 0x7f] = dup(fd);
	return fd;
}

static void
idle_a(void *arg)
{
	run_all(arg);
}

static int
side_new(struct side *s, const char *name)
{
	s->node = fabric_find_node(fab, name);
	if (s->node == NULL)
		return -1;
	s->bar0 = aligned_alloc(4096, MT_BAR0_SIZE);
	s->bar2 = aligned_alloc(4096, MT_BAR2_SIZE);
	s->dma = aligned_alloc(1u << 21, DMA_SIZE);
	if (s->bar0 == NULL || s->bar2 == NULL || s->dma == NULL)
		return -1;
	memset(s->bar0, 0, MT_BAR0_SIZE);
	memset(s->bar2, 0, MT_BAR2_SIZE);
	s->dev = mt25208_new(fab, s->node, s->bar0, s->bar2, MT_BAR2_SIZE);
	if (s->dev == NULL || mt25208_dp_init(s->dev) != 0)
		return -1;
	if (mt25208_dma_map(s->dev, DMA_IOVA, DMA_SIZE, s->dma, NULL, 0) != 0)
		return -1;
	s->h.d.idle = idle_a;
	s->h.d.idle_arg = &s->h;
	s->h.d.get_irq = side_irq;
	s->h.name = name;
	/* HCA_HOST_STYLE=ipxe: the same cases as iPXE drives the silicon */
	if (getenv("HCA_HOST_STYLE") != NULL &&
	    hh_style_parse(getenv("HCA_HOST_STYLE"), &s->h.d.style) != 0)
		return -1;
	return hh_attach_mem(&s->h.d, s->bar0, s->bar2, MT_BAR2_SIZE, s->dma, DMA_IOVA, DMA_SIZE);
}

static void
side_free(struct side *s)
{
	if (s->dev != NULL) {
		hh_close(&s->h.d);
		mt25208_dp_free(s->dev);
		mt25208_free(s->dev);
	}
	free(s->bar0);
	free(s->bar2);
	free(s->dma);
	memset(s, 0, sizeof(*s));
}

/* What an SM would do: LIDs, LFT, MFT, every port Active. */
static void
configure_subnet(void)
{
	struct fab_node *sw = fabric_find_node(fab, "sw");
	struct fab_port *pa = &A.node->ports[1], *pb = &B.node->ports[1];
	unsigned int i;

	sw->ports[0].lid = LID_SW;
	sw->sw->lft[LID_A] = 1;
	sw->sw->lft[LID_B] = 2;
	sw->sw->lft_top = 16;
	/* MFT: MLID 0xc001 to port 2 (b) only; block 0 holds ports 0..15 */
	sw->sw->mft[MLID - 0xc000][0] = 1u << 2;
	pa->lid = LID_A;
	pb->lid = LID_B;
	for (i = 0; i <= sw->nports; i++)
		sw->ports[i].state = FAB_PORT_ACTIVE;
	pa->state = FAB_PORT_ACTIVE;
	pb->state = FAB_PORT_ACTIVE;
}

static int
setup(void)
{
	char err[256];
	unsigned int i;

	fab = fabric_new();
	if (fab == NULL || topo_parse_buf(fab, "dp.net", net, sizeof(net) - 1, err, sizeof(err)) != 0) {
		printf("topology: %s\n", err);
		return -1;
	}
	for (i = 0; i < fab->nnodes; i++) {
		unsigned int p;

		for (p = 1; p <= fab->nodes[i]->nports; p++)
			port_state_link_update(fab, &fab->nodes[i]->ports[p]);
	}
	if (side_new(&A, "a") != 0 || side_new(&B, "b") != 0)
		return -1;
	return 0;
}

static void
teardown(void)
{
	side_free(&A);
	side_free(&B);
	fabric_free(fab);
	fab = NULL;
}

/*
 * Bring-up of both hosts, then the port-change EQE: mthca_eq_int() says the
 * PORT_CHANGE EQE on entering Active has subtype 4 and port << 28 at 0x0c.
 */
static int
test_bringup_and_port_change(void)
{
	TEST_ASSERT_SUCCESS(hh_host_up(&A.h), "host A bring-up to QPs in RTS");
	TEST_ASSERT_SUCCESS(hh_host_up(&B.h), "host B bring-up to QPs in RTS");
	configure_subnet();
	run_all(NULL);
	hh_host_service(&A.h);
	hh_host_service(&B.h);
	TEST_ASSERT(A.h.port_active && B.h.port_active, "PORT_CHANGE active EQEs on both hosts");
	TEST_ASSERT_EQUAL(A.h.bad_events + B.h.bad_events, 0, "EQE port fields");
	return TEST_SUCCESS;
}

/*
 * One UD datagram A -> B, 256 bytes. Expected receive CQE (mthca_poll_one(),
 * 16.4): my_qpn = B's UD QPN; rqpn = A's UD QPN (DETH SrcQP); SL 0; no
 * GRH, path bits 0 (LMC 0); rlid = LID_A; P_Key index 0; byte_cnt = 40 +
 * 256 = 296; wqe = 0 (first RQ WQE); opcode 0x64; is_send 0. Send CQE
 * (mthca_arbel_post_send()): my_qpn = A's QPN, wqe = send_wqe_offset + 0, opcode
 * 0x0a, is_send 0x80.
 */
static int
test_ud_datagram(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	uint8_t cqe[32];
	unsigned int i;

	dst.dqpn = B.h.ud.qpn;
	for (i = 0; i < 256; i++)
		A.h.payload.va[i] = (uint8_t)(i ^ 0x5a);
	hh_cq_arm(&B.h.d, &B.h.rcq, false);
	TEST_ASSERT_SUCCESS(hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 256, true),
			    "post");
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send CQE");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_MY_QPN), A.h.ud.qpn, "send my_qpn");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE), hh_sq_addr(&A.h.ud, 0), "send wqe");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x0a, "send opcode");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_IS_SEND), 0x80, "is_send");
	TEST_ASSERT(hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 2000), "receive CQE");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_MY_QPN), B.h.ud.qpn, "recv my_qpn");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_RQPN), A.h.ud.qpn, "recv rqpn");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_SL), 0, "recv SL");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_G_PATH), 0, "recv g_mlpath");
	TEST_ASSERT_EQUAL(hh_get16(cqe, HH_CQE_RLID), LID_A, "recv rlid");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_IMM_PKEY), 0, "recv P_Key index 0");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_BYTE_CNT), 296, "recv byte_cnt");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE), hh_rq_addr(&B.h.ud, 0), "recv wqe");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x64, "recv opcode");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_IS_SEND), 0, "recv is_send");
	TEST_ASSERT_BUFFERS_EQUAL(B.h.ud.data.va + 40, A.h.payload.va, 256, "payload at +40");
	/* mthca_arbel_arm_cq(): the armed CQ fired one completion EQE with its CQN */
	{
		const uint8_t *eqe = NULL;
		uint64_t v;

		/* the arm may be seen after the CQE (arm-then-poll): then it fires at once */
		for (i = 0; i < 1000 && eqe == NULL; i++) {
			run_all(NULL);
			eqe = hh_eq_next(&B.h.d, &B.h.d.eq[HH_EQ_COMP]);
		}
		TEST_ASSERT(eqe != NULL, "completion EQE");
		TEST_ASSERT_EQUAL(hh_get8(eqe, HH_EQE_TYPE), 0, "COMP type");
		TEST_ASSERT_EQUAL(hh_get32(eqe, HH_EQE_DATA), B.h.rcq.cqn, "COMP CQN");
		TEST_ASSERT(read(B.h.d.eq[HH_EQ_COMP].irq_fd, &v, 8) == 8, "interrupt eventfd");
		TEST_ASSERT(hh_eq_next(&B.h.d, &B.h.d.eq[HH_EQ_COMP]) == NULL, "one EQE only");
	}
	return TEST_SUCCESS;
}

/* 2044 bytes, the IPoIB datagram of a 2048 MTU: fits one packet (IBA 9.2). */
static int
test_ud_2044(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	uint8_t cqe[32];
	unsigned int i;

	dst.dqpn = B.h.ud.qpn;
	for (i = 0; i < 2044; i++)
		A.h.payload.va[i] = (uint8_t)(i * 13);
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 2044, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send CQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x0a, "send ok");
	TEST_ASSERT(hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 2000), "receive CQE");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_BYTE_CNT), 40 + 2044, "byte_cnt");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE), hh_rq_addr(&B.h.ud, 1u), "second RQ WQE");
	TEST_ASSERT_BUFFERS_EQUAL(B.h.ud.data.va + HH_RECV_SLOT + 40, A.h.payload.va, 2044, "payload");
	/* no arm since the last event: no EQE */
	TEST_ASSERT(hh_eq_next(&B.h.d, &B.h.d.eq[HH_EQ_COMP]) == NULL, "disarmed CQ: no EQE");
	return TEST_SUCCESS;
}

/* IBA 10.2.4: a wrong Q_Key is dropped silently, counted in PortInfo. */
static int
test_qkey_drop(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = 0x33333333, .port = 1 };
	uint16_t before = B.node->ports[1].qkey_violations;
	uint8_t cqe[32];

	dst.dqpn = B.h.ud.qpn;
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 64, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send CQE");
	TEST_ASSERT(!hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 100), "no receive CQE");
	TEST_ASSERT_EQUAL(B.node->ports[1].qkey_violations, before + 1, "Q_Key violation counted");
	return TEST_SUCCESS;
}

/*
 * IBA 10.9.3: P_Key 0x0000 (A's ud_bad uses P_Key index 1, which holds 0
 * in a fresh table) matches nothing: dropped, P_KeyViolations + 1.
 */
static int
test_pkey_violation(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	uint16_t before = B.node->ports[1].pkey_violations;
	uint8_t cqe[32];
	const uint8_t *pi;

	dst.dqpn = B.h.ud.qpn;
	TEST_ASSERT_EQUAL(A.node->ports[1].pkeys[1], 0, "index 1 of a fresh P_Key table is 0");
	hh_post_ud_send(&A.h.d, &A.h.ud_bad, &dst, A.h.payload_mr.lkey, 0, 64, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send CQE");
	TEST_ASSERT(!hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 100), "no receive CQE");
	TEST_ASSERT_EQUAL(B.node->ports[1].pkey_violations, before + 1, "P_Key violation counted");
	pi = hh_host_port_info(&B.h);
	TEST_ASSERT(pi != NULL, "PortInfo");
	TEST_ASSERT_EQUAL(hh_get16(pi, 64 + 46), before + 1, "PortInfo P_KeyViolations (IBA 14.2.5.6)");
	return TEST_SUCCESS;
}

/* ---- partitions (IBA 10.9.3) ----------------------------------------------- */

/*
 * The P_Key table both ports get (same on A and B, so every row runs both
 * ways): index 0 the default partition (full), 1 empty, 2 and 3 the full
 * and the limited member of partition 0x0123, 4 the full member of a
 * second partition 0x0456, 5 the limited member of the default partition.
 * One UD QP per used index on each side, QPN index 20 + P_Key index.
 */
#define PK_P1_FULL	0x8123
#define PK_P1_LIM	0x0123
#define PK_P2_FULL	0x8456
#define PK_DEF_LIM	0x7fff
#define PK_NIX		6

static const uint16_t pk_table[PK_NIX] = { 0xffff, 0, PK_P1_FULL, PK_P1_LIM, PK_P2_FULL,
					   PK_DEF_LIM };
static struct hh_qp pk_qp[2][PK_NIX];
static char pk_dir[64];

static struct hh_qp *
pk_qp_of(const struct side *s, unsigned int ix)
{
	return &pk_qp[s == &A ? 0 : 1][ix];
}

static int
pk_side_setup(struct side *s)
{
	struct fab_port *p = &s->node->ports[1];
	unsigned int ix;

	for (ix = 0; ix < PK_NIX; ix++)
		p->pkeys[ix] = pk_table[ix];
	/* an SM at the switch's LID: traps go there, out of this port's link */
	p->sm_lid = LID_SW;
	p->gid_prefix = 0xfe80000000000000ull;
	for (ix = 0; ix < PK_NIX; ix++) {
		struct hh_qp *qp = pk_qp_of(s, ix);

		if (pk_table[ix] == 0)
			continue;
		TEST_ASSERT_SUCCESS(hh_qp_create(&s->h.d, qp, hh_host_qpn(&s->h, 20 + ix),
						 HH_QPST_UD, 1, &s->h.scq, &s->h.rcq, 16),
				    "%s: QP for P_Key index %u", s->h.name, ix);
		qp->qkey = HH_HOST_UD_QKEY;
		TEST_ASSERT_SUCCESS(hh_qp_up(&s->h.d, qp, (uint16_t)ix), "QP to RTS, P_Key index %u",
				    ix);
		TEST_ASSERT_SUCCESS(hh_post_recv(&s->h.d, qp, 8), "receives");
	}
	return TEST_SUCCESS;
}

static int
pk_setup(void)
{
	snprintf(pk_dir, sizeof(pk_dir), "/tmp/test_mt25208_dp.XXXXXX");
	if (mkdtemp(pk_dir) == NULL)
		return TEST_FAILED;
	if (pk_side_setup(&A) != TEST_SUCCESS || pk_side_setup(&B) != TEST_SUCCESS)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

/*
 * The trap the receiver sent for a refused packet, from a capture of its
 * link: LID-routed SubnTrap(Notice) to the SM (IBA 14.2.1.1, 13.4.8.2
 * table 122), generic, type Security (table 146: traps 256..259), producer
 * CA, trap 257, IssuerLID the receiver; DataDetails of notice 257 (IBA
 * 14.2.5.1 table 147): reserved 16 bits, LID1 the packet's SLID, LID2 its
 * DLID, Key its P_Key (32 bits, P_Key in the low 16), SL [31:28] and QP1
 * [23:0] the source QP, QP2 [23:0] the destination QP, GID1 the SGID and
 * GID2 the DGID when the packet had a GRH, else zero. Expected values come
 * from the row, never from the model.
 */
struct pk_expect {
	uint16_t slid, dlid, pkey;
	uint8_t sl;
	uint32_t sqp, dqp;
	bool grh;
	uint8_t sgid[16], dgid[16];
};

static int
pk_check_trap(const char *path, const struct pk_expect *e)
{
	char err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *ph;
	const uint8_t *d, *m, *n, *dd;
	uint8_t pkt[8 + 12 + 8 + 256];
	unsigned int traps = 0;
	uint8_t zero[16] = { 0 };
	pcap_t *pd;

	pd = pcap_open_offline(path, err);
	TEST_ASSERT(pd != NULL, "open %s: %s", path, err);
	while (pcap_next_ex(pd, &ph, &d) == 1) {
		/* LRH: LNH 2 (no GRH), DLID the SM; BTH DestQP 0; MAD class 0x01 */
		if (ph->caplen < 8 + 12 + 8 + 256 || (d[1] & 3) != 2 ||
		    hh_get16(d, 2) != LID_SW || d[8] != 0x64 ||
		    (hh_get32(d, 8 + 4) & 0xffffff) != 0 || d[28 + 1] != 0x01)
			continue;
		if (d[28 + 3] != 0x05 || hh_get16(d, 28 + 16) != 0x0002)
			continue;
		if (traps++ == 0)
			memcpy(pkt, d, sizeof(pkt));	/* d is pcap's until the next read */
	}
	pcap_close(pd);
	TEST_ASSERT(traps != 0, "no SubnTrap(Notice) to the SM (LID %u) in %s", LID_SW, path);
	m = pkt + 28;
	n = m + 64;
	dd = n + 10;
	TEST_ASSERT_EQUAL(hh_get16(pkt, 6), e->dlid, "trap sent from the receiver's LID");
	TEST_ASSERT_EQUAL(m[2], 1, "SMP class version 1");
	TEST_ASSERT_EQUAL(n[0], 0x80 | 2, "IsGeneric 1, Type 2 (Security)");
	TEST_ASSERT_EQUAL((uint32_t)n[1] << 16 | hh_get16(n, 2), 1, "ProducerType CA");
	TEST_ASSERT_EQUAL(hh_get16(n, 4), 257, "TrapNumber 257 (Bad P_Key)");
	TEST_ASSERT_EQUAL(hh_get16(n, 6), e->dlid, "IssuerLID");
	TEST_ASSERT_EQUAL(hh_get16(dd, 0), 0, "DataDetails reserved");
	TEST_ASSERT_EQUAL(hh_get16(dd, 2), e->slid, "LID1 = the packet's SLID");
	TEST_ASSERT_EQUAL(hh_get16(dd, 4), e->dlid, "LID2 = the packet's DLID");
	TEST_ASSERT_EQUAL(hh_get32(dd, 6), e->pkey, "Key = the packet's P_Key");
	TEST_ASSERT_EQUAL(dd[10] >> 4, e->sl, "SL");
	TEST_ASSERT_EQUAL(dd[10] & 0xf, 0, "reserved after SL");
	TEST_ASSERT_EQUAL(hh_get32(dd, 10) & 0xffffff, e->sqp, "QP1 = source QP");
	TEST_ASSERT_EQUAL(hh_get32(dd, 14), e->dqp, "reserved 8 | QP2 = destination QP");
	TEST_ASSERT_BUFFERS_EQUAL(dd + 18, e->grh ? e->sgid : zero, 16, "GID1");
	TEST_ASSERT_BUFFERS_EQUAL(dd + 34, e->grh ? e->dgid : zero, 16, "GID2");
	TEST_ASSERT_EQUAL(traps, 1, "one trap");
	return TEST_SUCCESS;
}

static void
pk_gid(const struct side *s, uint8_t *gid)
{
	const struct fab_port *p = &s->node->ports[1];
	unsigned int i;

	for (i = 0; i < 8; i++) {
		gid[i] = (uint8_t)(p->gid_prefix >> (56 - 8 * i));
		gid[8 + i] = (uint8_t)(p->guid >> (56 - 8 * i));
	}
}

/*
 * One row: @p tx's QP at P_Key index @p tix sends (P_Key = its table entry,
 * IBA 10.9.2) to @p rx's QP at @p rix. Delivered: a receive CQE on that QP
 * with the QP's P_Key index. Refused: no CQE, P_KeyViolations + 1 (IBA
 * 14.2.5.6) and a trap 257 checked field by field.
 */
static int
pk_row(struct side *tx, struct side *rx, unsigned int tix, unsigned int rix, bool ok, bool grh,
       const char *rule)
{
	struct hh_qp *sq = pk_qp_of(tx, tix), *rq = pk_qp_of(rx, rix);
	struct hh_ud_dest dst = { .dlid = rx->node->ports[1].lid, .qkey = HH_HOST_UD_QKEY,
				  .port = 1 };
	uint16_t before = rx->node->ports[1].pkey_violations;
	struct pk_expect e;
	uint8_t cqe[32];
	char path[128];
	int rc;

	printf("  %s -> %s: P_Key 0x%04x (index %u) to a QP at index %u (0x%04x): %s, %s\n",
	       tx->h.name, rx->h.name, tx->node->ports[1].pkeys[tix], tix, rix,
	       rx->node->ports[1].pkeys[rix], ok ? "delivered" : "refused", rule);
	dst.dqpn = rq->qpn;
	memset(&e, 0, sizeof(e));
	if (grh) {
		dst.grh = true;
		pk_gid(rx, dst.dgid);
		pk_gid(tx, e.sgid);
		memcpy(e.dgid, dst.dgid, 16);
	}
	snprintf(path, sizeof(path), "%s/trap.pcap", pk_dir);
	TEST_ASSERT_SUCCESS(fab_capture_start(fab, &rx->node->ports[1], path), "capture");
	memset(tx->h.payload.va, 0xa5, 64);
	TEST_ASSERT_SUCCESS(hh_post_ud_send(&tx->h.d, sq, &dst, tx->h.payload_mr.lkey, 0, 64, true),
			    "post");
	TEST_ASSERT(hh_host_wait_cqe(&tx->h, &tx->h.scq, cqe, 2000), "send CQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x0a, "send completed");
	if (ok) {
		fab_capture_stop(fab, &rx->node->ports[1]);
		TEST_ASSERT(hh_host_wait_cqe(&rx->h, &rx->h.rcq, cqe, 2000), "%s: delivered", rule);
		TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x64, "receive CQE");
		TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_MY_QPN), rq->qpn, "to the addressed QP");
		TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_RQPN), sq->qpn, "from the sending QP");
		TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_IMM_PKEY) >> 16, rix,
				  "CQE P_Key index = the receiving QP's");
		TEST_ASSERT_EQUAL(rx->node->ports[1].pkey_violations, before, "no violation");
		TEST_ASSERT_SUCCESS(hh_post_recv(&rx->h.d, rq, 1), "repost");
		return TEST_SUCCESS;
	}
	TEST_ASSERT(!hh_host_wait_cqe(&rx->h, &rx->h.rcq, cqe, 100), "%s: refused, yet delivered to"
		    " QP 0x%x", rule, hh_get32(cqe, HH_CQE_MY_QPN));
	fab_capture_stop(fab, &rx->node->ports[1]);
	TEST_ASSERT_EQUAL(rx->node->ports[1].pkey_violations, before + 1, "P_KeyViolations + 1");
	e.slid = tx->node->ports[1].lid;
	e.dlid = rx->node->ports[1].lid;
	e.pkey = tx->node->ports[1].pkeys[tix];
	e.sl = 0;
	e.sqp = sq->qpn;
	e.dqp = rq->qpn;
	e.grh = grh;
	rc = pk_check_trap(path, &e);
	unlink(path);
	return rc;
}

/* Every row both ways: A -> B, then B -> A (same tables on both ports). */
#define PK_ROW(tix, rix, ok, grh, rule) do { \
	TEST_ASSERT_SUCCESS(pk_row(&A, &B, tix, rix, ok, grh, rule), "A -> B: %s", rule); \
	TEST_ASSERT_SUCCESS(pk_row(&B, &A, tix, rix, ok, grh, rule), "B -> A: %s", rule); \
} while (0)

/*
 * IBA 10.9.3 membership rules (C10-118..C10-120 as qib_rcv/hfi1 apply
 * them): two P_Keys match when their low 15 bits are equal and not zero
 * and at least one is a full member (bit 15). A UD QP accepts a packet
 * only when its own P_Key (table entry at the QP's P_Key index) matches;
 * a match elsewhere in the port's table does not do.
 */
static int
test_pkey_membership(void)
{
	TEST_ASSERT_SUCCESS(pk_setup(), "tables and QPs");
	PK_ROW(2, 2, true, false, "full/full, same partition: accepted");
	PK_ROW(2, 3, true, false, "full sender, limited receiver: accepted");
	PK_ROW(3, 2, true, false, "limited sender, full receiver: accepted");
	PK_ROW(3, 3, false, false, "limited/limited: refused, though the port also holds the full"
	       " member");
	PK_ROW(4, 2, false, false, "second partition to the first: refused");
	PK_ROW(2, 4, false, false, "first partition to the second: refused");
	PK_ROW(0, 0, true, false, "default partition, full/full: accepted");
	PK_ROW(5, 0, true, false, "default partition, limited sender, full receiver: accepted");
	PK_ROW(0, 5, true, false, "default partition, full sender, limited receiver: accepted");
	PK_ROW(5, 5, false, false, "default partition, limited/limited: refused");
	PK_ROW(0, 2, false, false, "default partition to partition 0x0123: refused");
	PK_ROW(2, 0, false, true, "partition 0x0123 to the default one, with a GRH: refused,"
	       " the trap carries both GIDs");
	return TEST_SUCCESS;
}

/*
 * A port whose table holds only the limited member of a partition: a
 * limited sender finds no match anywhere in it (refused at the port, IBA
 * 10.9.3), a full sender is accepted. And a UD QP whose P_Key index names
 * another partition refuses a packet the port's table would accept (the
 * QP's own check, not only the port's).
 */
static int
test_pkey_port_and_qp_index(void)
{
	struct side *s[2] = { &B, &A };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct side *rx = s[i], *tx = s[1 - i];

		rx->node->ports[1].pkeys[2] = 0;	/* the full member of 0x0123 gone */
		TEST_ASSERT_SUCCESS(pk_row(tx, rx, 3, 3, false, false,
					   "limited/limited, no full member in the table: refused"),
				    "port-level limited/limited");
		TEST_ASSERT_SUCCESS(pk_row(tx, rx, 2, 3, true, false,
					   "full sender to a limited-only table: accepted"),
				    "port-level full/limited");
		rx->node->ports[1].pkeys[2] = PK_P1_FULL;
		/* P_Key 0x8123 is in the table (index 2); the QP at index 4 is 0x8456 */
		TEST_ASSERT_SUCCESS(pk_row(tx, rx, 2, 4, false, false,
					   "the UD QP's P_Key index names another partition:"
					   " refused"), "QP P_Key index check");
		/* ... and the QP at index 0 (default partition) too */
		TEST_ASSERT_SUCCESS(pk_row(tx, rx, 3, 0, false, false,
					   "limited 0x0123 to the QP at the default P_Key:"
					   " refused"), "QP P_Key index check, default");
	}
	rmdir(pk_dir);
	return TEST_SUCCESS;
}

/*
 * QP1 of the HCA (MLX service, no P_Key index of its own) checks a GMP's
 * P_Key against the whole port table (IBA 10.9.3, 13.5.3): with the table
 * of test_pkey_membership, P_Key 0x0123 (limited) matches the full member
 * at index 2 and reaches the host's QP1; 0x0789 and 0x8789 (a partition
 * not in the table) are refused, counted and trapped; QP0 is exempt
 * (P_Key 0x1234 on VL15 is not refused for its P_Key).
 */
static int
qp1_gmp(uint16_t pkey, uint32_t dqp)
{
	struct fab_node *sw = fabric_find_node(fab, "sw");
	static uint8_t mad[256];
	struct fab_pkt_addr a;
	struct fab_pkt *p = fab_pkt_alloc(fab);
	int i;

	TEST_ASSERT(p != NULL, "packet");
	memset(mad, 0, sizeof(mad));
	mad[0] = 1;
	mad[1] = dqp == 0 ? 0x01 : 0x04;
	mad[2] = 1;
	mad[3] = 0x01;
	memset(&a, 0, sizeof(a));
	a.dlid = LID_B;
	a.slid = LID_SW;
	a.pkey = pkey;
	a.dest_qp = dqp;
	a.src_qp = dqp;
	a.vl = dqp == 0 ? 15 : 0;
	a.qkey = 0x80010000u;
	TEST_ASSERT_SUCCESS(pkt_build_ud(p, &a, mad, sizeof(mad)), "build");
	fab_port_xmit(fab, &sw->ports[2], p);
	for (i = 0; i < 20; i++)
		run_all(NULL);
	return TEST_SUCCESS;
}

static int
test_pkey_qp1(void)
{
	const struct mt25208_dp_stats *st = mt25208_dp_stats(B.dev);
	uint64_t recvs = st->recvs, drops = st->drop_pkey;
	uint16_t viol = B.node->ports[1].pkey_violations;
	int i;

	TEST_ASSERT_SUCCESS(qp1_gmp(PK_P1_LIM, 1), "GMP");
	TEST_ASSERT_EQUAL(st->drop_pkey, drops, "limited 0x0123 vs the full member: not refused");
	TEST_ASSERT_EQUAL(st->recvs, recvs + 1, "delivered to QP1");
	TEST_ASSERT_SUCCESS(qp1_gmp(0x0789, 1), "GMP");
	TEST_ASSERT_EQUAL(st->drop_pkey, drops + 1, "partition 0x0789 not in the table: refused");
	TEST_ASSERT_SUCCESS(qp1_gmp(0x8789, 1), "GMP");
	TEST_ASSERT_EQUAL(st->drop_pkey, drops + 2, "partition 0x0789 not in the table: refused");
	TEST_ASSERT_EQUAL(st->recvs, recvs + 1, "neither delivered");
	TEST_ASSERT_EQUAL(B.node->ports[1].pkey_violations, viol + 2, "both counted");
	TEST_ASSERT_SUCCESS(qp1_gmp(0x1234, 0), "SMP");
	TEST_ASSERT_EQUAL(st->drop_pkey, drops + 2, "QP0 does not check P_Keys");
	TEST_ASSERT_EQUAL(st->recvs, recvs + 2, "SMP delivered to QP0");
	for (i = 0; i < 50; i++) {	/* let B's agent consume both MADs */
		run_all(NULL);
		hh_host_service(&B.h);
	}
	return TEST_SUCCESS;
}

/*
 * IBA 10.3.1: a QP receives from RTR on. B's UD QP in INIT (receives
 * posted) gets nothing, counted as a state drop; after INIT2RTR the same
 * datagram arrives.
 */
static int
test_recv_needs_rtr(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	const struct mt25208_dp_stats *st = mt25208_dp_stats(B.dev);
	static struct hh_qp qp;
	uint64_t drops = st->drop_qp_state;
	uint8_t cqe[32];

	TEST_ASSERT_SUCCESS(hh_qp_create(&B.h.d, &qp, hh_host_qpn(&B.h, 30), HH_QPST_UD, 1,
					 &B.h.scq, &B.h.rcq, 16), "QP");
	qp.qkey = HH_HOST_UD_QKEY;
	TEST_ASSERT_EQUAL(hh_qp_modify(&B.h.d, &qp, HH_QPS_RESET, HH_QPS_INIT, 0), 0, "RST2INIT");
	TEST_ASSERT_SUCCESS(hh_post_recv(&B.h.d, &qp, 4), "receives");
	dst.dqpn = qp.qpn;
	/* an iPXE-style QP gets its Q_Key only at RTS2RTS: until then it is 0 */
	if (B.h.d.style == HH_STYLE_IPXE)
		dst.qkey = 0;
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 64, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send CQE");
	TEST_ASSERT(!hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 100), "no receive in INIT");
	TEST_ASSERT_EQUAL(st->drop_qp_state, drops + 1, "dropped for the QP's state");
	TEST_ASSERT_EQUAL(hh_qp_modify(&B.h.d, &qp, HH_QPS_INIT, HH_QPS_RTR, 0), 0, "INIT2RTR");
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 64, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send CQE");
	TEST_ASSERT(hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 2000), "received in RTR");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_MY_QPN), qp.qpn, "by the QP now in RTR");
	return TEST_SUCCESS;
}

/*
 * Multicast (IBA 10.2.4): B's UD QP attached to MGID ff12:401b:ffff::1 in the
 * MGM bucket MGID_HASH names; A sends with a GRH to MLID 0xc001, DestQP
 * 0xffffff. B's CQE has the GRH bit (0x80 at 0x0d) and the 40-byte GRH
 * in the first 40 bytes of the buffer, DGID at GRH bytes 24..39.
 */
static int
test_multicast(void)
{
	static const uint8_t mgid[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0,
					  0, 0, 0, 0, 0, 0, 0, 1 };
	struct hh_dev *d = &B.h.d;
	struct hh_ud_dest dst = { .dlid = MLID, .qkey = HH_HOST_UD_QKEY, .port = 1,
				  .dqpn = 0xffffff };
	static struct hh_qp qp2;
	uint8_t cqe[32], cqe2[32], cqe3[32];
	uint64_t hash = 0;
	uint32_t q1, q2;
	uint8_t *buf;

	/* a second member QP on B: every QP of the group gets a copy */
	TEST_ASSERT_SUCCESS(hh_qp_create(d, &qp2, hh_host_qpn(&B.h, 18), HH_QPST_UD, 1,
					 &B.h.scq, &B.h.rcq, 16), "second member QP");
	qp2.qkey = HH_HOST_UD_QKEY;
	TEST_ASSERT_SUCCESS(hh_qp_up(d, &qp2, 0), "QP to RTS");
	TEST_ASSERT_SUCCESS(hh_post_recv(d, &qp2, 4), "receives");

	memcpy(d->mbox_in.va, mgid, 16);
	TEST_ASSERT_EQUAL(hh_cmd(d, d->mbox_in.iova, &hash, 0, 0, HH_OP_MGID_HASH), 0, "MGID_HASH");
	memset(d->mbox_in.va, 0, HH_MGM_ENTRY_SIZE);
	memcpy(d->mbox_in.va + HH_MGM_GID, mgid, 16);
	hh_put32(d->mbox_in.va, HH_MGM_QP, HH_MGM_QP_VALID | B.h.ud.qpn);
	hh_put32(d->mbox_in.va, HH_MGM_QP + 4, HH_MGM_QP_VALID | qp2.qpn);
	TEST_ASSERT_EQUAL(hh_cmd(d, d->mbox_in.iova, NULL, (uint32_t)(hash & 0xffff), 0,
				 HH_OP_WRITE_MGM), 0, "WRITE_MGM");
	/* A's WQE with the AV's GRH bit and DGID = the MGID */
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 100, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send CQE");
	/* without a GRH the HCA cannot find the group: nothing arrives */
	TEST_ASSERT(!hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 100), "no GRH: not delivered");
	dst.grh = true;
	memcpy(dst.dgid, mgid, 16);
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 100, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send CQE");
	TEST_ASSERT(hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 2000), "multicast receive CQE");
	TEST_ASSERT(hh_host_wait_cqe(&B.h, &B.h.rcq, cqe2, 2000), "second member's CQE");
	q1 = hh_get32(cqe, HH_CQE_MY_QPN);
	q2 = hh_get32(cqe2, HH_CQE_MY_QPN);
	TEST_ASSERT((q1 == B.h.ud.qpn && q2 == qp2.qpn) || (q1 == qp2.qpn && q2 == B.h.ud.qpn),
		    "one copy per member QP (got 0x%x, 0x%x)", q1, q2);
	TEST_ASSERT(!hh_host_wait_cqe(&B.h, &B.h.rcq, cqe3, 50), "no third copy");
	if (q1 != B.h.ud.qpn)
		memcpy(cqe, cqe2, sizeof(cqe));
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_G_PATH) & 0x80, 0x80, "GRH bit");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_BYTE_CNT), 140, "byte_cnt 40 + 100");
	buf = B.h.ud.data.va +
	      (size_t)hh_rq_index(&B.h.ud, hh_get32(cqe, HH_CQE_WQE)) * HH_RECV_SLOT;
	TEST_ASSERT_EQUAL(buf[0] >> 4, 6, "GRH IPVer 6 in the first 40 bytes");
	TEST_ASSERT_BUFFERS_EQUAL(buf + 24, mgid, 16, "GRH DGID");
	return TEST_SUCCESS;
}

/*
 * Errors (handle_error_cqe()): a gather from an IOVA outside every window is a DMA
 * fault -> LOCAL_ACCESS_ERR (0x11), the QP goes to ERR and the next WQE
 * (unsignaled) is flushed (0x05); the receive WQEs posted are flushed
 * too, in order. A wrong L_Key -> LOCAL_PROT_ERR (0x04).
 */
static int
test_errors(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	uint8_t cqe[32];
	uint32_t n = 0, first;
	uint64_t faults = A.dev->stats.dma_faults;

	dst.dqpn = B.h.ud.qpn;
	first = A.h.ud.sq_head & (A.h.ud.sq_max - 1);
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.d.ntmr.lkey, 0x100000, 64, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "error CQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0xff, "send error opcode");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_SYNDROME), 0x11, "LOCAL_ACCESS_ERR");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_VENDOR_ERR), MT_VENDOR_ERR_DMA_FAULT, "vendor_err");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE), hh_sq_addr(&A.h.ud, first),
			  "wqe of the failed WQE");
	TEST_ASSERT(A.dev->stats.dma_faults > faults, "DMA fault counted");
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 64, false);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "flush CQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_SYNDROME), 0x05, "WR_FLUSH_ERR for an unsignaled WQE");
	while (hh_host_wait_cqe(&A.h, &A.h.rcq, cqe, 50)) {
		TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0xfe, "receive flush");
		TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_SYNDROME), 0x05, "receive WR_FLUSH_ERR");
		TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE), hh_rq_addr(&A.h.ud, n), "in order");
		n++;
	}
	TEST_ASSERT_EQUAL(n, HH_HOST_QP_DEPTH / 2, "all posted receives flushed");
	hh_post_ud_send(&A.h.d, &A.h.ud_bad, &dst, A.h.payload_mr.lkey ^ 0x01, 0, 64, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "bad L_Key CQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_SYNDROME), 0x04, "LOCAL_PROT_ERR");
	TEST_ASSERT_EQUAL(A.bar0[MT_BAR0_CATAS], 0, "no catastrophic error for data faults");
	return TEST_SUCCESS;
}

/*
 * A receive scatter list shorter than 40 + payload: LOCAL_LENGTH_ERR
 * (0x01) on that receive WQE (MTHCA_INVAL_LKEY); byte count 40 + 256 > 100.
 */
static int
test_local_length(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	static struct hh_qp qp;
	uint8_t cqe[32];

	TEST_ASSERT_SUCCESS(hh_qp_create(&B.h.d, &qp, hh_host_qpn(&B.h, 9), HH_QPST_UD, 1,
					 &B.h.scq, &B.h.rcq, 16), "QP");
	qp.qkey = HH_HOST_UD_QKEY;
	TEST_ASSERT_SUCCESS(hh_qp_up(&B.h.d, &qp, 0), "QP to RTS");
	hh_post_recv_sge(&B.h.d, &qp, B.h.d.ntmr.lkey, qp.data.iova, 100);
	dst.dqpn = qp.qpn;
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 256, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send CQE");
	TEST_ASSERT(hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 2000), "receive CQE");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_MY_QPN), qp.qpn, "my_qpn");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0xfe, "receive error CQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_SYNDROME), 0x01, "LOCAL_LENGTH_ERR");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE), hh_rq_addr(&qp, 0), "wqe of the receive");
	return TEST_SUCCESS;
}

/*
 * After a delivery the model asks for the first payload line of the QP's
 * next posted receive (prefetch_next_recv(), a hint): a next WQE whose
 * buffer is outside every DMA window must not count a DMA fault then;
 * the delivery into it does, as LOCAL_ACCESS_ERR with the DMA fault
 * vendor syndrome on that WQE.
 */
static int
test_next_recv_hint(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	static struct hh_qp qp;
	uint64_t faults;
	uint8_t cqe[32];

	TEST_ASSERT_SUCCESS(hh_qp_create(&B.h.d, &qp, hh_host_qpn(&B.h, 10), HH_QPST_UD, 1,
					 &B.h.scq, &B.h.rcq, 16), "QP");
	qp.qkey = HH_HOST_UD_QKEY;
	TEST_ASSERT_SUCCESS(hh_qp_up(&B.h.d, &qp, 0), "QP to RTS");
	hh_post_recv_sge(&B.h.d, &qp, B.h.d.ntmr.lkey, qp.data.iova, HH_RECV_SLOT);
	/* the bus address test_errors() gathers from: in no window */
	hh_post_recv_sge(&B.h.d, &qp, B.h.d.ntmr.lkey, 0x100000, HH_RECV_SLOT);
	dst.dqpn = qp.qpn;
	faults = B.dev->stats.dma_faults;
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 256, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send CQE");
	TEST_ASSERT(hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 2000), "receive CQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x64, "first receive completes");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE), hh_rq_addr(&qp, 0), "into WQE 0");
	TEST_ASSERT_EQUAL(B.dev->stats.dma_faults, faults, "no fault for the next WQE's hint");
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 256, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "second send CQE");
	TEST_ASSERT(hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 2000), "second receive CQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0xfe, "receive error CQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_SYNDROME), 0x11, "LOCAL_ACCESS_ERR");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_VENDOR_ERR), MT_VENDOR_ERR_DMA_FAULT, "vendor_err");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE), hh_rq_addr(&qp, 1), "on WQE 1");
	TEST_ASSERT_EQUAL(B.dev->stats.dma_faults, faults + 1, "one fault, the delivery's");
	return TEST_SUCCESS;
}

/*
 * mthca_hw.rst: WQE n's predecessor names it in nda_op[31:6]; a chain that does
 * not (here WQE 0's predecessor, WQE 15, pointing at WQE 3) is a local QP
 * operation error (0x02) on WQE 0, the QP goes to ERR.
 */
static int
test_bad_chain(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	static struct hh_qp qp;
	uint8_t cqe[32], *prev;

	TEST_ASSERT_SUCCESS(hh_qp_create(&A.h.d, &qp, hh_host_qpn(&A.h, 11), HH_QPST_UD, 1,
					 &A.h.scq, &A.h.rcq, 16), "QP");
	qp.qkey = HH_HOST_UD_QKEY;
	TEST_ASSERT_SUCCESS(hh_qp_up(&A.h.d, &qp, 0), "QP to RTS");
	dst.dqpn = B.h.ud.qpn;
	hh_post_ud_send(&A.h.d, &qp, &dst, A.h.payload_mr.lkey, 0, 64, true);
	/* the model has not run since the doorbell: break the link */
	prev = hh_sq_wqe(&qp, 15u);
	hh_put32(prev, HH_WQE_NDA_OP, (hh_sq_addr(&qp, 3u)) | HH_OPCODE_SEND);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "CQE");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_MY_QPN), qp.qpn, "my_qpn");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0xff, "send error CQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_SYNDROME), 0x02, "LOCAL_QP_OP_ERR");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE), hh_sq_addr(&qp, 0), "wqe of WQE 0");
	return TEST_SUCCESS;
}

/* xorshift64: a deterministic stream for the garbage tests */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/*
 * Host memory is the host's: garbage send WQEs (valid chain, random body:
 * flags, AV, QPN, Q_Key, segments with random or real L_Keys, addresses
 * and lengths, inline headers) must end in completions or error CQEs,
 * never in a crash or a read outside what the MR check allows (the test
 * runs clean under ASan). The QP is reset after each error.
 */
static int
test_garbage_wqes(void)
{
	static struct hh_qp qp;
	uint8_t cqe[32];
	unsigned int round, got = 0, errs = 0;

	TEST_ASSERT_SUCCESS(hh_qp_create(&A.h.d, &qp, hh_host_qpn(&A.h, 12), HH_QPST_UD, 1,
					 &A.h.scq, &A.h.rcq, 16), "QP");
	qp.qkey = HH_HOST_UD_QKEY;
	TEST_ASSERT_SUCCESS(hh_qp_up(&A.h.d, &qp, 0), "QP to RTS");
	for (round = 0; round < 300; round++) {
		uint32_t ind = qp.sq_head & (qp.sq_max - 1), i, size = 1 + rnd() % 8;
		uint8_t *w = hh_sq_wqe(&qp, ind);
		uint8_t *prev = hh_sq_wqe(&qp, (ind - 1) & (qp.sq_max - 1));

		for (i = 8; i < (1u << qp.sq_shift); i += 4)
			hh_put32(w, i, rnd());
		for (i = 64; i < size * 16; i += 16) {
			switch (rnd() % 4) {
			case 0:		/* real region, random window */
				hh_put32(w, i + 4, A.h.payload_mr.lkey);
				hh_put64(w, i + 8, rnd() % (A.h.payload.len + 64));
				hh_put32(w, i, rnd() % 3000);
				break;
			case 1:		/* physical region, random bus address */
				hh_put32(w, i + 4, A.h.d.ntmr.lkey);
				hh_put64(w, i + 8, ((uint64_t)rnd() << 20) ^ rnd());
				hh_put32(w, i, rnd() % 512);
				break;
			case 2:		/* inline header with a random count */
				hh_put32(w, i, 0x80000000u | (rnd() % 80));
				break;
			default:	/* anything */
				break;
			}
		}
		hh_put32(w, 16, (1u << 24) | A.h.d.pd);	/* port 1 in the AV, mostly */
		hh_put32(w, HH_WQE_FLAGS, rnd() | HH_WQE_F_CQ_UPDATE);	/* signaled: count them */
		hh_put32(prev, HH_WQE_NDA_OP, (hh_sq_addr(&qp, ind)) |
			 (rnd() % 4 ? HH_OPCODE_SEND : rnd() & 0x1f));
		hh_put32(prev, HH_WQE_EE_NDS, HH_NDS_DBD | size);
		qp.sq_head++;
		hh_put32(hh_dbr(&A.h.d, qp.sq_db), 0, qp.sq_head & 0xffff);
		hh_uar_write64(&A.h.d, qp.uar, HH_UAR_SEND, (1u << 24) |
			       (((qp.sq_head - 1) & 0xffff) << 8) | HH_OPCODE_SEND, (qp.qpn << 8) | size);
		/* signaled: exactly one CQE comes for it (success or error) */
		TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "CQE of garbage WQE %u", round);
		got++;
		if ((hh_get8(cqe, HH_CQE_OPCODE) & 0xfe) == 0xfe)
			errs++;
		if ((hh_get8(cqe, HH_CQE_OPCODE) & 0xfe) == 0xfe) {
			/* back to RTS: 2RST, then the ring from the start (mthca_hw.rst) */
			TEST_ASSERT_EQUAL(hh_qp_modify(&A.h.d, &qp, HH_QPS_ERR, HH_QPS_RESET, 0), 0, "2RST");
			qp.sq_head = 0;
			hh_put32(hh_dbr(&A.h.d, qp.sq_db), 0, 0);
			for (i = 0; i < qp.sq_max; i++)
				hh_put32(hh_sq_wqe(&qp, i), HH_WQE_NDA_OP,
					 hh_sq_addr(&qp, (i + 1) & (qp.sq_max - 1)));
			TEST_ASSERT_SUCCESS(hh_qp_up(&A.h.d, &qp, 0), "QP back to RTS");
		}
	}
	TEST_ASSERT_EQUAL(got, 300, "one CQE per garbage WQE");
	TEST_ASSERT(errs > 0 && errs < got, "both outcomes seen (%u errors of %u)", errs, got);
	return TEST_SUCCESS;
}

/*
 * Garbage on the wire: UD packets with random DestQP (0, 1, B's QP, the
 * hardware QPNs, random), P_Key, Q_Key, opcode, SL, VL, GRH and payload
 * length arrive at B; each is delivered or dropped and counted, none
 * crashes the model. A good datagram still arrives afterwards.
 */
static int
test_garbage_packets(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	static struct hh_qp qp;
	static uint8_t payload[2200];
	const struct mt25208_dp_stats *st = mt25208_dp_stats(B.dev);
	uint64_t before = st->recvs + st->drop_no_qp + st->drop_qp_state + st->drop_pkey +
			  st->drop_qkey + st->drop_no_wqe + st->drop_malformed + st->mcast_copies;
	uint8_t cqe[32];
	unsigned int i;

	TEST_ASSERT_SUCCESS(hh_qp_create(&B.h.d, &qp, hh_host_qpn(&B.h, 12), HH_QPST_UD, 1,
					 &B.h.scq, &B.h.rcq, 64), "QP");
	qp.qkey = HH_HOST_UD_QKEY;
	TEST_ASSERT_SUCCESS(hh_qp_up(&B.h.d, &qp, 0), "QP to RTS");
	hh_post_recv(&B.h.d, &qp, 60);
	for (i = 0; i < 500; i++) {
		static const uint16_t pkeys[] = { 0xffff, 0x7fff, 0x0000, 0x8001 };
		struct fab_pkt *p = fab_pkt_alloc(fab);
		struct fab_pkt_addr a;
		uint32_t qps[] = { 0, 1, qp.qpn, B.h.d.sqp_start, B.h.d.sqp_start + 2, rnd() & 0xffffff,
				   0xffffff };
		uint32_t len = rnd() % sizeof(payload), k;

		TEST_ASSERT(p != NULL, "packet");
		for (k = 0; k < len; k++)
			payload[k] = (uint8_t)rnd();
		memset(&a, 0, sizeof(a));
		a.vl = rnd() % 3 == 0 ? 15 : 0;
		a.sl = rnd() & 15;
		a.dlid = rnd() % 5 == 0 ? (uint16_t)(0xc000 + (rnd() & 3)) :
			 rnd() % 7 == 0 ? 0xffff : LID_B;
		a.slid = LID_A;
		a.grh = rnd() % 4 == 0;
		a.pkey = pkeys[rnd() % 4];
		a.dest_qp = qps[rnd() % 7];
		a.qkey = rnd() % 2 ? HH_HOST_UD_QKEY : rnd() % 2 ? 0x80010000u : rnd();
		a.src_qp = rnd() & 0xffffff;
		if (pkt_build_ud(p, &a, payload, len) != 0) {
			fab_pkt_free(fab, p);
			continue;
		}
		if (rnd() % 8 == 0)
			p->data[8] = 0x65;	/* SEND with immediate, header unchanged */
		if (rnd() % 8 == 0) {
			p->data[rnd() % p->len] ^= 0x10;	/* a corrupt packet: CRCs must catch it */
			p->crc_valid = false;	/* changed behind pkt.c's back, as a wire fault */
		} else {
			pkt_update_crcs(p);
		}
		fab_pkt_enqueue(fab, &B.node->ports[1], p);
		run_all(NULL);
		while (hh_cq_poll(&B.h.d, &B.h.rcq, cqe))
			;
	}
	TEST_ASSERT(st->recvs + st->drop_no_qp + st->drop_qp_state + st->drop_pkey + st->drop_qkey +
		    st->drop_no_wqe + st->drop_malformed + st->mcast_copies > before,
		    "garbage was seen by the data path");
	/* the model still works: a fresh QP gets a good datagram */
	{
		static struct hh_qp q2;

		TEST_ASSERT_SUCCESS(hh_qp_create(&B.h.d, &q2, hh_host_qpn(&B.h, 13), HH_QPST_UD, 1,
						 &B.h.scq, &B.h.rcq, 16), "QP");
		q2.qkey = HH_HOST_UD_QKEY;
		TEST_ASSERT_SUCCESS(hh_qp_up(&B.h.d, &q2, 0), "QP to RTS");
		hh_post_recv(&B.h.d, &q2, 1);
		dst.dqpn = q2.qpn;
		hh_post_ud_send(&B.h.d, &B.h.ud, &dst, B.h.payload_mr.lkey, 0, 64, false);
		dst.dlid = LID_B;
		TEST_ASSERT(hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 2000), "good datagram after garbage");
		TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_MY_QPN), q2.qpn, "to the fresh QP");
		TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x64, "received");
	}
	return TEST_SUCCESS;
}

/*
 * QPs come and go: 1100 QP numbers (more than the 1024 QPs the data path
 * tracks at once; QPNs above the table size alias one context,
 * mthca_hw.rst) each go RESET -> RTS, send one signaled datagram and go back to
 * RESET. Every send completes: a QP in RESET stops being tracked.
 */
static int
test_qp_churn(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	static struct hh_qp qp;
	uint32_t base, k, i;
	uint8_t cqe[32];

	base = hh_host_qpn(&A.h, 14);
	TEST_ASSERT_SUCCESS(hh_qp_create(&A.h.d, &qp, base, HH_QPST_UD, 1, &A.h.scq, &A.h.rcq, 16),
			    "QP buffers");
	qp.qkey = HH_HOST_UD_QKEY;
	dst.dqpn = 0x123;	/* nobody: the wire drops it, the send still completes */
	for (k = 0; k < 1100; k++) {
		qp.qpn = base + k * A.h.d.num_qps;
		qp.sq_head = 0;
		/* mthca_alloc_db(): the records' identity words name the QP */
		hh_put32(hh_dbr(&A.h.d, qp.sq_db), 0, 0);
		hh_put32(hh_dbr(&A.h.d, qp.sq_db), 4, (qp.qpn << 8) | (HH_DBR_SQ << 5));
		for (i = 0; i < qp.sq_max; i++)
			hh_put32(hh_sq_wqe(&qp, i), HH_WQE_NDA_OP,
				 hh_sq_addr(&qp, (i + 1) & (qp.sq_max - 1)));
		TEST_ASSERT_SUCCESS(hh_qp_up(&A.h.d, &qp, 0), "QP 0x%x to RTS", qp.qpn);
		hh_post_ud_send(&A.h.d, &qp, &dst, A.h.payload_mr.lkey, 0, 16, true);
		TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "CQE of QP 0x%x", qp.qpn);
		TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_MY_QPN), qp.qpn & 0xffffff, "my_qpn");
		TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x0a, "success");
		TEST_ASSERT_EQUAL(hh_qp_modify(&A.h.d, &qp, HH_QPS_RTS, HH_QPS_RESET, 0), 0, "2RST");
	}
	return TEST_SUCCESS;
}

/* ---- strict checks (doc/guides/nics/mthca_hw.rst, "What the model checks") ---- */

static struct hh_qp strict_qp;

/* QP @p qp back to a fresh RTS: 2RST, empty ring, records 0, chain relinked. */
static int
qp_fresh(struct hh_qp *qp)
{
	uint32_t i;

	if (hh_qp_modify(&A.h.d, qp, HH_QPS_ERR, HH_QPS_RESET, 0) != 0)
		return -1;
	qp->sq_head = qp->rq_head = 0;
	hh_put32(hh_dbr(&A.h.d, qp->sq_db), 0, 0);
	hh_put32(hh_dbr(&A.h.d, qp->rq_db), 0, 0);
	for (i = 0; i < qp->sq_max; i++)
		hh_put32(hh_sq_wqe(qp, i), HH_WQE_NDA_OP,
			 hh_sq_addr(qp, (i + 1) & (qp->sq_max - 1)));
	return hh_qp_up(&A.h.d, qp, 0);
}

/* Where the last posted WQE, its predecessor and the QP's send slot are. */
struct strict_ptrs {
	uint8_t *wqe, *prev, *slot;
};

static struct strict_ptrs
strict_ptrs(struct hh_qp *qp)
{
	uint32_t ind = (qp->sq_head - 1) & (qp->sq_max - 1);
	struct strict_ptrs p = {
		.wqe = hh_sq_wqe(qp, ind),
		.prev = hh_sq_wqe(qp, (ind - 1) & (qp->sq_max - 1)),
		.slot = A.bar2 + (size_t)qp->uar * MT_UAR_PAGE_SIZE + MT_UAR_SEND_DB,
	};
	return p;
}

static void bug_db_qpn(struct strict_ptrs p) { p.slot[5] ^= 0x40; }	/* QPN + 0x4000 */
static void bug_db_cnt(struct strict_ptrs p) { p.slot[0] = 0; }
static void bug_db_counter(struct strict_ptrs p) { p.slot[2] += 5; }
static void bug_db_nds(struct strict_ptrs p) { p.slot[7] += 1; }
static void
bug_db_uar(struct strict_ptrs p)
{
	uint8_t *other = A.bar2 + (size_t)A.h.ud.uar * MT_UAR_PAGE_SIZE + MT_UAR_SEND_DB;

	memcpy(other, p.slot, 8);
	memset(p.slot + 4, 0, 4);	/* nothing pending on the QP's own page */
}
static void bug_dbd(struct strict_ptrs p) { p.prev[HH_WQE_EE_NDS + 3] &= 0x7f; }
static void bug_always1(struct strict_ptrs p) { p.wqe[HH_WQE_FLAGS + 3] &= 0xfe; }
static void bug_av_pd(struct strict_ptrs p) { p.wqe[16 + HH_AV_PORT_PD + 3] ^= 1; }
static void bug_av_port(struct strict_ptrs p) { p.wqe[16 + HH_AV_PORT_PD] = 2; }
static void bug_av_rgid(struct strict_ptrs p) { p.wqe[16 + HH_AV_DGID + 15] = 0; }
static void
bug_av_gid_index(struct strict_ptrs p)
{
	p.wqe[16 + HH_AV_G_SLID] |= 0x80;
	p.wqe[16 + HH_AV_GID_INDEX] = 32;	/* port 2's GID 0 on a port-1 QP */
}

/*
 * One row per check: the bug applied to a correctly posted, signaled UD
 * send before the model sees it, the check it breaks and the outcome: an
 * error CQE with @c synd, or none (0) and the QP's state after.
 */
static const struct strict_row {
	const char *name;
	void (*bug)(struct strict_ptrs p);
	enum mt25208_check chk;
	uint8_t synd;
	uint8_t state;
} strict_rows[] = {
	{ "doorbell QPN of no QP", bug_db_qpn, MT25208_CHK_DB_QP, 0, MT_QPS_RTS },
	{ "doorbell on another QP's UAR", bug_db_uar, MT25208_CHK_DB_UAR, 0, MT_QPS_RTS },
	{ "wqe_cnt 0", bug_db_cnt, MT25208_CHK_DB_WQE_CNT, 0, MT_QPS_RTS },
	{ "wqe_counter ahead", bug_db_counter, MT25208_CHK_DB_WQE_COUNTER, 0, MT_QPS_ERR },
	{ "doorbell nds", bug_db_nds, MT25208_CHK_DB_NDS_OP, 0x02, MT_QPS_ERR },
	{ "DBD clear", bug_dbd, MT25208_CHK_WQE_DBD, 0x02, MT_QPS_ERR },
	{ "ctrl always1 clear", bug_always1, MT25208_CHK_CTRL_ALWAYS1, 0x02, MT_QPS_ERR },
	{ "AV PD", bug_av_pd, MT25208_CHK_AV_PD, 0x02, MT_QPS_ERR },
	{ "AV port", bug_av_port, MT25208_CHK_AV_PORT, 0x02, MT_QPS_ERR },
	{ "AV rgid not 2", bug_av_rgid, MT25208_CHK_AV_RGID, 0x02, MT_QPS_ERR },
	{ "AV GID index of port 2", bug_av_gid_index, MT25208_CHK_AV_GID_INDEX, 0x02, MT_QPS_ERR },
};

static int
test_strict_checks(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	struct hh_qp *qp = &strict_qp;
	uint8_t cqe[32];
	unsigned int i;

	dst.dqpn = 0x123;	/* nobody: the wire drops it, the send completes */
	TEST_ASSERT_SUCCESS(hh_qp_create(&A.h.d, qp, hh_host_qpn(&A.h, 18), HH_QPST_UD, 1,
					 &A.h.scq, &A.h.rcq, 16), "QP");
	qp->qkey = HH_HOST_UD_QKEY;
	TEST_ASSERT_SUCCESS(hh_qp_up(&A.h.d, qp, 0), "QP to RTS");
	for (i = 0; i < sizeof(strict_rows) / sizeof(strict_rows[0]); i++) {
		const struct strict_row *r = &strict_rows[i];
		uint64_t before = A.dev->checks[r->chk];

		/* iPXE style rings every QP on its one UAR: there is no other QP's page */
		if (r->bug == bug_db_uar && A.h.ud.uar == qp->uar) {
			printf("  %s: not a bug a one-UAR host can commit\n", r->name);
			continue;
		}
		/* the row without its bug: a plain completion */
		TEST_ASSERT_SUCCESS(qp_fresh(qp), "%s: QP to RTS", r->name);
		hh_post_ud_send(&A.h.d, qp, &dst, A.h.payload_mr.lkey, 0, 16, true);
		TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "%s: clean CQE", r->name);
		TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x0a, "%s: clean send", r->name);
		/* with it */
		hh_post_ud_send(&A.h.d, qp, &dst, A.h.payload_mr.lkey, 0, 16, true);
		r->bug(strict_ptrs(qp));
		if (r->synd != 0) {
			TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "%s: CQE", r->name);
			TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0xff, "%s: error CQE", r->name);
			TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_SYNDROME), r->synd, "%s: syndrome",
					  r->name);
			TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE),
					  hh_sq_addr(qp, 1u), "%s: wqe", r->name);
		} else {
			TEST_ASSERT(!hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 100), "%s: no CQE",
				    r->name);
		}
		TEST_ASSERT_EQUAL(A.dev->checks[r->chk], before + 1, "%s: counted once", r->name);
		TEST_ASSERT_EQUAL(mt_qpc_state(mt25208_qpc(A.dev, qp->qpn)), r->state,
				  "%s: QP state", r->name);
	}
	hh_host_service(&A.h);	/* drain the WQ catastrophic error EQE */
	return TEST_SUCCESS;
}

/*
 * Doorbell rules (mthca_hw.rst, "Doorbells"). Three sends posted with no
 * poll of the model in between leave only the third doorbell in the slot:
 * its wqe_counter (2) is ahead of what the model executed (0) and the SQ
 * record confirms 3 WQEs, so all three complete. A doorbell whose second
 * word has not landed (iPXE writes two 32-bit words) is not acted on
 * until it does. A WQE posted behind a refused doorbell (wqe_cnt 0) runs
 * when the next doorbell covers it.
 */
static int
test_doorbell_rules(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	const struct mt25208_dp_stats *st = mt25208_dp_stats(A.dev);
	struct hh_qp *qp = &strict_qp;
	uint64_t coalesced = st->db_coalesced;
	uint8_t cqe[32], lo[4];
	struct strict_ptrs p;
	unsigned int i;

	dst.dqpn = 0x123;
	TEST_ASSERT_SUCCESS(qp_fresh(qp), "QP to RTS");
	for (i = 0; i < 3; i++)
		hh_post_ud_send(&A.h.d, qp, &dst, A.h.payload_mr.lkey, 0, 16, true);
	for (i = 0; i < 3; i++) {
		TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "CQE %u of 3", i);
		TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE), hh_sq_addr(qp, i),
				  "in order");
	}
	TEST_ASSERT_EQUAL(st->db_coalesced, coalesced + 1, "one doorbell covered two");
	/* torn: first word only */
	hh_post_ud_send(&A.h.d, qp, &dst, A.h.payload_mr.lkey, 0, 16, true);
	p = strict_ptrs(qp);
	memcpy(lo, p.slot + 4, 4);
	memset(p.slot + 4, 0, 4);
	for (i = 0; i < 50; i++)
		run_all(NULL);
	TEST_ASSERT(!hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 20), "no CQE on the first word");
	memcpy(p.slot + 4, lo, 4);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "CQE on the second word");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x0a, "torn doorbell: a plain send");
	/* refused doorbell, then one that covers its WQE */
	hh_post_ud_send(&A.h.d, qp, &dst, A.h.payload_mr.lkey, 0, 16, true);
	bug_db_cnt(strict_ptrs(qp));
	TEST_ASSERT(!hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 50), "nothing for wqe_cnt 0");
	hh_post_ud_send(&A.h.d, qp, &dst, A.h.payload_mr.lkey, 0, 16, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "first of two");
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "second of two");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x0a, "both plain sends");
	return TEST_SUCCESS;
}

/*
 * A doorbell stored before a command's GO is taken before the command
 * runs, as PCIe delivers posted writes in order (mt25208_host_poll()):
 * a send rung on a QP in ERR, then 2RST posted with no pass of the model
 * in between (net_mthca's transmit watch after a failed send). The
 * doorbell finds the QP in ERR and its WQE completes flushed; taken after
 * the 2RST it would find the QP in RESET and be ignored
 * (MT25208_CHK_DB_QP), as mthca_txrecover saw now and then.
 */
static int
test_doorbell_before_command(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	struct hh_qp *qp = &strict_qp;
	uint64_t ignored = A.dev->checks[MT25208_CHK_DB_QP];
	uint8_t cqe[32];

	dst.dqpn = 0x123;
	TEST_ASSERT_SUCCESS(qp_fresh(qp), "QP to RTS");
	TEST_ASSERT_EQUAL(hh_qp_modify(&A.h.d, qp, HH_QPS_RTS, HH_QPS_ERR, 0), 0, "2ERR");
	/* the doorbell, then the command: hh_qp_modify() polls the model only after its GO */
	hh_post_ud_send(&A.h.d, qp, &dst, A.h.payload_mr.lkey, 0, 16, true);
	TEST_ASSERT_EQUAL(hh_qp_modify(&A.h.d, qp, HH_QPS_ERR, HH_QPS_RESET, 0), 0, "2RST");
	TEST_ASSERT_EQUAL(A.dev->checks[MT25208_CHK_DB_QP], ignored,
			  "the doorbell rung before 2RST was taken after it");
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "a CQE for the rung WQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0xff, "an error CQE");
	TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_SYNDROME), HH_SYND_WR_FLUSH, "flushed");
	TEST_ASSERT_SUCCESS(qp_fresh(qp), "QP back to RTS");
	return TEST_SUCCESS;
}

/*
 * RSC clear (QPC params2 bit 3, PRM rsc): only receive WQEs with the C
 * bit complete; the data is scattered either way. The live context is
 * edited here, as a driver's RST2INIT without RSC would have left it.
 */
static int
test_rsc(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	static struct hh_qp qp;
	uint8_t cqe[32], *qpc, *w;

	TEST_ASSERT_SUCCESS(hh_qp_create(&B.h.d, &qp, hh_host_qpn(&B.h, 19), HH_QPST_UD, 1,
					 &B.h.scq, &B.h.rcq, 16), "QP");
	qp.qkey = HH_HOST_UD_QKEY;
	TEST_ASSERT_SUCCESS(hh_qp_up(&B.h.d, &qp, 0), "QP to RTS");
	qpc = mt25208_qpc(B.dev, qp.qpn);
	mt_put32(qpc, MT_QPC_PARAMS2, mt_get32(qpc, MT_QPC_PARAMS2) & ~8u);
	hh_post_recv(&B.h.d, &qp, 2);
	w = hh_rq_wqe(&qp, 1u);
	hh_put32(w, HH_WQE_FLAGS, HH_WQE_F_CQ_UPDATE);	/* receive WQE 1 asks for a CQE */
	dst.dqpn = qp.qpn;
	memset(A.h.payload.va, 0x77, 32);
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 32, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send 1");
	hh_post_ud_send(&A.h.d, &A.h.ud, &dst, A.h.payload_mr.lkey, 0, 32, true);
	TEST_ASSERT(hh_host_wait_cqe(&A.h, &A.h.scq, cqe, 2000), "send 2");
	TEST_ASSERT(hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 2000), "a receive CQE");
	TEST_ASSERT_EQUAL(hh_get32(cqe, HH_CQE_WQE), hh_rq_addr(&qp, 1u), "only WQE 1's (C bit)");
	TEST_ASSERT_EQUAL(qp.data.va[40], 0x77, "WQE 0 got its data all the same");
	TEST_ASSERT(!hh_host_wait_cqe(&B.h, &B.h.rcq, cqe, 50), "no CQE for WQE 0");
	return TEST_SUCCESS;
}

/*
 * CQ overrun (mthca_hw.rst "Completions and events"): a 4-entry CQ whose consumer never moves
 * takes 3 completions (2^n - 1: PRM completion_queue_context.producer_counter,
 * the spare CQE of Linux mthca_create_cq()); the 4th is an overrun: counted,
 * the CQ goes to its error state and the host gets a CQ error event. The model reads
 * the host's set_ci record only when its cached value says the CQ might
 * be full, so a consumer that does move must keep the CQ alive: with
 * set_ci published after every CQE, 12 completions fit the same CQ.
 */
static int
test_cq_overrun(void)
{
	struct hh_ud_dest dst = { .dlid = LID_B, .qkey = HH_HOST_UD_QKEY, .port = 1 };
	static struct hh_cq small, small2;
	static struct hh_qp qp, qp2;
	const struct mt25208_dp_stats *st = mt25208_dp_stats(A.dev);
	uint64_t overruns = st->cq_overruns;
	const uint8_t *eqe = NULL;
	uint8_t cqe[32];
	unsigned int i;

	dst.dqpn = 0x123;	/* nobody: the wire drops it, the send still completes */

	/* a consumer that keeps up: no overrun however many completions */
	TEST_ASSERT_SUCCESS(hh_cq_create(&A.h.d, &small2, A.h.d.rsvd_cqs + 8, 4), "CQ 4");
	TEST_ASSERT_SUCCESS(hh_qp_create(&A.h.d, &qp2, hh_host_qpn(&A.h, 16), HH_QPST_UD, 1,
					 &small2, &A.h.rcq, 16), "QP");
	qp2.qkey = HH_HOST_UD_QKEY;
	TEST_ASSERT_SUCCESS(hh_qp_up(&A.h.d, &qp2, 0), "QP to RTS");
	for (i = 0; i < 12; i++) {
		hh_post_ud_send(&A.h.d, &qp2, &dst, A.h.payload_mr.lkey, 0, 16, true);
		TEST_ASSERT(hh_host_wait_cqe(&A.h, &small2, cqe, 2000), "CQE %u", i);
		TEST_ASSERT_EQUAL(hh_get8(cqe, HH_CQE_OPCODE), 0x0a, "success %u", i);
	}
	TEST_ASSERT_EQUAL(st->cq_overruns, overruns, "a moving consumer: no overrun");

	/* a consumer that never moves */
	TEST_ASSERT_SUCCESS(hh_cq_create(&A.h.d, &small, A.h.d.rsvd_cqs + 7, 4), "CQ 4");
	TEST_ASSERT_SUCCESS(hh_qp_create(&A.h.d, &qp, hh_host_qpn(&A.h, 15), HH_QPST_UD, 1,
					 &small, &A.h.rcq, 16), "QP");
	qp.qkey = HH_HOST_UD_QKEY;
	TEST_ASSERT_SUCCESS(hh_qp_up(&A.h.d, &qp, 0), "QP to RTS");
	for (i = 0; i < 3; i++) {
		hh_post_ud_send(&A.h.d, &qp, &dst, A.h.payload_mr.lkey, 0, 16, true);
		run_all(NULL);
	}
	for (i = 0; i < 100 && hh_get8(small.buf.va + 2 * 32, HH_CQE_OWNER) & HH_OWNER_HW; i++)
		run_all(NULL);
	for (i = 0; i < 20; i++)
		run_all(NULL);
	TEST_ASSERT_EQUAL(st->cq_overruns, overruns, "3 completions fit a 4-entry CQ");
	for (i = 0; i < 3; i++)
		TEST_ASSERT(!(hh_get8(small.buf.va + i * 32, HH_CQE_OWNER) & HH_OWNER_HW),
			    "CQE %u written", i);
	hh_post_ud_send(&A.h.d, &qp, &dst, A.h.payload_mr.lkey, 0, 16, true);
	for (i = 0; i < 100 && st->cq_overruns == overruns; i++)
		run_all(NULL);
	TEST_ASSERT_EQUAL(st->cq_overruns, overruns + 1, "the 4th completion overruns");
	TEST_ASSERT(hh_get8(small.buf.va + 3 * 32, HH_CQE_OWNER) & HH_OWNER_HW,
		    "slot 3 never written");
	for (i = 0; i < 100 && eqe == NULL; i++) {
		run_all(NULL);
		eqe = hh_eq_next(&A.h.d, &A.h.d.eq[HH_EQ_ASYNC]);
		/* skip unrelated async events (port changes) */
		if (eqe != NULL && hh_get32(eqe, HH_EQE_DATA) != small.cqn)
			eqe = NULL;
	}
	TEST_ASSERT(eqe != NULL, "CQ error event for CQ 0x%x", small.cqn);
	return TEST_SUCCESS;
}

/*
 * QP0 and MAD_IFC: a directed-route SubnGet(NodeInfo) from the switch
 * (hop count 1, path [0, 1]) reaches B's QP0 on VL15; the host agent
 * answers through MAD_IFC and an MLX send (VL15, SLR, DLID 0xffff).
 */
static int
test_qp0_smp(void)
{
	struct fab_node *sw = fabric_find_node(fab, "sw");
	struct fab_mad_addr a = { .dlid = 0xffff, .dqp = 0, .sqp = 0 };
	uint8_t mad[256];
	uint64_t sent = mt25208_dp_stats(B.dev)->sends;
	uint64_t rcv = sw->ports[2].cnt.rcv_pkts, bad = sw->ports[2].cnt.rcv_errors;
	int i;

	memset(mad, 0, sizeof(mad));
	mad[0] = 1; mad[1] = 0x81; mad[2] = 1; mad[3] = 0x01;
	hh_put64(mad, 8, 0x77);
	hh_put16(mad, 16, 0x0011);
	mad[6] = 0;		/* hop pointer */
	mad[7] = 1;		/* hop count */
	hh_put16(mad, 32, 0xffff);
	hh_put16(mad, 34, 0xffff);
	mad[128 + 1] = 2;	/* initial path[1]: out of switch port 2, to b */
	fab_node_send_mad(fab, &sw->ports[0], &a, mad, sizeof(mad), -1, 0);
	for (i = 0; i < 200 && mt25208_dp_stats(B.dev)->sends == sent; i++) {
		run_all(NULL);
		hh_host_service(&B.h);
	}
	TEST_ASSERT(mt25208_dp_stats(B.dev)->sends > sent, "B's host answered the SMP via MLX on QP0");
	for (i = 0; i < 20; i++)
		run_all(NULL);
	/* the GetResp reached the switch as a valid packet (VCRC checked per hop) */
	TEST_ASSERT(sw->ports[2].cnt.rcv_pkts > rcv, "reply received by switch port 2");
	TEST_ASSERT_EQUAL(sw->ports[2].cnt.rcv_errors, bad, "no CRC or format error on the reply");
	return TEST_SUCCESS;
}

static struct unit_test_suite suite = {
	.suite_name = "mt25208 data path",
	.setup = setup,
	.teardown = teardown,
	.unit_test_cases = {
		TEST_CASE(test_bringup_and_port_change),
		TEST_CASE(test_ud_datagram),
		TEST_CASE(test_ud_2044),
		TEST_CASE(test_qkey_drop),
		TEST_CASE(test_pkey_violation),
		TEST_CASE(test_pkey_membership),
		TEST_CASE(test_pkey_port_and_qp_index),
		TEST_CASE(test_pkey_qp1),
		TEST_CASE(test_recv_needs_rtr),
		TEST_CASE(test_multicast),
		TEST_CASE(test_qp0_smp),
		TEST_CASE(test_local_length),
		TEST_CASE(test_next_recv_hint),
		TEST_CASE(test_bad_chain),
		TEST_CASE(test_garbage_wqes),
		TEST_CASE(test_garbage_packets),
		TEST_CASE(test_qp_churn),
		TEST_CASE(test_cq_overrun),
		TEST_CASE(test_strict_checks),
		TEST_CASE(test_doorbell_rules),
		TEST_CASE(test_doorbell_before_command),
		TEST_CASE(test_rsc),
		TEST_CASE(test_errors),
		TEST_CASES_END()
	}
};

int
main(void)
{
	return unit_test_suite_runner(&suite);
}
