/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The parser against real ibnetdiscover output: every file of
 * test/data/ibnetdiscover/ (argv[1]) must parse, with the node, cable and
 * warning counts below, and no file may be there without a row here.
 * Where each file came from is in its own header comment.
 *
 * The counts were taken from the files by a separate reading (node
 * header lines, "Switch : 0x..." list lines and distinct GUIDs of "-p"
 * lines; port lines with a peer, halved since every cable is listed at
 * both ends; the diags' message lines), not from this parser.
 *
 * The rate checks use IBA 14.2.5.6's encodings: LinkWidthEnabled 1 = 1x,
 * 3 = 1x|4x; LinkSpeedEnabled 3 = SDR|DDR, 7 = SDR|DDR|QDR;
 * LinkSpeedExtEnabled bits FDR 1, EDR 2, HDR 4, NDR 8; CapabilityMask
 * bit 14 IsExtendedSpeedsSupported, bit 15 HasCapabilityMask2;
 * CapabilityMask2 bit 11 IsExtendedSpeeds2Supported (XDR).
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fab_node.h"
#include "fabric.h"
#include "test.h"
#include "topo.h"

static const char *corpus_dir;
static char err[512];

struct corpus_row {
	const char *file;
	unsigned int nodes;
	unsigned int cables;
	unsigned int warnings;
};

static const struct corpus_row corpus[] = {
	{ "edr-switchib-2023-excerpt.net", 3, 2, 0 },
	{ "fdr-sx6536-2019-warning.net", 2, 1, 1 },
	{ "ibnetdiscover44-ibsim-H.net", 4, 0, 1 },
	{ "ibnetdiscover44-ibsim-S.net", 2, 0, 1 },
	{ "ibnetdiscover44-ibsim-f.net", 6, 6, 1 },
	{ "ibnetdiscover44-ibsim-g.net", 6, 6, 1 },
	{ "ibnetdiscover44-ibsim-l.net", 6, 0, 1 },
	{ "ibnetdiscover44-ibsim-p.net", 6, 6, 1 },
	{ "ibnetdiscover44-ibsim-plain.net", 6, 6, 1 },
	{ "ibnetdiscover44-ibsim-s.net", 6, 6, 9 },
	{ "ibnetdiscover44-no-port.net", 0, 0, 4 },
	{ "ibsim-net.1.net", 3, 2, 0 },
	{ "ibsim-net.2sw2path.net", 4, 4, 0 },
	{ "ibsim-net.2sw2path4hca.net", 6, 6, 0 },
	{ "ibsim-net.2sw2path4hca2port.net", 4, 6, 0 },
	{ "ibsim-net.net", 4, 4, 0 },
	{ "man-sec-topology-2007.net", 6, 7, 0 },
	{ "ompi-users-2009-infiniscale3.net", 25, 24, 0 },
	{ "xdr-q3400-router-fragment.net", 2, 1, 0 },
};

#define NROWS (sizeof(corpus) / sizeof(corpus[0]))

static struct fabric *
load(const char *file)
{
	struct fabric *f = fabric_new();
	char path[1024];

	if (f == NULL)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", corpus_dir, file);
	if (topo_parse_file(f, path, err, sizeof(err)) != 0) {
		printf("%s: %s\n", file, err);
		fabric_free(f);
		return NULL;
	}
	return f;
}

static unsigned int
count_cables(const struct fabric *f)
{
	unsigned int i, j, ends = 0;

	for (i = 0; i < f->nnodes; i++)
		for (j = 1; j <= f->nodes[i]->nports; j++)
			ends += f->nodes[i]->ports[j].peer != NULL;
	return ends / 2;
}

static struct fab_port *
port_of(struct fabric *f, const char *node, unsigned int num)
{
	struct fab_node *n = fabric_find_node(f, node);

	return n != NULL && num <= n->nports ? &n->ports[num] : NULL;
}

/* Every file parses to its row's counts; every file has a row. */
static int
test_corpus_counts(void)
{
	struct dirent *de;
	struct fabric *f;
	unsigned int i, seen = 0;
	DIR *d;

	if (corpus_dir == NULL)
		return TEST_SKIPPED;
	for (i = 0; i < NROWS; i++) {
		f = load(corpus[i].file);
		TEST_ASSERT(f != NULL, "%s does not parse: %s", corpus[i].file, err);
		TEST_ASSERT_EQUAL(f->nnodes, corpus[i].nodes, "%s: nodes", corpus[i].file);
		TEST_ASSERT_EQUAL(count_cables(f), corpus[i].cables, "%s: cables", corpus[i].file);
		TEST_ASSERT_EQUAL(f->topo_warnings, corpus[i].warnings, "%s: warnings",
				  corpus[i].file);
		fabric_free(f);
	}
	d = opendir(corpus_dir);
	TEST_ASSERT(d != NULL, "cannot open %s", corpus_dir);
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);

		if (len < 4 || strcmp(de->d_name + len - 4, ".net") != 0)
			continue;
		for (i = 0; i < NROWS; i++)
			if (strcmp(corpus[i].file, de->d_name) == 0)
				break;
		if (i == NROWS) {
			closedir(d);
			TEST_ASSERT(false, "%s: in the corpus but not in this test's table",
				    de->d_name);
		}
		seen++;
	}
	closedir(d);
	TEST_ASSERT_EQUAL(seen, NROWS, "corpus files");
	return TEST_SUCCESS;
}

