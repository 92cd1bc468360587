/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The PCI function of an active HCA (see pcisim.h for the layout and the
 * socket protocol). DPDK 22.11's PCI scan reads vendor, device,
 * subsystem_vendor, subsystem_device, class, numa_node, resource and the
 * driver link; a driver that does not ask for mapping is probed without
 * touching the BARs. resource0/resource2 live in /dev/shm so that the
 * host's MAP_SHARED mappings and the model's are the same pages.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "fab_log.h"
#include "fab_node.h"
#include "fabric.h"
#include "mt25208.h"
#include "pcisim.h"

#define PCISIM_DRIVER		"ibfabric-sim"
/* Made-up bus addresses of the BARs, one 256 MiB slot per bus. */
#define PCISIM_BAR_BASE		0x0000003800000000ull
#define PCISIM_BAR2_OFF		0x08000000ull
/* Kernel resource flags: IORESOURCE_MEM | MEM_64 | SIZEALIGN (+ PREFETCH), low BAR bits. */
#define PCISIM_RES_MEM64	0x00140204ull
#define PCISIM_RES_MEM64_PREF	0x0014220cull

struct pcisim_fn {
	struct fabric *f;
	struct mt25208 *dev;
	char root[PATH_MAX];
	char dir[PATH_MAX];
	char bar_path[2][PATH_MAX];	/* /dev/shm files of BAR0, BAR2 */
	uint8_t *bar[2];
	size_t bar_len[2];
	int lfd;
	int cfd;
	unsigned int bus;
};

/* ------------------------------------------------------------------ */
/* The directory                                                       */

