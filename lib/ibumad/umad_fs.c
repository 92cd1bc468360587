/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The user-MAD device files over FUSE (umad_fs.h).
 *
 * Inodes: 1 is the directory; umad<I> is 2 + 2 I, issm<I> is 3 + 2 I.
 * Files are opened with direct_io and nonseekable, so every read() and
 * write() reaches us with the caller's exact count and may return short
 * (what the umad ABI needs: one MAD per call). The kernel's read() rules
 * live in umad_file.c; this file maps FUSE requests onto them and parks
 * the requests that would block.
 */

#define FUSE_USE_VERSION 35

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fuse_lowlevel.h>

#include <rte_common.h>
#include <rte_log.h>

#include "ibumad_private.h"
#include "umad_chan.h"
#include "umad_fs.h"
#include "umad_fs_long.h"

#define INO_ROOT 1
#define INO_FIRST 2

/* A parked blocking issm open. */
struct issm_waiter {
	TAILQ_ENTRY(issm_waiter) next;
	fuse_req_t req;
	struct fuse_file_info fi;
};

struct fs_port {
	bool present;
	struct umad_fs_port conf;
	bool issm_held;
	TAILQ_HEAD(, issm_waiter) issm_waiters;
};

/* An open umad file. */
struct fs_file {
	struct umad_file f;
	struct umad_fs *fs;
	pthread_mutex_t mu;               /* parked read and poll handle */
	fuse_req_t parked;                /* a blocking read waiting for data */
	size_t parked_size;
	struct fuse_pollhandle *ph;
	bool nonblock;
	struct umad_fs_long lio;          /* read/write past one request */
};

struct umad_fs {
	struct fuse_session *se;
	pthread_t thread;
	bool running;
	pthread_mutex_t lock;             /* ports, issm state */
	struct fs_port ports[UMAD_FS_MAX_PORTS];
	unsigned int open_files;          /* umad files open now */
	int stop_fd;                      /* eventfd: ends fs_thread */
	struct umad_chan *chan;           /* NULL: no channel offered */
	char mountpoint[4096];
};

static bool
ino_to_port(fuse_ino_t ino, unsigned int *id, bool *issm)
{
	if (ino < INO_FIRST || ino >= INO_FIRST + 2 * UMAD_FS_MAX_PORTS)
		return false;
	*id = (unsigned int)(ino - INO_FIRST) / 2;
	*issm = (ino - INO_FIRST) % 2 == 1;
	return true;
}

static void
fill_attr(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	if (ino == INO_ROOT) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else {
		/* Regular files: libibumad never looks (no S_ISCHR check). */
		st->st_mode = S_IFREG | 0660;
		st->st_nlink = 1;
	}
}

/* Is port @id published? Called with fs->lock held. */
static bool
port_present(struct umad_fs *fs, unsigned int id)
{
	return id < UMAD_FS_MAX_PORTS && fs->ports[id].present;
}

static void
fs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct umad_fs *fs = fuse_req_userdata(req);
	struct fuse_entry_param e;
	unsigned int id;
	char kind[5], extra;
	bool ok;

	if (parent != INO_ROOT ||
	    sscanf(name, "%4[a-z]%u%c", kind, &id, &extra) != 2 ||
	    (strcmp(kind, "umad") != 0 && strcmp(kind, "issm") != 0)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	pthread_mutex_lock(&fs->lock);
	ok = port_present(fs, id);
	pthread_mutex_unlock(&fs->lock);
	if (!ok) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = INO_FIRST + 2 * id + (kind[0] == 'i');
	fill_attr(e.ino, &e.attr);
	/* No caching: ports come and go with the devices. */
	e.attr_timeout = 0;
	e.entry_timeout = 0;
	fuse_reply_entry(req, &e);
}

static void
fs_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;
	unsigned int id;
	bool issm;

	RTE_SET_USED(fi);
	if (ino != INO_ROOT && !ino_to_port(ino, &id, &issm)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_attr(ino, &st);
	fuse_reply_attr(req, &st, 0);
}

static void
fs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
	   struct fuse_file_info *fi)
{
	struct umad_fs *fs = fuse_req_userdata(req);
	char *buf, name[32];
	size_t used = 0, n;
	struct stat st;
	off_t next = 0;
	unsigned int id, k;

