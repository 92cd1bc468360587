/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Packet capture: pcap files of LINKTYPE_INFINIBAND (247), one record per
 * packet as it leaves a port, LRH first and VCRC last, exactly the wire
 * bytes (ARCHITECTURE rule 3). A port capture holds both directions of
 * its cable; the whole-fabric capture holds every cable.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include <pcap/pcap.h>

#include "fab_file.h"
#include "fabric.h"

struct fab_pcap {
	pcap_t *pd;
	pcap_dumper_t *dump;
	uint64_t pkts;
};

static struct fab_pcap *
capture_open(const char *path)
{
	struct fab_pcap *c = calloc(1, sizeof(*c));
	char why[96];
	FILE *fp;
	int fd;

	if (c == NULL)
		return NULL;
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
capture_write(struct fab_pcap *c, const struct pcap_pkthdr *ph, const struct fab_pkt *p)
{
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
		capture_write(f->pcap_all, &ph, p);
	if (a != NULL && a != f->pcap_all)
		capture_write(a, &ph, p);
	if (b != NULL && b != a && b != f->pcap_all)
		capture_write(b, &ph, p);
}
