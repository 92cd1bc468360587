/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _UMAD_SYSFS_H_
#define _UMAD_SYSFS_H_

/*
 * The sysfs attributes that libibumad and infiniband-diags read, written
 * as ordinary files under a directory (a tmpfs) in the kernel's formats
 * (drivers/infiniband/core/sysfs.c and user_mad.c):
 *
 *   <root>/class/infiniband/<dev>/{node_type,node_guid,sys_image_guid,
 *       fw_ver,hw_rev,hca_type,node_desc}
 *   <root>/class/infiniband/<dev>/ports/<N>/{lid,lid_mask_count,sm_lid,
 *       sm_sl,state,phys_state,rate,cap_mask,link_layer,gids/<K>,pkeys/<K>,
 *       counters/<PMA counter>}
 *   <root>/class/infiniband_mad/abi_version
 *   <root>/class/infiniband_mad/{umad<I>,issm<I>}/{ibdev,port}
 *
 * Each file is replaced atomically (written aside, then renamed), so a
 * reader never sees half a value while the port changes.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_ib_dev.h>

/* "%04x:%04x:%04x:%04x" of a GUID (Linux node_guid_show()). */
void umad_sysfs_fmt_guid(char *buf, size_t len, uint64_t guid);
/* Eight groups of four hex digits, no "::" (Linux "%pI6"). */
void umad_sysfs_fmt_gid(char *buf, size_t len, const struct rte_ib_gid *gid);
/* "4: ACTIVE" (Linux state_show()). */
void umad_sysfs_fmt_state(char *buf, size_t len, uint8_t state);
/* "5: LinkUp" (Linux phys_state_show()). */
void umad_sysfs_fmt_phys_state(char *buf, size_t len, uint8_t phys_state);
/* "10 Gb/sec (4X SDR)" (Linux rate_show()). */
void umad_sysfs_fmt_rate(char *buf, size_t len, uint8_t width, uint8_t speed);
/* "MT25208" for a Mellanox part (Linux mthca show_hca()), else the id. */
void umad_sysfs_fmt_hca_type(char *buf, size_t len, uint32_t vendor_id,
			     uint32_t part_id);

/* Write the whole tree of @dev; @umad_base is the umad index of port 1. */
int umad_sysfs_add_device(const char *root, struct rte_ib_device *dev,
			  unsigned int umad_base);
/* Rewrite the attributes of one port (after an event). */
int umad_sysfs_update_port(const char *root, struct rte_ib_device *dev,
			   uint8_t port);
/*
 * Rewrite ports/<port>/counters/ from the port's PMA (a MAD_IFC command:
 * called by the refresher, not from event handlers).
 */
int umad_sysfs_update_counters(const char *root, struct rte_ib_device *dev,
			       uint8_t port);
/* Remove @dev's files. */
void umad_sysfs_remove_device(const char *root, struct rte_ib_device *dev,
			      unsigned int umad_base);
/* Write @text to @dir/@name atomically (aside, then renamed). 0 or -errno. */
int umad_sysfs_put_file(const char *dir, const char *name, const char *text);
/* Create <root>/class/{infiniband,infiniband_mad} and abi_version. */
int umad_sysfs_init(const char *root);

#endif /* _UMAD_SYSFS_H_ */
