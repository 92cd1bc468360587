/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The channel of the user-MAD service (umad_chan.h).
 *
 * Who may attach: a token is 16 random bytes handed out by the file
 * system to the opener of one umad file (UMAD_IOCTL_CHANNEL, a FUSE ioctl
 * on that open file, so only a holder of the file descriptor gets it),
 * good for one connection, from the same process (SO_PEERCRED against
 * the FUSE request's process). A connection that presents no token, a
 * used or unknown token, or another process's token is closed and
 * counted; so is one that sends nothing for UNAUTH_MS. At most
 * UNAUTH_MAX connections owe their token at once, UNAUTH_PER_PID of them
 * from one process: past either, a new one is closed at once and counted,
 * so that a flood of connections takes no one else's place. A live
 * token is never given away to make room for another (a full table
 * refuses the offer: that file stays on FUSE). Out of file descriptors
 * (EMFILE, ENFILE), the listening socket leaves the poll set until the
 * next tick of the timer, instead of waking it again at once.
 *
 * The MAD core's passes serve every connection (its epoll set holds ours,
 * rte_ibmad_ctrl_fd_add()), or a thread of our own where they cannot; the MAD
 * core's thread writes deliveries to them directly and never blocks
 * (umad_file.c).
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/queue.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_ibmad_ctrl.h>

#include "ibumad_private.h"
#include "umad_chan.h"

#define CHAN_TOKENS 64          /* tokens outstanding at once */
#define TOKEN_MS 10000          /* a token not used by then expires */
#define UNAUTH_MS 2000          /* a connection must present its token by then */
#define UNAUTH_MAX 64           /* connections owing their token at once */
#define UNAUTH_PER_PID 8        /* of which from one process */
#define BURST 64                /* messages taken from one connection a turn */
/* Room on a connection: the largest message and then some small ones. */
#define CHAN_SNDBUF (UMAD_CHAN_MAX_MSG + (256u << 10))

struct chan_token {
	bool used;
	uint8_t token[UMAD_CHAN_TOKEN];
	struct umad_file *f;
	pid_t pid;
	uint64_t expires;
};

struct chan_conn {
	LIST_ENTRY(chan_conn) next;
	int fd;
	bool authed;
	bool dead;              /* hung up or forgotten: free on next turn */
	pid_t pid;              /* the peer, at accept (SO_PEERCRED) */
	uint64_t deadline;      /* unauthenticated until then */
	struct umad_file *f;    /* NULL until bound, and after forget */
	struct umad_chan_shared *shared;
};

