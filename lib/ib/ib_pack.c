/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The field-table engine of rte_ib_pack.h: generic pack, unpack, check and
 * dump over a struct rte_ib_record_layout.
 *
 * Bit addressing: the IBA draws a record as rows of 32-bit words with bit
 * 0 the most significant bit of the word, and sends it most significant
 * byte first. Counting bits from the start of the record, MSB first,
 * absolute bit p = 32 * word + bit lives in byte p / 8 at position
 * 7 - p % 8 (0 = LSB) of that byte. All helpers below work on absolute
 * bit positions, so a field crossing a word (or byte) boundary needs no
 * special case.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "rte_ib_pack.h"
#include "ib_private.h"

#define BITS_PER_WORD 32

/* Absolute bit position of a row's first bit. */
static size_t
field_pos(const struct rte_ib_field *f)
{
	return (size_t)f->word * BITS_PER_WORD + f->bit;
}

/*
 * Store the low @width bits of @v at absolute bit @pos, MSB first, one
 * byte at a time; bits of the touched bytes outside the field are kept.
 */
static void
bits_put(uint8_t *buf, size_t pos, unsigned int width, uint64_t v)
{
	while (width > 0) {
		size_t byte = pos / 8;
		unsigned int used = pos % 8;
		unsigned int n = RTE_MIN(8 - used, width);
		unsigned int shift = 8 - used - n;
		uint8_t mask = (uint8_t)(((1u << n) - 1) << shift);
		uint8_t bits = (uint8_t)((v >> (width - n)) & ((1u << n) - 1));

		buf[byte] = (uint8_t)((buf[byte] & ~mask) | (bits << shift));
		pos += n;
		width -= n;
	}
}

/* Read @width bits (at most 64) at absolute bit @pos, MSB first. */
static uint64_t
bits_get(const uint8_t *buf, size_t pos, unsigned int width)
{
	uint64_t v = 0;

	while (width > 0) {
		size_t byte = pos / 8;
		unsigned int used = pos % 8;
		unsigned int n = RTE_MIN(8 - used, width);
		unsigned int shift = 8 - used - n;

		v = (v << n) | ((buf[byte] >> shift) & ((1u << n) - 1));
		pos += n;
		width -= n;
	}
	return v;
}

/* Host integers are read and written through memcpy: tables may point at
 * members of packed structs.
 */
static uint64_t
host_uint_get(const uint8_t *p, unsigned int size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		memcpy(&v8, p, sizeof(v8));
		return v8;
	case 2:
		memcpy(&v16, p, sizeof(v16));
		return v16;
	case 4:
		memcpy(&v32, p, sizeof(v32));
		return v32;
	default:
		memcpy(&v64, p, sizeof(v64));
		return v64;
	}
}

static void
host_uint_set(uint8_t *p, unsigned int size, uint64_t v)
{
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	switch (size) {
	case 1:
		memcpy(p, &v8, sizeof(v8));
		break;
	case 2:
		memcpy(p, &v16, sizeof(v16));
		break;
	case 4:
		memcpy(p, &v32, sizeof(v32));
		break;
	default:
		memcpy(p, &v, sizeof(v));
		break;
	}
}