/* SDR in 1x and 4x; LMC and LIDs from the comments (2007 manual example). */
static int
test_corpus_sdr_widths(void)
{
	struct fabric *f;
	struct fab_port *p;

	if (corpus_dir == NULL)
		return TEST_SKIPPED;
	f = load("man-sec-topology-2007.net");
	TEST_ASSERT(f != NULL, "parse: %s", err);
	/* "[1] ... lid 6 1xSDR" on the SW-6IB4: width 1x only, SDR only. */
	p = port_of(f, "S-0008f10400410015", 1);
	TEST_ASSERT(p != NULL && p->link_width_enabled == 1 && p->link_speed_enabled == 1,
		    "SW-6IB4 port 1: width %u speed %u", p ? p->link_width_enabled : 0,
		    p ? p->link_speed_enabled : 0);
	/* "[10] ... 4xSDR" on the ISR9024: 1x|4x. */
	p = port_of(f, "S-005442ba00003080", 10);
	TEST_ASSERT(p != NULL && p->link_width_enabled == 3, "ISR9024 port 10 width");
	/* CA port: "# lid 14 lmc 1", port GUID 8f1040396055a. */
	p = port_of(f, "H-0008f10403960558", 2);
	TEST_ASSERT(p != NULL && p->lid == 14 && p->lmc == 1 && p->guid == 0x8f1040396055aull,
		    "CA port 2: lid %u lmc %u", p ? p->lid : 0, p ? p->lmc : 0);
	fabric_free(f);
	return TEST_SUCCESS;
}

/* EDR with one link trained down to DDR (2023 SwitchIB excerpt). */
static int
test_corpus_edr(void)
{
	struct fabric *f;
	struct fab_port *p;

	if (corpus_dir == NULL)
		return TEST_SKIPPED;
	f = load("edr-switchib-2023-excerpt.net");
	TEST_ASSERT(f != NULL, "parse: %s", err);
	p = port_of(f, "S-ec0d9a0300ec8480", 36);
	TEST_ASSERT(p != NULL && p->link_speed_ext_enabled == 3 && p->link_speed_enabled == 7,
		    "4xEDR: ext %u speed %u", p ? p->link_speed_ext_enabled : 0,
		    p ? p->link_speed_enabled : 0);
	TEST_ASSERT(p->node->ports[0].cap_mask & (1u << 14),
		    "switch port 0 must announce extended speeds");
	p = port_of(f, "S-ec0d9a0300ec8480", 11);
	TEST_ASSERT(p != NULL && p->link_speed_ext_enabled == 0 && p->link_speed_enabled == 3,
		    "4xDDR: ext %u speed %u", p ? p->link_speed_ext_enabled : 0,
		    p ? p->link_speed_enabled : 0);
	p = port_of(f, "H-506b4b030043f9ee", 1);
	TEST_ASSERT(p != NULL && p->link_speed_ext_enabled == 3 && (p->cap_mask & (1u << 14)),
		    "CA 4xEDR port");
	TEST_ASSERT_EQUAL(p->lid, 24, "CA LID from \"# lid 24 lmc 0\"");
	fabric_free(f);
	return TEST_SUCCESS;
}

