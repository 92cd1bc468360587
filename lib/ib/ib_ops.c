/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Checked wrappers around the PMD's struct rte_ib_dev_ops: arguments are
 * validated here, once, so that every PMD can trust them; negative errnos
 * from the ops become -1 with rte_errno at this public boundary.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "ib_private.h"

/* Common checks: @p dev registered, optional @p port valid. */
static int
ib_check(const struct rte_ib_device *dev, int port)
{
	if (dev == NULL || dev->core == NULL)
		return -EINVAL;
	if (port >= 0 && !ib_port_is_valid(dev, (uint8_t)port))
		return -EINVAL;
	return 0;
}

int
rte_ib_query_device(struct rte_ib_device *dev, struct rte_ib_device_attr *attr)
{
	int ret = ib_check(dev, -1);

	if (ret == 0 && attr == NULL)
		ret = -EINVAL;
	if (ret == 0 && dev->ops->query_device == NULL)
		ret = -ENOTSUP;
	if (ret == 0) {
		memset(attr, 0, sizeof(*attr));
		ret = dev->ops->query_device(dev, attr);
	}
	return ib_ret(ret);
}

int
rte_ib_query_port(struct rte_ib_device *dev, uint8_t port,
		  struct rte_ib_port_attr *attr)
{
	int ret = ib_check(dev, port);

	if (ret == 0 && attr == NULL)
		ret = -EINVAL;
	if (ret == 0 && dev->ops->query_port == NULL)
		ret = -ENOTSUP;
	if (ret == 0) {
		memset(attr, 0, sizeof(*attr));
		ret = dev->ops->query_port(dev, port, attr);
	}
	if (ret == 0)
		ib_cache_set_attr(dev, port, attr);
	return ib_ret(ret);
}

int
rte_ib_modify_port(struct rte_ib_device *dev, uint8_t port, uint32_t set,
		   uint32_t clear)
{
	struct rte_ib_port_attr pa = { 0 };
	int ret = ib_check(dev, port);

	if (ret == 0 && (set & clear) != 0) {
		IB_LOG(ERR, "%s port %u: cap bits 0x%08x both set and cleared",
		       dev->name, port, set & clear);
		ret = -EINVAL;
	}
	if (ret == 0 && dev->ops->modify_port == NULL)
		ret = -ENOTSUP;
	if (ret == 0)
		ret = dev->ops->modify_port(dev, port, set, clear);
	/* CapabilityMask only: the tables are as they were */
	if (ret == 0 && dev->ops->query_port != NULL &&
	    dev->ops->query_port(dev, port, &pa) == 0)
		ib_cache_set_attr(dev, port, &pa);
	return ib_ret(ret);
}

/* Check an address: name the first bad field. */
static int
ib_ah_attr_check(const struct rte_ib_device *dev,
		 const struct rte_ib_ah_attr *attr)
{
	if (!ib_port_is_valid(dev, attr->port_num)) {
		IB_LOG(ERR, "%s: ah port_num=%u: not a port", dev->name,
		       attr->port_num);
		return -EINVAL;
	}
	if (attr->dlid == RTE_IB_LID_RESERVED) {
		IB_LOG(ERR, "%s: ah dlid=0: reserved LID", dev->name);
		return -EINVAL;
	}
	if (attr->sl > 15) {
		IB_LOG(ERR, "%s: ah sl=%u: more than 4 bits", dev->name, attr->sl);
		return -EINVAL;
	}
	if (attr->src_path_bits > 0x7f) {
		IB_LOG(ERR, "%s: ah src_path_bits=0x%x: more than 7 bits",
		       dev->name, attr->src_path_bits);
		return -EINVAL;
	}
	if ((attr->ah_flags & ~RTE_IB_AH_GRH) != 0) {
		IB_LOG(ERR, "%s: ah ah_flags=0x%x: unknown flag", dev->name,
		       attr->ah_flags);
		return -EINVAL;
	}
	if ((attr->ah_flags & RTE_IB_AH_GRH) != 0 &&
	    attr->grh.flow_label > 0xfffff) {
		IB_LOG(ERR, "%s: ah flow_label=0x%x: more than 20 bits",
		       dev->name, attr->grh.flow_label);
		return -EINVAL;
	}
	return 0;
}

