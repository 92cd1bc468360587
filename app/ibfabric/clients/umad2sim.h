/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Server side of ibsim's client protocol, private to app/ibfabric/.
 *
 * Clients are processes running with ibsim's libumad2sim.so preloaded
 * (OpenSM, infiniband-diags). They talk to the simulator over abstract
 * UNIX datagram sockets: a control socket "<base>:ctl" for the sim_ctl
 * exchange (attach, queries, IsSM) and one data socket "<base>:out<i>"
 * per client slot carrying one MAD per sim_request datagram. The wire
 * structs below are ibsim 0.10's include/ibsim.h re-declared from their
 * field lists (checked against their x86-64 sizes, compiled from
 * ibsim.h); all fields are host order except where
 * a comment says big-endian.
 *
 * Threading: everything runs on main.c's event-loop thread.
 */

#ifndef _IBFABRIC_UMAD2SIM_H_
#define _IBFABRIC_UMAD2SIM_H_

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ib_proto.h"

struct fab_hdrs;
struct fab_pkt;
struct fab_port;
struct fabric;

/* ------------------------------------------------------------------ */
/* Wire format (ibsim.h)                                               */

#define U2S_MAGIC		0xdeadbeefu	/**< SIM_MAGIC */
#define U2S_CTL_DATA_MAX	64		/**< SIM_CTL_MAX_DATA */
#define U2S_NODEID_LEN		32
#define U2S_IBSIM_MAX_CLIENTS	10		/**< ibsim's IBSIM_MAX_CLIENTS */
#define U2S_DEFAULT_BASENAME	"sim"		/**< SIM_BASENAME */
#define U2S_STATUS_TIMEOUT	110		/**< ETIMEDOUT, the drop echo */

/** SIM_CTL_TYPES, in ibsim's enum order. */
enum u2s_ctl_type {
	U2S_CTL_ERROR = 0,	/**< reply type meaning failure */
	U2S_CTL_CONNECT = 1,
	U2S_CTL_DISCONNECT = 2,
	U2S_CTL_GET_PORT = 3,
	U2S_CTL_GET_VENDOR = 4,
	U2S_CTL_GET_GID = 5,
	U2S_CTL_GET_GUID = 6,
	U2S_CTL_GET_NODEINFO = 7,
	U2S_CTL_GET_PORTINFO = 8,
	U2S_CTL_SET_ISSM = 9,
	U2S_CTL_GET_PKEYS = 10,
};

/** struct sim_ctl: every control datagram, both directions (80 bytes). */
struct u2s_ctl {
	uint32_t magic;
	uint32_t clientid;	/**< slot; 0 in CONNECT */
	uint32_t type;		/**< enum u2s_ctl_type; ERROR in a failed reply */
	uint32_t len;		/**< echoed unchanged */
	uint8_t data[U2S_CTL_DATA_MAX];
};

/** struct sim_client_info: CONNECT payload (44 bytes). */
struct u2s_client_info {
	uint32_t id;		/**< request: client pid; reply: slot */
	uint32_t qp;
	uint32_t issm;
	char nodeid[U2S_NODEID_LEN];
};

/** struct sim_port: GET_PORT reply (4 bytes). */
struct u2s_port {
	uint16_t lid;
	uint8_t state;
	uint8_t pad;
};

/** struct sim_vendor: GET_VENDOR reply (24 bytes). */
struct u2s_vendor {
	uint32_t vendor_id;
	uint32_t vendor_part_id;	/**< NodeInfo DeviceID */
	uint32_t hw_ver;		/**< NodeInfo Revision */
	uint32_t pad;
	uint64_t fw_ver;		/**< ibsim always sends 1 */
};

/**
 * struct sim_request: one MAD per data datagram, both directions (288
 * bytes). @c dlid and @c slid hold the big-endian 16-bit LID as the
 * integer value of a uint32_t (umad2sim assigns the BE16 umad field to
 * it, ibsim reads ntohs() of it); u2s_lid_get/u2s_lid_set convert.
 */
struct u2s_request {
	uint32_t dlid;
	uint32_t slid;		/**< 0 from a client: fill in its port's LID */
	uint32_t dqp;		/**< big-endian */
	uint32_t sqp;		/**< big-endian */
	uint32_t status;	/**< big-endian; 110 in the drop echo */
	uint32_t pad;
	uint64_t length;	/**< big-endian: valid MAD bytes, <= 256 */
	uint8_t mad[IB_MAD_SIZE];
};

_Static_assert(sizeof(struct u2s_ctl) == 80, "sim_ctl is 80 bytes");
_Static_assert(sizeof(struct u2s_client_info) == 44, "sim_client_info is 44 bytes");
_Static_assert(sizeof(struct u2s_port) == 4, "sim_port is 4 bytes");
_Static_assert(sizeof(struct u2s_vendor) == 24, "sim_vendor is 24 bytes");
_Static_assert(sizeof(struct u2s_request) == 288, "sim_request is 288 bytes");

/* ------------------------------------------------------------------ */
/* Server state                                                        */

/**
 * Client slots. ibsim has 10; the slot number travels in TID bits 63..48
 * and names the data socket "<base>:out<slot>", so any number up to
 * 65535 works with an unmodified libumad2sim. We bind 64.
 */
#define UMAD2SIM_MAX_CLIENTS	64

