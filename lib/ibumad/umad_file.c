/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The semantics of one open umad file, as Linux's user_mad.c gives them
 * (see umad_file.h). Every rule cites the kernel function it follows.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "umad_file.h"

void
umad_file_init(struct umad_file *f, const struct umad_backend_ops *ops,
	       void *port, unsigned int rx_max)
{
	memset(f, 0, sizeof(*f));
	pthread_mutex_init(&f->lock, NULL);
	f->ops = ops;
	f->port = port;
	f->rx_max = rx_max != 0 ? rx_max : UMAD_RXQ_DEFAULT;
	f->chan_fd = -1;
	TAILQ_INIT(&f->rxq);
}

size_t
umad_file_hdr_size(const struct umad_file *f)
{
	return f->pkey_enabled ? UMAD_HDR_SIZE : UMAD_HDR_SIZE_OLD;
}

/* Take every agent out of @f (under the lock) to unregister them outside. */
static unsigned int
take_agents(struct umad_file *f, void **handles)
{
	unsigned int i, n = 0;

	for (i = 0; i < UMAD_MAX_AGENTS; i++) {
		if (f->agents[i] != NULL)
			handles[n++] = f->agents[i];
		f->agents[i] = NULL;
	}
	return n;
}

void
umad_file_shutdown(struct umad_file *f)
{
	void *handles[UMAD_MAX_AGENTS];
	struct umad_msg *m;
	unsigned int i, n;

	pthread_mutex_lock(&f->lock);
	f->closed = true;
	n = take_agents(f, handles);
	pthread_mutex_unlock(&f->lock);
	/* Linux ib_umad_close(): agents go first, so nothing is delivered after. */
	for (i = 0; i < n; i++)
		f->ops->agent_unregister(f->port, handles[i]);
	pthread_mutex_lock(&f->lock);
	while ((m = TAILQ_FIRST(&f->rxq)) != NULL) {
		TAILQ_REMOVE(&f->rxq, m, next);
		free(m);
	}
	f->rx_count = 0;
	f->chan_fd = -1;
	pthread_mutex_unlock(&f->lock);
}

void
umad_file_close(struct umad_file *f)
{
	umad_file_shutdown(f);
	pthread_mutex_destroy(&f->lock);
}

/* Copy a message's header in the file's layout into @out. */
static void
put_hdr(const struct umad_file *f, const struct umad_msg *m, void *out)
{
	memcpy(out, &m->hdr, umad_file_hdr_size(f));
}

/*
 * Register an agent in a free slot (Linux ib_umad_reg_agent() and
 * ib_umad_reg_agent2()). Called with the lock held; drops it around the
 * backend call and takes the slot first so that a concurrent
 * registration cannot take it too.
 */
static int
reg_agent(struct umad_file *f, const struct umad_reg *reg, uint32_t *id)
{
	void *handle = NULL;
	unsigned int slot;
	int rc;

	if (reg->qpn != 0 && reg->qpn != 1)
		return -EINVAL;
	for (slot = 0; slot < UMAD_MAX_AGENTS; slot++)
		if (f->agents[slot] == NULL)
			break;
	if (slot == UMAD_MAX_AGENTS)
		return -ENOMEM;
	f->agents[slot] = (void *)(uintptr_t)1; /* reserved */
	pthread_mutex_unlock(&f->lock);
	rc = f->ops->agent_register(f->port, f, slot, reg, &handle);
	pthread_mutex_lock(&f->lock);
	if (rc < 0 || f->closed) {
		f->agents[slot] = NULL;
		if (rc == 0) {
			pthread_mutex_unlock(&f->lock);
			f->ops->agent_unregister(f->port, handle);
			pthread_mutex_lock(&f->lock);
			rc = -EPIPE;
		}
		return rc;
	}
	f->agents[slot] = handle;
	f->agent_rmpp[slot] = reg->rmpp_version != 0 &&
		!(reg->flags & IB_USER_MAD_USER_RMPP);
	f->agent_smi[slot] = reg->qpn == 0;
	f->used = true;
	*id = slot;
	return 0;
}

