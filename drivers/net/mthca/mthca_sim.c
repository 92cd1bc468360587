/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The simulated PCI function of ibfabric, seen from the PMD. The socket
 * protocol is doc/guides/nics/mthca_hw.rst, "The IOMMU / MSI-X socket":
 * SOCK_SEQPACKET, one request and one reply per message, host byte
 * order, header {u16 version = 1, u16 type, u32 seq}; replies have type
 * | 0x8000 and {i32 status, u32 reserved}. MAP {iova, len, offset} with
 * the memory's fd (SCM_RIGHTS), UNMAP {iova, len}, GET_IRQ {vector,
 * reserved} answered with an eventfd. These definitions are the PMD's
 * own; nothing is shared with ibfabric's sources.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <bus_pci_driver.h>
#include <rte_eal_memconfig.h>
#include <rte_interrupts.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "mthca.h"
#include "mthca_sim.h"

#define SIM_SOCK_NAME		"iommu.sock"
#define SIM_VERSION		1
#define SIM_MAP			1
#define SIM_UNMAP		2
#define SIM_GET_IRQ		3
#define SIM_BUSY		4	/* the function has a host already */
#define SIM_REPLY		0x8000
#define SIM_MAX_WINDOWS		256	/* the model's window table */

struct sim_hdr {
	uint16_t version;
	uint16_t type;
	uint32_t seq;
};

struct sim_map {
	struct sim_hdr hdr;
	uint64_t iova;
	uint64_t len;
	uint64_t offset;
};

struct sim_unmap {
	struct sim_hdr hdr;
	uint64_t iova;
	uint64_t len;
};

struct sim_get_irq {
	struct sim_hdr hdr;
	uint32_t vector;
	uint32_t reserved;
};

struct sim_reply {
	struct sim_hdr hdr;
	int32_t status;
	uint32_t reserved;
};

/** One registered DMA window: a run of memsegs with one fd. */
struct sim_window {
	uintptr_t va;
	uint64_t iova;
	uint64_t len;
	uint64_t offset;
	int fd;
	bool live;
};

struct mthca_sim {
	char dir[PATH_MAX];
	int sock;
	uint32_t seq;
	pthread_mutex_t lock;		/* the socket and the window table */
	struct sim_window win[SIM_MAX_WINDOWS];
	bool cb_registered;
	char cb_name[64];
	struct mthca_dev *dev;
	struct rte_intr_handle *hup;	/* the socket in the EAL interrupt thread */
	bool hup_registered;
};

static void
sim_dir(const struct rte_pci_device *pci, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", rte_pci_get_sysfs_path(), pci->device.name);
}