struct rte_ib_ah *
rte_ib_ah_create(struct rte_ib_device *dev, const struct rte_ib_ah_attr *attr)
{
	struct rte_ib_ah *ah = NULL;
	int ret = ib_check(dev, -1);

	if (ret == 0 && attr == NULL)
		ret = -EINVAL;
	if (ret == 0)
		ret = ib_ah_attr_check(dev, attr);
	if (ret == 0 && (dev->ops->ah_create == NULL || dev->ops->ah_destroy == NULL))
		ret = -ENOTSUP;
	if (ret == 0)
		ret = dev->ops->ah_create(dev, attr, &ah);
	if (ret == 0 && ah == NULL)
		ret = -ENOMEM;
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	ah->dev = dev;
	ah->attr = *attr;
	return ah;
}

int
rte_ib_ah_destroy(struct rte_ib_ah *ah)
{
	int ret;

	if (ah == NULL)
		return 0;
	ret = ib_check(ah->dev, -1);
	if (ret == 0 && ah->dev->ops->ah_destroy == NULL)
		ret = -ENOTSUP;
	if (ret == 0)
		ret = ah->dev->ops->ah_destroy(ah->dev, ah);
	return ib_ret(ret);
}

/* Checks shared by attach and detach. */
static int
ib_mcast_check(const struct rte_ib_device *dev, const struct rte_ib_gid *gid,
	       uint16_t lid, uint32_t qpn)
{
	int ret = ib_check(dev, -1);

	if (ret < 0 || gid == NULL)
		return -EINVAL;
	if (!rte_ib_gid_is_multicast(gid)) {
		IB_LOG(ERR, "%s: mcast gid: first byte 0x%02x, not 0xff",
		       dev->name, gid->raw[0]);
		return -EINVAL;
	}
	if (!rte_ib_lid_is_multicast(lid)) {
		IB_LOG(ERR, "%s: mcast lid=0x%04x: not a multicast LID",
		       dev->name, lid);
		return -EINVAL;
	}
	if (qpn > 0xffffff || qpn <= 1) {
		IB_LOG(ERR, "%s: mcast qpn=0x%x: not a data QP", dev->name, qpn);
		return -EINVAL;
	}
	return 0;
}

int
rte_ib_mcast_attach(struct rte_ib_device *dev, const struct rte_ib_gid *gid,
		    uint16_t lid, uint32_t qpn)
{
	int ret = ib_mcast_check(dev, gid, lid, qpn);

	if (ret == 0 && dev->ops->mcast_attach == NULL)
		ret = -ENOTSUP;
	if (ret == 0)
		ret = dev->ops->mcast_attach(dev, gid, lid, qpn);
	return ib_ret(ret);
}

int
rte_ib_mcast_detach(struct rte_ib_device *dev, const struct rte_ib_gid *gid,
		    uint16_t lid, uint32_t qpn)
{
	int ret = ib_mcast_check(dev, gid, lid, qpn);

	if (ret == 0 && dev->ops->mcast_detach == NULL)
		ret = -ENOTSUP;
	if (ret == 0)
		ret = dev->ops->mcast_detach(dev, gid, lid, qpn);
	return ib_ret(ret);
}

int
rte_ib_mad_send(struct rte_ib_device *dev, uint8_t port, uint8_t qpn,
		const struct rte_ib_mad_send_buf *buf)
{
	int ret = ib_check(dev, port);

	if (ret == 0 && (buf == NULL || buf->mad == NULL || qpn > 1 ||
			 buf->len != RTE_IB_MAD_SIZE))
		ret = -EINVAL;
	if (ret == 0 && dev->ops->mad_send == NULL)
		ret = -ENOTSUP;
	if (ret == 0)
		ret = dev->ops->mad_send(dev, port, qpn, buf);
	return ib_ret(ret);
}

