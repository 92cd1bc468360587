/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _UMAD_FILE_H_
#define _UMAD_FILE_H_

/*
 * One open /dev/infiniband/umadN: the semantics of Linux's
 * drivers/infiniband/core/user_mad.c (ib_umad_read(), ib_umad_write(),
 * ib_umad_ioctl(), ib_umad_poll(), ib_umad_close()) in the kernel's ABI
 * version 5 (<rdma/ib_user_mad.h>), independent of how the file is
 * served (umad_fs.c, FUSE) and of the MAD layer below (a backend: the
 * rte_ibmad agents of one IB port, umad_service.c).
 *
 * Threads: the file system calls the umad_file_* entry points; the
 * backend calls umad_file_deliver() from its own thread. A mutex per
 * file orders them; the backend is never called with it held.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>

#include <rdma/ib_user_mad.h>

/* Agents per open file (Linux IB_UMAD_MAX_AGENTS). */
#define UMAD_MAX_AGENTS 32
/* Default bound of a file's receive queue; past it, MADs are dropped. */
#define UMAD_RXQ_DEFAULT 256
/* Bytes of a MAD without RMPP, and the most a non-RMPP write may carry. */
#define UMAD_MAD_SIZE 256
/* Shortest write: the header and the MAD common + RMPP headers (24 + 12). */
#define UMAD_MIN_WRITE_DATA 36
/* The common MAD header a send time-out returns (Linux IB_MGMT_MAD_HDR). */
#define UMAD_MGMT_MAD_HDR 24
/* Header sizes: ib_user_mad_hdr_old and ib_user_mad_hdr. */
#define UMAD_HDR_SIZE_OLD ((size_t)sizeof(struct ib_user_mad_hdr_old))
#define UMAD_HDR_SIZE ((size_t)sizeof(struct ib_user_mad_hdr))

/*
 * Peek at the head of the receive queue without dequeuing it: the header
 * (in the file's layout, length = the whole message) and up to the first
 * 256 bytes of the MAD. A private ioctl of this service, used only by
 * its read() shim (umad_preload.c) to give libibumad the kernel's ENOSPC
 * behaviour, which a FUSE reply cannot carry. Its number encodes its
 * size, so FUSE's restricted ioctl mode carries it. ioctl() returns
 * the number of valid bytes (header + MAD bytes), -1/EAGAIN when empty.
 */
struct umad_peek {
	uint8_t buf[UMAD_HDR_SIZE + UMAD_MAD_SIZE];
};
#define UMAD_IOCTL_PEEK _IOR(IB_IOCTL_MAGIC, 0x70, struct umad_peek)

/*
 * The MAD exchange off FUSE (doc/guides/prog_guide/ibumad_lib.rst, "The
 * channel"): UMAD_IOCTL_CHANNEL gives the caller a one-time token and the
 * path of the service's SOCK_SEQPACKET socket; the caller connects and
 * sends a struct umad_chan_hello with the token; the service answers a
 * struct umad_chan_ack carrying (SCM_RIGHTS) a shared counter page and,
 * from then on, sends every MAD for the file on the connection (header
 * in the file's layout + MAD, one message each, as read() returns them)
 * and takes every message the caller sends as a write() of the file.
 */
#define UMAD_CHAN_TOKEN 16
#define UMAD_CHAN_MAGIC 0x756d6331u /* "umc1" */
struct umad_chan_info {
	uint8_t token[UMAD_CHAN_TOKEN];
	char path[108];               /* sun_path of the service's socket */
};
#define UMAD_IOCTL_CHANNEL _IOR(IB_IOCTL_MAGIC, 0x71, struct umad_chan_info)

struct umad_chan_hello {
	uint32_t magic;
	uint8_t token[UMAD_CHAN_TOKEN];
};

struct umad_chan_ack {
	uint32_t magic;
	int32_t status;               /* 0, or the errno of the refusal */
};

/*
 * The page the service shares with an attached client: the client counts
 * the messages it consumed, so that the service bounds the messages on
 * the connection by the file's rx_queue as it bounds its own queue.
 */
struct umad_chan_shared {
	uint64_t consumed;
};

