/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: the PCI function as a host finds it. The sysfs-shaped
 * directory ibfabric publishes (vendor, device, class, resource,
 * resource0/resource2 BAR files), the BAR mmaps, the IOMMU/MSI-X socket
 * (the only non-hardware channel: DMA windows in, eventfds out) and one
 * memfd that serves as all of this host's DMA memory.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "hh.h"
#include "hh_iommu.h"

int hh_verbose;

const char *
hh_style_name(enum hh_style s)
{
	return s == HH_STYLE_IPXE ? "ipxe" : "linux";
}

int
hh_style_parse(const char *name, enum hh_style *s)
{
	if (strcmp(name, "linux") == 0)
		*s = HH_STYLE_LINUX;
	else if (strcmp(name, "ipxe") == 0)
		*s = HH_STYLE_IPXE;
	else
		return -EINVAL;
	return 0;
}

/* IOVA of the arena: far from 0 so a stray small address is a DMA fault. */
#define HH_DMA_IOVA	0x0000004000000000ull

static int
read_hex_file(const char *dir, const char *name, unsigned long *v)
{
	char path[PATH_MAX + 32], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	*v = strtoul(buf, NULL, 0);
	return 0;
}

static int
map_bar(const char *dir, const char *name, volatile uint8_t **va, size_t *len)
{
	char path[PATH_MAX + 32];
	struct stat st;
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || st.st_size == 0) {
		close(fd);
		return -EIO;
	}
	p = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	*va = p;
	*len = st.st_size;
	return 0;
}