/* FDR, and XDR on a router at 1x. */
static int
test_corpus_fdr_xdr(void)
{
	struct fabric *f;
	struct fab_port *p;

	if (corpus_dir == NULL)
		return TEST_SKIPPED;
	f = load("fdr-sx6536-2019-warning.net");
	TEST_ASSERT(f != NULL, "parse: %s", err);
	p = port_of(f, "H-0002c9030037a2f0", 1);
	TEST_ASSERT(p != NULL && p->link_speed_ext_enabled == 1, "4xFDR CA port");
	fabric_free(f);

	f = load("xdr-q3400-router-fragment.net");
	TEST_ASSERT(f != NULL, "parse: %s", err);
	p = port_of(f, "R-b8e924030000b928", 2);
	TEST_ASSERT(p != NULL && p->link_speed_ext2_enabled == 1 &&
		    p->link_speed_ext_enabled == 15 && p->link_width_enabled == 1,
		    "1xXDR router port: ext2 %u ext %u width %u",
		    p ? p->link_speed_ext2_enabled : 0, p ? p->link_speed_ext_enabled : 0,
		    p ? p->link_width_enabled : 0);
	TEST_ASSERT((p->cap_mask & (1u << 15)) && (p->cap_mask2 & (1u << 11)),
		    "XDR needs CapabilityMask2 and IsExtendedSpeeds2Supported");
	TEST_ASSERT(p->node->type == FAB_NODE_ROUTER, "Rt is a router");
	fabric_free(f);
	return TEST_SUCCESS;
}

/* -p: one node per switch GUID, one per CA port GUID; -l: GUIDs, no cable. */
static int
test_corpus_reports(void)
{
	struct fabric *f;
	struct fab_port *p;
	struct fab_node *n;

	if (corpus_dir == NULL)
		return TEST_SKIPPED;
	f = load("ibnetdiscover44-ibsim-p.net");
	TEST_ASSERT(f != NULL, "parse: %s", err);
	/* "SW 1 5 0x...200000 4x SDR - SW 3 5 0x...200001 ( 'Switch1' - 'Switch2' )" */
	p = port_of(f, "S-0000000000200000", 5);
	TEST_ASSERT(p != NULL && p->peer != NULL && p->peer->num == 5 &&
		    strcmp(p->peer->node->name, "S-0000000000200001") == 0,
		    "Switch1[5] -> Switch2[5]");
	TEST_ASSERT_EQUAL(p->node->nports, 8, "ports listed uncabled count too");
	TEST_ASSERT(strcmp(p->node->desc, "Switch1") == 0, "desc from the report");
	TEST_ASSERT_EQUAL(p->node->ports[0].lid, 1, "switch LID from the report");
	/* "CA 2 1 0x0000000000100001 4x SDR - SW 1 1 ..." */
	p = port_of(f, "H-0000000000100001", 1);
	TEST_ASSERT(p != NULL && p->guid == 0x100001 && p->lid == 2 && p->peer != NULL,
		    "Hca1 port 1");
	fabric_free(f);

	f = load("ibnetdiscover44-ibsim-l.net");
	TEST_ASSERT(f != NULL, "parse: %s", err);
	n = fabric_find_node(f, "S-0000000000200000");
	TEST_ASSERT(n != NULL && n->nports == 8 && n->node_guid == 0x200000 &&
		    strcmp(n->desc, "Switch1") == 0, "Switch1 from -l");
	fabric_free(f);
	return TEST_SUCCESS;
}

/*
 * Forms no corpus file has: FDR10 (MlnxExtPortInfo), NDR/HDR, 2x and 12x,
 * -g chassis headings and [ext N], the -f "s= w= v=" trailer, the older
 * "ibwarn" and "[pid] func:" messages inside a record, malformed lines.
 */
