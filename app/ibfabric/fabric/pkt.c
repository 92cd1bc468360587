/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Wire format of the packets ibfabric moves: LRH (IBA 7.7), optional GRH
 * (IBA 8.3), BTH (IBA 9.2), DETH (IBA 9.3.3), payload padded to 4 bytes,
 * ICRC (IBA 7.8.1) and VCRC (IBA 7.8.2). Only the UD SEND-only opcodes
 * exist on this fabric: every MAD and every datagram is one of them.
 *
 * CRC conventions (written down because the IBA figures are easy to
 * misread, and test_pkt.c checks them against an independent engine):
 * - ICRC: the CRC-32 of IEEE 802.3 (polynomial 0x04C11DB7, bit-reflected,
 *   seed all ones, result complemented), over LRH..end of pad with the
 *   variant fields replaced by ones. IBA 7.8.1 draws two cases: a local
 *   packet (no GRH) never crosses a router, so only LRH VL (which a
 *   switch may remap) and BTH resv8a are masked; a global packet may, and
 *   a router rebuilds its LRH, so the whole LRH is masked, with GRH
 *   TClass, FlowLabel and HopLmt and BTH resv8a (as summarised in
 *   Shanley, "InfiniBand Network Architecture", ch. 25, figs. 25-15 and
 *   25-16; RoCE's "8 bytes of 0xff for the masked LRH" is the global
 *   case). It is sent least significant byte first, as the
 *   Ethernet FCS is (IBA 7.8.1; Linux rxe_icrc.c stores it the same way).
 * - VCRC: CRC-16 with polynomial 0x100B (IBA 7.8.2), bit-reflected like
 *   the ICRC, seed all ones, result complemented, over LRH..ICRC, sent
 *   least significant byte first.
 */

#include <errno.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <emmintrin.h>
#include <wmmintrin.h>
#define PKT_HAVE_CLMUL 1
#endif

#include "fab_pkt.h"

#define LRH_LEN		8
#define GRH_LEN		40
#define BTH_LEN		12
#define DETH_LEN	8
#define IMMDT_LEN	4
#define ICRC_LEN	4
#define VCRC_LEN	2

#define LNH_IBA_LOCAL	2	/* IBA 7.7.3: next header is a BTH */
#define LNH_IBA_GLOBAL	3	/* next header is a GRH */
#define GRH_IPVER	6	/* IBA 8.3.1 */
#define GRH_NXTHDR_IBA	0x1b	/* IBA 8.3.1: BTH follows */

/*
 * Slice-by-8 tables: tab[0] is the classic byte table, tab[k][i] the
 * effect of byte i followed by k zero bytes, so eight bytes fold in per
 * step. The CRCs are most of ibfabric's per-packet work.
 */
static uint32_t crc32_tab[8][256];
static uint16_t crc16_tab[8][256];
static int crc_ready;

#ifdef PKT_HAVE_CLMUL
/*
 * Carry-less multiply folding (x86 PCLMULQDQ), for either CRC: the data
 * is read as 16-byte blocks; the first block B, split into halves H, L
 * (B = H x^64 + L), is replaced by H (x^192 mod P) + L (x^128 mod P)
 * xored into the next block. That keeps the message congruent modulo P,
 * so its CRC is unchanged; the last block and the tail then go through
 * the table engine. In the bit-reflected order the CRCs use, a 64x64
 * product comes out one bit short, so the constants are x^191 and
 * x^127 mod P. They are computed at start from the polynomials.
 */
/*
 * Folding constants per distance: [0] = x^(D+63), [1] = x^(D-1) mod P
 * for a fold over D bits, D = 128 (one block), 256, 384 and 512 (four
 * blocks: four independent lanes hide the multiplier's latency, the
 * lanes then fold into one at distances 384/256/128).
 */
struct fold_k {
	uint64_t k128[2];
	uint64_t k256[2];
	uint64_t k384[2];
	uint64_t k512[2];
};
static struct fold_k fold32_k, fold16_k;
static int use_clmul;

/* x^e mod P (P of degree w with its x^w term), in normal bit order */
static uint64_t
xpow_mod(unsigned int e, uint64_t p, unsigned int w)
{
	uint64_t r = 1;

	while (e-- > 0) {
		r <<= 1;
		if ((r >> w) & 1)
			r ^= p;
	}
	return r;
}

