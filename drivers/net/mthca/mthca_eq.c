/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Event queues (Linux mthca_eq.c): a completion EQ and an async EQ, each
 * on its own MSI-X vector (EQC intr 0x80 | vector). Commands are polled,
 * so no command EQ is needed. The async EQ takes Linux's async event
 * mask; the completion EQ takes the events of armed CQs (named in each
 * CQ context). Draining: owner bit, read barrier, handle, owner back to
 * hardware; then the full consumer counter to the EQ's set-CI register
 * and the EQ's bit to the arm register (Linux mthca_arbel_msi_x_interrupt,
 * arbel_set_eq_ci, arbel_eq_req_not), all at BAR0 offsets from QUERY_FW.
 *
 * Interrupts: on a simulated function the vectors' eventfds come from
 * GET_IRQ. The async vector wakes the EAL interrupt thread (an EXT
 * handle, whose fd EAL does not read: the callback does); the completion
 * vector, whose only events are the special CQs', is the IB device's
 * intr_fd, on which the MAD core's thread sleeps (mthca_ib.c): a MAD
 * received is one thread wake-up from the HCA to the MAD core, not two.
 * The MAD core's thread drains the completion EQ only (port events
 * stay on the EAL interrupt thread: a port event's refresh on the MAD
 * core's thread held up its MADs); every drainer arms both EQs with one
 * store, under eq_lock. On real hardware the EQs are polled by an EAL alarm every 100 ms
 * (MSI-X through vfio is not wired up).
 */

#include <errno.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_interrupts.h>

#include "mthca.h"
#include "mthca_cmd.h"
#include "mthca_sim.h"

#define EQ_POLL_US	100000

static void
eq_set_ci(struct mthca_dev *dev, struct mthca_eq *eq)
{
	/* owner bytes written back before the HCA may reuse those slots */
	rte_wmb();
	mthca_bar0_write32(dev, dev->eq_set_ci_off + (uint64_t)eq->eqn * 8, eq->cons);
}

/*
 * One store arms every EQ of @p mask: the register holds a bit mask, and a
 * second store before the HCA read the first would replace it (Linux's
 * INTx handler arms its EQs with one write of their OR).
 */
static void
eq_arm(struct mthca_dev *dev, uint32_t mask)
{
	mthca_bar0_write32(dev, dev->eq_arm_off, mask);
}

static void
eqe_handle(struct mthca_dev *dev, const uint8_t *e)
{
	uint8_t type = mthca_get8(e, MTHCA_EQE_TYPE);
	uint32_t data = mthca_get32(e, MTHCA_EQE_DATA) & 0xffffff;
	uint8_t port;

	switch (type) {
	case MTHCA_EVT_PORT_CHANGE:
		port = (mthca_get32(e, MTHCA_EQE_PORT) >> 28) & 3;
		dev->ev->port_change(dev, port, mthca_get8(e, MTHCA_EQE_SUBTYPE) ==
					 MTHCA_PORT_CHANGE_ACTIVE);
		break;
	case MTHCA_EVT_COMP:
		MTHCA_LOG(DEBUG, "%s: completion event, CQ 0x%x", dev->name, data);
		dev->comp_events++;
		dev->ev->cq_event(dev, data);
		break;
	case MTHCA_EVT_CQ_ERROR:
		MTHCA_LOG(ERR, "%s: CQ 0x%x error (%s)", dev->name, data,
			  mthca_get8(e, 0x0f) == 1 ? "overrun" : "access violation");
		break;
	case MTHCA_EVT_WQ_CATAS:
	case MTHCA_EVT_WQ_INVAL_REQ:
	case MTHCA_EVT_WQ_ACCESS:
		MTHCA_LOG(ERR, "%s: QP 0x%x: work queue error event 0x%02x", dev->name, data, type);
		break;
	case MTHCA_EVT_LOCAL_CATAS:
		MTHCA_LOG(ERR, "%s: local catastrophic error", dev->name);
		break;
	default:
		MTHCA_LOG(DEBUG, "%s: event 0x%02x", dev->name, type);
		break;
	}
}

static unsigned int
eq_drain(struct mthca_dev *dev, struct mthca_eq *eq)
{
	unsigned int n = 0;

	for (;;) {
		uint8_t *e = eq->buf.va + (size_t)(eq->cons & (eq->nent - 1)) * MTHCA_EQE_SIZE;
		uint8_t copy[MTHCA_EQE_SIZE];

		if (__atomic_load_n(&e[MTHCA_EQE_OWNER], __ATOMIC_ACQUIRE) & MTHCA_OWNER_HW)
			break;
		/* owner byte before the body */
		rte_rmb();
		memcpy(copy, e, sizeof(copy));
		e[MTHCA_EQE_OWNER] = MTHCA_OWNER_HW;
		eq->cons++;
		n++;
		eqe_handle(dev, copy);
		/* Linux: set-CI at least every 128 (spare) entries of a long drain */
		if ((n & 127) == 0)
			eq_set_ci(dev, eq);
	}
	return n;
}

