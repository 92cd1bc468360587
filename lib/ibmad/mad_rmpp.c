/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * RMPP state machines (mad_rmpp.h), after IBA 13.6 and the choices of
 * Linux drivers/infiniband/core/mad_rmpp.c (start_rmpp(),
 * continue_rmpp(), format_ack(), send_next_seg(), process_rmpp_ack()).
 * One difference: a segment that arrives ahead of the next expected one
 * is dropped rather than held (IBA 13.6.3.3 allows it); the sender then
 * resends from the last ACK after its time-out.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include <ib_proto.h>

#include "mad_rmpp.h"

#define MAD_OFF_CLASS   1
#define MAD_OFF_METHOD  3
#define METHOD_RESP     0x80

static uint32_t
get_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return rte_be_to_cpu_32(v);
}

static void
put_be32(uint8_t *p, uint32_t v)
{
	v = rte_cpu_to_be_32(v);
	memcpy(p, &v, sizeof(v));
}

bool
ibmad_rmpp_class(uint8_t mgmt_class)
{
	return ib_mgmt_class_is_rmpp(mgmt_class);
}

bool
ibmad_rmpp_active(const uint8_t *mad)
{
	return ib_mad_is_rmpp_active(mad);
}

size_t
ibmad_rmpp_hdr_len(uint8_t mgmt_class)
{
	if (mgmt_class == 0x03)
		return 56;      /* IB_MGMT_SA_HDR: + SM_Key, AttributeOffset, ComponentMask */
	if (mgmt_class == 0x06 || mgmt_class == 0x10 || mgmt_class == 0x12)
		return 64;      /* IB_MGMT_DEVICE_HDR */
	if (mgmt_class >= 0x30 && mgmt_class <= 0x4f)
		return 40;      /* IB_MGMT_VENDOR_HDR: + OUI */
	return 24;          /* IB_MGMT_MAD_HDR */
}

static bool
grow(struct ibmad_rmpp_recv *r, size_t need)
{
	size_t cap = r->cap != 0 ? r->cap : 4096;
	uint8_t *m;

	if (need <= r->cap)
		return true;
	if (need > RMPP_MAX_MSG)
		return false;
	while (cap < need)
		cap *= 2;
	m = realloc(r->msg, cap);
	if (m == NULL)
		return false;
	r->msg = m;
	r->cap = cap;
	return true;
}

/* The last segment fixes the length (Linux get_mad_len()). */
static void
finish(struct ibmad_rmpp_recv *r, const uint8_t *mad)
{
	uint32_t paylen = get_be32(mad + RMPP_OFF_DATA2);
	size_t seg_size = RMPP_MAD_SIZE - r->hdr_len;
	size_t pad = RMPP_SEG_DATA - paylen;

	if (paylen > RMPP_SEG_DATA || pad > seg_size)
		pad = 0;
	r->len -= pad;
	r->done = true;
}

static bool
is_data(const uint8_t *mad)
{
	return mad[RMPP_OFF_VERSION] == RMPP_VERSION &&
		mad[RMPP_OFF_TYPE] == RMPP_TYPE_DATA &&
		(mad[RMPP_OFF_FLAGS] & RMPP_FLAG_ACTIVE) != 0;
}

enum ibmad_rmpp_rx
ibmad_rmpp_recv_start(struct ibmad_rmpp_recv *r, const uint8_t *mad,
		      uint32_t window, uint8_t *status)
{
	memset(r, 0, sizeof(*r));
	if (mad[RMPP_OFF_VERSION] != RMPP_VERSION) {
		*status = RMPP_STATUS_UNV;
		return IBMAD_RMPP_RX_ABORT;
	}
	if (!is_data(mad)) {
		*status = RMPP_STATUS_BADT;
		return IBMAD_RMPP_RX_ABORT;
	}
	if (!(mad[RMPP_OFF_FLAGS] & RMPP_FLAG_FIRST) ||
	    get_be32(mad + RMPP_OFF_DATA1) != 1) {
		*status = RMPP_STATUS_BAD_SEG;
		return IBMAD_RMPP_RX_ABORT;
	}
	r->hdr_len = ibmad_rmpp_hdr_len(mad[MAD_OFF_CLASS]);
	r->window = window != 0 ? window : 1;
	if (!grow(r, RMPP_MAD_SIZE)) {
		*status = RMPP_STATUS_RESX;
		return IBMAD_RMPP_RX_ABORT;
	}
	memcpy(r->msg, mad, RMPP_MAD_SIZE);
	r->len = RMPP_MAD_SIZE;
	r->seg_num = 1;
	r->newwin = 1;
	/* PayloadLength of the first segment: the whole payload, 0 when
	 * the sender does not know it (IBA 13.6.2.1); seg_count * 220 -
	 * pad as a sender computes it, so it rounds up to seg_count.
	 */
	r->seg_total = (get_be32(mad + RMPP_OFF_DATA2) + RMPP_SEG_DATA - 1) /
		RMPP_SEG_DATA;
	if (mad[RMPP_OFF_FLAGS] & RMPP_FLAG_LAST) {
		finish(r, mad);
		return IBMAD_RMPP_RX_DONE;
	}
	r->newwin += r->window;
	return IBMAD_RMPP_RX_ACK;
}