/* degree-d coefficient to bit 63 - d: the reflected 64-bit operand */
static uint64_t
reflect64(uint64_t r, unsigned int w)
{
	uint64_t k = 0;
	unsigned int d;

	for (d = 0; d < w; d++)
		if ((r >> d) & 1)
			k |= 1ull << (63 - d);
	return k;
}

/*
 * Fold @p n >= 32 bytes at @p d, register value @p init xored into the
 * first bytes (a reflected CRC register is the same as that xor and a
 * zero register). Leaves the last folded block in @p out and returns
 * the number of bytes it stands for (a multiple of 16).
 */
__attribute__((target("pclmul,sse2")))
static inline __m128i
clmul_step(__m128i x, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
			     _mm_clmulepi64_si128(x, k, 0x11));
}

__attribute__((target("pclmul,sse2")))
static inline __m128i
clmul_k(const uint64_t k[2])
{
	return _mm_set_epi64x((long long)k[1], (long long)k[0]);
}

__attribute__((target("pclmul,sse2")))
static size_t
clmul_fold(const uint8_t *d, size_t n, const struct fold_k *k, uint32_t init,
	   uint8_t out[16])
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)d);
	size_t off = 16;

	x = _mm_xor_si128(x, _mm_cvtsi32_si128((int)init));
	if (n >= 128) {
		__m128i k512 = clmul_k(k->k512);
		__m128i x1 = _mm_loadu_si128((const __m128i *)(const void *)(d + 16));
		__m128i x2 = _mm_loadu_si128((const __m128i *)(const void *)(d + 32));
		__m128i x3 = _mm_loadu_si128((const __m128i *)(const void *)(d + 48));

		for (off = 64; off + 64 <= n; off += 64) {
			const __m128i *b = (const __m128i *)(const void *)(d + off);

			x = _mm_xor_si128(clmul_step(x, k512), _mm_loadu_si128(b));
			x1 = _mm_xor_si128(clmul_step(x1, k512), _mm_loadu_si128(b + 1));
			x2 = _mm_xor_si128(clmul_step(x2, k512), _mm_loadu_si128(b + 2));
			x3 = _mm_xor_si128(clmul_step(x3, k512), _mm_loadu_si128(b + 3));
		}
		/* the four lanes stand for blocks off-64 .. off-16: merge into the last */
		x = _mm_xor_si128(_mm_xor_si128(clmul_step(x, clmul_k(k->k384)),
						clmul_step(x1, clmul_k(k->k256))),
				  _mm_xor_si128(clmul_step(x2, clmul_k(k->k128)), x3));
	}
	for (; off + 16 <= n; off += 16) {
		__m128i y = _mm_loadu_si128((const __m128i *)(const void *)(d + off));

		x = _mm_xor_si128(clmul_step(x, clmul_k(k->k128)), y);
	}
	_mm_storeu_si128((__m128i *)(void *)out, x);
	return off;
}

/* The constants of struct fold_k for polynomial @p poly of degree @p w. */
static void
fold_init(struct fold_k *k, uint64_t poly, unsigned int w)
{
	k->k128[0] = reflect64(xpow_mod(128 + 63, poly, w), w);
	k->k128[1] = reflect64(xpow_mod(128 - 1, poly, w), w);
	k->k256[0] = reflect64(xpow_mod(256 + 63, poly, w), w);
	k->k256[1] = reflect64(xpow_mod(256 - 1, poly, w), w);
	k->k384[0] = reflect64(xpow_mod(384 + 63, poly, w), w);
	k->k384[1] = reflect64(xpow_mod(384 - 1, poly, w), w);
	k->k512[0] = reflect64(xpow_mod(512 + 63, poly, w), w);
	k->k512[1] = reflect64(xpow_mod(512 - 1, poly, w), w);
}
#endif

/* Reflect the low @p bits bits of @p v. */
static uint32_t
reflect(uint32_t v, unsigned int bits)
{
	uint32_t r = 0;
	unsigned int i;

	for (i = 0; i < bits; i++)
		if (v & (1u << i))
			r |= 1u << (bits - 1 - i);
	return r;
}

