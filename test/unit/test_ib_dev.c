/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of the IB device core (rte_ib_dev.h, ib_driver.h) and the
 * mbuf dynfield (rte_ib_mbuf.h): the core's bookkeeping, driven through a
 * test device whose ops answer from in-memory tables. No fabric is
 * pretended: these tests check registration, lookup, the cache, argument
 * checks, client and event fan-out, and MAD handler plumbing.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>

#include <ib_driver.h>
#include <rte_ib_dev.h>
#include <rte_ib_mbuf.h>

#include "test.h"

/* --- test device: ops answer from these tables --- */

struct tdev {
	struct rte_ib_device dev;
	struct rte_ib_port_attr port[2];
	uint16_t pkeys[4];
	struct rte_ib_gid gid0;
	unsigned int nb_query_port;
	unsigned int nb_ah;
	uint32_t cap_set, cap_clear;
	/* UD queues and UD ports (t_ud_ops) */
	uint32_t qkey;              /* last ud_qkey_set */
	unsigned int nb_qkey_set;
	uint16_t ud_port;           /* ethdev of the UD port, or RTE_IB_NO_ETH_PORT */
	uint8_t ud_ib_port;
	uint16_t ud_pkey_index;
};

struct tah {
	struct rte_ib_ah hdr;
	uint32_t hw_av;
};

static int
t_query_port(struct rte_ib_device *dev, uint8_t port, struct rte_ib_port_attr *a)
{
	struct tdev *t = dev->dev_private;

	t->nb_query_port++;
	*a = t->port[port - 1];
	return 0;
}

static int
t_query_gid(struct rte_ib_device *dev, uint8_t port, uint16_t index,
	    struct rte_ib_gid *gid)
{
	struct tdev *t = dev->dev_private;

	RTE_SET_USED(port);
	if (index != 0)
		return -EINVAL;
	*gid = t->gid0;
	return 0;
}

static int
t_query_pkey(struct rte_ib_device *dev, uint8_t port, uint16_t index,
	     uint16_t *pkey)
{
	struct tdev *t = dev->dev_private;

	RTE_SET_USED(port);
	if (index >= RTE_DIM(t->pkeys))
		return -EINVAL;
	*pkey = t->pkeys[index];
	return 0;
}

static int
t_modify_port(struct rte_ib_device *dev, uint8_t port, uint32_t set,
	      uint32_t clear)
{
	struct tdev *t = dev->dev_private;

	t->cap_set = set;
	t->cap_clear = clear;
	t->port[port - 1].cap_mask = (t->port[port - 1].cap_mask | set) & ~clear;
	return 0;
}

static int
t_ah_create(struct rte_ib_device *dev, const struct rte_ib_ah_attr *attr,
	    struct rte_ib_ah **ah)
{
	struct tdev *t = dev->dev_private;
	struct tah *a = calloc(1, sizeof(*a));

	if (a == NULL)
		return -ENOMEM;
	a->hw_av = attr->dlid;
	t->nb_ah++;
	*ah = &a->hdr;
	return 0;
}

static int
t_ah_destroy(struct rte_ib_device *dev, struct rte_ib_ah *ah)
{
	struct tdev *t = dev->dev_private;

	t->nb_ah--;
	free(container_of(ah, struct tah, hdr));
	return 0;
}

static const struct rte_ib_dev_ops t_ops = {
	.query_port = t_query_port,
	.query_gid = t_query_gid,
	.query_pkey = t_query_pkey,
	.modify_port = t_modify_port,
	.ah_create = t_ah_create,
	.ah_destroy = t_ah_destroy,
};

/* One rx and one tx queue (queue 0) per ethdev: QPN 0x48 + tx. */
static int
t_ud_queue_info(struct rte_ib_device *dev, uint16_t port_id, uint16_t queue_id,
		bool tx, struct rte_ib_ud_queue_info *info)
{
	struct tdev *t = dev->dev_private;

	if (queue_id != 0)
		return -EINVAL;
	info->qpn = 0x48 + (tx ? 1 : 0);
	info->qkey = t->qkey;
	info->pkey_index = port_id == t->ud_port ? t->ud_pkey_index : 0;
	info->ib_port = port_id == t->ud_port ? t->ud_ib_port : 1;
	return 0;
}

static int
t_ud_qkey_set(struct rte_ib_device *dev, uint16_t port_id, uint32_t qkey)
{
	struct tdev *t = dev->dev_private;

	RTE_SET_USED(port_id);
	t->qkey = qkey;
	t->nb_qkey_set++;
	return 0;
}

static int
t_ud_port_create(struct rte_ib_device *dev, uint8_t ib_port, uint16_t pkey_index,
		 uint16_t *port_id)
{
	struct tdev *t = dev->dev_private;

	if (t->ud_port != RTE_IB_NO_ETH_PORT)
		return -ENOSPC;
	t->ud_port = 20;
	t->ud_ib_port = ib_port;
	t->ud_pkey_index = pkey_index;
	*port_id = t->ud_port;
	return 0;
}

static int
t_ud_port_destroy(struct rte_ib_device *dev, uint16_t port_id)
{
	struct tdev *t = dev->dev_private;

	if (port_id != t->ud_port)
		return -ENODEV;
	t->ud_port = RTE_IB_NO_ETH_PORT;
	return 0;
}

