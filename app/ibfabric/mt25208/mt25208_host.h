/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * All MT25208 models of one fabric, as main.c's event loop sees them: one
 * PCI function per active CA, their sockets in the epoll set, and the
 * polling policy. The model cannot be woken by an MMIO write, so while a
 * host is attached it is polled: continuously for MT25208_SPIN_NS after
 * the last activity (an HCR command, a doorbell, a packet), then every
 * MT25208_NAP_US until MT25208_NAP_NS after it, then every
 * MT25208_IDLE_POLL_US (the epoll_wait timeout). The naps are for
 * request/response traffic such as an SM's SMPs, a doorbell every tens
 * of microseconds: a spin that outlasted those gaps kept a core busy for
 * the whole sweep, a core the host's stack and OpenSM need on a 2-core
 * machine. The clock is read on quiet passes only, every
 * MT25208_QUIET_CLOCK-th after the first: the spin ends up to that many
 * passes late. With no host attached nothing is polled and the loop
 * blocks. The interval in force is the extra latency a quiet host sees on
 * its next doorbell or command.
 *
 * Threading: ibfabric's event-loop thread only.
 */

#ifndef _IBFABRIC_MT25208_HOST_H_
#define _IBFABRIC_MT25208_HOST_H_

#include <stdbool.h>
#include <stdint.h>

#include "fabric.h"

#define MT25208_SPIN_NS		50000ull	/**< keep polling 50 us after activity */
#define MT25208_NAP_NS		10000000ull	/**< then every MT25208_NAP_US up to 10 ms */
#define MT25208_NAP_US		20		/**< the nap between two polls, us */
#define MT25208_IDLE_POLL_US	1000		/**< then poll once per millisecond */
#define MT25208_QUIET_CLOCK	16		/**< quiet passes per clock read */
#define MT25208_FIRST_BUS	0x10		/**< PCI bus of the first active CA */

struct hca_set;
struct mt25208;

/**
 * Publish a PCI function under @p pci_root for every active CA of @p f
 * (bus MT25208_FIRST_BUS upwards, in node order) with its model and data
 * path. Returns the set (empty when the fabric has no active CA), or NULL
 * with errno set after undoing everything.
 */
struct hca_set *hca_set_create(struct fabric *f, const char *pci_root);
/** Remove every function (directories, BAR files, sockets). NULL is fine. */
void hca_set_free(struct hca_set *s);
/** Number of functions. */
unsigned int hca_set_count(const struct hca_set *s);
/**
 * Add the listening sockets to epoll set @p ep with tags
 * ((uint64_t)@p kind << 32) | index; connections accepted later are added
 * by hca_set_ready() the same way. 0 or -1 with errno.
 */
int hca_set_epoll_add(struct hca_set *s, int ep, uint32_t kind);
/** An fd tagged with @p idx (low 32 bits of the tag) is readable. */
void hca_set_ready(struct hca_set *s, uint32_t idx);
/**
 * One pass of model @p dev: BAR0 registers and the HCR (mt25208_poll()),
 * the data path's doorbells and queues (mt25208_dp_poll(), a bus error on
 * host memory raising a catastrophic error), in the order PCIe delivers
 * the host's writes: doorbells stored before a command's GO are taken
 * before the command runs. True if anything happened.
 */
bool mt25208_host_poll(struct mt25208 *dev);
/**
 * Poll every attached model (BAR0 registers, HCR, doorbells). Returns the
 * epoll_wait timeout in microseconds the loop should use next: 0 while
 * spinning after activity, MT25208_NAP_US while napping after it,
 * MT25208_IDLE_POLL_US while hosts are attached but quiet, -1 when no
 * host is attached.
 */
int hca_set_poll(struct hca_set *s);

#endif /* _IBFABRIC_MT25208_HOST_H_ */