	RTE_SET_USED(fi);
	if (ino != INO_ROOT) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	buf = calloc(1, size);
	if (buf == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	pthread_mutex_lock(&fs->lock);
	/* Offsets: 1 ".", 2 "..", then 3 + 2 id + k for each published file. */
	for (k = 0; k < 2; k++) {
		next++;
		if (next <= off)
			continue;
		fill_attr(INO_ROOT, &st);
		n = fuse_add_direntry(req, buf + used, size - used, k ? ".." : ".",
				      &st, next);
		if (n > size - used)
			goto full;
		used += n;
	}
	for (id = 0; id < UMAD_FS_MAX_PORTS; id++) {
		for (k = 0; k < 2; k++) {
			next = 3 + 2 * id + k;
			if (!fs->ports[id].present || next <= off)
				continue;
			snprintf(name, sizeof(name), "%s%u", k ? "issm" : "umad", id);
			fill_attr(INO_FIRST + 2 * id + k, &st);
			n = fuse_add_direntry(req, buf + used, size - used, name,
					      &st, next);
			if (n > size - used)
				goto full;
			used += n;
		}
	}
full:
	pthread_mutex_unlock(&fs->lock);
	fuse_reply_buf(req, buf, used);
	free(buf);
}

/* A read's answer: @p n bytes of @p buf, or the error -@p n. */
static void
reply_read(fuse_req_t req, const uint8_t *buf, ssize_t n)
{
	if (n >= 0)
		fuse_reply_buf(req, (const char *)buf, (size_t)n);
	else
		fuse_reply_err(req, (int)-n);
}

/* A MAD arrived for @f: answer a parked read, wake a poller. */
static void
file_wake(struct umad_file *uf, void *arg)
{
	struct fs_file *ff = arg;
	fuse_req_t req = NULL;
	uint8_t *buf = NULL;
	ssize_t n = 0;

	RTE_SET_USED(uf);
	pthread_mutex_lock(&ff->mu);
	if (ff->parked != NULL) {
		buf = malloc(ff->parked_size);
		n = buf != NULL ? umad_file_read(&ff->f, buf, ff->parked_size) :
			-ENOMEM;
		if (n != -EAGAIN) {
			req = ff->parked;
			ff->parked = NULL;
		}
	}
	if (ff->ph != NULL)
		fuse_lowlevel_notify_poll(ff->ph);
	pthread_mutex_unlock(&ff->mu);
	if (req != NULL)
		reply_read(req, buf, n);
	free(buf);
}

/*
 * A signal reached a process parked in open(issm): FUSE's INTERRUPT. Its
 * open ends with EINTR and its place in the queue goes, as Linux
 * ib_umad_sm_open()'s down_interruptible() ends; without this answer
 * the kernel waits for ours uninterruptibly, SIGKILL or not. The waiter
 * is looked up by request under the lock, never dereferenced from
 * @data: a port removal may have answered and freed it.
 */
static void
issm_interrupted(fuse_req_t req, void *data)
{
	struct umad_fs *fs = fuse_req_userdata(req);
	struct fs_port *p = data;
	struct issm_waiter *w;

	pthread_mutex_lock(&fs->lock);
	TAILQ_FOREACH(w, &p->issm_waiters, next)
		if (w->req == req)
			break;
	if (w != NULL)
		TAILQ_REMOVE(&p->issm_waiters, w, next);
	pthread_mutex_unlock(&fs->lock);
	if (w != NULL) {
		fuse_reply_err(req, EINTR);
		free(w);
	}
}

static void
issm_open(fuse_req_t req, struct umad_fs *fs, unsigned int id,
	  struct fuse_file_info *fi)
{
	struct fs_port *p = &fs->ports[id];
	struct issm_waiter *w;
	int rc;

	if (p->issm_held) {
		/* One holder per port (Linux ib_umad_sm_open()'s semaphore). */
		if (fi->flags & O_NONBLOCK) {
			pthread_mutex_unlock(&fs->lock);
			fuse_reply_err(req, EAGAIN);
			return;
		}
		w = calloc(1, sizeof(*w));
		if (w == NULL) {
			pthread_mutex_unlock(&fs->lock);
			fuse_reply_err(req, ENOMEM);
			return;
		}
		w->req = req;
		w->fi = *fi;
		TAILQ_INSERT_TAIL(&p->issm_waiters, w, next);
		pthread_mutex_unlock(&fs->lock);
		/* Runs it at once if the signal came first. */
		fuse_req_interrupt_func(req, issm_interrupted, p);
		return;
	}
	rc = p->conf.set_issm(p->conf.port, true);
	if (rc == 0)
		p->issm_held = true;
	pthread_mutex_unlock(&fs->lock);
	if (rc < 0) {
		fuse_reply_err(req, -rc);
		return;
	}
	fi->direct_io = 1;
	fi->nonseekable = 1;
	fi->fh = 0;
	fuse_reply_open(req, fi);
}

static pid_t tgid_of(pid_t tid);

static void
fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct umad_fs *fs = fuse_req_userdata(req);
	struct fs_file *ff;
	unsigned int id;
	bool issm;

