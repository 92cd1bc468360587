/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * Unit tests of one open umad file (lib/ibumad/umad_file.c): the rules of
 * Linux's user_mad.c for ioctl(), write() and read() in ABI version 5.
 * The MAD layer under the file is a recording backend: this tests the
 * file's rules, not the fabric (the conformance test umad_service runs
 * the real tools over the real service).
 *
 * Expected ioctl numbers are the ones the kernel's _IOWR/_IOW/_IO give
 * for magic 0x1b and the struct sizes (28 and 40 bytes), written out by
 * hand, so a wrong header or struct size cannot pass.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>

#include "test.h"
#include "umad_file.h"

struct recorder {
	unsigned int registered;
	unsigned int unregistered;
	struct umad_reg last_reg;
	unsigned int sends;
	struct ib_user_mad_hdr last_hdr;
	uint8_t last_mad[1024];
	size_t last_len;
	int handles[UMAD_MAX_AGENTS + 1];
	unsigned int wakes;
};

static int
rec_register(void *port, struct umad_file *f, unsigned int id,
	     const struct umad_reg *reg, void **handle)
{
	struct recorder *r = port;

	RTE_SET_USED(f);
	r->last_reg = *reg;
	*handle = &r->handles[id];
	r->registered++;
	return 0;
}

static void
rec_unregister(void *port, void *handle)
{
	struct recorder *r = port;

	RTE_SET_USED(handle);
	r->unregistered++;
}

static int
rec_send(void *port, void *handle, const struct ib_user_mad_hdr *hdr,
	 const void *mad, size_t len)
{
	struct recorder *r = port;

	RTE_SET_USED(handle);
	r->sends++;
	r->last_hdr = *hdr;
	r->last_len = len;
	memcpy(r->last_mad, mad, RTE_MIN(len, sizeof(r->last_mad)));
	return 0;
}

static const struct umad_backend_ops rec_ops = {
	.agent_register = rec_register,
	.agent_unregister = rec_unregister,
	.send = rec_send,
};

static struct recorder rec;
static struct umad_file file;

static void
wake_count(struct umad_file *f, void *arg)
{
	RTE_SET_USED(f);
	((struct recorder *)arg)->wakes++;
}

static int
setup(void)
{
	memset(&rec, 0, sizeof(rec));
	umad_file_init(&file, &rec_ops, &rec, 4);
	file.wake = wake_count;
	file.wake_arg = &rec;
	return 0;
}

static void
teardown(void)
{
	umad_file_close(&file);
}

/* REGISTER_AGENT for class @cls on @qpn; returns the ioctl result. */
static int
register_agent(uint8_t qpn, uint8_t cls, uint8_t rmpp, uint32_t *id)
{
	struct ib_user_mad_reg_req req, out;
	size_t used;
	uint32_t mask[4] = { 0 };
	int rc;

	memset(&req, 0, sizeof(req));
	req.qpn = qpn;
	req.mgmt_class = cls;
	req.mgmt_class_version = 2;
	req.rmpp_version = rmpp;
	/* libibumad's umad_register(): u32 words, bit n is method n. */
	mask[0] = 1u << 1 | 1u << 5 | 1u << 0x12; /* Get, Trap, GetTable */
	mask[0x48 / 32] |= 1u << (0x48 % 32);      /* a method above 63 */
	memcpy(req.method_mask, mask, sizeof(mask));
	rc = umad_file_ioctl(&file, IB_USER_MAD_REGISTER_AGENT, &req,
			     sizeof(req), &out, sizeof(out), &used);
	if (rc == 0 && id != NULL)
		*id = out.id;
	return rc;
}

