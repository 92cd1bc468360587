/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * ibfabric topology: fabric.c (nodes, name index, GUIDs, LID lookup,
 * cabling), topo_parse.c (net files) and topo_gen.c (generator).
 *
 * The inputs are written here from the format's description (ibsim's
 * sim_net.c and ibnetdiscover's output routines, read for their rules,
 * and doc/guides/tools/ibfabric_topology.rst), and each expected value
 * is worked out by hand in the comment beside it.
 *
 * argv[1], when given, is the source tree's config/fabrics directory:
 * every sample fabric there must parse.
 *
 * When ibsim (ibsim-utils) is installed, it loads the generator's files
 * and the samples too, and must find the same nodes and cables: the
 * format is meant for both simulators.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fab_node.h"
#include "fabric.h"
#include "test.h"
#include "topo.h"

static const char *fabrics_dir;
static char scratch[64];
static char err[512];

/* ------------------------------------------------------------------ */
/* Helpers */

static struct fabric *
parse(const char *text, int *rc)
{
	struct fabric *f = fabric_new();

	if (f == NULL) {
		*rc = -2;
		return NULL;
	}
	*rc = topo_parse_buf(f, "t.net", text, strlen(text), err, sizeof(err));
	return f;
}

static unsigned int
count_links(const struct fabric *f)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < f->nnodes; i++)
		for (j = 1; j <= f->nodes[i]->nports; j++)
			if (f->nodes[i]->ports[j].peer != NULL)
				n++;
	return n / 2;
}

static struct fab_port *
port_of(const struct fabric *f, const char *name, unsigned int num)
{
	struct fab_node *n = fabric_find_node(f, name);

	if (n == NULL || num > n->nports)
		return NULL;
	return &n->ports[num];
}

/* Whether name[p] is cabled to peer[q], looked at from both ends. */
static bool
cabled(const struct fabric *f, const char *a, unsigned int pa, const char *b, unsigned int pb)
{
	struct fab_port *x = port_of(f, a, pa), *y = port_of(f, b, pb);

	return x != NULL && y != NULL && x->peer == y && y->peer == x;
}

static int
write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (fp == NULL)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