int
rte_ib_process_mad(struct rte_ib_device *dev, uint8_t port,
		   const struct rte_ib_mad_wc *in_wc, const void *in_mad,
		   void *out_mad)
{
	int ret = ib_check(dev, port);

	if (ret == 0 && (in_mad == NULL || out_mad == NULL))
		ret = -EINVAL;
	if (ret == 0 && dev->ops->process_mad == NULL)
		ret = -ENOTSUP;
	if (ret == 0)
		ret = dev->ops->process_mad(dev, port, in_wc, in_mad, out_mad);
	return ib_ret(ret);
}

int
rte_ib_device_set_mad_handler(struct rte_ib_device *dev, rte_ib_mad_recv_cb cb,
			      void *arg)
{
	int ret = ib_check(dev, -1);

	if (ret < 0)
		return ib_ret(ret);
	rte_rwlock_write_lock(&dev->core->mad_lock);
	if (cb != NULL && dev->core->mad_cb != NULL)
		ret = -EBUSY;
	else {
		dev->core->mad_cb = cb;
		dev->core->mad_arg = arg;
	}
	rte_rwlock_write_unlock(&dev->core->mad_lock);
	return ib_ret(ret);
}

int
rte_ib_device_mad_recv(struct rte_ib_device *dev, const struct rte_ib_mad_wc *wc,
		       const void *mad, uint32_t len)
{
	int ret = ib_check(dev, -1);

	if (ret == 0 && (wc == NULL || mad == NULL || len != RTE_IB_MAD_SIZE ||
			 wc->qpn > 1 || !ib_port_is_valid(dev, wc->port)))
		ret = -EINVAL;
	if (ret < 0)
		return ib_ret(ret);
	/* Held across the handler: removing it waits for this delivery. */
	rte_rwlock_read_lock(&dev->core->mad_lock);
	if (dev->core->mad_cb != NULL)
		dev->core->mad_cb(dev, wc, mad, len, dev->core->mad_arg);
	else
		ret = -ENODEV;
	rte_rwlock_read_unlock(&dev->core->mad_lock);
	return ib_ret(ret);
}

int
rte_ib_device_intr_fd(struct rte_ib_device *dev)
{
	if (ib_check(dev, -1) < 0 || dev->ops->intr_fd == NULL)
		return -1;
	return dev->ops->intr_fd(dev);
}

int
rte_ib_device_intr_process(struct rte_ib_device *dev)
{
	int ret = ib_check(dev, -1);

	if (ret == 0 && dev->ops->intr_process == NULL)
		ret = -ENOTSUP;
	if (ret == 0)
		ret = dev->ops->intr_process(dev);
	return ib_ret(ret);
}

/* ---- UD queues and UD ports ------------------------------------------------ */

/* @p index within @p port's P_Key table as cached (unchecked before a first read). */
static int
ib_pkey_index_check(struct rte_ib_device *dev, uint8_t port, uint16_t index)
{
	const struct ib_port_cache *c = &dev->core->port[port - 1];
	uint16_t len;
	bool valid;

	rte_rwlock_read_lock(&dev->core->lock);
	valid = c->valid;
	len = c->attr.pkey_tbl_len;
	rte_rwlock_read_unlock(&dev->core->lock);
	if (valid && index >= len) {
		IB_LOG(ERR, "%s port %u: pkey_index=%u: the P_Key table has %u entries",
		       dev->name, port, index, len);
		return -EINVAL;
	}
	return 0;
}

/* The device of ethdev @p port_id (-ENODEV when it is no IB port's). */
static int
ib_ud_dev(uint16_t port_id, struct rte_ib_device **dev, uint8_t *ib_port, bool *ud)
{
	*dev = ib_device_of_port(port_id, ib_port, ud);
	return *dev == NULL ? -ENODEV : 0;
}