static int
t_ud_port_pkey_index_set(struct rte_ib_device *dev, uint16_t port_id,
			 uint16_t pkey_index)
{
	struct tdev *t = dev->dev_private;

	if (port_id != t->ud_port)
		return -EINVAL;
	t->ud_pkey_index = pkey_index;
	return 0;
}

static int
t_ud_port_lookup(struct rte_ib_device *dev, uint16_t port_id, uint8_t *ib_port)
{
	struct tdev *t = dev->dev_private;

	if (port_id == RTE_IB_NO_ETH_PORT || port_id != t->ud_port)
		return -ENODEV;
	*ib_port = t->ud_ib_port;
	return 0;
}

/* t_ops with the UD queue and UD port ops. */
static const struct rte_ib_dev_ops t_ud_ops = {
	.query_port = t_query_port,
	.query_gid = t_query_gid,
	.query_pkey = t_query_pkey,
	.ud_queue_info = t_ud_queue_info,
	.ud_qkey_set = t_ud_qkey_set,
	.ud_port_create = t_ud_port_create,
	.ud_port_destroy = t_ud_port_destroy,
	.ud_port_pkey_index_set = t_ud_port_pkey_index_set,
	.ud_port_lookup = t_ud_port_lookup,
};

static void
tdev_init(struct tdev *t, const char *name, uint16_t eth0)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->dev.name, sizeof(t->dev.name), "%s", name);
	t->dev.node_guid = UINT64_C(0x0002c90300001230);
	t->dev.node_type = RTE_IB_NODE_CA;
	t->dev.phys_port_cnt = 2;
	t->dev.ops = &t_ops;
	t->dev.dev_private = t;
	t->dev.eth_port_id[0] = eth0;
	t->dev.eth_port_id[1] = RTE_IB_NO_ETH_PORT;
	t->ud_port = RTE_IB_NO_ETH_PORT;
	t->port[0].state = RTE_IB_PORT_DOWN;
	t->port[0].gid_tbl_len = 1;
	t->port[0].pkey_tbl_len = 4;
	t->port[1] = t->port[0];
	/* A limited and a full member of partition 0x1234, then default. */
	t->pkeys[0] = 0x1234;
	t->pkeys[1] = 0x9234;
	t->pkeys[2] = 0xffff;
	t->pkeys[3] = 0x0000;
	rte_ib_gid_set(&t->gid0, RTE_IB_GID_DEFAULT_PREFIX, t->dev.node_guid + 1);
}

/* --- mbuf dynfield --- */

static struct rte_mempool *pool;

static int
test_dynfield_register(void)
{
	int off1, off2;

	off1 = rte_ib_mbuf_dynfield_register();
	TEST_ASSERT(off1 >= 0, "register failed: %s", rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(rte_ib_mbuf_dynfield_offset, off1, "global offset");
	off2 = rte_ib_mbuf_dynfield_register();
	TEST_ASSERT_EQUAL(off2, off1, "second registration moved the field");
	TEST_ASSERT_EQUAL(rte_mbuf_dynfield_lookup(RTE_IB_MBUF_DYNFIELD_NAME, NULL),
			  off1, "lookup by name");
	TEST_ASSERT_EQUAL(off1 % 8, 0, "field not 8-byte aligned");
	TEST_ASSERT(off1 + 16 <= (int)sizeof(struct rte_mbuf), "field beyond the mbuf");
	return TEST_SUCCESS;
}

static int
test_dynfield_access(void)
{
	struct rte_ib_mbuf_addr *a;
	const struct rte_ib_grh *grh;
	struct rte_mbuf *m;
	uint8_t *p;

	TEST_ASSERT(rte_ib_mbuf_dynfield_register() >= 0, "register");
	m = rte_pktmbuf_alloc(pool);
	TEST_ASSERT(m != NULL, "mbuf alloc");
	a = rte_ib_mbuf_addr(m);
	TEST_ASSERT(a == (void *)((char *)m + rte_ib_mbuf_dynfield_offset),
		    "accessor points at the offset");
	a->tx.ah = (struct rte_ib_ah *)(uintptr_t)0x1000;
	a->tx.dest_qpn = 0xabcdef;
	a->tx.qkey = 0x80010000;
	TEST_ASSERT_EQUAL(rte_ib_mbuf_addr(m)->tx.dest_qpn, 0xabcdef, "tx view");

	/* rx view: no GRH flag -> no GRH, whatever the headroom holds. */
	memset(a, 0, sizeof(*a));
	a->rx.slid = 7;
	TEST_ASSERT(rte_ib_mbuf_grh(m) == NULL, "GRH without the flag");
	/* The PMD scatters the GRH slot into the 40 bytes before the data. */
	p = rte_pktmbuf_mtod(m, uint8_t *) - RTE_IB_GRH_LEN;
	memset(p, 0, RTE_IB_GRH_LEN);
	p[0] = 0x60;            /* IPVer 6 */
	p[6] = RTE_IB_GRH_NEXT_HDR_IBA;
	p[39] = 0x42;           /* last DGID byte */
	a->rx.flags = RTE_IB_MBUF_F_GRH;
	grh = rte_ib_mbuf_grh(m);
	TEST_ASSERT(grh != NULL, "GRH with the flag");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(grh->version_tclass_flow) >> 28,
			  RTE_IB_GRH_IPVER, "IPVer");
	TEST_ASSERT_EQUAL(grh->dgid.raw[15], 0x42, "DGID read at bytes 24-39");
	/* Data moved back into the headroom: the GRH is gone. */
	rte_pktmbuf_prepend(m, rte_pktmbuf_headroom(m) - 8);
	TEST_ASSERT(rte_ib_mbuf_grh(m) == NULL, "GRH with too little headroom");
	rte_pktmbuf_free(m);
	return TEST_SUCCESS;
}

