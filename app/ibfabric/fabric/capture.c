/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Packet capture: pcap files of LINKTYPE_INFINIBAND (247), one record per
 * packet as it leaves a port, LRH first and VCRC last, exactly the wire
 * bytes (ARCHITECTURE rule 3). A port capture holds both directions of
 * its cable; the whole-fabric capture holds every cable.
 *
 * A file named *.pcapng is written in pcapng (IETF draft
 * draft-ietf-opsawg-pcapng, written here, libpcap 1.10 cannot) with one
 * Interface Description Block per link end a packet left by, named
 * "<node>[<port>]" and described "<node>[<port>] -> <peer>[<port>]", so
 * each packet's interface says which cable it crossed and in which
 * direction. Any other name gets classic pcap, as before.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include <pcap/pcap.h>

#include "fab_file.h"
#include "fab_link.h"
#include "fab_log.h"
#include "fab_node.h"
#include "fab_pkt.h"
#include "fabric.h"

/* pcapng block types and option codes (draft-ietf-opsawg-pcapng 4.1-4.3) */
#define NG_SHB			0x0a0d0d0au
#define NG_IDB			0x00000001u
#define NG_EPB			0x00000006u
#define NG_BYTE_ORDER		0x1a2b3c4du
#define NG_OPT_END		0
#define NG_OPT_IF_NAME		2
#define NG_OPT_IF_DESCRIPTION	3

struct fab_pcap {
	pcap_t *pd;			/* classic pcap */
	pcap_dumper_t *dump;
	FILE *ng;			/* pcapng, else NULL */
	const struct fab_port **ifs;	/* pcapng: interface id -> the port packets left by */
	uint32_t nifs;
	uint32_t ifs_cap;
	uint32_t *hash;			/* open addressing: port -> id + 1, 0 = empty */
	uint32_t hash_cap;		/* power of two */
	uint64_t pkts;
};

static bool
capture_is_ng(const char *path)
{
	size_t n = strlen(path);

	return n > 7 && strcmp(path + n - 7, ".pcapng") == 0;
}

/* A block: its type, total length, @p body (padded to 4), total length again. */
static void
ng_block(FILE *fp, uint32_t type, const void *body, size_t len)
{
	static const uint8_t pad[4];
	uint32_t total = (uint32_t)(12 + ((len + 3) & ~(size_t)3));

	fwrite(&type, 4, 1, fp);
	fwrite(&total, 4, 1, fp);
	fwrite(body, 1, len, fp);
	fwrite(pad, 1, (4 - (len & 3)) & 3, fp);
	fwrite(&total, 4, 1, fp);
}

/* Append option @p code with @p text (padded to 4) at @p buf + *@p off. */
static void
ng_opt_str(uint8_t *buf, size_t *off, uint16_t code, const char *text)
{
	uint16_t len = (uint16_t)strlen(text);

	memcpy(buf + *off, &code, 2);
	memcpy(buf + *off + 2, &len, 2);
	memcpy(buf + *off + 4, text, len);
	memset(buf + *off + 4 + len, 0, (4 - (len & 3)) & 3);
	*off += 4 + ((len + 3u) & ~3u);
}

static void
ng_header(FILE *fp)
{
	uint8_t b[16];
	uint32_t magic = NG_BYTE_ORDER;
	uint16_t major = 1, minor = 0;
	int64_t section = -1;		/* length not given */

	memcpy(b, &magic, 4);
	memcpy(b + 4, &major, 2);
	memcpy(b + 6, &minor, 2);
	memcpy(b + 8, &section, 8);
	ng_block(fp, NG_SHB, b, sizeof(b));
}

/* Interface of packets leaving @p out, described the first time it is used. */
static int
ng_interface(struct fab_pcap *c, const struct fab_port *out, uint32_t *id)
{
	uint8_t b[8 + 2 * (4 + 2 * FAB_NAME_MAX + 16) + 4];
	char name[FAB_NAME_MAX + 8], desc[2 * FAB_NAME_MAX + 24];
	uint16_t linktype = DLT_INFINIBAND, zero = 0;
	uint32_t snap = FAB_PKT_MAX, h, i, *nh, ncap;
	size_t off = 8;
	void *g;

	h = (uint32_t)(((uintptr_t)out >> 4) * 0x9e3779b1u);
	if (c->hash_cap != 0) {
		for (i = h & (c->hash_cap - 1); c->hash[i] != 0; i = (i + 1) & (c->hash_cap - 1)) {
			if (c->ifs[c->hash[i] - 1] == out) {
				*id = c->hash[i] - 1;
				return 0;
			}
		}
	}
	if ((c->nifs + 1) * 2 > c->hash_cap) {
		ncap = c->hash_cap != 0 ? c->hash_cap * 2 : 64;
		nh = calloc(ncap, sizeof(*nh));
		g = realloc(c->ifs, ncap / 2 * sizeof(*c->ifs));
		if (nh == NULL || g == NULL) {
			free(nh);
			if (g != NULL)
				c->ifs = g;
			return -ENOMEM;
		}
		c->ifs = g;
		for (i = 0; i < c->nifs; i++) {
			uint32_t j = (uint32_t)(((uintptr_t)c->ifs[i] >> 4) * 0x9e3779b1u);

			j &= ncap - 1;

			while (nh[j] != 0)
				j = (j + 1) & (ncap - 1);
			nh[j] = i + 1;
		}
		free(c->hash);
		c->hash = nh;
		c->hash_cap = ncap;
	}
	*id = c->nifs;
	c->ifs[c->nifs++] = out;
	for (i = h & (c->hash_cap - 1); c->hash[i] != 0; i = (i + 1) & (c->hash_cap - 1))
		;
	c->hash[i] = *id + 1;

	snprintf(name, sizeof(name), "%s[%u]", out->node->name, out->num);
	if (out->peer != NULL)
		snprintf(desc, sizeof(desc), "%s[%u] -> %s[%u]", out->node->name, out->num,
			 out->peer->node->name, out->peer->num);
	else
		snprintf(desc, sizeof(desc), "%s[%u] (no cable)", out->node->name, out->num);
	memcpy(b, &linktype, 2);
	memcpy(b + 2, &zero, 2);
	memcpy(b + 4, &snap, 4);
	ng_opt_str(b, &off, NG_OPT_IF_NAME, name);
	ng_opt_str(b, &off, NG_OPT_IF_DESCRIPTION, desc);
	memset(b + off, 0, 4);			/* opt_endofopt */
	off += 4;
	ng_block(c->ng, NG_IDB, b, off);
	return 0;
}

