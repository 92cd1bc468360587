/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * libibumad_preload.so, preloaded by usertools/dpdk-ib-ns into every
 * command it runs: gives the user-MAD service's umad files the kernel's
 * read() behaviour and takes their MAD exchange off FUSE
 * (doc/guides/prog_guide/ibumad_lib.rst, "The channel" and "ENOSPC").
 *
 * The channel. When a umad<N> file of the service is opened read-write,
 * the shim asks the service (UMAD_IOCTL_CHANNEL, a FUSE ioctl on the new
 * file) for a one-time token and the path of its socket, connects
 * (SOCK_SEQPACKET), presents the token, and gets the shared page where it
 * counts the messages it consumed. Then the FUSE file moves to a hidden
 * descriptor and the socket takes the caller's descriptor number, so that
 * poll(), select() and epoll see the socket itself, woken by the
 * service's send: a MAD costs the caller one send() and one recv(), as
 * under umad2sim, instead of three or four FUSE round trips. ioctl() and
 * close() of that number go to the FUSE file (close() to both).
 * read() keeps Linux ib_umad_read()'s rules (one message per call,
 * EINVAL, ENOSPC with the header and first segment, the message staying
 * queued) with MSG_PEEK; write() makes ib_umad_write()'s own checks
 * (umad_check.c) and sends without waiting: the MAD layer's refusals of
 * a checked write come back as a send that ended (status = errno).
 * DPDK_IB_UMAD_CHANNEL=0 in the environment keeps every file on FUSE.
 *
 * ENOSPC on FUSE. FUSE (fs/fuse/dev.c) refuses a reply that carries both
 * an error and data, so the service answers a read too short for a
 * multi-segment message with ENOSPC alone; the shim then fills the
 * caller's buffer from UMAD_IOCTL_PEEK (header with the needed length and
 * the first segment, not dequeued), as ib_umad_read() would have.
 *
 * Long messages on FUSE. A message longer than one FUSE request (1 MiB;
 * a whole SA table of a big fabric) reaches the service in several
 * requests that it cannot tell from separate calls (umad_fs_long.h). So
 * when the service answers a read ENOSPC although the caller's buffer
 * holds the message, or a write EMSGSIZE, the shim announces the caller's
 * count with UMAD_IOCTL_READ_LEN / UMAD_IOCTL_WRITE_LEN and calls again.
 *
 * Not followed: a channel descriptor duplicated with dup() or F_DUPFD is
 * the bare socket (reads and writes pass unchecked, the service still
 * checks every write).
 */

/* open() and open64() are both wrapped: neither may alias the other. */
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "umad_file.h"
#include "umad_fs_long.h"

/* Offset of the message length in either umad header layout. */
#define HDR_OFF_LENGTH 16

#define FUSE_MAGIC 0x65735546   /* linux/magic.h FUSE_SUPER_MAGIC */
#define CHAN_FDS 4096           /* descriptors past this stay on FUSE */
#define HIDDEN_FD_MIN 512       /* where the FUSE file hides */
#define ATTACH_TIMEOUT_S 2      /* the service answers a hello in this */

/* One attached descriptor. */
struct chan {
	int fuse_fd;
	size_t hs;                      /* header size in use */
	bool used;                      /* an agent was registered */
	struct umad_agent_set agents;   /* as the write checks need them */
	struct umad_chan_shared *shared;
	pthread_mutex_t rd;             /* a peek and its dequeue together */
};

static struct chan *chans[CHAN_FDS];