/* --- registration and lookup --- */

static int
expect_register_fails(struct tdev *t, int err, const char *what)
{
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_ib_device_register(&t->dev), -1, "%s accepted", what);
	TEST_ASSERT_EQUAL(rte_errno, err, "%s: rte_errno", what);
	TEST_ASSERT(t->dev.core == NULL, "%s: core left set", what);
	return TEST_SUCCESS;
}

static int
test_register_checks(void)
{
	struct tdev t;

	tdev_init(&t, "", 0);
	TEST_ASSERT_SUCCESS(expect_register_fails(&t, EINVAL, "empty name"), "");
	tdev_init(&t, "t0", 0);
	t.dev.phys_port_cnt = 0;
	TEST_ASSERT_SUCCESS(expect_register_fails(&t, EINVAL, "0 ports"), "");
	t.dev.phys_port_cnt = RTE_IB_DEV_MAX_PORTS + 1;
	TEST_ASSERT_SUCCESS(expect_register_fails(&t, EINVAL, "too many ports"), "");
	tdev_init(&t, "t0", 0);
	t.dev.node_type = 0;
	TEST_ASSERT_SUCCESS(expect_register_fails(&t, EINVAL, "node_type 0"), "");
	tdev_init(&t, "t0", 0);
	t.dev.ops = NULL;
	TEST_ASSERT_SUCCESS(expect_register_fails(&t, EINVAL, "no ops"), "");
	TEST_ASSERT_EQUAL(rte_ib_device_register(NULL), -1, "NULL device");
	return TEST_SUCCESS;
}

static int
test_register_lookup(void)
{
	struct rte_ib_device *list[4];
	struct tdev a, b, dup;
	uint8_t ib_port = 0;

	tdev_init(&a, "tA", 3);
	tdev_init(&b, "tB", 9);
	b.dev.eth_port_id[1] = 10;
	tdev_init(&dup, "tA", 4);
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&a.dev), "register A");
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&b.dev), "register B");
	TEST_ASSERT_SUCCESS(expect_register_fails(&dup, EEXIST, "duplicate name"), "");
	TEST_ASSERT_EQUAL(rte_ib_device_register(&a.dev), -1, "registered twice");
	TEST_ASSERT_EQUAL(rte_errno, EEXIST, "twice: rte_errno");

	TEST_ASSERT(rte_ib_device_get_by_name("tA") == &a.dev, "by name A");
	TEST_ASSERT(rte_ib_device_get_by_name("tB") == &b.dev, "by name B");
	TEST_ASSERT(rte_ib_device_get_by_name("tC") == NULL, "unknown name");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "unknown name: rte_errno");
	TEST_ASSERT(rte_ib_device_from_port_id(10, &ib_port) == &b.dev, "eth 10");
	TEST_ASSERT_EQUAL(ib_port, 2, "eth 10 is B's port 2");
	TEST_ASSERT(rte_ib_device_from_port_id(3, &ib_port) == &a.dev, "eth 3");
	TEST_ASSERT_EQUAL(ib_port, 1, "eth 3 is A's port 1");
	TEST_ASSERT(rte_ib_device_from_port_id(5, NULL) == NULL, "eth 5");
	TEST_ASSERT(rte_ib_device_from_port_id(RTE_IB_NO_ETH_PORT, NULL) == NULL,
		    "the no-port marker matches nothing");
	TEST_ASSERT_EQUAL(rte_ib_device_list(list, RTE_DIM(list)), 2, "count");
	TEST_ASSERT(list[0] == &a.dev && list[1] == &b.dev, "registration order");
	TEST_ASSERT_EQUAL(rte_ib_device_list(NULL, 0), 2, "count only");

	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&a.dev), "unregister A");
	TEST_ASSERT(a.dev.core == NULL, "core freed");
	TEST_ASSERT(rte_ib_device_get_by_name("tA") == NULL, "A gone");
	TEST_ASSERT_EQUAL(rte_ib_device_unregister(&a.dev), -1, "unregister twice");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "twice: rte_errno");
	TEST_ASSERT_EQUAL(rte_ib_device_list(list, RTE_DIM(list)), 1, "count");
	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&b.dev), "unregister B");
	/* The name is free again. */
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&dup.dev), "reuse name");
	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&dup.dev), "unregister");
	return TEST_SUCCESS;
}

/* --- cache and checked ops --- */