static void
ng_packet(struct fab_pcap *c, const struct fab_port *out, const struct timespec *ts,
	  const struct fab_pkt *p)
{
	uint8_t b[20 + FAB_PKT_MAX];
	uint64_t us = (uint64_t)ts->tv_sec * 1000000u + (uint64_t)ts->tv_nsec / 1000u;
	uint32_t id, hi = (uint32_t)(us >> 32), lo = (uint32_t)us, len = p->len;

	if (ng_interface(c, out, &id) != 0)
		return;
	memcpy(b, &id, 4);
	memcpy(b + 4, &hi, 4);
	memcpy(b + 8, &lo, 4);
	memcpy(b + 12, &len, 4);
	memcpy(b + 16, &len, 4);
	memcpy(b + 20, p->data, len);
	ng_block(c->ng, NG_EPB, b, 20 + len);
	c->pkts++;
}

static struct fab_pcap *
capture_open(const char *path)
{
	struct fab_pcap *c = calloc(1, sizeof(*c));
	char why[96];
	FILE *fp;
	int fd;

	if (c == NULL)
		return NULL;
	if (capture_is_ng(path)) {
		fd = fab_open_regular(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, why, sizeof(why));
		c->ng = fd >= 0 ? fdopen(fd, "wb") : NULL;
		if (c->ng == NULL) {
			FAB_ERR("capture %s: %s", path, fd < 0 ? why : strerror(errno));
			if (fd >= 0)
				close(fd);
			goto err_free;
		}
		ng_header(c->ng);
		return c;
	}
	c->pd = pcap_open_dead(DLT_INFINIBAND, FAB_PKT_MAX);
	if (c->pd == NULL)
		goto err_free;
	/* Never a FIFO or a device: opening one could block the event loop. */
	fd = fab_open_regular(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, why, sizeof(why));
	fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (fp == NULL) {
		FAB_ERR("capture %s: %s", path, fd < 0 ? why : strerror(errno));
		if (fd >= 0)
			close(fd);
		goto err_close;
	}
	c->dump = pcap_dump_fopen(c->pd, fp);
	if (c->dump == NULL) {
		FAB_ERR("capture %s: %s", path, pcap_geterr(c->pd));
		fclose(fp);
		goto err_close;
	}
	return c;

err_close:
	pcap_close(c->pd);
err_free:
	free(c);
	return NULL;
}

static void
capture_close(struct fab_pcap *c)
{
	if (c == NULL)
		return;
	if (c->ng != NULL) {
		fclose(c->ng);
		free(c->ifs);
		free(c->hash);
		free(c);
		return;
	}
	pcap_dump_close(c->dump);
	pcap_close(c->pd);
	free(c);
}

int
fab_capture_start(struct fabric *f, struct fab_port *port, const char *path)
{
	struct fab_pcap *c;

	if (path == NULL || path[0] == '\0')
		return -EINVAL;
	c = capture_open(path);
	if (c == NULL)
		return -EIO;
	if (port == NULL) {
		capture_close(f->pcap_all);
		f->pcap_all = c;
	} else {
		capture_close(port->pcap);
		port->pcap = c;
	}
	return 0;
}

void
fab_capture_stop(struct fabric *f, struct fab_port *port)
{
	if (port != NULL) {
		capture_close(port->pcap);
		port->pcap = NULL;
	} else if (f != NULL) {
		capture_close(f->pcap_all);
		f->pcap_all = NULL;
	}
}

static void
capture_write(struct fab_pcap *c, const struct pcap_pkthdr *ph, const struct fab_pkt *p,
	      const struct fab_port *out, const struct timespec *ts)
{
	if (c->ng != NULL) {
		ng_packet(c, out, ts, p);
		return;
	}
	pcap_dump((u_char *)c->dump, ph, p->data);
	c->pkts++;
}

void
fab_capture_pkt(struct fabric *f, const struct fab_port *out, const struct fab_pkt *p)
{
	struct fab_pcap *a = out->pcap;
	struct fab_pcap *b = out->peer != NULL ? out->peer->pcap : NULL;
	struct pcap_pkthdr ph;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ph.ts.tv_sec = ts.tv_sec;
	ph.ts.tv_usec = ts.tv_nsec / 1000;
	ph.caplen = p->len;
	ph.len = p->len;
	if (f->pcap_all != NULL)
		capture_write(f->pcap_all, &ph, p, out, &ts);
	if (a != NULL && a != f->pcap_all)
		capture_write(a, &ph, p, out, &ts);
	if (b != NULL && b != a && b != f->pcap_all)
		capture_write(b, &ph, p, out, &ts);
}
