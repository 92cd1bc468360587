/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Driver for libFuzzer targets when built without libFuzzer (gcc, the
 * default build): runs LLVMFuzzerTestOneInput on every file given on the
 * command line (directories are walked one level), then on a bounded
 * number of deterministic mutations of each, so that the unit suite
 * exercises the same entry point the fuzzer does. A crash or sanitizer
 * report fails the test; the target itself asserts nothing else.
 */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t
rng_next(void)
{
	/* xorshift64*: deterministic, so a failure reproduces */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static void
run_mutations(const uint8_t *data, size_t size, unsigned int rounds)
{
	uint8_t *buf;
	size_t cap = size + 64, len, i, n;
	unsigned int r;

	buf = malloc(cap);
	if (buf == NULL)
		return;
	for (r = 0; r < rounds; r++) {
		memcpy(buf, data, size);
		len = size;
		n = 1 + rng_next() % 8;
		for (i = 0; i < n && len > 0; i++) {
			size_t at = rng_next() % len;

			switch (rng_next() % 4) {
			case 0: /* flip a bit */
				buf[at] ^= 1u << (rng_next() % 8);
				break;
			case 1: /* random byte */
				buf[at] = (uint8_t)rng_next();
				break;
			case 2: /* truncate */
				len = at;
				break;
			default: /* insert a byte */
				if (len < cap) {
					memmove(buf + at + 1, buf + at, len - at);
					buf[at] = (uint8_t)rng_next();
					len++;
				}
				break;
			}
		}
		LLVMFuzzerTestOneInput(buf, len);
	}
	free(buf);
}

static int
run_file(const char *path, unsigned int rounds)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *data;
	long size;

	if (fp == NULL) {
		perror(path);
		return -1;
	}
	fseek(fp, 0, SEEK_END);
	size = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	data = malloc(size > 0 ? (size_t)size : 1);
	if (data == NULL || fread(data, 1, (size_t)size, fp) != (size_t)size) {
		fclose(fp);
		free(data);
		return -1;
	}
	fclose(fp);
	LLVMFuzzerTestOneInput(data, (size_t)size);
	run_mutations(data, (size_t)size, rounds);
	free(data);
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned int rounds = 2000, files = 0;
	int i;

	if (getenv("FUZZ_ROUNDS") != NULL)
		rounds = (unsigned int)strtoul(getenv("FUZZ_ROUNDS"), NULL, 0);
	for (i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *de;
		char path[4096];

		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (run_file(argv[i], rounds) != 0)
				return 1;
			files++;
			continue;
		}
		d = opendir(argv[i]);
		if (d == NULL)
			return 1;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			if (run_file(path, rounds) != 0) {
				closedir(d);
				return 1;
			}
			files++;
		}
		closedir(d);
	}
	printf("replayed %u inputs, %u mutations each\n", files, rounds);
	if (files == 0) {
		/* the corpus is in the tree: an empty one means nothing was checked */
		printf("no corpus input found: failed\n");
		return 1;
	}
	return 0;
}