static int
test_cache_and_ops(void)
{
	struct rte_ib_port_attr attr;
	struct rte_ib_ah_attr ah_attr;
	struct rte_ib_device_attr dattr;
	struct rte_ib_ah *ah;
	struct rte_ib_gid gid;
	uint16_t idx, pkey;
	struct tdev t;

	tdev_init(&t, "tC", 0);
	t.port[0].lid = 0x11;
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&t.dev), "register");
	TEST_ASSERT_SUCCESS(rte_ib_port_attr_cached(&t.dev, 1, &attr), "cached");
	TEST_ASSERT_EQUAL(attr.lid, 0x11, "cached at registration");
	t.port[0].lid = 0x22;
	TEST_ASSERT_SUCCESS(rte_ib_port_attr_cached(&t.dev, 1, &attr), "cached");
	TEST_ASSERT_EQUAL(attr.lid, 0x11, "cache is not the device");
	TEST_ASSERT_SUCCESS(rte_ib_query_port(&t.dev, 1, &attr), "query");
	TEST_ASSERT_EQUAL(attr.lid, 0x22, "query reads the device");
	TEST_ASSERT_SUCCESS(rte_ib_port_attr_cached(&t.dev, 1, &attr), "cached");
	TEST_ASSERT_EQUAL(attr.lid, 0x22, "query refreshed the cache");
	TEST_ASSERT_EQUAL(rte_ib_port_attr_cached(&t.dev, 3, &attr), -1, "port 3");
	TEST_ASSERT_EQUAL(rte_ib_query_port(&t.dev, 0, &attr), -1, "port 0");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "port 0: rte_errno");
	TEST_ASSERT_EQUAL(rte_ib_query_device(&t.dev, &dattr), -1, "no query_device op");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "missing op: rte_errno");

	/* P_Key lookup ignores the membership bit and prefers a full member
	 * (entry 1) over a limited one (entry 0).
	 */
	TEST_ASSERT_SUCCESS(rte_ib_pkey_find(&t.dev, 1, 0x1234, &idx), "find");
	TEST_ASSERT_EQUAL(idx, 1, "full member preferred");
	TEST_ASSERT_SUCCESS(rte_ib_pkey_find(&t.dev, 1, 0x7fff, &idx), "default");
	TEST_ASSERT_EQUAL(idx, 2, "default partition");
	TEST_ASSERT_EQUAL(rte_ib_pkey_find(&t.dev, 1, 0x8000, &idx), -1,
			  "the invalid P_Key matches nothing");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "not found: rte_errno");
	TEST_ASSERT_SUCCESS(rte_ib_query_pkey(&t.dev, 2, 2, &pkey), "pkey");
	TEST_ASSERT_EQUAL(pkey, 0xffff, "pkey entry 2");
	TEST_ASSERT_SUCCESS(rte_ib_query_gid(&t.dev, 1, 0, &gid), "gid");
	TEST_ASSERT(rte_ib_gid_equal(&gid, &t.gid0), "gid 0");
	TEST_ASSERT_EQUAL(rte_ib_query_gid(&t.dev, 1, 1, &gid), -1, "gid 1");

	TEST_ASSERT_SUCCESS(rte_ib_modify_port(&t.dev, 1, RTE_IB_PORT_CAP_SM, 0),
			    "set IsSM");
	TEST_ASSERT_SUCCESS(rte_ib_port_attr_cached(&t.dev, 1, &attr), "cached");
	TEST_ASSERT(attr.cap_mask & RTE_IB_PORT_CAP_SM, "IsSM in the cache");
	TEST_ASSERT_EQUAL(rte_ib_modify_port(&t.dev, 1, RTE_IB_PORT_CAP_SM,
					     RTE_IB_PORT_CAP_SM), -1, "set and clear");

	memset(&ah_attr, 0, sizeof(ah_attr));
	ah_attr.port_num = 1;
	ah_attr.dlid = 0x33;
	ah_attr.sl = 3;
	ah = rte_ib_ah_create(&t.dev, &ah_attr);
	TEST_ASSERT(ah != NULL, "ah create: %s", rte_strerror(rte_errno));
	TEST_ASSERT(ah->dev == &t.dev && ah->attr.dlid == 0x33, "header filled");
	TEST_ASSERT_EQUAL(container_of(ah, struct tah, hdr)->hw_av, 0x33, "PMD part");
	TEST_ASSERT_SUCCESS(rte_ib_ah_destroy(ah), "ah destroy");
	TEST_ASSERT_SUCCESS(rte_ib_ah_destroy(NULL), "destroy NULL");
	ah_attr.sl = 16;
	TEST_ASSERT(rte_ib_ah_create(&t.dev, &ah_attr) == NULL, "sl 16");
	ah_attr.sl = 0;
	ah_attr.dlid = 0;
	TEST_ASSERT(rte_ib_ah_create(&t.dev, &ah_attr) == NULL, "dlid 0");
	ah_attr.dlid = 1;
	ah_attr.port_num = 3;
	TEST_ASSERT(rte_ib_ah_create(&t.dev, &ah_attr) == NULL, "port 3");
	ah_attr.port_num = 1;
	ah_attr.ah_flags = RTE_IB_AH_GRH;
	ah_attr.grh.flow_label = 0x100000;
	TEST_ASSERT(rte_ib_ah_create(&t.dev, &ah_attr) == NULL, "flow label 21 bits");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno");
	TEST_ASSERT_EQUAL(t.nb_ah, 0, "every AH freed");

	memset(&gid, 0, sizeof(gid));
	gid.raw[0] = 0xff;
	TEST_ASSERT_EQUAL(rte_ib_mcast_attach(&t.dev, &gid, 0xc001, 0x40), -1,
			  "no attach op");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "attach: rte_errno");
	TEST_ASSERT_EQUAL(rte_ib_mcast_attach(&t.dev, &gid, 0x0001, 0x40), -1,
			  "unicast LID");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "unicast LID: rte_errno");
	gid.raw[0] = 0xfe;
	TEST_ASSERT_EQUAL(rte_ib_mcast_detach(&t.dev, &gid, 0xc001, 0x40), -1,
			  "unicast GID");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "unicast GID: rte_errno");

	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&t.dev), "unregister");
	TEST_ASSERT_EQUAL(rte_ib_query_port(&t.dev, 1, &attr), -1, "after unregister");
	return TEST_SUCCESS;
}

