/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * umad2sim.c against a hand-written ibsim client: the sockets are the
 * real abstract DGRAM sockets, the datagrams are built here byte by byte
 * from the layouts of ibsim 0.10's include/ibsim.h (not from
 * umad2sim.h's structs, except where noted), and the server is driven
 * by calling its ready handlers after each send, so no thread or timing
 * is involved.
 *
 * The server takes CONNECT only with the sender's own pid (SO_PASSCRED),
 * so each client but one per case has a proxy: a child process that
 * sends the client's control datagrams on the inherited socket, its pid
 * being the client's. Killing the proxy is the client vanishing.
 *
 * Expected bytes, derived from the spec:
 * - sim_ctl is 80 bytes: magic@0, clientid@4, type@8, len@12, data@16,
 *   host order. A CONNECT reply carries sim_client_info in data: id@0
 *   (the slot), qp@4, issm@8, nodeid@12 (32 bytes).
 * - sim_request is 288 bytes: dlid@0, slid@4 hold the BE16 LID in the
 *   low 16 bits of a host u32, i.e. on a little-endian host LID 0x0102
 *   is the bytes 01 02 00 00; dqp@8, sqp@12, status@16 are BE32;
 *   length@24 is BE64; the MAD starts at 32.
 * - Abstract names are "\0<base>:ctl\0", the trailing NUL counted in
 *   the address length (ibsim.c sim_init_conn()).
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fab_link.h"
#include "fab_node.h"
#include "fab_pkt.h"
#include "fabric.h"
#include "test.h"
#include "umad2sim.h"

#define CTL_SIZE	80
#define REQ_SIZE	288

static struct fabric *fab;
static struct fab_node *hca1, *hca2, *sw1;
static char base[64];

struct client {
	int ctl;
	int data;
	uint32_t id;
	pid_t proxy;		/**< child that sends the control datagrams, or 0 */
	int cmd;		/**< pipe to the proxy: datagrams to send */
	int ack;		/**< pipe from the proxy: one byte per datagram sent */
};

static socklen_t
abstract_addr(struct sockaddr_un *sa, const char *name, bool trailing_nul)
{
	size_t n = strlen(name);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path + 1, name, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n +
			   (trailing_nul ? 1 : 0));
}

static void
put32(uint8_t *b, unsigned int off, uint32_t v)
{
	memcpy(b + off, &v, 4);
}

static uint32_t
get32(const uint8_t *b, unsigned int off)
{
	uint32_t v;

	memcpy(&v, b + off, 4);
	return v;
}

/* The proxy: send each datagram read from @p cmd on @p ctl, ack it on @p ack. */
static void
proxy_main(int ctl, int cmd, int ack)
{
	uint8_t msg[CTL_SIZE + 16];
	ssize_t n;
	int fd;

	/* Not the server's sockets: they must vanish when the server closes them. */
	for (fd = 3; fd < 4096; fd++)
		if (fd != ctl && fd != cmd && fd != ack)
			close(fd);
	while ((n = read(cmd, msg, sizeof(msg))) > 0) {
		if (send(ctl, msg, (size_t)n, 0) != n)
			_exit(1);
		if (write(ack, "", 1) != 1)
			_exit(1);
	}
	_exit(0);
}

/*
 * Client sockets named after @p id: the test's own pid (no proxy), or
 * any other value for a client with its own proxy process (its pid,
 * not @p id, is then the client's).
 */
static int
client_open(struct client *c, uint32_t id)
{
	struct sockaddr_un sa;
	char name[128];
	socklen_t len;
	int to[2], from[2];

	c->proxy = 0;
	c->cmd = c->ack = -1;
	c->ctl = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (c->ctl < 0)
		return -1;
	if (id != (uint32_t)getpid()) {
		if (pipe(to) < 0 || pipe(from) < 0)
			return -1;
		c->proxy = fork();
		if (c->proxy < 0)
			return -1;
		if (c->proxy == 0) {
			close(to[1]);
			close(from[0]);
			proxy_main(c->ctl, to[0], from[1]);
		}
		close(to[0]);
		close(from[1]);
		c->cmd = to[1];
		c->ack = from[0];
		id = (uint32_t)c->proxy;
	}
	c->id = id;
	c->data = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (c->data < 0)
		return -1;
	snprintf(name, sizeof(name), "%s:ctl%u", base, id);
	len = abstract_addr(&sa, name, true);
	if (bind(c->ctl, (struct sockaddr *)&sa, len) < 0)
		return -1;
	snprintf(name, sizeof(name), "%s:ctl", base);
	len = abstract_addr(&sa, name, true);
	if (connect(c->ctl, (struct sockaddr *)&sa, len) < 0)
		return -1;
	snprintf(name, sizeof(name), "%s:in%u", base, id);
	len = abstract_addr(&sa, name, true);
	if (bind(c->data, (struct sockaddr *)&sa, len) < 0)
		return -1;
	return 0;
}

/* The client's process vanishes (no DISCONNECT); its sockets stay open here. */
static void
client_kill(struct client *c)
{
	if (c->proxy > 0) {
		close(c->cmd);
		close(c->ack);
		/* Other proxies inherited the pipe: EOF alone may never come. */
		kill(c->proxy, SIGKILL);
		waitpid(c->proxy, NULL, 0);
		c->proxy = 0;
	}
}

static void
client_close(struct client *c)
{
	client_kill(c);
	close(c->ctl);
	close(c->data);
}

