/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _MAD_RMPP_H_
#define _MAD_RMPP_H_

/*
 * RMPP, the reliable multi-packet transaction protocol of IBA 13.6, as
 * pure state machines: segmenting a long message and reassembling one,
 * the windows and the ACKs. No I/O, no time: the MAD core feeds them
 * MADs and sends what they build (Linux drivers/infiniband/core/
 * mad_rmpp.c does both inside the MAD layer).
 *
 * A message is what a user sees (the kernel's user_mad read/write
 * layout): the class header once (hdr_len bytes: MAD header, RMPP
 * header, class header), then the payload. On the wire each segment is a
 * 256-byte MAD carrying the same headers and the next seg_size =
 * 256 - hdr_len payload bytes. PayloadLength (Data2 of a DATA segment)
 * counts from the end of the RMPP header, as Linux computes it: in the
 * first segment seg_count * 220 - pad, in the last 220 - pad, where pad
 * is what the last segment leaves unused (send_next_seg(),
 * get_mad_len()).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* RMPP header, bytes 24-35 of the MAD (IBA 13.6.2.1, figure 179). */
#define RMPP_OFF_VERSION   24
#define RMPP_OFF_TYPE      25
#define RMPP_OFF_FLAGS     26   /* [7:3] RRespTime, [2:0] RMPPFlags */
#define RMPP_OFF_STATUS    27
#define RMPP_OFF_DATA1     28   /* SegmentNumber */
#define RMPP_OFF_DATA2     32   /* PayloadLength, or NewWindowLast */
#define RMPP_HDR_END       36

#define RMPP_VERSION       1
#define RMPP_TYPE_DATA     1
#define RMPP_TYPE_ACK      2
#define RMPP_TYPE_STOP     3
#define RMPP_TYPE_ABORT    4
#define RMPP_FLAG_ACTIVE   0x01
#define RMPP_FLAG_FIRST    0x02
#define RMPP_FLAG_LAST     0x04

/* RMPPStatus of STOP/ABORT (IBA 13.6.2.2, table 174). */
#define RMPP_STATUS_RESX         1    /* resources exhausted */
#define RMPP_STATUS_T2L          118  /* total time too long */
#define RMPP_STATUS_BAD_LEN      119  /* inconsistent last and payload length */
#define RMPP_STATUS_BAD_SEG      120  /* inconsistent first and segment number */
#define RMPP_STATUS_BADT         121  /* bad RMPPType */
#define RMPP_STATUS_W2S          122  /* NewWindowLast too small */
#define RMPP_STATUS_S2B          123  /* SegmentNumber too big */
#define RMPP_STATUS_BAD_STATUS   124  /* illegal status */
#define RMPP_STATUS_UNV          125  /* unsupported version */
#define RMPP_STATUS_TMR          126  /* too many retries */
#define RMPP_STATUS_UNSPEC       127  /* unspecified */

#define RMPP_MAD_SIZE      256
/* Bytes of a segment after the RMPP header (Linux IB_MGMT_RMPP_DATA). */
#define RMPP_SEG_DATA      (RMPP_MAD_SIZE - RMPP_HDR_END)
/* Longest message reassembled or sent (a whole SA table of a big fabric). */
#define RMPP_MAX_MSG       (4u << 20)

/* Is @mad an RMPP MAD (class that may use RMPP, Active flag set)? */
bool ibmad_rmpp_active(const uint8_t *mad);

/* May @mgmt_class use RMPP (Linux ib_is_mad_class_rmpp())? */
bool ibmad_rmpp_class(uint8_t mgmt_class);

/* Headers before a segment's payload (Linux ib_get_mad_data_offset()). */
size_t ibmad_rmpp_hdr_len(uint8_t mgmt_class);

/* Reassembly of one incoming message. */
struct ibmad_rmpp_recv {
	uint8_t *msg;          /* the message, malloc'd; the caller takes it */
	size_t len;            /* bytes valid in msg */
	size_t cap;
	size_t hdr_len;
	uint32_t seg_num;      /* last segment taken, in order */
	uint32_t newwin;       /* last segment the sender may send */
	uint32_t window;       /* segments granted per ACK */
	uint32_t seg_total;    /* segments the first announced; 0: unknown */
	bool done;
};