bool
mthca_sim_detect(const struct rte_pci_device *pci)
{
	char path[PATH_MAX + 16], dir[PATH_MAX];
	struct stat st;

	sim_dir(pci, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, SIM_SOCK_NAME);
	return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

/*
 * ibfabric answers a second host of a function with a BUSY notice and
 * closes: say so, rather than the "Broken pipe" of the request after it.
 */
static bool
sim_is_busy(const struct sim_reply *rep, ssize_t n)
{
	return n == (ssize_t)sizeof(*rep) && rep->hdr.type == (SIM_BUSY | SIM_REPLY) &&
		rep->status == -EBUSY;
}

static int
sim_busy(const struct mthca_sim *s)
{
	MTHCA_LOG(ERR, "%s: PCI function in use: another process is its host (one host per function)",
		  s->dir);
	return -EBUSY;
}

/*
 * After a failed send or a reset on receive: ibfabric closed on our
 * unread request, and the error is reported before the BUSY notice
 * queued ahead of it. True when that notice is there to read.
 */
static bool
sim_busy_queued(const struct mthca_sim *s, int err)
{
	struct sim_reply rep;

	if (err != EPIPE && err != ECONNRESET)
		return false;
	return sim_is_busy(&rep, recv(s->sock, &rep, sizeof(rep), MSG_DONTWAIT));
}

static int
sim_transact(struct mthca_sim *s, void *req, size_t len, int fd, int *fd_out)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} cu;
	struct sim_hdr *h = req;
	struct sim_reply rep;
	struct iovec iov = { req, len };
	struct msghdr mh;
	struct cmsghdr *cm;
	ssize_t n;

	h->version = SIM_VERSION;
	h->seq = ++s->seq;
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (fd >= 0) {
		memset(&cu, 0, sizeof(cu));
		mh.msg_control = cu.buf;
		mh.msg_controllen = sizeof(cu.buf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	if (sendmsg(s->sock, &mh, MSG_NOSIGNAL) != (ssize_t)len) {
		int err = errno;

		return sim_busy_queued(s, err) ? sim_busy(s) : -err;
	}
	memset(&mh, 0, sizeof(mh));
	memset(&cu, 0, sizeof(cu));
	iov.iov_base = &rep;
	iov.iov_len = sizeof(rep);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cu.buf;
	mh.msg_controllen = sizeof(cu.buf);
	n = recvmsg(s->sock, &mh, MSG_CMSG_CLOEXEC);
	if (n < 0) {
		int err = errno;

		return sim_busy_queued(s, err) ? sim_busy(s) : -err;
	}
	if (n == 0)
		return -ECONNRESET;
	if (sim_is_busy(&rep, n))
		return sim_busy(s);
	if (fd_out != NULL) {
		*fd_out = -1;
		for (cm = CMSG_FIRSTHDR(&mh); cm != NULL; cm = CMSG_NXTHDR(&mh, cm))
			if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
				memcpy(fd_out, CMSG_DATA(cm), sizeof(int));
	}
	if (n != sizeof(rep) || rep.hdr.version != SIM_VERSION ||
	    rep.hdr.type != (h->type | SIM_REPLY) || rep.hdr.seq != h->seq) {
		MTHCA_LOG(ERR, "%s/%s: bad reply (%zd bytes, type 0x%x, seq %u)", s->dir,
			  SIM_SOCK_NAME, n, rep.hdr.type, rep.hdr.seq);
		if (fd_out != NULL && *fd_out >= 0)
			close(*fd_out);
		return -EPROTO;
	}
	return rep.status;
}

static int
sim_map_window(struct mthca_sim *s, const struct sim_window *w)
{
	struct sim_map m;
	int i, ret;

	for (i = 0; i < SIM_MAX_WINDOWS; i++)
		if (!s->win[i].live)
			break;
	if (i == SIM_MAX_WINDOWS) {
		MTHCA_LOG(ERR, "%s: more than %d DMA windows (use --no-huge or fewer hugepages)",
			  s->dir, SIM_MAX_WINDOWS);
		return -ENOSPC;
	}
	memset(&m, 0, sizeof(m));
	m.hdr.type = SIM_MAP;
	m.iova = w->iova;
	m.len = w->len;
	m.offset = w->offset;
	ret = sim_transact(s, &m, sizeof(m), w->fd, NULL);
	if (ret != 0) {
		MTHCA_LOG(ERR, "%s: IOMMU MAP iova 0x%" PRIx64 " len 0x%" PRIx64 " offset 0x%"
			  PRIx64 ": %s", s->dir, w->iova, w->len, w->offset, strerror(-ret));
		return ret;
	}
	s->win[i] = *w;
	s->win[i].live = true;
	return 0;
}

static int
sim_unmap_window(struct mthca_sim *s, struct sim_window *w)
{
	struct sim_unmap m;
	int ret;

	memset(&m, 0, sizeof(m));
	m.hdr.type = SIM_UNMAP;
	m.iova = w->iova;
	m.len = w->len;
	ret = sim_transact(s, &m, sizeof(m), -1, NULL);
	w->live = false;
	return ret;
}

/* Collects memsegs into windows: same fd, consecutive offsets and IOVAs. */
struct seg_walk {
	struct mthca_sim *s;
	struct sim_window cur;
	uintptr_t lo, hi;	/* only segments inside [lo, hi), if hi != 0 */
	int ret;
};

static int
seg_flush(struct seg_walk *w)
{
	int ret = 0;

	if (w->cur.len != 0)
		ret = sim_map_window(w->s, &w->cur);
	w->cur.len = 0;
	return ret;
}

static int
seg_add(const struct rte_memseg_list *msl, const struct rte_memseg *ms, void *arg)
{
	struct seg_walk *w = arg;
	size_t off;
	int fd;

	if (msl->external)
		return 0;
	if (w->hi != 0 && ((uintptr_t)ms->addr < w->lo || (uintptr_t)ms->addr >= w->hi))
		return 0;
	if (ms->iova == RTE_BAD_IOVA) {
		MTHCA_LOG(ERR, "%s: memory without an IOVA (IOVA mode PA without physical "
			  "addresses): run with --iova-mode=va", w->s->dir);
		w->ret = -EINVAL;
		return -1;
	}
	fd = rte_memseg_get_fd_thread_unsafe(ms);
	if (fd < 0 || rte_memseg_get_fd_offset_thread_unsafe(ms, &off) != 0) {
		MTHCA_LOG(ERR, "%s: no file descriptor for the memseg at %p (%s): it cannot be "
			  "shared with the device", w->s->dir, ms->addr, rte_strerror(rte_errno));
		w->ret = -ENOTSUP;
		return -1;
	}
	if (w->cur.len != 0 && w->cur.fd == fd && w->cur.offset + w->cur.len == off &&
	    w->cur.iova + w->cur.len == ms->iova && w->cur.va + w->cur.len == (uintptr_t)ms->addr) {
		w->cur.len += ms->len;
		return 0;
	}
	w->ret = seg_flush(w);
	if (w->ret != 0)
		return -1;
	w->cur.va = (uintptr_t)ms->addr;
	w->cur.iova = ms->iova;
	w->cur.len = ms->len;
	w->cur.offset = off;
	w->cur.fd = fd;
	return 0;
}

static int
sim_register_range(struct mthca_sim *s, uintptr_t lo, uintptr_t hi, bool locked)
{
	struct seg_walk w;

	memset(&w, 0, sizeof(w));
	w.s = s;
	w.lo = lo;
	w.hi = hi;
	if (locked)
		rte_memseg_walk_thread_unsafe(seg_add, &w);
	else
		rte_memseg_walk(seg_add, &w);
	if (w.ret == 0)
		w.ret = seg_flush(&w);
	return w.ret;
}

/* Memory added or removed after probe (memory hotplug lock held). */
static void
sim_mem_event(enum rte_mem_event type, const void *addr, size_t len, void *arg)
{
	struct mthca_sim *s = arg;
	uintptr_t lo = (uintptr_t)addr, hi = lo + len;
	int i;

	pthread_mutex_lock(&s->lock);
	if (type == RTE_MEM_EVENT_ALLOC) {
		if (sim_register_range(s, lo, hi, true) != 0)
			MTHCA_LOG(ERR, "%s: new memory at %p (%zu bytes) is not DMA-mapped",
				  s->dir, addr, len);
	} else {
		for (i = 0; i < SIM_MAX_WINDOWS; i++)
			if (s->win[i].live && s->win[i].va >= lo && s->win[i].va + s->win[i].len <= hi)
				sim_unmap_window(s, &s->win[i]);
	}
	pthread_mutex_unlock(&s->lock);
}

static int
sim_map_bar(const char *dir, const char *name, volatile uint8_t **va, size_t *len)
{
	char path[PATH_MAX + 16];
	struct stat st;
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		MTHCA_LOG(ERR, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) != 0 || st.st_size == 0) {
		MTHCA_LOG(ERR, "%s: empty BAR file", path);
		close(fd);
		return -EIO;
	}
	p = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		MTHCA_LOG(ERR, "%s: mmap: %s", path, strerror(errno));
		return -errno;
	}
	*va = p;
	*len = st.st_size;
	return 0;
}

