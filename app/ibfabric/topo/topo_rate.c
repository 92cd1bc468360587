/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Link width and speed of net-file ports: the w=/s=/e= options and the
 * rates ibnetdiscover prints in comments ("4xEDR"), turned into PortInfo
 * enabled/supported sets as ibsim's sim_net.c does.
 */

#include <ctype.h>
#include <string.h>

#include "fab_node.h"
#include "mad.h"
#include "topo_lex.h"
#include "topo_rate.h"
#include "topo_state.h"

/* ------------------------------------------------------------------ */
/* Link width and speed */

/* "4x" -> LinkWidthEnabled, as ibsim maps ibnetdiscover's active width. */
uint8_t
tp_width_from_text(unsigned int w)
{
	switch (w) {
	case 1: return TP_WIDTH_1X;
	case 2: return TP_WIDTH_2X;
	case 4: return TP_WIDTH_1X_4X;
	case 8: return TP_WIDTH_8X;
	case 12: return TP_WIDTH_1X_4X_12X;
	default: return 0;
	}
}

bool
tp_speed_from_text(const char *s, size_t len, struct tp_rate *r)
{
	static const struct {
		const char *name;
		uint8_t speed, ext, ext2, mlnx;
	} tab[] = {
		{ "SDR", TP_SPEED_SDR, 0, 0, 0 },
		{ "DDR", TP_SPEED_SDR_DDR, 0, 0, 0 },
		{ "QDR", TP_SPEED_SDR_DDR_QDR, 0, 0, 0 },
		{ "FDR10", TP_SPEED_SDR_DDR_QDR, 0, 0, TP_MLNX_FDR10 },
		{ "FDR", TP_SPEED_SDR_DDR_QDR, TP_EXT_FDR, 0, 0 },
		{ "EDR", TP_SPEED_SDR_DDR_QDR, TP_EXT_FDR_EDR, 0, 0 },
		{ "HDR", TP_SPEED_SDR_DDR_QDR, TP_EXT_UP_TO_HDR, 0, 0 },
		{ "NDR", TP_SPEED_SDR_DDR_QDR, TP_EXT_UP_TO_NDR, 0, 0 },
		{ "XDR", TP_SPEED_SDR_DDR_QDR, TP_EXT_UP_TO_NDR, TP_EXT2_XDR, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (strlen(tab[i].name) != len || strncmp(tab[i].name, s, len) != 0)
			continue;
		r->speed = tab[i].speed;
		r->ext = tab[i].ext;
		r->ext2 = tab[i].ext2;
		r->mlnx = tab[i].mlnx;
		return true;
	}
	return false;
}

/* Enabled implies supported: keep PortInfo consistent (IBA 14.2.5.6). */
void
tp_port_set_width(struct fab_port *p, uint8_t w)
{
	if (w == 0)
		return;
	p->link_width_enabled = w;
	p->link_width_supported |= w;
}

void
tp_port_set_speed(struct fab_port *p, uint8_t s)
{
	if (s == 0)
		return;
	p->link_speed_enabled = s;
	p->link_speed_supported |= s;
}

/*
 * The port whose CapabilityMask announces the extended speeds of @p p:
 * itself, or port 0 for a switch's external port (readers take a
 * switch's CapabilityMask from port 0, as rdma-core's libibnetdisc does).
 */
static struct fab_port *
cap_port(struct fab_port *p)
{
	return p->node->type == FAB_NODE_SWITCH ? &p->node->ports[0] : p;
}

void
tp_port_set_ext(struct fab_port *p, uint8_t ext)
{
	p->link_speed_ext_enabled = ext;
	p->link_speed_ext_supported |= ext;
	if (ext != 0) {
		p->cap_mask |= PI_CAP_IS_EXT_SPEEDS_SUP;
		cap_port(p)->cap_mask |= PI_CAP_IS_EXT_SPEEDS_SUP;
	}
}

void
tp_port_set_rate(struct fab_port *p, const struct tp_rate *r)
{
	struct fab_port *c = cap_port(p);

	tp_port_set_width(p, r->width);
	if (r->speed == 0)
		return;
	tp_port_set_speed(p, r->speed);
	tp_port_set_ext(p, r->ext);
	p->link_speed_ext2_enabled = r->ext2;
	p->link_speed_ext2_supported |= r->ext2;
	if (r->ext2 != 0) {
		p->cap_mask |= PI_CAP_HAS_CAP_MASK2;
		p->cap_mask2 |= PI_CAP2_IS_EXT_SPEEDS_2_SUP;
		c->cap_mask |= PI_CAP_HAS_CAP_MASK2;
		c->cap_mask2 |= PI_CAP2_IS_EXT_SPEEDS_2_SUP;
	}
	p->mlnx_speed_enabled = r->mlnx;
	p->mlnx_speed_supported |= r->mlnx;
	if (r->mlnx != 0)
		c->mlnx_speed_supported |= r->mlnx;
}

/*
 * The connection trailer of an ibnetdiscover port line: after the last
 * quote, "lid <n> <width>x<speed>" gives the link's active width and
 * speed, which ibsim takes as the local port's enabled values.
 */
void
tp_comment_link_rate(const char *c, struct tp_rate *r)
{
	const char *q, *p, *e;
	uint64_t v;

	q = strrchr(c, '"');
	p = strstr(q != NULL ? q + 1 : c, "lid ");
	if (p == NULL)
		return;
	p = skip_ws(p + 4);
	if (tp_get_uint(&p, 10, 0xffff, &v) != 0)
		return;
	p = skip_ws(p);
	if (tp_get_uint(&p, 10, 12, &v) != 0 || *p != 'x')
		return;
	r->width = tp_width_from_text((unsigned int)v);
	p++;
	for (e = p; isalnum((unsigned char)*e); e++)
		;
	if (!tp_speed_from_text(p, (size_t)(e - p), r))
		r->width = 0;	/* "4x?" and the like: no rate at all */
}