static int
write_file(const char *dir, const char *name, const void *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *fp;
	int rc = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fp = fopen(path, "w");
	if (fp == NULL)
		return -errno;
	if (fwrite(buf, 1, len, fp) != len)
		rc = -EIO;
	if (fclose(fp) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

static int
write_str(const char *dir, const char *name, const char *s)
{
	return write_file(dir, name, s, strlen(s));
}

static int
mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	char *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Type-0 configuration header (PCI Local Bus 3.0, 6.1), little-endian. */
static void
config_space(uint8_t *cfg, uint64_t bar0, uint64_t bar2)
{
	memset(cfg, 0, 256);
	cfg[0x00] = MT_PCI_VENDOR_MELLANOX & 0xff;
	cfg[0x01] = MT_PCI_VENDOR_MELLANOX >> 8;
	cfg[0x02] = MT_PCI_DEVICE_ARBEL & 0xff;
	cfg[0x03] = MT_PCI_DEVICE_ARBEL >> 8;
	cfg[0x04] = 0x06;			/* memory space, bus master */
	cfg[0x08] = MT_PCI_REVISION;
	cfg[0x09] = MT_PCI_CLASS_IB & 0xff;
	cfg[0x0a] = (MT_PCI_CLASS_IB >> 8) & 0xff;
	cfg[0x0b] = MT_PCI_CLASS_IB >> 16;
	/* BAR0: 64-bit memory; BAR2: 64-bit prefetchable memory. */
	cfg[0x10] = (uint8_t)(bar0 | 0x4);
	cfg[0x11] = (uint8_t)(bar0 >> 8);
	cfg[0x12] = (uint8_t)(bar0 >> 16);
	cfg[0x13] = (uint8_t)(bar0 >> 24);
	cfg[0x14] = (uint8_t)(bar0 >> 32);
	cfg[0x15] = (uint8_t)(bar0 >> 40);
	cfg[0x18] = (uint8_t)(bar2 | 0xc);
	cfg[0x19] = (uint8_t)(bar2 >> 8);
	cfg[0x1a] = (uint8_t)(bar2 >> 16);
	cfg[0x1b] = (uint8_t)(bar2 >> 24);
	cfg[0x1c] = (uint8_t)(bar2 >> 32);
	cfg[0x1d] = (uint8_t)(bar2 >> 40);
	cfg[0x2c] = MT_PCI_VENDOR_MELLANOX & 0xff;
	cfg[0x2d] = MT_PCI_VENDOR_MELLANOX >> 8;
	cfg[0x2e] = MT_PCI_SUBSYS_DEVICE & 0xff;
	cfg[0x2f] = MT_PCI_SUBSYS_DEVICE >> 8;
	cfg[0x3d] = 1;				/* INTA# */
}

static int
write_identity(struct pcisim_fn *fn)
{
	uint64_t bar0 = PCISIM_BAR_BASE + ((uint64_t)fn->bus << 28);
	uint64_t bar2 = bar0 + PCISIM_BAR2_OFF;
	char res[7 * 64], buf[32];
	uint8_t cfg[256];
	size_t n = 0;
	unsigned int i;
	int rc;

	snprintf(buf, sizeof(buf), "0x%04x\n", MT_PCI_VENDOR_MELLANOX);
	rc = write_str(fn->dir, "vendor", buf);
	rc = rc ? rc : write_str(fn->dir, "subsystem_vendor", buf);
	snprintf(buf, sizeof(buf), "0x%04x\n", MT_PCI_DEVICE_ARBEL);
	rc = rc ? rc : write_str(fn->dir, "device", buf);
	snprintf(buf, sizeof(buf), "0x%04x\n", MT_PCI_SUBSYS_DEVICE);
	rc = rc ? rc : write_str(fn->dir, "subsystem_device", buf);
	snprintf(buf, sizeof(buf), "0x%06x\n", MT_PCI_CLASS_IB);
	rc = rc ? rc : write_str(fn->dir, "class", buf);
	snprintf(buf, sizeof(buf), "0x%02x\n", MT_PCI_REVISION);
	rc = rc ? rc : write_str(fn->dir, "revision", buf);
	rc = rc ? rc : write_str(fn->dir, "numa_node", "0\n");
	if (rc != 0)
		return rc;
	/* resource: 6 BARs + ROM, "0x%016llx 0x%016llx 0x%016llx" as the kernel prints. */
	for (i = 0; i < 7; i++) {
		uint64_t s = 0, e = 0, fl = 0;

		if (i == 0) {
			s = bar0;
			e = bar0 + MT_BAR0_SIZE - 1;
			fl = PCISIM_RES_MEM64;
		} else if (i == 2) {
			s = bar2;
			e = bar2 + fn->bar_len[1] - 1;
			fl = PCISIM_RES_MEM64_PREF;
		}
		n += (size_t)snprintf(res + n, sizeof(res) - n,
				      "0x%016" PRIx64 " 0x%016" PRIx64 " 0x%016" PRIx64 "\n",
				      s, e, fl);
	}
	rc = write_file(fn->dir, "resource", res, n);
	if (rc != 0)
		return rc;
	config_space(cfg, bar0, bar2);
	return write_file(fn->dir, "config", cfg, sizeof(cfg));
}

static int
make_bar(struct pcisim_fn *fn, unsigned int i, size_t len, const char *link)
{
	char lpath[PATH_MAX];
	int fd, rc;

	snprintf(fn->bar_path[i], sizeof(fn->bar_path[i]), "/dev/shm/ibfabric-%d-%02x-%s",
		 (int)getpid(), fn->bus, link);
	fd = open(fn->bar_path[i], O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = -errno;
		fn->bar_path[i][0] = '\0';
		return rc;
	}
	if (ftruncate(fd, (off_t)len) != 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	fn->bar[i] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (fn->bar[i] == MAP_FAILED) {
		fn->bar[i] = NULL;
		return -errno;
	}
	fn->bar_len[i] = len;
	if (snprintf(lpath, sizeof(lpath), "%s/%s", fn->dir, link) >= (int)sizeof(lpath))
		return -ENAMETOOLONG;
	if (symlink(fn->bar_path[i], lpath) != 0)
		return -errno;
	return 0;
}

static int
make_socket(struct pcisim_fn *fn)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/iommu.sock", fn->dir) >=
	    (int)sizeof(sa.sun_path)) {
		FAB_ERR("%s: IOMMU socket path %s/iommu.sock longer than %zu bytes",
			fn->dev->node->name, fn->dir, sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	fn->lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fn->lfd < 0)
		return -errno;
	unlink(sa.sun_path);
	if (bind(fn->lfd, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(fn->lfd, 4) != 0)
		return -errno;
	return 0;
}

static void
unlink_in(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) < (int)sizeof(path))
		unlink(path);
}

static const char *const pcisim_files[] = {
	"vendor", "device", "subsystem_vendor", "subsystem_device", "class",
	"revision", "numa_node", "resource", "config", "driver", "resource0",
	"resource2", "iommu.sock",
};

/*
 * The function's directory exists: left behind by an ibfabric that was
 * killed (its socket refuses connections), or in use by a live one.
 * Remove a stale one's files (and the /dev/shm files its BAR links name)
 * and take the directory over; refuse a live one with -EADDRINUSE.
 */
static int
reuse_stale(struct pcisim_fn *fn, const struct fab_node *node)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char path[PATH_MAX], target[PATH_MAX];
	unsigned int i;
	ssize_t n;
	int fd, live;

	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/iommu.sock", fn->dir) >=
	    (int)sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	live = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	if (live)
		return -EADDRINUSE;
	for (i = 0; i < 2; i++) {
		if (snprintf(path, sizeof(path), "%s/resource%u", fn->dir, 2 * i) >=
		    (int)sizeof(path))
			continue;
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			if (strncmp(target, "/dev/shm/ibfabric-", 18) == 0)
				unlink(target);
		}
	}
	for (i = 0; i < sizeof(pcisim_files) / sizeof(pcisim_files[0]); i++)
		unlink_in(fn->dir, pcisim_files[i]);
	FAB_INFO("%s: reusing the stale PCI function directory %s", node->name, fn->dir);
	return 0;
}