enum ibmad_rmpp_rx
ibmad_rmpp_recv_seg(struct ibmad_rmpp_recv *r, const uint8_t *mad,
		    uint8_t *status)
{
	size_t seg_size = RMPP_MAD_SIZE - r->hdr_len;
	uint32_t seg;

	if (!is_data(mad))
		return IBMAD_RMPP_RX_DROP;
	seg = get_be32(mad + RMPP_OFF_DATA1);
	if (seg == 0) {
		*status = RMPP_STATUS_BAD_SEG;
		return IBMAD_RMPP_RX_ABORT;
	}
	/* A segment already taken: the sender lost our ACK, say it again. */
	if (seg <= r->seg_num || r->done)
		return IBMAD_RMPP_RX_ACK;
	/* More than the first segment announced: the message would grow
	 * past what its receiver was told to expect.
	 */
	if (r->seg_total != 0 && seg > r->seg_total) {
		*status = RMPP_STATUS_S2B;
		return IBMAD_RMPP_RX_ABORT;
	}
	/* Beyond the window or ahead of the next: drop (continue_rmpp()). */
	if (seg > r->newwin || seg != r->seg_num + 1)
		return IBMAD_RMPP_RX_DROP;
	if (!grow(r, r->len + seg_size)) {
		*status = RMPP_STATUS_RESX;
		return IBMAD_RMPP_RX_ABORT;
	}
	memcpy(r->msg + r->len, mad + r->hdr_len, seg_size);
	r->len += seg_size;
	r->seg_num = seg;
	if (mad[RMPP_OFF_FLAGS] & RMPP_FLAG_LAST) {
		finish(r, mad);
		return IBMAD_RMPP_RX_DONE;
	}
	if (r->seg_num == r->newwin) {
		r->newwin += r->window;
		return IBMAD_RMPP_RX_ACK;
	}
	return IBMAD_RMPP_RX_DROP;   /* taken; no ACK due yet */
}

void
ibmad_rmpp_recv_free(struct ibmad_rmpp_recv *r)
{
	free(r->msg);
	r->msg = NULL;
	r->len = r->cap = 0;
}

/* Common part of ACK and ABORT: @data's headers, R bit flipped. */
static void
reply_hdr(const uint8_t *data, uint8_t type, uint8_t *out)
{
	size_t hdr_len = ibmad_rmpp_hdr_len(data[MAD_OFF_CLASS]);

	memset(out, 0, RMPP_MAD_SIZE);
	memcpy(out, data, hdr_len);
	out[MAD_OFF_METHOD] ^= METHOD_RESP;
	out[RMPP_OFF_VERSION] = RMPP_VERSION;
	out[RMPP_OFF_TYPE] = type;
	/* ib_set_rmpp_flags(): keep RRespTime, flags = Active. */
	out[RMPP_OFF_FLAGS] = (data[RMPP_OFF_FLAGS] & 0xf8) | RMPP_FLAG_ACTIVE;
	out[RMPP_OFF_STATUS] = 0;
}

void
ibmad_rmpp_ack(const struct ibmad_rmpp_recv *r, const uint8_t *data,
	       uint8_t *ack)
{
	reply_hdr(data, RMPP_TYPE_ACK, ack);
	put_be32(ack + RMPP_OFF_DATA1, r->seg_num);
	put_be32(ack + RMPP_OFF_DATA2, r->done ? r->seg_num : r->newwin);
}