/* Connect the data socket to "<base>:out<slot>", as umad2sim does after CONNECT. */
static int
client_attach_data(struct client *c, uint32_t slot)
{
	struct sockaddr_un sa;
	char name[128];

	snprintf(name, sizeof(name), "%s:out%u", base, slot);
	return connect(c->data, (struct sockaddr *)&sa, abstract_addr(&sa, name, true));
}

/* Send a raw ctl datagram and let the server serve it; returns reply size or -1. */
static ssize_t
ctl_raw(struct client *c, const uint8_t *msg, size_t len, uint8_t *reply)
{
	char b;

	if (c->proxy > 0) {
		if (write(c->cmd, msg, len) != (ssize_t)len || read(c->ack, &b, 1) != 1)
			return -1;
	} else if (send(c->ctl, msg, len, 0) != (ssize_t)len) {
		return -1;
	}
	umad2sim_ctl_ready(fab);
	return recv(c->ctl, reply, CTL_SIZE + 16, MSG_DONTWAIT);
}

static ssize_t
ctl_msg(struct client *c, uint32_t clientid, uint32_t type, uint32_t len,
	const void *data, size_t dlen, uint8_t *reply)
{
	uint8_t msg[CTL_SIZE];

	memset(msg, 0, sizeof(msg));
	put32(msg, 0, 0xdeadbeef);
	put32(msg, 4, clientid);
	put32(msg, 8, type);
	put32(msg, 12, len);
	if (data != NULL)
		memcpy(msg + 16, data, dlen);
	return ctl_raw(c, msg, sizeof(msg), reply);
}

/* CONNECT with sim_client_info {id, qp 0, issm, nodeid}; returns the reply type. */
static int
client_connect(struct client *c, const char *nodeid, uint32_t issm, uint8_t *reply)
{
	uint8_t info[44];

	memset(info, 0, sizeof(info));
	put32(info, 0, c->id);
	put32(info, 8, issm);
	if (nodeid != NULL)
		strncpy((char *)info + 12, nodeid, 31);
	if (ctl_msg(c, 0, 1, 44, info, sizeof(info), reply) != CTL_SIZE)
		return -1;
	return (int)get32(reply, 8);
}

static int
suite_setup(void)
{
	int ret;

	snprintf(base, sizeof(base), "u2stest%d", (int)getpid());
	fab = fabric_new();
	if (fab == NULL)
		return -1;
	sw1 = fabric_add_node(fab, FAB_NODE_SWITCH, "Switch1", 8);
	hca1 = fabric_add_node(fab, FAB_NODE_CA, "Hca1", 2);
	hca2 = fabric_add_node(fab, FAB_NODE_CA, "Hca2", 1);
	if (sw1 == NULL || hca1 == NULL || hca2 == NULL) {
		printf("  fabric_add_node() failed\n");
		return -1;
	}
	snprintf(hca2->desc, sizeof(hca2->desc), "hostB HCA-1");
	if (fab->sm_port == NULL)
		fab->sm_port = &sw1->ports[0];
	hca1->ports[1].lid = 0x0102;
	hca2->ports[1].lid = 0x0003;
	ret = umad2sim_open(fab, base);
	if (ret < 0) {
		printf("  umad2sim_open(%s): %s\n", base, strerror(-ret));
		return -1;
	}
	return 0;
}

static void
suite_teardown(void)
{
	umad2sim_close(fab);
	fabric_free(fab);
}

/*
 * Detach everyone between cases so slot numbers are predictable: only a
 * client may disconnect itself, so the server is closed and opened again.
 */
static void
case_teardown(void)
{
	int ret;

	umad2sim_close(fab);
	ret = umad2sim_open(fab, base);
	if (ret < 0)
		printf("  umad2sim_open(%s) again: %s\n", base, strerror(-ret));
}

static int
test_struct_sizes(void)
{
	TEST_ASSERT_EQUAL(sizeof(struct u2s_ctl), CTL_SIZE, "sim_ctl");
	TEST_ASSERT_EQUAL(sizeof(struct u2s_request), REQ_SIZE, "sim_request");
	/* LID 0x0102 in a sim_request u32 is the bytes 01 02 00 00 (little-endian host). */
	{
		uint32_t v = u2s_lid_set(0x0102);
		const uint8_t expect[4] = { 0x01, 0x02, 0x00, 0x00 };

		TEST_ASSERT_BUFFERS_EQUAL(&v, expect, 4, "BE16-in-u32 LID");
		TEST_ASSERT_EQUAL(u2s_lid_get(v), 0x0102, "round trip");
	}
	return TEST_SUCCESS;
}

static int
test_names_and_second_instance(void)
{
	struct fabric *f2 = fabric_new();
	struct sockaddr_un sa;
	char name[96];
	int fd, ret;

	TEST_ASSERT(f2 != NULL, "fabric_new");
	ret = umad2sim_open(f2, base);
	fabric_free(f2);
	TEST_ASSERT_EQUAL(ret, -EADDRINUSE, "second server on the same name must fail");

	/* The trailing NUL is part of the name: without it there is nobody. */
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	snprintf(name, sizeof(name), "%s:ctl", base);
	ret = connect(fd, (struct sockaddr *)&sa, abstract_addr(&sa, name, false));
	TEST_ASSERT(ret < 0 && errno == ECONNREFUSED, "name without trailing NUL answered");
	ret = connect(fd, (struct sockaddr *)&sa, abstract_addr(&sa, name, true));
	TEST_ASSERT_SUCCESS(ret, "connect to %s with trailing NUL", name);
	snprintf(name, sizeof(name), "%s:out%u", base, UMAD2SIM_MAX_CLIENTS - 1);
	ret = connect(fd, (struct sockaddr *)&sa, abstract_addr(&sa, name, true));
	TEST_ASSERT_SUCCESS(ret, "connect to %s", name);
	close(fd);
	return TEST_SUCCESS;
}