	if (!ino_to_port(ino, &id, &issm)) {
		fuse_reply_err(req, ino == INO_ROOT ? EISDIR : ENOENT);
		return;
	}
	pthread_mutex_lock(&fs->lock);
	if (!fs->ports[id].present) {
		pthread_mutex_unlock(&fs->lock);
		fuse_reply_err(req, ENXIO);
		return;
	}
	if (issm) {
		issm_open(req, fs, id, fi);   /* unlocks */
		return;
	}
	ff = calloc(1, sizeof(*ff));
	if (ff == NULL) {
		pthread_mutex_unlock(&fs->lock);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	umad_file_init(&ff->f, fs->ports[id].conf.ops, fs->ports[id].conf.port,
		       fs->ports[id].conf.rx_max);
	pthread_mutex_unlock(&fs->lock);
	pthread_mutex_init(&ff->mu, NULL);
	ff->fs = fs;
	ff->nonblock = (fi->flags & O_NONBLOCK) != 0;
	ff->f.wake = file_wake;
	ff->f.wake_arg = ff;
	ff->f.owner = RTE_MAX(tgid_of(fuse_req_ctx(req)->pid), 0);
	fi->fh = (uintptr_t)ff;
	fi->direct_io = 1;
	fi->nonseekable = 1;
	if (fuse_reply_open(req, fi) != 0) {
		/* The opener went away: release will not come. */
		umad_file_close(&ff->f);
		free(ff);
		return;
	}
	pthread_mutex_lock(&fs->lock);
	fs->open_files++;
	pthread_mutex_unlock(&fs->lock);
}

static void
fs_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct umad_fs *fs = fuse_req_userdata(req);
	struct fs_file *ff = (struct fs_file *)(uintptr_t)fi->fh;
	struct issm_waiter *w;
	unsigned int id;
	bool issm;
	int rc;

	if (ino_to_port(ino, &id, &issm) && issm) {
		struct fs_port *p = &fs->ports[id];

		for (;;) {
			pthread_mutex_lock(&fs->lock);
			w = TAILQ_FIRST(&p->issm_waiters);
			if (w != NULL) {
				/* Hand the port to the next waiter; IsSM stays set. */
				TAILQ_REMOVE(&p->issm_waiters, w, next);
			} else {
				p->issm_held = false;
				if (p->present)
					p->conf.set_issm(p->conf.port, false);
			}
			pthread_mutex_unlock(&fs->lock);
			if (w == NULL)
				break;
			w->fi.direct_io = 1;
			w->fi.nonseekable = 1;
			w->fi.fh = 0;
			/* An opener already gone cannot hold it: the next one. */
			rc = fuse_reply_open(w->req, &w->fi);
			free(w);
			if (rc == 0)
				break;
		}
		fuse_reply_err(req, 0);
		return;
	}
	if (ff != NULL) {
		/* A killed client's files come here too: the kernel releases
		 * them when the process's last reference goes.
		 */
		if (fs->chan != NULL)
			umad_chan_forget(fs->chan, &ff->f);
		umad_file_close(&ff->f);
		pthread_mutex_lock(&fs->lock);
		fs->open_files--;
		pthread_mutex_unlock(&fs->lock);
		pthread_mutex_lock(&ff->mu);
		if (ff->parked != NULL)
			fuse_reply_err(ff->parked, EBADF);
		if (ff->ph != NULL)
			fuse_pollhandle_destroy(ff->ph);
		pthread_mutex_unlock(&ff->mu);
		pthread_mutex_destroy(&ff->mu);
		umad_fs_long_free(&ff->lio);
		free(ff);
	}
	fuse_reply_err(req, 0);
}

static void
read_interrupted(fuse_req_t req, void *data)
{
	struct fs_file *ff = data;
	bool mine = false;

	pthread_mutex_lock(&ff->mu);
	if (ff->parked == req) {
		ff->parked = NULL;
		mine = true;
	}
	pthread_mutex_unlock(&ff->mu);
	if (mine)
		fuse_reply_err(req, EINTR);
}