/*
 * Drain the EQs whose bit is in @p which (MTHCA_EQ_* indexes), then arm
 * every live EQ with one store: a store of fewer bits could replace
 * another drainer's before the HCA read it, and arming an EQ that still
 * holds entries only raises its vector again.
 */
static void
eq_poll(struct mthca_dev *dev, unsigned int which)
{
	uint32_t mask = 0;
	unsigned int i;

	pthread_mutex_lock(&dev->eq_lock);
	for (i = 0; i < MTHCA_NUM_EQ; i++) {
		struct mthca_eq *eq = &dev->eq[i];

		if (!eq->live)
			continue;
		if (which & (1u << i)) {
			eq_drain(dev, eq);
			eq_set_ci(dev, eq);
		}
		mask |= 1u << eq->eqn;
	}
	if (mask != 0)
		eq_arm(dev, mask);
	pthread_mutex_unlock(&dev->eq_lock);
}

void
mthca_eq_poll(struct mthca_dev *dev)
{
	eq_poll(dev, (1u << MTHCA_NUM_EQ) - 1);
}

void
mthca_eq_poll_comp(struct mthca_dev *dev)
{
	eq_poll(dev, 1u << MTHCA_EQ_COMP);
}

static void
eq_intr(void *arg)
{
	struct mthca_dev *dev = arg;
	uint64_t v;
	unsigned int i;

	/* Not the completion vector's fd: the MAD core's thread reads that one. */
	for (i = 0; i < MTHCA_NUM_EQ; i++)
		if (dev->intr_registered[i] && read(dev->eq[i].irq_fd, &v, sizeof(v)) < 0 &&
		    errno != EAGAIN)
			MTHCA_LOG(DEBUG, "%s: eventfd of EQ %u: %s", dev->name, dev->eq[i].eqn,
				  strerror(errno));
	mthca_eq_poll(dev);
}

static void
eq_alarm(void *arg)
{
	struct mthca_dev *dev = arg;

	mthca_eq_poll(dev);
	if (dev->eq_alarm)
		rte_eal_alarm_set(EQ_POLL_US, eq_alarm, dev);
}

static int
eq_create(struct mthca_dev *dev, struct mthca_eq *eq, uint32_t eqn, uint8_t vector)
{
	uint8_t *m;
	uint32_t i;
	int st, ret;

	eq->eqn = eqn;
	eq->nent = MTHCA_EQ_NENT;
	eq->cons = 0;
	eq->vector = vector;
	eq->irq_fd = -1;
	ret = mthca_dma_alloc(dev, (size_t)eq->nent * MTHCA_EQE_SIZE, 0, &eq->buf);
	if (ret != 0)
		return ret;
	for (i = 0; i < eq->nent; i++)
		eq->buf.va[i * MTHCA_EQE_SIZE + MTHCA_EQE_OWNER] = MTHCA_OWNER_HW;
	ret = mthca_mr_buf(dev, &eq->mr, &eq->buf, MTHCA_MPT_F_LOCAL_WRITE);
	if (ret != 0)
		return ret;
	pthread_mutex_lock(&dev->cmd_lock);
	m = dev->mbox_in.va;
	memset(m, 0, MTHCA_EQC_SIZE);
	mthca_put32(m, MTHCA_EQC_FLAGS, MTHCA_EQC_FLAGS_INIT);
	mthca_put64(m, MTHCA_EQC_START, 0);
	mthca_put32(m, MTHCA_EQC_LOGSIZE, (uint32_t)rte_log2_u32(eq->nent) << 24);
	mthca_put8(m, MTHCA_EQC_INTR, MTHCA_EQC_INTR_MSIX(vector));
	mthca_put32(m, MTHCA_EQC_PD, dev->pd);
	mthca_put32(m, MTHCA_EQC_LKEY, eq->mr.lkey);
	st = mthca_cmd_locked(dev, dev->mbox_in.iova, NULL, eqn, 0, MTHCA_CMD_SW2HW_EQ);
	pthread_mutex_unlock(&dev->cmd_lock);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: SW2HW_EQ %u: status 0x%02x", dev->name, eqn, st);
		return mthca_status_errno(st);
	}
	eq->live = true;
	return 0;
}

