/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The static checks of a umad write (umad_file.h), shared by the service
 * (umad_file_write()) and the preloaded shim, which makes them before a
 * write goes down the channel so that the caller gets the kernel's
 * synchronous errors without a round trip (umad_preload.c).
 */

#include <errno.h>
#include <string.h>

#include "mad_rmpp.h"
#include "umad_file.h"

int
umad_write_check(size_t hs, const void *buf, size_t count, uint32_t agents,
		 uint32_t rmpp_agents, bool *whole)
{
	struct ib_user_mad_hdr hdr;
	const uint8_t *mad;
	size_t len;
	bool rmpp_active, rmpp_agent;

	/* Linux ib_umad_write(): the header and the MAD + RMPP headers. */
	if (count < hs + UMAD_MIN_WRITE_DATA)
		return -EINVAL;
	memcpy(&hdr, buf, sizeof(hdr.id));
	if (hdr.id >= UMAD_MAX_AGENTS)
		return -EINVAL;
	if (!(agents & (1u << hdr.id)))
		return -EIO;   /* __get_agent() found none */
	mad = (const uint8_t *)buf + hs;
	len = count - hs;
	rmpp_active = ibmad_rmpp_active(mad);
	rmpp_agent = (rmpp_agents & (1u << hdr.id)) != 0;
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
	return 0;
}