static void
crc_init(void)
{
	uint32_t p32 = reflect(0x04C11DB7u, 32);
	uint16_t p16 = (uint16_t)reflect(0x100Bu, 16);
	unsigned int i, b, k;

	for (i = 0; i < 256; i++) {
		uint32_t c = i;
		uint16_t d = (uint16_t)i;

		for (b = 0; b < 8; b++) {
			c = (c & 1) ? (c >> 1) ^ p32 : c >> 1;
			d = (d & 1) ? (uint16_t)((d >> 1) ^ p16) : (uint16_t)(d >> 1);
		}
		crc32_tab[0][i] = c;
		crc16_tab[0][i] = d;
	}
	for (k = 1; k < 8; k++)
		for (i = 0; i < 256; i++) {
			uint32_t c = crc32_tab[k - 1][i];
			uint16_t d = crc16_tab[k - 1][i];

			crc32_tab[k][i] = (c >> 8) ^ crc32_tab[0][c & 0xff];
			crc16_tab[k][i] = (uint16_t)((d >> 8) ^ crc16_tab[0][d & 0xff]);
		}
#ifdef PKT_HAVE_CLMUL
	fold_init(&fold32_k, 0x104C11DB7ull, 32);
	fold_init(&fold16_k, 0x1100Bull, 16);
	__builtin_cpu_init();
	use_clmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse2");
#endif
	crc_ready = 1;
}

static uint32_t
crc32_table(uint32_t c, const uint8_t *d, size_t n)
{
	while (n >= 8) {
		uint32_t lo = c ^ ((uint32_t)d[0] | (uint32_t)d[1] << 8 |
				   (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24);

		c = crc32_tab[7][lo & 0xff] ^ crc32_tab[6][(lo >> 8) & 0xff] ^
		    crc32_tab[5][(lo >> 16) & 0xff] ^ crc32_tab[4][lo >> 24] ^
		    crc32_tab[3][d[4]] ^ crc32_tab[2][d[5]] ^
		    crc32_tab[1][d[6]] ^ crc32_tab[0][d[7]];
		d += 8;
		n -= 8;
	}
	while (n--)
		c = crc32_tab[0][(c ^ *d++) & 0xff] ^ (c >> 8);
	return c;
}

static uint16_t
crc16_table(uint16_t c, const uint8_t *d, size_t n)
{
	while (n >= 8) {
		unsigned int lo = c ^ ((unsigned int)d[0] | (unsigned int)d[1] << 8);

		c = (uint16_t)(crc16_tab[7][lo & 0xff] ^ crc16_tab[6][lo >> 8] ^
			       crc16_tab[5][d[2]] ^ crc16_tab[4][d[3]] ^
			       crc16_tab[3][d[4]] ^ crc16_tab[2][d[5]] ^
			       crc16_tab[1][d[6]] ^ crc16_tab[0][d[7]]);
		d += 8;
		n -= 8;
	}
	while (n--)
		c = (uint16_t)(crc16_tab[0][(c ^ *d++) & 0xff] ^ (c >> 8));
	return c;
}

static inline uint16_t
rd16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline uint32_t
rd24(const uint8_t *b)
{
	return (uint32_t)b[0] << 16 | (uint32_t)b[1] << 8 | b[2];
}

static inline uint32_t
rd32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static inline void
wr16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

static inline void
wr24(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 16);
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)v;
}

static inline void
wr32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
}

static uint32_t
crc32_run(uint32_t c, const uint8_t *d, size_t n)
{
#ifdef PKT_HAVE_CLMUL
	if (use_clmul && n >= 32) {
		uint8_t f[16];
		size_t used = clmul_fold(d, n, &fold32_k, c, f);

		return crc32_table(crc32_table(0, f, 16), d + used, n - used);
	}
#endif
	return crc32_table(c, d, n);
}

static uint16_t
crc16_run(uint16_t c, const uint8_t *d, size_t n)
{
#ifdef PKT_HAVE_CLMUL
	if (use_clmul && n >= 32) {
		uint8_t f[16];
		size_t used = clmul_fold(d, n, &fold16_k, c, f);

		return crc16_table(crc16_table(0, f, 16), d + used, n - used);
	}
#endif
	return crc16_table(c, d, n);
}