struct umad_chan {
	int listen_fd;
	int ep_fd;
	int stop_fd;
	pthread_t thread;
	pthread_mutex_t lock;   /* tokens, conns' f */
	struct chan_token tokens[CHAN_TOKENS];
	LIST_HEAD(, chan_conn) conns;
	unsigned int unauthed;
	int timer_fd;           /* reaps connections that owe their token */
	bool timer_armed;
	bool accept_paused;     /* out of fds: listen_fd out of the poll set */
	bool own_thread;        /* not served by the MAD core's passes */
	struct rte_ibmad_ctrl_fd *ctrl; /* ep_fd in the MAD core's passes */
	uint8_t *buf;           /* one message, UMAD_CHAN_MAX_MSG + 1 */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	uint64_t attached, refused, bad_writes, rx_drops;
	uint64_t accept_pauses; /* times accept() found no descriptor */
};

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Compare without an early exit: a timing probe learns nothing. */
static bool
token_eq(const uint8_t *a, const uint8_t *b)
{
	uint8_t d = 0;
	unsigned int i;

	for (i = 0; i < UMAD_CHAN_TOKEN; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

int
umad_chan_offer(struct umad_chan *ch, struct umad_file *f, pid_t pid,
		struct umad_chan_info *info)
{
	struct chan_token *t = NULL;
	uint64_t now = now_ms();
	unsigned int i;

	memset(info, 0, sizeof(*info));
	if (getrandom(info->token, sizeof(info->token), 0) !=
	    (ssize_t)sizeof(info->token))
		return -EIO;
	snprintf(info->path, sizeof(info->path), "%s", ch->path);
	pthread_mutex_lock(&ch->lock);
	for (i = 0; i < CHAN_TOKENS; i++) {
		struct chan_token *c = &ch->tokens[i];

		/* A file's new token replaces its own unused one. */
		if (!c->used || c->expires <= now || c->f == f) {
			t = c;
			break;
		}
	}
	if (t == NULL) {
		/* Every token is live: evicting one would fail its client. */
		pthread_mutex_unlock(&ch->lock);
		return -EBUSY;
	}
	t->used = true;
	memcpy(t->token, info->token, sizeof(t->token));
	t->f = f;
	t->pid = pid;
	t->expires = now + TOKEN_MS;
	pthread_mutex_unlock(&ch->lock);
	return 0;
}

/* Close and free @c; the lock is held. */
static void
conn_free(struct umad_chan *ch, struct chan_conn *c)
{
	if (c->f != NULL) {
		/* The client hung up first: close its file as release would. */
		umad_file_detach(c->f);
		umad_file_shutdown(c->f);
		c->f = NULL;
	}
	if (c->authed)
		ch->attached--;
	else
		ch->unauthed--;
	if (c->shared != NULL)
		munmap(c->shared, sizeof(*c->shared));
	epoll_ctl(ch->ep_fd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	LIST_REMOVE(c, next);
	free(c);
}

void
umad_chan_forget(struct umad_chan *ch, struct umad_file *f)
{
	struct chan_conn *c;
	unsigned int i;

	pthread_mutex_lock(&ch->lock);
	for (i = 0; i < CHAN_TOKENS; i++)
		if (ch->tokens[i].used && ch->tokens[i].f == f)
			ch->tokens[i].used = false;
	LIST_FOREACH(c, &ch->conns, next) {
		if (c->f != f)
			continue;
		umad_file_detach(f);
		c->f = NULL;
		c->dead = true;
		/* The thread frees it on the hang-up this raises. */
		shutdown(c->fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&ch->lock);
}

void
umad_chan_counts(struct umad_chan *ch, struct umad_chan_counts *cnt)
{
	pthread_mutex_lock(&ch->lock);
	cnt->attached = ch->attached;
	cnt->refused = ch->refused;
	cnt->bad_writes = ch->bad_writes;
	cnt->rx_drops = ch->rx_drops;
	cnt->accept_pauses = ch->accept_pauses;
	pthread_mutex_unlock(&ch->lock);
}

/* The shared counter page, sealed so that the client cannot shrink it. */
static int
shared_page(struct umad_chan_shared **shared)
{
	void *p;
	int fd;

	fd = memfd_create("umad-chan", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, sizeof(**shared)) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0)
		goto fail;
	p = mmap(NULL, sizeof(**shared), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	*shared = p;
	return fd;
fail:
	close(fd);
	return -1;
}

/* Answer a hello: @status, and on success the shared page's fd. */
static int
send_ack(int sock, int32_t status, int page_fd)
{
	struct umad_chan_ack ack = { .magic = UMAD_CHAN_MAGIC, .status = status };
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} cm;
	struct iovec iov = { .iov_base = &ack, .iov_len = sizeof(ack) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;

	if (page_fd >= 0) {
		memset(&cm, 0, sizeof(cm));
		mh.msg_control = cm.b;
		mh.msg_controllen = sizeof(cm.b);
		cmsg = CMSG_FIRSTHDR(&mh);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cmsg), &page_fd, sizeof(int));
	}
	return sendmsg(sock, &mh, MSG_DONTWAIT | MSG_NOSIGNAL) ==
		(ssize_t)sizeof(ack) ? 0 : -1;
}

/*
 * The first message of a connection: the token. Binds the connection to
 * its file, or refuses it. The lock is held.
 */
static void
conn_hello(struct umad_chan *ch, struct chan_conn *c, const uint8_t *msg,
	   ssize_t n)
{
	struct umad_chan_hello hello;
	struct chan_token *t = NULL;
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	int sndbuf = CHAN_SNDBUF;
	uint64_t now = now_ms();
	unsigned int i;
	int page;

	if (n != (ssize_t)sizeof(hello))
		goto refuse;
	memcpy(&hello, msg, sizeof(hello));
	if (hello.magic != UMAD_CHAN_MAGIC)
		goto refuse;
	for (i = 0; i < CHAN_TOKENS; i++) {
		if (ch->tokens[i].used && token_eq(ch->tokens[i].token, hello.token))
			t = &ch->tokens[i];
	}
	if (t == NULL)
		goto refuse;
	/* Good once, whoever presents it. */
	t->used = false;
	if (t->expires <= now ||
	    getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) < 0 ||
	    cred.pid != t->pid) {
		IBUMAD_LOG(WARNING, "umad channel: a token of process %d presented by %d: refused",
			  (int)t->pid, (int)cred.pid);
		goto refuse;
	}
	page = shared_page(&c->shared);
	if (page < 0) {
		send_ack(c->fd, -ENOMEM, -1);
		goto refuse;
	}
	/* Room for the largest message (an SA table): root may exceed wmem_max. */
	if (setsockopt(c->fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)) < 0)
		setsockopt(c->fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	if (send_ack(c->fd, 0, page) < 0) {
		close(page);
		goto refuse;
	}
	close(page);
	c->authed = true;
	c->f = t->f;
	ch->unauthed--;
	ch->attached++;
	/* The ack is on the socket first; queued MADs follow it. */
	umad_file_attach(c->f, c->fd, c->shared);
	return;
refuse:
	ch->refused++;
	c->dead = true;
}

/*
 * A message of a bound connection is a write() of its file. What the
 * shim checked cannot fail here but for the MAD layer's own refusals; a
 * request that expected a response then gets its status back as a send
 * that ended (the header with status = errno and the request's common
 * header), so that the client's transaction ends.
 */
static void
conn_write(struct umad_chan *ch, struct chan_conn *c, const uint8_t *msg,
	   size_t n)
{
	struct ib_user_mad_hdr hdr;
	size_t hs = umad_file_hdr_size(c->f);
	ssize_t rc;

	rc = umad_file_write(c->f, msg, n);
	if (rc >= 0)
		return;
	ch->bad_writes++;
	if (n < hs + UMAD_MGMT_MAD_HDR)
		return;
	memset(&hdr, 0, sizeof(hdr));
	memcpy(&hdr, msg, hs);
	if (hdr.timeout_ms == 0 || hdr.id >= UMAD_MAX_AGENTS)
		return;
	hdr.status = (uint32_t)-rc;
	if (umad_file_deliver(c->f, hdr.id, &hdr, msg + hs, UMAD_MGMT_MAD_HDR) < 0)
		ch->rx_drops++;
}

/*
 * After recv() gave 0 bytes: did the peer hang up, or send a message of
 * no bytes (SOCK_SEQPACKET has them)? Only a hang-up raises RDHUP.
 */
static bool
peer_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLRDHUP };

	return poll(&p, 1, 0) != 0;
}