static void
fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
	struct fuse_file_info *fi)
{
	struct fs_file *ff = (struct fs_file *)(uintptr_t)fi->fh;
	uint8_t *buf;
	ssize_t n;

	RTE_SET_USED(ino);
	RTE_SET_USED(off);
	if (ff == NULL) {
		fuse_reply_err(req, EINVAL);   /* issm: no read */
		return;
	}
	buf = malloc(size > 0 ? size : 1);
	if (buf == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	pthread_mutex_lock(&ff->mu);
	if (umad_fs_long_read(&ff->lio, &ff->f, buf, size, &n)) {
		pthread_mutex_unlock(&ff->mu);
		reply_read(req, buf, n);
		free(buf);
		return;
	}
	n = umad_file_read(&ff->f, buf, size);
	if (n == -EAGAIN && !(fi->flags & O_NONBLOCK)) {
		if (ff->parked != NULL) {
			/* One sleeper per file; a second one polls instead. */
			pthread_mutex_unlock(&ff->mu);
			fuse_reply_err(req, EAGAIN);
		} else {
			ff->parked = req;
			ff->parked_size = size;
			pthread_mutex_unlock(&ff->mu);
			fuse_req_interrupt_func(req, read_interrupted, ff);
		}
		free(buf);
		return;
	}
	pthread_mutex_unlock(&ff->mu);
	reply_read(req, buf, n);
	free(buf);
}

static void
fs_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
	 off_t off, struct fuse_file_info *fi)
{
	struct fs_file *ff = (struct fs_file *)(uintptr_t)fi->fh;
	ssize_t n;

	RTE_SET_USED(ino);
	RTE_SET_USED(off);
	if (ff == NULL) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (!umad_fs_long_write(&ff->lio, &ff->f, buf, size, &n))
		n = umad_file_write(&ff->f, buf, size);
	if (n >= 0)
		fuse_reply_write(req, (size_t)n);
	else
		fuse_reply_err(req, (int)-n);
}

/* The thread group of thread @tid (a FUSE request names the thread). */
static pid_t
tgid_of(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	fp = fopen(path, "re");
	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(fp);
	return tgid;
}

/* UMAD_IOCTL_CHANNEL: a token for this open file, for its caller only. */
static void
ioctl_channel(fuse_req_t req, struct umad_fs *fs, struct fs_file *ff,
	      size_t out_bufsz)
{
	struct umad_chan_info info;
	pid_t pid;
	int rc;

	if (fs->chan == NULL) {
		fuse_reply_err(req, ENOTTY);
		return;
	}
	if (out_bufsz < sizeof(info)) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	pid = tgid_of(fuse_req_ctx(req)->pid);
	if (pid <= 0) {
		fuse_reply_err(req, ESRCH);
		return;
	}
	rc = umad_chan_offer(fs->chan, &ff->f, pid, &info);
	if (rc < 0)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_ioctl(req, 0, &info, sizeof(info));
}

static void
fs_ioctl(fuse_req_t req, fuse_ino_t ino, unsigned int cmd, void *arg,
	 struct fuse_file_info *fi, unsigned int flags, const void *in_buf,
	 size_t in_bufsz, size_t out_bufsz)
{
	struct fs_file *ff = (struct fs_file *)(uintptr_t)fi->fh;
	uint8_t out[sizeof(struct umad_peek)];
	size_t used = 0;
	int rc;

	RTE_SET_USED(ino);
	RTE_SET_USED(arg);
	if (ff == NULL || (flags & FUSE_IOCTL_COMPAT)) {
		fuse_reply_err(req, ENOTTY);
		return;
	}
	if (cmd == UMAD_IOCTL_CHANNEL) {
		ioctl_channel(req, fuse_req_userdata(req), ff, out_bufsz);
		return;
	}
	rc = umad_fs_long_ioctl(&ff->lio, cmd, in_buf, in_bufsz);
	if (rc == -ENOTTY)
		rc = umad_file_ioctl(&ff->f, cmd, in_buf, in_bufsz, out,
				     RTE_MIN(out_bufsz, sizeof(out)), &used);
	if (rc < 0)
		fuse_reply_err(req, -rc);
	else if (cmd == UMAD_IOCTL_PEEK)
		/* ioctl() returns the bytes of the peek that are valid. */
		fuse_reply_ioctl(req, (int)used, out, used);
	else
		fuse_reply_ioctl(req, 0, used ? out : NULL, used);
}

