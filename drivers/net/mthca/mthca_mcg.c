/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Multicast groups (Linux mthca_mcg.c mthca_multicast_attach / _detach):
 * MGID_HASH names the hash bucket, READ_MGM walks the chain through each
 * entry's next index, collisions get an overflow (AMGM) entry linked from
 * the chain's last; QP slots are packed at the front of an entry, valid
 * bit 31. The HCA keys groups by MGID; the MLID is not used.
 */

#include <errno.h>

#include "mthca.h"
#include "mthca_cmd.h"

static int
read_mgm_locked(struct mthca_dev *dev, uint32_t index, uint8_t *mgm)
{
	int st = mthca_cmd_box_locked(dev, MTHCA_CMD_READ_MGM, 0, index, false, true);

	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: READ_MGM %u: status 0x%02x", dev->name, index, st);
		return mthca_status_errno(st);
	}
	memcpy(mgm, dev->mbox_out.va, MTHCA_MGM_ENTRY_SIZE);
	return 0;
}

static int
write_mgm_locked(struct mthca_dev *dev, uint32_t index, const uint8_t *mgm)
{
	int st;

	memcpy(dev->mbox_in.va, mgm, MTHCA_MGM_ENTRY_SIZE);
	st = mthca_cmd_box_locked(dev, MTHCA_CMD_WRITE_MGM, 0, index, true, false);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: WRITE_MGM %u: status 0x%02x", dev->name, index, st);
		return mthca_status_errno(st);
	}
	return 0;
}

static bool
gid_is_zero(const uint8_t *g)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		if (g[i] != 0)
			return false;
	return true;
}

/*
 * Find the entry of @p gid: *index is its MGM index (or, when not found,
 * the entry a new group goes into: the empty bucket head, or -1 when the
 * chain is full and *prev is its last entry).
 */
static int
find_mgm_locked(struct mthca_dev *dev, const uint8_t *gid, uint8_t *mgm, int *index, int *prev)
{
	uint64_t hash = 0;
	int st;

	memset(dev->mbox_in.va, 0, 16);
	memcpy(dev->mbox_in.va, gid, 16);
	st = mthca_cmd_locked(dev, dev->mbox_in.iova, &hash, 0, 0, MTHCA_CMD_MGID_HASH);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: MGID_HASH: status 0x%02x", dev->name, st);
		return mthca_status_errno(st);
	}
	*index = (int)(hash & 0xffff);
	*prev = -1;
	if ((uint32_t)*index >= dev->num_mcgs / 2) {
		MTHCA_LOG(ERR, "%s: MGID_HASH gave %d, beyond %u buckets", dev->name, *index,
			  dev->num_mcgs / 2);
		return -EIO;
	}
	for (;;) {
		uint32_t next;

		st = read_mgm_locked(dev, *index, mgm);
		if (st != 0)
			return st;
		if (gid_is_zero(mgm + MTHCA_MGM_GID))
			return *prev == -1 ? 0 : -EIO;	/* an empty entry inside a chain */
		if (memcmp(mgm + MTHCA_MGM_GID, gid, 16) == 0)
			return 0;
		next = mthca_get32(mgm, MTHCA_MGM_NEXT) >> 6;
		*prev = *index;
		if (next == 0) {
			*index = -1;
			return 0;
		}
		*index = (int)next;
	}
}