/* --- UD queues and UD ports --- */

/* Every wrapper on an ethdev that is no IB port's: ENODEV, no op called. */
static int
expect_no_ib_port(uint16_t port_id)
{
	struct rte_ib_ud_queue_info info;

	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_ib_ud_queue_info(port_id, 0, false, &info), -1,
			  "queue info of ethdev %u", port_id);
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "queue info: rte_errno");
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_ib_ud_qkey_set(port_id, 0x1234), -1, "qkey of %u", port_id);
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "qkey: rte_errno");
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_ib_ud_port_destroy(port_id), -1, "destroy %u", port_id);
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "destroy: rte_errno");
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_ib_ud_port_pkey_index_set(port_id, 1), -1,
			  "pkey index of %u", port_id);
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "pkey index: rte_errno");
	return TEST_SUCCESS;
}

static int
test_ud_ops_missing(void)
{
	struct rte_ib_ud_queue_info info;
	uint16_t pid = 0;
	struct tdev t;

	/* t_ops has none of the UD ops */
	tdev_init(&t, "tU0", 3);
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&t.dev), "register");
	TEST_ASSERT_EQUAL(rte_ib_ud_queue_info(3, 0, false, &info), -1, "queue info");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "queue info: rte_errno");
	TEST_ASSERT_EQUAL(rte_ib_ud_qkey_set(3, 0x1234), -1, "qkey");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "qkey: rte_errno");
	TEST_ASSERT_EQUAL(rte_ib_ud_port_create(&t.dev, 1, 0, &pid), -1, "create");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "create: rte_errno");
	TEST_ASSERT_EQUAL(rte_ib_ud_port_pkey_index_set(3, 0), -1, "pkey index");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "pkey index: rte_errno");
	/* the ethdev of a physical port is never a UD port to destroy */
	TEST_ASSERT_EQUAL(rte_ib_ud_port_destroy(3), -1, "destroy a physical port");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "destroy: rte_errno");
	TEST_ASSERT_SUCCESS(expect_no_ib_port(5), "ethdev 5");
	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&t.dev), "unregister");
	TEST_ASSERT_SUCCESS(expect_no_ib_port(3), "ethdev 3 after unregister");
	return TEST_SUCCESS;
}

static int
test_ud_queue_qkey(void)
{
	struct rte_ib_ud_queue_info info;
	struct tdev t;

	tdev_init(&t, "tU1", 7);
	t.dev.ops = &t_ud_ops;
	t.qkey = 0xb1b;
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&t.dev), "register");
	memset(&info, 0xa5, sizeof(info));
	TEST_ASSERT_SUCCESS(rte_ib_ud_queue_info(7, 0, false, &info), "rx queue 0");
	TEST_ASSERT_EQUAL(info.qpn, 0x48, "rx QPN");
	TEST_ASSERT_EQUAL(info.qkey, 0xb1b, "rx Q_Key");
	TEST_ASSERT_EQUAL(info.pkey_index, 0, "rx P_Key index");
	TEST_ASSERT_EQUAL(info.ib_port, 1, "IB port");
	TEST_ASSERT_EQUAL(info.live, 0, "cleared before the op");
	TEST_ASSERT_SUCCESS(rte_ib_ud_queue_info(7, 0, true, &info), "tx queue 0");
	TEST_ASSERT_EQUAL(info.qpn, 0x49, "tx QPN");
	TEST_ASSERT_EQUAL(rte_ib_ud_queue_info(7, 1, false, &info), -1, "no queue 1");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "queue 1: rte_errno");
	TEST_ASSERT_EQUAL(rte_ib_ud_queue_info(7, 0, false, NULL), -1, "NULL info");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "NULL info: rte_errno");

	/* IBA 10.2.4: a Q_Key with bit 31 set is controlled, not for a UD port */
	TEST_ASSERT_EQUAL(rte_ib_ud_qkey_set(7, 0x80010000), -1, "controlled Q_Key");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "controlled: rte_errno");
	TEST_ASSERT_EQUAL(t.nb_qkey_set, 0, "the op never saw it");
	TEST_ASSERT_SUCCESS(rte_ib_ud_qkey_set(7, 0x7fffffff), "highest plain Q_Key");
	TEST_ASSERT_EQUAL(t.qkey, 0x7fffffff, "the op got it");
	TEST_ASSERT_SUCCESS(rte_ib_ud_queue_info(7, 0, false, &info), "rx queue 0");
	TEST_ASSERT_EQUAL(info.qkey, 0x7fffffff, "queue reports the new Q_Key");
	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&t.dev), "unregister");
	return TEST_SUCCESS;
}