void
pcisim_destroy(struct pcisim_fn *fn)
{
	char path[PATH_MAX];
	unsigned int i;

	if (fn == NULL)
		return;
	if (fn->cfd >= 0)
		close(fn->cfd);
	if (fn->lfd >= 0)
		close(fn->lfd);
	if (fn->dev != NULL) {
		fn->dev->node->hca = NULL;
		mt25208_free(fn->dev);
	}
	for (i = 0; i < 2; i++) {
		if (fn->bar[i] != NULL)
			munmap(fn->bar[i], fn->bar_len[i]);
		if (fn->bar_path[i][0] != '\0')
			unlink(fn->bar_path[i]);
	}
	if (fn->dir[0] != '\0') {
		for (i = 0; i < sizeof(pcisim_files) / sizeof(pcisim_files[0]); i++)
			unlink_in(fn->dir, pcisim_files[i]);
		rmdir(fn->dir);
	}
	/* The shared driver directory and the root go with the last function. */
	if (snprintf(path, sizeof(path), "%s/drivers/" PCISIM_DRIVER, fn->root) <
	    (int)sizeof(path))
		rmdir(path);
	if (snprintf(path, sizeof(path), "%s/drivers", fn->root) < (int)sizeof(path))
		rmdir(path);
	rmdir(fn->root);
	free(fn);
}

struct pcisim_fn *
pcisim_create(struct fabric *f, struct fab_node *node, const char *root, unsigned int bus)
{
	char drv[PATH_MAX], link[PATH_MAX];
	struct pcisim_fn *fn;
	int rc;

	if (f == NULL || node == NULL || root == NULL || bus > 0xff) {
		errno = EINVAL;
		return NULL;
	}
	fn = calloc(1, sizeof(*fn));
	if (fn == NULL)
		return NULL;
	fn->f = f;
	fn->lfd = -1;
	fn->cfd = -1;
	fn->bus = bus;
	snprintf(fn->root, sizeof(fn->root), "%s", root);
	rc = mkdir_p(root);
	if (rc != 0)
		goto err;
	if (snprintf(drv, sizeof(drv), "%s/drivers/" PCISIM_DRIVER, root) >= (int)sizeof(drv) ||
	    snprintf(fn->dir, sizeof(fn->dir), "%s/0000:%02x:00.0", root, bus) >=
	    (int)sizeof(fn->dir)) {
		rc = -ENAMETOOLONG;
		goto err;
	}
	rc = mkdir_p(drv);
	if (rc == 0 && mkdir(fn->dir, 0755) != 0) {
		rc = -errno;
		if (rc == -EEXIST)
			rc = reuse_stale(fn, node);
	}
	if (rc != 0) {
		fn->dir[0] = '\0';	/* not ours: leave it alone */
		goto err;
	}
	rc = make_bar(fn, 0, MT_BAR0_SIZE, "resource0");
	if (rc == 0)
		rc = make_bar(fn, 1, MT_BAR2_SIZE, "resource2");
	if (rc != 0)
		goto err;
	rc = write_identity(fn);
	if (rc != 0)
		goto err;
	if (snprintf(link, sizeof(link), "%s/driver", fn->dir) >= (int)sizeof(link)) {
		rc = -ENAMETOOLONG;
		goto err;
	}
	if (symlink(drv, link) != 0) {
		rc = -errno;
		goto err;
	}
	fn->dev = mt25208_new(f, node, fn->bar[0], fn->bar[1], fn->bar_len[1]);
	if (fn->dev == NULL) {
		rc = -errno;
		goto err;
	}
	fn->dev->pci = fn;
	node->hca = fn->dev;
	rc = make_socket(fn);
	if (rc != 0)
		goto err;
	FAB_INFO("%s: MT25208 PCI function %s", node->name, fn->dir);
	return fn;
err:
	FAB_ERR("%s: cannot publish the PCI function under %s: %s", node->name, root,
		strerror(-rc));
	pcisim_destroy(fn);
	errno = -rc;
	return NULL;
}