/* The largest message either way: the header and an RMPP message (RMPP_MAX_MSG). */
#define UMAD_CHAN_MAX_MSG (UMAD_HDR_SIZE + (4u << 20))

/* A registration, from REGISTER_AGENT or REGISTER_AGENT2. */
struct umad_reg {
	uint64_t method_mask[2]; /* bit n: method n */
	uint32_t qpn;            /* 0 (SMI) or 1 (GSI) */
	uint32_t oui;            /* vendor class range 2 only, 24 bits */
	uint32_t flags;          /* IB_USER_MAD_USER_RMPP */
	uint8_t mgmt_class;      /* 0: send-only agent */
	uint8_t class_version;
	uint8_t rmpp_version;
};

struct umad_file;

/* The MAD layer under a file (one IB port's agents). */
struct umad_backend_ops {
	/*
	 * Register an agent for slot @id of @f. On success store a handle
	 * for the other calls; deliveries for it then come through
	 * umad_file_deliver(f, id, ...). Return 0 or -errno.
	 */
	int (*agent_register)(void *port, struct umad_file *f, unsigned int id,
			      const struct umad_reg *reg, void **handle);
	/* Unregister; no delivery for the handle after this returns. */
	void (*agent_unregister)(void *port, void *handle);
	/*
	 * Send a MAD of @len bytes (more than 256 only for an RMPP agent
	 * with the RMPP Active flag set, which the backend segments),
	 * addressed by @hdr (qpn, qkey, lid, sl, path_bits, GRH,
	 * pkey_index), with @hdr's timeout_ms and retries. A request's TID
	 * gets the agent's high 32 bits. A time-out comes back as a
	 * delivery with status ETIMEDOUT. Return 0 or -errno.
	 */
	int (*send)(void *port, void *handle, const struct ib_user_mad_hdr *hdr,
		    const void *mad, size_t len);
};

/* A received MAD (or a send time-out) queued for read(). */
struct umad_msg {
	TAILQ_ENTRY(umad_msg) next;
	struct ib_user_mad_hdr hdr; /* new layout; converted on read */
	size_t len;                 /* bytes of data[] */
	uint8_t data[];
};

TAILQ_HEAD(umad_msg_list, umad_msg);

/* Requests a file remembers having been handed (struct umad_file). */
#define UMAD_SEEN_MAX 32

struct umad_file {
	pthread_mutex_t lock;
	const struct umad_backend_ops *ops;
	void *port;
	void *agents[UMAD_MAX_AGENTS];   /* backend handles, NULL: free slot */
	bool agent_rmpp[UMAD_MAX_AGENTS]; /* kernel segments this agent's sends */
	bool agent_smi[UMAD_MAX_AGENTS];  /* registered on QP0 */
	struct umad_msg_list rxq;
	unsigned int rx_count;
	unsigned int rx_max;
	uint64_t rx_drops;             /* queue full */
	bool pkey_enabled;             /* 64-byte header */
	bool used;                     /* an agent was ever registered */
	bool closed;
	/*
	 * Attached channel: deliveries go to chan_fd (never blocking) while
	 * chan_sent - chan_shared->consumed stays below rx_max.
	 */
	int chan_fd;
	uint64_t chan_sent;
	const struct umad_chan_shared *chan_shared;
	/* Called, without the lock, when the queue becomes non-empty. */
	void (*wake)(struct umad_file *f, void *arg);
	void *wake_arg;
	/* The opener's process (0: unknown), for the service's limits. */
	pid_t owner;
	/*
	 * The last UMAD_SEEN_MAX requests handed to the file (TID, class,
	 * source LID), newest at seen_next - 1: the transfers of other
	 * agents' TIDs whose RMPP ACK, STOP or ABORT it may write
	 * (umad_service.c, rmpp_ctl_check()).
	 */
	struct umad_seen {
		uint64_t tid;
		uint16_t lid;
		uint8_t mgmt_class;
	} seen[UMAD_SEEN_MAX];
	unsigned int seen_next;
};

/* Initialise @f for a backend port; @rx_max 0 means UMAD_RXQ_DEFAULT. */
void umad_file_init(struct umad_file *f, const struct umad_backend_ops *ops,
		    void *port, unsigned int rx_max);

