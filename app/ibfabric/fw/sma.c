/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Firmware Subnet Management Agent of every simulated node (IBA vol. 1
 * chapter 14.2): the SMP attributes of switches and channel adapters,
 * M_Key protection (14.2.4) and the MAD status codes of 13.4.7.
 *
 * sma_process() works in place on the 256-byte MAD: a request becomes
 * its GetResp; the caller (node_io.c / switch.c) swaps the addresses and, for
 * directed-route SMPs, runs the return-path rules of 14.2.2 (dr.c). This
 * file never touches the hop pointer, hop count or the paths.
 *
 * The "in" port: the port the SMP arrived on. For a CA it is the CA
 * port. For a switch it is the ingress physical port (1..N), or port 0
 * when the SMP came from an agent on the switch itself; it only shows in
 * NodeInfo LocalPortNum and PortInfo LocalPortNum (14.2.5.3, 14.2.5.6).
 * Everything else of a switch lives on port 0: its M_Key, LID, LMC,
 * MasterSMLID, GUIDInfo and CapabilityMask.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fab_node.h"
#include "fabric.h"
#include "fw_agents.h"
#include "ib_proto.h"
#include "mad.h"
#include "port_state.h"

/* One SMP being answered. */
struct sma_req {
	struct fabric *f;
	struct fab_node *node;
	struct fab_port *in;		/* arrival port, never NULL */
	uint8_t *mad;
	uint8_t *data;			/* mad + MAD_SMP_DATA */
	uint8_t method;			/* Get or Set */
	uint32_t mod;
	bool hide_mkey;			/* 14.2.4.1: protect 1, key mismatch, Get */
};

typedef uint16_t (*sma_attr_fn)(struct sma_req *r);

struct sma_attr {
	uint16_t id;
	bool switch_only;
	bool settable;
	sma_attr_fn fn;
};

/* PortInfo values that mean "no change" in a Set (14.2.5.6 table 151). */
#define SMA_WIDTH_SET_SUPPORTED	0xff	/* LinkWidthEnabled: use LinkWidthSupported */
#define SMA_SPEED_SET_SUPPORTED	0x0f	/* LinkSpeedEnabled: use LinkSpeedSupported */

/* Defaults (sma_init_node/sma_init_port say why each is what it is) */
#define SMA_VENDOR_MELLANOX	0x0002c9
#define SMA_DEVID_MT25208	0x6278	/* 25208: InfiniHost III Ex (NodeInfo, not PCI) */
#define SMA_DEVID_MT47396	0xb924	/* 47396: InfiniScale III */
#define SMA_REVISION		0xa0
#define SMA_WIDTH_1X_4X		0x03	/* LinkWidthSupported: 1x and 4x */
#define SMA_WIDTH_4X		0x02
#define SMA_SPEED_SDR_DDR	0x03	/* LinkSpeedSupported: 2.5 and 5.0 Gb/s */
#define SMA_SPEED_DDR		0x02
#define SMA_MTU_2048		4
#define SMA_VL_CAP_8		4	/* VLCap: VL0-7 */
#define SMA_OP_VLS_1		1	/* OperationalVLs after reset: VL0 */
#define SMA_VLARB_CAP		8	/* entries of each VLArb table */
#define SMA_LINK_DOWN_POLLING	2
#define SMA_RESP_TIME		8	/* 4.096 us * 2^8 ~ 1 ms */
#define SMA_LIFE_TIME		0x13	/* SwitchInfo LifeTimeValue until the SM sets it */
#define SMA_HOQ_LIFE_INF	0x1f	/* HOQLife: infinite */
#define SMA_VL_STALL		7

/*
 * CapabilityMask (14.2.5.6 table 152). CA: traps (128 is a switch trap,
 * but 144 and the Notice machinery are the CA's), SL mapping, system
 * image GUID, vendor classes (ibping through umad2sim), CapabilityMask
 * change notices (trap 144, port_state.c) and client reregistration
 * (the bit is stored, it has no other effect here). A switch's port 0:
 * traps (128), SL mapping, system image GUID. Switch external ports:
 * the field is reserved (0).
 */
#define SMA_CAP_CA	(PI_CAP_IS_TRAP_SUP | PI_CAP_IS_SL_MAP_SUP | \
			 PI_CAP_IS_SYS_IMAGE_GUID_SUP | PI_CAP_IS_VENDOR_CLASS_SUP | \
			 PI_CAP_IS_CAP_MASK_NOTICE_SUP | PI_CAP_IS_CLIENT_REREG_SUP)
#define SMA_CAP_SW0	(PI_CAP_IS_TRAP_SUP | PI_CAP_IS_SL_MAP_SUP | \
			 PI_CAP_IS_SYS_IMAGE_GUID_SUP)

static bool
sma_is_switch(const struct fab_node *n)
{
	return n->type == FAB_NODE_SWITCH && n->sw != NULL;
}

/* Port @p num of @p n, or NULL: switches 0..N, CAs and routers 1..N. */
static struct fab_port *
sma_port(struct fab_node *n, uint32_t num)
{
	if (num > n->nports)
		return NULL;
	if (num == 0 && n->type != FAB_NODE_SWITCH)
		return NULL;
	return &n->ports[num];
}

/* The port whose M_Key and SM fields govern @p r (14.2.4: one per switch). */
static struct fab_port *
sma_key_port(const struct sma_req *r)
{
	return r->node->type == FAB_NODE_SWITCH ? &r->node->ports[0] : r->in;
}