static int
test_ud_port(void)
{
	struct rte_ib_ud_queue_info info;
	uint8_t ib_port = 0;
	uint16_t pid = 0;
	struct tdev t;

	tdev_init(&t, "tU2", 7);
	t.dev.ops = &t_ud_ops;
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&t.dev), "register");
	/* the P_Key table has 4 entries (tdev_init) */
	TEST_ASSERT_EQUAL(rte_ib_ud_port_create(&t.dev, 1, 4, &pid), -1, "index 4");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "index 4: rte_errno");
	TEST_ASSERT_EQUAL(rte_ib_ud_port_create(&t.dev, 3, 0, &pid), -1, "port 3");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "port 3: rte_errno");
	TEST_ASSERT_EQUAL(rte_ib_ud_port_create(&t.dev, 0, 0, &pid), -1, "port 0");
	TEST_ASSERT_EQUAL(rte_ib_ud_port_create(&t.dev, 1, 0, NULL), -1, "NULL port_id");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "NULL port_id: rte_errno");
	TEST_ASSERT_EQUAL(rte_ib_ud_port_create(NULL, 1, 0, &pid), -1, "NULL device");
	TEST_ASSERT_EQUAL(t.ud_port, RTE_IB_NO_ETH_PORT, "no UD port made so far");

	TEST_ASSERT_SUCCESS(rte_ib_ud_port_create(&t.dev, 2, 3, &pid), "create");
	TEST_ASSERT_EQUAL(pid, 20, "its ethdev");
	TEST_ASSERT(rte_ib_device_from_port_id(20, &ib_port) == &t.dev,
		    "the UD port maps to its device");
	TEST_ASSERT_EQUAL(ib_port, 2, "and to its IB port");
	TEST_ASSERT_SUCCESS(rte_ib_ud_queue_info(20, 0, false, &info), "its queue");
	TEST_ASSERT_EQUAL(info.pkey_index, 3, "its P_Key index");
	TEST_ASSERT_EQUAL(rte_ib_ud_port_destroy(7), -1, "destroy a physical port");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "physical port: rte_errno");

	TEST_ASSERT_EQUAL(rte_ib_ud_port_pkey_index_set(20, 4), -1, "move to index 4");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "index 4: rte_errno");
	TEST_ASSERT_EQUAL(t.ud_pkey_index, 3, "index kept");
	TEST_ASSERT_SUCCESS(rte_ib_ud_port_pkey_index_set(20, 1), "move to index 1");
	TEST_ASSERT_EQUAL(t.ud_pkey_index, 1, "the op got index 1");

	TEST_ASSERT_SUCCESS(rte_ib_ud_port_destroy(20), "destroy");
	TEST_ASSERT_EQUAL(t.ud_port, RTE_IB_NO_ETH_PORT, "the op destroyed it");
	TEST_ASSERT_SUCCESS(expect_no_ib_port(20), "ethdev 20 after destroy");
	TEST_ASSERT(rte_ib_device_from_port_id(7, &ib_port) == &t.dev && ib_port == 1,
		    "the physical port's ethdev still maps");
	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&t.dev), "unregister");
	return TEST_SUCCESS;
}

/* --- events --- */

struct ev_log {
	unsigned int calls;
	enum rte_ib_event_type last;
	uint8_t port;
	uint16_t lid_seen;      /* cached LID when the handler ran */
	bool unregister_self;
};

static void
ev_cb(const struct rte_ib_event *ev, void *arg)
{
	struct ev_log *log = arg;
	struct rte_ib_port_attr attr;

	log->calls++;
	log->last = ev->type;
	log->port = ev->port;
	if (ev->port != 0 && rte_ib_port_attr_cached(ev->dev, ev->port, &attr) == 0)
		log->lid_seen = attr.lid;
	if (log->unregister_self)
		rte_ib_unregister_event_handler(ev->dev, ev_cb, arg);
}