/**
 * One client slot. Written only by umad2sim.c. A slot lives from CONNECT
 * until DISCONNECT, a failed write to its socket (ECONNREFUSED: the
 * process is gone), or the periodic liveness check finding its pid gone;
 * @c gen is bumped on every attach so packets still in flight for an
 * earlier owner of the slot are not reported to the new one.
 */
/**
 * MADs waiting for room in one client's receive queue. Deliveries never
 * wait: what the socket does not take at once is queued here, written
 * when the socket turns writable, and lost (counted) beyond this bound.
 */
#define UMAD2SIM_QUEUE_MAX	256

struct fab_client {
	struct fab_client *next_on_port;	/**< fab_port.clients list */
	struct fab_port *port;		/**< attach port: CA port 1 / switch port 0 */
	int fd;				/**< "<base>:out<slot>", bound at open */
	unsigned int slot;
	uint32_t gen;
	uint32_t pid;			/**< checked against SO_PASSCRED at CONNECT */
	uint32_t qp;
	bool attached;
	bool issm;			/**< receives unsolicited QP0/QP1 requests */
	/** The control socket that sent CONNECT: the only one that speaks for the slot. */
	struct sockaddr_un ctl_addr;
	socklen_t ctl_addrlen;
	struct u2s_request *q;		/**< UMAD2SIM_QUEUE_MAX rows, allocated on first use */
	unsigned int q_head;
	unsigned int q_len;
	uint64_t mads_in;		/**< MADs the client wrote */
	uint64_t mads_out;		/**< MADs delivered to it (drop echoes included) */
	uint64_t mads_lost;		/**< deliveries lost: its queue was full */
	/** Management classes the client has sent MADs of (bit per class). */
	uint32_t classes_sent[8];
};

struct umad2sim;

/**
 * Bind "<base>:ctl" and the data sockets, and hang the server on
 * @p f (f->u2s). @p base NULL means $IBSIM_SOCKNAME, else "sim".
 * Returns 0, -EADDRINUSE when another simulator owns the name,
 * -ENAMETOOLONG or another -errno.
 */
int umad2sim_open(struct fabric *f, const char *base);
/** Close every socket and detach every client (abstract names vanish with the fds). */
void umad2sim_close(struct fabric *f);
/**
 * A MAD reached @p port for the local host stack (not answered by the
 * firmware): fabric.client_deliver. Delivers it to the right client per
 * ibsim's rules (responses by TID slot bits 63..48, requests to the
 * port's issm client). Returns 0 if delivered (packet consumed), or
 * -ENOENT (the caller drops it with fab_pkt_drop).
 */
int umad2sim_deliver(struct fabric *f, struct fab_port *port,
		     const struct fab_hdrs *h, struct fab_pkt *p);
/** Echo a client's undeliverable MAD back with status 110: fabric.client_drop. */
void umad2sim_report_drop(struct fabric *f, const struct fab_pkt *p);
/** The base name in use. */
const char *umad2sim_basename(const struct fabric *f);
/** The control socket, for the event loop. */
int umad2sim_ctl_fd(const struct fabric *f);
/** Data socket of slot @p slot (0..UMAD2SIM_MAX_CLIENTS-1), for the event loop. */
int umad2sim_slot_fd(const struct fabric *f, unsigned int slot);
/** Serve pending control datagrams (at most a small batch). */
void umad2sim_ctl_ready(struct fabric *f);
/** Take pending MADs from slot @p slot into the fabric (at most a small batch). */
void umad2sim_data_ready(struct fabric *f, unsigned int slot);
/**
 * The data socket of @p slot became writable: write its queued MADs.
 * The event loop calls it on EPOLLOUT, which it watches while the hook
 * set by umad2sim_set_write_hook() asks for it.
 */
void umad2sim_slot_writable(struct fabric *f, unsigned int slot);
/**
 * @p fn(@p ctx, @p fd, @p slot, @p on) is called when a slot's queue
 * becomes non-empty (on) or empty (off): the event loop then watches
 * (or stops watching) @p fd for writability.
 */
void umad2sim_set_write_hook(struct fabric *f,
			     void (*fn)(void *ctx, int fd, unsigned int slot, bool on),
			     void *ctx);
/** Free the slots of clients whose process is gone. Returns the number freed. */
unsigned int umad2sim_reap(struct fabric *f);
/** Number of attached clients. */
unsigned int umad2sim_nclients(const struct fabric *f);
/** Client in @p slot, or NULL if the slot is free. */
const struct fab_client *umad2sim_client(const struct fabric *f, unsigned int slot);
/** Detach the client in @p slot (ibsim's "X"). Returns 0, or -ENOENT if none. */
int umad2sim_kick(struct fabric *f, unsigned int slot);
/** One line per attached client (ctl.c "show clients"). */
void umad2sim_show_clients(const struct fabric *f, FILE *out);

/** Big-endian LID carried in a sim_request u32 (see struct u2s_request). */
static inline uint16_t
u2s_lid_get(uint32_t v)
{
	uint16_t be = (uint16_t)v;
	const uint8_t *b = (const uint8_t *)&be;

	return (uint16_t)((b[0] << 8) | b[1]);
}

static inline uint32_t
u2s_lid_set(uint16_t lid)
{
	uint16_t be;
	uint8_t *b = (uint8_t *)&be;

	b[0] = (uint8_t)(lid >> 8);
	b[1] = (uint8_t)lid;
	return be;
}

#endif /* _IBFABRIC_UMAD2SIM_H_ */
