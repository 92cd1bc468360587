/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/**
 * @file
 * Private interface of the topology code (topo_parse.c, topo_gen.c):
 * the generator's shapes, so that unit tests can generate a fabric into
 * memory and parse it back without going through a file.
 */

#ifndef _IBFABRIC_TOPO_H_
#define _IBFABRIC_TOPO_H_

#include <stddef.h>
#include <stdio.h>

struct fabric;

/** Deepest "include" nesting a net file may use (ibsim allows 9 files). */
#define TOPO_INCLUDE_MAX	8
/** Longest net-file line accepted (ibsim reads 255 bytes per line). */
#define TOPO_LINE_MAX		4096
/** Largest net file (or included file) read into memory. */
#define TOPO_FILE_MAX		(64u << 20)
/**
 * Most CAs marked active=mt25208 in a fabric: each is a PCI function on
 * its own bus, 0x10..0xff (MT25208_FIRST_BUS in mt25208_host.h).
 */
#define TOPO_ACTIVE_MAX		240
/** Switch radix the generator uses unless told otherwise. */
#define TOPO_GEN_RADIX		36

/** A two-level fat tree: leaves with hosts, spines above them. */
struct topo_fattree {
	unsigned int leaves;		/**< leaf switches */
	unsigned int hosts_per_leaf;	/**< CAs on each leaf (last may have fewer) */
	unsigned int hosts;		/**< total CAs; 0 = leaves * hosts_per_leaf */
	unsigned int spines;		/**< spine switches (0: a single leaf, no spines) */
	unsigned int links_per_spine;	/**< parallel cables from each leaf to each spine */
	unsigned int leaf_ports;	/**< leaf NumPorts; 0 = max(36, needed) */
	unsigned int spine_ports;	/**< spine NumPorts; 0 = max(36, needed) */
	unsigned int active;		/**< the first hosts marked active=mt25208 */
};

/**
 * Check @p t and fill its derived fields (hosts, port counts).
 * Returns 0, or -1 with a message naming the option and value in @p err.
 */
int topo_fattree_check(struct topo_fattree *t, char *err, size_t errlen);

/**
 * Pick a fat tree of 36-port switches for @p hosts CAs (the "gen fattree
 * --hosts N" shape). Returns 0, or -1 with a message in @p err.
 */
int topo_fattree_for_hosts(struct topo_fattree *t, unsigned int hosts,
			   char *err, size_t errlen);

/** Write a checked fat tree @p t in net format to @p out. Returns 0 or -1 (I/O). */
int topo_gen_fattree(FILE *out, const struct topo_fattree *t);

/**
 * Write one switch of @p ports ports (0 = max(36, hosts)) with @p hosts
 * CAs to @p out, the first @p active of them active=mt25208.
 * Returns 0, or -1 (bad size, message in @p err, or I/O).
 */
int topo_gen_switch(FILE *out, unsigned int hosts, unsigned int ports,
		    unsigned int active, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* topo_parse.c: net files in */

/**
 * Read a net file (ibsim / ibnetdiscover format) into @p f. On error,
 * writes "file:line: what" into @p err and returns -1; @p f may hold a
 * partial fabric and must be freed by the caller.
 */
int topo_parse_file(struct fabric *f, const char *path, char *err, size_t errlen);
/** Same, from memory (@p name is used in messages). */
int topo_parse_buf(struct fabric *f, const char *name, const char *buf, size_t len,
		   char *err, size_t errlen);
/** The "ibfabric gen ..." sub-command. Returns a process exit code. */
int topo_gen_main(int argc, char **argv);

#endif /* _IBFABRIC_TOPO_H_ */