static int
test_ioctl_numbers(void)
{
	/* _IOC(dir, 0x1b, nr, size): dir << 30 | size << 16 | 0x1b << 8 | nr */
	TEST_ASSERT_EQUAL(IB_USER_MAD_REGISTER_AGENT, 0xc01c1b01u, "REGISTER_AGENT");
	TEST_ASSERT_EQUAL(IB_USER_MAD_UNREGISTER_AGENT, 0x40041b02u, "UNREGISTER");
	TEST_ASSERT_EQUAL(IB_USER_MAD_ENABLE_PKEY, 0x00001b03u, "ENABLE_PKEY");
	TEST_ASSERT_EQUAL(IB_USER_MAD_REGISTER_AGENT2, 0xc0281b04u, "REGISTER_AGENT2");
	TEST_ASSERT_EQUAL(UMAD_HDR_SIZE, 64u, "new header");
	TEST_ASSERT_EQUAL(UMAD_HDR_SIZE_OLD, 56u, "old header");
	/* Restricted FUSE ioctls: the size must be in the number. */
	TEST_ASSERT_EQUAL(_IOC_SIZE(UMAD_IOCTL_PEEK), sizeof(struct umad_peek),
			  "PEEK size");
	TEST_ASSERT_EQUAL(_IOC_DIR(UMAD_IOCTL_PEEK), (unsigned int)_IOC_READ,
			  "PEEK direction");
	return TEST_SUCCESS;
}

static int
test_register(void)
{
	uint32_t id;
	unsigned int i;

	TEST_ASSERT_EQUAL(register_agent(2, 0x03, 0, &id), -EINVAL, "QP 2");
	TEST_ASSERT_SUCCESS(register_agent(1, 0x03, 1, &id), "register");
	TEST_ASSERT_EQUAL(id, 0u, "first slot");
	TEST_ASSERT_EQUAL(rec.last_reg.mgmt_class, 0x03, "class");
	TEST_ASSERT_EQUAL(rec.last_reg.class_version, 2, "version");
	TEST_ASSERT_EQUAL(rec.last_reg.rmpp_version, 1, "rmpp");
	TEST_ASSERT_EQUAL(rec.last_reg.method_mask[0],
			  UINT64_C(1) << 1 | UINT64_C(1) << 5 | UINT64_C(1) << 0x12,
			  "methods 0-63");
	TEST_ASSERT_EQUAL(rec.last_reg.method_mask[1],
			  UINT64_C(1) << (0x48 - 64), "methods 64-127");
	for (i = 1; i < UMAD_MAX_AGENTS; i++)
		TEST_ASSERT_SUCCESS(register_agent(1, 0x03, 0, &id), "slot %u", i);
	/* ib_umad_reg_agent(): no free slot of the 32 is ENOMEM. */
	TEST_ASSERT_EQUAL(register_agent(1, 0x03, 0, &id), -ENOMEM, "33rd");
	/* ENABLE_PKEY after a registration is refused. */
	TEST_ASSERT_EQUAL(umad_file_ioctl(&file, IB_USER_MAD_ENABLE_PKEY, NULL,
					  0, NULL, 0, &(size_t){ 0 }), -EINVAL,
			  "late ENABLE_PKEY");
	TEST_ASSERT_EQUAL(umad_file_hdr_size(&file), UMAD_HDR_SIZE_OLD, "56");
	return TEST_SUCCESS;
}

static int
test_unregister(void)
{
	uint32_t id, bad = UMAD_MAX_AGENTS;
	size_t used;

	TEST_ASSERT_SUCCESS(register_agent(0, 0x81, 0, &id), "register");
	TEST_ASSERT_EQUAL(umad_file_ioctl(&file, IB_USER_MAD_UNREGISTER_AGENT,
					  &bad, sizeof(bad), NULL, 0, &used),
			  -EINVAL, "id 32");
	TEST_ASSERT_SUCCESS(umad_file_ioctl(&file, IB_USER_MAD_UNREGISTER_AGENT,
					    &id, sizeof(id), NULL, 0, &used),
			    "unregister");
	TEST_ASSERT_EQUAL(rec.unregistered, 1u, "backend told");
	TEST_ASSERT_EQUAL(umad_file_ioctl(&file, IB_USER_MAD_UNREGISTER_AGENT,
					  &id, sizeof(id), NULL, 0, &used),
			  -EINVAL, "twice");
	TEST_ASSERT_EQUAL(umad_file_ioctl(&file, 0x1b99, NULL, 0, NULL, 0, &used),
			  -ENOTTY, "unknown ioctl");
	return TEST_SUCCESS;
}

