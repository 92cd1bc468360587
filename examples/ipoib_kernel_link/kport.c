/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The kernel side: the port the app creates with rte_dev_probe() and how it
 * follows the IB side (MAC, MTU, link state). Control path only, on the
 * main lcore.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_ethdev.h>

#include "kernel_link.h"

/* Device name prefixes: the vdev bus matches a driver by prefix. */
static const char *const kport_prefix[KLINK_KIND_COUNT] = {
	[KLINK_KIND_TAP] = "net_tap_klink",
	[KLINK_KIND_TUN] = "net_tun_klink",
	[KLINK_KIND_VIRTIO] = "virtio_user_klink",
};

/*
 * virtio_user's own link and MTU calls act on the virtio device, not on
 * the kernel interface vhost-net made for it (in DPDK 22.11 its
 * set_link_down stops the rx/tx bursts, and its MTU needs a feature
 * vhost-net does not offer): for that kind the app sets the interface's
 * flags and MTU itself, through this socket of the app's namespace.
 */
static int kport_sock = -1;
static uint16_t kport_mtu;	/* MTU last given to the kernel side, 0: none */

/* The devargs of the kernel port into @p buf; 0, or -1 if they do not fit. */
static int
kport_devargs(const struct klink_ports *p, char *buf, size_t len)
{
	struct rte_ether_addr mac;
	char macs[RTE_ETHER_ADDR_FMT_SIZE] = "";
	int n;

	/*
	 * The kernel answers ARP and ND with its interface's MAC: it must be
	 * the IB side's, or frames for it would not reach the IB port (with
	 * net_ipoib, that MAC stands for the port's IPoIB address).
	 */
	if (klink_cfg.kind != KLINK_KIND_TUN &&
	    rte_eth_macaddr_get(p->ib, &mac) == 0) {
		if (rte_is_valid_assigned_ether_addr(&mac))
			rte_ether_format_addr(macs, sizeof(macs), &mac);
		else
			KLINK_LOG(WARNING, "port %u: MAC " RTE_ETHER_ADDR_PRT_FMT
				  " is not a unicast address: %s keeps its own",
				  p->ib, RTE_ETHER_ADDR_BYTES(&mac), klink_cfg.iface);
	}
	switch (klink_cfg.kind) {
	case KLINK_KIND_TAP:
		n = snprintf(buf, len, "%s,iface=%s%s%s", p->kernel_name, klink_cfg.iface,
			     macs[0] ? ",mac=" : "", macs);
		break;
	case KLINK_KIND_TUN:
		n = snprintf(buf, len, "%s,iface=%s", p->kernel_name, klink_cfg.iface);
		break;
	default:
		n = snprintf(buf, len, "%s,path=%s,iface=%s,queue_size=%u%s%s", p->kernel_name,
			     klink_cfg.vhost_path, klink_cfg.iface, KLINK_NB_DESC,
			     macs[0] ? ",mac=" : "", macs);
		break;
	}
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int
klink_kport_create(struct klink_ports *p)
{
	char args[512];
	int ret;

	snprintf(p->kernel_name, sizeof(p->kernel_name), "%s%u",
		 kport_prefix[klink_cfg.kind], p->ib);
	if (kport_devargs(p, args, sizeof(args)) != 0) {
		KLINK_LOG(ERR, "%s: device arguments too long", p->kernel_name);
		return -EINVAL;
	}
	ret = rte_dev_probe(args);
	if (ret != 0) {
		KLINK_LOG(ERR, "cannot create the kernel side \"%s\": %s (the driver's log "
			  "above says why)", args, rte_strerror(-ret));
		return ret;
	}
	ret = rte_eth_dev_get_port_by_name(p->kernel_name, &p->kernel);
	if (ret != 0) {
		KLINK_LOG(ERR, "%s: probed but no ethdev port", p->kernel_name);
		goto err_remove;
	}
	if (klink_cfg.kind == KLINK_KIND_VIRTIO) {
		kport_sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (kport_sock < 0) {
			ret = -errno;
			KLINK_LOG(ERR, "socket for %s: %s", klink_cfg.iface, strerror(errno));
			goto err_remove;
		}
	}
	KLINK_LOG(INFO, "kernel side: %s, port %u, interface %s", args, p->kernel,
		  klink_cfg.iface);
	return 0;

err_remove:
	rte_eal_hotplug_remove("vdev", p->kernel_name);
	return ret;
}

void
klink_kport_destroy(struct klink_ports *p)
{
	int ret;

	if (p->kernel_name[0] == '\0')
		return;
	if (kport_sock >= 0) {
		close(kport_sock);
		kport_sock = -1;
	}
	/* The driver's remove closes the port; net_tap deletes the interface. */
	ret = rte_eal_hotplug_remove("vdev", p->kernel_name);
	if (ret != 0)
		KLINK_LOG(WARNING, "%s: remove: %s", p->kernel_name, rte_strerror(-ret));
	p->kernel_name[0] = '\0';
}

/* Set or clear IFF_UP of the kernel interface (virtio_user only). */
static int
kport_ifflags(bool up)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, klink_cfg.iface);
	if (ioctl(kport_sock, SIOCGIFFLAGS, &ifr) != 0)
		return -errno;
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	return ioctl(kport_sock, SIOCSIFFLAGS, &ifr) == 0 ? 0 : -errno;
}

