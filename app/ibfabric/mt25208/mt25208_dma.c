/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: DMA, the first address translation of a mem-free HCA:
 * bus address (IOVA) -> host pointer, through the windows the host
 * registered on the IOMMU socket. An access no window covers is a DMA
 * fault: counted, logged with the address, and reported to the caller,
 * never a crash. The lowest room of the model: the mailboxes
 * (mt25208_mbox.c), ICM (mt25208_icm.c) and the data path reach host
 * memory through it, and it calls none of them.
 */

#include <errno.h>
#include <inttypes.h>
#include <sys/mman.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"

int
mt25208_dma_map(struct mt25208 *dev, uint64_t iova, uint64_t len, uint8_t *host,
		void *map, size_t map_len)
{
	unsigned int i, pos;

	if (len == 0 || iova + len < iova || host == NULL)
		return -EINVAL;
	if (dev->nwins == MT25208_MAX_WINS)
		return -ENOSPC;
	for (pos = 0; pos < dev->nwins && dev->wins[pos].iova < iova; pos++)
		;
	if (pos > 0 && dev->wins[pos - 1].iova + dev->wins[pos - 1].len > iova)
		return -EEXIST;
	if (pos < dev->nwins && iova + len > dev->wins[pos].iova)
		return -EEXIST;
	for (i = dev->nwins; i > pos; i--)
		dev->wins[i] = dev->wins[i - 1];
	dev->wins[pos] = (struct mt25208_dma_win){
		.iova = iova, .len = len, .host = host, .map = map, .map_len = map_len,
	};
	dev->nwins++;
	dev->last_win = 0;
	mt25208_tc_flush(dev);
	return 0;
}

/* Cached ICM translations may point into a window that went away. */
static void
icm_forget_host(struct mt25208 *dev)
{
	size_t i;

	for (i = 0; i < dev->icm_npages; i++)
		dev->icm[i].host = NULL;
}

int
mt25208_dma_unmap(struct mt25208 *dev, uint64_t iova, uint64_t len)
{
	unsigned int i;

	for (i = 0; i < dev->nwins; i++) {
		if (dev->wins[i].iova != iova || dev->wins[i].len != len)
			continue;
		if (dev->wins[i].map != NULL)
			munmap(dev->wins[i].map, dev->wins[i].map_len);
		for (; i + 1 < dev->nwins; i++)
			dev->wins[i] = dev->wins[i + 1];
		dev->nwins--;
		dev->last_win = 0;
		icm_forget_host(dev);
		mt25208_tc_flush(dev);
		return 0;
	}
	return -ENOENT;
}

void *
mt25208_dma_ptr(struct mt25208 *dev, uint64_t iova, size_t len, bool write)
{
	void *h = mt25208_dma_lookup(dev, iova, len);

	if (h != NULL)
		return h;
	dev->stats.dma_faults++;
	/* A host stuck in a faulting loop must not flood the log: 10, then 1 in 1000. */
	if (dev->stats.dma_faults <= 10 || dev->stats.dma_faults % 1000 == 0)
		FAB_ERR("%s: DMA fault #%" PRIu64 ": %s of %zu bytes at bus address 0x%" PRIx64
			" outside every registered window", dev->node->name,
			dev->stats.dma_faults, write ? "write" : "read", len, iova);
	return NULL;
}

void *
mt25208_dma_lookup(struct mt25208 *dev, uint64_t iova, size_t len)
{
	const struct mt25208_dma_win *w;
	unsigned int lo = 0, hi = dev->nwins;

	if (dev->last_win < dev->nwins) {
		w = &dev->wins[dev->last_win];
		if (iova >= w->iova && iova - w->iova <= w->len &&
		    len <= w->len - (iova - w->iova))
			return w->host + (iova - w->iova);
	}
	/* Binary search: last window with w->iova <= iova. */
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (dev->wins[mid].iova <= iova)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) {
		w = &dev->wins[lo - 1];
		if (iova - w->iova <= w->len && len <= w->len - (iova - w->iova)) {
			dev->last_win = lo - 1;
			return w->host + (iova - w->iova);
		}
	}
	return NULL;
}