static int
test_register2(void)
{
	struct ib_user_mad_reg_req2 req, out;
	size_t used;

	memset(&req, 0, sizeof(req));
	req.qpn = 1;
	req.mgmt_class = 0x32;
	req.mgmt_class_version = 1;
	req.flags = 0x2;
	TEST_ASSERT_EQUAL(umad_file_ioctl(&file, IB_USER_MAD_REGISTER_AGENT2,
					  &req, sizeof(req), &out, sizeof(out),
					  &used), -EINVAL, "unknown flag");
	TEST_ASSERT_EQUAL(out.flags, (uint32_t)IB_USER_MAD_USER_RMPP,
			  "supported flags written back");
	req.flags = 0;
	req.oui = 0x1000000;
	TEST_ASSERT_EQUAL(umad_file_ioctl(&file, IB_USER_MAD_REGISTER_AGENT2,
					  &req, sizeof(req), &out, sizeof(out),
					  &used), -EINVAL, "OUI over 24 bits");
	req.oui = 0x001405;
	TEST_ASSERT_SUCCESS(umad_file_ioctl(&file, IB_USER_MAD_REGISTER_AGENT2,
					    &req, sizeof(req), &out, sizeof(out),
					    &used), "register2");
	TEST_ASSERT_EQUAL(rec.last_reg.oui, 0x001405u, "OUI");
	TEST_ASSERT_EQUAL(umad_file_hdr_size(&file), UMAD_HDR_SIZE,
			  "REGISTER_AGENT2 implies the 64-byte header");
	return TEST_SUCCESS;
}

/*
 * The registration forms side by side (Linux ib_umad_reg_agent(),
 * ib_umad_reg_agent2(), ib_umad_unreg_agent(), ib_umad_enable_pkey()):
 * ids are the lowest free slot, whichever form took them; REGISTER_AGENT2
 * writes the id back and carries USER_RMPP; its 32 slots end in ENOMEM
 * as the old form's do; the 64-byte header comes only with the file's
 * first use, so REGISTER_AGENT2 after REGISTER_AGENT keeps 56.
 */
static int
test_register_forms(void)
{
	struct ib_user_mad_reg_req2 req2, out2;
	uint32_t id, gone = 1;
	size_t used;
	unsigned int i;

	TEST_ASSERT_SUCCESS(register_agent(0, 0x81, 0, &id), "REGISTER_AGENT on QP0");
	TEST_ASSERT_EQUAL(id, 0u, "slot 0");
	TEST_ASSERT_EQUAL(rec.last_reg.qpn, 0u, "QP0 passed on");
	memset(&req2, 0, sizeof(req2));
	req2.qpn = 1;
	req2.mgmt_class = 0x03;
	req2.mgmt_class_version = 2;
	req2.rmpp_version = 1;
	req2.flags = IB_USER_MAD_USER_RMPP;
	memset(&out2, 0xff, sizeof(out2));
	TEST_ASSERT_SUCCESS(umad_file_ioctl(&file, IB_USER_MAD_REGISTER_AGENT2, &req2,
					    sizeof(req2), &out2, sizeof(out2), &used),
			    "REGISTER_AGENT2 after REGISTER_AGENT");
	TEST_ASSERT_EQUAL(out2.id, 1u, "REGISTER_AGENT2: id written back, next slot");
	TEST_ASSERT_EQUAL(rec.last_reg.flags, (uint32_t)IB_USER_MAD_USER_RMPP,
			  "USER_RMPP passed on");
	TEST_ASSERT_EQUAL(umad_file_hdr_size(&file), UMAD_HDR_SIZE_OLD,
			  "a used file keeps the 56-byte header");
	TEST_ASSERT_SUCCESS(umad_file_ioctl(&file, IB_USER_MAD_UNREGISTER_AGENT, &gone,
					    sizeof(gone), NULL, 0, &used), "UNREGISTER 1");
	TEST_ASSERT_SUCCESS(register_agent(1, 0x04, 0, &id), "REGISTER_AGENT again");
	TEST_ASSERT_EQUAL(id, 1u, "the freed slot is the lowest free one");
	for (i = 2; i < UMAD_MAX_AGENTS; i++) {
		TEST_ASSERT_SUCCESS(umad_file_ioctl(&file, IB_USER_MAD_REGISTER_AGENT2,
						    &req2, sizeof(req2), &out2,
						    sizeof(out2), &used), "slot %u", i);
		TEST_ASSERT_EQUAL(out2.id, i, "slot %u in order", i);
	}
	TEST_ASSERT_EQUAL(umad_file_ioctl(&file, IB_USER_MAD_REGISTER_AGENT2, &req2,
					  sizeof(req2), &out2, sizeof(out2), &used),
			  -ENOMEM, "33rd by REGISTER_AGENT2");
	TEST_ASSERT_EQUAL(rec.registered, UMAD_MAX_AGENTS + 1, "no 33rd reached the backend");
	return TEST_SUCCESS;
}

