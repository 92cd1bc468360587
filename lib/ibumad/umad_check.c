/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The static checks of a umad write (umad_file.h), shared by the service
 * (umad_file_write()) and the preloaded shim, which makes them before a
 * write goes down the channel so that the caller gets the kernel's
 * synchronous errors without a round trip (umad_preload.c).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include <ib_proto.h>
#include "umad_file.h"

/* Subnet management classes: LID-routed and directed-route (IBA 14.2.1). */
static bool
class_is_smp(uint8_t mgmt_class)
{
	return mgmt_class == 0x01 || mgmt_class == 0x81;
}

int
umad_write_check(size_t hs, const void *buf, size_t count,
		 const struct umad_agent_set *agents, bool *whole)
{
	struct ib_user_mad_hdr hdr;
	const uint8_t *mad;
	size_t len;
	bool rmpp_active, rmpp_agent;

	/* Linux ib_umad_write(): the header and the MAD + RMPP headers. */
	if (count < hs + UMAD_MIN_WRITE_DATA)
		return -EINVAL;
	memset(&hdr, 0, sizeof(hdr));
	memcpy(&hdr, buf, hs);
	if (hdr.id >= UMAD_MAX_AGENTS)
		return -EINVAL;
	if (!(agents->present & (1u << hdr.id)))
		return -EIO;   /* __get_agent() found none */
	mad = (const uint8_t *)buf + hs;
	len = count - hs;
	rmpp_active = ib_mad_is_rmpp_active(mad);
	rmpp_agent = (agents->rmpp & (1u << hdr.id)) != 0;
	/*
	 * ib_create_send_mad(): an RMPP-active send of an agent that does
	 * RMPP in the kernel keeps its exact length (the MAD core segments
	 * it); anything else fits one MAD.
	 */
	*whole = rmpp_active && rmpp_agent;
	if (!*whole && len > UMAD_MAD_SIZE)
		return -EINVAL;
	if (count > UMAD_CHAN_MAX_MSG)
		return -EINVAL;
	/* What rte_ibmad_send() refuses of any MAD (send_params_check()). */
	if (mad[0] != 1 || class_is_smp(mad[1]) !=
	    ((agents->smi & (1u << hdr.id)) != 0))
		return -EINVAL;
	if (hdr.lid == 0 || hdr.sl > 15 ||
	    (ntohl(hdr.qpn) & 0xff000000u) != 0)
		return -EINVAL;
	return 0;
}
