/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * hca_host: IOMMU / MSI-X socket client (hh_iommu.h): register DMA
 * windows, fetch interrupt eventfds. Synchronous: one request, one reply.
 */

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hh.h"
#include "hh_iommu.h"

static uint32_t hh_seq;

/* Send @p req (@p len bytes, with @p fd if >= 0), read the reply (and its fd). */
static int
transact(struct hh_dev *d, void *req, size_t len, int fd, int *fd_out)
{
	struct hh_iommu_hdr *h = req;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} cu;
	struct hh_iommu_reply rep;
	struct iovec iov = { req, len };
	struct msghdr mh;
	struct cmsghdr *cm;
	ssize_t n;

	h->version = HH_IOMMU_VERSION;
	h->seq = ++hh_seq;
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
	if (sendmsg(d->sock, &mh, MSG_NOSIGNAL) != (ssize_t)len)
		return -errno;

	memset(&mh, 0, sizeof(mh));
	memset(&cu, 0, sizeof(cu));
	iov.iov_base = &rep;
	iov.iov_len = sizeof(rep);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cu.buf;
	mh.msg_controllen = sizeof(cu.buf);
	n = recvmsg(d->sock, &mh, MSG_CMSG_CLOEXEC);
	if (n < 0)
		return -errno;
	if (n != sizeof(rep) || rep.hdr.version != HH_IOMMU_VERSION ||
	    rep.hdr.type != (h->type | HH_IOMMU_REPLY) || rep.hdr.seq != h->seq) {
		HH_ERR("IOMMU reply: %zd bytes, version %u, type 0x%x, seq %u (sent type %u seq %u)",
		       n, rep.hdr.version, rep.hdr.type, rep.hdr.seq, h->type, h->seq);
		return -EPROTO;
	}
	if (fd_out != NULL) {
		*fd_out = -1;
		for (cm = CMSG_FIRSTHDR(&mh); cm != NULL; cm = CMSG_NXTHDR(&mh, cm))
			if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
				memcpy(fd_out, CMSG_DATA(cm), sizeof(int));
	}
	return rep.status;
}

int
hh_iommu_map(struct hh_dev *d, int fd, uint64_t iova, uint64_t len, uint64_t off)
{
	struct hh_iommu_map m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = HH_IOMMU_MAP;
	m.iova = iova;
	m.len = len;
	m.offset = off;
	return transact(d, &m, sizeof(m), fd, NULL);
}

int
hh_iommu_unmap(struct hh_dev *d, uint64_t iova, uint64_t len)
{
	struct hh_iommu_unmap m;

	memset(&m, 0, sizeof(m));
	m.hdr.type = HH_IOMMU_UNMAP;
	m.iova = iova;
	m.len = len;
	return transact(d, &m, sizeof(m), -1, NULL);
}

int
hh_get_irq(struct hh_dev *d, uint32_t vector)
{
	struct hh_iommu_get_irq m;
	int fd = -1, st;

	memset(&m, 0, sizeof(m));
	m.hdr.type = HH_IOMMU_GET_IRQ;
	m.vector = vector;
	st = transact(d, &m, sizeof(m), -1, &fd);
	if (st != 0) {
		if (fd >= 0)
			close(fd);
		return st;
	}
	return fd >= 0 ? fd : -EPROTO;
}