/*
 * ICRC of the @p icrc_off bytes at @p d (LRH up to the ICRC). The headers
 * are copied so that the variant fields can be set to ones (IBA 7.8.1)
 * without touching the packet.
 */
static uint32_t
icrc_compute(const uint8_t *d, uint32_t icrc_off)
{
	uint8_t hdr[LRH_LEN + GRH_LEN + BTH_LEN];
	uint32_t hlen, bth;
	uint32_t c;

	if (!crc_ready)
		crc_init();
	bth = (d[1] & 3) == LNH_IBA_GLOBAL ? LRH_LEN + GRH_LEN : LRH_LEN;
	hlen = bth + BTH_LEN;
	if (hlen > icrc_off)
		hlen = icrc_off;
	memcpy(hdr, d, hlen);
	if (bth == LRH_LEN + GRH_LEN) {
		memset(hdr, 0xff, LRH_LEN);	/* global: the whole LRH */
		hdr[LRH_LEN + 0] |= 0x0f;	/* TClass[7:4] */
		hdr[LRH_LEN + 1] = 0xff;	/* TClass[3:0], FlowLabel[19:16] */
		hdr[LRH_LEN + 2] = 0xff;	/* FlowLabel[15:0] */
		hdr[LRH_LEN + 3] = 0xff;
		hdr[LRH_LEN + 7] = 0xff;	/* HopLmt */
	} else {
		hdr[0] |= 0xf0;			/* local: LRH VL only */
	}
	if (hlen > bth + 4)
		hdr[bth + 4] = 0xff;		/* BTH resv8a */
	c = crc32_run(0xffffffffu, hdr, hlen);
	c = crc32_run(c, d + hlen, icrc_off - hlen);
	return ~c;
}

static uint16_t
vcrc_compute(const uint8_t *d, uint32_t vcrc_off)
{
	if (!crc_ready)
		crc_init();
	return (uint16_t)~crc16_run(0xffff, d, vcrc_off);
}

/* Store ICRC and VCRC of a packet whose p->len is final. */
static void
crcs_store(struct fab_pkt *p)
{
	uint32_t icrc_off = p->len - VCRC_LEN - ICRC_LEN;
	uint32_t icrc = icrc_compute(p->data, icrc_off);
	uint16_t vcrc;

	p->data[icrc_off + 0] = (uint8_t)icrc;
	p->data[icrc_off + 1] = (uint8_t)(icrc >> 8);
	p->data[icrc_off + 2] = (uint8_t)(icrc >> 16);
	p->data[icrc_off + 3] = (uint8_t)(icrc >> 24);
	vcrc = vcrc_compute(p->data, p->len - VCRC_LEN);
	p->data[p->len - 2] = (uint8_t)vcrc;
	p->data[p->len - 1] = (uint8_t)(vcrc >> 8);
	p->crc_valid = true;
	p->crc_pending = false;
}