static int
test_connect_by_name(void)
{
	uint8_t reply[CTL_SIZE + 16];
	const struct fab_client *cl;
	struct client c;

	TEST_ASSERT_SUCCESS(client_open(&c, 4242), "client sockets");
	TEST_ASSERT_EQUAL(client_connect(&c, "Hca1", 0, reply), 1, "CONNECT reply type");
	TEST_ASSERT_EQUAL(get32(reply, 0), 0xdeadbeef, "magic");
	TEST_ASSERT_EQUAL(get32(reply, 12), 44, "len echoed");
	TEST_ASSERT_EQUAL(get32(reply, 16), 0, "first free slot");
	TEST_ASSERT(strcmp((char *)reply + 16 + 12, "Hca1") == 0, "nodeid \"%s\"",
		    (char *)reply + 16 + 12);
	cl = umad2sim_client(fab, 0);
	TEST_ASSERT(cl != NULL && cl->pid == c.id, "slot 0 holds the client's pid");
	TEST_ASSERT(cl->port == &hca1->ports[1], "a CA client attaches to port 1");
	TEST_ASSERT(hca1->ports[1].clients == cl, "listed on the port");
	client_close(&c);
	return TEST_SUCCESS;
}

static int
test_connect_by_desc_default_switch(void)
{
	uint8_t reply[CTL_SIZE + 16];
	struct client a, b, s;

	TEST_ASSERT_SUCCESS(client_open(&a, 5001), "client a");
	TEST_ASSERT_SUCCESS(client_open(&b, 5002), "client b");
	TEST_ASSERT_SUCCESS(client_open(&s, 5003), "client s");
	/* SIM_HOST matches NodeDescription when no node id matches. */
	TEST_ASSERT_EQUAL(client_connect(&a, "hostB HCA-1", 0, reply), 1, "by desc");
	TEST_ASSERT(strcmp((char *)reply + 28, "Hca2") == 0, "reply names the node id");
	TEST_ASSERT(umad2sim_client(fab, 0)->port == &hca2->ports[1], "Hca2 port 1");
	/* Empty SIM_HOST: the default port. */
	TEST_ASSERT_EQUAL(client_connect(&b, "", 0, reply), 1, "default");
	TEST_ASSERT(umad2sim_client(fab, 1)->port == fab->sm_port, "default port");
	/* A switch client attaches to port 0. */
	TEST_ASSERT_EQUAL(client_connect(&s, "Switch1", 0, reply), 1, "switch");
	TEST_ASSERT(umad2sim_client(fab, 2)->port == &sw1->ports[0], "switch port 0");
	TEST_ASSERT_EQUAL(get32(reply, 16), 2, "third slot");
	client_close(&a);
	client_close(&b);
	client_close(&s);
	return TEST_SUCCESS;
}

static int
test_connect_errors(void)
{
	uint8_t reply[CTL_SIZE + 16];
	struct client a, b;

	TEST_ASSERT_SUCCESS(client_open(&a, 6001), "client a");
	TEST_ASSERT_SUCCESS(client_open(&b, 6002), "client b");
	TEST_ASSERT_EQUAL(client_connect(&a, "NoSuchNode", 0, reply), 0,
			  "unknown SIM_HOST gets SIM_CTL_ERROR");
	TEST_ASSERT_EQUAL(umad2sim_nclients(fab), 0, "nothing attached");
	/* One issm client per node (ibsim.c sim_ctl_new_client()). */
	TEST_ASSERT_EQUAL(client_connect(&a, "Hca1", 1, reply), 1, "first SM");
	TEST_ASSERT(hca1->ports[1].cap_mask & 0x2, "IsSM set by issm CONNECT");
	TEST_ASSERT_EQUAL(client_connect(&b, "Hca1", 1, reply), 0, "second SM refused");
	TEST_ASSERT_EQUAL(client_connect(&b, "Hca1", 0, reply), 1, "non-SM is fine");
	/* A GET on a slot nobody holds is an error, not a crash. */
	TEST_ASSERT(ctl_msg(&a, 40, 6, 8, NULL, 0, reply) == CTL_SIZE, "reply");
	TEST_ASSERT_EQUAL(get32(reply, 8), 0, "GET_GUID on a free slot");
	TEST_ASSERT(ctl_msg(&a, 1000, 6, 8, NULL, 0, reply) == CTL_SIZE, "reply");
	TEST_ASSERT_EQUAL(get32(reply, 8), 0, "GET_GUID on slot 1000");
	client_close(&a);
	client_close(&b);
	return TEST_SUCCESS;
}