static void
eq_destroy(struct mthca_dev *dev, struct mthca_eq *eq)
{
	uint64_t out;
	int st;

	if (eq->live) {
		pthread_mutex_lock(&dev->cmd_lock);
		out = dev->mbox_out.iova;
		st = mthca_cmd_locked(dev, 0, &out, eq->eqn, 0, MTHCA_CMD_HW2SW_EQ);
		pthread_mutex_unlock(&dev->cmd_lock);
		if (st != MTHCA_ST_OK)
			MTHCA_LOG(WARNING, "%s: HW2SW_EQ %u: status %d", dev->name, eq->eqn, st);
		eq->live = false;
	}
	mthca_mr_free(dev, &eq->mr);
	mthca_dma_free(&eq->buf);
	if (eq->irq_fd >= 0)
		close(eq->irq_fd);
	eq->irq_fd = -1;
}

static int
eq_irq_init(struct mthca_dev *dev)
{
	unsigned int i;
	int ret;

	if (dev->sim == NULL) {
		dev->eq_alarm = true;
		return rte_eal_alarm_set(EQ_POLL_US, eq_alarm, dev);
	}
	for (i = 0; i < MTHCA_NUM_EQ; i++) {
		struct rte_intr_handle *h;
		int fd = mthca_sim_get_irq(dev, dev->eq[i].vector);

		if (fd < 0)
			return fd;
		dev->eq[i].irq_fd = fd;
		if (i == MTHCA_EQ_COMP) {
			dev->comp_irq_direct = true;
			continue;
		}
		h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_SHARED);
		if (h == NULL)
			return -ENOMEM;
		dev->intr[i] = h;
		if (rte_intr_type_set(h, RTE_INTR_HANDLE_EXT) != 0 || rte_intr_fd_set(h, fd) != 0)
			return -rte_errno;
		ret = rte_intr_callback_register(h, eq_intr, dev);
		if (ret != 0) {
			MTHCA_LOG(ERR, "%s: interrupt callback for EQ %u: %s", dev->name,
				  dev->eq[i].eqn, strerror(-ret));
			return ret;
		}
		dev->intr_registered[i] = true;
	}
	return 0;
}

static void
eq_irq_cleanup(struct mthca_dev *dev)
{
	unsigned int i;

	if (dev->eq_alarm) {
		dev->eq_alarm = false;
		rte_eal_alarm_cancel(eq_alarm, dev);
	}
	for (i = 0; i < MTHCA_NUM_EQ; i++) {
		if (dev->intr_registered[i]) {
			/* -EAGAIN: the callback is running now; wait for it */
			while (rte_intr_callback_unregister(dev->intr[i], eq_intr, dev) == -EAGAIN)
				usleep(1000);
			dev->intr_registered[i] = false;
		}
		rte_intr_instance_free(dev->intr[i]);
		dev->intr[i] = NULL;
	}
}

int
mthca_eq_init(struct mthca_dev *dev)
{
	unsigned int i;
	int st, ret;

	for (i = 0; i < MTHCA_NUM_EQ; i++) {
		/* EQNs after the reserved ones; MSI-X vector i (Linux: COMP 0, ASYNC 1) */
		ret = eq_create(dev, &dev->eq[i], dev->rsvd_eqs + i, (uint8_t)i);
		if (ret != 0)
			return ret;
	}
	st = mthca_cmd(dev, MTHCA_ASYNC_EVENT_MASK, NULL, dev->eq[MTHCA_EQ_ASYNC].eqn, 0,
		       MTHCA_CMD_MAP_EQ);
	if (st != MTHCA_ST_OK) {
		MTHCA_LOG(ERR, "%s: MAP_EQ async: status 0x%02x", dev->name, st);
		return mthca_status_errno(st);
	}
	dev->eq_mapped = true;
	ret = eq_irq_init(dev);
	if (ret != 0)
		return ret;
	eq_arm(dev, (1u << dev->eq[MTHCA_EQ_COMP].eqn) | (1u << dev->eq[MTHCA_EQ_ASYNC].eqn));
	return 0;
}

void
mthca_eq_cleanup(struct mthca_dev *dev)
{
	int i;

	eq_irq_cleanup(dev);
	if (dev->eq_mapped) {
		mthca_cmd(dev, MTHCA_ASYNC_EVENT_MASK, NULL,
			  MTHCA_MAP_EQ_UNMAP | dev->eq[MTHCA_EQ_ASYNC].eqn, 0, MTHCA_CMD_MAP_EQ);
		dev->eq_mapped = false;
	}
	for (i = MTHCA_NUM_EQ - 1; i >= 0; i--)
		eq_destroy(dev, &dev->eq[i]);
}