/*
 * The socket closes only when ibfabric goes away: to the host that is the
 * device falling off the bus (a surprise removal). Replies to our own
 * requests are read synchronously under s->lock, so only an EOF is seen
 * here (MSG_PEEK).
 */
static void
sim_hangup(void *arg)
{
	struct mthca_sim *s = arg;
	char c;
	ssize_t n;

	if (pthread_mutex_trylock(&s->lock) != 0)
		return;		/* a request is on the wire: look again next time */
	n = recv(s->sock, &c, 1, MSG_PEEK | MSG_DONTWAIT);
	pthread_mutex_unlock(&s->lock);
	if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EINTR)))
		return;
	MTHCA_LOG(ERR, "%s: %s/%s closed: the device is gone", s->dev->name, s->dir,
		  SIM_SOCK_NAME);
	rte_intr_callback_unregister_pending(s->hup, sim_hangup, s, NULL);
	s->hup_registered = false;
	s->dev->ev->gone(s->dev);
}

int
mthca_sim_open(struct mthca_dev *dev)
{
	struct sockaddr_un sa;
	struct mthca_sim *s;
	int ret;

	s = rte_zmalloc("mthca_sim", sizeof(*s), 0);
	if (s == NULL)
		return -ENOMEM;
	s->sock = -1;
	s->dev = dev;
	pthread_mutex_init(&s->lock, NULL);
	sim_dir(dev->pci, s->dir, sizeof(s->dir));
	dev->sim = s;

	ret = sim_map_bar(s->dir, "resource0", &dev->bar0, &dev->bar0_len);
	if (ret != 0)
		goto err;
	ret = sim_map_bar(s->dir, "resource2", &dev->bar2, &dev->bar2_len);
	if (ret != 0)
		goto err;

	s->sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s->sock < 0) {
		ret = -errno;
		goto err;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if ((size_t)snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%s", s->dir,
			     SIM_SOCK_NAME) >= sizeof(sa.sun_path)) {
		MTHCA_LOG(ERR, "%s/%s: path too long for a UNIX socket", s->dir, SIM_SOCK_NAME);
		ret = -ENAMETOOLONG;
		goto err;
	}
	if (connect(s->sock, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		ret = -errno;
		MTHCA_LOG(ERR, "%s: %s", sa.sun_path, strerror(errno));
		goto err;
	}

	/* every memseg now, later ones from the callback (IOVAs = DPDK's) */
	rte_mcfg_mem_read_lock();
	pthread_mutex_lock(&s->lock);
	ret = sim_register_range(s, 0, 0, true);
	pthread_mutex_unlock(&s->lock);
	if (ret == 0) {
		snprintf(s->cb_name, sizeof(s->cb_name), "mthca_%.48s", dev->name);
		if (rte_mem_event_callback_register(s->cb_name, sim_mem_event, s) == 0)
			s->cb_registered = true;
		else if (rte_errno != ENOTSUP)
			ret = -rte_errno;
	}
	rte_mcfg_mem_read_unlock();
	if (ret != 0)
		goto err;
	s->hup = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_SHARED);
	if (s->hup == NULL || rte_intr_type_set(s->hup, RTE_INTR_HANDLE_EXT) != 0 ||
	    rte_intr_fd_set(s->hup, s->sock) != 0 ||
	    rte_intr_callback_register(s->hup, sim_hangup, s) != 0) {
		ret = -ENOMEM;
		goto err;
	}
	s->hup_registered = true;
	MTHCA_LOG(INFO, "%s: simulated function %s, BAR0 %zu bytes, BAR2 %zu bytes", dev->name,
		  s->dir, dev->bar0_len, dev->bar2_len);
	return 0;