/*
 * The port a per-port attribute's modifier names: the port number; 0 is
 * the port the SMP arrived on for a CA and port 0 for a switch
 * (14.2.5.6). NULL if out of range.
 */
static struct fab_port *
sma_mod_port(const struct sma_req *r)
{
	if (r->mod == 0 && r->node->type != FAB_NODE_SWITCH)
		return r->in;
	return sma_port(r->node, r->mod);
}

/* Ports whose PortInfo LID/SM/M_Key fields are reserved: switch external ports. */
static bool
sma_is_switch_ext(const struct fab_port *p)
{
	return p->node->type == FAB_NODE_SWITCH && p->num != 0;
}

static void
sma_sat_inc16(uint16_t *v)
{
	if (*v != UINT16_MAX)
		(*v)++;
}

/* ------------------------------------------------------------------ */
/* NodeDescription, NodeInfo (14.2.5.2, 14.2.5.3): read-only           */

static uint16_t
sma_node_desc(struct sma_req *r)
{
	memset(r->data, 0, MAD_SMP_DATA_SIZE);
	memcpy(r->data, r->node->desc, strnlen(r->node->desc, FAB_DESC_MAX));
	return MAD_STATUS_OK;
}

static uint16_t
sma_node_info(struct sma_req *r)
{
	struct fab_node *n = r->node;
	uint8_t *d = r->data;

	memset(d, 0, MAD_SMP_DATA_SIZE);
	mad_set8(d, NI_BASE_VERSION, MAD_BASE_VERSION_1);
	mad_set8(d, NI_CLASS_VERSION, MAD_SMP_CLASS_VERSION);
	mad_set8(d, NI_NODE_TYPE, (uint8_t)n->type);
	mad_set8(d, NI_NUM_PORTS, n->nports);
	mad_set64(d, NI_SYS_GUID, n->sys_guid);
	mad_set64(d, NI_NODE_GUID, n->node_guid);
	/* PortGUID: the port the SMP arrived on; a switch has port 0's only. */
	mad_set64(d, NI_PORT_GUID, n->type == FAB_NODE_SWITCH ?
		  n->ports[0].guid : r->in->guid);
	mad_set16(d, NI_PARTITION_CAP, FAB_PKEY_TABLE_SIZE);
	mad_set16(d, NI_DEVICE_ID, n->device_id);
	mad_set32(d, NI_REVISION, n->revision);
	mad_set8(d, NI_LOCAL_PORT, r->in->num);
	mad_set24(d, NI_VENDOR_ID, n->vendor_id & 0xffffff);
	return MAD_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* SwitchInfo (14.2.5.4)                                               */

static void
sma_switch_info_encode(const struct fab_node *n, uint8_t *d)
{
	const struct fab_switch *sw = n->sw;

	memset(d, 0, MAD_SMP_DATA_SIZE);
	mad_set16(d, SI_LFT_CAP, FAB_LFT_CAP);
	mad_set16(d, SI_RFT_CAP, 0);
	mad_set16(d, SI_MFT_CAP, FAB_MFT_CAP);
	mad_set16(d, SI_LFT_TOP, sw->lft_top);
	mad_set8(d, SI_DEFAULT_PORT, sw->default_port);
	mad_set8(d, SI_DEFAULT_MCAST_PRIMARY, sw->default_mcast_primary);
	mad_set8(d, SI_DEFAULT_MCAST_NOT_PRIMARY, sw->default_mcast_not_primary);
	mad_setbits(d, SI_FLAGS_11, SI_LIFE_TIME_SHIFT, SI_LIFE_TIME_WIDTH,
		    sw->life_time_value);
	mad_setbits(d, SI_FLAGS_11, SI_PORT_STATE_CHANGE_SHIFT, 1,
		    sw->port_state_change ? 1 : 0);
	mad_set16(d, SI_LIDS_PER_PORT, sw->lids_per_port);
	mad_set16(d, SI_PARTITION_ENF_CAP, sw->partition_enforcement_cap);
	/* No inbound/outbound enforcement or raw filtering capability. */
	mad_setbits(d, SI_FLAGS_16, SI_ENHANCED_PORT0_SHIFT, 1,
		    sw->enhanced_port0 ? 1 : 0);
	mad_set16(d, SI_MFT_TOP, sw->mcast_fdb_top);
}

static uint16_t
sma_switch_info(struct sma_req *r)
{
	struct fab_switch *sw = r->node->sw;
	uint8_t *d = r->data;
	uint16_t top;

	if (r->method == MAD_METHOD_SET) {
		top = mad_get16(d, SI_LFT_TOP);
		/* LinearFDBTop indexes the LFT: beyond LinearFDBCap is invalid. */
		if (top >= FAB_LFT_CAP)
			return MAD_STATUS_INVALID_FIELD;
		sw->lft_top = top;
		sw->default_port = mad_get8(d, SI_DEFAULT_PORT);
		sw->default_mcast_primary = mad_get8(d, SI_DEFAULT_MCAST_PRIMARY);
		sw->default_mcast_not_primary =
			mad_get8(d, SI_DEFAULT_MCAST_NOT_PRIMARY);
		sw->life_time_value = mad_getbits(d, SI_FLAGS_11,
						  SI_LIFE_TIME_SHIFT,
						  SI_LIFE_TIME_WIDTH);
		/* PortStateChange: "cleared by writing a one" (14.2.5.4). */
		if (mad_getbits(d, SI_FLAGS_11, SI_PORT_STATE_CHANGE_SHIFT, 1))
			sw->port_state_change = false;
		sw->mcast_fdb_top = mad_get16(d, SI_MFT_TOP);
	}
	sma_switch_info_encode(r->node, d);
	return MAD_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* GUIDInfo (14.2.5.5): 8 GUIDs per block; index 0 = port GUID, read-only */

static uint16_t
sma_guid_info(struct sma_req *r)
{
	struct fab_port *p = sma_key_port(r);
	unsigned int i;

	if (r->mod != 0)	/* GUIDCap 8: one block */
		return MAD_STATUS_INVALID_FIELD;
	if (r->method == MAD_METHOD_SET)
		for (i = 1; i < GUID_INFO_PER_BLOCK; i++)
			p->guids[i] = mad_get64(r->data, i * 8);
	p->guids[0] = p->guid;
	for (i = 0; i < GUID_INFO_PER_BLOCK; i++)
		mad_set64(r->data, i * 8, p->guids[i]);
	return MAD_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* PortInfo (14.2.5.6)                                                 */

static void
sma_port_info_encode(const struct sma_req *r, const struct fab_port *p,
		     uint8_t *d)
{
	/* Switch external ports: M_Key..LMC, SMSL, timeouts are reserved. */
	bool ext = sma_is_switch_ext(p);

	memset(d, 0, MAD_SMP_DATA_SIZE);
	if (!ext) {
		mad_set64(d, PI_MKEY, r->hide_mkey ? 0 : p->mkey);
		mad_set64(d, PI_GID_PREFIX, p->gid_prefix);
		mad_set16(d, PI_LID, p->lid);
		mad_set16(d, PI_SM_LID, p->sm_lid);
		mad_set32(d, PI_CAP_MASK, p->cap_mask);
		mad_set16(d, PI_MKEY_LEASE, p->mkey_lease_period);
		mad_setbits(d, PI_B34, 6, 2, p->mkey_protect);
		mad_setbits(d, PI_B34, 0, 3, p->lmc);
		mad_setbits(d, PI_B36, 0, 4, p->sm_sl);
		mad_setbits(d, PI_B51, 7, 1, p->client_reregister);
		mad_setbits(d, PI_B51, 0, 5, p->subnet_timeout);
		mad_set16(d, PI_CAP_MASK2, p->cap_mask2);
	}
	mad_set16(d, PI_DIAG_CODE, p->diag_code);
	mad_set8(d, PI_LOCAL_PORT, r->in->num);
	mad_set8(d, PI_LINK_WIDTH_ENABLED, p->link_width_enabled);
	mad_set8(d, PI_LINK_WIDTH_SUPPORTED, p->link_width_supported);
	mad_set8(d, PI_LINK_WIDTH_ACTIVE, p->link_width_active);
	mad_setbits(d, PI_B32, 4, 4, p->link_speed_supported);
	mad_setbits(d, PI_B32, 0, 4, p->state);
	mad_setbits(d, PI_B33, 4, 4, p->phys_state);
	mad_setbits(d, PI_B33, 0, 4, p->link_down_default);
	mad_setbits(d, PI_B35, 4, 4, p->link_speed_active);
	mad_setbits(d, PI_B35, 0, 4, p->link_speed_enabled);
	mad_setbits(d, PI_B36, 4, 4, p->neighbor_mtu);
	mad_setbits(d, PI_B37, 4, 4, p->vl_cap);
	mad_setbits(d, PI_B37, 0, 4, p->init_type);
	mad_set8(d, PI_VL_HIGH_LIMIT, p->vl_high_limit);
	mad_set8(d, PI_VLARB_HIGH_CAP, p->vl_arb_high_cap);
	mad_set8(d, PI_VLARB_LOW_CAP, p->vl_arb_low_cap);
	mad_setbits(d, PI_B41, 4, 4, p->init_type_reply);
	mad_setbits(d, PI_B41, 0, 4, p->mtu_cap);
	mad_setbits(d, PI_B42, 5, 3, p->vl_stall_count);
	mad_setbits(d, PI_B42, 0, 5, p->hoq_life);
	mad_setbits(d, PI_B43, 4, 4, p->op_vls);
	mad_setbits(d, PI_B43, 3, 1, p->pkey_enforce_in);
	mad_setbits(d, PI_B43, 2, 1, p->pkey_enforce_out);
	mad_setbits(d, PI_B43, 1, 1, p->filter_raw_in);
	mad_setbits(d, PI_B43, 0, 1, p->filter_raw_out);
	mad_set16(d, PI_MKEY_VIOLATIONS, p->mkey_violations);
	mad_set16(d, PI_PKEY_VIOLATIONS, p->pkey_violations);
	mad_set16(d, PI_QKEY_VIOLATIONS, p->qkey_violations);
	mad_set8(d, PI_GUID_CAP, ext ? 0 : p->guid_cap);
	mad_setbits(d, PI_B52, 0, 5, p->resp_time_value);
	mad_setbits(d, PI_B53, 4, 4, p->local_phy_errors);
	mad_setbits(d, PI_B53, 0, 4, p->overrun_errors);
	mad_set16(d, PI_MAX_CREDIT_HINT, p->max_credit_hint);
	mad_set24(d, PI_LINK_RTT, p->link_round_trip_latency & 0xffffff);
	/*
	 * Extended speeds: the fields are there on every port; a reader
	 * trusts them only when CapabilityMask (of port 0, for a switch)
	 * says IsExtendedSpeedsSupported, and the XDR ones when
	 * CapabilityMask2 says IsExtendedSpeeds2Supported (rdma-core
	 * libibnetdisc ibnd_get_agg_linkspeedext_field()).
	 */
	mad_setbits(d, PI_B56, 5, 2, p->link_speed_ext2_active);
	mad_setbits(d, PI_B56, 3, 2, p->link_speed_ext2_supported);
	mad_setbits(d, PI_B56, 0, 3, p->link_speed_ext2_enabled);
	mad_setbits(d, PI_B62, 4, 4, p->link_speed_ext_active);
	mad_setbits(d, PI_B62, 0, 4, p->link_speed_ext_supported);
	mad_setbits(d, PI_B63, 0, 5, p->link_speed_ext_enabled);
}

/* Decoded writable PortInfo fields of a Set, checked before any is applied. */
struct sma_pi_set {
	uint8_t width;
	uint8_t speed;
	uint8_t speed_ext;		/* LinkSpeedExtEnabled; 0 = no change */
	bool speed_ext_set;
	uint8_t state;
	uint8_t phys;
	uint8_t link_down_default;
	uint8_t mtu;
	uint8_t op_vls;
	uint16_t lid;
};

/*
 * Check the fields of a PortInfo Set whose values can be invalid
 * (status 7, IBA 13.4.7 table 115); "0 = no change" encodings are
 * resolved here.
 */
static bool
sma_port_info_check(const struct fab_port *p, const uint8_t *d,
		    struct sma_pi_set *s)
{
	bool base_sp0 = p->node->type == FAB_NODE_SWITCH && p->num == 0;

	s->lid = mad_get16(d, PI_LID);
	s->width = mad_get8(d, PI_LINK_WIDTH_ENABLED);
	s->speed = mad_getbits(d, PI_B35, 0, 4);
	s->state = mad_getbits(d, PI_B32, 0, 4);
	s->phys = mad_getbits(d, PI_B33, 4, 4);
	s->link_down_default = mad_getbits(d, PI_B33, 0, 4);
	s->mtu = mad_getbits(d, PI_B36, 4, 4);
	s->op_vls = mad_getbits(d, PI_B43, 4, 4);
	s->speed_ext = mad_getbits(d, PI_B63, 0, 5);
	s->speed_ext_set = false;

	/* A port LID is unicast: 0 (unassigned) .. 0xbfff (IBA 4.1.3). */
	if (!sma_is_switch_ext(p) && s->lid >= IB_LID_MULTICAST_MIN)
		return false;
	if (s->state > FAB_PORT_ACTIVE)
		return false;
	/*
	 * Base switch port 0 has no physical link: its link fields are
	 * reserved and ignored (14.2.5.6, "for switch port 0 ...").
	 */
	if (base_sp0) {
		s->width = 0;
		s->speed = 0;
		s->phys = FAB_PHYS_NOP;
		s->link_down_default = 0;
		s->mtu = 0;
		s->op_vls = 0;
		return true;
	}
	if (s->width == SMA_WIDTH_SET_SUPPORTED)
		s->width = p->link_width_supported;
	else if (s->width & ~p->link_width_supported)
		return false;
	if (s->speed == SMA_SPEED_SET_SUPPORTED)
		s->speed = p->link_speed_supported;
	else if (s->speed & ~p->link_speed_supported)
		return false;
	/*
	 * LinkSpeedExtEnabled (14.2.5.6): 0 no change, 30 disable, 31 all
	 * supported, else a subset of LinkSpeedExtSupported. Only a port
	 * that has extended speeds takes it; others ignore the field.
	 */
	if (p->link_speed_ext_supported != 0 && s->speed_ext != 0) {
		if (s->speed_ext == PI_SPEED_EXT_SET_SUPPORTED)
			s->speed_ext = p->link_speed_ext_supported;
		else if (s->speed_ext == PI_SPEED_EXT_DISABLE)
			s->speed_ext = 0;
		else if (s->speed_ext & ~p->link_speed_ext_supported)
			return false;
		s->speed_ext_set = true;
	}
	/* PortPhysicalState Set: 0 no change, 2 Polling, 3 Disabled only. */
	if (s->phys != FAB_PHYS_NOP && s->phys != FAB_PHYS_POLLING &&
	    s->phys != FAB_PHYS_DISABLED)
		return false;
	/* LinkDownDefaultState: 0 no change, 1 Sleep, 2 Polling. */
	if (s->link_down_default > SMA_LINK_DOWN_POLLING)
		return false;
	/* NeighborMTU: 0 no change here, else 256..4096 and <= MTUCap. */
	if (s->mtu > p->mtu_cap)
		return false;
	/* OperationalVLs: 0 no change, else <= VLCap (ibsim agrees). */
	if (s->op_vls > p->vl_cap)
		return false;
	return true;
}

static void
sma_port_info_apply(struct fab_port *p, const uint8_t *d,
		    const struct sma_pi_set *s)
{
	if (!sma_is_switch_ext(p)) {
		p->mkey = mad_get64(d, PI_MKEY);
		p->gid_prefix = mad_get64(d, PI_GID_PREFIX);
		p->lid = s->lid;
		p->sm_lid = mad_get16(d, PI_SM_LID);
		p->mkey_lease_period = mad_get16(d, PI_MKEY_LEASE);
		p->mkey_protect = mad_getbits(d, PI_B34, 6, 2);
		p->lmc = mad_getbits(d, PI_B34, 0, 3);
		p->sm_sl = mad_getbits(d, PI_B36, 0, 4);
		p->client_reregister = mad_getbits(d, PI_B51, 7, 1);
		p->subnet_timeout = mad_getbits(d, PI_B51, 0, 5);
	}
	if (s->width != 0)
		p->link_width_enabled = s->width;
	if (s->speed != 0)
		p->link_speed_enabled = s->speed;
	if (s->speed_ext_set)
		p->link_speed_ext_enabled = s->speed_ext;
	if (s->link_down_default != 0)
		p->link_down_default = s->link_down_default;
	if (s->mtu != 0)
		p->neighbor_mtu = s->mtu;
	if (s->op_vls != 0)
		p->op_vls = s->op_vls;
	p->vl_high_limit = mad_get8(d, PI_VL_HIGH_LIMIT);
	p->init_type_reply = mad_getbits(d, PI_B41, 4, 4);
	p->vl_stall_count = mad_getbits(d, PI_B42, 5, 3);
	p->hoq_life = mad_getbits(d, PI_B42, 0, 5);
	p->pkey_enforce_in = mad_getbits(d, PI_B43, 3, 1);
	p->pkey_enforce_out = mad_getbits(d, PI_B43, 2, 1);
	p->filter_raw_in = mad_getbits(d, PI_B43, 1, 1);
	p->filter_raw_out = mad_getbits(d, PI_B43, 0, 1);
	/* The violation counters are read/write: an SM resets them. */
	p->mkey_violations = mad_get16(d, PI_MKEY_VIOLATIONS);
	p->pkey_violations = mad_get16(d, PI_PKEY_VIOLATIONS);
	p->qkey_violations = mad_get16(d, PI_QKEY_VIOLATIONS);
	p->local_phy_errors = mad_getbits(d, PI_B53, 4, 4);
	p->overrun_errors = mad_getbits(d, PI_B53, 0, 4);
}

static uint16_t
sma_port_info(struct sma_req *r)
{
	struct fab_port *p;
	struct sma_pi_set s;

	p = sma_mod_port(r);
	if (p == NULL)
		return MAD_STATUS_INVALID_FIELD;

	if (r->method == MAD_METHOD_SET) {
		if (!sma_port_info_check(p, r->data, &s))
			return MAD_STATUS_INVALID_FIELD;
		/*
		 * PortState last among the checks: it is the one rule that
		 * depends on the current state (table 155), and applying it
		 * is the only step with side effects on other ports.
		 */
		if (s.state != FAB_PORT_NOP &&
		    port_state_set_logical(r->f, p, s.state) != 0)
			return MAD_STATUS_INVALID_FIELD;
		sma_port_info_apply(p, r->data, &s);
		if (s.phys == FAB_PHYS_POLLING)
			port_state_admin(r->f, p, true);
		else if (s.phys == FAB_PHYS_DISABLED)
			port_state_admin(r->f, p, false);
	}
	sma_port_info_encode(r, p, r->data);
	return MAD_STATUS_OK;
}

/*
 * MlnxExtPortInfo (vendor attribute 0xff90, modifier = port): FDR10 of
 * ConnectX-3/SwitchX ports, read by libibnetdisc when a link is up at
 * QDR without an extended speed. Only nodes that have an FDR10 port
 * answer it, as only those parts implement it. Set changes nothing the
 * model keeps except LinkSpeedEnabled, checked against Supported.
 */
static uint16_t
sma_mlnx_ext_port_info(struct sma_req *r)
{
	struct fab_port *p;
	unsigned int i;
	uint8_t en;
	bool any = false;

	for (i = 0; i <= r->node->nports; i++)
		any |= r->node->ports[i].mlnx_speed_supported != 0;
	if (!any)
		return MAD_STATUS_UNSUP_METHOD_ATTR;
	p = sma_mod_port(r);
	if (p == NULL)
		return MAD_STATUS_INVALID_FIELD;
	if (r->method == MAD_METHOD_SET) {
		en = mad_get8(r->data, MEPI_LINK_SPEED_ENABLED);
		if (en & ~p->mlnx_speed_supported)
			return MAD_STATUS_INVALID_FIELD;
		p->mlnx_speed_enabled = en;
	}
	memset(r->data, 0, MAD_SMP_DATA_SIZE);
	mad_set8(r->data, MEPI_LINK_SPEED_SUPPORTED, p->mlnx_speed_supported);
	mad_set8(r->data, MEPI_LINK_SPEED_ENABLED, p->mlnx_speed_enabled);
	mad_set8(r->data, MEPI_LINK_SPEED_ACTIVE, p->mlnx_speed_active);
	return MAD_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* P_KeyTable (14.2.5.7): modifier = port << 16 | block (port: switches) */

static uint16_t
sma_pkey_table(struct sma_req *r)
{
	uint32_t block = r->mod & 0xffff;
	uint32_t size = FAB_PKEY_TABLE_SIZE;
	struct fab_port *p = r->in;
	unsigned int i;

	if (r->node->type == FAB_NODE_SWITCH) {
		p = sma_port(r->node, r->mod >> 16);
		if (p == NULL)
			return MAD_STATUS_INVALID_FIELD;
		/* External ports hold PartitionEnforcementCap entries (14.2.5.4). */
		if (p->num != 0)
			size = r->node->sw != NULL ?
			       r->node->sw->partition_enforcement_cap : 0;
		if (size > FAB_PKEY_TABLE_SIZE)
			size = FAB_PKEY_TABLE_SIZE;
	}
	if (block * PKEY_PER_BLOCK >= size)
		return MAD_STATUS_INVALID_FIELD;
	if (r->method == MAD_METHOD_SET)
		for (i = 0; i < PKEY_PER_BLOCK; i++)
			p->pkeys[block * PKEY_PER_BLOCK + i] =
				mad_get16(r->data, i * 2);
	for (i = 0; i < PKEY_PER_BLOCK; i++)
		mad_set16(r->data, i * 2, p->pkeys[block * PKEY_PER_BLOCK + i]);
	return MAD_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* SLtoVLMappingTable (14.2.5.8): switches: modifier 15:8 in, 7:0 out port */

static uint16_t
sma_sl2vl(struct sma_req *r)
{
	struct fab_port *p = r->in;
	unsigned int i;

	if (r->node->type == FAB_NODE_SWITCH) {
		/*
		 * One table per output port: the input port is checked but
		 * every input port shares it (no per-in-port routing here).
		 */
		if (sma_port(r->node, (r->mod >> 8) & 0xff) == NULL ||
		    (r->mod & ~0xffffu) != 0)
			return MAD_STATUS_INVALID_FIELD;
		p = sma_port(r->node, r->mod & 0xff);
		if (p == NULL)
			return MAD_STATUS_INVALID_FIELD;
	} else if (r->mod != 0) {
		return MAD_STATUS_INVALID_FIELD;
	}
	if (r->method == MAD_METHOD_SET)
		for (i = 0; i < 16; i++)
			p->sl2vl[i] = mad_getbits(r->data, i / 2,
						  (i & 1) ? 0 : 4, 4);
	memset(r->data, 0, MAD_SMP_DATA_SIZE);
	for (i = 0; i < 16; i++)
		mad_setbits(r->data, i / 2, (i & 1) ? 0 : 4, 4, p->sl2vl[i]);
	return MAD_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* VLArbitrationTable (14.2.5.9): modifier 31:16 block 1..4, 15:0 port */

static uint16_t
sma_vlarb(struct sma_req *r)
{
	uint32_t block = r->mod >> 16;
	struct fab_port *p = r->in;
	unsigned int i, cap;

	if (r->node->type == FAB_NODE_SWITCH) {
		p = sma_port(r->node, r->mod & 0xffff);
		if (p == NULL)
			return MAD_STATUS_INVALID_FIELD;
	}
	/* 1 low 0..31, 2 high 0..31, 3 low 32..63, 4 high 32..63 */
	if (block < 1 || block > 4)
		return MAD_STATUS_INVALID_FIELD;
	cap = (block & 1) ? p->vl_arb_low_cap : p->vl_arb_high_cap;
	if (cap <= (block > 2 ? VLARB_PER_BLOCK : 0))
		return MAD_STATUS_INVALID_FIELD;
	block--;
	if (r->method == MAD_METHOD_SET)
		for (i = 0; i < VLARB_PER_BLOCK; i++) {
			p->vlarb[block][2 * i] = r->data[2 * i] & 0x0f;
			p->vlarb[block][2 * i + 1] = r->data[2 * i + 1];
		}
	memcpy(r->data, p->vlarb[block], 2 * VLARB_PER_BLOCK);
	return MAD_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* LinearForwardingTable (14.2.5.10), MulticastForwardingTable (14.2.5.12) */

static uint16_t
sma_lft(struct sma_req *r)
{
	uint8_t *lft = r->node->sw->lft;

	if (r->mod >= FAB_LFT_CAP / LFT_PER_BLOCK)
		return MAD_STATUS_INVALID_FIELD;
	lft += r->mod * LFT_PER_BLOCK;
	if (r->method == MAD_METHOD_SET)
		memcpy(lft, r->data, LFT_PER_BLOCK);
	memcpy(r->data, lft, LFT_PER_BLOCK);
	return MAD_STATUS_OK;
}

static uint16_t
sma_mft(struct sma_req *r)
{
	struct fab_switch *sw = r->node->sw;
	uint32_t pos = r->mod >> MFT_POSITION_SHIFT;
	uint32_t block = r->mod & MFT_BLOCK_MASK;
	unsigned int i, e;

	/* Position p covers ports 16p..16p+15; block b covers MLIDs 32b.. */
	if (block >= FAB_MFT_CAP / MFT_PER_BLOCK || pos > r->node->nports / 16u ||
	    (r->mod & 0x0ffffe00u) != 0)
		return MAD_STATUS_INVALID_FIELD;
	for (i = 0; i < MFT_PER_BLOCK; i++) {
		e = block * MFT_PER_BLOCK + i;
		if (r->method == MAD_METHOD_SET && sw->mft != NULL)
			sw->mft[e][pos] = mad_get16(r->data, i * 2);
		mad_set16(r->data, i * 2, sw->mft != NULL ? sw->mft[e][pos] : 0);
	}
	return MAD_STATUS_OK;
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */

static const struct sma_attr sma_attrs[] = {
	{ SMP_ATTR_NODE_DESC, false, false, sma_node_desc },
	{ SMP_ATTR_NODE_INFO, false, false, sma_node_info },
	{ SMP_ATTR_SWITCH_INFO, true, true, sma_switch_info },
	{ SMP_ATTR_GUID_INFO, false, true, sma_guid_info },
	{ SMP_ATTR_PORT_INFO, false, true, sma_port_info },
	{ SMP_ATTR_PKEY_TABLE, false, true, sma_pkey_table },
	{ SMP_ATTR_SL2VL_TABLE, false, true, sma_sl2vl },
	{ SMP_ATTR_VLARB_TABLE, false, true, sma_vlarb },
	{ SMP_ATTR_LFT, true, true, sma_lft },
	{ SMP_ATTR_MFT, true, true, sma_mft },
	{ SMP_ATTR_MLNX_EXT_PORT_INFO, false, true, sma_mlnx_ext_port_info },
};

static const struct sma_attr *
sma_attr_find(uint16_t id)
{
	unsigned int i;

	for (i = 0; i < sizeof(sma_attrs) / sizeof(sma_attrs[0]); i++)
		if (sma_attrs[i].id == id)
			return &sma_attrs[i];
	return NULL;
}

/*
 * M_Key check, IBA 14.2.4.1 table 147 / C14-16..18: a zero port M_Key
 * or a matching key passes; otherwise ProtectBits 0 lets Gets through,
 * 1 lets Gets through with PortInfo.M_Key read as zero, 2 and 3 fail
 * everything. A failed check gets no response and counts a violation.
 * Not modelled: the M_KeyLeasePeriod timer (the key never expires) and
 * trap 256.
 */
static bool
sma_mkey_ok(struct sma_req *r)
{
	struct fab_port *kp = sma_key_port(r);
	uint64_t key = mad_get64(r->mad, MAD_SMP_MKEY);

	if (kp->mkey == 0 || key == kp->mkey)
		return true;
	if (r->method == MAD_METHOD_GET && kp->mkey_protect <= 1) {
		r->hide_mkey = kp->mkey_protect == 1;
		return true;
	}
	sma_sat_inc16(&kp->mkey_violations);
	return false;
}

static enum fab_mad_result
sma_reply(uint8_t *mad, uint16_t status)
{
	mad[MAD_METHOD] = MAD_METHOD_GET_RESP;
	if (status != MAD_STATUS_OK)
		memset(mad + MAD_SMP_DATA, 0, MAD_SMP_DATA_SIZE);
	/* A DR response travels back: D bit set (14.2.1.2, 14.2.2.3). */
	if (mad[MAD_MGMT_CLASS] == MAD_CLASS_SMI_DR)
		status |= MAD_STATUS_DR_D;
	mad_set16(mad, MAD_STATUS, status);
	return FAB_MAD_REPLY;
}

enum fab_mad_result
sma_process(struct fabric *f, struct fab_node *node, struct fab_port *in,
	    uint8_t *mad)
{
	const struct sma_attr *a;
	struct sma_req r;
	uint8_t cls, method;
	uint16_t attr;

	if (node == NULL || mad == NULL || node->ports == NULL ||
	    (node->nports == 0 && node->type != FAB_NODE_SWITCH))
		return FAB_MAD_IGNORE;
	cls = mad[MAD_MGMT_CLASS];
	if (cls != MAD_CLASS_SMI && cls != MAD_CLASS_SMI_DR)
		return FAB_MAD_IGNORE;
	method = mad[MAD_METHOD];
	/* Responses and traps are for an SM (umad2sim client), not firmware. */
	if (method & MAD_METHOD_RESP || method == MAD_METHOD_TRAP)
		return FAB_MAD_IGNORE;
	attr = mad_attr_id(mad);
	/* SMInfo is answered by the SM bound to the port (14.4.1), if any. */
	if (attr == SMP_ATTR_SM_INFO)
		return FAB_MAD_IGNORE;

	/* Normalise the arrival port: never NULL, always this node's. */
	if (in == NULL || in->node != node || in->num > node->nports)
		in = node->type == FAB_NODE_SWITCH ? &node->ports[0] :
		     &node->ports[1];

	/* 13.4.7 table 115 code 1: a version this class agent does not speak. */
	if (mad[MAD_BASE_VERSION] != MAD_BASE_VERSION_1 ||
	    mad[MAD_CLASS_VERSION] != MAD_SMP_CLASS_VERSION) {
		if (f != NULL)
			f->bad_mads++;
		return sma_reply(mad, MAD_STATUS_BAD_VERSION);
	}

	memset(&r, 0, sizeof(r));
	r.f = f;
	r.node = node;
	r.in = in;
	r.mad = mad;
	r.data = mad + MAD_SMP_DATA;
	r.method = method;
	r.mod = mad_attr_mod(mad);

	if (method == MAD_METHOD_TRAP_REPRESS)
		return FAB_MAD_CONSUMED;	/* traps are not retransmitted here */
	if (method != MAD_METHOD_GET && method != MAD_METHOD_SET)
		return sma_reply(mad, MAD_STATUS_UNSUP_METHOD);
	if (!sma_mkey_ok(&r))
		return FAB_MAD_CONSUMED;	/* silently discarded, 14.2.4.1 */

	a = sma_attr_find(attr);
	if (a == NULL || (a->switch_only && !sma_is_switch(node)) ||
	    (method == MAD_METHOD_SET && !a->settable))
		return sma_reply(mad, MAD_STATUS_UNSUP_METHOD_ATTR);
	return sma_reply(mad, a->fn(&r));
}

/* ------------------------------------------------------------------ */
/* Defaults                                                            */

void
sma_init_node(struct fab_node *n)
{
	struct fab_switch *sw;

	if (n == NULL)
		return;
	if (n->vendor_id == 0)
		n->vendor_id = SMA_VENDOR_MELLANOX;
	if (n->device_id == 0)
		n->device_id = n->type == FAB_NODE_SWITCH ? SMA_DEVID_MT47396 :
			       SMA_DEVID_MT25208;
	if (n->revision == 0)
		n->revision = SMA_REVISION;
	sw = n->sw;
	if (sw == NULL)
		return;
	/* An unprogrammed switch forwards nothing (14.2.5.10: 255 = none). */
	memset(sw->lft, FAB_NO_PORT, sizeof(sw->lft));
	sw->lft_top = 0;
	sw->default_port = 0;
	sw->default_mcast_primary = FAB_NO_PORT;
	sw->default_mcast_not_primary = FAB_NO_PORT;
	sw->life_time_value = SMA_LIFE_TIME;
	sw->port_state_change = false;
	sw->lids_per_port = 0;
	sw->partition_enforcement_cap = FAB_PKEY_TABLE_SIZE;
	sw->enhanced_port0 = 0;
	sw->mcast_fdb_top = 0;
	if (sw->mft != NULL)
		memset(sw->mft, 0, FAB_MFT_CAP * sizeof(sw->mft[0]));
}

void
sma_init_port(struct fab_port *p)
{
	bool sw0, sw;
	unsigned int i;

	if (p == NULL)
		return;
	sw = p->node != NULL && p->node->type == FAB_NODE_SWITCH;
	sw0 = sw && p->num == 0;

	p->mkey = 0;
	p->gid_prefix = 0xfe80000000000000ull;	/* link-local, IBA 4.1.1 */
	p->lid = 0;
	p->sm_lid = 0;
	p->cap_mask = sw ? (sw0 ? SMA_CAP_SW0 : 0) : SMA_CAP_CA;
	p->cap_mask2 = 0;
	p->diag_code = 0;
	p->mkey_lease_period = 0;
	p->link_width_supported = SMA_WIDTH_1X_4X;
	p->link_width_enabled = SMA_WIDTH_1X_4X;
	p->link_width_active = SMA_WIDTH_4X;
	p->link_speed_supported = SMA_SPEED_SDR_DDR;
	p->link_speed_enabled = SMA_SPEED_SDR_DDR;
	p->link_speed_active = SMA_SPEED_DDR;
	/*
	 * Base switch port 0 is always "up" (it has no link; ibsim reports
	 * it Active/LinkUp from the start). Other ports start Down/Polling
	 * until port_state_link_update() sees a cable.
	 */
	p->state = sw0 ? FAB_PORT_ACTIVE : FAB_PORT_DOWN;
	p->phys_state = sw0 ? FAB_PHYS_LINKUP : FAB_PHYS_POLLING;
	p->link_down_default = SMA_LINK_DOWN_POLLING;
	p->mkey_protect = 0;
	p->lmc = 0;
	p->neighbor_mtu = SMA_MTU_2048;
	p->sm_sl = 0;
	p->vl_cap = SMA_VL_CAP_8;
	p->init_type = 0;
	p->vl_high_limit = 0;
	p->vl_arb_high_cap = SMA_VLARB_CAP;
	p->vl_arb_low_cap = SMA_VLARB_CAP;
	p->init_type_reply = 0;
	p->mtu_cap = SMA_MTU_2048;
	p->vl_stall_count = SMA_VL_STALL;
	p->hoq_life = SMA_HOQ_LIFE_INF;
	p->op_vls = SMA_OP_VLS_1;
	p->pkey_enforce_in = 0;
	p->pkey_enforce_out = 0;
	p->filter_raw_in = 0;
	p->filter_raw_out = 0;
	p->mkey_violations = 0;
	p->pkey_violations = 0;
	p->qkey_violations = 0;
	p->guid_cap = FAB_GUID_CAP;
	p->client_reregister = 0;
	p->subnet_timeout = 0;
	p->resp_time_value = SMA_RESP_TIME;
	p->local_phy_errors = 0;
	p->overrun_errors = 0;
	p->max_credit_hint = 0;
	p->link_round_trip_latency = 0;
	p->admin_up = true;

	/* Default partition only, full member (IBA 10.9.1.2). */
	memset(p->pkeys, 0, sizeof(p->pkeys));
	p->pkeys[0] = 0xffff;
	memset(p->guids, 0, sizeof(p->guids));
	p->guids[0] = p->guid;
	/* Every SL on VL0 until an SM programs QoS. */
	memset(p->sl2vl, 0, sizeof(p->sl2vl));
	/* Low-priority table: VL0..7, weight 4 each; high table empty. */
	memset(p->vlarb, 0, sizeof(p->vlarb));
	for (i = 0; i < SMA_VLARB_CAP; i++) {
		p->vlarb[0][2 * i] = (uint8_t)i;
		p->vlarb[0][2 * i + 1] = 4;
		p->vlarb[1][2 * i] = (uint8_t)i;
	}
	memset(&p->cnt, 0, sizeof(p->cnt));
	p->pma_counter_select = 0;
}