/* Take what a connection has (BURST messages at most). The lock is held. */
static void
conn_input(struct umad_chan *ch, struct chan_conn *c)
{
	unsigned int k;
	ssize_t n;

	for (k = 0; k < BURST && !c->dead; k++) {
		n = recv(c->fd, ch->buf, UMAD_CHAN_MAX_MSG + 1,
			 MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				c->dead = true;
			return;
		}
		if (n == 0 && peer_gone(c->fd)) {
			c->dead = true;    /* hung up */
			return;
		}
		if (n == 0) {
			/* A message of no bytes: no write, no hello. */
			IBUMAD_LOG(DEBUG, "umad channel: an empty message refused");
			if (!c->authed) {
				ch->refused++;
				c->dead = true;
				return;
			}
			ch->bad_writes++;
			continue;
		}
		if (!c->authed) {
			conn_hello(ch, c, ch->buf, n);
			continue;
		}
		if (c->f == NULL)
			continue;
		if ((size_t)n > UMAD_CHAN_MAX_MSG) {
			/* Longer than any write: not our client. */
			IBUMAD_LOG(WARNING, "umad channel: a %zd-byte message: connection closed", n);
			ch->bad_writes++;
			c->dead = true;
			return;
		}
		conn_write(ch, c, ch->buf, (size_t)n);
	}
}

/* Take listen_fd in or out of the poll set. */
static void
accept_pause(struct umad_chan *ch, bool pause)
{
	struct epoll_event ev = { .events = pause ? 0 : EPOLLIN };

	ev.data.ptr = NULL;
	if (epoll_ctl(ch->ep_fd, EPOLL_CTL_MOD, ch->listen_fd, &ev) == 0)
		ch->accept_paused = pause;
}