struct mt25208 *
pcisim_dev(struct pcisim_fn *fn)
{
	return fn->dev;
}

const char *
pcisim_dir(const struct pcisim_fn *fn)
{
	return fn->dir;
}

int
pcisim_listen_fd(const struct pcisim_fn *fn)
{
	return fn->lfd;
}

int
pcisim_conn_fd(const struct pcisim_fn *fn)
{
	return fn->cfd;
}

int
pcisim_accept(struct pcisim_fn *fn)
{
	int fd = accept4(fn->lfd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fn->cfd >= 0) {
		/* Said before the close, so that it is not "Broken pipe". */
		struct pcisim_reply r = {
			.hdr = { .version = PCISIM_PROTO_VERSION,
				 .type = PCISIM_MSG_BUSY | PCISIM_MSG_REPLY },
			.status = -EBUSY,
		};

		FAB_ERR("%s: a host is already attached; refusing a second one",
			fn->dev->node->name);
		if (send(fd, &r, sizeof(r), MSG_DONTWAIT | MSG_NOSIGNAL) != (ssize_t)sizeof(r))
			FAB_DBG("%s: busy notice not sent: %s", fn->dev->node->name,
				  strerror(errno));
		close(fd);
		return -1;
	}
	fn->cfd = fd;
	fn->dev->stats.hosts++;
	FAB_INFO("%s: host attached", fn->dev->node->name);
	return fd;
}

/* ------------------------------------------------------------------ */
/* Messages                                                            */

static void
send_reply(struct pcisim_fn *fn, const struct pcisim_hdr *req, int32_t status, int pass_fd)
{
	struct pcisim_reply r;
	struct iovec iov = { .iov_base = &r, .iov_len = sizeof(r) };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	memset(&r, 0, sizeof(r));
	r.hdr.version = PCISIM_PROTO_VERSION;
	r.hdr.type = (uint16_t)(req->type | PCISIM_MSG_REPLY);
	r.hdr.seq = req->seq;
	r.status = status;
	if (pass_fd >= 0) {
		memset(&cm, 0, sizeof(cm));
		mh.msg_control = cm.buf;
		mh.msg_controllen = sizeof(cm.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
	}
	if (sendmsg(fn->cfd, &mh, MSG_NOSIGNAL) != (ssize_t)sizeof(r))
		FAB_ERR("%s: IOMMU socket: reply not sent: %s", fn->dev->node->name,
			strerror(errno));
}

static int32_t
msg_map(struct pcisim_fn *fn, const struct pcisim_map *m, size_t len, int fd)
{
	struct stat st;
	void *p;
	int rc;

	if (len < sizeof(*m) || fd < 0) {
		FAB_ERR("%s: IOMMU MAP: %zu bytes, fd %s", fn->dev->node->name, len,
			fd < 0 ? "missing" : "present");
		return -EINVAL;
	}
	if (m->len == 0 || (m->len & 4095) || (m->offset & 4095) || (m->iova & 4095)) {
		FAB_ERR("%s: IOMMU MAP: iova 0x%" PRIx64 " len 0x%" PRIx64 " offset 0x%" PRIx64
			": each must be a multiple of 4096, len non-zero", fn->dev->node->name,
			m->iova, m->len, m->offset);
		return -EINVAL;
	}
	/*
	 * Pages past the end of the file would raise SIGBUS on the model's
	 * first DMA: refuse a window the file does not back.
	 */
	if (fstat(fd, &st) != 0 || (S_ISREG(st.st_mode) &&
	    (m->offset > (uint64_t)st.st_size || m->len > (uint64_t)st.st_size - m->offset))) {
		FAB_ERR("%s: IOMMU MAP: offset 0x%" PRIx64 " len 0x%" PRIx64
			" beyond the end of the file (0x%llx bytes)", fn->dev->node->name,
			m->offset, m->len, (unsigned long long)st.st_size);
		return -EINVAL;
	}
	/*
	 * Pin, as an IOMMU mapping would: a memfd that allows sealing can no
	 * longer shrink under the model. Files that cannot be sealed
	 * (hugetlbfs) keep the open point written in mthca_hw.rst.
	 */
	(void)fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
	p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m->offset);
	if (p == MAP_FAILED) {
		rc = -errno;
		FAB_ERR("%s: IOMMU MAP: mmap of 0x%" PRIx64 " bytes at offset 0x%" PRIx64
			": %s", fn->dev->node->name, m->len, m->offset, strerror(errno));
		return rc;
	}
	rc = mt25208_dma_map(fn->dev, m->iova, m->len, p, p, m->len);
	if (rc != 0) {
		FAB_ERR("%s: IOMMU MAP: iova 0x%" PRIx64 " len 0x%" PRIx64 ": %s",
			fn->dev->node->name, m->iova, m->len, strerror(-rc));
		munmap(p, m->len);
	}
	return rc;
}