static int
build_ud(struct fab_pkt *p, const struct fab_pkt_addr *a,
	 const void *payload, uint32_t len, bool seal)
{
	uint32_t hdrs = LRH_LEN + (a->grh ? GRH_LEN : 0) + BTH_LEN + DETH_LEN;
	uint32_t pad = (4 - (len & 3)) & 3;
	uint32_t total = hdrs + len + pad + ICRC_LEN + VCRC_LEN;
	uint8_t *d = p->data;
	uint8_t *b;

	if (len > FAB_PKT_MAX || total > FAB_PKT_MAX)
		return -EMSGSIZE;
	/*
	 * payload first: it may lie in p->data (a request turned into its
	 * reply), or already in place (gathered there by the HCA model)
	 */
	if (payload != d + hdrs)
		memmove(d + hdrs, payload, len);
	memset(d + hdrs + len, 0, pad);

	/* LRH, IBA 7.7: LVer 0, PktLen counts LRH..ICRC in 4-byte words */
	d[0] = (uint8_t)((a->vl & 0xf) << 4);
	d[1] = (uint8_t)((a->sl & 0xf) << 4 | (a->grh ? LNH_IBA_GLOBAL : LNH_IBA_LOCAL));
	wr16(d + 2, a->dlid);
	wr16(d + 4, (uint16_t)((total - VCRC_LEN) / 4));
	wr16(d + 6, a->slid);
	b = d + LRH_LEN;

	if (a->grh) {
		/* GRH, IBA 8.3: PayLen counts from after the GRH through the ICRC */
		uint32_t w0 = (uint32_t)GRH_IPVER << 28 | (uint32_t)a->tclass << 20 |
			      (a->flow_label & 0xfffff);

		wr32(b, w0);
		wr16(b + 4, (uint16_t)(BTH_LEN + DETH_LEN + len + pad + ICRC_LEN));
		b[6] = GRH_NXTHDR_IBA;
		b[7] = a->hop_limit;
		memcpy(b + 8, a->sgid, 16);
		memcpy(b + 24, a->dgid, 16);
		b += GRH_LEN;
	}

	/* BTH, IBA 9.2: SE, M=0, PadCnt, TVer 0; resv8a and A/resv7 zero */
	b[0] = FAB_BTH_OP_UD_SEND_ONLY;
	b[1] = (uint8_t)((a->solicited ? 0x80 : 0) | pad << 4);
	wr16(b + 2, a->pkey);
	b[4] = 0;
	wr24(b + 5, a->dest_qp & 0xffffff);
	b[8] = 0;
	wr24(b + 9, a->psn & 0xffffff);
	b += BTH_LEN;

	/* DETH, IBA 9.3.3 */
	wr32(b, a->qkey);
	b[4] = 0;
	wr24(b + 5, a->src_qp & 0xffffff);

	p->len = total;
	if (seal) {
		crcs_store(p);
	} else {
		/* trailer written by pkt_seal() when someone looks at it */
		p->crc_valid = true;
		p->crc_pending = true;
	}
	return 0;
}

int
pkt_build_ud(struct fab_pkt *p, const struct fab_pkt_addr *a,
	     const void *payload, uint32_t len)
{
	return build_ud(p, a, payload, len, true);
}

uint32_t
pkt_ud_payload_offset(bool grh)
{
	return LRH_LEN + (grh ? GRH_LEN : 0) + BTH_LEN + DETH_LEN;
}

int
pkt_build_ud_lazy(struct fab_pkt *p, const struct fab_pkt_addr *a,
		  const void *payload, uint32_t len)
{
	return build_ud(p, a, payload, len, false);
}

void
pkt_seal(struct fab_pkt *p)
{
	if (p->crc_pending)
		crcs_store(p);
}

