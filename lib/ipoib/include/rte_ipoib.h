/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

#ifndef _RTE_IPOIB_H_
#define _RTE_IPOIB_H_

/**
 * @file
 * IP over InfiniBand, datagram mode (RFC 4391, RFC 4392): the wire formats
 * and the address mappings.
 *
 * - The 20-byte IPoIB link-layer address (RFC 4391 9.1): one byte of
 *   flags (reserved in RFC 4391; bit 7 is RFC 4755's connected-mode
 *   capability), the 24-bit UD QP number and the 16-byte port GID.
 * - The 4-byte encapsulation header (RFC 4391 6): EtherType and 16
 *   reserved bits.
 * - Multicast GIDs (RFC 4391 4): the broadcast group of a partition and
 *   the IPv4 and IPv6 multicast groups, with the P_Key's full-membership
 *   bit set and a configurable scope.
 * - The IPv6 interface identifier from the port GUID (RFC 4391 8) and the
 *   UD MTU from the IB MTU (RFC 4391 7).
 *
 * Everything in this header is pure: no state, callable from any thread
 * or lcore. Buffers are in wire order; other values in host order unless
 * the type says rte_be*.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_compat.h>

#include <rte_ib_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Length of an IPoIB link-layer address (RFC 4391 9.1). */
#define RTE_IPOIB_ALEN 20
/** Length of the IPoIB encapsulation header (RFC 4391 6). */
#define RTE_IPOIB_ENCAP_LEN 4
/** QPN of every multicast destination (IBA 10.5: 0xFFFFFF). */
#define RTE_IPOIB_QPN_MCAST 0xffffffu
/** Mask of the 24-bit QPN in the first word of the address. */
#define RTE_IPOIB_QPN_MASK 0x00ffffffu
/** Flags bit 7: connected mode supported (RFC 4755 4; Linux IPOIB_FLAGS_RC). */
#define RTE_IPOIB_HWADDR_F_RC 0x80
/** ARP hardware type of InfiniBand (IANA, RFC 4391 9.1.1). */
#define RTE_IPOIB_ARP_HRD 32

/** IPoIB multicast GID signature of IPv4 (RFC 4391 4). */
#define RTE_IPOIB_MGID_SIG_IPV4 0x401b
/** IPoIB multicast GID signature of IPv6 (RFC 4391 4). */
#define RTE_IPOIB_MGID_SIG_IPV6 0x601b
/** Link-local multicast scope, the default (RFC 4391 4.1). */
#define RTE_IPOIB_SCOPE_LINK 0x2
/** Site-local multicast scope. */
#define RTE_IPOIB_SCOPE_SITE 0x5
/** Organisation-local multicast scope. */
#define RTE_IPOIB_SCOPE_ORG 0x8
/** Global multicast scope. */
#define RTE_IPOIB_SCOPE_GLOBAL 0xe

/** Smallest IB MTU in bytes (IBA 14.2.5.6 MTU code 1). */
#define RTE_IPOIB_IB_MTU_MIN 256
/** Largest IB MTU in bytes (IBA 14.2.5.6 MTU code 5). */
#define RTE_IPOIB_IB_MTU_MAX 4096
/** Largest UD-mode IP MTU: 4096 less the encapsulation header. */
#define RTE_IPOIB_UD_MTU_MAX (RTE_IPOIB_IB_MTU_MAX - RTE_IPOIB_ENCAP_LEN)

/** Buffer size for rte_ipoib_hwaddr_format(): 20 "xx:" and a NUL. */
#define RTE_IPOIB_HWADDR_FMT_SIZE (RTE_IPOIB_ALEN * 3)

/**
 * IPoIB link-layer address (RFC 4391 9.1), wire layout:
 *
 * @verbatim
 *  0       1       2       3
 * +-------+-------+-------+-------+
 * | flags |       QPN (24)        |
 * +-------+-------+-------+-------+
 * |                               |
 * |      GID (16 bytes)           |
 * |                               |
 * +-------+-------+-------+-------+
 * @endverbatim
 */
struct rte_ipoib_hwaddr {
	rte_be32_t flags_qpn;            /**< [31:24] flags, [23:0] QPN. */
	uint8_t gid[RTE_IB_GID_LEN];     /**< Port GID or MGID, wire order. */
};