int
hh_open(struct hh_dev *d, const char *pci_dir, size_t dma_size)
{
	struct sockaddr_un sa;
	unsigned long vendor, device, cls;
	enum hh_style style = d->style;
	uint32_t bugs = d->bugs;
	int ret, i;

	memset(d, 0, sizeof(*d));
	d->style = style;
	d->bugs = bugs;
	d->sock = -1;
	d->dma_fd = -1;
	for (i = 0; i < HH_NUM_EQ; i++)
		d->eq[i].irq_fd = -1;
	snprintf(d->dir, sizeof(d->dir), "%s", pci_dir);

	if (read_hex_file(pci_dir, "vendor", &vendor) != 0 ||
	    read_hex_file(pci_dir, "device", &device) != 0 ||
	    read_hex_file(pci_dir, "class", &cls) != 0) {
		HH_ERR("%s: no vendor/device/class files", pci_dir);
		return -ENODEV;
	}
	if (vendor != HH_PCI_VENDOR || device != HH_PCI_DEVICE_ARBEL || cls != HH_PCI_CLASS) {
		HH_ERR("%s: %04lx:%04lx class %06lx is not an MT25208", pci_dir, vendor, device, cls);
		return -ENODEV;
	}
	ret = map_bar(pci_dir, "resource0", &d->bar0, &d->bar0_len);
	if (ret != 0) {
		HH_ERR("%s/resource0: %s", pci_dir, strerror(-ret));
		return ret;
	}
	if (d->bar0_len != HH_BAR0_SIZE) {
		/* __mthca_init_one(): Linux rejects any other size ("Missing DCS") */
		HH_ERR("BAR0 is %zu bytes, not 1 MiB", d->bar0_len);
		return -ENODEV;
	}
	ret = map_bar(pci_dir, "resource2", &d->bar2, &d->bar2_len);
	if (ret != 0) {
		HH_ERR("%s/resource2: %s", pci_dir, strerror(-ret));
		return ret;
	}

	d->sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (d->sock < 0)
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%s", pci_dir, HH_IOMMU_SOCK_NAME);
	if (connect(d->sock, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		ret = -errno;
		HH_ERR("%s: %s", sa.sun_path, strerror(errno));
		return ret;
	}

	d->dma_fd = memfd_create("hca_host-dma", MFD_CLOEXEC);
	if (d->dma_fd < 0)
		return -errno;
	if (ftruncate(d->dma_fd, dma_size) != 0)
		return -errno;
	d->dma_va = mmap(NULL, dma_size, PROT_READ | PROT_WRITE, MAP_SHARED, d->dma_fd, 0);
	if (d->dma_va == MAP_FAILED) {
		d->dma_va = NULL;
		return -errno;
	}
	d->dma_size = dma_size;
	d->dma_iova = HH_DMA_IOVA;
	ret = hh_iommu_map(d, d->dma_fd, d->dma_iova, dma_size, 0);
	if (ret != 0) {
		HH_ERR("IOMMU MAP of %zu bytes at iova 0x%llx: %s", dma_size,
		       (unsigned long long)d->dma_iova, strerror(-ret));
		return ret;
	}
	if (hh_dma_alloc(d, HH_MAILBOX_SIZE, HH_MAILBOX_SIZE, &d->mbox_in) != 0 ||
	    hh_dma_alloc(d, HH_MAILBOX_SIZE, HH_MAILBOX_SIZE, &d->mbox_out) != 0)
		return -ENOMEM;
	return 0;
}

int
hh_attach_mem(struct hh_dev *d, uint8_t *bar0, uint8_t *bar2, size_t bar2_len,
	      uint8_t *dma_va, uint64_t dma_iova, size_t dma_size)
{
	void (*idle)(void *) = d->idle;
	void *arg = d->idle_arg;
	int (*get_irq)(void *, uint32_t) = d->get_irq;
	enum hh_style style = d->style;
	uint32_t bugs = d->bugs;
	int i;

	memset(d, 0, sizeof(*d));
	d->style = style;
	d->bugs = bugs;
	d->idle = idle;
	d->idle_arg = arg;
	d->get_irq = get_irq;
	d->sock = -1;
	d->dma_fd = -1;
	for (i = 0; i < HH_NUM_EQ; i++)
		d->eq[i].irq_fd = -1;
	snprintf(d->dir, sizeof(d->dir), "(in-process)");
	d->bar0 = bar0;
	d->bar0_len = HH_BAR0_SIZE;
	d->bar2 = bar2;
	d->bar2_len = bar2_len;
	d->dma_va = dma_va;
	d->dma_iova = dma_iova;
	d->dma_size = dma_size;
	d->in_process = true;
	if (hh_dma_alloc(d, HH_MAILBOX_SIZE, HH_MAILBOX_SIZE, &d->mbox_in) != 0 ||
	    hh_dma_alloc(d, HH_MAILBOX_SIZE, HH_MAILBOX_SIZE, &d->mbox_out) != 0)
		return -ENOMEM;
	return 0;
}

void
hh_idle(struct hh_dev *d, unsigned int spins)
{
	if (d->idle != NULL) {
		d->idle(d->idle_arg);
		return;
	}
	if (spins > 1000) {
		struct timespec ts = { 0, 20000 };

		nanosleep(&ts, NULL);
	}
}

void
hh_close(struct hh_dev *d)
{
	int i;

	for (i = 0; i < HH_NUM_EQ; i++)
		if (d->eq[i].irq_fd >= 0)
			close(d->eq[i].irq_fd);
	if (d->in_process) {
		d->bar0 = d->bar2 = NULL;
		d->dma_va = NULL;
		return;
	}
	if (d->sock >= 0)
		close(d->sock);
	if (d->dma_va != NULL)
		munmap(d->dma_va, d->dma_size);
	if (d->dma_fd >= 0)
		close(d->dma_fd);
	if (d->bar0 != NULL)
		munmap((void *)d->bar0, d->bar0_len);
	if (d->bar2 != NULL)
		munmap((void *)d->bar2, d->bar2_len);
	d->sock = d->dma_fd = -1;
	d->dma_va = NULL;
	d->bar0 = d->bar2 = NULL;
}

int
hh_dma_alloc(struct hh_dev *d, size_t len, size_t align, struct hh_buf *b)
{
	size_t off = (d->dma_used + align - 1) & ~(align - 1);

	if (off + len > d->dma_size) {
		HH_ERR("DMA arena exhausted (%zu + %zu > %zu)", off, len, d->dma_size);
		return -ENOMEM;
	}
	d->dma_used = off + len;
	b->va = d->dma_va + off;
	b->iova = d->dma_iova + off;
	b->len = len;
	memset(b->va, 0, len);
	return 0;
}

/* ---- BAR access: 32-bit big-endian, as the hardware requires ---------- */

uint32_t
hh_bar0_read32(struct hh_dev *d, uint32_t off)
{
	uint32_t v = *(volatile uint32_t *)(d->bar0 + off);

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return be32toh(v);
}

void
hh_bar0_write32(struct hh_dev *d, uint64_t off, uint32_t v)
{
	if (off + 4 > d->bar0_len) {
		/* outside the BAR: on a PCI bus a master abort, the write is lost */
		d->dropped_writes++;
		return;
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	*(volatile uint32_t *)(d->bar0 + off) = htobe32(v);
}

uint64_t
hh_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* How long an iPXE-style send doorbell waits for the model to take another QP's. */
#define IPXE_SLOT_WAIT_US	100000

/*
 * iPXE rings every queue on its one UAR page (arbel.c). Silicon takes each
 * doorbell write as it arrives; the model polls the page as shared memory,
 * so another QP's doorbell written over one it has not taken yet would be
 * lost, its send never completed (doc/guides/nics/mthca_hw.rst, "A UAR page
 * shared by several queues"). iPXE rings one queue at a time; this host
 * also answers the SM from QP0/QP1 on the same page while a test send may
 * still be in the slot, so before a send doorbell it waits, boundedly, until
 * the model has taken a pending one of another QP (the model clears the
 * slot's second word once it has acted). A doorbell the model refused stays
 * in the slot: the bound lets the host go on, as the fault tests expect.
 */
static void
ipxe_send_slot_wait(volatile uint8_t *db, uint32_t lo)
{
	const struct timespec nap = { .tv_sec = 0, .tv_nsec = 10000 };
	uint64_t end = hh_now_us() + IPXE_SLOT_WAIT_US;
	uint32_t pending;

	for (;;) {
		pending = be32toh(__atomic_load_n((volatile uint32_t *)(db + 4),
						  __ATOMIC_ACQUIRE));
		if (pending == 0 || pending >> 8 == lo >> 8)
			return;	/* free, or our own QP's: a later doorbell covers it */
		if (hh_now_us() > end)
			return;
		nanosleep(&nap, NULL);
	}
}

void
hh_uar_write64(struct hh_dev *d, uint32_t uar, uint32_t off, uint32_t hi, uint32_t lo)
{
	volatile uint8_t *db = d->bar2 + (size_t)uar * HH_UAR_PAGE + off;

	if (d->style == HH_STYLE_IPXE && off == HH_UAR_SEND)
		ipxe_send_slot_wait(db, lo);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (d->style == HH_STYLE_IPXE) {
		/* arbel_ring_doorbell(): two 32-bit stores, the first word first */
		*(volatile uint32_t *)db = htobe32(hi);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		*(volatile uint32_t *)(db + 4) = htobe32(lo);
	} else {
		/* mthca_write64(): one 64-bit store, high word first in memory,
		 * after the barrier that orders WQEs and records before it */
		*(volatile uint64_t *)db = htobe64(((uint64_t)hi << 32) | lo);
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}
