/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * DMA buffers (IOVA-contiguous memzones, zeroed: Linux gives the HCA only
 * zeroed memory, some firmware relies on it) and the small first-fit
 * bitmap allocators behind QPNs, CQNs, MPT slots, MTT segments and
 * doorbell records. Control path only.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_malloc.h>
#include <rte_memzone.h>

#include "mthca.h"

int
mthca_dma_alloc(struct mthca_dev *dev, size_t len, size_t align, struct mthca_dma *d)
{
	char name[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;

	len = RTE_ALIGN_CEIL(len, MTHCA_ICM_PAGE_SIZE);
	if (align < MTHCA_ICM_PAGE_SIZE)
		align = MTHCA_ICM_PAGE_SIZE;
	snprintf(name, sizeof(name), "mthca%.12s_%u", dev->name, dev->dma_seq++);
	/* bounded to 4 GiB: WQE and CQE addresses carry only 32 bits */
	mz = rte_memzone_reserve_bounded(name, len, SOCKET_ID_ANY,
					 RTE_MEMZONE_IOVA_CONTIG, align, 0);
	if (mz == NULL) {
		MTHCA_LOG(ERR, "%s: no DMA memory for %zu bytes: %s", dev->name, len,
			  rte_strerror(rte_errno));
		return -ENOMEM;
	}
	memset(mz->addr, 0, len);
	d->mz = mz;
	d->va = mz->addr;
	d->iova = mz->iova;
	d->len = len;
	return 0;
}

void
mthca_dma_free(struct mthca_dma *d)
{
	if (d->mz != NULL)
		rte_memzone_free(d->mz);
	memset(d, 0, sizeof(*d));
}

int
mthca_bitmap_init(struct mthca_bitmap *b, uint32_t n, uint32_t reserved)
{
	b->bits = rte_zmalloc("mthca_bitmap", RTE_ALIGN_CEIL(n, 64) / 8, 0);
	if (b->bits == NULL)
		return -ENOMEM;
	b->n = n;
	if (reserved > 0 && mthca_bitmap_alloc(b, RTE_MIN(reserved, n), 1) < 0)
		return -ENOMEM;
	return 0;
}

void
mthca_bitmap_free(struct mthca_bitmap *b)
{
	rte_free(b->bits);
	b->bits = NULL;
	b->n = 0;
}

static bool
bit_test(const struct mthca_bitmap *b, uint32_t i)
{
	return (b->bits[i / 64] >> (i % 64)) & 1;
}

int64_t
mthca_bitmap_alloc(struct mthca_bitmap *b, uint32_t count, uint32_t align)
{
	uint32_t first, i;

	if (count == 0 || align == 0)
		return -1;
	for (first = 0; first + count <= b->n; first += align) {
		for (i = 0; i < count; i++)
			if (bit_test(b, first + i))
				break;
		if (i == count) {
			for (i = 0; i < count; i++)
				b->bits[(first + i) / 64] |= 1ull << ((first + i) % 64);
			return first;
		}
	}
	return -1;
}

void
mthca_bitmap_release(struct mthca_bitmap *b, uint32_t first, uint32_t count)
{
	uint32_t i;

	for (i = first; i < first + count && i < b->n; i++)
		b->bits[i / 64] &= ~(1ull << (i % 64));
}

uint32_t
mthca_bitmap_used(const struct mthca_bitmap *b)
{
	uint32_t i, n = 0;

	for (i = 0; i < b->n; i++)
		n += bit_test(b, i);
	return n;
}