static int
test_queries(void)
{
	uint8_t reply[CTL_SIZE + 16];
	uint8_t expect[8];
	uint64_t guid;
	struct client c;
	uint32_t v;

	TEST_ASSERT_SUCCESS(client_open(&c, 7001), "client");
	TEST_ASSERT_EQUAL(client_connect(&c, "Hca1", 0, reply), 1, "connect");

	/* GET_GUID: node GUID in host order. */
	TEST_ASSERT(ctl_msg(&c, 0, 6, 8, NULL, 0, reply) == CTL_SIZE, "GET_GUID");
	TEST_ASSERT_EQUAL(get32(reply, 8), 6, "type echoed");
	memcpy(&guid, reply + 16, 8);
	TEST_ASSERT_EQUAL(guid, hca1->node_guid, "node guid");

	/* GET_GID: prefix in wire order, then the node GUID in host order. */
	hca1->ports[1].gid_prefix = 0xfe80000000000000ull;
	TEST_ASSERT(ctl_msg(&c, 0, 5, 16, NULL, 0, reply) == CTL_SIZE, "GET_GID");
	memset(expect, 0, sizeof(expect));
	expect[0] = 0xfe;
	expect[1] = 0x80;
	TEST_ASSERT_BUFFERS_EQUAL(reply + 16, expect, 8, "GID prefix");
	memcpy(&guid, reply + 24, 8);
	TEST_ASSERT_EQUAL(guid, hca1->node_guid, "GID low half");

	/* GET_PORT: sim_port {lid u16, state u8}. */
	hca1->ports[1].state = FAB_PORT_INIT;
	TEST_ASSERT(ctl_msg(&c, 0, 3, 4, NULL, 0, reply) == CTL_SIZE, "GET_PORT");
	TEST_ASSERT_EQUAL(reply[16] | (reply[17] << 8), 0x0102, "lid");
	TEST_ASSERT_EQUAL(reply[18], FAB_PORT_INIT, "state");

	/* GET_VENDOR: sim_vendor, fw_ver always 1. */
	hca1->vendor_id = 0x0002c9;
	hca1->device_id = 0x6282;
	hca1->revision = 0xa0;
	TEST_ASSERT(ctl_msg(&c, 0, 4, 24, NULL, 0, reply) == CTL_SIZE, "GET_VENDOR");
	TEST_ASSERT_EQUAL(get32(reply, 16), 0x0002c9, "vendor");
	TEST_ASSERT_EQUAL(get32(reply, 20), 0x6282, "part id");
	TEST_ASSERT_EQUAL(get32(reply, 24), 0xa0, "hw_ver");
	memcpy(&guid, reply + 32, 8);
	TEST_ASSERT_EQUAL(guid, 1, "fw_ver");

	/* GET_PKEYS: 32 big-endian P_Keys. */
	hca1->ports[1].pkeys[0] = 0xffff;
	hca1->ports[1].pkeys[1] = 0x8001;
	TEST_ASSERT(ctl_msg(&c, 0, 10, 64, NULL, 0, reply) == CTL_SIZE, "GET_PKEYS");
	TEST_ASSERT(reply[16] == 0xff && reply[17] == 0xff && reply[18] == 0x80 &&
		    reply[19] == 0x01, "P_Keys in wire order");

	/* SET_ISSM(1) sets CapabilityMask.IsSM (0x2), SET_ISSM(0) clears it. */
	v = 1;
	hca1->ports[1].cap_mask = 0x0050c048;
	TEST_ASSERT(ctl_msg(&c, 0, 9, 4, &v, 4, reply) == CTL_SIZE, "SET_ISSM 1");
	TEST_ASSERT_EQUAL(get32(reply, 8), 9, "echo");
	TEST_ASSERT_EQUAL(hca1->ports[1].cap_mask, 0x0050c04a, "IsSM on");
	TEST_ASSERT(umad2sim_client(fab, 0)->issm, "client is issm");
	v = 0;
	TEST_ASSERT(ctl_msg(&c, 0, 9, 4, &v, 4, reply) == CTL_SIZE, "SET_ISSM 0");
	TEST_ASSERT_EQUAL(hca1->ports[1].cap_mask, 0x0050c048, "IsSM off");

	/* Unknown types are echoed unchanged. */
	TEST_ASSERT(ctl_msg(&c, 0, 42, 7, "abc", 3, reply) == CTL_SIZE, "type 42");
	TEST_ASSERT_EQUAL(get32(reply, 8), 42, "type echoed, not ERROR");
	TEST_ASSERT_EQUAL(get32(reply, 12), 7, "len echoed");
	TEST_ASSERT(memcmp(reply + 16, "abc", 3) == 0, "data echoed");
	client_close(&c);
	return TEST_SUCCESS;
}

static int
test_garbage(void)
{
	uint8_t msg[CTL_SIZE + 32], reply[CTL_SIZE + 16];	/* msg: also a 100-byte datagram */
	uint64_t bad_ctl = fab->bad_ctl_msgs, bad_mads = fab->bad_mads;
	struct client c;

	TEST_ASSERT_SUCCESS(client_open(&c, 8001), "client");
	memset(msg, 0, sizeof(msg));
	put32(msg, 0, 0xdeadbeef);
	put32(msg, 8, 6);
	TEST_ASSERT(ctl_raw(&c, msg, 79, reply) < 0, "79-byte ctl answered");
	TEST_ASSERT(ctl_raw(&c, msg, 81, reply) < 0, "81-byte ctl answered");
	put32(msg, 0, 0xdeadbeee);
	TEST_ASSERT(ctl_raw(&c, msg, CTL_SIZE, reply) < 0, "bad magic answered");
	TEST_ASSERT_EQUAL(fab->bad_ctl_msgs - bad_ctl, 3, "three bad ctl counted");

	/* Data sockets: wrong sizes, and a full-size one on a free slot. */
	TEST_ASSERT_SUCCESS(client_attach_data(&c, 5), "connect out5");
	TEST_ASSERT(send(c.data, msg, 100, 0) == 100, "send");
	{
		uint8_t req[REQ_SIZE];

		memset(req, 0xa5, sizeof(req));
		TEST_ASSERT(send(c.data, req, sizeof(req), 0) == REQ_SIZE, "send");
	}
	umad2sim_data_ready(fab, 5);
	TEST_ASSERT_EQUAL(fab->bad_mads - bad_mads, 2, "two bad datagrams counted");

	/* Still serving (a fresh client: this one's data socket is taken by out5). */
	client_close(&c);
	TEST_ASSERT_SUCCESS(client_open(&c, 8002), "client");
	TEST_ASSERT_EQUAL(client_connect(&c, "Hca2", 0, reply), 1, "connect after garbage");
	client_close(&c);
	return TEST_SUCCESS;
}