/* Is there room for one more connection owing its token from @pid? */
static bool
unauth_room(struct umad_chan *ch, pid_t pid)
{
	const struct chan_conn *c;
	unsigned int mine = 0;

	if (ch->unauthed >= UNAUTH_MAX)
		return false;
	LIST_FOREACH(c, &ch->conns, next)
		if (!c->authed && !c->dead && c->pid == pid)
			mine++;
	return mine < UNAUTH_PER_PID;
}

static void
conn_accept(struct umad_chan *ch)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP };
	struct ucred cred = { .pid = 0 };
	socklen_t cl = sizeof(cred);
	struct chan_conn *c;
	bool room;
	int fd;

	fd = accept4(ch->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM) {
			/* Level-triggered, it would wake us at once again. */
			if (!ch->accept_paused)
				IBUMAD_LOG(WARNING, "umad channel: accept: %s: paused",
					  strerror(errno));
			ch->accept_pauses++;
			accept_pause(ch, true);
		}
		return;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) < 0)
		cred.pid = 0;
	pthread_mutex_lock(&ch->lock);
	room = unauth_room(ch, cred.pid);
	if (!room)
		ch->refused++;
	pthread_mutex_unlock(&ch->lock);
	if (!room) {
		IBUMAD_LOG(DEBUG, "umad channel: process %d: too many connections without a token",
			  (int)cred.pid);
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		close(fd);
		return;
	}
	c->fd = fd;
	c->pid = cred.pid;
	c->deadline = now_ms() + UNAUTH_MS;
	ev.data.ptr = c;
	if (epoll_ctl(ch->ep_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		free(c);
		return;
	}
	pthread_mutex_lock(&ch->lock);
	LIST_INSERT_HEAD(&ch->conns, c, next);
	ch->unauthed++;
	pthread_mutex_unlock(&ch->lock);
}

/* Free dead connections and those silent past their deadline. */
static void
reap(struct umad_chan *ch)
{
	struct chan_conn *c, *nx;
	uint64_t now = now_ms();

	pthread_mutex_lock(&ch->lock);
	for (c = LIST_FIRST(&ch->conns); c != NULL; c = nx) {
		nx = LIST_NEXT(c, next);
		if (!c->authed && !c->dead && c->deadline <= now) {
			ch->refused++;
			c->dead = true;
		}
		if (c->dead)
			conn_free(ch, c);
	}
	pthread_mutex_unlock(&ch->lock);
}

/*
 * Arm the timer while a connection owes its token or accepting is
 * paused, else disarm.
 */
static void
timer_plan(struct umad_chan *ch)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };

	bool want = ch->unauthed > 0 || ch->accept_paused;

	if (want) {
		its.it_value.tv_nsec = (UNAUTH_MS / 4) * 1000000L;
		its.it_interval = its.it_value;
	}
	if (ch->timer_armed != want) {
		timerfd_settime(ch->timer_fd, 0, &its, NULL);
		ch->timer_armed = want;
	}
}

/*
 * One turn over what is ready, without waiting: run by the MAD core's
 * passes when ep_fd is readable (rte_ibmad_ctrl_fd_add()), or by the thread.
 * Returns false once umad_chan_stop() asked the thread to end.
 */
static bool
chan_turn(struct umad_chan *ch, int wait_ms)
{
	struct epoll_event evs[32];
	uint64_t ticks;
	int i, n;

	n = epoll_wait(ch->ep_fd, evs, RTE_DIM(evs), wait_ms);
	for (i = 0; i < n; i++) {
		struct chan_conn *c = evs[i].data.ptr;

		if (c == NULL) {
			conn_accept(ch);
			continue;
		}
		if (c == (void *)ch)
			return false;
		if (c == (void *)&ch->timer_fd) {
			if (read(ch->timer_fd, &ticks, sizeof(ticks)) < 0)
				ticks = 0;
			/* Try again: accept() says if fds are still short. */
			if (ch->accept_paused)
				accept_pause(ch, false);
			continue;
		}
		pthread_mutex_lock(&ch->lock);
		conn_input(ch, c);
		if (evs[i].events & (EPOLLHUP | EPOLLERR))
			c->dead = true;
		pthread_mutex_unlock(&ch->lock);
	}
	reap(ch);
	timer_plan(ch);
	return true;
}

static void
chan_pass(int fd, uint32_t events, void *arg)
{
	RTE_SET_USED(fd);
	RTE_SET_USED(events);
	chan_turn(arg, 0);
}