static int
ioctl_register(struct umad_file *f, const void *in, size_t in_len, void *out,
	       size_t out_len, size_t *out_used)
{
	struct ib_user_mad_reg_req req;
	struct umad_reg reg;
	uint32_t id;
	int rc;

	if (in_len < sizeof(req) || out_len < sizeof(req))
		return -EFAULT;
	memcpy(&req, in, sizeof(req));
	memset(&reg, 0, sizeof(reg));
	/* packed_ulong[] is two 64-bit longs on LP64: bit n is method n. */
	memcpy(reg.method_mask, req.method_mask, sizeof(reg.method_mask));
	reg.qpn = req.qpn;
	reg.mgmt_class = req.mgmt_class;
	reg.class_version = req.mgmt_class_version;
	reg.oui = (uint32_t)req.oui[0] << 16 | (uint32_t)req.oui[1] << 8 |
		req.oui[2];
	reg.rmpp_version = req.rmpp_version;
	rc = reg_agent(f, &reg, &id);
	if (rc < 0)
		return rc;
	req.id = id;
	memcpy(out, &req, sizeof(req));
	*out_used = sizeof(req);
	return 0;
}

static int
ioctl_register2(struct umad_file *f, const void *in, size_t in_len, void *out,
		size_t out_len, size_t *out_used)
{
	struct ib_user_mad_reg_req2 req;
	struct umad_reg reg;
	bool fresh;
	uint32_t id;
	int rc;

	if (in_len < sizeof(req) || out_len < sizeof(req))
		return -EFAULT;
	memcpy(&req, in, sizeof(req));
	if (req.flags & ~IB_USER_MAD_REG_FLAGS_CAP) {
		/* The kernel tells the caller which flags it supports. */
		req.flags = IB_USER_MAD_REG_FLAGS_CAP;
		memcpy(out, &req, sizeof(req));
		*out_used = sizeof(req);
		return -EINVAL;
	}
	if (req.oui & 0xff000000)
		return -EINVAL;
	memset(&reg, 0, sizeof(reg));
	memcpy(reg.method_mask, req.method_mask, sizeof(reg.method_mask));
	reg.qpn = req.qpn;
	reg.mgmt_class = req.mgmt_class;
	reg.class_version = req.mgmt_class_version;
	reg.oui = req.oui;
	reg.flags = req.flags;
	reg.rmpp_version = req.rmpp_version;
	fresh = !f->used;
	rc = reg_agent(f, &reg, &id);
	if (rc < 0)
		return rc;
	/*
	 * REGISTER_AGENT2 implies the 64-byte header on a fresh file only
	 * (Linux ib_umad_reg_agent2(): if !already_used); a file in use
	 * keeps the header its reader expects.
	 */
	if (fresh)
		f->pkey_enabled = true;
	req.id = id;
	memcpy(out, &req, sizeof(req));
	*out_used = sizeof(req);
	return 0;
}

static int
ioctl_unregister(struct umad_file *f, const void *in, size_t in_len)
{
	uint32_t id;
	void *handle;

	if (in_len < sizeof(id))
		return -EFAULT;
	memcpy(&id, in, sizeof(id));
	if (id >= UMAD_MAX_AGENTS || f->agents[id] == NULL ||
	    f->agents[id] == (void *)(uintptr_t)1)
		return -EINVAL;
	handle = f->agents[id];
	f->agents[id] = NULL;
	pthread_mutex_unlock(&f->lock);
	f->ops->agent_unregister(f->port, handle);
	pthread_mutex_lock(&f->lock);
	return 0;
}

static int
ioctl_peek(struct umad_file *f, void *out, size_t out_len, size_t *out_used)
{
	struct umad_msg *m = TAILQ_FIRST(&f->rxq);
	size_t hs = umad_file_hdr_size(f), n;

	if (m == NULL)
		return -EAGAIN;
	if (out_len < sizeof(struct umad_peek))
		return -EFAULT;
	n = m->len < UMAD_MAD_SIZE ? m->len : UMAD_MAD_SIZE;
	put_hdr(f, m, out);
	memcpy((uint8_t *)out + hs, m->data, n);
	*out_used = hs + n;
	return 0;
}

int
umad_file_ioctl(struct umad_file *f, unsigned int cmd, const void *in,
		size_t in_len, void *out, size_t out_len, size_t *out_used)
{
	int rc;

	*out_used = 0;
	pthread_mutex_lock(&f->lock);
	switch (cmd) {
	case IB_USER_MAD_REGISTER_AGENT:
		rc = ioctl_register(f, in, in_len, out, out_len, out_used);
		break;
	case IB_USER_MAD_UNREGISTER_AGENT:
		rc = ioctl_unregister(f, in, in_len);
		break;
	case IB_USER_MAD_ENABLE_PKEY:
		/* Linux ib_umad_enable_pkey(): only before any registration. */
		rc = f->used ? -EINVAL : 0;
		if (rc == 0)
			f->pkey_enabled = true;
		break;
	case IB_USER_MAD_REGISTER_AGENT2:
		rc = ioctl_register2(f, in, in_len, out, out_len, out_used);
		break;
	case UMAD_IOCTL_PEEK:
		rc = ioctl_peek(f, out, out_len, out_used);
		break;
	default:
		rc = -ENOTTY;
		break;
	}
	pthread_mutex_unlock(&f->lock);
	return rc;
}

