/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * MT25208 model: the multicast group table (mthca_mcg.c): READ_MGM,
 * WRITE_MGM, MGID_HASH, and the lookup the data path does for a received
 * multicast packet.
 *
 * The table lives in ICM at the INIT_HCA MC base: mc_hash_sz hash buckets
 * first, then the overflow (AMGM) entries, chained through "next". The
 * hash is firmware-internal (Linux only calls MGID_HASH); the model's is FNV-1a over the
 * 16 MGID bytes, folded and reduced modulo the hash size. The same
 * function answers MGID_HASH and finds received groups, which is all
 * Linux requires.
 */

#include <inttypes.h>
#include <string.h>

#include "fab_log.h"
#include "fab_node.h"
#include "mt25208.h"
#include "mt25208_mbox.h"

uint32_t
mt25208_mgid_hash(const struct mt25208 *dev, const uint8_t *mgid)
{
	uint32_t h = 2166136261u;
	unsigned int i;

	for (i = 0; i < 16; i++) {
		h ^= mgid[i];
		h *= 16777619u;
	}
	h ^= h >> 16;
	return dev->cfg.mc_hash_sz != 0 ? h % dev->cfg.mc_hash_sz : 0;
}

static void *
mgm_entry(struct mt25208 *dev, uint32_t index)
{
	if (dev->fw_state != MT25208_FW_HCA || index >= (1u << dev->cfg.log_mc))
		return NULL;
	return mt25208_icm_ptr(dev, dev->cfg.mc_base + (uint64_t)index * MT_MGM_SIZE,
			       MT_MGM_SIZE);
}

void *
mt25208_mgm_find(struct mt25208 *dev, const uint8_t *mgid)
{
	uint32_t index = mt25208_mgid_hash(dev, mgid);
	unsigned int hops;
	uint8_t *m;

	/* A chain can be at most the whole table long; stop a corrupt loop. */
	for (hops = 0; hops <= (1u << dev->cfg.log_mc); hops++) {
		m = mgm_entry(dev, index);
		if (m == NULL)
			return NULL;
		if (memcmp(m + MT_MGM_GID, mgid, 16) == 0)
			return m;
		index = mt_mgm_next(m);
		if (index == 0)
			return NULL;
	}
	return NULL;
}

static uint8_t
mgm_check(struct mt25208 *dev, uint32_t index, const char *cmd, uint8_t **m)
{
	if (index >= (1u << dev->cfg.log_mc)) {
		FAB_ERR("%s: %s: MGM index %u out of range (%u entries)", dev->node->name,
			cmd, index, 1u << dev->cfg.log_mc);
		return MT_STAT_BAD_INDEX;
	}
	*m = mgm_entry(dev, index);
	if (*m == NULL) {
		FAB_ERR("%s: %s: MGM %u ICM not mapped", dev->node->name, cmd, index);
		return MT_STAT_BAD_RESOURCE;
	}
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_read_mgm(struct mt25208 *dev, struct mt25208_cmd *c)
{
	uint8_t *m, *mb, st;

	st = mgm_check(dev, c->in_mod, "READ_MGM", &m);
	if (st != MT_STAT_OK)
		return st;
	mb = mt25208_mbox_out(dev, c, MT_MGM_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	memcpy(mb, m, MT_MGM_SIZE);
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_write_mgm(struct mt25208 *dev, struct mt25208_cmd *c)
{
	const uint8_t *mb;
	uint8_t *m, st;
	unsigned int i;

	st = mgm_check(dev, c->in_mod, "WRITE_MGM", &m);
	if (st != MT_STAT_OK)
		return st;
	mb = mt25208_mbox_in(dev, c, MT_MGM_SIZE);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	if (mt_mgm_next(mb) >= (1u << dev->cfg.log_mc) ||
	    (mt_mgm_next(mb) != 0 && mt_mgm_next(mb) < dev->cfg.mc_hash_sz)) {
		FAB_ERR("%s: WRITE_MGM %u: next index %u is not an AMGM entry (%u..%u)",
			dev->node->name, c->in_mod, mt_mgm_next(mb), dev->cfg.mc_hash_sz,
			(1u << dev->cfg.log_mc) - 1);
		return MT_STAT_BAD_PARAM;
	}
	/* QP slots: bit 31 valid, bits 30..24 must be zero (struct mthca_mgm). */
	for (i = 0; i < MT_MGM_QP_PER_MGM; i++)
		if (mt_mgm_qp(mb, i) & 0x7f000000u) {
			FAB_ERR("%s: WRITE_MGM %u: QP slot %u = 0x%08x has reserved bits set",
				dev->node->name, c->in_mod, i, mt_mgm_qp(mb, i));
			return MT_STAT_BAD_PARAM;
		}
	memcpy(m, mb, MT_MGM_SIZE);
	return MT_STAT_OK;
}

uint8_t
mt25208_cmd_mgid_hash(struct mt25208 *dev, struct mt25208_cmd *c)
{
	const uint8_t *mb;

	if (dev->cfg.mc_hash_sz == 0)
		return MT_STAT_BAD_SYS_STATE;
	mb = mt25208_mbox_in(dev, c, 16);
	if (mb == NULL)
		return MT_STAT_INTERNAL_ERR;
	c->out_imm = mt25208_mgid_hash(dev, mb);
	return MT_STAT_OK;
}