static void
remove_tree(const char *dir)
{
	char path[512];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			remove_tree(path);
		else
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

static int
scratch_setup(void)
{
	snprintf(scratch, sizeof(scratch), "/tmp/test_topo.XXXXXX");
	return mkdtemp(scratch) != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
scratch_teardown(void)
{
	remove_tree(scratch);
}

/* ------------------------------------------------------------------ */
/* fabric.c */

static int
test_guid_stability(void)
{
	uint64_t a = fabric_guid_for_name("H0001", FAB_NODE_CA);
	uint64_t b = fabric_guid_for_name("H0001", FAB_NODE_CA);
	uint64_t c = fabric_guid_for_name("H0002", FAB_NODE_CA);
	struct fabric *f1, *f2;
	struct fab_node *n1, *n2, *sw;
	unsigned int i;

	TEST_ASSERT_EQUAL(a, b, "same name, same GUID");
	TEST_ASSERT(a != c, "neighbouring names must differ");
	/* OUI 00-02-C9 in bits 63..40, low byte zero for node + port. */
	TEST_ASSERT_EQUAL(a >> 40, 0x0002c9, "OUI");
	TEST_ASSERT_EQUAL(a & 0xff, 0, "port byte");

	/* Independent of insertion order and of the other nodes. */
	f1 = fabric_new();
	f2 = fabric_new();
	TEST_ASSERT(f1 != NULL && f2 != NULL, "fabric_new");
	fabric_add_node(f1, FAB_NODE_SWITCH, "S01", 36);
	n1 = fabric_add_node(f1, FAB_NODE_CA, "H0001", 2);
	n2 = fabric_add_node(f2, FAB_NODE_CA, "H0001", 2);
	sw = fabric_find_node(f1, "S01");
	TEST_ASSERT(n1 != NULL && n2 != NULL && sw != NULL, "add");
	TEST_ASSERT_EQUAL(n1->node_guid, n2->node_guid, "stable across fabrics");
	TEST_ASSERT_EQUAL(n1->node_guid, a, "fabric_guid_for_name agrees");
	TEST_ASSERT_EQUAL(n1->sys_guid, a, "system image GUID = node GUID");
	/* CA port GUID = node GUID + port number; GUIDInfo[0] = port GUID. */
	TEST_ASSERT_EQUAL(n1->ports[1].guid, a + 1, "CA port 1");
	TEST_ASSERT_EQUAL(n1->ports[2].guid, a + 2, "CA port 2");
	TEST_ASSERT_EQUAL(n1->ports[2].guids[0], a + 2, "GUIDInfo[0]");
	/* Every switch port carries the switch's GUID. */
	for (i = 0; i <= 36; i++)
		TEST_ASSERT_EQUAL(sw->ports[i].guid, sw->node_guid, "switch port %u", i);
	TEST_ASSERT(sw->sw != NULL && sw->sw->mft != NULL, "switch state allocated");
	TEST_ASSERT_EQUAL(sw->sw->lft[0x10], FAB_NO_PORT, "empty LFT");
	TEST_ASSERT(n1->sw == NULL, "CA has no switch state");
	TEST_ASSERT(strcmp(n1->desc, "H0001") == 0, "desc defaults to the name");
	TEST_ASSERT_EQUAL(n1->ports[1].node, n1, "port->node");
	TEST_ASSERT_EQUAL(n1->ports[2].num, 2, "port->num");
	fabric_free(f1);
	fabric_free(f2);
	return TEST_SUCCESS;
}

static int
test_guid_unique_many(void)
{
	struct fabric *f = fabric_new();
	char name[16];
	unsigned int i, j;
	uint64_t *g;

	TEST_ASSERT(f != NULL, "fabric_new");
	/* 6000 names of the generator's pattern: all node GUIDs distinct. */
	for (i = 0; i < 6000; i++) {
		snprintf(name, sizeof(name), "H%04u", i + 1);
		TEST_ASSERT(fabric_add_node(f, FAB_NODE_CA, name, 1) != NULL, "%s", name);
	}
	g = malloc(6000 * sizeof(*g));
	TEST_ASSERT(g != NULL, "malloc");
	for (i = 0; i < 6000; i++)
		g[i] = f->nodes[i]->node_guid;
	for (i = 0; i < 6000; i++)
		for (j = i + 1; j < 6000; j++)
			if (g[i] == g[j]) {
				free(g);
				fabric_free(f);
				TEST_ASSERT(0, "GUID of node %u equals node %u", i, j);
			}
	free(g);
	TEST_ASSERT(fabric_find_node(f, "H4711") == f->nodes[4710], "index after growth");
	TEST_ASSERT(fabric_find_node(f, "H6001") == NULL, "absent name");
	fabric_free(f);
	return TEST_SUCCESS;
}

static int
test_add_node_errors(void)
{
	struct fabric *f = fabric_new();
	char longname[FAB_NAME_MAX + 1];

	TEST_ASSERT(f != NULL, "fabric_new");
	TEST_ASSERT(fabric_add_node(f, FAB_NODE_CA, "A", 1) != NULL, "first");
	errno = 0;
	TEST_ASSERT(fabric_add_node(f, FAB_NODE_SWITCH, "A", 8) == NULL && errno == EEXIST,
		    "duplicate name");
	errno = 0;
	TEST_ASSERT(fabric_add_node(f, FAB_NODE_CA, "B", 0) == NULL && errno == EINVAL,
		    "NumPorts 0");
	errno = 0;
	TEST_ASSERT(fabric_add_node(f, FAB_NODE_CA, "B", 255) == NULL && errno == EINVAL,
		    "NumPorts 255 is reserved");
	errno = 0;
	TEST_ASSERT(fabric_add_node(f, FAB_NODE_CA, "", 1) == NULL && errno == EINVAL,
		    "empty name");
	memset(longname, 'x', FAB_NAME_MAX);
	longname[FAB_NAME_MAX] = '\0';
	errno = 0;
	TEST_ASSERT(fabric_add_node(f, FAB_NODE_CA, longname, 1) == NULL && errno == EINVAL,
		    "64-byte name does not fit name[64]");
	longname[FAB_NAME_MAX - 1] = '\0';
	TEST_ASSERT(fabric_add_node(f, FAB_NODE_CA, longname, 1) != NULL, "63-byte name fits");
	errno = 0;
	TEST_ASSERT(fabric_add_node(f, (enum fab_node_type)7, "C", 1) == NULL && errno == EINVAL,
		    "bad type");
	TEST_ASSERT_EQUAL(f->nnodes, 2, "only the good ones were added");
	fabric_free(f);
	fabric_free(NULL);
	return TEST_SUCCESS;
}

static int
test_find_by_lid_lmc(void)
{
	struct fabric *f = fabric_new();
	struct fab_node *ca, *sw;

	TEST_ASSERT(f != NULL, "fabric_new");
	ca = fabric_add_node(f, FAB_NODE_CA, "ca", 2);
	sw = fabric_add_node(f, FAB_NODE_SWITCH, "sw", 4);
	TEST_ASSERT(ca != NULL && sw != NULL, "add");
	/* Port 1: base LID 0x10, LMC 2 -> answers 0x10..0x13. Port 2: 0x20, LMC 0. */
	ca->ports[1].lid = 0x10;
	ca->ports[1].lmc = 2;
	ca->ports[2].lid = 0x20;
	sw->ports[0].lid = 0x30;
	/* A switch's external ports have no LID of their own, even if set. */
	sw->ports[3].lid = 0x40;
	TEST_ASSERT(fabric_find_port_by_lid(f, 0x10) == &ca->ports[1], "base LID");
	TEST_ASSERT(fabric_find_port_by_lid(f, 0x13) == &ca->ports[1], "base + 2^LMC - 1");
	TEST_ASSERT(fabric_find_port_by_lid(f, 0x14) == NULL, "beyond the LMC range");
	TEST_ASSERT(fabric_find_port_by_lid(f, 0x0f) == NULL, "below the base");
	TEST_ASSERT(fabric_find_port_by_lid(f, 0x20) == &ca->ports[2], "LMC 0");
	TEST_ASSERT(fabric_find_port_by_lid(f, 0x21) == NULL, "LMC 0 is one LID");
	TEST_ASSERT(fabric_find_port_by_lid(f, 0x30) == &sw->ports[0], "switch port 0");
	TEST_ASSERT(fabric_find_port_by_lid(f, 0x40) == NULL, "switch port 3");
	TEST_ASSERT(fabric_find_port_by_lid(f, 0) == NULL, "LID 0");
	TEST_ASSERT(fabric_find_port_by_lid(f, 0xc000) == NULL, "multicast");
	TEST_ASSERT(fabric_find_port_by_lid(f, 0xffff) == NULL, "permissive");
	fabric_free(f);
	return TEST_SUCCESS;
}

static int
test_connect_and_desc(void)
{
	struct fabric *f = fabric_new();
	struct fab_node *a, *b, *c;

	TEST_ASSERT(f != NULL, "fabric_new");
	a = fabric_add_node(f, FAB_NODE_SWITCH, "a", 4);
	b = fabric_add_node(f, FAB_NODE_CA, "b", 1);
	c = fabric_add_node(f, FAB_NODE_CA, "c", 1);
	TEST_ASSERT(a != NULL && b != NULL && c != NULL, "add");
	TEST_ASSERT_EQUAL(fabric_connect(f, &a->ports[1], &b->ports[1]), 0, "cable");
	TEST_ASSERT(a->ports[1].peer == &b->ports[1] && b->ports[1].peer == &a->ports[1], "peers");
	TEST_ASSERT_EQUAL(fabric_connect(f, &a->ports[2], &b->ports[1]), -EBUSY, "busy");
	TEST_ASSERT_EQUAL(fabric_connect(f, &a->ports[0], &c->ports[1]), -EINVAL,
			  "switch port 0 takes no cable");
	TEST_ASSERT_EQUAL(fabric_connect(f, &a->ports[2], &a->ports[2]), -EINVAL, "itself");
	snprintf(c->desc, sizeof(c->desc), "node03 HCA-1");
	TEST_ASSERT(fabric_find_node_by_desc(f, "node03 HCA-1") == c, "by desc");
	TEST_ASSERT(fabric_find_node_by_desc(f, "nothing") == NULL, "no desc");
	fabric_free(f);
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Parser: constructs */

/* ibsim's own example (net-examples/net), both ends listed. */
static const char ibsim_example[] =
	"# comment\n"
	"\n"
	"Switch\t8 \"Switch1\"\n"
	"[1]\t\"Hca1\"[1]\n"
	"[2]\t\"Hca2\"[2]\n"
	"[3]\t\"Switch2\"[3]\n"
	"[4]\t\"Switch2\"[4]\n"
	"\n"
	"Switch 8 \"Switch2\"\n"
	"[3]\t\"Switch1\"[3]\n"
	"[4]\t\"Switch1\"[4]\n"
	"\n"
	"Hca\t2 \"Hca1\"\n"
	"[1]\t\"Switch1\"[1]\n"
	"\n"
	"Hca\t2 \"Hca2\"\n"
	"[2]\t\"Switch1\"[2]\n";

static int
test_parse_ibsim_example(void)
{
	struct fabric *f;
	struct fab_node *s1, *h2;
	int rc;

	f = parse(ibsim_example, &rc);
	TEST_ASSERT(f != NULL, "fabric_new");
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	/* 2 switches + 2 CAs; cables S1-H1, S1-H2, S1-S2 twice. */
	TEST_ASSERT_EQUAL(f->nnodes, 4, "nodes");
	TEST_ASSERT_EQUAL(count_links(f), 4, "links");
	TEST_ASSERT(cabled(f, "Switch1", 2, "Hca2", 2), "S1[2]-H2[2]");
	TEST_ASSERT(cabled(f, "Switch1", 4, "Switch2", 4), "S1[4]-S2[4]");
	s1 = fabric_find_node(f, "Switch1");
	h2 = fabric_find_node(f, "Hca2");
	TEST_ASSERT(s1 != NULL && h2 != NULL, "lookup");
	TEST_ASSERT_EQUAL(s1->type, FAB_NODE_SWITCH, "Switch");
	TEST_ASSERT_EQUAL(h2->type, FAB_NODE_CA, "Hca");
	TEST_ASSERT_EQUAL(s1->nports, 8, "NumPorts");
	TEST_ASSERT_EQUAL(s1->line, 3, "header line");
	TEST_ASSERT(h2->ports[1].peer == NULL, "Hca2 port 1 uncabled");
	/* First port of the first node: the switch's port 0 (ibsim's default_port). */
	TEST_ASSERT(f->sm_port == &s1->ports[0], "sm_port");
	fabric_free(f);
	return TEST_SUCCESS;
}

/*
 * ibnetdiscover's output shape. Expected values:
 * - switchguid=0x2c90200002000(2c90200002000) -> node GUID 0x0002c90200002000;
 * - "enhanced port 0 lid 1 lmc 0" -> EnhancedPort0 = 1, port 0 LID 1;
 * - "# lid 2 lmc 1 ..." on a CA port -> that port's LID 2, LMC 1 (ibsim);
 * - "lid 1 4xDDR" trailer -> LinkWidthEnabled 3 (1x|4x), LinkSpeedEnabled 3
 *   (SDR|DDR), ibsim's mapping of ibnetdiscover's active rate;
 * - [1](2c90300001001) -> CA port 1 GUID 0x0002c90300001001.
 */
static const char ibnetdiscover_text[] =
	"#\n# Topology file: generated on Thu Dec  3 06:00:00 2026\n#\n"
	"vendid=0x2c9\n"
	"devid=0xb924\n"
	"sysimgguid=0x2c90200002000\n"
	"switchguid=0x2c90200002000(2c90200002000)\n"
	"Switch\t24 \"S-0002c90200002000\"\t\t# \"ISR9024D Voltaire\" enhanced port 0 lid 1 lmc 0\n"
	"[1]\t\"H-0002c90300001000\"[1](2c90300001001) \t\t# \"node01 HCA-1\" lid 2 4xDDR\n"
	"\n"
	"vendid=0x2c9\n"
	"devid=0x6282\n"
	"sysimgguid=0x2c90300001003\n"
	"caguid=0x2c90300001000\n"
	"Ca\t2 \"H-0002c90300001000\"\t\t# \"node01 HCA-1\"\n"
	"[1](2c90300001001) \t\"S-0002c90200002000\"[1]\t\t# lid 2 lmc 1 \"ISR9024D Voltaire\" lid 1 4xDDR\n";

static int
test_parse_ibnetdiscover(void)
{
	struct fabric *f;
	struct fab_node *sw, *ca;
	int rc;

	f = parse(ibnetdiscover_text, &rc);
	TEST_ASSERT(f != NULL, "fabric_new");
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	sw = fabric_find_node(f, "S-0002c90200002000");
	ca = fabric_find_node(f, "H-0002c90300001000");
	TEST_ASSERT(sw != NULL && ca != NULL, "nodes");
	TEST_ASSERT_EQUAL(sw->node_guid, 0x0002c90200002000ull, "switchguid");
	TEST_ASSERT_EQUAL(sw->ports[5].guid, 0x0002c90200002000ull, "switch port GUID");
	TEST_ASSERT_EQUAL(sw->sys_guid, 0x0002c90200002000ull, "switch sysimgguid");
	TEST_ASSERT_EQUAL(sw->vendor_id, 0x2c9, "vendid");
	TEST_ASSERT_EQUAL(sw->device_id, 0xb924, "devid");
	TEST_ASSERT(strcmp(sw->desc, "ISR9024D Voltaire") == 0, "desc '%s'", sw->desc);
	TEST_ASSERT_EQUAL(sw->sw->enhanced_port0, 1, "enhanced port 0");
	TEST_ASSERT_EQUAL(sw->ports[0].lid, 1, "switch LID");
	TEST_ASSERT_EQUAL(sw->ports[1].link_width_enabled, 3, "4x -> 1x|4x");
	TEST_ASSERT_EQUAL(sw->ports[1].link_speed_enabled, 3, "DDR -> SDR|DDR");
	TEST_ASSERT_EQUAL(ca->node_guid, 0x0002c90300001000ull, "caguid");
	TEST_ASSERT_EQUAL(ca->sys_guid, 0x0002c90300001003ull, "CA sysimgguid");
	TEST_ASSERT_EQUAL(ca->device_id, 0x6282, "CA devid");
	TEST_ASSERT_EQUAL(ca->ports[1].guid, 0x0002c90300001001ull, "CA port GUID");
	TEST_ASSERT_EQUAL(ca->ports[2].guid, 0x0002c90300001002ull, "CA port 2 = node + 2");
	TEST_ASSERT_EQUAL(ca->ports[1].lid, 2, "CA LID from comment");
	TEST_ASSERT_EQUAL(ca->ports[1].lmc, 1, "CA LMC from comment");
	TEST_ASSERT(strcmp(ca->desc, "node01 HCA-1") == 0, "CA desc");
	TEST_ASSERT(cabled(f, "S-0002c90200002000", 1, "H-0002c90300001000", 1), "cable");
	TEST_ASSERT(fabric_find_port_by_lid(f, 3) == &ca->ports[1], "LMC 1 covers LID 3");
	fabric_free(f);
	return TEST_SUCCESS;
}

/*
 * The remaining constructs:
 * - "Rt" routers; "Ca"; one-sided links (only the switch lists them);
 *   a missing peer port means port 1 (ibsim);
 * - "w=" / "s=" port options: w=1 -> LinkWidthEnabled 1, s=1 -> SDR only;
 * - "width=" / "speed=" apply to every port of the nodes that follow;
 * - an unquoted header comment is the NodeDescription (ibsim);
 * - "active=mt25208" marks an active HCA; "do" lines are kept in order;
 * - switchguid= numbering: the next switch gets the base, the one after
 *   base + 1 (ibsim's counter);
 * - comments inside a record do not end it; CRLF line ends;
 * - "[ext N]" annotations are accepted.
 */
static const char constructs_text[] =
	"switchguid=0x100\n"
	"speed=1\n"
	"Switch 4 \"A\" # first switch\r\n"
	"[1] \"R\"[1] w=1\n"
	"# a comment inside the record\n"
	"[2][ext 7] \"H\"\n"
	"[3] \"B\"[3] s=1\n"
	"\n"
	"do link A 4 B 4\n"
	"width=2\n"
	"Switch 4 \"B\"\n"
	"[3] \"A\"[3]\n"
	"\n"
	"Rt 1 \"R\"\n"
	"\n"
	"Ca 2 \"H\" active=mt25208 # \"host H\"\n"
	"  do   show nodes  \n";

static int
test_parse_constructs(void)
{
	struct fabric *f;
	struct fab_node *a, *b, *r, *h;
	struct fab_do_cmd *c;
	int rc;

	f = parse(constructs_text, &rc);
	TEST_ASSERT(f != NULL, "fabric_new");
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	a = fabric_find_node(f, "A");
	b = fabric_find_node(f, "B");
	r = fabric_find_node(f, "R");
	h = fabric_find_node(f, "H");
	TEST_ASSERT(a && b && r && h, "nodes");
	TEST_ASSERT_EQUAL(r->type, FAB_NODE_ROUTER, "Rt");
	TEST_ASSERT_EQUAL(a->node_guid, 0x100, "switchguid base");
	TEST_ASSERT_EQUAL(b->node_guid, 0x101, "base + 1 for the next switch");
	TEST_ASSERT(strcmp(a->desc, "first switch") == 0, "unquoted desc '%s'", a->desc);
	TEST_ASSERT(strcmp(h->desc, "host H") == 0, "quoted desc");
	TEST_ASSERT(h->active_hca && !a->active_hca && !r->active_hca, "active=mt25208");
	TEST_ASSERT(cabled(f, "A", 1, "R", 1), "one-sided A[1]-R[1]");
	TEST_ASSERT(cabled(f, "A", 2, "H", 1), "missing peer port = 1");
	TEST_ASSERT(cabled(f, "A", 3, "B", 3), "both ends");
	TEST_ASSERT_EQUAL(count_links(f), 3, "links");
	TEST_ASSERT_EQUAL(a->ports[1].link_width_enabled, 1, "w=1");
	TEST_ASSERT_EQUAL(a->ports[3].link_speed_enabled, 1, "s=1");
	TEST_ASSERT_EQUAL(a->ports[2].link_speed_enabled, 1, "speed=1 on every port of A");
	TEST_ASSERT_EQUAL(b->ports[4].link_width_enabled, 2, "width=2 on B");
	TEST_ASSERT_EQUAL(h->ports[1].link_width_enabled, 2, "width=2 on H");
	c = f->do_cmds;
	TEST_ASSERT(c != NULL && strcmp(c->text, "link A 4 B 4") == 0 && c->line == 9,
		    "first do");
	c = c->next;
	TEST_ASSERT(c != NULL && strcmp(c->text, "show nodes") == 0 && c->line == 17,
		    "second do, blanks trimmed");
	TEST_ASSERT(c->next == NULL, "two do lines");
	TEST_ASSERT(f->sm_port == &a->ports[0], "sm_port = first node's first port");
	fabric_free(f);
	return TEST_SUCCESS;
}

/*
 * The statements the other cases do not use, and ibnetdiscover -g lines:
 * - hcaguids=0x1000 then a 2-port CA: 0x1000, next CA 0x1000 + 2 + 1;
 *   "caguid+0x100": base 0x1000 + 0x100 = 0x1100 for the CA after it;
 * - rtguid=0x5000 for the router; "extspeed=", "pdebug=", "e=" accepted;
 * - "base port 0 lid 7 lmc 1" on a switch: EnhancedPort0 0, LID 7, LMC 1;
 * - "Chassis ..." and "Hostname: ..." lines are ignored (and end a record).
 */
static const char more_text[] =
	"pdebug=0\n"
	"extspeed=0\n"
	"hcaguids=0x1000\n"
	"Hca 2 \"c1\"\n"
	"[1] \"sw\"[1] e=1\n"
	"\n"
	"Ca 2 \"c2\"\n"
	"[1] \"sw\"[2]\n"
	"\n"
	"caguid+0x100\n"
	"Ca 1 \"c3\"\n"
	"[1] \"sw\"[3]\n"
	"\n"
	"Chassis 1 (guid 0x2c9000001)\n"
	"Hostname: node01\n"
	"rtguid=0x5000\n"
	"Rt 1 \"r\"\n"
	"[1] \"sw\"[4]\n"
	"\n"
	"switchguid=0x7000\t\t# Chassis 1 spine\n"
	"Switch 4 \"sw\" # \"big switch\" base port 0 lid 7 lmc 1\n"
	"[1] \"c1\"[1]\n"
	"[2] \"c2\"[1]\n"
	"[3] \"c3\"[1]\n"
	"[4] \"r\"[1]\n";

static int
test_parse_more_statements(void)
{
	struct fab_node *c1, *c2, *c3, *r, *sw;
	struct fabric *f;
	int rc;

	f = parse(more_text, &rc);
	TEST_ASSERT(f != NULL, "fabric_new");
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	c1 = fabric_find_node(f, "c1");
	c2 = fabric_find_node(f, "c2");
	c3 = fabric_find_node(f, "c3");
	r = fabric_find_node(f, "r");
	sw = fabric_find_node(f, "sw");
	TEST_ASSERT(c1 && c2 && c3 && r && sw, "nodes");
	TEST_ASSERT_EQUAL(c1->node_guid, 0x1000, "hcaguids base");
	TEST_ASSERT_EQUAL(c2->node_guid, 0x1003, "base + NumPorts + 1");
	TEST_ASSERT_EQUAL(c3->node_guid, 0x1100, "caguid+0x100");
	TEST_ASSERT_EQUAL(r->node_guid, 0x5000, "rtguid");
	TEST_ASSERT_EQUAL(r->ports[1].guid, 0x5001, "router port GUID = node + 1");
	TEST_ASSERT_EQUAL(sw->node_guid, 0x7000, "switchguid with a trailing comment");
	TEST_ASSERT(strcmp(sw->desc, "big switch") == 0, "desc");
	TEST_ASSERT_EQUAL(sw->sw->enhanced_port0, 0, "base port 0");
	TEST_ASSERT_EQUAL(sw->ports[0].lid, 7, "switch LID");
	TEST_ASSERT_EQUAL(sw->ports[0].lmc, 1, "switch LMC");
	TEST_ASSERT(fabric_find_port_by_lid(f, 6) == &sw->ports[0], "LMC 1: LIDs 6..7");
	TEST_ASSERT_EQUAL(count_links(f), 4, "links");
	fabric_free(f);
	return TEST_SUCCESS;
}

static int
test_parse_sm_port_ca_first(void)
{
	struct fabric *f;
	int rc;

	f = parse("Ca 2 \"c\"\n[2] \"s\"[1]\n\nSwitch 8 \"s\"\n", &rc);
	TEST_ASSERT(f != NULL, "fabric_new");
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	/* ibsim attaches to the first node's first port: a CA's port 1, cabled or not. */
	TEST_ASSERT(f->sm_port == port_of(f, "c", 1), "sm_port");
	fabric_free(f);
	return TEST_SUCCESS;
}

static int
test_include(void)
{
	char path[256];
	struct fabric *f;
	struct fab_do_cmd *c;
	int rc;

	/* Relative to the including file: main.net -> sub/part.net -> ../leaf.net. */
	snprintf(path, sizeof(path), "%s/sub", scratch);
	TEST_ASSERT(mkdir(path, 0700) == 0, "mkdir");
	TEST_ASSERT(write_file(scratch, "main.net",
			       "Switch 4 \"S\"\n[1] \"H1\"[1]\n[2] \"H2\"[1]\n\n"
			       "include \"sub/part.net\"\n"
			       "do after include\n") == 0, "write");
	TEST_ASSERT(write_file(scratch, "sub/part.net",
			       "Ca 1 \"H1\"\n[1] \"S\"[1]\n\ninclude ../leaf.net\n"
			       "do in part\n") == 0, "write");
	TEST_ASSERT(write_file(scratch, "leaf.net", "Ca 1 \"H2\"\n[1] \"S\"[2]\n") == 0, "write");
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	snprintf(path, sizeof(path), "%s/main.net", scratch);
	rc = topo_parse_file(f, path, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	TEST_ASSERT_EQUAL(f->nnodes, 3, "nodes from three files");
	TEST_ASSERT(cabled(f, "S", 1, "H1", 1) && cabled(f, "S", 2, "H2", 1), "links");
	c = f->do_cmds;
	TEST_ASSERT(c != NULL && strcmp(c->text, "in part") == 0 && c->line == 5, "do in part");
	TEST_ASSERT(c->next != NULL && strcmp(c->next->text, "after include") == 0 &&
		    c->next->line == 6, "do after include");
	fabric_free(f);
	return TEST_SUCCESS;
}

static int
test_include_errors(void)
{
	char path[256], name[32], text[64];
	struct fabric *f;
	unsigned int i;
	int rc;

	/* a.net (line 2) -> b.net (line 1) -> a.net: a loop, reported in b.net. */
	TEST_ASSERT(write_file(scratch, "a.net", "# a\ninclude b.net\n") == 0, "write");
	TEST_ASSERT(write_file(scratch, "b.net", "include a.net\n") == 0, "write");
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	snprintf(path, sizeof(path), "%s/a.net", scratch);
	rc = topo_parse_file(f, path, err, sizeof(err));
	fabric_free(f);
	TEST_ASSERT_EQUAL(rc, -1, "loop accepted");
	snprintf(path, sizeof(path), "%s/b.net:1: include loop", scratch);
	TEST_ASSERT(strstr(err, path) == err, "message: %s", err);

	/* d0 -> d1 -> ... -> d9: deeper than TOPO_INCLUDE_MAX (8) files. */
	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "d%u.net", i);
		snprintf(text, sizeof(text), "include d%u.net\n", i + 1);
		TEST_ASSERT(write_file(scratch, name, i < 9 ? text : "Ca 1 \"x\"\n") == 0, "write");
	}
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	snprintf(path, sizeof(path), "%s/d0.net", scratch);
	rc = topo_parse_file(f, path, err, sizeof(err));
	fabric_free(f);
	TEST_ASSERT_EQUAL(rc, -1, "depth accepted");
	snprintf(path, sizeof(path), "%s/d7.net:1: include \"d8.net\": nesting deeper", scratch);
	TEST_ASSERT(strstr(err, path) == err, "message: %s", err);

	/* A missing include names the including line. */
	TEST_ASSERT(write_file(scratch, "m.net", "\n\ninclude nothere.net\n") == 0, "write");
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	snprintf(path, sizeof(path), "%s/m.net", scratch);
	rc = topo_parse_file(f, path, err, sizeof(err));
	fabric_free(f);
	TEST_ASSERT_EQUAL(rc, -1, "missing include accepted");
	snprintf(path, sizeof(path), "%s/m.net:3: cannot read", scratch);
	TEST_ASSERT(strstr(err, path) == err, "message: %s", err);

	/* A missing root file: "path: why", no line. */
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	snprintf(path, sizeof(path), "%s/absent.net", scratch);
	rc = topo_parse_file(f, path, err, sizeof(err));
	fabric_free(f);
	TEST_ASSERT_EQUAL(rc, -1, "missing file accepted");
	snprintf(path, sizeof(path), "%s/absent.net: No such file", scratch);
	TEST_ASSERT(strstr(err, path) == err, "message: %s", err);
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Parser: one case per error */

struct err_case {
	const char *what;
	const char *text;
	const char *expect;	/* the message must start with this */
};

static const char long_name[] =
	"Ca 1 \"0123456789012345678901234567890123456789012345678901234567890123\"\n";
static const char long_desc[] =
	"Ca 1 \"c\" # \"01234567890123456789012345678901234567890123456789012345678901234\"\n";

static const struct err_case err_cases[] = {
	{ "syntax: NumPorts missing", "Switch \"S\"\n",
	  "t.net:1: expected NumPorts" },
	{ "syntax: unterminated name", "\n# x\nSwitch 8 \"S\n",
	  "t.net:3: node name: missing closing" },
	{ "syntax: junk after the name", "Ca 1 \"c\" junk\n",
	  "t.net:1: unexpected \"junk\" after node name \"c\"" },
	{ "syntax: unknown statement", "Ca 1 \"c\"\n\nFoo 3\n",
	  "t.net:3: unknown statement \"Foo\"" },
	{ "syntax: bad port number", "Ca 1 \"c\"\n[x] \"d\"[1]\n",
	  "t.net:2: bad port number" },
	{ "syntax: peer not quoted", "Ca 1 \"c\"\n[1] d[1]\n",
	  "t.net:2: expected the quoted peer name" },
	{ "syntax: port line outside a record", "Ca 1 \"c\"\n\n[1] \"d\"[1]\n",
	  "t.net:3: port line outside a node record" },
	{ "syntax: bad GUID annotation", "Ca 1 \"c\"\n[1](xyz) \"d\"[1]\n",
	  "t.net:2: bad GUID annotation" },
	{ "syntax: assignment without '='", "vendid 0x2c9\n",
	  "t.net:1: vendid: expected '='" },
	{ "syntax: vendid beyond 24 bits", "vendid=0x1000000\n",
	  "t.net:1: vendid=16777216 out of range" },
	{ "syntax: bad port option", "Ca 1 \"c\"\n[1] \"d\"[1] x=1\n",
	  "t.net:2: unexpected \"x=1\" in port line" },
	{ "syntax: width option out of range", "Ca 1 \"c\"\n[1] \"d\"[1] w=40\n",
	  "t.net:2: w=40: link width enabled must be 1..31" },
	{ "syntax: do without a command", "do\n",
	  "t.net:1: do: missing command" },
	{ "syntax: NUL byte", "Ca 1 \"c\"\n\0\n",
	  "t.net:2: NUL byte" },
	{ "unsupported: module", "module=\"m\"\n",
	  "t.net:1: module= (ibsim name prefixes and port aliases) is not supported" },
	{ "unsupported: alias", "Ca 1 \"c\"\n@[1] \"a\"\n",
	  "t.net:2: ibsim port aliases" },
	{ "NumPorts out of range", "Switch 255 \"S\"\n",
	  "t.net:1: NumPorts 255 out of range 1..254" },
	{ "NumPorts zero", "Switch 0 \"S\"\n",
	  "t.net:1: NumPorts 0 out of range" },
	{ "unknown peer", "Switch 8 \"S\"\n[1] \"H1\"[1]\n[2] \"nobody\"[1]\n\nCa 1 \"H1\"\n",
	  "t.net:3: \"S\"[2]: unknown peer node \"nobody\"" },
	{ "local port 0", "Switch 8 \"S\"\n[0] \"H\"[1]\n",
	  "t.net:2: port [0] out of range for \"S\" (NumPorts 8)" },
	{ "local port > NumPorts", "Switch 8 \"S\"\n[9] \"H\"[1]\n",
	  "t.net:2: port [9] out of range for \"S\" (NumPorts 8)" },
	{ "peer port > NumPorts", "Switch 8 \"S\"\n[1] \"H\"[3]\n\nCa 2 \"H\"\n",
	  "t.net:2: \"S\"[1]: peer port \"H\"[3] out of range (NumPorts 2)" },
	{ "peer port 0", "Switch 8 \"S\"\n[1] \"H\"[0]\n\nCa 2 \"H\"\n",
	  "t.net:2: \"S\"[1]: peer port \"H\"[0] out of range" },
	{ "asymmetric link: peer names a third node",
	  "Switch 8 \"A\"\n[1] \"B\"[2]\n\nSwitch 8 \"B\"\n[2] \"C\"[5]\n\nSwitch 8 \"C\"\n",
	  "t.net:2: asymmetric link: \"A\"[1] -> \"B\"[2], but \"B\"[2] -> \"C\"[5] (t.net:5)" },
	{ "asymmetric link: peer names another port",
	  "Switch 8 \"A\"\n[1] \"B\"[2]\n\nSwitch 8 \"B\"\n[2] \"A\"[3]\n",
	  "t.net:2: asymmetric link: \"A\"[1] -> \"B\"[2], but \"B\"[2] -> \"A\"[3] (t.net:5)" },
	{ "port listed twice in its record",
	  "Switch 8 \"A\"\n[1] \"B\"[1]\n[1] \"B\"[2]\n\nSwitch 8 \"B\"\n",
	  "t.net:3: port [1] of \"A\" listed twice (first at line 2)" },
	{ "port cabled twice from two one-sided links",
	  "Switch 8 \"A\"\n[1] \"C\"[1]\n\nSwitch 8 \"B\"\n[1] \"C\"[1]\n\nCa 1 \"C\"\n",
	  "t.net:5: port cabled twice: \"B\"[1] -> \"C\"[1], which is already cabled to \"A\"[1]" },
	{ "port cabled to itself", "Switch 8 \"A\"\n[1] \"A\"[1]\n",
	  "t.net:2: \"A\"[1] is cabled to itself" },
	{ "duplicate node name", "Ca 1 \"c\"\n\nSwitch 8 \"c\"\n",
	  "t.net:3: duplicate node name \"c\" (first at t.net:1)" },
	{ "name too long", long_name,
	  "t.net:1: node name \"01234567890123456789...\" is 64 bytes, more than 63" },
	{ "peer name too long",
	  "Ca 1 \"c\"\n[1] \"0123456789012345678901234567890123456789012345678901234567890123\"\n",
	  "t.net:2: peer name \"01234567890123456789...\" is 64 bytes, more than 63" },
	{ "description too long", long_desc,
	  "t.net:1: NodeDescription \"01234567890123456789...\" is 65 bytes, more than 64" },
	{ "active= on a switch", "Switch 8 \"s\" active=mt25208\n",
	  "t.net:1: active=mt25208: only a Ca/Hca node can be an active HCA" },
	{ "active= unknown model", "Ca 1 \"c\" active=mt23108\n",
	  "t.net:1: active=mt23108: unknown HCA model (expected mt25208)" },
	{ "duplicate GUID",
	  "caguid=0x1000\nCa 1 \"a\"\n\ncaguid=0x1000\nCa 1 \"b\"\n",
	  "t.net:5: GUID 0x0000000000001000 of \"b\" is already used by \"a\"" },
	{ "relative GUID without a base", "switchguid+4\n",
	  "t.net:1: switchguid+: no absolute switchguid= before it" },
	/* A LID or LMC in a comment is ibsim's; out of range, not silently dropped. */
	{ "header comment: lid above 0xbfff", "Switch 8 \"S\" # \"s\" base port 0 lid 49152 lmc 0\n",
	  "t.net:1: comment: lid 49152 out of range (unicast LIDs are 0 to 0xbfff)" },
	{ "header comment: lmc above 7", "Switch 8 \"S\" # \"s\" base port 0 lid 2 lmc 8\n",
	  "t.net:1: comment: lmc 8 out of range (LMC is 0 to 7)" },
	{ "CA port comment: lid above 0xbfff", "Ca 1 \"c\"\n[1] \"S\"[1] # lid 0xc000 lmc 0\n",
	  "t.net:2: comment: lid 0xc000 out of range (unicast LIDs are 0 to 0xbfff)" },
	{ "CA port comment: lmc above 7", "Ca 1 \"c\"\n[1] \"S\"[1] # lid 3 lmc 9\n",
	  "t.net:2: comment: lmc 9 out of range (LMC is 0 to 7)" },
};

static int
test_errors(void)
{
	const struct err_case *c;
	struct fabric *f;
	size_t i, len;
	int rc;

	for (i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		c = &err_cases[i];
		f = fabric_new();
		TEST_ASSERT(f != NULL, "fabric_new");
		/* The NUL case needs its real length. */
		len = strlen(c->text);
		if (strcmp(c->what, "syntax: NUL byte") == 0)
			len += 2;
		err[0] = '\0';
		rc = topo_parse_buf(f, "t.net", c->text, len, err, sizeof(err));
		fabric_free(f);
		TEST_ASSERT_EQUAL(rc, -1, "%s: accepted", c->what);
		TEST_ASSERT(strncmp(err, c->expect, strlen(c->expect)) == 0,
			    "%s:\n    got      '%s'\n    expected '%s...'", c->what, err, c->expect);
	}
	return TEST_SUCCESS;
}

static int
test_error_too_long_line(void)
{
	struct fabric *f = fabric_new();
	char *text;
	int rc;

	TEST_ASSERT(f != NULL, "fabric_new");
	text = malloc(TOPO_LINE_MAX + 16);
	TEST_ASSERT(text != NULL, "malloc");
	memcpy(text, "# ok\n#", 6);
	memset(text + 6, 'x', TOPO_LINE_MAX);
	text[TOPO_LINE_MAX + 6] = '\n';
	rc = topo_parse_buf(f, "t.net", text, TOPO_LINE_MAX + 7, err, sizeof(err));
	free(text);
	fabric_free(f);
	TEST_ASSERT_EQUAL(rc, -1, "accepted");
	TEST_ASSERT(strstr(err, "t.net:2: line longer than") == err, "message: %s", err);
	return TEST_SUCCESS;
}

/* A tiny errlen truncates; NULL err is allowed. */
static int
test_error_buffer_edges(void)
{
	struct fabric *f = fabric_new();
	char small[8];

	TEST_ASSERT(f != NULL, "fabric_new");
	TEST_ASSERT_EQUAL(topo_parse_buf(f, "t.net", "Foo\n", 4, small, sizeof(small)), -1, "small");
	TEST_ASSERT(strlen(small) < sizeof(small), "NUL-terminated");
	TEST_ASSERT_EQUAL(topo_parse_buf(f, "t.net", "Foo\n", 4, NULL, 0), -1, "NULL err");
	TEST_ASSERT_EQUAL(topo_parse_buf(f, "t.net", "", 0, err, sizeof(err)), 0, "empty file");
	fabric_free(f);
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Generator */

static char *
gen_to_mem(const struct topo_fattree *t, size_t *len)
{
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);

	if (m == NULL)
		return NULL;
	if (topo_gen_fattree(m, t) != 0) {
		fclose(m);
		free(buf);
		return NULL;
	}
	fclose(m);
	return buf;
}

static int
test_gen_fattree_roundtrip(void)
{
	struct topo_fattree t = {
		.leaves = 4, .hosts_per_leaf = 3, .spines = 2, .links_per_spine = 2,
	};
	struct fabric *f;
	char *buf;
	size_t len;
	int rc;

	TEST_ASSERT_EQUAL(topo_fattree_check(&t, err, sizeof(err)), 0, "%s", err);
	/* Leaf: 3 hosts + 2 spines x 2 = 7 ports -> radix 36; spine 4 x 2 = 8 -> 36. */
	TEST_ASSERT_EQUAL(t.hosts, 12, "hosts");
	TEST_ASSERT_EQUAL(t.leaf_ports, 36, "leaf radix");
	TEST_ASSERT_EQUAL(t.spine_ports, 36, "spine radix");
	buf = gen_to_mem(&t, &len);
	TEST_ASSERT(buf != NULL, "generate");
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	rc = topo_parse_buf(f, "gen.net", buf, len, err, sizeof(err));
	free(buf);
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	/* 12 hosts + 4 leaves + 2 spines; 12 host cables + 4 x 2 x 2 uplinks. */
	TEST_ASSERT_EQUAL(f->nnodes, 18, "nodes");
	TEST_ASSERT_EQUAL(count_links(f), 28, "links");
	/* Host 5 (0-based 4) is on leaf 2 port 2; leaf l, spine s, cable k: port 3 + s*2 + k + 1. */
	TEST_ASSERT(cabled(f, "H0005", 1, "L002", 2), "host placement");
	TEST_ASSERT(cabled(f, "L003", 3 + 1 * 2 + 1 + 1, "S02", 2 * 2 + 1 + 1), "L003[7]-S02[6]");
	TEST_ASSERT(cabled(f, "L001", 4, "S01", 1), "L001[4]-S01[1]");
	TEST_ASSERT(f->sm_port == port_of(f, "H0001", 1), "hosts first: sm_port H0001[1]");
	fabric_free(f);
	return TEST_SUCCESS;
}

static int
test_gen_fattree_for_hosts(void)
{
	struct topo_fattree t;
	struct fabric *f;
	char *buf;
	size_t len;
	int rc;

	/*
	 * 100 hosts: ceil(100/18) = 6 leaves of ceil(100/6) = 17 hosts (the
	 * last has 15); spines: smallest divisor of 18 >= 6/2 is 3; uplinks
	 * ceil(17/3) = 6 per spine; leaf 17 + 18 = 35 ports, spine 6 x 6 = 36.
	 */
	TEST_ASSERT_EQUAL(topo_fattree_for_hosts(&t, 100, err, sizeof(err)), 0, "%s", err);
	TEST_ASSERT(t.leaves == 6 && t.hosts_per_leaf == 17 && t.spines == 3 &&
		    t.links_per_spine == 6, "shape %u/%u/%u/%u", t.leaves, t.hosts_per_leaf,
		    t.spines, t.links_per_spine);
	buf = gen_to_mem(&t, &len);
	TEST_ASSERT(buf != NULL, "generate");
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	rc = topo_parse_buf(f, "gen.net", buf, len, err, sizeof(err));
	free(buf);
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	TEST_ASSERT_EQUAL(f->nnodes, 100 + 6 + 3, "nodes");
	TEST_ASSERT_EQUAL(count_links(f), 100 + 6 * 3 * 6, "links");
	TEST_ASSERT(cabled(f, "H0100", 1, "L006", 15), "last host on the last leaf");
	fabric_free(f);

	/* 648 = 36 leaves x 18, 18 spines x 1 cable: the classic 36-port maximum. */
	TEST_ASSERT_EQUAL(topo_fattree_for_hosts(&t, 648, err, sizeof(err)), 0, "%s", err);
	TEST_ASSERT(t.leaves == 36 && t.spines == 18 && t.links_per_spine == 1 &&
		    t.spine_ports == 36, "648 shape");
	/* 1 host: one leaf, no spines. */
	TEST_ASSERT_EQUAL(topo_fattree_for_hosts(&t, 1, err, sizeof(err)), 0, "%s", err);
	TEST_ASSERT(t.leaves == 1 && t.spines == 0, "1 host");
	TEST_ASSERT_EQUAL(topo_fattree_for_hosts(&t, 0, err, sizeof(err)), -1, "0 hosts");
	TEST_ASSERT_EQUAL(topo_fattree_for_hosts(&t, 4573, err, sizeof(err)), -1, "too many");
	TEST_ASSERT(strstr(err, "--hosts 4573") != NULL, "message names the value: %s", err);
	return TEST_SUCCESS;
}

static int
test_gen_shape_errors(void)
{
	struct topo_fattree t;

	memset(&t, 0, sizeof(t));
	t.leaves = 2;
	t.hosts_per_leaf = 4;
	TEST_ASSERT_EQUAL(topo_fattree_check(&t, err, sizeof(err)), -1, "no spines");
	TEST_ASSERT(strstr(err, "--spines 0") != NULL, "%s", err);
	t.spines = 200;
	t.links_per_spine = 1;
	TEST_ASSERT_EQUAL(topo_fattree_check(&t, err, sizeof(err)), 0, "204-port leaf is fine");
	memset(&t, 0, sizeof(t));
	t.leaves = 2;
	t.hosts_per_leaf = 100;
	t.spines = 100;
	t.links_per_spine = 2;
	TEST_ASSERT_EQUAL(topo_fattree_check(&t, err, sizeof(err)), -1, "300-port leaf");
	TEST_ASSERT(strstr(err, "a leaf needs 300 ports") != NULL, "%s", err);
	memset(&t, 0, sizeof(t));
	t.leaves = 4;
	t.hosts_per_leaf = 4;
	t.spines = 1;
	t.leaf_ports = 4;
	TEST_ASSERT_EQUAL(topo_fattree_check(&t, err, sizeof(err)), -1, "radix too small");
	TEST_ASSERT(strstr(err, "--ports 4") != NULL, "%s", err);
	return TEST_SUCCESS;
}

static int
test_gen_switch_and_cli(void)
{
	char path[256], arg_o[256];
	char *argv_ok[] = { (char *)"gen", (char *)"switch", (char *)"--hosts", (char *)"10",
			    (char *)"--active", (char *)"2", (char *)"-o", arg_o, NULL };
	char *argv_ft[] = { (char *)"gen", (char *)"fattree", (char *)"--leaves", (char *)"3",
			    (char *)"--hosts-per-leaf", (char *)"2", (char *)"--spines",
			    (char *)"2", (char *)"--links-per-spine", (char *)"2",
			    (char *)"-o", arg_o, NULL };
	char *argv_bad[] = { (char *)"gen", (char *)"fattree", (char *)"--leaves", (char *)"x",
			     NULL };
	char *argv_kind[] = { (char *)"gen", (char *)"ring", NULL };
	struct fabric *f;
	int rc;

	snprintf(path, sizeof(path), "%s/sw.net", scratch);
	snprintf(arg_o, sizeof(arg_o), "%s", path);
	TEST_ASSERT_EQUAL(topo_gen_main(8, argv_ok), 0, "gen switch");
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	rc = topo_parse_file(f, path, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	/* 10 hosts on a 36-port switch "S01", ports 1..10. */
	TEST_ASSERT_EQUAL(f->nnodes, 11, "nodes");
	TEST_ASSERT_EQUAL(count_links(f), 10, "links");
	TEST_ASSERT_EQUAL(fabric_find_node(f, "S01")->nports, 36, "radix");
	TEST_ASSERT(cabled(f, "H0010", 1, "S01", 10), "H0010 on port 10");
	TEST_ASSERT(fabric_find_node(f, "H0002")->active_hca, "--active 2: H0002");
	TEST_ASSERT(!fabric_find_node(f, "H0003")->active_hca, "--active 2: not H0003");
	fabric_free(f);

	snprintf(path, sizeof(path), "%s/ft.net", scratch);
	snprintf(arg_o, sizeof(arg_o), "%s", path);
	TEST_ASSERT_EQUAL(topo_gen_main(12, argv_ft), 0, "gen fattree");
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	rc = topo_parse_file(f, path, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	/* 6 hosts + 3 leaves + 2 spines; 6 + 3 x 2 x 2 cables. */
	TEST_ASSERT_EQUAL(f->nnodes, 11, "nodes");
	TEST_ASSERT_EQUAL(count_links(f), 18, "links");
	fabric_free(f);

	TEST_ASSERT_EQUAL(topo_gen_main(4, argv_bad), 2, "bad number");
	TEST_ASSERT_EQUAL(topo_gen_main(2, argv_kind), 2, "unknown kind");
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* The real ibsim 0.10 as a second reader of the generator's files */

#define IBSIM_NOT_FOUND	-2

/*
 * Load @p path into ibsim (console on a pipe, so that it does not spin at
 * EOF), ask for its "Dump" and count the nodes it reports ("#  dumped N
 * nodes") and the port lines that name a peer (one per cable end; the
 * switch management port's "Sma Port" line is not a cable). Returns 0,
 * IBSIM_NOT_FOUND when ibsim is not installed, or -1 when ibsim did not
 * load the file.
 */
static int
ibsim_load(const char *path, unsigned int *nodes, unsigned int *ends)
{
	char sock[64], buf[65536], *line, *nl;
	int in[2], out[2], devnull, status;
	size_t used = 0;
	struct pollfd pfd;
	struct timespec t0, now;
	bool done = false;
	ssize_t r;
	pid_t pid;

	*nodes = *ends = 0;
	if (pipe(in) != 0)
		return -1;
	if (pipe(out) != 0) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	snprintf(sock, sizeof(sock), "test_topo.%ld", (long)getpid());
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		devnull = open("/dev/null", O_WRONLY);
		dup2(in[0], 0);
		dup2(out[1], 1);
		if (devnull >= 0)
			dup2(devnull, 2);
		close(in[1]);
		close(out[0]);
		setenv("IBSIM_SOCKNAME", sock, 1);
		execlp("ibsim", "ibsim", "-s", "-N", "8192", "-S", "512", "-P", "200000",
		       "-L", "49152", path, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	if (write(in[1], "Dump\n", 5) != 5)
		done = true;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pfd.fd = out[0];
	pfd.events = POLLIN;
	while (!done) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec > 15)
			break;
		if (poll(&pfd, 1, 1000) <= 0)
			continue;
		r = read(out[0], buf + used, sizeof(buf) - 1 - used);
		if (r <= 0)
			break;
		used += (size_t)r;
		buf[used] = '\0';
		/* Count complete lines, keep the partial one. */
		line = buf;
		while ((nl = strchr(line, '\n')) != NULL) {
			*nl = '\0';
			if (strstr(line, "#  dumped ") != NULL) {
				*nodes = (unsigned int)strtoul(strstr(line, "dumped ") + 7, NULL, 10);
				done = true;
			} else if (strstr(line, "]\t\"") != NULL && strstr(line, "\"Sma Port\"") == NULL) {
				(*ends)++;
			}
			line = nl + 1;
		}
		used = strlen(line);
		memmove(buf, line, used + 1);
		if (used == sizeof(buf) - 1)
			used = 0;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(in[1]);
	close(out[0]);
	if (!done && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return IBSIM_NOT_FOUND;
	return done ? 0 : -1;
}

static int
check_with_ibsim(const char *path, unsigned int want_nodes, unsigned int want_links)
{
	unsigned int nodes, ends;
	int rc = ibsim_load(path, &nodes, &ends);

	/* ibsim-utils is installed by usertools/ipoib-setup.sh: missing is a failure */
	TEST_ASSERT(rc != IBSIM_NOT_FOUND, "ibsim not found (package ibsim-utils)");
	TEST_ASSERT_EQUAL(rc, 0, "ibsim did not load %s", path);
	TEST_ASSERT_EQUAL(nodes, want_nodes, "ibsim nodes for %s", path);
	TEST_ASSERT_EQUAL(ends, want_links * 2, "ibsim cable ends for %s", path);
	return TEST_SUCCESS;
}

static int
test_gen_ibsim_reads(void)
{
	struct topo_fattree t;
	char path[256];
	FILE *fp;
	int rc;

	/* 100 hosts: 109 nodes, 208 cables (see test_gen_fattree_for_hosts). */
	TEST_ASSERT_EQUAL(topo_fattree_for_hosts(&t, 100, err, sizeof(err)), 0, "%s", err);
	t.active = 2;
	snprintf(path, sizeof(path), "%s/ft100.net", scratch);
	fp = fopen(path, "w");
	TEST_ASSERT(fp != NULL, "fopen");
	rc = topo_gen_fattree(fp, &t);
	TEST_ASSERT(fclose(fp) == 0 && rc == 0, "write");
	rc = check_with_ibsim(path, 109, 208);
	if (rc != TEST_SUCCESS)
		return rc;

	/* One switch, 12 hosts: 13 nodes, 12 cables. */
	snprintf(path, sizeof(path), "%s/sw12.net", scratch);
	fp = fopen(path, "w");
	TEST_ASSERT(fp != NULL, "fopen");
	rc = topo_gen_switch(fp, 12, 0, 0, err, sizeof(err));
	TEST_ASSERT(fclose(fp) == 0 && rc == 0, "write");
	rc = check_with_ibsim(path, 13, 12);
	if (rc != TEST_SUCCESS)
		return rc;

	/*
	 * A cable listed at one end only: ibfabric accepts it, ibsim 0.10
	 * does not ("remote port 1 in node "H2" is not connected to node
	 * "S1" port 2"), which is why the generator lists both ends.
	 */
	TEST_ASSERT(write_file(scratch, "onesided.net",
			       "Switch 8 \"S1\"\n[1] \"H1\"[1]\n[2] \"H2\"[1]\n\n"
			       "Hca 1 \"H1\"\n[1] \"S1\"[1]\n\nHca 1 \"H2\"\n") == 0, "write");
	snprintf(path, sizeof(path), "%s/onesided.net", scratch);
	{
		unsigned int nodes, ends;

		TEST_ASSERT_EQUAL(ibsim_load(path, &nodes, &ends), -1, "ibsim took a one-sided cable");
	}

	/* The demo fabric: 6 nodes, 6 cables. */
	if (fabrics_dir == NULL)
		return TEST_SUCCESS;
	snprintf(path, sizeof(path), "%s/default.net", fabrics_dir);
	rc = check_with_ibsim(path, 6, 6);
	if (rc != TEST_SUCCESS)
		return rc;
	/* The ibnetdiscover-shaped sample: 5 nodes, 5 cables. */
	snprintf(path, sizeof(path), "%s/ibnetdiscover-sample.net", fabrics_dir);
	return check_with_ibsim(path, 5, 5);
}

/* 5,000 hosts + 250 leaves + 10 spines, parsed in O(n); no timing assert. */
static int
test_perf_5000(void)
{
	struct topo_fattree t = {
		.leaves = 250, .hosts_per_leaf = 20, .spines = 10, .links_per_spine = 1,
	};
	struct timespec t0, t1;
	struct fabric *f;
	char *buf;
	size_t len;
	int rc;

	TEST_ASSERT_EQUAL(topo_fattree_check(&t, err, sizeof(err)), 0, "%s", err);
	buf = gen_to_mem(&t, &len);
	TEST_ASSERT(buf != NULL, "generate");
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = topo_parse_buf(f, "big.net", buf, len, err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(buf);
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	TEST_ASSERT_EQUAL(f->nnodes, 5000 + 250 + 10, "nodes");
	TEST_ASSERT_EQUAL(count_links(f), 5000 + 250 * 10, "links");
	printf("  parsed %u nodes, %zu bytes in %.1f ms\n", f->nnodes, len,
	       (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	fabric_free(f);
	return TEST_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Sample fabrics: the project's and ibsim's */

static int
parse_dir(const char *dir, const char *prefix, const char *suffix, unsigned int *count)
{
	char path[512];
	struct dirent *de;
	struct fabric *f;
	DIR *d = opendir(dir);
	int rc;

	*count = 0;
	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		size_t nl = strlen(de->d_name), sl = strlen(suffix);

		if (strncmp(de->d_name, prefix, strlen(prefix)) != 0 ||
		    strstr(de->d_name, "README") != NULL || nl < sl ||
		    strcmp(de->d_name + nl - sl, suffix) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fabric_new();
		if (f == NULL)
			break;
		rc = topo_parse_file(f, path, err, sizeof(err));
		if (rc == 0 && count_links(f) == 0)
			rc = -1;
		fabric_free(f);
		if (rc != 0) {
			printf("  %s: %s\n", path, err);
			closedir(d);
			return -1;
		}
		(*count)++;
	}
	closedir(d);
	return 0;
}

static int
test_sample_fabrics(void)
{
	unsigned int n;
	struct fabric *f;
	char path[512];
	int rc;

	TEST_ASSERT(fabrics_dir != NULL, "usage: test_topo CONFIG_FABRICS_DIR");
	TEST_ASSERT_EQUAL(parse_dir(fabrics_dir, "", ".net", &n), 0, "config/fabrics");
	TEST_ASSERT(n >= 1, "no sample fabric found in %s", fabrics_dir);
	/* The demo fabric: two switches, four CAs, two parallel switch cables. */
	snprintf(path, sizeof(path), "%s/default.net", fabrics_dir);
	f = fabric_new();
	TEST_ASSERT(f != NULL, "fabric_new");
	rc = topo_parse_file(f, path, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, 0, "%s", err);
	TEST_ASSERT_EQUAL(f->nnodes, 6, "default.net nodes");
	TEST_ASSERT(cabled(f, "sw1", 7, "sw2", 7) && cabled(f, "sw1", 8, "sw2", 8), "parallel ISLs");
	fabric_free(f);
	return TEST_SUCCESS;
}

static int
test_ibsim_examples(void)
{
	unsigned int n;

	TEST_ASSERT_EQUAL(parse_dir("/usr/share/doc/ibsim-utils/net-examples", "net", "", &n), 0,
			  "ibsim examples");
	TEST_ASSERT(n != 0, "no ibsim example (package ibsim-utils)");
	return TEST_SUCCESS;
}

static struct unit_test_suite topo_suite = {
	.suite_name = "ibfabric topology",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE(test_guid_stability),
		TEST_CASE(test_guid_unique_many),
		TEST_CASE(test_add_node_errors),
		TEST_CASE(test_find_by_lid_lmc),
		TEST_CASE(test_connect_and_desc),
		TEST_CASE(test_parse_ibsim_example),
		TEST_CASE(test_parse_ibnetdiscover),
		TEST_CASE(test_parse_constructs),
		TEST_CASE(test_parse_more_statements),
		TEST_CASE(test_parse_sm_port_ca_first),
		TEST_CASE_ST(scratch_setup, scratch_teardown, test_include),
		TEST_CASE_ST(scratch_setup, scratch_teardown, test_include_errors),
		TEST_CASE(test_errors),
		TEST_CASE(test_error_too_long_line),
		TEST_CASE(test_error_buffer_edges),
		TEST_CASE(test_gen_fattree_roundtrip),
		TEST_CASE(test_gen_fattree_for_hosts),
		TEST_CASE(test_gen_shape_errors),
		TEST_CASE_ST(scratch_setup, scratch_teardown, test_gen_switch_and_cli),
		TEST_CASE_ST(scratch_setup, scratch_teardown, test_gen_ibsim_reads),
		TEST_CASE(test_perf_5000),
		TEST_CASE(test_sample_fabrics),
		TEST_CASE(test_ibsim_examples),
		TEST_CASES_END(),
	},
};

int
main(int argc, char **argv)
{
	if (argc > 1)
		fabrics_dir = argv[1];
	return unit_test_suite_runner(&topo_suite);
}