static void
fs_poll(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi,
	struct fuse_pollhandle *ph)
{
	struct fs_file *ff = (struct fs_file *)(uintptr_t)fi->fh;
	unsigned int revents = POLLOUT | POLLWRNORM;

	RTE_SET_USED(ino);
	if (ff == NULL) {
		if (ph != NULL)
			fuse_pollhandle_destroy(ph);
		fuse_reply_poll(req, 0);
		return;
	}
	pthread_mutex_lock(&ff->mu);
	if (ph != NULL) {
		if (ff->ph != NULL)
			fuse_pollhandle_destroy(ff->ph);
		ff->ph = ph;
	}
	if (umad_file_readable(&ff->f))
		revents |= POLLIN | POLLRDNORM;
	pthread_mutex_unlock(&ff->mu);
	fuse_reply_poll(req, revents);
}

static void
fs_init(void *userdata, struct fuse_conn_info *conn)
{
	RTE_SET_USED(userdata);
	/* RMPP messages up to 1 MiB in one request; longer ones in several
	 * (umad_fs_long.c).
	 */
	conn->max_write = UMAD_FS_MAX_IO;
	conn->max_read = UMAD_FS_MAX_IO;
	conn->want &= ~FUSE_CAP_ASYNC_READ;
}

static const struct fuse_lowlevel_ops fs_ops = {
	.init = fs_init,
	.lookup = fs_lookup,
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.release = fs_release,
	.read = fs_read,
	.write = fs_write,
	.ioctl = fs_ioctl,
	.poll = fs_poll,
};

/*
 * fuse_session_loop() with a way out: a lazy unmount ends the session's
 * read of /dev/fuse only once no process holds the mount any more (an
 * open file, a mount namespace of dpdk-ib-ns whose last process is still
 * exiting), so a stop that waited for it could wait for ever. The loop
 * also polls stop_fd; umad_fs_stop() writes it.
 */