static int
test_disconnect_and_reap(void)
{
	uint8_t reply[CTL_SIZE + 16];
	struct client a, d;
	uint32_t gen;

	TEST_ASSERT_SUCCESS(client_open(&a, (uint32_t)getpid()), "client a");
	TEST_ASSERT_EQUAL(client_connect(&a, "Hca1", 1, reply), 1, "connect");
	gen = umad2sim_client(fab, 0)->gen;
	TEST_ASSERT(ctl_msg(&a, 0, 2, 0, NULL, 0, reply) == CTL_SIZE, "DISCONNECT");
	TEST_ASSERT_EQUAL(get32(reply, 8), 2, "DISCONNECT echoed");
	TEST_ASSERT(umad2sim_client(fab, 0) == NULL, "slot 0 free");
	TEST_ASSERT(hca1->ports[1].clients == NULL, "off the port list");
	TEST_ASSERT(!(hca1->ports[1].cap_mask & 0x2), "IsSM cleared with the last SM");
	TEST_ASSERT_EQUAL(client_connect(&a, "Hca1", 0, reply), 1, "reconnect");
	TEST_ASSERT_EQUAL(get32(reply, 16), 0, "slot 0 again");
	TEST_ASSERT(umad2sim_client(fab, 0)->gen != gen, "new generation");

	/* A client whose process is gone is freed by the liveness check. */
	TEST_ASSERT_SUCCESS(client_open(&d, 1), "client d");
	TEST_ASSERT_EQUAL(client_connect(&d, "Hca2", 1, reply), 1, "connect d");
	client_kill(&d);
	TEST_ASSERT_EQUAL(umad2sim_nclients(fab), 2, "two attached");
	TEST_ASSERT_EQUAL(umad2sim_reap(fab), 1, "one reaped");
	TEST_ASSERT(umad2sim_client(fab, 0) != NULL, "live client kept");
	TEST_ASSERT(umad2sim_client(fab, 1) == NULL, "dead client freed");
	client_close(&d);
	/* Its SM claim went with it: a new SM may attach to Hca2. */
	TEST_ASSERT_SUCCESS(client_open(&d, 1), "client e");
	TEST_ASSERT_EQUAL(client_connect(&d, "Hca2", 1, reply), 1, "SM again on Hca2");
	client_close(&a);
	client_close(&d);
	return TEST_SUCCESS;
}

/* A packet carrying @p mad to @p port's node, built by hand (LRH/BTH/DETH not needed). */
static struct fab_pkt *
mk_pkt(struct fab_hdrs *h, const uint8_t *mad, uint16_t dlid, uint16_t slid,
       uint32_t dqp, uint32_t sqp)
{
	struct fab_pkt *p = fab_pkt_alloc(fab);

	if (p == NULL)
		return NULL;
	memset(h, 0, sizeof(*h));
	h->dlid = dlid;
	h->slid = slid;
	h->dest_qp = dqp;
	h->src_qp = sqp;
	h->payload_off = 28;	/* LRH 8 + BTH 12 + DETH 8 */
	h->payload_len = 256;
	p->len = 28 + 256 + 4 + 2;
	p->origin = -1;
	p->mad_len = 184;
	memcpy(p->data + 28, mad, 256);
	return p;
}

