/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The net-file parser's private state (struct tp and what it records)
 * and the node-type helpers every file of the parser uses. It calls none
 * of them; each file's functions for the others are in its own header,
 * from the bottom up: topo_lex.h, topo_rate.h, topo_node.h,
 * topo_ibnd.h, topo_resolve.h; topo_parse.c, on top, holds the entry
 * points of topo.h and the statements. Not for use outside topo/.
 */

#ifndef _IBFABRIC_TOPO_STATE_H_
#define _IBFABRIC_TOPO_STATE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "fab_node.h"
#include "topo.h"

struct fab_do_cmd;
struct fabric;

#define TP_NONE		UINT32_MAX
#define TP_FILES_MAX	65535u		/* file ids are 16 bits */

/* PortInfo LinkWidthEnabled / LinkSpeedEnabled values, IBA 14.2.5.6. */
#define TP_WIDTH_1X		1
#define TP_WIDTH_1X_4X		3
#define TP_WIDTH_8X		4
#define TP_WIDTH_1X_4X_12X	11
#define TP_WIDTH_2X		16
#define TP_SPEED_SDR		1
#define TP_SPEED_SDR_DDR	3
#define TP_SPEED_SDR_DDR_QDR	7
/* LinkSpeedExtEnabled bits: FDR 1, EDR 2, HDR 4, NDR 8; XDR is Ext2 bit 1 */
#define TP_EXT_FDR		1
#define TP_EXT_FDR_EDR		3
#define TP_EXT_UP_TO_HDR	7
#define TP_EXT_UP_TO_NDR	15
#define TP_EXT2_XDR		1
#define TP_MLNX_FDR10		1	/* MlnxExtPortInfo LinkSpeedEnabled */

/* One port line: local port -> peer, resolved after the whole file is read. */
struct tp_decl {
	uint32_t node;			/* index in fabric.nodes */
	uint32_t peer;			/* offset of the peer name in tp.names */
	uint32_t rport;			/* peer port as written, checked later */
	uint32_t line;
	uint16_t file;
	uint8_t port;
};

/*
 * One line of an "ibnetdiscover -p" ports report (infiniband-diags
 * ibnetdiscover.c dump_ports_report()):
 *   SW     6 22 0x005442ba00003080 4x SDR - CA     4  1 0x0008f10403961355 ( 'd' - 'rd' )
 * or, for a port without a cable, the local part and 'd' alone.
 */
struct tp_pline {
	uint64_t guid, pguid;		/* switch: NodeGUID; CA/router: PortGUID */
	uint32_t desc, pdesc;		/* offsets in tp.names, UINT32_MAX if none */
	uint32_t line;
	uint16_t file;
	uint16_t lid, plid;
	uint8_t type, ptype;		/* enum fab_node_type; ptype 0: no cable */
	uint8_t port, pport;
	struct tp_rate_small {
		uint8_t width, speed, ext, ext2, mlnx;
	} rate;
};

/* Per node created by this parse. */
struct tp_node {
	uint32_t pbase;			/* its ports' entries in tp.pdecl */
	uint16_t file;			/* file of its header line */
};

/* An open file on the include stack, for loop detection. */
struct tp_frame {
	dev_t dev;
	ino_t ino;
	bool has_id;			/* false for the root of topo_parse_buf */
};

/* Attributes that a statement line sets for the next node(s), as in ibsim. */
struct tp_pending {
	bool guid_base_set[4];		/* by type: "switchguid=", "caguid=", "rtguid=" */
	bool guid_spent[4];		/* guid_next wrapped: the last GUID is taken */
	uint64_t guid_base[4];		/* absolute base of the last "=" */
	uint64_t guid_next[4];		/* next GUID of that type (ibsim's counter) */
	bool sw_port_guid_set;		/* "switchguid=X(Y)": Y for the next switch */
	uint64_t sw_port_guid;
	bool vendid_set, devid_set, sysguid_set;	/* one-shot */
	uint32_t vendid;
	uint16_t devid;
	uint64_t sysguid;
	uint8_t width;			/* "width=": later nodes' LinkWidthEnabled, 0 = default */
	uint8_t speed;			/* "speed=": later nodes' LinkSpeedEnabled, 0 = default */
	bool extspeed_set;		/* "extspeed=": later nodes' LinkSpeedExtEnabled */
	uint8_t extspeed;
};

struct tp {
	struct fabric *f;
	char *err;
	size_t errlen;

	char **files;			/* every file read, for messages */
	unsigned int nfiles;
	unsigned int files_cap;
	struct tp_frame stack[TOPO_INCLUDE_MAX + 1];
	unsigned int depth;

	uint16_t file;			/* position being parsed */
	uint32_t line;
	struct fab_node *cur;		/* node whose port lines follow, or NULL */
	struct tp_pending pend;

	struct tp_decl *decls;
	uint32_t ndecls;
	uint32_t decls_cap;
	char *names;			/* peer names, NUL-separated */
	size_t names_len;
	size_t names_cap;
	uint32_t *pdecl;		/* decl index per port of each new node */
	size_t pdecl_len;
	size_t pdecl_cap;
	struct tp_node *tnodes;		/* indexed by node->index - first_node */
	unsigned int ntnodes;
	unsigned int tnodes_cap;
	unsigned int first_node;
	struct fab_do_cmd **do_tail;
	struct tp_pline *plines;	/* "ibnetdiscover -p" lines, cabled at the end */
	unsigned int nactive;		/* active HCAs in the fabric so far */
	uint32_t nplines;
	uint32_t plines_cap;
};

/*
 * A link rate as ibnetdiscover prints it ("4xEDR"), turned into the
 * enabled sets ibsim derives from it (sim_net.c): every speed up to the
 * named one, since a port that runs EDR also trains at FDR and below.
 * FDR10 is QDR signalling plus Mellanox's MlnxExtPortInfo bit; XDR is
 * LinkSpeedExt2 on top of every extended speed.
 */
struct tp_rate {
	uint8_t width;			/* LinkWidthEnabled, 0 = not given */
	uint8_t speed;			/* LinkSpeedEnabled, 0 = not given */
	uint8_t ext;			/* LinkSpeedExtEnabled */
	uint8_t ext2;			/* LinkSpeedExtEnabled2 */
	uint8_t mlnx;			/* MlnxExtPortInfo LinkSpeedEnabled */
};

struct tp_header {
	enum fab_node_type type;
	unsigned int nports;
	char name[FAB_NAME_MAX];
	char desc[FAB_DESC_MAX + 1];
	bool active;
	int esp0;			/* 1 enhanced, 0 base, -1 not given */
	bool lid_set, lmc_set;
	uint16_t lid;
	uint8_t lmc;
};

static inline unsigned int
type_slot(enum fab_node_type t)
{
	return (unsigned int)t & 3;
}

/* Type prefix of a node id as ibnetdiscover writes it ("S-<guid>"). */
static inline char
type_prefix(enum fab_node_type type)
{
	return type == FAB_NODE_SWITCH ? 'S' : type == FAB_NODE_ROUTER ? 'R' : 'H';
}

#endif /* _IBFABRIC_TOPO_STATE_H_ */
