/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of ibfabric's simulated PCI function (app/ibfabric/mt25208/pcisim.c):
 * the sysfs-shaped directory DPDK's PCI scan reads (values from the
 * kernel's sysfs formats: "0x%04x" IDs, "0x%06x" class, 7 resource lines
 * of three 0x%016llx columns), the shared BAR files, and the IOMMU
 * socket protocol of pcisim.h played by a client in this process:
 * MAP with a memfd, DMA through the window, GET_IRQ, UNMAP, bad
 * version, and the host going away (reset to power-on, windows gone).
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "fab_log.h"
#include "fab_node.h"
#include "fabric.h"
#include "mt25208.h"
#include "mt25208_host.h"
#include "pcisim.h"
#include "test.h"

static struct fabric *fab;
static struct fab_node *ca;
static struct pcisim_fn *fn;
static char root[PATH_MAX];

static int
read_small(const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", pcisim_dir(fn), name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

static int
setup(void)
{
	char tmpl[] = "/tmp/pcisim-test-XXXXXX";

	if (mkdtemp(tmpl) == NULL)
		return TEST_FAILED;
	snprintf(root, sizeof(root), "%s/pci", tmpl);
	fab = fabric_new();
	ca = fab != NULL ? fabric_add_node(fab, FAB_NODE_CA, "H1", 1) : NULL;
	if (ca == NULL)
		return TEST_FAILED;
	ca->active_hca = true;
	fn = pcisim_create(fab, ca, root, 0x10);
	return fn != NULL ? TEST_SUCCESS : TEST_FAILED;
}

static void
teardown(void)
{
	char top[PATH_MAX];

	pcisim_destroy(fn);
	fn = NULL;
	fabric_free(fab);
	snprintf(top, sizeof(top), "%s", root);
	*strrchr(top, '/') = '\0';
	rmdir(top);
}

static int
test_sysfs_files(void)
{
	char buf[1024], path[PATH_MAX], lnk[PATH_MAX];
	struct stat st;
	ssize_t n;

	TEST_ASSERT(strstr(pcisim_dir(fn), "/0000:10:00.0") != NULL, "BDF directory name");
	TEST_ASSERT(ca->hca == pcisim_dev(fn), "node->hca set");
	TEST_ASSERT(read_small("vendor", buf, sizeof(buf)) > 0 && !strcmp(buf, "0x15b3\n"),
		    "vendor");
	TEST_ASSERT(read_small("device", buf, sizeof(buf)) > 0 && !strcmp(buf, "0x6282\n"),
		    "device");
	TEST_ASSERT(read_small("class", buf, sizeof(buf)) > 0 && !strcmp(buf, "0x0c0600\n"),
		    "class");
	TEST_ASSERT(read_small("subsystem_vendor", buf, sizeof(buf)) > 0 &&
		    !strcmp(buf, "0x15b3\n"), "subsystem_vendor");
	TEST_ASSERT(read_small("numa_node", buf, sizeof(buf)) > 0, "numa_node");
	/* Bus 0x10: BAR0 at 0x38_0000_0000 + 0x10 << 28 = 0x39_0000_0000, 1 MiB. */
	TEST_ASSERT(read_small("resource", buf, sizeof(buf)) == 7 * 57, "7 resource lines");
	TEST_ASSERT(!strncmp(buf, "0x0000003900000000 0x00000039000fffff 0x0000000000140204\n"
			     "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
			     "0x0000003908000000 0x00000039087fffff 0x000000000014220c\n", 171),
		    "BAR0, BAR1 (upper half), BAR2 lines: %s", buf);
	snprintf(path, sizeof(path), "%s/driver", pcisim_dir(fn));
	n = readlink(path, lnk, sizeof(lnk) - 1);
	TEST_ASSERT(n > 0, "driver link");
	lnk[n] = '\0';
	TEST_ASSERT(strstr(lnk, "/drivers/ibfabric-sim") != NULL, "driver link target %s", lnk);
	snprintf(path, sizeof(path), "%s/resource0", pcisim_dir(fn));
	TEST_ASSERT(stat(path, &st) == 0 && st.st_size == MT_BAR0_SIZE, "resource0 1 MiB");
	snprintf(path, sizeof(path), "%s/resource2", pcisim_dir(fn));
	TEST_ASSERT(stat(path, &st) == 0 && st.st_size == MT_BAR2_SIZE, "resource2 8 MiB");
	return TEST_SUCCESS;
}

static int
test_bar_shared(void)
{
	char path[PATH_MAX];
	uint8_t *b;
	int fd;

	snprintf(path, sizeof(path), "%s/resource0", pcisim_dir(fn));
	fd = open(path, O_RDWR);
	TEST_ASSERT(fd >= 0, "open resource0");
	b = mmap(NULL, MT_BAR0_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	TEST_ASSERT(b != MAP_FAILED, "mmap resource0");
	/* A host store is what the model sees: reset register, mthca_reset(). */
	pcisim_dev(fn)->fw_state = MT25208_FW_RUN;
	mt_put32(b + MT_BAR0_RESET, 0, 1);
	TEST_ASSERT(mt25208_poll(pcisim_dev(fn)), "model saw the host's write");
	TEST_ASSERT_EQUAL(pcisim_dev(fn)->fw_state, MT25208_FW_BOOT, "reset");
	munmap(b, MT_BAR0_SIZE);
	return TEST_SUCCESS;
}

static int
client_connect(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int c = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/iommu.sock", pcisim_dir(fn));
	if (c < 0 || connect(c, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		return -1;
	return c;
}

/* Send one request (with an optional fd), let the model serve it, read the reply. */
static int
rpc(int c, const void *req, size_t len, int pass_fd, struct pcisim_reply *r, int *got_fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	struct iovec iov = { .iov_base = (void *)(uintptr_t)req, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *h;

	if (pass_fd >= 0) {
		memset(&cm, 0, sizeof(cm));
		mh.msg_control = cm.buf;
		mh.msg_controllen = sizeof(cm.buf);
		h = CMSG_FIRSTHDR(&mh);
		h->cmsg_level = SOL_SOCKET;
		h->cmsg_type = SCM_RIGHTS;
		h->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(h), &pass_fd, sizeof(int));
	}
	if (sendmsg(c, &mh, 0) != (ssize_t)len)
		return -1;
	if (pcisim_conn_ready(fn) != 0)
		return -2;
	iov.iov_base = r;
	iov.iov_len = sizeof(*r);
	memset(&cm, 0, sizeof(cm));
	mh.msg_control = cm.buf;
	mh.msg_controllen = sizeof(cm.buf);
	if (recvmsg(c, &mh, 0) != sizeof(*r))
		return -3;
	if (got_fd != NULL) {
		*got_fd = -1;
		h = CMSG_FIRSTHDR(&mh);
		if (h != NULL && h->cmsg_type == SCM_RIGHTS)
			memcpy(got_fd, CMSG_DATA(h), sizeof(int));
	}
	return 0;
}

static int
test_iommu_socket(void)
{
	struct pcisim_map map = { .hdr = { PCISIM_PROTO_VERSION, PCISIM_MSG_MAP, 7 } };
	struct pcisim_unmap um = { .hdr = { PCISIM_PROTO_VERSION, PCISIM_MSG_UNMAP, 9 } };
	struct pcisim_get_irq irq = { .hdr = { PCISIM_PROTO_VERSION, PCISIM_MSG_GET_IRQ, 8 } };
	struct pcisim_hdr bad = { 2, PCISIM_MSG_MAP, 10 };
	struct mt25208 *dev = pcisim_dev(fn);
	struct pcisim_reply r;
	uint8_t *mem, *p;
	int c, c2, mfd, efd = -1;
	uint64_t v = 0;

	c = client_connect();
	TEST_ASSERT(c >= 0, "connect");
	TEST_ASSERT(pcisim_accept(fn) >= 0, "accepted");
	c2 = client_connect();
	TEST_ASSERT(c2 >= 0, "second connect reaches the backlog");
	TEST_ASSERT_EQUAL(pcisim_accept(fn), -1, "second host refused");
	/* It is told why (in use), not left to a "Broken pipe". */
	memset(&r, 0, sizeof(r));
	TEST_ASSERT_EQUAL(recv(c2, &r, sizeof(r), MSG_DONTWAIT), (ssize_t)sizeof(r),
			  "second host: a busy notice before the close");
	TEST_ASSERT_EQUAL(r.hdr.type, PCISIM_MSG_BUSY | PCISIM_MSG_REPLY, "busy notice type");
	TEST_ASSERT_EQUAL(r.status, -EBUSY, "busy notice status");
	close(c2);

	mfd = memfd_create("test-dma", MFD_CLOEXEC);
	TEST_ASSERT(mfd >= 0 && ftruncate(mfd, 1 << 20) == 0, "memfd");
	mem = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	TEST_ASSERT(mem != MAP_FAILED, "host mapping");
	/* Window 0x40000000.. = memfd offset 0x10000 .. +512 KiB. */
	map.iova = 0x40000000;
	map.len = 512 << 10;
	map.offset = 0x10000;
	TEST_ASSERT_EQUAL(rpc(c, &map, sizeof(map), mfd, &r, NULL), 0, "MAP rpc");
	TEST_ASSERT_EQUAL(r.hdr.type, PCISIM_MSG_MAP | PCISIM_MSG_REPLY, "reply type");
	TEST_ASSERT_EQUAL(r.hdr.seq, 7, "seq echoed");
	TEST_ASSERT_EQUAL(r.status, 0, "MAP ok");
	mem[0x10000 + 0x123] = 0xa5;
	p = mt25208_dma_ptr(dev, 0x40000123, 1, false);
	TEST_ASSERT(p != NULL && *p == 0xa5, "model reads the host's memory");
	TEST_ASSERT(mt25208_dma_ptr(dev, 0x40000000 + (512 << 10) - 4, 8, false) == NULL,
		    "access crossing the window end is a DMA fault");
	TEST_ASSERT_EQUAL(rpc(c, &map, sizeof(map), mfd, &r, NULL), 0, "MAP again");
	TEST_ASSERT_EQUAL(r.status, -EEXIST, "overlapping window refused");
	map.iova = 0x50000001;
	TEST_ASSERT_EQUAL(rpc(c, &map, sizeof(map), mfd, &r, NULL), 0, "MAP unaligned");
	TEST_ASSERT_EQUAL(r.status, -EINVAL, "unaligned iova refused");
	map.iova = 0x50000000;
	map.offset = 0xf0000;	/* 512 KiB from 960 KiB: past the 1 MiB file */
	TEST_ASSERT_EQUAL(rpc(c, &map, sizeof(map), mfd, &r, NULL), 0, "MAP past EOF");
	TEST_ASSERT_EQUAL(r.status, -EINVAL, "window the file does not back refused");
	map.offset = 0x10000;
	TEST_ASSERT_EQUAL(rpc(c, &map, sizeof(map), -1, &r, NULL), 0, "MAP without fd");
	TEST_ASSERT_EQUAL(r.status, -EINVAL, "MAP needs an fd");
	TEST_ASSERT_EQUAL(rpc(c, &bad, sizeof(bad), -1, &r, NULL), 0, "version 2");
	TEST_ASSERT_EQUAL(r.status, -EPROTO, "unknown version refused");

	irq.vector = 2;
	TEST_ASSERT_EQUAL(rpc(c, &irq, sizeof(irq), -1, &r, &efd), 0, "GET_IRQ");
	TEST_ASSERT_EQUAL(r.status, 0, "GET_IRQ ok");
	TEST_ASSERT(efd >= 0, "eventfd passed");
	TEST_ASSERT(dev->vec_fd[2] >= 0, "vector 2 has an eventfd");
	v = 1;
	TEST_ASSERT_EQUAL(write(dev->vec_fd[2], &v, sizeof(v)), sizeof(v), "model signals");
	TEST_ASSERT_EQUAL(read(efd, &v, sizeof(v)), sizeof(v), "host sees the interrupt");
	irq.vector = 40;
	TEST_ASSERT_EQUAL(rpc(c, &irq, sizeof(irq), -1, &r, NULL), 0, "GET_IRQ 40");
	TEST_ASSERT_EQUAL(r.status, -EINVAL, "vector 40 refused");

	um.iova = 0x40000000;
	um.len = 4096;
	TEST_ASSERT_EQUAL(rpc(c, &um, sizeof(um), -1, &r, NULL), 0, "UNMAP part");
	TEST_ASSERT_EQUAL(r.status, -ENOENT, "only whole windows are unmapped");
	um.len = 512 << 10;
	TEST_ASSERT_EQUAL(rpc(c, &um, sizeof(um), -1, &r, NULL), 0, "UNMAP");
	TEST_ASSERT_EQUAL(r.status, 0, "UNMAP ok");
	TEST_ASSERT(mt25208_dma_ptr(dev, 0x40000123, 1, false) == NULL, "window gone");

	/* Host gone: windows, eventfds, firmware state all back to power-on. */
	map.iova = 0x40000000;
	TEST_ASSERT_EQUAL(rpc(c, &map, sizeof(map), mfd, &r, NULL), 0, "MAP");
	dev->fw_state = MT25208_FW_RUN;
	close(c);
	TEST_ASSERT_EQUAL(pcisim_conn_ready(fn), -1, "EOF = host gone");
	TEST_ASSERT_EQUAL(pcisim_conn_fd(fn), -1, "connection closed");
	TEST_ASSERT_EQUAL(dev->nwins, 0, "windows dropped");
	TEST_ASSERT_EQUAL(dev->vec_fd[2], -1, "eventfds dropped");
	TEST_ASSERT_EQUAL(dev->fw_state, MT25208_FW_BOOT, "power-on state");
	c = client_connect();
	TEST_ASSERT(c >= 0 && pcisim_accept(fn) >= 0, "a new host attaches");
	close(c);
	TEST_ASSERT_EQUAL(pcisim_conn_ready(fn), -1, "and leaves");
	close(efd);
	munmap(mem, 1 << 20);
	close(mfd);
	return TEST_SUCCESS;
}

/* A directory left by a killed ibfabric is taken over; a live one is refused. */
static int
test_stale_dir(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[PATH_MAX], path[PATH_MAX + 32];
	const char *shm = "/dev/shm/ibfabric-0-10-resource0";
	struct fab_node *b;
	struct pcisim_fn *f2;
	int s, fd;

	/* Live: the fixture's function owns bus 0x10 under root. */
	b = fabric_add_node(fab, FAB_NODE_CA, "H2", 1);
	TEST_ASSERT(b != NULL, "second CA");
	f2 = pcisim_create(fab, b, root, 0x10);
	TEST_ASSERT(f2 == NULL && errno == EADDRINUSE, "live function refused (errno %d)", errno);
	TEST_ASSERT(access(pcisim_dir(fn), F_OK) == 0, "live directory untouched");

	/* Stale: a directory with a dead socket, a file and a BAR link. */
	TEST_ASSERT(snprintf(dir, sizeof(dir), "%.200s/0000:20:00.0", root) < (int)sizeof(dir),
		    "dir fits");
	TEST_ASSERT(mkdir(dir, 0755) == 0, "stale dir");
	TEST_ASSERT(snprintf(sa.sun_path, sizeof(sa.sun_path), "%.90s/iommu.sock", dir) <
		    (int)sizeof(sa.sun_path), "socket path fits");
	s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	TEST_ASSERT(s >= 0 && bind(s, (struct sockaddr *)&sa, sizeof(sa)) == 0, "dead socket");
	close(s);
	fd = open(shm, O_CREAT | O_RDWR, 0600);
	TEST_ASSERT(fd >= 0, "stale shm file");
	close(fd);
	snprintf(path, sizeof(path), "%s/resource0", dir);
	TEST_ASSERT(symlink(shm, path) == 0, "stale link");
	snprintf(path, sizeof(path), "%s/vendor", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	close(fd);
	f2 = pcisim_create(fab, b, root, 0x20);
	TEST_ASSERT(f2 != NULL, "stale directory taken over");
	TEST_ASSERT(access(shm, F_OK) != 0, "stale BAR file removed");
	pcisim_destroy(f2);
	TEST_ASSERT(access(dir, F_OK) != 0, "directory removed at destroy");
	return TEST_SUCCESS;
}

/* mt25208_host.c: one function per active CA, and the poll timeout policy. */
static int
test_hca_set_policy(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct fab_node *b;
	struct hca_set *s;
	struct timespec ts = { 0, 3 * 1000 * 1000 };
	char dir[PATH_MAX + 32];
	int c, ep, t, i;

	/* The fixture's node H1 is active; add a passive CA and a second active one. */
	TEST_ASSERT(fabric_add_node(fab, FAB_NODE_CA, "P1", 1) != NULL, "passive CA");
	b = fabric_add_node(fab, FAB_NODE_CA, "H2", 2);
	TEST_ASSERT(b != NULL, "second active CA");
	b->active_hca = true;
	snprintf(dir, sizeof(dir), "%s-set", root);
	/* H1 already has a model from the fixture: take it away for this case. */
	pcisim_destroy(fn);
	fn = NULL;
	s = hca_set_create(fab, dir);
	TEST_ASSERT(s != NULL, "hca_set_create");
	TEST_ASSERT_EQUAL(hca_set_count(s), 2, "two active CAs, two functions");
	TEST_ASSERT(ca->hca != NULL && b->hca != NULL, "models attached to the nodes");
	ep = epoll_create1(EPOLL_CLOEXEC);
	TEST_ASSERT(ep >= 0 && hca_set_epoll_add(s, ep, 7) == 0, "epoll");
	TEST_ASSERT_EQUAL(hca_set_poll(s), -1, "no host: block");
	TEST_ASSERT(snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/0000:11:00.0/iommu.sock",
			     dir) < (int)sizeof(sa.sun_path), "socket path fits");
	c = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	TEST_ASSERT(c >= 0 && connect(c, (struct sockaddr *)&sa, sizeof(sa)) == 0, "connect H2");
	hca_set_ready(s, 2 * 1);	/* listening socket of function 1 */
	TEST_ASSERT_EQUAL(hca_set_poll(s), 0, "host just attached: spin");
	nanosleep(&ts, NULL);
	/* the clock is read every MT25208_QUIET_CLOCK quiet passes */
	for (i = 0, t = 0; i < MT25208_QUIET_CLOCK && t == 0; i++)
		t = hca_set_poll(s);
	TEST_ASSERT_EQUAL(t, MT25208_NAP_US, "quiet host after recent activity: nap");
	ts.tv_sec = (time_t)((MT25208_NAP_NS + 10000000ull) / 1000000000ull);
	ts.tv_nsec = (long)((MT25208_NAP_NS + 10000000ull) % 1000000000ull);
	nanosleep(&ts, NULL);
	for (i = 0, t = MT25208_NAP_US; i < MT25208_QUIET_CLOCK && t == MT25208_NAP_US; i++)
		t = hca_set_poll(s);
	TEST_ASSERT_EQUAL(t, MT25208_IDLE_POLL_US, "host quiet for long: poll every 1 ms");
	/* A host write to the HCR is activity: spin again. */
	mt_put32(((struct mt25208 *)b->hca)->bar0 + MT_BAR0_HCR + MT_HCR_CMD, 0,
		 MT_HCR_GO | 0x0ff);
	TEST_ASSERT_EQUAL(hca_set_poll(s), 0, "command seen: spin");
	close(c);
	hca_set_ready(s, 2 * 1 + 1);	/* EOF on the host's socket */
	TEST_ASSERT_EQUAL(hca_set_poll(s), -1, "host gone: block again");
	close(ep);
	hca_set_free(s);
	TEST_ASSERT(ca->hca == NULL && b->hca == NULL, "models gone");
	return TEST_SUCCESS;
}

static struct unit_test_suite pcisim_suite = {
	.suite_name = "ibfabric simulated PCI function",
	.unit_test_cases = {
		TEST_CASE_ST(setup, teardown, test_sysfs_files),
		TEST_CASE_ST(setup, teardown, test_bar_shared),
		TEST_CASE_ST(setup, teardown, test_iommu_socket),
		TEST_CASE_ST(setup, teardown, test_hca_set_policy),
		TEST_CASE_ST(setup, teardown, test_stale_dir),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	fab_log_level = -1;
	return unit_test_suite_runner(&pcisim_suite);
}