static void *
fs_thread(void *arg)
{
	struct umad_fs *fs = arg;
	struct fuse_buf fbuf = { .mem = NULL };
	struct pollfd pfd[2] = {
		{ .fd = fuse_session_fd(fs->se), .events = POLLIN },
		{ .fd = fs->stop_fd, .events = POLLIN },
	};
	int rc;

	while (!fuse_session_exited(fs->se)) {
		if (poll(pfd, RTE_DIM(pfd), -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents != 0)
			break;
		if (pfd[0].revents & (POLLERR | POLLHUP | POLLNVAL))
			break;
		if (!(pfd[0].revents & POLLIN))
			continue;
		rc = fuse_session_receive_buf(fs->se, &fbuf);
		if (rc == -EINTR || rc == -EAGAIN)
			continue;
		if (rc <= 0)
			break;     /* 0 or -ENODEV: unmounted */
		fuse_session_process_buf(fs->se, &fbuf);
	}
	free(fbuf.mem);
	return NULL;
}

/*
 * A run directory's dev/ may still hold the mount of a service that was
 * killed (the kernel keeps it, "Transport endpoint is not connected"):
 * detach it. A live mount there belongs to another service: refuse.
 */
static int
mountpoint_check(const char *mountpoint)
{
	char parent[4096];
	struct stat st, pst;

	if (stat(mountpoint, &st) < 0) {
		if (errno != ENOTCONN)
			return -errno;
		IBUMAD_LOG(WARNING, "%s: a dead service's mount, detached", mountpoint);
		if (umount2(mountpoint, MNT_DETACH) < 0)
			return -errno;
		return stat(mountpoint, &st) < 0 ? -errno : 0;
	}
	snprintf(parent, sizeof(parent), "%s/..", mountpoint);
	if (stat(parent, &pst) == 0 && pst.st_dev != st.st_dev) {
		IBUMAD_LOG(ERR, "%s: already mounted (another user-MAD service?)",
			  mountpoint);
		return -EBUSY;
	}
	return 0;
}

struct umad_fs *
umad_fs_start(const char *mountpoint)
{
	char *argv[] = { (char *)"ibmad-umad", (char *)"-o",
			 (char *)"max_read=1048576", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, argv);
	struct umad_fs *fs;
	unsigned int i;
	int err;

	err = mountpoint_check(mountpoint);
	if (err < 0) {
		errno = -err;
		return NULL;
	}
	fs = calloc(1, sizeof(*fs));
	if (fs == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	fs->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (fs->stop_fd < 0) {
		err = errno;
		free(fs);
		errno = err;
		return NULL;
	}
	pthread_mutex_init(&fs->lock, NULL);
	for (i = 0; i < UMAD_FS_MAX_PORTS; i++)
		TAILQ_INIT(&fs->ports[i].issm_waiters);
	snprintf(fs->mountpoint, sizeof(fs->mountpoint), "%s", mountpoint);
	fs->se = fuse_session_new(&args, &fs_ops, sizeof(fs_ops), fs);
	/* The session may have copied the arguments onto the heap. */
	fuse_opt_free_args(&args);
	if (fs->se == NULL) {
		err = EIO;
		goto fail;
	}
	if (fuse_session_mount(fs->se, mountpoint) != 0) {
		err = EIO;
		IBUMAD_LOG(ERR, "cannot mount the umad file system on %s", mountpoint);
		goto fail_session;
	}
	err = pthread_create(&fs->thread, NULL, fs_thread, fs);
	if (err != 0)
		goto fail_mount;
	fs->running = true;
	return fs;

fail_mount:
	fuse_session_unmount(fs->se);
fail_session:
	fuse_session_destroy(fs->se);
fail:
	pthread_mutex_destroy(&fs->lock);
	close(fs->stop_fd);
	free(fs);
	errno = err;
	return NULL;
}

int
umad_fs_chan_start(struct umad_fs *fs, const char *path)
{
	fs->chan = umad_chan_start(path);
	return fs->chan != NULL ? 0 : -errno;
}

void
umad_fs_chan_counts(struct umad_fs *fs, struct umad_chan_counts *c)
{
	if (fs->chan != NULL)
		umad_chan_counts(fs->chan, c);
	else
		memset(c, 0, sizeof(*c));
}

void
umad_fs_stop(struct umad_fs *fs)
{
	if (fs == NULL)
		return;
	if (fs->running) {
		uint64_t one = 1;

		fuse_session_exit(fs->se);
		fuse_session_unmount(fs->se);
		if (write(fs->stop_fd, &one, sizeof(one)) != sizeof(one))
			IBUMAD_LOG(ERR, "umad file system: cannot stop its thread: %s",
				  strerror(errno));
		pthread_join(fs->thread, NULL);
	}
	/* No request runs now: the channel goes before the files do. */
	umad_chan_stop(fs->chan);
	/* Closing /dev/fuse aborts the connection: late clients get ENOTCONN. */
	fuse_session_destroy(fs->se);
	pthread_mutex_destroy(&fs->lock);
	close(fs->stop_fd);
	free(fs);
}

int
umad_fs_add_port(struct umad_fs *fs, unsigned int id,
		 const struct umad_fs_port *port)
{
	if (id >= UMAD_FS_MAX_PORTS || port->ops == NULL ||
	    port->set_issm == NULL)
		return -EINVAL;
	pthread_mutex_lock(&fs->lock);
	if (fs->ports[id].present) {
		pthread_mutex_unlock(&fs->lock);
		return -EEXIST;
	}
	fs->ports[id].conf = *port;
	fs->ports[id].present = true;
	pthread_mutex_unlock(&fs->lock);
	return 0;
}

void
umad_fs_remove_port(struct umad_fs *fs, unsigned int id)
{
	struct issm_waiter *w;

	if (id >= UMAD_FS_MAX_PORTS)
		return;
	pthread_mutex_lock(&fs->lock);
	fs->ports[id].present = false;
	fs->ports[id].issm_held = false;
	while ((w = TAILQ_FIRST(&fs->ports[id].issm_waiters)) != NULL) {
		TAILQ_REMOVE(&fs->ports[id].issm_waiters, w, next);
		fuse_reply_err(w->req, ENXIO);
		free(w);
	}
	pthread_mutex_unlock(&fs->lock);
}

void
umad_fs_counts(struct umad_fs *fs, unsigned int *files, unsigned int *issm)
{
	unsigned int i;

	pthread_mutex_lock(&fs->lock);
	*files = fs->open_files;
	*issm = 0;
	for (i = 0; i < UMAD_FS_MAX_PORTS; i++)
		if (fs->ports[i].present && fs->ports[i].issm_held)
			(*issm)++;
	pthread_mutex_unlock(&fs->lock);
}
