/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Agents: registration by class, version and method mask, and the two
 * lookups of the receive path (Linux find_mad_agent()): a response goes to
 * the agent whose TID high part it carries, a request to the agent that
 * registered its class, version and method on that port and QP.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>

#include "ibmad_private.h"

/* Under ibmad_lock. */
struct rte_ibmad_agent *ibmad_agents[RTE_IBMAD_MAX_AGENTS];

/* The last high TID part handed out; 0 is never used, so that a TID
 * of 0 (a sender that did not set one) matches no agent. The first is
 * random (per process), the next ones follow it, so that each agent has
 * its own and another process's cannot be guessed from ours. Under
 * ibmad_lock.
 */
static uint32_t last_hi_tid;
static bool hi_tid_seeded;

static bool
method_in_mask(const uint64_t mask[2], uint8_t method)
{
	return method < 128 && (mask[method / 64] >> (method % 64) & 1) != 0;
}

/* Check @p conf; name the first bad field. */
static int
agent_conf_check(const struct rte_ibmad_agent_conf *conf)
{
	bool smi_class;

	if (conf->dev == NULL || conf->dev->core == NULL) {
		IBMAD_LOG(ERR, "agent dev: not a registered IB device");
		return -EINVAL;
	}
	if (conf->port < 1 || conf->port > conf->dev->phys_port_cnt) {
		IBMAD_LOG(ERR, "%s: agent port=%u: not a port", conf->dev->name,
			  conf->port);
		return -EINVAL;
	}
	if (conf->qpn > 1) {
		IBMAD_LOG(ERR, "%s: agent qpn=%u: not 0 or 1", conf->dev->name,
			  conf->qpn);
		return -EINVAL;
	}
	if (conf->mgmt_class == 0) {
		if (conf->method_mask[0] != 0 || conf->method_mask[1] != 0) {
			IBMAD_LOG(ERR, "%s: agent method_mask without mgmt_class",
				  conf->dev->name);
			return -EINVAL;
		}
		return 0;
	}
	/* Linux ib_register_mad_agent(): range 2 needs an OUI, of 24 bits. */
	if (ibmad_class_has_oui(conf->mgmt_class) &&
	    (conf->oui == 0 || conf->oui > 0xffffff)) {
		IBMAD_LOG(ERR, "%s: agent oui=0x%x: vendor class 0x%02x needs a "
			  "non-zero 24-bit OUI", conf->dev->name, conf->oui,
			  conf->mgmt_class);
		return -EINVAL;
	}
	/* QP0 carries the SM classes only, QP1 every other (IBA 13.5.1). */
	smi_class = ibmad_class_is_smp(conf->mgmt_class);
	if (smi_class != (conf->qpn == 0)) {
		IBMAD_LOG(ERR, "%s: agent mgmt_class=0x%02x on QP%u: class of QP%u",
			  conf->dev->name, conf->mgmt_class, conf->qpn,
			  smi_class ? 0 : 1);
		return -EINVAL;
	}
	return 0;
}

/* Some other agent already takes a method of @p conf. Caller holds
 * ibmad_lock.
 */
static bool
agent_methods_taken(const struct rte_ibmad_agent_conf *conf)
{
	const struct rte_ibmad_agent *a;
	unsigned int i;

	if (conf->mgmt_class == 0)
		return false;
	for (i = 0; i < RTE_DIM(ibmad_agents); i++) {
		a = ibmad_agents[i];
		if (a == NULL || a->dead || a->conf.dev != conf->dev ||
		    a->conf.port != conf->port || a->conf.qpn != conf->qpn ||
		    a->conf.mgmt_class != conf->mgmt_class ||
		    a->conf.class_version != conf->class_version)
			continue;
		/* Range 2: each OUI has its own methods (Linux
		 * add_oui_reg_req(), one method table per OUI).
		 */
		if (ibmad_class_has_oui(conf->mgmt_class) &&
		    a->conf.oui != conf->oui)
			continue;
		if ((a->conf.method_mask[0] & conf->method_mask[0]) != 0 ||
		    (a->conf.method_mask[1] & conf->method_mask[1]) != 0)
			return true;
	}
	return false;
}