#define REAL(ret, name, ...) \
	static ret (*real_ ## name)(__VA_ARGS__); \
	static ret (*get_ ## name(void))(__VA_ARGS__) \
	{ \
		if (real_ ## name == NULL) \
			real_ ## name = (ret (*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name); \
		return real_ ## name; \
	}

REAL(int, open, const char *, int, ...)
REAL(int, open64, const char *, int, ...)
REAL(int, openat, int, const char *, int, ...)
REAL(int, openat64, int, const char *, int, ...)
REAL(int, __open_2, const char *, int)
REAL(int, __open64_2, const char *, int)
REAL(ssize_t, read, int, void *, size_t)
REAL(ssize_t, write, int, const void *, size_t)
REAL(int, ioctl, int, unsigned long, ...)
REAL(int, close, int)
REAL(int, dup2, int, int)
REAL(int, dup3, int, int, int)
REAL(int, poll, struct pollfd *, nfds_t, int)

static struct chan *
chan_of(int fd)
{
	if (fd < 0 || fd >= CHAN_FDS)
		return NULL;
	return __atomic_load_n(&chans[fd], __ATOMIC_ACQUIRE);
}

static void
chan_free(struct chan *c)
{
	get_close()(c->fuse_fd);
	munmap(c->shared, sizeof(*c->shared));
	pthread_mutex_destroy(&c->rd);
	free(c);
}

/* Forget @fd's channel (its number was closed or replaced). */
static void
chan_drop(int fd)
{
	struct chan *c;

	if (fd < 0 || fd >= CHAN_FDS)
		return;
	c = __atomic_exchange_n(&chans[fd], NULL, __ATOMIC_ACQ_REL);
	if (c != NULL)
		chan_free(c);
}

/* umad<N>: the only files with a channel. */
static bool
umad_name(const char *path)
{
	const char *b = strrchr(path, '/');

	b = b != NULL ? b + 1 : path;
	return strncmp(b, "umad", 4) == 0 && b[4] >= '0' && b[4] <= '9';
}

/* Connect, present the token, take the shared page; the socket or -1. */
static int
chan_connect(const struct umad_chan_info *info, struct umad_chan_shared **shared)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct umad_chan_hello hello = { .magic = UMAD_CHAN_MAGIC };
	struct umad_chan_ack ack;
	struct timeval tv = { .tv_sec = ATTACH_TIMEOUT_S };
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} cm;
	struct iovec iov = { .iov_base = &ack, .iov_len = sizeof(ack) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cm.b, .msg_controllen = sizeof(cm.b) };
	struct cmsghdr *cmsg;
	int s, page = -1, sndbuf = (int)UMAD_CHAN_MAX_MSG + (64 << 10);
	void *p;

	memcpy(sa.sun_path, info->path, sizeof(info->path) < sizeof(sa.sun_path) ?
	       sizeof(info->path) : sizeof(sa.sun_path));
	sa.sun_path[sizeof(sa.sun_path) - 1] = '\0';
	memcpy(hello.token, info->token, sizeof(hello.token));
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	/* A whole SA table in one write (OpenSM's RMPP responses). */
	if (setsockopt(s, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)) < 0)
		setsockopt(s, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	if (setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    send(s, &hello, sizeof(hello), MSG_NOSIGNAL) != (ssize_t)sizeof(hello) ||
	    recvmsg(s, &mh, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof(ack))
		goto fail;
	cmsg = CMSG_FIRSTHDR(&mh);
	if (cmsg != NULL && cmsg->cmsg_level == SOL_SOCKET &&
	    cmsg->cmsg_type == SCM_RIGHTS)
		memcpy(&page, CMSG_DATA(cmsg), sizeof(int));
	if (ack.magic != UMAD_CHAN_MAGIC || ack.status != 0 || page < 0)
		goto fail;
	p = mmap(NULL, sizeof(**shared), PROT_READ | PROT_WRITE, MAP_SHARED, page, 0);
	get_close()(page);
	page = -1;
	if (p == MAP_FAILED)
		goto fail;
	*shared = p;
	tv.tv_sec = 0;
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return s;
fail:
	if (page >= 0)
		get_close()(page);
	get_close()(s);
	return -1;
}

/*
 * A umad file just opened as @fd: give it a channel if its service offers
 * one. On any failure the file stays on FUSE, untouched.
 */
static void
chan_attach(int fd, int flags)
{
	const char *env = getenv("DPDK_IB_UMAD_CHANNEL");
	struct umad_chan_shared *shared = NULL;
	struct umad_chan_info info;
	struct statfs sf;
	struct chan *c;
	int s, hidden, cloexec;

	if (fd >= CHAN_FDS || (env != NULL && strcmp(env, "0") == 0))
		return;
	if (fstatfs(fd, &sf) < 0 || sf.f_type != FUSE_MAGIC)
		return;
	if (get_ioctl()(fd, UMAD_IOCTL_CHANNEL, &info) < 0)
		return;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return;
	s = chan_connect(&info, &shared);
	if (s < 0) {
		free(c);
		return;
	}
	cloexec = fcntl(fd, F_GETFD) & FD_CLOEXEC;
	hidden = fcntl(fd, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, HIDDEN_FD_MIN);
	if (hidden < 0)
		hidden = fcntl(fd, cloexec ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (hidden < 0 || get_dup3()(s, fd, cloexec ? O_CLOEXEC : 0) < 0) {
		/* fd is still the FUSE file: nothing of the caller changed. */
		if (hidden >= 0)
			get_close()(hidden);
		get_close()(s);
		munmap(shared, sizeof(*shared));
		free(c);
		return;
	}
	get_close()(s);
	if (flags & O_NONBLOCK)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	c->fuse_fd = hidden;
	c->hs = UMAD_HDR_SIZE_OLD;
	c->shared = shared;
	pthread_mutex_init(&c->rd, NULL);
	__atomic_store_n(&chans[fd], c, __ATOMIC_RELEASE);
}

static int
after_open(int fd, const char *path, int flags)
{
	int saved = errno;

	if (fd >= 0 && (flags & O_ACCMODE) == O_RDWR && path != NULL &&
	    umad_name(path)) {
		chan_drop(fd);    /* a number closed behind our back */
		chan_attach(fd, flags);
	}
	errno = saved;
	return fd;
}

static mode_t
open_mode(int flags, va_list ap)
{
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		return va_arg(ap, mode_t);
	return 0;
}

#define OPEN_WRAP(name) \
int \
name(const char *path, int flags, ...) \
{ \
	va_list ap; \
	mode_t mode; \
	\
	va_start(ap, flags); \
	mode = open_mode(flags, ap); \
	va_end(ap); \
	return after_open(get_ ## name()(path, flags, mode), path, flags); \
}

#define OPENAT_WRAP(name) \
int \
name(int dirfd, const char *path, int flags, ...) \
{ \
	va_list ap; \
	mode_t mode; \
	\
	va_start(ap, flags); \
	mode = open_mode(flags, ap); \
	va_end(ap); \
	return after_open(get_ ## name()(dirfd, path, flags, mode), path, flags); \
}

OPEN_WRAP(open)
OPEN_WRAP(open64)
OPENAT_WRAP(openat)
OPENAT_WRAP(openat64)

int
__open_2(const char *path, int flags)
{
	return after_open(get___open_2()(path, flags), path, flags);
}

int
__open64_2(const char *path, int flags)
{
	return after_open(get___open64_2()(path, flags), path, flags);
}

/* Wait for @events on a channel whose descriptor may be non-blocking. */
static bool
chan_wait(int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };

	if (fcntl(fd, F_GETFL) & O_NONBLOCK)
		return false;
	return poll(&p, 1, -1) >= 0 || errno == EINTR;
}

/* Is @fd a umad file (after its service died: fstatfs fails then)? */
static bool
is_umad_path(int fd)
{
	char link[64], path[256];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return false;
	path[n] = '\0';
	base = strrchr(path, '/');
	return base != NULL && strncmp(base + 1, "umad", 4) == 0;
}

/*
 * The service went away (its DPDK host exited or was killed): the channel
 * reads end of file, FUSE answers ENOTCONN, and poll() returns at once
 * with a hang-up or an error. Linux fails every read of a file whose
 * device is gone with EIO at once, and a client that polls and retries
 * in a loop (OpenSM's receiver thread, "ERR 5404") then spins at full
 * CPU writing its log. So the shim gives the descriptor number a socket
 * that never becomes readable (one end of a pair whose other end it keeps
 * and never writes): the file is a port that gets no more MADs. poll()
 * waits on it, read() waits or says EAGAIN (O_NONBLOCK), write() fails
 * with EIO, on the channel and on FUSE alike
 * (doc/guides/prog_guide/ibmad_umad.rst, "When the host dies").
 */
static uint64_t gone_fds[CHAN_FDS / 64];     /* replaced descriptors */
static uint64_t gone_nonblock[CHAN_FDS / 64]; /* their O_NONBLOCK */
static int quiet_fd = -1;
static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;

static void
quiet_make(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return;
	/* sv[1] stays open, never written: sv[0] never reads anything. */
	quiet_fd = fcntl(sv[0], F_DUPFD_CLOEXEC, HIDDEN_FD_MIN);
	if (quiet_fd < 0)
		quiet_fd = sv[0];
	else
		get_close()(sv[0]);
}

static bool
bit_get(const uint64_t *bits, int fd)
{
	return fd >= 0 && fd < CHAN_FDS &&
		(__atomic_load_n(&bits[fd / 64], __ATOMIC_ACQUIRE) >> (fd % 64)) & 1;
}

static void
bit_set(uint64_t *bits, int fd, bool on)
{
	uint64_t b = UINT64_C(1) << (fd % 64);

	if (fd < 0 || fd >= CHAN_FDS)
		return;
	if (on)
		__atomic_fetch_or(&bits[fd / 64], b, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(&bits[fd / 64], ~b, __ATOMIC_RELEASE);
}

/* @fd's service is gone: its number names the quiet socket from now on. */
static void
gone_mark(int fd)
{
	int fl = fcntl(fd, F_GETFL), fdfl = fcntl(fd, F_GETFD);

	pthread_once(&quiet_once, quiet_make);
	if (quiet_fd < 0 || fd < 0 || fd >= CHAN_FDS || bit_get(gone_fds, fd))
		return;
	if (get_dup3()(quiet_fd, fd, (fdfl > 0 && (fdfl & FD_CLOEXEC)) ? O_CLOEXEC : 0) < 0)
		return;
	chan_drop(fd);          /* the hidden FUSE file goes too */
	bit_set(gone_nonblock, fd, fl >= 0 && (fl & O_NONBLOCK));
	bit_set(gone_fds, fd, true);
}

/* read() of a file whose service is gone: no MAD, ever. */
static ssize_t
gone_read(int fd, void *buf, size_t count)
{
	return recv(fd, buf, count, bit_get(gone_nonblock, fd) ? MSG_DONTWAIT : 0);
}

/* Did poll() see @fd's service die (not only a hang-up of something else)? */
static bool
service_died(int fd)
{
	struct statfs sf;
	char b;

	if (chan_of(fd) != NULL)
		return recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
	return fstatfs(fd, &sf) < 0 && errno == ENOTCONN && is_umad_path(fd);
}

/*
 * poll() as libibumad's umad_recv() calls it: a umad descriptor that
 * reports a hang-up or an error because its service died is replaced,
 * and the call starts again (its time-out anew).
 */
int
poll(struct pollfd *fds, nfds_t n, int timeout)
{
	bool again;
	nfds_t i;
	int r, saved;

	for (;;) {
		r = get_poll()(fds, n, timeout);
		if (r <= 0)
			return r;
		saved = errno;
		again = false;
		for (i = 0; i < n; i++) {
			if (!(fds[i].revents & (POLLERR | POLLHUP)) || fds[i].fd < 0 ||
			    fds[i].fd >= CHAN_FDS || bit_get(gone_fds, fds[i].fd) ||
			    !service_died(fds[i].fd))
				continue;
			gone_mark(fds[i].fd);
			again = true;
		}
		errno = saved;
		if (!again)
			return r;
	}
}

/* ib_umad_read() on a channel: one message, peeked first. */
static ssize_t
chan_read(struct chan *c, int fd, void *buf, size_t count)
{
	size_t hs = __atomic_load_n(&c->hs, __ATOMIC_RELAXED), first;
	ssize_t n;
	int err = 0;

	if (count < hs) {
		errno = EINVAL;
		return -1;
	}
	for (;;) {
		pthread_mutex_lock(&c->rd);
		n = recv(fd, buf, count, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
		if (n > 0 && (size_t)n <= count) {
			n = recv(fd, buf, count, MSG_DONTWAIT);
			if (n > 0)
				__atomic_fetch_add(&c->shared->consumed, 1,
						   __ATOMIC_RELEASE);
		} else if (n > 0) {
			/* The message stays; the header says what it needs. */
			first = (size_t)n - hs < UMAD_MAD_SIZE ?
				(size_t)n - hs : UMAD_MAD_SIZE;
			err = count < hs + first ? EINVAL : ENOSPC;
		} else if (n == 0) {
			err = EPIPE;       /* the service went away */
		} else {
			err = errno;
		}
		pthread_mutex_unlock(&c->rd);
		if (err == EAGAIN && chan_wait(fd, POLLIN)) {
			err = 0;
			continue;
		}
		break;
	}
	if (err == EPIPE || err == ECONNRESET) {
		gone_mark(fd);
		return gone_read(fd, buf, count);
	}
	if (err != 0) {
		errno = err;
		return -1;
	}
	return n;
}

/* ib_umad_write() on a channel: the kernel's checks, then one send. */
static ssize_t
chan_write(struct chan *c, int fd, const void *buf, size_t count)
{
	bool whole;
	ssize_t n;
	int rc;

	struct umad_agent_set set = {
		.present = __atomic_load_n(&c->agents.present, __ATOMIC_RELAXED),
		.rmpp = __atomic_load_n(&c->agents.rmpp, __ATOMIC_RELAXED),
		.smi = __atomic_load_n(&c->agents.smi, __ATOMIC_RELAXED),
	};

	rc = umad_write_check(__atomic_load_n(&c->hs, __ATOMIC_RELAXED), buf, count,
			      &set, &whole);
	if (rc < 0) {
		errno = -rc;
		return -1;
	}
	for (;;) {
		n = send(fd, buf, count, MSG_NOSIGNAL);
		if (n >= 0)
			return (ssize_t)count;
		if (errno == EINTR || (errno == EAGAIN && chan_wait(fd, POLLOUT)))
			continue;
		if (errno == EAGAIN) {
			/* A full channel on a non-blocking file: wait anyway,
			 * the kernel's write() never says EAGAIN.
			 */
			struct pollfd p = { .fd = fd, .events = POLLOUT };

			poll(&p, 1, -1);
			continue;
		}
		if (errno == EPIPE || errno == ECONNRESET) {
			gone_mark(fd);  /* the service went away */
			errno = EIO;
		}
		return -1;
	}
}

/* Announce a count of @cmd's kind; true when @fd took it. */
static bool
announce(int fd, unsigned long cmd, size_t count)
{
	uint64_t n = count;

	return get_ioctl()(fd, cmd, &n) == 0;
}

ssize_t
read(int fd, void *buf, size_t count)
{
	struct chan *c = chan_of(fd);
	struct umad_peek peek;
	uint32_t need;
	ssize_t n;
	int saved, valid;

	if (bit_get(gone_fds, fd))
		return gone_read(fd, buf, count);
	if (c != NULL)
		return chan_read(c, fd, buf, count);
	n = get_read()(fd, buf, count);
	if (n < 0 && errno == ENOTCONN && is_umad_path(fd)) {
		gone_mark(fd);
		return gone_read(fd, buf, count);
	}
	if (n >= 0 || errno != ENOSPC)
		return n;
	saved = errno;
	valid = get_ioctl()(fd, UMAD_IOCTL_PEEK, &peek);
	if (valid >= HDR_OFF_LENGTH + (int)sizeof(need)) {
		memcpy(&need, peek.buf + HDR_OFF_LENGTH, sizeof(need));
		/* Room for it, but the service saw one FUSE request's worth. */
		if (count >= need && announce(fd, UMAD_IOCTL_READ_LEN, count))
			return get_read()(fd, buf, count);
	}
	if (valid > 0) {
		if ((size_t)valid > count)
			valid = (int)count;
		memcpy(buf, peek.buf, (size_t)valid);
	}
	errno = saved;
	return -1;
}

ssize_t
write(int fd, const void *buf, size_t count)
{
	struct chan *c = chan_of(fd);
	ssize_t n;

	if (bit_get(gone_fds, fd)) {
		errno = EIO;
		return -1;
	}
	if (c != NULL)
		return chan_write(c, fd, buf, count);
	n = get_write()(fd, buf, count);
	if (n < 0 && errno == ENOTCONN && is_umad_path(fd)) {
		gone_mark(fd);
		errno = EIO;        /* the service went away, as on the channel */
		return -1;
	}
	if (n >= 0 || errno != EMSGSIZE || count <= UMAD_FS_CUT_MIN)
		return n;
	if (!announce(fd, UMAD_IOCTL_WRITE_LEN, count)) {
		errno = EMSGSIZE;
		return -1;
	}
	return get_write()(fd, buf, count);
}

/* Set or clear bit @bit of @word. */
static void
bit_put(uint32_t *word, uint32_t bit, bool on)
{
	if (on)
		__atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(word, ~bit, __ATOMIC_RELAXED);
}

/* Agent @id registered (on QP @qpn; segmented by the service: @rmpp). */
static void
agent_put(struct chan *c, uint32_t id, uint32_t qpn, bool rmpp)
{
	uint32_t bit;

	if (id >= UMAD_MAX_AGENTS)
		return;
	bit = 1u << id;
	bit_put(&c->agents.rmpp, bit, rmpp);
	bit_put(&c->agents.smi, bit, qpn == 0);
	bit_put(&c->agents.present, bit, true);
}

/* Follow what the write checks need: header size and agents. */
static void
chan_track(struct chan *c, unsigned long req, const void *arg)
{
	const struct ib_user_mad_reg_req *r1 = arg;
	const struct ib_user_mad_reg_req2 *r2 = arg;
	uint32_t id;

	switch (req) {
	case IB_USER_MAD_ENABLE_PKEY:
		__atomic_store_n(&c->hs, UMAD_HDR_SIZE, __ATOMIC_RELAXED);
		return;
	case IB_USER_MAD_REGISTER_AGENT:
		c->used = true;
		agent_put(c, r1->id, r1->qpn, r1->rmpp_version != 0);
		return;
	case IB_USER_MAD_REGISTER_AGENT2:
		/* The 64-byte header only on a file's first use, as the file. */
		if (!c->used)
			__atomic_store_n(&c->hs, UMAD_HDR_SIZE, __ATOMIC_RELAXED);
		c->used = true;
		agent_put(c, r2->id, r2->qpn, r2->rmpp_version != 0 &&
			  !(r2->flags & IB_USER_MAD_USER_RMPP));
		return;
	case IB_USER_MAD_UNREGISTER_AGENT:
		memcpy(&id, arg, sizeof(id));
		if (id < UMAD_MAX_AGENTS)
			bit_put(&c->agents.present, 1u << id, false);
		return;
	default:
		return;
	}
}

int
ioctl(int fd, unsigned long req, ...)
{
	struct chan *c = chan_of(fd);
	va_list ap;
	void *arg;
	int rc;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (c == NULL)
		return get_ioctl()(fd, req, arg);
	rc = get_ioctl()(c->fuse_fd, req, arg);
	if (rc >= 0)
		chan_track(c, req, arg);
	return rc;
}

int
close(int fd)
{
	bit_set(gone_fds, fd, false);
	chan_drop(fd);
	return get_close()(fd);
}

int
dup2(int oldfd, int newfd)
{
	int rc = get_dup2()(oldfd, newfd);

	if (rc >= 0 && oldfd != newfd) {
		bit_set(gone_fds, newfd, false);
		chan_drop(newfd);
	}
	return rc;
}

int
dup3(int oldfd, int newfd, int flags)
{
	int rc = get_dup3()(oldfd, newfd, flags);

	if (rc >= 0) {
		bit_set(gone_fds, newfd, false);
		chan_drop(newfd);
	}
	return rc;
}