static int
test_deliver(void)
{
	uint8_t reply[CTL_SIZE + 16], mad[256], got[REQ_SIZE + 8];
	struct client a, sm;
	struct fab_hdrs h;
	struct fab_pkt *p;
	uint32_t dqp_be;

	p = fab_pkt_alloc(fab);
	TEST_ASSERT(p != NULL, "fab_pkt_alloc");
	fab_pkt_free(fab, p);

	TEST_ASSERT_SUCCESS(client_open(&a, 9001), "client a");
	TEST_ASSERT_SUCCESS(client_open(&sm, 9002), "client sm");
	TEST_ASSERT_EQUAL(client_connect(&a, "Hca1", 0, reply), 1, "a");
	TEST_ASSERT_SUCCESS(client_attach_data(&a, 0), "a data");
	TEST_ASSERT_EQUAL(client_connect(&sm, "Hca2", 1, reply), 1, "sm");
	TEST_ASSERT_SUCCESS(client_attach_data(&sm, 1), "sm data");

	/* A GetResp (R bit) with TID slot bits 63..48 = 0 goes to slot 0. */
	memset(mad, 0, sizeof(mad));
	mad[0] = 1;
	mad[1] = 0x03;
	mad[2] = 2;
	mad[3] = 0x81;
	mad[8] = 0x00;		/* TID = 0x0000_0007_1234_5678: slot 0, agent 7 */
	mad[9] = 0x00;
	mad[10] = 0x00;
	mad[11] = 0x07;
	mad[12] = 0x12;
	mad[13] = 0x34;
	mad[14] = 0x56;
	mad[15] = 0x78;
	p = mk_pkt(&h, mad, 0x0102, 0x0003, 1, 1);
	TEST_ASSERT(p != NULL, "alloc");
	TEST_ASSERT_SUCCESS(umad2sim_deliver(fab, &hca1->ports[1], &h, p), "response to slot 0");
	TEST_ASSERT_EQUAL(recv(a.data, got, sizeof(got), MSG_DONTWAIT), REQ_SIZE,
			  "one sim_request");
	{
		/*
		 * dlid 0x0102 -> 01 02 00 00; slid 3 -> 00 03 00 00; qps BE 1;
		 * status 0; length BE 184.
		 */
		const uint8_t hdr[32] = {
			0x01, 0x02, 0, 0, 0x00, 0x03, 0, 0,
			0, 0, 0, 1, 0, 0, 0, 1,
			0, 0, 0, 0, 0, 0, 0, 0,
			0, 0, 0, 0, 0, 0, 0, 184,
		};

		TEST_ASSERT_BUFFERS_EQUAL(got, hdr, 32, "sim_request header");
		TEST_ASSERT_BUFFERS_EQUAL(got + 32, mad, 256, "MAD");
	}

	/* The same response at a port the slot-0 client is not on: nobody. */
	p = mk_pkt(&h, mad, 0x0003, 0x0102, 1, 1);
	TEST_ASSERT_EQUAL(umad2sim_deliver(fab, &hca2->ports[1], &h, p), -ENOENT,
			  "response for a client elsewhere");
	fab_pkt_free(fab, p);

	/* A request (R clear) to QP1 goes to the port's issm client, TID untouched. */
	mad[3] = 0x01;
	mad[8] = 0x00;
	mad[9] = 0x00;		/* slot 0 (client a) in bits 63..48, as its sender set */
	p = mk_pkt(&h, mad, 0x0003, 0x0102, 1, 1);
	TEST_ASSERT_SUCCESS(umad2sim_deliver(fab, &hca2->ports[1], &h, p), "request to the SM");
	TEST_ASSERT_EQUAL(recv(sm.data, got, sizeof(got), MSG_DONTWAIT), REQ_SIZE, "SM got it");
	TEST_ASSERT_BUFFERS_EQUAL(got + 32, mad, 256, "MAD unchanged");
	TEST_ASSERT(recv(a.data, got, sizeof(got), MSG_DONTWAIT) < 0, "not to a");

	/*
	 * An SMP request (SMInfo Get) goes only to an issm client that has
	 * sent SMPs itself: this one has not (it could be an "ibping -S").
	 */
	mad[1] = 0x81;
	mad[2] = 1;
	mad[17] = 0x20;
	p = mk_pkt(&h, mad, 0xffff, 0xffff, 0, 0);
	TEST_ASSERT_EQUAL(umad2sim_deliver(fab, &hca2->ports[1], &h, p), -ENOENT,
			  "SMInfo to an issm client that is no SM");
	fab_pkt_free(fab, p);
	mad[1] = 0x03;
	mad[2] = 2;
	mad[17] = 0;

	/* A request at a port without an issm client is not delivered. */
	p = mk_pkt(&h, mad, 0x0102, 0x0003, 1, 1);
	TEST_ASSERT_EQUAL(umad2sim_deliver(fab, &hca1->ports[1], &h, p), -ENOENT,
			  "request without an SM on the port");
	fab_pkt_free(fab, p);

	/*
	 * The drop echo (ibsim.c find_client()): the MAD back to its sender with
	 * status 110 = BE32 00 00 00 6e at offset 16, also when the packet's
	 * CRCs no longer match (a DR SMP its last node updated in place).
	 */
	{
		struct fab_pkt_addr pa;

		memset(&pa, 0, sizeof(pa));
		pa.vl = 15;
		pa.dlid = 0xffff;
		pa.slid = 0xffff;
		pa.pkey = 0xffff;
		p = fab_pkt_alloc(fab);
		TEST_ASSERT(p != NULL, "alloc");
		mad[1] = 0x81;
		mad[3] = 0x01;
		TEST_ASSERT_SUCCESS(pkt_build_ud(p, &pa, mad, 256), "pkt_build_ud");
		p->origin = 0;
		p->origin_gen = umad2sim_client(fab, 0)->gen;
		p->data[28 + 6] ^= 1;	/* hop pointer changed, CRCs stale */
		p->crc_valid = false;
		umad2sim_report_drop(fab, p);
		TEST_ASSERT_EQUAL(recv(a.data, got, sizeof(got), MSG_DONTWAIT), REQ_SIZE, "echo");
		TEST_ASSERT(got[16] == 0 && got[17] == 0 && got[18] == 0 && got[19] == 110,
			    "status 110");
		TEST_ASSERT_EQUAL(got[32 + 1], 0x81, "the MAD came back");
		/* A packet from an earlier owner of the slot is not reported. */
		p->origin_gen--;
		umad2sim_report_drop(fab, p);
		TEST_ASSERT(recv(a.data, got, sizeof(got), MSG_DONTWAIT) < 0, "stale echo");
		fab_pkt_free(fab, p);
		mad[1] = 0x03;
	}

	/* Data from a client reaches the fabric side: counted per client. */
	{
		uint8_t req[REQ_SIZE];

		memset(req, 0, sizeof(req));
		req[0] = 0xff;		/* dlid 0xffff: directed route */
		req[1] = 0xff;
		req[4] = 0xff;
		req[5] = 0xff;
		req[31] = 0;		/* length 256 = 0x100, BE64 */
		req[30] = 1;
		req[32] = 1;		/* BaseVersion 1, class 0x81, Get */
		req[33] = 0x81;
		req[34] = 1;
		req[35] = 0x01;
		dqp_be = 0;
		memcpy(req + 8, &dqp_be, 4);
		TEST_ASSERT(send(a.data, req, sizeof(req), 0) == REQ_SIZE, "send");
		umad2sim_data_ready(fab, 0);
		TEST_ASSERT_EQUAL(umad2sim_client(fab, 0)->mads_in, 1, "one MAD in");
		fabric_run(fab, 1000);
		/* Whatever the firmware answered is for client a only. */
		while (recv(a.data, got, sizeof(got), MSG_DONTWAIT) > 0)
			;
	}
	client_close(&a);
	client_close(&sm);
	return TEST_SUCCESS;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * A client that stops reading: deliveries never wait and never fail
 * while its queue has room (what its socket does not take is queued,
 * UMAD2SIM_QUEUE_MAX rows); beyond that MADs are lost and counted, at
 * once. When the socket has room again the queue is written, in order.
 */
static int
test_slow_client(void)
{
	uint8_t reply[CTL_SIZE + 16], mad[256], got[REQ_SIZE + 8];
	const struct fab_client *cl;
	struct fab_hdrs h;
	struct fab_pkt *p;
	struct client a;
	unsigned int i, n = 0, lost = 0;
	uint64_t tid;
	double t0, t1;

	TEST_ASSERT_SUCCESS(client_open(&a, (uint32_t)getpid()), "client");
	TEST_ASSERT_EQUAL(client_connect(&a, "Hca1", 0, reply), 1, "connect");
	TEST_ASSERT_SUCCESS(client_attach_data(&a, 0), "data");
	memset(mad, 0, sizeof(mad));
	mad[0] = 1;
	mad[1] = 0x03;
	mad[2] = 2;
	mad[3] = 0x81;		/* GetResp, TID slot bits 0 */

	t0 = now_s();
	for (i = 0; i < 5000; i++) {
		/* TID low bits number the MADs, to check the order later. */
		put32(mad, 12, __builtin_bswap32(i));
		p = mk_pkt(&h, mad, 0x0102, 0x0003, 1, 1);
		TEST_ASSERT(p != NULL, "alloc");
		if (umad2sim_deliver(fab, &hca1->ports[1], &h, p) == 0)
			n++;
		else
			fab_pkt_free(fab, p);
	}
	t1 = now_s();
	cl = umad2sim_client(fab, 0);
	TEST_ASSERT(cl->q_len == UMAD2SIM_QUEUE_MAX, "queue full: %u rows", cl->q_len);
	lost = 5000 - n;
	TEST_ASSERT(lost > 0 && cl->mads_lost == lost, "%u lost, %" PRIu64 " counted",
		    lost, cl->mads_lost);
	TEST_ASSERT(t1 - t0 < 0.5, "5000 deliveries to a client that never reads took %.3f s",
		    t1 - t0);

	/* It reads everything, the loop says "writable", it gets the rest in order. */
	for (i = 0; i < n; i++) {
		if (recv(a.data, got, sizeof(got), MSG_DONTWAIT) != REQ_SIZE) {
			umad2sim_slot_writable(fab, 0);
			TEST_ASSERT_EQUAL(recv(a.data, got, sizeof(got), MSG_DONTWAIT),
					  REQ_SIZE, "row %u after writable", i);
		}
		memcpy(&tid, got + 32 + 8, 8);
		TEST_ASSERT_EQUAL(__builtin_bswap32((uint32_t)(tid >> 32)), i, "in order");
	}
	TEST_ASSERT(recv(a.data, got, sizeof(got), MSG_DONTWAIT) < 0, "nothing more");
	TEST_ASSERT_EQUAL(umad2sim_client(fab, 0)->q_len, 0, "queue empty");
	client_close(&a);
	return TEST_SUCCESS;
}

/*
 * Nobody but a client speaks for it: a CONNECT claiming another pid
 * than the sender's is refused (and does not evict that pid's client),
 * and control messages for a slot from another socket are refused.
 */
static int
test_impostors(void)
{
	uint8_t reply[CTL_SIZE + 16], info[44];
	struct client a, x;

	TEST_ASSERT_SUCCESS(client_open(&a, 1), "client a");
	TEST_ASSERT_SUCCESS(client_open(&x, (uint32_t)getpid()), "impostor");
	TEST_ASSERT_EQUAL(client_connect(&a, "Hca1", 1, reply), 1, "a connects as SM");
	TEST_ASSERT(hca1->ports[1].cap_mask & 0x2, "IsSM set");

	/* x claims a's pid. */
	memset(info, 0, sizeof(info));
	put32(info, 0, a.id);
	strcpy((char *)info + 12, "Hca2");
	TEST_ASSERT_EQUAL(ctl_msg(&x, 0, 1, 44, info, sizeof(info), reply), CTL_SIZE, "reply");
	TEST_ASSERT_EQUAL(get32(reply, 8), 0, "CONNECT with a borrowed pid: ERROR");
	TEST_ASSERT(umad2sim_client(fab, 0) != NULL && umad2sim_client(fab, 0)->pid == a.id,
		    "a still attached");

	/* x disconnects a, clears its IsSM, asks for its port: all refused. */
	TEST_ASSERT_EQUAL(ctl_msg(&x, 0, 2, 0, NULL, 0, reply), CTL_SIZE, "reply");
	TEST_ASSERT_EQUAL(get32(reply, 8), 0, "foreign DISCONNECT: ERROR");
	TEST_ASSERT_EQUAL(ctl_msg(&x, 0, 9, 4, (uint8_t[4]){ 0 }, 4, reply), CTL_SIZE, "reply");
	TEST_ASSERT_EQUAL(get32(reply, 8), 0, "foreign SET_ISSM: ERROR");
	TEST_ASSERT_EQUAL(ctl_msg(&x, 0, 3, 0, NULL, 0, reply), CTL_SIZE, "reply");
	TEST_ASSERT_EQUAL(get32(reply, 8), 0, "foreign GET_PORT: ERROR");
	TEST_ASSERT(umad2sim_client(fab, 0) != NULL, "a still attached");
	TEST_ASSERT(hca1->ports[1].cap_mask & 0x2, "IsSM still set");

	/* a itself may. */
	TEST_ASSERT_EQUAL(ctl_msg(&a, 0, 2, 0, NULL, 0, reply), CTL_SIZE, "reply");
	TEST_ASSERT_EQUAL(get32(reply, 8), 2, "own DISCONNECT");
	TEST_ASSERT(umad2sim_client(fab, 0) == NULL, "slot freed");
	client_close(&a);
	client_close(&x);
	return TEST_SUCCESS;
}

static int
test_slots_and_sma_queries(void)
{
	static struct client cl[UMAD2SIM_MAX_CLIENTS + 1];
	uint8_t reply[CTL_SIZE + 16];
	unsigned int i;
	int ret = TEST_SUCCESS;

	/* More than ibsim's 10: every slot, then one too many. */
	for (i = 0; i <= UMAD2SIM_MAX_CLIENTS; i++)
		TEST_ASSERT_SUCCESS(client_open(&cl[i], 20000 + i), "client %u", i);
	for (i = 0; i < UMAD2SIM_MAX_CLIENTS; i++) {
		if (client_connect(&cl[i], "Hca2", 0, reply) != 1 || get32(reply, 16) != i) {
			printf("  client %u: not attached to slot %u\n", i, i);
			ret = TEST_FAILED;
			goto out;
		}
	}
	if (client_connect(&cl[i], "Hca2", 0, reply) != 0) {
		printf("  client %u attached with every slot taken\n", i);
		ret = TEST_FAILED;
		goto out;
	}
	/* One client vanishes: the full table reaps it rather than refuse. */
	client_kill(&cl[5]);
	if (client_connect(&cl[i], "Hca2", 0, reply) != 1 || get32(reply, 16) != 5) {
		printf("  a full table with a dead client refused a new one\n");
		ret = TEST_FAILED;
		goto out;
	}

	/*
	 * GET_NODEINFO: the 64-byte NodeInfo the SMA would send (IBA 14.2.5.3):
	 * BaseVersion 1 @0, NodeType 1 (CA) @2, NumPorts @3, NodeGUID @12.
	 */
	if (ctl_msg(&cl[0], 0, 7, 64, NULL, 0, reply) != CTL_SIZE || get32(reply, 8) != 7 ||
	    reply[16 + 0] != 1 || reply[16 + 2] != 1 || reply[16 + 3] != hca2->nports ||
	    memcmp(reply + 16 + 12, (uint8_t[8]){
		    (uint8_t)(hca2->node_guid >> 56), (uint8_t)(hca2->node_guid >> 48),
		    (uint8_t)(hca2->node_guid >> 40), (uint8_t)(hca2->node_guid >> 32),
		    (uint8_t)(hca2->node_guid >> 24), (uint8_t)(hca2->node_guid >> 16),
		    (uint8_t)(hca2->node_guid >> 8), (uint8_t)hca2->node_guid }, 8) != 0) {
		printf("  GET_NODEINFO: wrong NodeInfo\n");
		test_hexdump("  got", reply + 16, 64);
		ret = TEST_FAILED;
		goto out;
	}
	/* GET_PORTINFO port 0 = own port: LID @16 (BE16), LocalPortNum @28. */
	memset(reply, 0, sizeof(reply));
	if (ctl_msg(&cl[0], 0, 8, 64, (uint8_t[1]){ 0 }, 1, reply) != CTL_SIZE ||
	    get32(reply, 8) != 8 || reply[16 + 16] != 0x00 || reply[16 + 17] != 0x03) {
		printf("  GET_PORTINFO: LID of Hca2 port 1 not 0x0003\n");
		test_hexdump("  got", reply + 16, 64);
		ret = TEST_FAILED;
	}
out:
	for (i = 0; i <= UMAD2SIM_MAX_CLIENTS; i++)
		client_close(&cl[i]);
	return ret;
}

static struct unit_test_suite umad2sim_suite = {
	.suite_name = "umad2sim",
	.setup = suite_setup,
	.teardown = suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_struct_sizes),
		TEST_CASE(test_names_and_second_instance),
		TEST_CASE_ST(NULL, case_teardown, test_connect_by_name),
		TEST_CASE_ST(NULL, case_teardown, test_connect_by_desc_default_switch),
		TEST_CASE_ST(NULL, case_teardown, test_connect_errors),
		TEST_CASE_ST(NULL, case_teardown, test_queries),
		TEST_CASE_ST(NULL, case_teardown, test_garbage),
		TEST_CASE_ST(NULL, case_teardown, test_disconnect_and_reap),
		TEST_CASE_ST(NULL, case_teardown, test_deliver),
		TEST_CASE_ST(NULL, case_teardown, test_slow_client),
		TEST_CASE_ST(NULL, case_teardown, test_impostors),
		TEST_CASE_ST(NULL, case_teardown, test_slots_and_sma_queries),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	struct fabric *probe = fabric_new();

	if (probe == NULL) {
		printf("fabric_new() returned NULL\n");
		return 1;
	}
	fabric_free(probe);
	return unit_test_suite_runner(&umad2sim_suite);
}