/** The IPoIB encapsulation header (RFC 4391 6). */
struct rte_ipoib_hdr {
	rte_be16_t type;     /**< EtherType of the payload. */
	rte_be16_t reserved; /**< Zero on send, ignored on receive. */
};

/**
 * ARP over IPoIB for IPv4 (RFC 826 with RFC 4391 9.1.1): hardware type
 * 32, hardware length 20. 56 bytes, 4-byte aligned members.
 */
struct rte_ipoib_arp {
	rte_be16_t htype;                /**< RTE_IPOIB_ARP_HRD. */
	rte_be16_t ptype;                /**< 0x0800. */
	uint8_t hlen;                    /**< RTE_IPOIB_ALEN. */
	uint8_t plen;                    /**< 4. */
	rte_be16_t oper;                 /**< 1 request, 2 reply. */
	struct rte_ipoib_hwaddr sha;     /**< Sender hardware address. */
	rte_be32_t spa;                  /**< Sender IPv4 address. */
	struct rte_ipoib_hwaddr tha;     /**< Target hardware address. */
	rte_be32_t tpa;                  /**< Target IPv4 address. */
};

/**
 * ND link-layer address option in the IPoIB form (RFC 4391 9.1.2):
 * type 1 (source) or 2 (target), length 3 (24 bytes), two bytes of zero
 * padding, then the 20-byte address.
 */
struct rte_ipoib_nd_opt_lla {
	uint8_t type;                    /**< 1 source, 2 target. */
	uint8_t len;                     /**< 3, in units of 8 bytes. */
	uint8_t pad[2];                  /**< Zero. */
	struct rte_ipoib_hwaddr addr;    /**< The IPoIB address. */
};

/** Length of an IPoIB ND link-layer address option. */
#define RTE_IPOIB_ND_OPT_LLA_LEN 24

static_assert(sizeof(struct rte_ipoib_hwaddr) == RTE_IPOIB_ALEN,
	      "IPoIB address is 20 bytes (RFC 4391 9.1)");
static_assert(sizeof(struct rte_ipoib_hdr) == RTE_IPOIB_ENCAP_LEN,
	      "IPoIB header is 4 bytes (RFC 4391 6)");
static_assert(sizeof(struct rte_ipoib_arp) == 56,
	      "ARP over IPoIB is 8 + 2 * (20 + 4) bytes");
static_assert(sizeof(struct rte_ipoib_nd_opt_lla) == RTE_IPOIB_ND_OPT_LLA_LEN,
	      "IPoIB LLA option is 3 units of 8 bytes (RFC 4391 9.1.2)");

/**
 * Why a packet was dropped: the index of the per-reason counters of the
 * data path (rte_ipoib_encap.h) and the verdict of the checks here.
 */