static int
test_write(void)
{
	uint8_t buf[UMAD_HDR_SIZE + 512];
	struct ib_user_mad_hdr *hdr = (struct ib_user_mad_hdr *)buf;
	uint32_t id;
	size_t used;

	TEST_ASSERT_SUCCESS(umad_file_ioctl(&file, IB_USER_MAD_ENABLE_PKEY, NULL,
					    0, NULL, 0, &used), "ENABLE_PKEY");
	TEST_ASSERT_SUCCESS(register_agent(1, 0x03, 1, &id), "register");
	memset(buf, 0, sizeof(buf));
	hdr->id = id;
	hdr->timeout_ms = 100;
	hdr->lid = 0x0100;            /* LID 1, big-endian */
	buf[UMAD_HDR_SIZE] = 1;         /* BaseVersion */
	buf[UMAD_HDR_SIZE + 1] = 0x03;  /* SA class */
	TEST_ASSERT_EQUAL(umad_file_write(&file, buf, UMAD_HDR_SIZE + 35),
			  -EINVAL, "shorter than header + 36");
	TEST_ASSERT_EQUAL(umad_file_write(&file, buf, UMAD_HDR_SIZE + 36),
			  (ssize_t)(UMAD_HDR_SIZE + 36), "minimal write");
	TEST_ASSERT_EQUAL(rec.last_len, (size_t)UMAD_MAD_SIZE, "padded to 256");
	TEST_ASSERT_EQUAL(rec.last_hdr.timeout_ms, 100u, "header passed");
	TEST_ASSERT_EQUAL(umad_file_write(&file, buf, UMAD_HDR_SIZE + 257),
			  -EINVAL, "257 bytes without RMPP");
	hdr->id = UMAD_MAX_AGENTS;
	TEST_ASSERT_EQUAL(umad_file_write(&file, buf, UMAD_HDR_SIZE + 256),
			  -EINVAL, "agent id 32");
	hdr->id = id + 1;
	TEST_ASSERT_EQUAL(umad_file_write(&file, buf, UMAD_HDR_SIZE + 256),
			  -EIO, "no such agent");
	/* What the MAD core refuses of any MAD, refused before it. */
	hdr->id = id;
	buf[UMAD_HDR_SIZE] = 2;
	TEST_ASSERT_EQUAL(umad_file_write(&file, buf, UMAD_HDR_SIZE + 256),
			  -EINVAL, "BaseVersion 2");
	buf[UMAD_HDR_SIZE] = 1;
	buf[UMAD_HDR_SIZE + 1] = 0x81;
	TEST_ASSERT_EQUAL(umad_file_write(&file, buf, UMAD_HDR_SIZE + 256),
			  -EINVAL, "a directed-route SMP on a QP1 agent");
	buf[UMAD_HDR_SIZE + 1] = 0x03;
	hdr->lid = 0;
	TEST_ASSERT_EQUAL(umad_file_write(&file, buf, UMAD_HDR_SIZE + 256),
			  -EINVAL, "LID 0");
	hdr->lid = 0x0100;
	hdr->sl = 16;
	TEST_ASSERT_EQUAL(umad_file_write(&file, buf, UMAD_HDR_SIZE + 256),
			  -EINVAL, "SL 16");
	hdr->sl = 0;
	TEST_ASSERT_EQUAL(rec.sends, 1u, "no refused write reached the backend");
	/* An RMPP-active SA send on an RMPP agent may be longer. */
	hdr->id = id;
	buf[UMAD_HDR_SIZE + 24] = 1;     /* RMPPVersion */
	buf[UMAD_HDR_SIZE + 25] = 1;     /* DATA */
	buf[UMAD_HDR_SIZE + 26] = 0x07;  /* Active, First, Last */
	TEST_ASSERT_EQUAL(umad_file_write(&file, buf, UMAD_HDR_SIZE + 512),
			  (ssize_t)(UMAD_HDR_SIZE + 512), "RMPP write");
	TEST_ASSERT_EQUAL(rec.last_len, (size_t)512, "whole payload");
	TEST_ASSERT_EQUAL(rec.sends, 2u, "two sends reached the backend");
	return TEST_SUCCESS;
}

