/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: arbitrary messages on the IOMMU / MSI-X socket of an
 * MT25208 PCI function (app/ibfabric/mt25208/pcisim.c), the only non-hardware
 * input a host gives ibfabric.
 *
 * Input: records of u8 flags, u8 length, then that many message bytes.
 * flags bit 0: pass a 1 MiB memfd with the message (SCM_RIGHTS); bit 1:
 * pass two; bit 2: the host goes away after this record (close, reconnect).
 * Every message must get exactly one reply of the reply size, with the
 * request's type | 0x8000 when the header was complete, and the model's
 * window table must stay sorted and non-overlapping.
 *
 * The function lives in a temporary directory removed at exit.
 */

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fab_log.h"
#include "fab_node.h"
#include "fabric.h"
#include "mt25208.h"
#include "pcisim.h"

static struct fabric *fab;
static struct pcisim_fn *fn;
static char tmpdir[PATH_MAX];
static int cli = -1, memfd = -1;

static void
cleanup(void)
{
	char root[PATH_MAX + 8];

	if (cli >= 0)
		close(cli);
	pcisim_destroy(fn);
	fabric_free(fab);
	snprintf(root, sizeof(root), "%s/pci", tmpdir);
	rmdir(root);
	rmdir(tmpdir);
}

static int
attach(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	cli = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/iommu.sock", pcisim_dir(fn));
	if (cli < 0 || connect(cli, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		return -1;
	return pcisim_accept(fn) >= 0 ? 0 : -1;
}

static int
init_once(void)
{
	char root[PATH_MAX + 8];
	struct fab_node *ca;

	if (fn != NULL)
		return 0;
	fab_log_level = -1;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/fuzz-iommu-XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	snprintf(root, sizeof(root), "%s/pci", tmpdir);
	fab = fabric_new();
	ca = fab != NULL ? fabric_add_node(fab, FAB_NODE_CA, "H1", 1) : NULL;
	if (ca == NULL)
		return -1;
	ca->active_hca = true;
	fn = pcisim_create(fab, ca, root, 0x10);
	if (fn == NULL)
		return -1;
	atexit(cleanup);
	memfd = memfd_create("fuzz-dma", MFD_CLOEXEC);
	if (memfd < 0 || ftruncate(memfd, 1 << 20) != 0)
		return -1;
	return attach();
}

static void
check_windows(const struct mt25208 *dev)
{
	unsigned int i;

	for (i = 1; i < dev->nwins; i++)
		if (dev->wins[i - 1].iova + dev->wins[i - 1].len > dev->wins[i].iova)
			abort();
}

static void
send_one(const uint8_t *msg, size_t len, unsigned int nfds)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(2 * sizeof(int))];
	} cm;
	struct iovec iov = { .iov_base = (void *)(uintptr_t)msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct pcisim_reply r;
	struct cmsghdr *c;
	int fds[2] = { memfd, memfd };
	ssize_t n;

	if (nfds > 0) {
		memset(&cm, 0, sizeof(cm));
		mh.msg_control = cm.buf;
		mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	/* A zero-length SEQPACKET message reads as end of file: skip it. */
	if (len == 0 || sendmsg(cli, &mh, MSG_NOSIGNAL) != (ssize_t)len)
		return;
	if (pcisim_conn_ready(fn) != 0)
		abort();
	iov.iov_base = &r;
	iov.iov_len = sizeof(r);
	memset(&cm, 0, sizeof(cm));
	mh.msg_control = cm.buf;
	mh.msg_controllen = sizeof(cm.buf);
	n = recvmsg(cli, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n != (ssize_t)sizeof(r))
		abort();
	if (len >= sizeof(struct pcisim_hdr) &&
	    r.hdr.type != (uint16_t)(((const struct pcisim_hdr *)(const void *)msg)->type |
				     PCISIM_MSG_REPLY))
		abort();
	for (c = CMSG_FIRSTHDR(&mh); c != NULL; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_type == SCM_RIGHTS) {
			int fd;

			memcpy(&fd, CMSG_DATA(c), sizeof(fd));
			close(fd);
		}
	check_windows(pcisim_dev(fn));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mt25208 *dev;
	size_t pos = 0;
	uint8_t msg[256];

	if (init_once() != 0)
		return 0;
	dev = pcisim_dev(fn);
	while (dev->nwins > 0)
		mt25208_dma_unmap(dev, dev->wins[0].iova, dev->wins[0].len);
	while (size - pos >= 2) {
		uint8_t flags = data[pos], len = data[pos + 1];

		pos += 2;
		if (size - pos < len)
			break;
		memcpy(msg, data + pos, len);
		pos += len;
		send_one(msg, len, (flags & 2) ? 2 : (flags & 1));
		if (flags & 4) {
			close(cli);
			cli = -1;
			if (pcisim_conn_ready(fn) != -1 || attach() != 0)
				abort();
		}
	}
	return 0;
}