/* What a received segment asks of the caller. */
enum ibmad_rmpp_rx {
	IBMAD_RMPP_RX_DROP,    /* ignore it (out of order, not RMPP DATA) */
	IBMAD_RMPP_RX_ACK,     /* send ibmad_rmpp_ack() now */
	IBMAD_RMPP_RX_DONE,    /* complete: send the ACK, deliver msg */
	IBMAD_RMPP_RX_ABORT,   /* malformed: send ibmad_rmpp_abort(), drop */
};

/*
 * Start reassembling from the first segment @mad (DATA, First flag,
 * SegmentNumber 1). @window: segments granted per ACK (>= 1). Returns
 * what to do, as ibmad_rmpp_recv_seg() (the first may also be the last).
 */
enum ibmad_rmpp_rx ibmad_rmpp_recv_start(struct ibmad_rmpp_recv *r,
					 const uint8_t *mad, uint32_t window,
					 uint8_t *status);

/*
 * Take a further segment. A duplicate of one already taken asks for the
 * ACK again (the sender missed it); a segment past the next is dropped
 * (the sender resends from the last ACK), as is one past the window
 * granted (a sender that ignores it gains nothing). A segment beyond the
 * count the first segment's PayloadLength announced aborts (S2B). On
 * ABORT, *status says why.
 */
enum ibmad_rmpp_rx ibmad_rmpp_recv_seg(struct ibmad_rmpp_recv *r,
				       const uint8_t *mad, uint8_t *status);

/* Free what the reassembly holds (msg, unless the caller took it). */
void ibmad_rmpp_recv_free(struct ibmad_rmpp_recv *r);

/*
 * Build the ACK for @r into @ack (256 bytes) from the headers of the
 * segment @data just received: the request's method (R bit flipped),
 * type ACK, Active, SegmentNumber = last taken, NewWindowLast (Linux
 * format_ack()).
 */
void ibmad_rmpp_ack(const struct ibmad_rmpp_recv *r, const uint8_t *data,
		    uint8_t *ack);

/* An ABORT with @status answering @data (IBA 13.6.3.2). */
void ibmad_rmpp_abort(const uint8_t *data, uint8_t status, uint8_t *abort);

/* Segmenting of one outgoing message. */
struct ibmad_rmpp_send {
	const uint8_t *msg;
	size_t len;
	size_t hdr_len;
	size_t seg_size;       /* payload bytes per segment */
	uint32_t seg_count;
	uint32_t pad;          /* unused bytes of the last segment */
	uint32_t seg_sent;     /* segments sent since the last rewind */
	uint32_t max_sent;     /* highest SegmentNumber ever sent */
	uint32_t last_ack;     /* highest SegmentNumber acknowledged */
	uint32_t newwin;       /* last segment the receiver accepts */
};

/*
 * Prepare to send @msg (@len bytes: headers, then payload; the caller
 * keeps it alive until the end). Returns 0, or -EINVAL (not an RMPP
 * class, shorter than its headers) / -EMSGSIZE.
 */
int ibmad_rmpp_send_init(struct ibmad_rmpp_send *s, const uint8_t *msg,
			 size_t len);

/*
 * Build the next segment the window allows into @seg (256 bytes).
 * Returns true when one was built, false when the window is closed (wait
 * for an ACK) or every segment is out.
 */
bool ibmad_rmpp_send_next(struct ibmad_rmpp_send *s, uint8_t *seg);

/*
 * Take an ACK (or STOP/ABORT). Returns 1 when every segment is
 * acknowledged (done), 0 to go on (ibmad_rmpp_send_next() again),
 * -ECONNABORTED on STOP/ABORT, -EPROTO on an ACK that makes no sense
 * (ignored: IBA 13.6.3.3 says a sender drops it).
 */
int ibmad_rmpp_send_ack(struct ibmad_rmpp_send *s, const uint8_t *ack);

/* After a time-out: resend from the segment after the last ACK. */
void ibmad_rmpp_send_rewind(struct ibmad_rmpp_send *s);

#endif /* _MAD_RMPP_H_ */