static int
parse(const struct fab_pkt *p, struct fab_hdrs *h, bool check_icrc)
{
	const uint8_t *d = p->data;
	uint32_t len = p->len;
	uint32_t off, icrc_off, icrc;
	uint16_t vcrc;

	if (len < LRH_LEN + BTH_LEN + DETH_LEN + ICRC_LEN + VCRC_LEN ||
	    len > FAB_PKT_MAX || (len & 3) != VCRC_LEN)
		return -EBADMSG;

	/* LRH */
	h->vl = d[0] >> 4;
	h->lver = d[0] & 0xf;
	h->sl = d[1] >> 4;
	h->lnh = d[1] & 3;
	h->dlid = rd16(d + 2);
	h->pkt_len_words = rd16(d + 4) & 0x7ff;
	h->slid = rd16(d + 6);
	if (h->lver != 0)
		return -EBADMSG;		/* IBA 7.7.2: only LVer 0 */
	if (h->lnh != LNH_IBA_LOCAL && h->lnh != LNH_IBA_GLOBAL)
		return -EBADMSG;		/* raw packets do not exist here */
	if ((uint32_t)h->pkt_len_words * 4 + VCRC_LEN != len)
		return -EBADMSG;

	/* VCRC first: a switch checks it on every hop (IBA 7.8.2) */
	vcrc = (uint16_t)(d[len - 2] | d[len - 1] << 8);
	if (!p->crc_valid && vcrc != vcrc_compute(d, len - VCRC_LEN))
		return -EILSEQ;

	off = LRH_LEN;
	h->has_grh = h->lnh == LNH_IBA_GLOBAL;
	if (h->has_grh) {
		uint32_t w0;

		if (len < LRH_LEN + GRH_LEN + BTH_LEN + DETH_LEN + ICRC_LEN + VCRC_LEN)
			return -EBADMSG;
		w0 = rd32(d + off);
		if (w0 >> 28 != GRH_IPVER)
			return -EBADMSG;
		h->tclass = (uint8_t)(w0 >> 20);
		h->flow_label = w0 & 0xfffff;
		if (rd16(d + off + 4) != len - LRH_LEN - GRH_LEN - VCRC_LEN)
			return -EBADMSG;	/* IBA 8.3.1 PayLen */
		h->next_hdr = d[off + 6];
		if (h->next_hdr != GRH_NXTHDR_IBA)
			return -EBADMSG;
		h->hop_limit = d[off + 7];
		memcpy(h->sgid, d + off + 8, 16);
		memcpy(h->dgid, d + off + 24, 16);
		off += GRH_LEN;
	} else {
		h->tclass = 0;
		h->flow_label = 0;
		h->hop_limit = 0;
		h->next_hdr = 0;
	}

	/* BTH */
	h->opcode = d[off];
	h->solicited = d[off + 1] >> 7;
	h->migreq = (d[off + 1] >> 6) & 1;
	h->pad = (d[off + 1] >> 4) & 3;
	h->tver = d[off + 1] & 0xf;
	h->pkey = rd16(d + off + 2);
	h->dest_qp = rd24(d + off + 5);
	h->ack_req = d[off + 8] >> 7;
	h->psn = rd24(d + off + 9);
	if (h->tver != 0)
		return -EBADMSG;		/* IBA 9.2.6 */
	if (h->opcode != FAB_BTH_OP_UD_SEND_ONLY &&
	    h->opcode != FAB_BTH_OP_UD_SEND_ONLY_IMM)
		return -EBADMSG;
	off += BTH_LEN;

	/* DETH */
	h->qkey = rd32(d + off);
	h->src_qp = rd24(d + off + 5);
	off += DETH_LEN;
	if (h->opcode == FAB_BTH_OP_UD_SEND_ONLY_IMM)
		off += IMMDT_LEN;

	icrc_off = len - VCRC_LEN - ICRC_LEN;
	if (off + h->pad > icrc_off)
		return -EBADMSG;
	h->payload_off = off;
	h->payload_len = icrc_off - off - h->pad;

	if (!check_icrc || p->crc_valid)
		return 0;
	icrc = (uint32_t)d[icrc_off] | (uint32_t)d[icrc_off + 1] << 8 |
	       (uint32_t)d[icrc_off + 2] << 16 | (uint32_t)d[icrc_off + 3] << 24;
	if (icrc != icrc_compute(d, icrc_off))
		return -EILSEQ;
	return 0;
}

int
pkt_parse(const struct fab_pkt *p, struct fab_hdrs *h)
{
	return parse(p, h, true);
}

int
pkt_parse_link(const struct fab_pkt *p, struct fab_hdrs *h)
{
	return parse(p, h, false);
}

int
pkt_check_icrc(const struct fab_pkt *p)
{
	uint32_t icrc_off, icrc;
	const uint8_t *d = p->data;

	if (p->len < LRH_LEN + BTH_LEN + ICRC_LEN + VCRC_LEN || p->len > FAB_PKT_MAX)
		return -EBADMSG;
	if (p->crc_valid)
		return 0;
	icrc_off = p->len - VCRC_LEN - ICRC_LEN;
	icrc = (uint32_t)d[icrc_off] | (uint32_t)d[icrc_off + 1] << 8 |
	       (uint32_t)d[icrc_off + 2] << 16 | (uint32_t)d[icrc_off + 3] << 24;
	return icrc == icrc_compute(d, icrc_off) ? 0 : -EILSEQ;
}

void
pkt_update_crcs(struct fab_pkt *p)
{
	if (p->len < LRH_LEN + BTH_LEN + ICRC_LEN + VCRC_LEN || p->len > FAB_PKT_MAX)
		return;
	crcs_store(p);
}

void
pkt_set_lids(struct fab_pkt *p, uint16_t dlid, uint16_t slid)
{
	wr16(p->data + 2, dlid);
	wr16(p->data + 6, slid);
	/* the node rewriting the LRH regenerates the CRCs: lazily (pkt_seal) */
	p->crc_valid = true;
	p->crc_pending = true;
}
