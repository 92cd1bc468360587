/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * The sysfs-shaped tree of the user-MAD service (umad_sysfs.h). Formats
 * follow Linux drivers/infiniband/core/sysfs.c (node_type_show(),
 * node_guid_show(), state_show(), phys_state_show(), rate_show(),
 * show_port_gid(), show_port_pkey(), lid_show() ...), user_mad.c
 * (show_abi_version(), ibdev_show(), port_show()) and mthca's
 * mthca_provider.c (show_rev(), show_hca(), show_fw_ver()), which
 * libibumad 44 parses (sysfs.c: sys_read_string(), sys_read_uint(),
 * sys_read_guid(), sys_read_gid()).
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rdma/ib_user_mad.h>

#include <rte_common.h>
#include <rte_errno.h>

#include <ib_driver.h>
#include <rte_ib_attrs.h>

#include "umad_sysfs.h"

/* Entries written for the GID and P_Key tables at most. */
#define SYSFS_MAX_GIDS 128u
#define SYSFS_MAX_PKEYS 128u

void
umad_sysfs_fmt_guid(char *buf, size_t len, uint64_t guid)
{
	snprintf(buf, len, "%04x:%04x:%04x:%04x\n",
		 (unsigned int)(guid >> 48) & 0xffff,
		 (unsigned int)(guid >> 32) & 0xffff,
		 (unsigned int)(guid >> 16) & 0xffff,
		 (unsigned int)guid & 0xffff);
}

void
umad_sysfs_fmt_gid(char *buf, size_t len, const struct rte_ib_gid *gid)
{
	const uint8_t *r = gid->raw;

	snprintf(buf, len,
		 "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x\n",
		 r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
		 r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
}

void
umad_sysfs_fmt_state(char *buf, size_t len, uint8_t state)
{
	static const char *const names[] = {
		"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
	};

	snprintf(buf, len, "%u: %s\n", state,
		 state < RTE_DIM(names) ? names[state] : "UNKNOWN");
}

void
umad_sysfs_fmt_phys_state(char *buf, size_t len, uint8_t phys_state)
{
	static const char *const names[] = {
		"<unknown>", "Sleep", "Polling", "Disabled",
		"PortConfigurationTraining", "LinkUp", "LinkErrorRecovery",
		"Phy Test",
	};

	snprintf(buf, len, "%u: %s\n", phys_state,
		 phys_state < RTE_DIM(names) ? names[phys_state] : "<unknown>");
}

void
umad_sysfs_fmt_rate(char *buf, size_t len, uint8_t width, uint8_t speed)
{
	const char *name;
	unsigned int tenths, lanes;

	/* rate_show(): tenths of Gb/s per lane; unknown speeds read as SDR. */
	switch (speed) {
	case RTE_IB_SPEED_DDR:
		name = "DDR";
		tenths = 50;
		break;
	case RTE_IB_SPEED_QDR:
		name = "QDR";
		tenths = 100;
		break;
	default:
		name = "SDR";
		tenths = 25;
		break;
	}
	switch (width) {
	case RTE_IB_WIDTH_4X:
		lanes = 4;
		break;
	case RTE_IB_WIDTH_8X:
		lanes = 8;
		break;
	case RTE_IB_WIDTH_12X:
		lanes = 12;
		break;
	case 16: /* 2X, IBA 1.3 */
		lanes = 2;
		break;
	default:
		lanes = 1;
		break;
	}
	tenths *= lanes;
	snprintf(buf, len, "%u%s Gb/sec (%uX %s)\n", tenths / 10,
		 tenths % 10 ? ".5" : "", lanes, name);
}

void
umad_sysfs_fmt_hca_type(char *buf, size_t len, uint32_t vendor_id,
			uint32_t part_id)
{
	const char *name = NULL;

	if (vendor_id == 0x02c9) {
		switch (part_id) {
		case 0x5a44:
			name = "MT23108";
			break;
		case 0x6278:
			name = "MT25208 (MT23108 compat mode)";
			break;
		case 0x6282:
			name = "MT25208";
			break;
		case 0x6274:
		case 0x5e8c:
			name = "MT25204";
			break;
		default:
			break;
		}
	}
	if (name != NULL)
		snprintf(buf, len, "%s\n", name);
	else
		snprintf(buf, len, "%u\n", part_id);
}

/* true when @path holds exactly @text (@len bytes). */
static bool
same_text(const char *path, const char *text, size_t len)
{
	char old[256];
	ssize_t n;
	int fd;

	if (len >= sizeof(old))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, old, sizeof(old));
	close(fd);
	return n == (ssize_t)len && memcmp(old, text, len) == 0;
}