/* The registered agents, as umad_write_check() takes them. */
static void
agent_set(const struct umad_file *f, struct umad_agent_set *set)
{
	unsigned int i;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < UMAD_MAX_AGENTS; i++) {
		if (f->agents[i] == NULL || f->agents[i] == (void *)(uintptr_t)1)
			continue;
		set->present |= 1u << i;
		if (f->agent_rmpp[i])
			set->rmpp |= 1u << i;
		if (f->agent_smi[i])
			set->smi |= 1u << i;
	}
}

ssize_t
umad_file_write(struct umad_file *f, const void *buf, size_t count)
{
	struct ib_user_mad_hdr hdr;
	const uint8_t *mad;
	uint8_t padded[UMAD_MAD_SIZE];
	struct umad_agent_set set;
	size_t hs, len;
	bool whole;
	void *handle;
	int rc;

	pthread_mutex_lock(&f->lock);
	hs = umad_file_hdr_size(f);
	agent_set(f, &set);
	rc = umad_write_check(hs, buf, count, &set, &whole);
	if (rc < 0) {
		pthread_mutex_unlock(&f->lock);
		return rc;
	}
	memset(&hdr, 0, sizeof(hdr));
	memcpy(&hdr, buf, hs);
	handle = f->agents[hdr.id];
	mad = (const uint8_t *)buf + hs;
	len = count - hs;
	if (!whole) {
		/* Shorter MADs are zero-padded to 256 bytes. */
		memset(padded, 0, sizeof(padded));
		memcpy(padded, mad, len);
		mad = padded;
		len = UMAD_MAD_SIZE;
	}
	pthread_mutex_unlock(&f->lock);
	/* A racing UNREGISTER_AGENT makes the backend refuse the handle. */
	rc = f->ops->send(f->port, handle, &hdr, mad, len);
	return rc < 0 ? rc : (ssize_t)count;
}

ssize_t
umad_file_read(struct umad_file *f, void *buf, size_t count)
{
	struct umad_msg *m;
	size_t hs, first;
	ssize_t rc;

	pthread_mutex_lock(&f->lock);
	hs = umad_file_hdr_size(f);
	m = TAILQ_FIRST(&f->rxq);
	if (count < hs) {
		rc = -EINVAL;
	} else if (m == NULL) {
		rc = -EAGAIN;
	} else {
		/* Linux ib_umad_read(): the message stays queued on error. */
		first = m->len < UMAD_MAD_SIZE ? m->len : UMAD_MAD_SIZE;
		if (count < hs + first) {
			rc = -EINVAL;
		} else if (count < hs + m->len) {
			rc = -ENOSPC;
		} else {
			TAILQ_REMOVE(&f->rxq, m, next);
			f->rx_count--;
			put_hdr(f, m, buf);
			memcpy((uint8_t *)buf + hs, m->data, m->len);
			rc = (ssize_t)(hs + m->len);
			free(m);
		}
	}
	pthread_mutex_unlock(&f->lock);
	return rc;
}

bool
umad_file_readable(struct umad_file *f)
{
	bool r;

	pthread_mutex_lock(&f->lock);
	r = !TAILQ_EMPTY(&f->rxq);
	pthread_mutex_unlock(&f->lock);
	return r;
}

/*
 * Send @m down the attached channel, never blocking: past rx_max
 * messages not yet consumed by the client, or with the socket full, it
 * is dropped and counted as a full queue is. Called with the lock held,
 * which orders the messages.
 */