int
mthca_mcg_attach(struct mthca_dev *dev, const uint8_t gid[16], uint32_t qpn)
{
	uint8_t mgm[MTHCA_MGM_ENTRY_SIZE], prev_mgm[MTHCA_MGM_ENTRY_SIZE];
	int index, prev, ret, i;
	int64_t amgm = -1;

	pthread_mutex_lock(&dev->mcg_lock);
	pthread_mutex_lock(&dev->cmd_lock);
	ret = find_mgm_locked(dev, gid, mgm, &index, &prev);
	if (ret != 0)
		goto out;
	if (index == -1) {
		amgm = mthca_bitmap_alloc(&dev->amgm_map, 1, 1);
		if (amgm < 0) {
			ret = -ENOSPC;
			goto out;
		}
		index = (int)amgm;
		memset(mgm, 0, sizeof(mgm));
	}
	if (gid_is_zero(mgm + MTHCA_MGM_GID))
		memcpy(mgm + MTHCA_MGM_GID, gid, 16);
	for (i = 0; i < MTHCA_QP_PER_MGM; i++) {
		uint32_t v = mthca_get32(mgm, MTHCA_MGM_QP + 4 * i);

		if (!(v & MTHCA_MGM_QP_VALID))
			break;
		if ((v & 0xffffff) == qpn) {
			ret = 0;	/* already a member */
			goto out;
		}
	}
	if (i == MTHCA_QP_PER_MGM) {
		MTHCA_LOG(ERR, "%s: multicast group full (%d QPs)", dev->name, MTHCA_QP_PER_MGM);
		ret = -ENOSPC;
		goto out;
	}
	mthca_put32(mgm, MTHCA_MGM_QP + 4 * i, MTHCA_MGM_QP_VALID | qpn);
	ret = write_mgm_locked(dev, index, mgm);
	if (ret == 0 && amgm >= 0) {
		/* link the new overflow entry from the chain's last */
		ret = read_mgm_locked(dev, prev, prev_mgm);
		if (ret == 0) {
			mthca_put32(prev_mgm, MTHCA_MGM_NEXT, (uint32_t)amgm << 6);
			ret = write_mgm_locked(dev, prev, prev_mgm);
		}
	}
	if (ret == 0)
		amgm = -1;
out:
	if (amgm >= 0)
		mthca_bitmap_release(&dev->amgm_map, (uint32_t)amgm, 1);
	pthread_mutex_unlock(&dev->cmd_lock);
	pthread_mutex_unlock(&dev->mcg_lock);
	return ret;
}

int
mthca_mcg_detach(struct mthca_dev *dev, const uint8_t gid[16], uint32_t qpn)
{
	uint8_t mgm[MTHCA_MGM_ENTRY_SIZE], other[MTHCA_MGM_ENTRY_SIZE];
	int index, prev, ret, i, loc = -1, last = -1;
	uint32_t next;

	pthread_mutex_lock(&dev->mcg_lock);
	pthread_mutex_lock(&dev->cmd_lock);
	ret = find_mgm_locked(dev, gid, mgm, &index, &prev);
	if (ret != 0)
		goto out;
	if (index == -1 || gid_is_zero(mgm + MTHCA_MGM_GID)) {
		ret = -ENOENT;
		goto out;
	}
	for (i = 0; i < MTHCA_QP_PER_MGM; i++) {
		uint32_t v = mthca_get32(mgm, MTHCA_MGM_QP + 4 * i);

		if (!(v & MTHCA_MGM_QP_VALID))
			break;
		if ((v & 0xffffff) == qpn)
			loc = i;
		last = i;
	}
	if (loc == -1) {
		ret = -ENOENT;
		goto out;
	}
	/* the last valid slot fills the hole */
	mthca_put32(mgm, MTHCA_MGM_QP + 4 * loc, mthca_get32(mgm, MTHCA_MGM_QP + 4 * last));
	mthca_put32(mgm, MTHCA_MGM_QP + 4 * last, 0);
	if (last != 0) {
		ret = write_mgm_locked(dev, index, mgm);
		goto out;
	}
	/* the group is empty: take the entry out of its chain */
	next = mthca_get32(mgm, MTHCA_MGM_NEXT) >> 6;
	if (prev == -1) {
		if (next != 0) {
			ret = read_mgm_locked(dev, next, other);
			if (ret == 0)
				ret = write_mgm_locked(dev, index, other);
			if (ret == 0)
				mthca_bitmap_release(&dev->amgm_map, next, 1);
		} else {
			memset(mgm, 0, sizeof(mgm));
			ret = write_mgm_locked(dev, index, mgm);
		}
	} else {
		ret = read_mgm_locked(dev, prev, other);
		if (ret == 0) {
			mthca_put32(other, MTHCA_MGM_NEXT, next << 6);
			ret = write_mgm_locked(dev, prev, other);
		}
		if (ret == 0) {
			memset(mgm, 0, sizeof(mgm));
			write_mgm_locked(dev, index, mgm);
			mthca_bitmap_release(&dev->amgm_map, (uint32_t)index, 1);
		}
	}
out:
	pthread_mutex_unlock(&dev->cmd_lock);
	pthread_mutex_unlock(&dev->mcg_lock);
	return ret;
}