static int
test_forms_inline(void)
{
	static const char text[] =
		"Chassis 1 (guid 0x8f104004050c6)\n"
		"sysimgguid=0x8f104004050c7\t\t# Chassis 1\n"
		"switchguid=0x8f104004050c6(8f104004050c6)\t# ISR9288 Line 5\n"
		"Switch\t24 \"S-0008f104004050c6\"\t\t# \"ISR9288 Voltaire\" base port 0 lid 5 lmc 0\n"
		"[1][ext 2]\t\"H-0002c90300001000\"[1](2c90300001001) \t\t# \"a\" lid 2 4xFDR10 s=4 w=2 v=4\n"
		"ibwarn: [4242] mad_rpc: _do_madrpc failed; dport (DR path slid 0; dlid 0; 0,1)\n"
		"[2]\t\"H-0002c90300002000\"[1](2c90300002001) \t\t# \"b\" lid 3 2xNDR\n"
		"[4242] mad_rpc_open_port: verbose line\n"
		"[3]\t\"H-0002c90300003000\"[1](2c90300003001) \t\t# \"c\" lid 4 12xHDR\n"
		"\n"
		"Ca\t1 \"H-0002c90300001000\"\t\t# \"a\"\n"
		"[1](2c90300001001) \t\"S-0008f104004050c6\"[1][ext 2]\t\t# lid 2 lmc 0 \"ISR9288 Voltaire\" lid 5 4xFDR10\n"
		"Ca\t1 \"H-0002c90300002000\"\t\t# \"b\"\n"
		"[1](2c90300002001) \t\"S-0008f104004050c6\"[2]\t\t# lid 3 lmc 0 \"ISR9288 Voltaire\" lid 5 2xNDR\n"
		"Ca\t1 \"H-0002c90300003000\"\t\t# \"c\"\n"
		"[1](2c90300003001) \t\"S-0008f104004050c6\"[3]\t\t# lid 4 lmc 0 \"ISR9288 Voltaire\" lid 5 12xHDR\n";
	struct fabric *f = fabric_new();
	struct fab_port *p;
	int rc;

	TEST_ASSERT(f != NULL, "fabric_new");
	rc = topo_parse_buf(f, "forms.net", text, sizeof(text) - 1, err, sizeof(err));
	TEST_ASSERT_SUCCESS(rc, "parse: %s", err);
	TEST_ASSERT_EQUAL(f->topo_warnings, 2, "the two messages of the diags");
	TEST_ASSERT_EQUAL(count_cables(f), 3, "cables");
	p = port_of(f, "S-0008f104004050c6", 1);
	/* FDR10: QDR signalling plus MlnxExtPortInfo FDR10, no extended speed. */
	TEST_ASSERT(p->link_speed_enabled == 7 && p->mlnx_speed_enabled == 1 &&
		    p->link_speed_ext_enabled == 0, "FDR10");
	TEST_ASSERT(p->node->ports[0].mlnx_speed_supported == 1,
		    "switch answers MlnxExtPortInfo");
	p = port_of(f, "S-0008f104004050c6", 2);
	TEST_ASSERT(p->link_width_enabled == 16 && p->link_speed_ext_enabled == 15, "2xNDR");
	p = port_of(f, "S-0008f104004050c6", 3);
	TEST_ASSERT(p->link_width_enabled == 11 && p->link_speed_ext_enabled == 7, "12xHDR");
	fabric_free(f);

	/* Malformed statements stay errors, naming file and line. */
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	rc = topo_parse_buf(f, "bad.net", "src/x.c:12 no semicolon\n", 24, err, sizeof(err));
	TEST_ASSERT(rc != 0 && strstr(err, "bad.net:1:") != NULL, "not a message: %s", err);
	fabric_free(f);
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	rc = topo_parse_buf(f, "bad.net", "SW 1 x 0x1 4x SDR\n", 18, err, sizeof(err));
	TEST_ASSERT(rc != 0 && strstr(err, "bad.net:1: ports report") != NULL, "bad -p: %s",
		    err);
	fabric_free(f);
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	rc = topo_parse_buf(f, "bad.net", "Switch : 0x12 ports x \"d\"\n", 26, err, sizeof(err));
	TEST_ASSERT(rc != 0 && strstr(err, "bad.net:1: node list") != NULL, "bad -l: %s", err);
	fabric_free(f);
	return TEST_SUCCESS;
}

static struct unit_test_suite corpus_suite = {
	.suite_name = "topo_corpus",
	.unit_test_cases = {
		TEST_CASE(test_corpus_counts),
		TEST_CASE(test_corpus_sdr_widths),
		TEST_CASE(test_corpus_edr),
		TEST_CASE(test_corpus_fdr_xdr),
		TEST_CASE(test_corpus_reports),
		TEST_CASE(test_forms_inline),
		TEST_CASES_END(),
	},
};

int
main(int argc, char **argv)
{
	corpus_dir = argc > 1 ? argv[1] : NULL;
	return unit_test_suite_runner(&corpus_suite);
}