/*
 * Unregister every agent and free the queue (close()); later calls do
 * nothing. The file stays valid for umad_file_close().
 */
void umad_file_shutdown(struct umad_file *f);

/* umad_file_shutdown(), then free what is left (close()). */
void umad_file_close(struct umad_file *f);

/*
 * Attach a connected channel: queued MADs move to @fd in order, then
 * every delivery goes there. Returns the number of MADs moved.
 */
unsigned int umad_file_attach(struct umad_file *f, int fd,
			      const struct umad_chan_shared *shared);

/* Stop delivering to the channel (deliveries queue again). */
void umad_file_detach(struct umad_file *f);

/* The agents of a file, a bit per id, as the write checks need them. */
struct umad_agent_set {
	uint32_t present;       /* registered */
	uint32_t rmpp;          /* the service segments their RMPP sends */
	uint32_t smi;           /* on QP0 */
};

/*
 * The checks of a write that need no MAD layer: Linux ib_umad_write()'s
 * size (EINVAL), agent id (EINVAL out of range, EIO not registered) and
 * length of a MAD the kernel would not segment (EINVAL over 256 bytes
 * unless RMPP-active on an RMPP agent), and the MAD core's refusals of
 * what no MAD may be (rte_ibmad_send(): EINVAL for a BaseVersion other
 * than 1, a class of the other QP, LID 0, an SL over 15, a QPN over 24
 * bits). Returns 0 and sets *@whole when the MAD is sent at its exact
 * length (RMPP), else it is zero-padded to 256 bytes. The shim applies
 * them to channel writes (umad_preload.c), so that they stay synchronous.
 */
int umad_write_check(size_t hs, const void *buf, size_t count,
		     const struct umad_agent_set *agents, bool *whole);

/* Header size in use: 64 after ENABLE_PKEY or REGISTER_AGENT2, else 56. */
size_t umad_file_hdr_size(const struct umad_file *f);

/*
 * ioctl(): @cmd with @in (in_len bytes, as _IOC_SIZE(cmd) says) and @out
 * (room for out_len bytes). Returns 0 and sets *out_used, or -errno:
 * ENOTTY for an unknown command, the kernel's errors otherwise.
 */
int umad_file_ioctl(struct umad_file *f, unsigned int cmd, const void *in,
		    size_t in_len, void *out, size_t out_len, size_t *out_used);

/* write(): returns @count or -errno (EINVAL, EIO, ENOMEM, backend's). */
ssize_t umad_file_write(struct umad_file *f, const void *buf, size_t count);

/*
 * read() of one message into @buf: its size, -EAGAIN when the queue is
 * empty, -EINVAL when @count cannot hold the header or a non-RMPP MAD
 * (the message stays queued), -ENOSPC when an RMPP message is longer than
 * @count (it stays queued; the caller learns its size with
 * UMAD_IOCTL_PEEK).
 */
ssize_t umad_file_read(struct umad_file *f, void *buf, size_t count);

/* True when read() would find a message. */
bool umad_file_readable(struct umad_file *f);

/*
 * Queue a MAD for agent slot @id: @hdr gives status and the source
 * address (id and length are set here), @mad the MAD (an RMPP message
 * reassembled: the first segment whole, the later ones' payloads after
 * it). Dropped and counted when the queue is full or the file closed.
 * Returns 0, or -ENOBUFS / -ENOMEM / -EPIPE when dropped.
 */
int umad_file_deliver(struct umad_file *f, unsigned int id,
		      const struct ib_user_mad_hdr *hdr, const void *mad,
		      size_t len);

/*
 * Remember that a request of @tid and @mgmt_class from @lid was handed
 * to @f (one entry for the segments of one request in a row), and
 * whether one was.
 */
void umad_file_seen_add(struct umad_file *f, uint64_t tid, uint8_t mgmt_class,
			uint16_t lid);
bool umad_file_seen(struct umad_file *f, uint64_t tid, uint8_t mgmt_class,
		    uint16_t lid);

#endif /* _UMAD_FILE_H_ */