static bool
host_size_is_uint(unsigned int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/*
 * Check one row against its layout. Returns 0 or -EINVAL after logging
 * which row of which record is wrong and how.
 */
static int
field_check(const struct rte_ib_record_layout *layout, unsigned int idx)
{
	const struct rte_ib_field *f = &layout->fields[idx];
	const char *name = f->name;
	const size_t end = field_pos(f) + f->width;

	if (name == NULL) {
		IB_LOG(ERR, "%s row %u: name=NULL", layout->name, idx);
		return -EINVAL;
	}
	if (f->bit >= BITS_PER_WORD) {
		IB_LOG(ERR, "%s row %u (%s): bit=%u, must be 0..31",
		       layout->name, idx, name, f->bit);
		return -EINVAL;
	}
	if (f->width == 0) {
		IB_LOG(ERR, "%s row %u (%s): width=0", layout->name, idx, name);
		return -EINVAL;
	}
	if (end > (size_t)layout->wire_size * 8) {
		IB_LOG(ERR, "%s row %u (%s): ends at bit %zu, record has %u bytes",
		       layout->name, idx, name, end, layout->wire_size);
		return -EINVAL;
	}
	switch (f->kind) {
	case RTE_IB_FIELD_RESERVED:
		if (f->host_size != 0) {
			IB_LOG(ERR, "%s row %u (%s): reserved row with host_size=%u",
			       layout->name, idx, name, f->host_size);
			return -EINVAL;
		}
		return 0;
	case RTE_IB_FIELD_UINT:
		if (f->width > RTE_IB_FIELD_UINT_MAX_BITS ||
		    !host_size_is_uint(f->host_size) ||
		    f->width > f->host_size * 8u) {
			IB_LOG(ERR, "%s row %u (%s): width=%u does not fit a host integer of host_size=%u",
			       layout->name, idx, name, f->width, f->host_size);
			return -EINVAL;
		}
		break;
	case RTE_IB_FIELD_BYTES:
		if (f->width % 8 != 0 || f->host_size != f->width / 8) {
			IB_LOG(ERR, "%s row %u (%s): byte string of width=%u needs host_size=%u, has %u",
			       layout->name, idx, name, f->width,
			       (f->width + 7) / 8, f->host_size);
			return -EINVAL;
		}
		break;
	default:
		IB_LOG(ERR, "%s row %u (%s): kind=%u unknown",
		       layout->name, idx, name, f->kind);
		return -EINVAL;
	}
	if ((size_t)f->host_offset + f->host_size > layout->host_size) {
		IB_LOG(ERR, "%s row %u (%s): host bytes %u..%u outside host_size=%u",
		       layout->name, idx, name, f->host_offset,
		       f->host_offset + f->host_size - 1, layout->host_size);
		return -EINVAL;
	}
	return 0;
}

static int
layout_args_check(const struct rte_ib_record_layout *layout, size_t len)
{
	if (layout == NULL || layout->fields == NULL || layout->name == NULL) {
		IB_LOG(ERR, "layout=%p: NULL layout, fields or name",
		       (const void *)layout);
		return -EINVAL;
	}
	if (len < layout->wire_size) {
		IB_LOG(ERR, "%s: buffer len=%zu, record needs %u bytes",
		       layout->name, len, layout->wire_size);
		return -EINVAL;
	}
	return 0;
}

int
rte_ib_pack(const struct rte_ib_record_layout *layout, const void *host,
	    void *buf, size_t len)
{
	const uint8_t *src = host;
	uint8_t *dst = buf;
	unsigned int i;
	int rc;

	if (host == NULL || buf == NULL) {
		IB_LOG(ERR, "host=%p buf=%p: NULL argument", host, buf);
		rte_errno = EINVAL;
		return -1;
	}
	rc = layout_args_check(layout, len);
	if (rc != 0) {
		rte_errno = -rc;
		return -1;
	}
	/* Validate everything first so a failed pack leaves buf untouched. */
	for (i = 0; i < layout->nb_fields; i++) {
		const struct rte_ib_field *f = &layout->fields[i];
		uint64_t v;

		rc = field_check(layout, i);
		if (rc != 0) {
			rte_errno = -rc;
			return -1;
		}
		if (f->kind != RTE_IB_FIELD_UINT ||
		    f->width == RTE_IB_FIELD_UINT_MAX_BITS)
			continue;
		v = host_uint_get(src + f->host_offset, f->host_size);
		if ((v >> f->width) != 0) {
			IB_LOG(ERR, "%s.%s: value 0x%" PRIx64 " does not fit in %u bits",
			       layout->name, f->name, v, f->width);
			rte_errno = ERANGE;
			return -1;
		}
	}
	for (i = 0; i < layout->nb_fields; i++) {
		const struct rte_ib_field *f = &layout->fields[i];
		const size_t pos = field_pos(f);
		unsigned int b;

		switch (f->kind) {
		case RTE_IB_FIELD_UINT:
			bits_put(dst, pos, f->width,
				 host_uint_get(src + f->host_offset,
					       f->host_size));
			break;
		case RTE_IB_FIELD_BYTES:
			for (b = 0; b < f->host_size; b++)
				bits_put(dst, pos + 8 * b, 8,
					 src[f->host_offset + b]);
			break;
		default:
			/* Reserved: zero, in chunks of at most 64 bits. */
			for (b = 0; b < f->width; b += RTE_IB_FIELD_UINT_MAX_BITS)
				bits_put(dst, pos + b,
					 RTE_MIN(f->width - b,
						 (unsigned int)RTE_IB_FIELD_UINT_MAX_BITS),
					 0);
			break;
		}
	}
	return 0;
}

int
rte_ib_unpack(const struct rte_ib_record_layout *layout, const void *buf,
	      size_t len, void *host)
{
	const uint8_t *src = buf;
	uint8_t *dst = host;
	unsigned int i;
	int rc;

	if (host == NULL || buf == NULL) {
		IB_LOG(ERR, "buf=%p host=%p: NULL argument", buf, host);
		rte_errno = EINVAL;
		return -1;
	}
	rc = layout_args_check(layout, len);
	if (rc != 0) {
		rte_errno = -rc;
		return -1;
	}
	for (i = 0; i < layout->nb_fields; i++) {
		rc = field_check(layout, i);
		if (rc != 0) {
			rte_errno = -rc;
			return -1;
		}
	}
	for (i = 0; i < layout->nb_fields; i++) {
		const struct rte_ib_field *f = &layout->fields[i];
		const size_t pos = field_pos(f);
		unsigned int b;

		switch (f->kind) {
		case RTE_IB_FIELD_UINT:
			host_uint_set(dst + f->host_offset, f->host_size,
				      bits_get(src, pos, f->width));
			break;
		case RTE_IB_FIELD_BYTES:
			for (b = 0; b < f->host_size; b++)
				dst[f->host_offset + b] =
					(uint8_t)bits_get(src, pos + 8 * b, 8);
			break;
		default:
			break;
		}
	}
	return 0;
}

int
rte_ib_layout_check(const struct rte_ib_record_layout *layout)
{
	size_t next = 0;
	unsigned int i;
	int rc;

	rc = layout_args_check(layout, SIZE_MAX);
	if (rc != 0) {
		rte_errno = -rc;
		return -1;
	}
	if (layout->nb_fields == 0 || layout->wire_size == 0) {
		IB_LOG(ERR, "%s: nb_fields=%u wire_size=%u, both must be > 0",
		       layout->name, layout->nb_fields, layout->wire_size);
		rte_errno = EINVAL;
		return -1;
	}
	for (i = 0; i < layout->nb_fields; i++) {
		const struct rte_ib_field *f = &layout->fields[i];

		rc = field_check(layout, i);
		if (rc != 0) {
			rte_errno = -rc;
			return -1;
		}
		if (field_pos(f) != next) {
			IB_LOG(ERR, "%s row %u (%s): starts at word %u bit %u "
			       "(bit %zu of the record), previous row ended at bit %zu: %s",
			       layout->name, i, f->name, f->word, f->bit,
			       field_pos(f), next,
			       field_pos(f) > next ? "gap" : "overlap or out of order");
			rte_errno = EINVAL;
			return -1;
		}
		next = field_pos(f) + f->width;
	}
	if (next != (size_t)layout->wire_size * 8) {
		IB_LOG(ERR, "%s: rows cover %zu bits, wire_size=%u bytes is %u bits",
		       layout->name, next, layout->wire_size,
		       layout->wire_size * 8u);
		rte_errno = EINVAL;
		return -1;
	}
	return 0;
}

int
rte_ib_record_dump(FILE *f, const struct rte_ib_record_layout *layout,
		   const void *host)
{
	const uint8_t *src = host;
	unsigned int i, b;
	int rc;

	if (f == NULL || host == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	rc = layout_args_check(layout, SIZE_MAX);
	if (rc != 0) {
		rte_errno = -rc;
		return -1;
	}
	for (i = 0; i < layout->nb_fields; i++) {
		const struct rte_ib_field *fl = &layout->fields[i];

		rc = field_check(layout, i);
		if (rc != 0) {
			rte_errno = -rc;
			return -1;
		}
		if (fl->kind == RTE_IB_FIELD_RESERVED)
			continue;
		fprintf(f, "%s.%s: ", layout->name, fl->name);
		if (fl->kind == RTE_IB_FIELD_UINT) {
			fprintf(f, "0x%" PRIx64 "\n",
				host_uint_get(src + fl->host_offset,
					      fl->host_size));
			continue;
		}
		for (b = 0; b < fl->host_size; b++)
			fprintf(f, "%s%02x", (b > 0 && b % 2 == 0) ? ":" : "",
				src[fl->host_offset + b]);
		fprintf(f, "\n");
	}
	if (ferror(f)) {
		rte_errno = EIO;
		return -1;
	}
	return 0;
}