static int
deliver(unsigned int id, size_t len, uint8_t fill)
{
	static uint8_t mad[2048];
	struct ib_user_mad_hdr hdr;

	memset(&hdr, 0, sizeof(hdr));
	hdr.lid = 0x0200;
	hdr.qpn = 0x01000000;
	memset(mad, fill, len);
	return umad_file_deliver(&file, id, &hdr, mad, len);
}

static int
test_read(void)
{
	uint8_t buf[UMAD_HDR_SIZE + 2048];
	const struct ib_user_mad_hdr *hdr = (const void *)buf;
	struct umad_peek peek;
	size_t used, hs = UMAD_HDR_SIZE_OLD;
	uint32_t id;

	TEST_ASSERT_SUCCESS(register_agent(1, 0x03, 1, &id), "register");
	TEST_ASSERT_EQUAL(umad_file_read(&file, buf, hs - 1), -EINVAL,
			  "shorter than the header");
	TEST_ASSERT_EQUAL(umad_file_read(&file, buf, sizeof(buf)), -EAGAIN,
			  "empty");
	TEST_ASSERT_SUCCESS(deliver(id, 256, 0xab), "deliver");
	TEST_ASSERT_EQUAL(rec.wakes, 1u, "woken once");
	TEST_ASSERT_SUCCESS(deliver(id, 256, 0xcd), "deliver 2");
	TEST_ASSERT_EQUAL(rec.wakes, 1u, "not woken while non-empty");
	TEST_ASSERT(umad_file_readable(&file), "readable");
	TEST_ASSERT_EQUAL(umad_file_read(&file, buf, hs + 255), -EINVAL,
			  "cannot hold the MAD");
	TEST_ASSERT_EQUAL(umad_file_read(&file, buf, sizeof(buf)),
			  (ssize_t)(hs + 256), "read");
	TEST_ASSERT_EQUAL(hdr->id, id, "agent id");
	TEST_ASSERT_EQUAL(hdr->length, (uint32_t)(hs + 256), "length");
	TEST_ASSERT_EQUAL(hdr->lid, 0x0200, "source LID kept");
	TEST_ASSERT_EQUAL(buf[hs], 0xab, "first MAD first");
	TEST_ASSERT_EQUAL(umad_file_read(&file, buf, sizeof(buf)),
			  (ssize_t)(hs + 256), "second");
	TEST_ASSERT_EQUAL(buf[hs + 255], 0xcd, "second MAD");

	/* A reassembled RMPP message of 1000 bytes (ib_umad_read()). */
	TEST_ASSERT_SUCCESS(deliver(id, 1000, 0x5a), "deliver RMPP");
	TEST_ASSERT_EQUAL(umad_file_read(&file, buf, hs + 256), -ENOSPC,
			  "ENOSPC with room for the first segment");
	TEST_ASSERT_EQUAL(umad_file_ioctl(&file, UMAD_IOCTL_PEEK, NULL, 0,
					  &peek, sizeof(peek), &used), 0, "peek");
	TEST_ASSERT_EQUAL(used, hs + 256, "peek: header and first segment");
	TEST_ASSERT_EQUAL(((const struct ib_user_mad_hdr *)peek.buf)->length,
			  (uint32_t)(hs + 1000), "peek: length needed");
	TEST_ASSERT_EQUAL(umad_file_read(&file, buf, hs + 1000),
			  (ssize_t)(hs + 1000), "re-read with room");
	TEST_ASSERT_EQUAL(buf[hs + 999], 0x5a, "whole message");
	return TEST_SUCCESS;
}

/*
 * ENOSPC leaves the message first in the queue (Linux ib_umad_read()
 * puts it back): a reader that retries small keeps getting ENOSPC, never
 * the MAD behind it, and the big read returns it whole, header and all.
 */