/* Where the MAD core cannot serve the channel: a thread of its own. */
static void *
chan_thread(void *arg)
{
	struct umad_chan *ch = arg;

	while (chan_turn(ch, -1))
		;
	return NULL;
}

struct umad_chan *
umad_chan_start(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct epoll_event ev = { .events = EPOLLIN };
	struct umad_chan *ch;
	int err;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	ch = calloc(1, sizeof(*ch));
	if (ch == NULL)
		return NULL;
	ch->listen_fd = ch->ep_fd = ch->stop_fd = ch->timer_fd = -1;
	pthread_mutex_init(&ch->lock, NULL);
	LIST_INIT(&ch->conns);
	snprintf(ch->path, sizeof(ch->path), "%s", path);
	memcpy(sa.sun_path, path, strlen(path));
	ch->buf = malloc(UMAD_CHAN_MAX_MSG + 1);
	ch->listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	ch->ep_fd = epoll_create1(EPOLL_CLOEXEC);
	ch->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ch->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (ch->buf == NULL || ch->listen_fd < 0 || ch->ep_fd < 0 || ch->stop_fd < 0 ||
	    ch->timer_fd < 0)
		goto fail;
	/* A socket left by a killed service is ours to replace. */
	unlink(path);
	if (bind(ch->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    chmod(path, 0660) < 0 || listen(ch->listen_fd, 64) < 0)
		goto fail;
	ev.data.ptr = NULL;
	if (epoll_ctl(ch->ep_fd, EPOLL_CTL_ADD, ch->listen_fd, &ev) < 0)
		goto fail;
	ev.data.ptr = ch;
	if (epoll_ctl(ch->ep_fd, EPOLL_CTL_ADD, ch->stop_fd, &ev) < 0)
		goto fail;
	ev.data.ptr = &ch->timer_fd;
	if (epoll_ctl(ch->ep_fd, EPOLL_CTL_ADD, ch->timer_fd, &ev) < 0)
		goto fail;
	/*
	 * The MAD core's own passes serve the channel: a MAD a client writes
	 * while the MAD core's thread is awake (delivering the answer to the
	 * last one) is sent in the same wake-up, and no thread of ours wakes
	 * per MAD.
	 */
	ch->ctrl = rte_ibmad_ctrl_fd_add(ch->ep_fd, EPOLLIN, chan_pass, ch);
	if (ch->ctrl != NULL)
		return ch;
	ch->own_thread = true;
	err = pthread_create(&ch->thread, NULL, chan_thread, ch);
	if (err != 0) {
		errno = err;
		goto fail;
	}
	pthread_setname_np(ch->thread, "ibmad-umadch");
	return ch;
fail:
	err = errno;
	if (ch->listen_fd >= 0)
		close(ch->listen_fd);
	if (ch->ep_fd >= 0)
		close(ch->ep_fd);
	if (ch->stop_fd >= 0)
		close(ch->stop_fd);
	if (ch->timer_fd >= 0)
		close(ch->timer_fd);
	free(ch->buf);
	pthread_mutex_destroy(&ch->lock);
	free(ch);
	errno = err;
	return NULL;
}

void
umad_chan_stop(struct umad_chan *ch)
{
	struct chan_conn *c;
	uint64_t one = 1;

	if (ch == NULL)
		return;
	if (!ch->own_thread) {
		rte_ibmad_ctrl_fd_del(ch->ctrl);
	} else {
		if (write(ch->stop_fd, &one, sizeof(one)) != sizeof(one))
			IBUMAD_LOG(ERR, "umad channel: cannot stop its thread: %s",
				  strerror(errno));
		pthread_join(ch->thread, NULL);
	}
	pthread_mutex_lock(&ch->lock);
	while ((c = LIST_FIRST(&ch->conns)) != NULL) {
		if (c->f != NULL)
			umad_file_detach(c->f);
		c->f = NULL;        /* the file system closes the files */
		conn_free(ch, c);
	}
	pthread_mutex_unlock(&ch->lock);
	close(ch->listen_fd);
	close(ch->ep_fd);
	close(ch->stop_fd);
	close(ch->timer_fd);
	unlink(ch->path);
	free(ch->buf);
	pthread_mutex_destroy(&ch->lock);
	free(ch);
}
