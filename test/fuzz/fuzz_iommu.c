/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libFuzzer target: arbitrary messages on the IOMMU / MSI-X socket of an
 * MT25208 PCI function (app/ibfabric/mt25208/pcisim.c), the only non-hardware
 * input a host gives ibfabric.
 *
 * Input: records of u8 flags, u8 length, then that many message bytes.
 * flags bit 0: pass a 1 MiB file with the message (SCM_RIGHTS); bit 1:
 * pass two; bit 2: the host goes away after this record (close, reconnect);
 * bits 3..4: which file: a memfd that cannot be sealed, a tmpfs file (not
 * a memfd), a memfd the model seals against shrinking, a pipe (not a
 * file at all); bit 5: after the record the host shrinks every file it
 * passed to (bits 6..7) quarters of 1 MiB, then the model touches every
 * page of every window under its bus-error guard (as a command or the
 * data path would), and the files grow back. Every message must get
 * exactly one reply of the reply size, with the request's type | 0x8000
 * when the header was complete; the model's window table must stay
 * sorted and non-overlapping; a bus error in a window must revoke it
 * (mt25208_guard.c), never kill the process, and the windows left must
 * be touchable.
 *
 * The function lives in a temporary directory removed at exit.
 */

#include <fcntl.h>
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
#include "mt25208_guard.h"
#include "pcisim.h"

#define FILE_SIZE	(1u << 20)
#define PAGE		4096u

/* The files a host passes (flags bits 3..4). */
enum fd_kind {
	FD_MEMFD,		/* no MFD_ALLOW_SEALING: the model cannot seal it */
	FD_TMPFS,		/* a /dev/shm file: not a memfd, cannot be sealed */
	FD_SEALABLE,		/* the model seals it F_SEAL_SHRINK */
	FD_PIPE,		/* not a file: mmap fails */
	FD_KINDS,
};

static struct fabric *fab;
static struct pcisim_fn *fn;
static char tmpdir[PATH_MAX];
static int cli = -1;
static int fds[FD_KINDS] = { -1, -1, -1, -1 };
static int pipe_w = -1;

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
	{
		char shm[] = "/dev/shm/fuzz-iommu-XXXXXX";
		int p[2];

		fds[FD_MEMFD] = memfd_create("fuzz-dma", MFD_CLOEXEC);
		fds[FD_TMPFS] = mkostemp(shm, O_CLOEXEC);
		if (fds[FD_TMPFS] >= 0)
			unlink(shm);
		fds[FD_SEALABLE] = memfd_create("fuzz-dma-seal", MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (pipe2(p, O_CLOEXEC) != 0)
			return -1;
		fds[FD_PIPE] = p[0];
		pipe_w = p[1];
	}
	if (fds[FD_MEMFD] < 0 || fds[FD_TMPFS] < 0 || fds[FD_SEALABLE] < 0 ||
	    ftruncate(fds[FD_MEMFD], FILE_SIZE) != 0 || ftruncate(fds[FD_TMPFS], FILE_SIZE) != 0 ||
	    ftruncate(fds[FD_SEALABLE], FILE_SIZE) != 0)
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

/* Every page of every window, as the model's DMA would: reads and writes. */
static void
touch_windows(struct mt25208 *dev, void *arg)
{
	volatile uint8_t *p;
	unsigned int i;
	uint64_t off;

	(void)arg;
	for (i = 0; i < dev->nwins; i++)
		for (off = 0; off < dev->wins[i].len; off += PAGE) {
			p = mt25208_dma_ptr(dev, dev->wins[i].iova + off, 1, true);
			if (p == NULL)
				abort();	/* inside a window: never a fault */
			*p = (uint8_t)(*p + 1);
		}
}

/*
 * The host shrinks its files under the model's windows, and the model
 * touches every window: each bus error revokes one window (and is
 * reported as a fault), so at most nwins + 1 rounds end with every
 * window left touchable.
 */
static void
shrink_and_touch(struct mt25208 *dev, off_t size)
{
	unsigned int rounds = 0, k;

	for (k = 0; k < FD_PIPE; k++)
		(void)ftruncate(fds[k], size);	/* a sealed memfd refuses: EPERM */
	while (mt25208_guard(dev, touch_windows, NULL) != 0)
		if (++rounds > MT25208_MAX_WINS)
			abort();
	if (mt25208_guard(dev, touch_windows, NULL) != 0)
		abort();
	check_windows(dev);
	for (k = 0; k < FD_PIPE; k++)
		(void)ftruncate(fds[k], FILE_SIZE);
}

static void
send_one(const uint8_t *msg, size_t len, unsigned int nfds, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(2 * sizeof(int))];
	} cm;
	struct iovec iov = { .iov_base = (void *)(uintptr_t)msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct pcisim_reply r;
	struct cmsghdr *c;
	int pass[2] = { fd, fd };
	ssize_t n;

	if (nfds > 0) {
		memset(&cm, 0, sizeof(cm));
		mh.msg_control = cm.buf;
		mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), pass, nfds * sizeof(int));
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
		send_one(msg, len, (flags & 2) ? 2 : (flags & 1), fds[(flags >> 3) & 3]);
		if (flags & 0x20)
			shrink_and_touch(dev, (off_t)(flags >> 6) * (FILE_SIZE / 4));
		if (flags & 4) {
			close(cli);
			cli = -1;
			if (pcisim_conn_ready(fn) != -1 || attach() != 0)
				abort();
		}
	}
	return 0;
}