int
rte_ib_ud_queue_info(uint16_t port_id, uint16_t queue_id, bool tx,
		     struct rte_ib_ud_queue_info *info)
{
	struct rte_ib_device *dev;
	bool ud;
	int ret = ib_ud_dev(port_id, &dev, NULL, &ud);

	if (ret == 0 && info == NULL)
		ret = -EINVAL;
	if (ret == 0 && dev->ops->ud_queue_info == NULL)
		ret = -ENOTSUP;
	if (ret == 0) {
		memset(info, 0, sizeof(*info));
		ret = dev->ops->ud_queue_info(dev, port_id, queue_id, tx, info);
	}
	return ib_ret(ret);
}

int
rte_ib_ud_qkey_set(uint16_t port_id, uint32_t qkey)
{
	struct rte_ib_device *dev;
	bool ud;
	int ret = ib_ud_dev(port_id, &dev, NULL, &ud);

	if (ret == 0 && (qkey & RTE_IB_QKEY_CONTROLLED) != 0) {
		IB_LOG(ERR, "%s: ethdev %u: qkey=0x%08x: bit 31 set, a controlled "
		       "Q_Key is for privileged QPs (IBA 10.2.4)", dev->name,
		       port_id, qkey);
		ret = -EINVAL;
	}
	if (ret == 0 && dev->ops->ud_qkey_set == NULL)
		ret = -ENOTSUP;
	if (ret == 0)
		ret = dev->ops->ud_qkey_set(dev, port_id, qkey);
	return ib_ret(ret);
}

int
rte_ib_ud_port_create(struct rte_ib_device *dev, uint8_t ib_port,
		      uint16_t pkey_index, uint16_t *port_id)
{
	int ret = ib_check(dev, ib_port);

	if (ret == 0 && port_id == NULL)
		ret = -EINVAL;
	if (ret == 0)
		ret = ib_pkey_index_check(dev, ib_port, pkey_index);
	/* a UD port the core could not map back, or not destroy, is no use */
	if (ret == 0 && (dev->ops->ud_port_create == NULL ||
			 dev->ops->ud_port_destroy == NULL ||
			 dev->ops->ud_port_lookup == NULL))
		ret = -ENOTSUP;
	if (ret == 0)
		ret = dev->ops->ud_port_create(dev, ib_port, pkey_index, port_id);
	return ib_ret(ret);
}

int
rte_ib_ud_port_destroy(uint16_t port_id)
{
	struct rte_ib_device *dev;
	uint8_t ib_port = 0;
	bool ud = false;
	int ret = ib_ud_dev(port_id, &dev, &ib_port, &ud);

	if (ret == 0 && !ud) {
		IB_LOG(ERR, "%s: ethdev %u is the ethdev of IB port %u, not a UD port",
		       dev->name, port_id, ib_port);
		ret = -EINVAL;
	}
	if (ret == 0 && dev->ops->ud_port_destroy == NULL)
		ret = -ENOTSUP;
	if (ret == 0)
		ret = dev->ops->ud_port_destroy(dev, port_id);
	return ib_ret(ret);
}

int
rte_ib_ud_port_pkey_index_set(uint16_t port_id, uint16_t pkey_index)
{
	struct rte_ib_device *dev;
	uint8_t ib_port = 0;
	bool ud;
	int ret = ib_ud_dev(port_id, &dev, &ib_port, &ud);

	if (ret == 0)
		ret = ib_pkey_index_check(dev, ib_port, pkey_index);
	if (ret == 0 && dev->ops->ud_port_pkey_index_set == NULL)
		ret = -ENOTSUP;
	if (ret == 0)
		ret = dev->ops->ud_port_pkey_index_set(dev, port_id, pkey_index);
	return ib_ret(ret);
}