err:
	mthca_sim_close(dev);
	return ret;
}

int
mthca_sim_get_irq(struct mthca_dev *dev, uint32_t vector)
{
	struct mthca_sim *s = dev->sim;
	struct sim_get_irq m;
	int fd = -1, ret;

	memset(&m, 0, sizeof(m));
	m.hdr.type = SIM_GET_IRQ;
	m.vector = vector;
	pthread_mutex_lock(&s->lock);
	ret = sim_transact(s, &m, sizeof(m), -1, &fd);
	pthread_mutex_unlock(&s->lock);
	if (ret != 0) {
		if (fd >= 0)
			close(fd);
		MTHCA_LOG(ERR, "%s: GET_IRQ vector %u: %s", s->dir, vector, strerror(-ret));
		return ret;
	}
	return fd >= 0 ? fd : -EPROTO;
}

void
mthca_sim_close(struct mthca_dev *dev)
{
	struct mthca_sim *s = dev->sim;
	int i;

	if (s == NULL)
		return;
	if (s->hup_registered)
		while (rte_intr_callback_unregister(s->hup, sim_hangup, s) == -EAGAIN)
			usleep(1000);
	rte_intr_instance_free(s->hup);
	if (s->cb_registered)
		rte_mem_event_callback_unregister(s->cb_name, s);
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < SIM_MAX_WINDOWS; i++)
		if (s->win[i].live && s->sock >= 0)
			sim_unmap_window(s, &s->win[i]);
	pthread_mutex_unlock(&s->lock);
	if (s->sock >= 0)
		close(s->sock);
	if (dev->bar0 != NULL)
		munmap((void *)(uintptr_t)dev->bar0, dev->bar0_len);
	if (dev->bar2 != NULL)
		munmap((void *)(uintptr_t)dev->bar2, dev->bar2_len);
	dev->bar0 = dev->bar2 = NULL;
	pthread_mutex_destroy(&s->lock);
	rte_free(s);
	dev->sim = NULL;
}
