/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IB_PACK_H_
#define _RTE_IB_PACK_H_

/**
 * @file
 * Field-table pack/unpack engine.
 *
 * An IB record (an SA attribute, a MAD payload) is described by a table
 * of rows, one per wire field, in the way the IBA draws its layouts: a
 * 32-bit word offset, a bit offset within that word counted from the most
 * significant bit (bit 0 is the MSB, as in the spec's tables), and a
 * width in bits. The wire format is big-endian: word 0 is bytes 0-3,
 * bit 0 of a word is bit 7 of its first byte. Fields may cross word
 * boundaries.
 *
 * The host struct the table maps to follows one rule:
 * - integer fields (RTE_IB_FIELD_UINT, 1 to 64 bits) are unsigned
 *   integers of 1, 2, 4 or 8 bytes in @b host byte order, the value
 *   right-aligned (a 4-bit SL is a uint8_t holding 0..15);
 * - byte-string fields (RTE_IB_FIELD_BYTES, a multiple of 8 bits: GIDs,
 *   keys, names) are byte arrays kept in @b wire order;
 * - reserved rows (RTE_IB_FIELD_RESERVED) have no host member: pack
 *   writes zeros, unpack skips them.
 *
 * Tables are const data; every function here is reentrant and may be
 * called from any thread. They are control-path functions (they may log
 * on error) and are not meant for data-path bursts.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What a table row maps to. */
enum rte_ib_field_kind {
	RTE_IB_FIELD_RESERVED = 0, /**< No host member; zero on the wire. */
	RTE_IB_FIELD_UINT,         /**< Host-order unsigned integer. */
	RTE_IB_FIELD_BYTES,        /**< Byte array in wire order. */
};

/** Widest integer field. */
#define RTE_IB_FIELD_UINT_MAX_BITS 64

/** One row of a field table: one field of a wire record. */
struct rte_ib_field {
	const char *name;     /**< Spec name of the field, for messages. */
	uint16_t host_offset; /**< Offset of the host member, bytes. */
	uint16_t host_size;   /**< Size of the host member, bytes (0: reserved). */
	uint16_t word;        /**< Offset of the field, 32-bit words. */
	uint16_t width;       /**< Width of the field, bits. */
	uint8_t bit;          /**< First bit within the word, 0 = MSB, 0..31. */
	uint8_t kind;         /**< enum rte_ib_field_kind. */
};

/**
 * Row for an integer field: member @p member of struct type @p type,
 * @p width bits at @p bit of word @p word.
 */
#define RTE_IB_ROW_UINT(type, member, fname, w, b, width_) {	\
	.name = (fname),						\
	.host_offset = offsetof(type, member),				\
	.host_size = sizeof(((type *)0)->member),			\
	.word = (w),							\
	.width = (width_),						\
	.bit = (b),							\
	.kind = RTE_IB_FIELD_UINT,					\
}

/** Row for a byte-string field (the member is a byte array or GID). */
#define RTE_IB_ROW_BYTES(type, member, fname, w, b, width_) {	\
	.name = (fname),						\
	.host_offset = offsetof(type, member),				\
	.host_size = sizeof(((type *)0)->member),			\
	.word = (w),							\
	.width = (width_),						\
	.bit = (b),							\
	.kind = RTE_IB_FIELD_BYTES,					\
}

/** Row for a reserved field of @p width_ bits. */
#define RTE_IB_ROW_RESERVED(w, b, width_) {				\
	.name = "Reserved",						\
	.host_offset = 0,						\
	.host_size = 0,							\
	.word = (w),							\
	.width = (width_),						\
	.bit = (b),							\
	.kind = RTE_IB_FIELD_RESERVED,					\
}

/** A record: its name, its field table and its sizes. */
struct rte_ib_record_layout {
	const char *name;                  /**< Spec name, e.g. "PathRecord". */
	const struct rte_ib_field *fields; /**< Rows in wire order. */
	uint16_t nb_fields;                /**< Number of rows. */
	uint16_t wire_size;                /**< Record size on the wire, bytes. */
	uint16_t host_size;                /**< sizeof() of the host struct. */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Pack a host struct into its wire format.
 *
 * Every row is checked before anything is written, so on error @p buf
 * is unchanged. Bits of the first @c wire_size bytes that no row covers
 * are left untouched (rte_ib_layout_check() rejects tables with gaps).
 *
 * @param layout
 *   Record layout.
 * @param host
 *   Host struct of @c layout->host_size bytes, read only.
 * @param buf
 *   Wire buffer, written.
 * @param len
 *   Size of @p buf; at least @c layout->wire_size.
 * @return
 *   0 on success, -1 with rte_errno set on error:
 *   - EINVAL: a NULL argument, @p len too small, or a malformed row;
 *   - ERANGE: an integer value does not fit its field's width (the
 *     record, field, value and width are logged).
 */
__rte_experimental
int
rte_ib_pack(const struct rte_ib_record_layout *layout, const void *host,
	    void *buf, size_t len);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Unpack a wire record into its host struct.
 *
 * Only the members named by rows are written; reserved wire bits are
 * ignored, so any received bytes unpack.
 *
 * @param layout
 *   Record layout.
 * @param buf
 *   Wire buffer, read only.
 * @param len
 *   Size of @p buf; at least @c layout->wire_size.
 * @param host
 *   Host struct of @c layout->host_size bytes, written.
 * @return
 *   0 on success, -1 with rte_errno set on error:
 *   - EINVAL: a NULL argument, @p len too small, or a malformed row.
 */
__rte_experimental
int
rte_ib_unpack(const struct rte_ib_record_layout *layout, const void *buf,
	      size_t len, void *host);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Check a layout: every row well formed (bit < 32, width in range for its
 * kind, host member inside the host struct and large enough), rows in
 * wire order without gaps or overlaps, and together covering exactly
 * @c wire_size bytes. Meant for unit tests of every table.
 *
 * @param layout
 *   Record layout.
 * @return
 *   0 when the layout is sound, -1 with rte_errno = EINVAL otherwise
 *   (the first offending row is logged).
 */
__rte_experimental
int
rte_ib_layout_check(const struct rte_ib_record_layout *layout);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Print a host struct, one "Record.Field value" line per non-reserved
 * row: integers in hex, byte strings as hex bytes.
 *
 * @param f
 *   Output stream.
 * @param layout
 *   Record layout.
 * @param host
 *   Host struct, read only.
 * @return
 *   0 on success, -1 with rte_errno = EINVAL on a NULL argument or a
 *   malformed row, EIO when writing to @p f fails.
 */
__rte_experimental
int
rte_ib_record_dump(FILE *f, const struct rte_ib_record_layout *layout,
		   const void *host);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IB_PACK_H_ */