struct rte_ibmad_agent *
rte_ibmad_agent_register(const struct rte_ibmad_agent_conf *conf)
{
	struct rte_ibmad_agent *agent;
	struct ibmad_dev *mdev;
	int slot = -1, ret;
	unsigned int i;

	if (conf == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	ret = agent_conf_check(conf);
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	agent = calloc(1, sizeof(*agent));
	if (agent == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_lock(&ibmad_lock);
	mdev = ibmad_dev_of(conf->dev);
	if (mdev == NULL) {
		IBMAD_LOG(ERR, "%s: not served by the MAD core", conf->dev->name);
		ret = -EINVAL;
	} else if (agent_methods_taken(conf)) {
		IBMAD_LOG(ERR, "%s port %u QP%u: class 0x%02x version %u: "
			  "a method is taken by another agent", conf->dev->name,
			  conf->port, conf->qpn, conf->mgmt_class,
			  conf->class_version);
		ret = -EBUSY;
	}
	for (i = 0; ret == 0 && i < RTE_DIM(ibmad_agents) && slot < 0; i++)
		if (ibmad_agents[i] == NULL)
			slot = (int)i;
	if (ret == 0 && slot < 0)
		ret = -ENOSPC;
	if (ret < 0) {
		pthread_mutex_unlock(&ibmad_lock);
		free(agent);
		rte_errno = -ret;
		return NULL;
	}
	agent->mdev = mdev;
	agent->conf = *conf;
	if (!hi_tid_seeded) {
		last_hi_tid = ibmad_tid_random();
		hi_tid_seeded = true;
	}
	if (++last_hi_tid == 0)
		last_hi_tid = 1;
	agent->hi_tid = last_hi_tid;
	agent->next_tid = ibmad_tid_random();
	ibmad_agents[slot] = agent;
	pthread_mutex_unlock(&ibmad_lock);
	IBMAD_LOG(DEBUG, "%s port %u QP%u: agent class 0x%02x version %u, hi TID 0x%08x",
		  conf->dev->name, conf->port, conf->qpn, conf->mgmt_class,
		  conf->class_version, agent->hi_tid);
	return agent;
}

/* Slot of @p agent, or -1. Caller holds ibmad_lock. */
static int
agent_slot(const struct rte_ibmad_agent *agent)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(ibmad_agents); i++)
		if (ibmad_agents[i] == agent)
			return (int)i;
	return -1;
}

bool
ibmad_agent_is_live(const struct rte_ibmad_agent *agent)
{
	int slot = agent_slot(agent);

	return slot >= 0 && !ibmad_agents[slot]->dead;
}

int
rte_ibmad_agent_unregister(struct rte_ibmad_agent *agent)
{
	int slot;

	if (agent == NULL)
		return 0;
	pthread_mutex_lock(&ibmad_lock);
	slot = agent_slot(agent);
	if (slot < 0 || agent->dead) {
		pthread_mutex_unlock(&ibmad_lock);
		rte_errno = EINVAL;
		return -1;
	}
	agent->dead = true;
	ibmad_send_cancel_all(agent, -ECANCELED);
	if (!ibmad_in_callback()) {
		ibmad_agents[slot] = NULL;
		free(agent);
	}
	pthread_mutex_unlock(&ibmad_lock);
	return 0;
}

void
ibmad_agents_reap(void)
{
	unsigned int i;

	if (ibmad_in_callback())
		return;
	for (i = 0; i < RTE_DIM(ibmad_agents); i++) {
		if (ibmad_agents[i] != NULL && ibmad_agents[i]->dead) {
			free(ibmad_agents[i]);
			ibmad_agents[i] = NULL;
		}
	}
}

void
ibmad_agents_detach(struct ibmad_dev *mdev)
{
	struct rte_ibmad_agent *a;
	unsigned int i;

	for (i = 0; i < RTE_DIM(ibmad_agents); i++) {
		a = ibmad_agents[i];
		if (a == NULL || a->mdev != mdev)
			continue;
		ibmad_send_cancel_all(a, -ENODEV);
		a->mdev = NULL;
	}
}

uint32_t
rte_ibmad_agent_hi_tid(const struct rte_ibmad_agent *agent)
{
	return agent != NULL ? agent->hi_tid : 0;
}

struct rte_ibmad_agent *
ibmad_agent_find_response(const struct ibmad_dev *mdev, uint8_t port,
			  uint8_t qpn, const uint8_t *mad)
{
	const struct rte_ib_mad_hdr *hdr = (const struct rte_ib_mad_hdr *)mad;
	uint32_t hi = (uint32_t)(rte_be_to_cpu_64(hdr->tid) >> 32);
	struct rte_ibmad_agent *a;
	unsigned int i;

	for (i = 0; i < RTE_DIM(ibmad_agents); i++) {
		a = ibmad_agents[i];
		if (a != NULL && !a->dead && a->mdev == mdev &&
		    a->hi_tid == hi && a->conf.port == port &&
		    a->conf.qpn == qpn)
			return a;
	}
	return NULL;
}

struct rte_ibmad_agent *
ibmad_agent_find_request(const struct ibmad_dev *mdev, uint8_t port,
			 uint8_t qpn, const uint8_t *mad)
{
	const struct rte_ib_mad_hdr *hdr = (const struct rte_ib_mad_hdr *)mad;
	struct rte_ibmad_agent *a;
	unsigned int i;

	for (i = 0; i < RTE_DIM(ibmad_agents); i++) {
		a = ibmad_agents[i];
		if (a != NULL && !a->dead && a->mdev == mdev &&
		    a->conf.port == port && a->conf.qpn == qpn &&
		    a->conf.mgmt_class != 0 &&
		    a->conf.mgmt_class == hdr->mgmt_class &&
		    a->conf.class_version == hdr->class_version &&
		    method_in_mask(a->conf.method_mask, hdr->method) &&
		    (!ibmad_class_has_oui(hdr->mgmt_class) ||
		     a->conf.oui == ibmad_mad_oui(mad)))
			return a;
	}
	return NULL;
}
