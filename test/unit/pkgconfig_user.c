/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * A program from outside the project, built by test_install.py against an
 * installed tree with nothing but
 *   cc -DALLOW_EXPERIMENTAL_API pkgconfig_user.c \
 *       $(pkg-config --cflags --libs libdpdk-ipoib)
 * It calls one function of each library and prints what they return.
 */

#include <errno.h>
#include <stdio.h>

#include <rte_errno.h>
#include <rte_ib_dev.h>
#include <rte_ibmad.h>
#include <rte_ibmad_umad.h>
#include <rte_ipoib.h>

int
main(void)
{
	/* a broadcast address: flags 0, QPN 0xffffff, the IPv4 broadcast
	 * MGID of P_Key 0xffff (RFC 4391 section 4)
	 */
	static const char bcast[] = "00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:"
				    "00:00:00:00:ff:ff:ff:ff";
	struct rte_ipoib_hwaddr hw;
	char buf[RTE_IPOIB_HWADDR_FMT_SIZE];
	struct rte_ibmad_umad_stats st;
	uint32_t id;
	int rc;

	printf("rte_ib_device_list: %u\n", rte_ib_device_list(NULL, 0));
	rc = rte_ibmad_service_id_get(&id);
	printf("rte_ibmad_service_id_get: %d %s\n", rc, rc < 0 && rte_errno == ENOENT ?
	       "ENOENT" : "?");
	rc = rte_ibmad_umad_stats_get(&st);
	printf("rte_ibmad_umad_stats_get: %d %s\n", rc, rc < 0 && rte_errno == ENOENT ?
	       "ENOENT" : "?");
	if (rte_ipoib_hwaddr_parse(bcast, &hw) != 0 ||
	    rte_ipoib_hwaddr_format(&hw, buf, sizeof(buf)) < 0)
		return 1;
	printf("rte_ipoib_hwaddr: qpn 0x%x mcast %d %s\n", rte_ipoib_hwaddr_qpn(&hw),
	       rte_ipoib_hwaddr_is_mcast(&hw), buf);
	return 0;
}