static int
test_events(void)
{
	struct ev_log on_a = { 0 }, on_all = { 0 }, on_b = { 0 }, once = { 0 };
	struct rte_ib_event ev;
	struct tdev a, b;

	tdev_init(&a, "tEa", 0);
	tdev_init(&b, "tEb", 1);
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&a.dev), "register a");
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&b.dev), "register b");
	TEST_ASSERT_SUCCESS(rte_ib_register_event_handler(&a.dev, ev_cb, &on_a), "a");
	TEST_ASSERT_SUCCESS(rte_ib_register_event_handler(NULL, ev_cb, &on_all), "all");
	TEST_ASSERT_SUCCESS(rte_ib_register_event_handler(&b.dev, ev_cb, &on_b), "b");
	once.unregister_self = true;
	TEST_ASSERT_SUCCESS(rte_ib_register_event_handler(&a.dev, ev_cb, &once), "once");
	TEST_ASSERT_EQUAL(rte_ib_register_event_handler(&a.dev, ev_cb, &on_a), -1,
			  "duplicate");
	TEST_ASSERT_EQUAL(rte_errno, EEXIST, "duplicate: rte_errno");
	TEST_ASSERT_EQUAL(rte_ib_register_event_handler(&a.dev, NULL, NULL), -1,
			  "NULL handler");

	/* The SM set a LID: the handler sees the new LID in the cache. */
	a.port[1].lid = 0x77;
	a.port[1].state = RTE_IB_PORT_ACTIVE;
	ev.dev = &a.dev;
	ev.type = RTE_IB_EVENT_PORT_ACTIVE;
	ev.port = 2;
	TEST_ASSERT_SUCCESS(rte_ib_dispatch_event(&ev), "dispatch");
	TEST_ASSERT_EQUAL(on_a.calls, 1, "device handler");
	TEST_ASSERT_EQUAL(on_all.calls, 1, "global handler");
	TEST_ASSERT_EQUAL(on_b.calls, 0, "other device's handler");
	TEST_ASSERT_EQUAL(once.calls, 1, "self-unregistering handler");
	TEST_ASSERT_EQUAL(on_a.port, 2, "port");
	TEST_ASSERT_EQUAL(on_a.last, RTE_IB_EVENT_PORT_ACTIVE, "type");
	TEST_ASSERT_EQUAL(on_a.lid_seen, 0x77, "cache refreshed before handlers");

	ev.type = RTE_IB_EVENT_LID_CHANGE;
	TEST_ASSERT_SUCCESS(rte_ib_dispatch_event(&ev), "dispatch");
	TEST_ASSERT_EQUAL(once.calls, 1, "unregistered handler ran again");
	TEST_ASSERT_EQUAL(on_a.calls, 2, "device handler");

	ev.dev = &b.dev;
	ev.type = RTE_IB_EVENT_SM_CHANGE;
	ev.port = 1;
	TEST_ASSERT_SUCCESS(rte_ib_dispatch_event(&ev), "dispatch b");
	TEST_ASSERT_EQUAL(on_b.calls, 1, "b handler");
	TEST_ASSERT_EQUAL(on_all.calls, 3, "global handler sees both");
	TEST_ASSERT_EQUAL(on_a.calls, 2, "a handler not called for b");

	/* Bad events are refused, not fanned out. */
	ev.port = 3;
	TEST_ASSERT_EQUAL(rte_ib_dispatch_event(&ev), -1, "port 3");
	ev.port = 1;
	ev.type = RTE_IB_EVENT_DEVICE_FATAL;
	TEST_ASSERT_EQUAL(rte_ib_dispatch_event(&ev), -1, "fatal with a port");
	ev.port = 0;
	TEST_ASSERT_SUCCESS(rte_ib_dispatch_event(&ev), "fatal, port 0");
	ev.type = RTE_IB_EVENT_MAX;
	TEST_ASSERT_EQUAL(rte_ib_dispatch_event(&ev), -1, "type out of range");
	TEST_ASSERT_EQUAL(on_all.calls, 4, "only the good event fanned out");
	TEST_ASSERT(strcmp(rte_ib_event_name(RTE_IB_EVENT_CLIENT_REREGISTER),
			   "CLIENT_REREGISTER") == 0, "event name");
	TEST_ASSERT(strcmp(rte_ib_event_name(RTE_IB_EVENT_MAX), "UNKNOWN") == 0,
		    "unknown event name");

	/* Unregistering a device drops its handlers; global ones stay. */
	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&b.dev), "unregister b");
	TEST_ASSERT_EQUAL(rte_ib_unregister_event_handler(&b.dev, ev_cb, &on_b), -1,
			  "b's handler dropped with b");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "rte_errno");
	TEST_ASSERT_SUCCESS(rte_ib_unregister_event_handler(NULL, ev_cb, &on_all),
			    "global");
	TEST_ASSERT_SUCCESS(rte_ib_unregister_event_handler(&a.dev, ev_cb, &on_a), "a");
	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&a.dev), "unregister a");
	return TEST_SUCCESS;
}

/* --- clients --- */

static char client_trace[128];

static int
cl_add(struct rte_ib_device *dev)
{
	strcat(client_trace, "+");
	strcat(client_trace, dev->name);
	return 0;
}

static void
cl_remove(struct rte_ib_device *dev)
{
	strcat(client_trace, "-");
	strcat(client_trace, dev->name);
}

static const struct rte_ib_client client = {
	.name = "test", .add = cl_add, .remove = cl_remove,
};

static int
test_clients(void)
{
	struct tdev a, b;

	client_trace[0] = '\0';
	tdev_init(&a, "c1", 0);
	tdev_init(&b, "c2", 1);
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&a.dev), "register c1");
	TEST_ASSERT_SUCCESS(rte_ib_register_client(&client), "client");
	TEST_ASSERT_EQUAL(rte_ib_register_client(&client), -1, "client twice");
	TEST_ASSERT_EQUAL(rte_errno, EEXIST, "twice: rte_errno");
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&b.dev), "register c2");
	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&a.dev), "unregister c1");
	TEST_ASSERT_SUCCESS(rte_ib_unregister_client(&client), "client off");
	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&b.dev), "unregister c2");
	TEST_ASSERT(strcmp(client_trace, "+c1+c2-c1-c2") == 0,
		    "add for existing and new devices, remove on both paths: %s",
		    client_trace);
	TEST_ASSERT_EQUAL(rte_ib_unregister_client(&client), -1, "client gone");
	return TEST_SUCCESS;
}

/* --- MAD handler plumbing --- */

static unsigned int mad_calls;
static uint8_t mad_seen[RTE_IB_MAD_SIZE];

static void
mad_cb(struct rte_ib_device *dev, const struct rte_ib_mad_wc *wc,
       const void *mad, uint32_t len, void *arg)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(wc);
	RTE_SET_USED(arg);
	mad_calls++;
	memcpy(mad_seen, mad, len);
}