static int
test_enospc_reread(void)
{
	uint8_t buf[UMAD_HDR_SIZE + 2048];
	const struct ib_user_mad_hdr *hdr = (const void *)buf;
	size_t hs = UMAD_HDR_SIZE_OLD;
	unsigned int k;
	uint32_t id;

	TEST_ASSERT_SUCCESS(register_agent(1, 0x03, 1, &id), "register");
	TEST_ASSERT_SUCCESS(deliver(id, 1500, 0x77), "deliver RMPP");
	TEST_ASSERT_SUCCESS(deliver(id, 256, 0x11), "deliver a MAD behind it");
	for (k = 0; k < 3; k++)
		TEST_ASSERT_EQUAL(umad_file_read(&file, buf, hs + 256), -ENOSPC,
				  "ENOSPC, try %u", k);
	TEST_ASSERT_EQUAL(umad_file_read(&file, buf, hs + 1499), -ENOSPC,
			  "one byte short");
	memset(buf, 0, sizeof(buf));
	TEST_ASSERT_EQUAL(umad_file_read(&file, buf, sizeof(buf)), (ssize_t)(hs + 1500),
			  "the RMPP message, re-read");
	TEST_ASSERT_EQUAL(hdr->id, id, "re-read: agent id");
	TEST_ASSERT_EQUAL(hdr->length, (uint32_t)(hs + 1500), "re-read: length");
	TEST_ASSERT_EQUAL(hdr->lid, 0x0200, "re-read: source LID");
	TEST_ASSERT(buf[hs] == 0x77 && buf[hs + 1499] == 0x77, "re-read: whole payload");
	TEST_ASSERT_EQUAL(umad_file_read(&file, buf, hs + 256), (ssize_t)(hs + 256),
			  "then the MAD behind it");
	TEST_ASSERT_EQUAL(buf[hs], 0x11, "the second MAD");
	TEST_ASSERT_EQUAL(umad_file_read(&file, buf, sizeof(buf)), -EAGAIN, "empty");
	return TEST_SUCCESS;
}

static int
test_queue_bound(void)
{
	unsigned int i;
	uint32_t id;

	TEST_ASSERT_SUCCESS(register_agent(1, 0x03, 0, &id), "register");
	for (i = 0; i < 4; i++)
		TEST_ASSERT_SUCCESS(deliver(id, 256, (uint8_t)i), "deliver %u", i);
	/* A reader that does not read loses MADs; the deliverer never waits. */
	TEST_ASSERT_EQUAL(deliver(id, 256, 9), -ENOBUFS, "fifth dropped");
	TEST_ASSERT_EQUAL(file.rx_drops, UINT64_C(1), "drop counted");
	TEST_ASSERT_EQUAL(file.rx_count, 4u, "queue bounded");
	return TEST_SUCCESS;
}

static int
test_close_unregisters(void)
{
	uint32_t id;

	TEST_ASSERT_SUCCESS(register_agent(1, 0x03, 0, &id), "register");
	TEST_ASSERT_SUCCESS(register_agent(0, 0x81, 0, &id), "register");
	TEST_ASSERT_SUCCESS(deliver(id, 256, 1), "queued");
	umad_file_close(&file);
	TEST_ASSERT_EQUAL(rec.unregistered, 2u, "every agent unregistered");
	/* The suite's teardown closes again: make that a fresh file. */
	umad_file_init(&file, &rec_ops, &rec, 4);
	return TEST_SUCCESS;
}

static struct unit_test_suite umad_file_suite = {
	.suite_name = "umad_file",
	.unit_test_cases = {
		TEST_CASE(test_ioctl_numbers),
		TEST_CASE_ST(setup, teardown, test_register),
		TEST_CASE_ST(setup, teardown, test_unregister),
		TEST_CASE_ST(setup, teardown, test_register2),
		TEST_CASE_ST(setup, teardown, test_register_forms),
		TEST_CASE_ST(setup, teardown, test_write),
		TEST_CASE_ST(setup, teardown, test_read),
		TEST_CASE_ST(setup, teardown, test_enospc_reread),
		TEST_CASE_ST(setup, teardown, test_queue_bound),
		TEST_CASE_ST(setup, teardown, test_close_unregisters),
		TEST_CASES_END(),
	},
};

int
main(void)
{
	return unit_test_suite_runner(&umad_file_suite);
}