static int
chan_put(struct umad_file *f, const struct umad_msg *m)
{
	uint64_t consumed = __atomic_load_n(&f->chan_shared->consumed,
					    __ATOMIC_ACQUIRE);
	struct iovec iov[2] = {
		{ .iov_base = (void *)(uintptr_t)&m->hdr,
		  .iov_len = umad_file_hdr_size(f) },
		{ .iov_base = (void *)(uintptr_t)m->data, .iov_len = m->len },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };

	/* A client that counts more than it was sent gains nothing. */
	if (consumed <= f->chan_sent && f->chan_sent - consumed >= f->rx_max) {
		f->rx_drops++;
		return -ENOBUFS;
	}
	if (sendmsg(f->chan_fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		f->rx_drops++;
		return errno == EAGAIN ? -ENOBUFS : -errno;
	}
	f->chan_sent++;
	return 0;
}

unsigned int
umad_file_attach(struct umad_file *f, int fd,
		 const struct umad_chan_shared *shared)
{
	struct umad_msg *m;
	unsigned int moved = 0;

	pthread_mutex_lock(&f->lock);
	if (f->closed) {
		pthread_mutex_unlock(&f->lock);
		return 0;
	}
	f->chan_fd = fd;
	f->chan_shared = shared;
	f->chan_sent = __atomic_load_n(&shared->consumed, __ATOMIC_ACQUIRE);
	/* What was queued before goes first, in order. */
	while ((m = TAILQ_FIRST(&f->rxq)) != NULL) {
		TAILQ_REMOVE(&f->rxq, m, next);
		f->rx_count--;
		if (chan_put(f, m) == 0)
			moved++;
		free(m);
	}
	pthread_mutex_unlock(&f->lock);
	return moved;
}

void
umad_file_detach(struct umad_file *f)
{
	pthread_mutex_lock(&f->lock);
	f->chan_fd = -1;
	f->chan_shared = NULL;
	pthread_mutex_unlock(&f->lock);
}

int
umad_file_deliver(struct umad_file *f, unsigned int id,
		  const struct ib_user_mad_hdr *hdr, const void *mad, size_t len)
{
	struct umad_msg *m;
	bool was_empty;
	int rc;

	if (id >= UMAD_MAX_AGENTS)
		return -EINVAL;
	m = malloc(sizeof(*m) + len);
	if (m == NULL)
		return -ENOMEM;
	m->hdr = *hdr;
	m->len = len;
	memcpy(m->data, mad, len);
	pthread_mutex_lock(&f->lock);
	if (f->closed || f->rx_count >= f->rx_max) {
		/* A reader that does not keep up loses MADs, never stalls us. */
		f->rx_drops++;
		pthread_mutex_unlock(&f->lock);
		free(m);
		return f->closed ? -EPIPE : -ENOBUFS;
	}
	m->hdr.id = id;
	m->hdr.length = (uint32_t)(umad_file_hdr_size(f) + len);
	if (f->chan_fd >= 0) {
		rc = chan_put(f, m);
		pthread_mutex_unlock(&f->lock);
		free(m);
		return rc;
	}
	was_empty = TAILQ_EMPTY(&f->rxq);
	TAILQ_INSERT_TAIL(&f->rxq, m, next);
	f->rx_count++;
	pthread_mutex_unlock(&f->lock);
	/* Outside the lock: the waker may read the message at once. */
	if (was_empty && f->wake != NULL)
		f->wake(f, f->wake_arg);
	return 0;
}

void
umad_file_seen_add(struct umad_file *f, uint64_t tid, uint8_t mgmt_class,
		   uint16_t lid)
{
	struct umad_seen *last;

	pthread_mutex_lock(&f->lock);
	last = &f->seen[(f->seen_next + UMAD_SEEN_MAX - 1) % UMAD_SEEN_MAX];
	if (f->seen_next == 0 || last->tid != tid ||
	    last->mgmt_class != mgmt_class || last->lid != lid) {
		last = &f->seen[f->seen_next % UMAD_SEEN_MAX];
		last->tid = tid;
		last->mgmt_class = mgmt_class;
		last->lid = lid;
		f->seen_next++;
	}
	pthread_mutex_unlock(&f->lock);
}

bool
umad_file_seen(struct umad_file *f, uint64_t tid, uint8_t mgmt_class,
	       uint16_t lid)
{
	unsigned int i, n;
	bool found = false;

	pthread_mutex_lock(&f->lock);
	n = f->seen_next < UMAD_SEEN_MAX ? f->seen_next : UMAD_SEEN_MAX;
	for (i = 0; i < n && !found; i++)
		found = f->seen[i].tid == tid && f->seen[i].lid == lid &&
			f->seen[i].mgmt_class == mgmt_class;
	pthread_mutex_unlock(&f->lock);
	return found;
}