enum rte_ipoib_drop_reason {
	RTE_IPOIB_DROP_NONE = 0,      /**< Not dropped. */
	RTE_IPOIB_DROP_NO_NEIGH,      /**< No neighbour for the destination (or source). */
	RTE_IPOIB_DROP_NO_PATH,       /**< Neighbour without a resolved path, not queued. */
	RTE_IPOIB_DROP_QUEUE_FULL,    /**< Unresolved path's queue full. */
	RTE_IPOIB_DROP_BAD_LENGTH,    /**< Frame shorter than its headers say. */
	RTE_IPOIB_DROP_BAD_ETHERTYPE, /**< EtherType not IPv4, ARP or IPv6 (or VLAN). */
	RTE_IPOIB_DROP_WRONG_PKEY,    /**< Received on another partition. */
	RTE_IPOIB_DROP_OVERSIZE,      /**< Larger than the UD MTU. */
	RTE_IPOIB_DROP_BAD_ARP,       /**< ARP with a wrong type, length or operation. */
	RTE_IPOIB_DROP_BAD_ND,        /**< ND message or option malformed or untranslatable. */
	RTE_IPOIB_DROP_BAD_MCAST,     /**< Multicast MAC that does not match the IP group. */
	RTE_IPOIB_DROP_NO_ROOM,       /**< Multi-segment or no head/tail room to rewrite. */
	RTE_IPOIB_DROP_LOOPED,        /**< Our own multicast, replicated back by the HCA. */
	RTE_IPOIB_DROP_MAX            /**< Number of reasons. */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The 24-bit QPN of @p hw.
 */
__rte_experimental
static inline uint32_t
rte_ipoib_hwaddr_qpn(const struct rte_ipoib_hwaddr *hw)
{
	return rte_be_to_cpu_32(hw->flags_qpn) & RTE_IPOIB_QPN_MASK;
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   The flags byte of @p hw.
 */
__rte_experimental
static inline uint8_t
rte_ipoib_hwaddr_flags(const struct rte_ipoib_hwaddr *hw)
{
	return (uint8_t)(rte_be_to_cpu_32(hw->flags_qpn) >> 24);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Fill an IPoIB address.
 *
 * @param hw
 *   Address to fill.
 * @param flags
 *   Flags byte (0, or RTE_IPOIB_HWADDR_F_RC).
 * @param qpn
 *   QP number; bits above 23 are ignored.
 * @param gid
 *   GID (or MGID).
 */
__rte_experimental
static inline void
rte_ipoib_hwaddr_set(struct rte_ipoib_hwaddr *hw, uint8_t flags, uint32_t qpn,
		     const struct rte_ib_gid *gid)
{
	hw->flags_qpn = rte_cpu_to_be_32((uint32_t)flags << 24 |
					 (qpn & RTE_IPOIB_QPN_MASK));
	memcpy(hw->gid, gid->raw, RTE_IB_GID_LEN);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Copy the GID of @p hw into @p gid.
 */
__rte_experimental
static inline void
rte_ipoib_hwaddr_gid(const struct rte_ipoib_hwaddr *hw, struct rte_ib_gid *gid)
{
	memcpy(gid->raw, hw->gid, RTE_IB_GID_LEN);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   true when @p hw names a multicast group: its GID is a multicast GID
 *   (first byte 0xFF). Its QPN is then RTE_IPOIB_QPN_MCAST.
 */
__rte_experimental
static inline bool
rte_ipoib_hwaddr_is_mcast(const struct rte_ipoib_hwaddr *hw)
{
	return hw->gid[0] == 0xff;
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return
 *   true when both addresses are equal in QPN and GID. The flags byte is
 *   not part of a neighbour's identity (Linux compares addresses from
 *   byte 4 on, ipoib_neigh hashing the QPN and GID).
 */
__rte_experimental
static inline bool
rte_ipoib_hwaddr_equal(const struct rte_ipoib_hwaddr *a,
		       const struct rte_ipoib_hwaddr *b)
{
	return rte_ipoib_hwaddr_qpn(a) == rte_ipoib_hwaddr_qpn(b) &&
		memcmp(a->gid, b->gid, RTE_IB_GID_LEN) == 0;
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Write @p hw as 20 colon-separated lowercase hex bytes, the form of
 * "ip link" on Linux ("80:00:00:48:fe:80:00:...").
 *
 * @param hw
 *   Address to format.
 * @param buf
 *   Output, at least RTE_IPOIB_HWADDR_FMT_SIZE bytes.
 * @param size
 *   Size of @p buf.
 * @return
 *   Characters written without the NUL (59), or -1 with rte_errno EINVAL
 *   (NULL argument) or ENOSPC (@p size too small).
 */
__rte_experimental
int rte_ipoib_hwaddr_format(const struct rte_ipoib_hwaddr *hw, char *buf,
			    size_t size);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Parse the form rte_ipoib_hwaddr_format() writes: exactly 20 bytes of
 * one or two hex digits each, separated by ':', nothing else.
 *
 * @param str
 *   NUL-terminated text.
 * @param hw
 *   Address to fill; untouched on error.
 * @return
 *   0, or -1 with rte_errno EINVAL (NULL, wrong count, bad digit, junk).
 */
__rte_experimental
int rte_ipoib_hwaddr_parse(const char *str, struct rte_ipoib_hwaddr *hw);

/** Buffer size for rte_ipoib_ip_format(): the longest IPv6 text and a NUL (INET6_ADDRSTRLEN). */
#define RTE_IPOIB_IP_FMT_SIZE 46

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Format an IP address as the tables key it (16 bytes, IPv4 as
 * ::ffff:a.b.c.d, RFC 4291 2.5.5.2) in its usual text form: dotted
 * decimal for an IPv4 one, RFC 5952 for the others (inet_ntop(3)).
 *
 * @param ip
 *   16 bytes.
 * @param buf
 *   Output, at least RTE_IPOIB_IP_FMT_SIZE bytes.
 * @param size
 *   Size of @p buf.
 * @return
 *   Characters written without the NUL, or -1 with rte_errno EINVAL
 *   (NULL argument) or ENOSPC (@p size too small).
 */
__rte_experimental
int rte_ipoib_ip_format(const uint8_t ip[16], char *buf, size_t size);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The broadcast group of a partition (RFC 4391 4.1, Linux ipoib
 * broadcast address): ff1<scope>:401b:<pkey|0x8000>::ffff:ffff.
 *
 * @param pkey
 *   P_Key; the full-membership bit is set in the MGID whatever it is here.
 * @param scope
 *   4-bit multicast scope, 1..14 (RTE_IPOIB_SCOPE_*).
 * @param mgid
 *   MGID to fill.
 * @return
 *   0, or -1 with rte_errno EINVAL (scope 0 or above 14, a P_Key whose
 *   15-bit base is zero, or NULL).
 */
__rte_experimental
int rte_ipoib_bcast_mgid(uint16_t pkey, uint8_t scope, struct rte_ib_gid *mgid);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Map an IPv4 multicast group to its MGID (RFC 4391 4; Linux
 * ip_ib_mc_map()): ff1<scope>:401b:<pkey|0x8000>:0:0:0 followed by the
 * group's low 28 bits.
 *
 * @param group
 *   IPv4 multicast address, network order (224.0.0.0/4).
 * @param pkey
 *   P_Key of the interface.
 * @param scope
 *   4-bit scope, 1..14.
 * @param mgid
 *   MGID to fill.
 * @return
 *   0, or -1 with rte_errno EINVAL (not a multicast address, bad scope or
 *   P_Key, NULL).
 */
__rte_experimental
int rte_ipoib_ipv4_mc_mgid(rte_be32_t group, uint16_t pkey, uint8_t scope,
			   struct rte_ib_gid *mgid);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Map an IPv6 multicast group to its MGID (RFC 4391 4; Linux
 * ipv6_ib_mc_map()): ff1<scope>:601b:<pkey|0x8000> followed by the
 * group's low 80 bits.
 *
 * @param group
 *   16-byte IPv6 multicast address (ff00::/8).
 * @param pkey
 *   P_Key of the interface.
 * @param scope
 *   4-bit scope, 1..14.
 * @param mgid
 *   MGID to fill.
 * @return
 *   0, or -1 with rte_errno EINVAL.
 */
__rte_experimental
int rte_ipoib_ipv6_mc_mgid(const uint8_t group[16], uint16_t pkey, uint8_t scope,
			   struct rte_ib_gid *mgid);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The multicast IPoIB address of a group: flags 0, QPN 0xFFFFFF, the
 * MGID (Linux's ip_ib_mc_map() result).
 */
__rte_experimental
static inline void
rte_ipoib_mcast_hwaddr(const struct rte_ib_gid *mgid, struct rte_ipoib_hwaddr *hw)
{
	rte_ipoib_hwaddr_set(hw, 0, RTE_IPOIB_QPN_MCAST, mgid);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The IPv6 interface identifier of an IPoIB interface (RFC 4391 8): the
 * port GUID, an EUI-64, with its universal/local bit (bit 1 of the first
 * byte) inverted as RFC 4291 appendix A says. For the universally
 * administered GUIDs of real ports this equals Linux's
 * addrconf_ifid_infiniband(), which sets the bit.
 *
 * @param guid
 *   Port GUID, host order.
 * @param iid
 *   The 8 interface-identifier bytes, wire order.
 */
__rte_experimental
void rte_ipoib_ipv6_iid(uint64_t guid, uint8_t iid[8]);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The IPv6 link-local address fe80::<iid> of the port with GUID @p guid.
 */
__rte_experimental
void rte_ipoib_ipv6_link_local(uint64_t guid, uint8_t addr[16]);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The IP MTU of UD mode (RFC 4391 7): the IB MTU less the 4-byte
 * encapsulation header, 2044 for an MTU of 2048, 4092 for 4096.
 *
 * @param ib_mtu
 *   IB MTU in bytes: 256, 512, 1024, 2048 or 4096.
 * @return
 *   The IP MTU, or 0 when @p ib_mtu is not an IB MTU.
 */
__rte_experimental
uint32_t rte_ipoib_ud_mtu(uint32_t ib_mtu);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Fill an ARP packet over IPoIB (RFC 4391 9.1.1).
 *
 * @param arp
 *   56-byte buffer to fill.
 * @param oper
 *   1 (request) or 2 (reply).
 * @param sha, spa, tha, tpa
 *   Sender and target addresses; @p tha may be NULL (all zero, as in a
 *   request). IPv4 addresses network order.
 * @return
 *   0, or -1 with rte_errno EINVAL (NULL @p arp or @p sha, bad @p oper).
 */
__rte_experimental
int rte_ipoib_arp_build(struct rte_ipoib_arp *arp, uint16_t oper,
			const struct rte_ipoib_hwaddr *sha, rte_be32_t spa,
			const struct rte_ipoib_hwaddr *tha, rte_be32_t tpa);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Check an ARP packet received over IPoIB: at least 56 bytes, hardware
 * type 32, protocol type 0x0800, lengths 20 and 4, operation request or
 * reply, sender address not multicast.
 *
 * @param buf
 *   ARP packet (after the encapsulation header), 4-byte aligned.
 * @param len
 *   Bytes in @p buf; bytes past 56 (link padding) are ignored.
 * @return
 *   The packet as a struct pointer, or NULL with rte_errno EINVAL (a
 *   field, NULL or a misaligned @p buf) or EMSGSIZE (shorter than 56
 *   bytes).
 */
__rte_experimental
const struct rte_ipoib_arp *rte_ipoib_arp_parse(const void *buf, size_t len);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Fill an IPoIB ND link-layer address option (RFC 4391 9.1.2).
 *
 * @param opt
 *   24-byte option to fill.
 * @param type
 *   1 (source) or 2 (target).
 * @param hw
 *   The address.
 * @return
 *   0, or -1 with rte_errno EINVAL.
 */
__rte_experimental
int rte_ipoib_nd_opt_lla_build(struct rte_ipoib_nd_opt_lla *opt, uint8_t type,
			       const struct rte_ipoib_hwaddr *hw);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Find and check the link-layer address option of type @p type in an ND
 * message (RFC 4861 4.1 to 4.5: router solicitation and advertisement,
 * neighbour solicitation and advertisement, redirect).
 *
 * Checks: IPv6 header (version 6, next header 58, payload length within
 * @p len, hop limit 255 as RFC 4861 7.1.1 requires), ICMPv6 type 133..137
 * with code 0 and the fixed part present, every option's length non-zero
 * and within the message, and the option of @p type, if present, in the
 * IPoIB form (length 3). The ICMPv6 checksum is verified.
 *
 * @param ip6
 *   The IPv6 packet, from its IPv6 header.
 * @param len
 *   Bytes in @p ip6.
 * @param type
 *   1 (source) or 2 (target).
 * @param hw
 *   Filled with the option's address when one is found; may be NULL.
 * @return
 *   1 when the option is present, 0 when the message is valid and has
 *   none, -1 with rte_errno EINVAL (a field), EMSGSIZE (truncated),
 *   EBADMSG (checksum) or EPROTO (option in a non-IPoIB form).
 */
__rte_experimental
int rte_ipoib_nd_find_lla(const void *ip6, size_t len, uint8_t type,
			  struct rte_ipoib_hwaddr *hw);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Build a neighbour solicitation or advertisement (RFC 4861 4.3, 4.4)
 * carrying an IPoIB link-layer address option, with its ICMPv6 checksum.
 *
 * @param buf
 *   Output, from the IPv6 header on.
 * @param size
 *   Size of @p buf; 40 + 24 + 24 = 88 bytes are written.
 * @param icmp_type
 *   135 (solicitation, source option) or 136 (advertisement, target
 *   option; the solicited and override flags are set).
 * @param src, dst, target
 *   IPv6 source, destination and target addresses (16 bytes each).
 * @param hw
 *   The address carried in the option.
 * @return
 *   Bytes written (88), or -1 with rte_errno EINVAL or ENOSPC.
 */
__rte_experimental
int rte_ipoib_nd_build(void *buf, size_t size, uint8_t icmp_type,
		       const uint8_t src[16], const uint8_t dst[16],
		       const uint8_t target[16], const struct rte_ipoib_hwaddr *hw);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_IPOIB_H_ */