/*
 * Write @text to @dir/@name through a temporary file and a rename; a file
 * that already says it is left alone (a refresh rewrites every
 * attribute, and most never change). The temporary name is the writer
 * thread's own: a port event and the refresher may rewrite the same file
 * at once, and a shared name let one rename the other's file away
 * (ENOENT, the device's add failing).
 */
int
umad_sysfs_put_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	size_t len = strlen(text);
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path) ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.%d.tmp", dir, name,
		     (int)gettid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	if (same_text(path, text, len))
		return 0;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n != (ssize_t)len) {
		int err = n < 0 ? errno : EIO;

		close(fd);
		unlink(tmp);
		return -err;
	}
	close(fd);
	if (rename(tmp, path) < 0) {
		int err = errno;

		unlink(tmp);
		return -err;
	}
	return 0;
}

static int
put_fmt(const char *dir, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
put_fmt(const char *dir, const char *name, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return umad_sysfs_put_file(dir, name, text);
}

static int
make_dir(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
make_dir(const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static void remove_tree(const char *path);

/*
 * ports/N/counters/: Linux sysfs.c show_pma_counter(): the port's own PMA
 * asked Get(PortCounters) through the device's MAD_IFC (process_mad
 * without a work completion), each counter printed "%u\n", unpacked with
 * lib/ib's PortCounters table (IBA 16.1.3.5).
 */
#define PMA_COUNTER(n, f) { n, offsetof(struct rte_ib_port_counters, f), \
			    sizeof(((struct rte_ib_port_counters *)NULL)->f) }
static const struct {
	const char *name;
	uint16_t off;           /* of the member in struct rte_ib_port_counters */
	uint8_t size;           /* its size: 1, 2 or 4 bytes */
} pma_counters[] = {
	PMA_COUNTER("symbol_error", symbol_error),
	PMA_COUNTER("link_error_recovery", link_error_recovery),
	PMA_COUNTER("link_downed", link_downed),
	PMA_COUNTER("port_rcv_errors", port_rcv_errors),
	PMA_COUNTER("port_rcv_remote_physical_errors", port_rcv_remote_physical_errors),
	PMA_COUNTER("port_rcv_switch_relay_errors", port_rcv_switch_relay_errors),
	PMA_COUNTER("port_xmit_discards", port_xmit_discards),
	PMA_COUNTER("port_xmit_constraint_errors", port_xmit_constraint_errors),
	PMA_COUNTER("port_rcv_constraint_errors", port_rcv_constraint_errors),
	PMA_COUNTER("local_link_integrity_errors", local_link_integrity_errors),
	PMA_COUNTER("excessive_buffer_overrun_errors", excessive_buffer_overrun_errors),
	PMA_COUNTER("VL15_dropped", vl15_dropped),
	PMA_COUNTER("port_xmit_data", port_xmit_data),
	PMA_COUNTER("port_rcv_data", port_rcv_data),
	PMA_COUNTER("port_xmit_packets", port_xmit_pkts),
	PMA_COUNTER("port_rcv_packets", port_rcv_pkts),
	PMA_COUNTER("port_xmit_wait", port_xmit_wait),
};

/* Offset of a PerfMgt attribute in the MAD (24-byte header, 40 reserved). */
#define PMA_DATA_OFF 64
#define PMA_ATTR_PORT_COUNTERS 0x0012

static uint32_t
pma_value(const struct rte_ib_port_counters *pc, unsigned int i)
{
	const uint8_t *m = (const uint8_t *)pc + pma_counters[i].off;
	uint16_t v16;
	uint32_t v32;

	switch (pma_counters[i].size) {
	case 1:
		return *m;
	case 2:
		memcpy(&v16, m, sizeof(v16));
		return v16;
	default:
		memcpy(&v32, m, sizeof(v32));
		return v32;
	}
}

static int
put_counters(const char *port_dir, struct rte_ib_device *dev, uint8_t port)
{
	uint8_t in[RTE_IB_MAD_SIZE], out[RTE_IB_MAD_SIZE];
	struct rte_ib_port_counters pc;
	char dir[PATH_MAX];
	unsigned int i;
	int rc;

	memset(in, 0, sizeof(in));
	in[0] = RTE_IB_MAD_BASE_VERSION;
	in[1] = RTE_IB_MGMT_CLASS_PERF_MGMT;
	in[2] = 1;                               /* class version */
	in[3] = RTE_IB_METHOD_GET;
	in[16] = PMA_ATTR_PORT_COUNTERS >> 8;
	in[17] = PMA_ATTR_PORT_COUNTERS & 0xff;
	in[PMA_DATA_OFF + 1] = port;              /* PortSelect */
	rc = rte_ib_process_mad(dev, port, NULL, in, out);
	if (rc < 0)
		return -rte_errno;
	/* No reply, or a MAD status (bad attribute...): no counters. */
	if (!(rc & RTE_IB_MAD_RESULT_REPLY) || out[4] != 0 || out[5] != 0 ||
	    rte_ib_unpack(rte_ib_port_counters_layout(), out + PMA_DATA_OFF,
			  RTE_IB_PORT_COUNTERS_SIZE, &pc) != 0)
		return -EPROTO;
	if (snprintf(dir, sizeof(dir), "%s/counters", port_dir) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	rc = make_dir("%s", dir);
	for (i = 0; rc == 0 && i < RTE_DIM(pma_counters); i++)
		rc = put_fmt(dir, pma_counters[i].name, "%u\n", pma_value(&pc, i));
	return rc;
}

int
umad_sysfs_init(const char *root)
{
	char dir[PATH_MAX];
	int rc;

	/* What a killed service left: its devices are gone. */
	snprintf(dir, sizeof(dir), "%s/class/infiniband", root);
	remove_tree(dir);
	snprintf(dir, sizeof(dir), "%s/class/infiniband_mad", root);
	remove_tree(dir);
	rc = make_dir("%s/class", root);
	if (rc == 0)
		rc = make_dir("%s/class/infiniband", root);
	if (rc == 0)
		rc = make_dir("%s/class/infiniband_mad", root);
	if (rc < 0)
		return rc;
	snprintf(dir, sizeof(dir), "%s/class/infiniband_mad", root);
	/* user_mad.c show_abi_version(): IB_USER_MAD_ABI_VERSION. */
	return put_fmt(dir, "abi_version", "%d\n", IB_USER_MAD_ABI_VERSION);
}

static void
node_desc_of(struct rte_ib_device *dev, char *buf, size_t len)
{
	char host[HOST_NAME_MAX + 1];

	if (dev->node_desc[0] != '\0') {
		snprintf(buf, len, "%.*s\n", RTE_IB_NODE_DESC_LEN, dev->node_desc);
		return;
	}
	if (gethostname(host, sizeof(host)) < 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	snprintf(buf, len, "%.32s %.31s\n", host, dev->name);
}

int
umad_sysfs_update_port(const char *root, struct rte_ib_device *dev,
		       uint8_t port)
{
	struct rte_ib_port_attr pa;
	struct rte_ib_gid gid;
	char dir[PATH_MAX - 32], sub[PATH_MAX], text[128], name[16];
	unsigned int i, n;
	uint16_t pkey;
	int rc;

	/* The core refreshes its cache before it raises a port event. */
	rc = rte_ib_port_attr_cached(dev, port, &pa);
	if (rc < 0)
		rc = rte_ib_query_port(dev, port, &pa);
	if (rc < 0)
		return -rte_errno;
	snprintf(dir, sizeof(dir), "%s/class/infiniband/%s/ports/%u", root,
		 dev->name, port);
	rc = make_dir("%s", dir);
	if (rc < 0)
		return rc;
	rc |= put_fmt(dir, "lid", "0x%x\n", pa.lid);
	rc |= put_fmt(dir, "lid_mask_count", "%u\n", pa.lmc);
	rc |= put_fmt(dir, "sm_lid", "0x%x\n", pa.sm_lid);
	rc |= put_fmt(dir, "sm_sl", "%u\n", pa.sm_sl);
	umad_sysfs_fmt_state(text, sizeof(text), pa.state);
	rc |= umad_sysfs_put_file(dir, "state", text);
	umad_sysfs_fmt_phys_state(text, sizeof(text), pa.phys_state);
	rc |= umad_sysfs_put_file(dir, "phys_state", text);
	umad_sysfs_fmt_rate(text, sizeof(text), pa.active_width, pa.active_speed);
	rc |= umad_sysfs_put_file(dir, "rate", text);
	rc |= put_fmt(dir, "cap_mask", "0x%08x\n", pa.cap_mask);
	rc |= umad_sysfs_put_file(dir, "link_layer", "InfiniBand\n");
	if (rc != 0)
		return -EIO;

	snprintf(sub, sizeof(sub), "%s/gids", dir);
	if (make_dir("%s", sub) < 0)
		return -EIO;
	n = RTE_MIN((unsigned int)pa.gid_tbl_len, SYSFS_MAX_GIDS);
	for (i = 0; i < n; i++) {
		if (rte_ib_query_gid(dev, port, i, &gid) < 0)
			memset(&gid, 0, sizeof(gid));
		umad_sysfs_fmt_gid(text, sizeof(text), &gid);
		snprintf(name, sizeof(name), "%u", i);
		rc |= umad_sysfs_put_file(sub, name, text);
	}
	snprintf(sub, sizeof(sub), "%s/pkeys", dir);
	if (make_dir("%s", sub) < 0)
		return -EIO;
	n = RTE_MIN((unsigned int)pa.pkey_tbl_len, SYSFS_MAX_PKEYS);
	/* libibumad needs at least one entry, named 0..n-1 without holes. */
	if (n == 0)
		n = 1;
	for (i = 0; i < n; i++) {
		if (rte_ib_query_pkey(dev, port, i, &pkey) < 0)
			pkey = 0;
		snprintf(name, sizeof(name), "%u", i);
		rc |= put_fmt(sub, name, "0x%04x\n", pkey);
	}
	return rc != 0 ? -EIO : 0;
}

int
umad_sysfs_update_counters(const char *root, struct rte_ib_device *dev,
			   uint8_t port)
{
	char dir[PATH_MAX - 32];
	int rc;

	snprintf(dir, sizeof(dir), "%s/class/infiniband/%s/ports/%u", root,
		 dev->name, port);
	rc = put_counters(dir, dev, port);
	/* A device without a PMA behind process_mad has no counters/. */
	return rc == -ENOTSUP || rc == -EPROTO ? 0 : rc;
}

int
umad_sysfs_add_device(const char *root, struct rte_ib_device *dev,
		      unsigned int umad_base)
{
	struct rte_ib_device_attr da;
	char dir[PATH_MAX], text[128];
	static const char *const types[] = { "", "CA", "switch", "router" };
	unsigned int p;
	int rc;

	if (rte_ib_query_device(dev, &da) < 0)
		return -rte_errno;
	rc = make_dir("%s/class/infiniband/%s", root, dev->name);
	if (rc == 0)
		rc = make_dir("%s/class/infiniband/%s/ports", root, dev->name);
	if (rc < 0)
		return rc;
	snprintf(dir, sizeof(dir), "%s/class/infiniband/%s", root, dev->name);
	rc |= put_fmt(dir, "node_type", "%u: %s\n", dev->node_type,
		      dev->node_type < RTE_DIM(types) ? types[dev->node_type] :
		      "<unknown>");
	umad_sysfs_fmt_guid(text, sizeof(text), dev->node_guid);
	rc |= umad_sysfs_put_file(dir, "node_guid", text);
	umad_sysfs_fmt_guid(text, sizeof(text), da.sys_image_guid);
	rc |= umad_sysfs_put_file(dir, "sys_image_guid", text);
	rc |= put_fmt(dir, "fw_ver", "%u.%u.%u\n",
		      (unsigned int)(da.fw_ver >> 32),
		      (unsigned int)(da.fw_ver >> 16) & 0xffff,
		      (unsigned int)da.fw_ver & 0xffff);
	rc |= put_fmt(dir, "hw_rev", "%x\n", da.hw_ver);
	umad_sysfs_fmt_hca_type(text, sizeof(text), da.vendor_id,
				da.vendor_part_id);
	rc |= umad_sysfs_put_file(dir, "hca_type", text);
	node_desc_of(dev, text, sizeof(text));
	rc |= umad_sysfs_put_file(dir, "node_desc", text);
	if (rc != 0)
		return -EIO;

	for (p = 1; p <= dev->phys_port_cnt; p++) {
		unsigned int id = umad_base + p - 1;
		const char *kinds[] = { "umad", "issm" };
		unsigned int k;

		rc = umad_sysfs_update_port(root, dev, p);
		if (rc < 0)
			return rc;
		for (k = 0; k < RTE_DIM(kinds); k++) {
			rc = make_dir("%s/class/infiniband_mad/%s%u", root, kinds[k], id);
			if (rc < 0)
				return rc;
			snprintf(dir, sizeof(dir), "%s/class/infiniband_mad/%s%u",
				 root, kinds[k], id);
			rc = put_fmt(dir, "ibdev", "%s\n", dev->name);
			rc |= put_fmt(dir, "port", "%u\n", p);
			/* Char major 231: umad minors from 0, issm from 64. */
			rc |= put_fmt(dir, "dev", "231:%u\n", id + (k ? 64 : 0));
			if (rc != 0)
				return -EIO;
		}
	}
	return 0;
}

/* Remove a tree bottom-up; files only, as this service made them. */
static void
remove_tree(const char *path)
{
	char child[PATH_MAX];
	struct stat st;

	if (lstat(path, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	{
		DIR *d = opendir(path);
		struct dirent *e;

		if (d == NULL)
			return;
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			if (snprintf(child, sizeof(child), "%s/%s", path, e->d_name) <
			    (int)sizeof(child))
				remove_tree(child);
		}
		closedir(d);
	}
	rmdir(path);
}

void
umad_sysfs_remove_device(const char *root, struct rte_ib_device *dev,
			 unsigned int umad_base)
{
	char path[PATH_MAX];
	unsigned int p;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s", root, dev->name);
	remove_tree(path);
	for (p = 0; p < dev->phys_port_cnt; p++) {
		snprintf(path, sizeof(path), "%s/class/infiniband_mad/umad%u",
			 root, umad_base + p);
		remove_tree(path);
		snprintf(path, sizeof(path), "%s/class/infiniband_mad/issm%u",
			 root, umad_base + p);
		remove_tree(path);
	}
}