void
ibmad_rmpp_abort(const uint8_t *data, uint8_t status, uint8_t *abort)
{
	reply_hdr(data, RMPP_TYPE_ABORT, abort);
	abort[RMPP_OFF_STATUS] = status;
}

int
ibmad_rmpp_send_init(struct ibmad_rmpp_send *s, const uint8_t *msg, size_t len)
{
	size_t data;

	memset(s, 0, sizeof(*s));
	if (len < RMPP_HDR_END || !ibmad_rmpp_class(msg[MAD_OFF_CLASS]))
		return -EINVAL;
	s->hdr_len = ibmad_rmpp_hdr_len(msg[MAD_OFF_CLASS]);
	if (len < s->hdr_len)
		return -EINVAL;
	if (len > RMPP_MAX_MSG)
		return -EMSGSIZE;
	s->msg = msg;
	s->len = len;
	s->seg_size = RMPP_MAD_SIZE - s->hdr_len;
	data = len - s->hdr_len;
	s->seg_count = (uint32_t)RTE_MAX((data + s->seg_size - 1) / s->seg_size,
					 (size_t)1);
	s->pad = (uint32_t)(s->seg_count * s->seg_size - data);
	/* The receiver grants more with its first ACK (init_newwin()). */
	s->newwin = 1;
	return 0;
}

bool
ibmad_rmpp_send_next(struct ibmad_rmpp_send *s, uint8_t *seg)
{
	uint32_t i, paylen = 0;
	size_t off, n;
	uint8_t flags = RMPP_FLAG_ACTIVE;

	if (s->seg_sent >= s->seg_count || s->seg_sent >= s->newwin)
		return false;
	i = ++s->seg_sent;
	s->max_sent = RTE_MAX(s->max_sent, i);
	off = s->hdr_len + (size_t)(i - 1) * s->seg_size;
	n = RTE_MIN(s->seg_size, s->len - off);
	memset(seg, 0, RMPP_MAD_SIZE);
	memcpy(seg, s->msg, s->hdr_len);
	memcpy(seg + s->hdr_len, s->msg + off, n);
	if (i == 1) {
		flags |= RMPP_FLAG_FIRST;
		paylen = s->seg_count * RMPP_SEG_DATA - s->pad;
	}
	if (i == s->seg_count) {
		flags |= RMPP_FLAG_LAST;
		paylen = RMPP_SEG_DATA - s->pad;
	}
	seg[RMPP_OFF_VERSION] = RMPP_VERSION;
	seg[RMPP_OFF_TYPE] = RMPP_TYPE_DATA;
	seg[RMPP_OFF_FLAGS] = (s->msg[RMPP_OFF_FLAGS] & 0xf8) | flags;
	seg[RMPP_OFF_STATUS] = 0;
	put_be32(seg + RMPP_OFF_DATA1, i);
	put_be32(seg + RMPP_OFF_DATA2, paylen);
	return true;
}

int
ibmad_rmpp_send_ack(struct ibmad_rmpp_send *s, const uint8_t *ack)
{
	uint32_t seg, newwin;

	if (ack[RMPP_OFF_TYPE] == RMPP_TYPE_STOP ||
	    ack[RMPP_OFF_TYPE] == RMPP_TYPE_ABORT)
		return -ECONNABORTED;
	if (ack[RMPP_OFF_TYPE] != RMPP_TYPE_ACK)
		return -EPROTO;
	seg = get_be32(ack + RMPP_OFF_DATA1);
	newwin = get_be32(ack + RMPP_OFF_DATA2);
	/* process_rmpp_ack(): S2B and W2S make no sense; old ACKs are late. */
	if (seg > s->seg_count || seg > s->max_sent || newwin < seg)
		return -EPROTO;
	if (seg < s->last_ack)
		return 0;
	s->last_ack = seg;
	if (newwin > s->newwin)
		s->newwin = newwin;
	return s->last_ack == s->seg_count ? 1 : 0;
}

void
ibmad_rmpp_send_rewind(struct ibmad_rmpp_send *s)
{
	s->seg_sent = s->last_ack;
}