static int
test_mad_handler(void)
{
	uint8_t mad[RTE_IB_MAD_SIZE];
	struct rte_ib_mad_wc wc;
	struct tdev t;

	tdev_init(&t, "tM", 0);
	TEST_ASSERT_SUCCESS(rte_ib_device_register(&t.dev), "register");
	memset(&wc, 0, sizeof(wc));
	wc.port = 1;
	wc.qpn = 1;
	memset(mad, 0xa5, sizeof(mad));
	TEST_ASSERT_EQUAL(rte_ib_device_mad_recv(&t.dev, &wc, mad, sizeof(mad)), -1,
			  "no handler");
	TEST_ASSERT_EQUAL(rte_errno, ENODEV, "no handler: rte_errno");
	TEST_ASSERT_SUCCESS(rte_ib_device_set_mad_handler(&t.dev, mad_cb, NULL), "set");
	TEST_ASSERT_EQUAL(rte_ib_device_set_mad_handler(&t.dev, mad_cb, NULL), -1,
			  "second handler");
	TEST_ASSERT_EQUAL(rte_errno, EBUSY, "second: rte_errno");
	TEST_ASSERT_SUCCESS(rte_ib_device_mad_recv(&t.dev, &wc, mad, sizeof(mad)),
			    "deliver");
	TEST_ASSERT_EQUAL(mad_calls, 1, "handler ran");
	TEST_ASSERT_BUFFERS_EQUAL(mad_seen, mad, sizeof(mad), "MAD bytes");
	wc.qpn = 2;
	TEST_ASSERT_EQUAL(rte_ib_device_mad_recv(&t.dev, &wc, mad, sizeof(mad)), -1,
			  "QP 2 is not special");
	wc.qpn = 0;
	TEST_ASSERT_EQUAL(rte_ib_device_mad_recv(&t.dev, &wc, mad, 100), -1,
			  "short MAD");
	TEST_ASSERT_EQUAL(mad_calls, 1, "bad deliveries not handed on");
	TEST_ASSERT_EQUAL(rte_ib_device_intr_fd(&t.dev), -1, "no intr fd op");
	TEST_ASSERT_EQUAL(rte_ib_device_intr_process(&t.dev), -1, "no intr op");
	TEST_ASSERT_EQUAL(rte_errno, ENOTSUP, "intr: rte_errno");
	TEST_ASSERT_SUCCESS(rte_ib_device_set_mad_handler(&t.dev, NULL, NULL), "clear");
	TEST_ASSERT_SUCCESS(rte_ib_device_unregister(&t.dev), "unregister");
	return TEST_SUCCESS;
}

static int
test_link_rate(void)
{
	/* Lanes x lane rate (IBA 14.2.5.6 LinkWidth/LinkSpeed encodings). */
	TEST_ASSERT_EQUAL(rte_ib_link_rate_mbps(RTE_IB_WIDTH_4X, RTE_IB_SPEED_SDR),
			  10000, "4x SDR");
	TEST_ASSERT_EQUAL(rte_ib_link_rate_mbps(RTE_IB_WIDTH_4X, RTE_IB_SPEED_DDR),
			  20000, "4x DDR");
	TEST_ASSERT_EQUAL(rte_ib_link_rate_mbps(RTE_IB_WIDTH_1X, RTE_IB_SPEED_SDR),
			  2500, "1x SDR");
	TEST_ASSERT_EQUAL(rte_ib_link_rate_mbps(RTE_IB_WIDTH_12X, RTE_IB_SPEED_QDR),
			  120000, "12x QDR");
	TEST_ASSERT_EQUAL(rte_ib_link_rate_mbps(3, RTE_IB_SPEED_SDR), 0, "width 3");
	TEST_ASSERT_EQUAL(rte_ib_link_rate_mbps(RTE_IB_WIDTH_4X, 3), 0, "speed 3");
	return TEST_SUCCESS;
}

static struct unit_test_suite suite = {
	.suite_name = "ib_dev",
	.unit_test_cases = {
		TEST_CASE(test_dynfield_register),
		TEST_CASE(test_dynfield_access),
		TEST_CASE(test_register_checks),
		TEST_CASE(test_register_lookup),
		TEST_CASE(test_cache_and_ops),
		TEST_CASE(test_ud_ops_missing),
		TEST_CASE(test_ud_queue_qkey),
		TEST_CASE(test_ud_port),
		TEST_CASE(test_events),
		TEST_CASE(test_clients),
		TEST_CASE(test_mad_handler),
		TEST_CASE(test_link_rate),
		TEST_CASES_END(),
	},
};

int
main(int argc, char **argv)
{
	char *eal_args[] = {
		argv[0], "--no-huge", "-m", "64", "--no-pci", "--no-shconf",
		"--file-prefix=test_ib_dev", "--log-level=lib.ib:debug", NULL,
	};
	int ret;

	RTE_SET_USED(argc);
	if (rte_eal_init(RTE_DIM(eal_args) - 1, eal_args) < 0) {
		printf("EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	pool = rte_pktmbuf_pool_create("test_ib_dev", 63, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (pool == NULL) {
		printf("mempool: %s\n", rte_strerror(rte_errno));
		rte_eal_cleanup();
		return 1;
	}
	ret = unit_test_suite_runner(&suite);
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return ret;
}