static int
kport_set_mtu(const struct klink_ports *p, uint16_t mtu)
{
	struct ifreq ifr;

	if (klink_cfg.kind != KLINK_KIND_VIRTIO)
		return rte_eth_dev_set_mtu(p->kernel, mtu);
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, klink_cfg.iface);
	ifr.ifr_mtu = mtu;
	return ioctl(kport_sock, SIOCSIFMTU, &ifr) == 0 ? 0 : -errno;
}

/*
 * The largest MTU @p info's port takes. ethdev leaves max_mtu at
 * UINT16_MAX when a driver gives only max_rx_pktlen (net_tap), and then
 * checks the MTU plus 18 bytes (Ethernet header and CRC) against
 * max_rx_pktlen (eth_dev_get_overhead_len() in DPDK 22.11's rte_ethdev.c).
 */
static uint16_t
kport_max_mtu(const struct rte_eth_dev_info *info)
{
	const uint32_t overhead = RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;

	if (info->max_mtu != UINT16_MAX)
		return info->max_mtu;
	if (info->max_rx_pktlen > overhead && info->max_rx_pktlen - overhead < UINT16_MAX)
		return (uint16_t)(info->max_rx_pktlen - overhead);
	return UINT16_MAX;
}

/*
 * The kernel side's MTU := the IB side's, clamped to what the kernel port
 * takes: DPDK 22.11's net_tap reports a largest frame of 1522 bytes
 * (RTE_ETHER_MAX_VLAN_FRAME_LEN), so TAP and TUN stop at MTU 1504, below
 * the 2044 of an IPoIB port on a 2048-byte broadcast group.
 */
int
klink_kport_mirror_mtu(const struct klink_ports *p)
{
	struct rte_eth_dev_info info;
	uint16_t ib_mtu, mtu, max = UINT16_MAX;
	int ret;

	ret = rte_eth_dev_get_mtu(p->ib, &ib_mtu);
	if (ret != 0) {
		KLINK_LOG(ERR, "port %u: MTU: %s", p->ib, rte_strerror(-ret));
		return ret;
	}
	mtu = ib_mtu;
	if (klink_cfg.kind != KLINK_KIND_VIRTIO &&
	    rte_eth_dev_info_get(p->kernel, &info) == 0)
		max = kport_max_mtu(&info);
	if (mtu > max)
		mtu = max;
	if (mtu == kport_mtu)
		return 0;
	if (mtu != ib_mtu)
		KLINK_LOG(NOTICE, "%s: MTU %u (port %u has %u; %s takes at most %u)",
			  klink_cfg.iface, mtu, p->ib, ib_mtu, klink_kind_names[klink_cfg.kind],
			  max);
	ret = kport_set_mtu(p, mtu);
	if (ret != 0) {
		KLINK_LOG(ERR, "%s: MTU %u: %s", klink_cfg.iface, mtu, rte_strerror(-ret));
		return ret;
	}
	kport_mtu = mtu;
	KLINK_LOG(INFO, "%s: MTU %u", klink_cfg.iface, mtu);
	return 0;
}

/*
 * The kernel interface up when the IB side's link is up, down when it is
 * down (net_ipoib: IB port ACTIVE and broadcast group joined). *@p
 * kernel_up is what the kernel side was last set to (-1: not yet).
 */
int
klink_kport_mirror_link(const struct klink_ports *p, int *kernel_up)
{
	struct rte_eth_link link;
	int ret, up;

	ret = rte_eth_link_get_nowait(p->ib, &link);
	if (ret != 0)
		return ret;
	up = link.link_status == RTE_ETH_LINK_UP;
	if (up == *kernel_up)
		return 0;
	/* the UD MTU follows the broadcast group's, known once joined */
	if (up)
		klink_kport_mirror_mtu(p);
	if (klink_cfg.kind == KLINK_KIND_VIRTIO)
		ret = kport_ifflags(up);
	else
		ret = up ? rte_eth_dev_set_link_up(p->kernel) :
			rte_eth_dev_set_link_down(p->kernel);
	if (ret != 0) {
		KLINK_LOG(ERR, "%s: link %s: %s", klink_cfg.iface, up ? "up" : "down",
			  rte_strerror(-ret));
		return ret;
	}
	*kernel_up = up;
	printf("Link %s: port %u %s, %s %s\n", up ? "up" : "down", p->ib,
	       up ? rte_eth_link_speed_to_str(link.link_speed) : "down",
	       klink_cfg.iface, up ? "up" : "down");
	return 0;
}