static int32_t
msg_get_irq(struct pcisim_fn *fn, const struct pcisim_get_irq *m, size_t len, int *out)
{
	int *slot;

	if (len < sizeof(*m))
		return -EINVAL;
	if (m->vector == PCISIM_IRQ_INTX) {
		slot = &fn->dev->intx_fd;
	} else if (m->vector < MT25208_MAX_VECTORS) {
		slot = &fn->dev->vec_fd[m->vector];
	} else {
		FAB_ERR("%s: IOMMU GET_IRQ: vector %u (0..%u or INTx)", fn->dev->node->name,
			m->vector, MT25208_MAX_VECTORS - 1);
		return -EINVAL;
	}
	if (*slot < 0) {
		*slot = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (*slot < 0)
			return -errno;
	}
	*out = *slot;
	return 0;
}

static void
host_gone(struct pcisim_fn *fn)
{
	close(fn->cfd);
	fn->cfd = -1;
	mt25208_host_gone(fn->dev);
}

int
pcisim_conn_ready(struct pcisim_fn *fn)
{
	union {
		struct pcisim_hdr hdr;
		struct pcisim_map map;
		struct pcisim_unmap unmap;
		struct pcisim_get_irq irq;
		uint8_t raw[256];
	} msg;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(4 * sizeof(int))];
	} cm;
	struct iovec iov = { .iov_base = &msg, .iov_len = sizeof(msg) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cm.buf, .msg_controllen = sizeof(cm.buf),
	};
	struct cmsghdr *c;
	int fds[4], nfd = 0, irq_fd = -1, i;
	int32_t st;
	ssize_t n;

	if (fn->cfd < 0)
		return -1;
	n = recvmsg(fn->cfd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		host_gone(fn);
		return -1;
	}
	for (c = CMSG_FIRSTHDR(&mh); c != NULL; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));

			for (i = 0; i < k && nfd < 4; i++)
				memcpy(&fds[nfd++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
		}
	if ((size_t)n < sizeof(msg.hdr)) {
		FAB_ERR("%s: IOMMU socket: %zd-byte message, header is %zu",
			fn->dev->node->name, n, sizeof(msg.hdr));
		st = -EINVAL;
		memset(&msg.hdr, 0, sizeof(msg.hdr));
	} else if (msg.hdr.version != PCISIM_PROTO_VERSION) {
		FAB_ERR("%s: IOMMU socket: protocol version %u, this is %u",
			fn->dev->node->name, msg.hdr.version, PCISIM_PROTO_VERSION);
		st = -EPROTO;
	} else {
		switch (msg.hdr.type) {
		case PCISIM_MSG_MAP:
			st = msg_map(fn, &msg.map, (size_t)n, nfd > 0 ? fds[0] : -1);
			break;
		case PCISIM_MSG_UNMAP:
			st = (size_t)n < sizeof(msg.unmap) ? -EINVAL :
			     mt25208_dma_unmap(fn->dev, msg.unmap.iova, msg.unmap.len);
			break;
		case PCISIM_MSG_GET_IRQ:
			st = msg_get_irq(fn, &msg.irq, (size_t)n, &irq_fd);
			break;
		default:
			FAB_ERR("%s: IOMMU socket: message type %u unknown",
				fn->dev->node->name, msg.hdr.type);
			st = -EOPNOTSUPP;
			break;
		}
	}
	for (i = 0; i < nfd; i++)
		close(fds[i]);
	send_reply(fn, &msg.hdr, st, st == 0 ? irq_fd : -1);
	return 0;
}
