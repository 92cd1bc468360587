/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ipoib authors
 */

/*
 * net_ipoib's devargs parser (drivers/net/ipoib/ipoib_args.c), alone:
 * every key with good values and the defaults, every kind of bad value
 * refused with a message that names the key and the value. Run under
 * ASan in the sanitizer build: a leak on any path fails it.
 */

#include <string.h>

#include "ipoib_args.h"
#include "test.h"

/* @text is refused; the message starts with @want ("key=value: ...") and holds @why. */
static int
refused(const char *text, const char *want, const char *why)
{
	struct ipoib_args a;

	TEST_ASSERT(ipoib_args_parse(text, &a) == -EINVAL, "\"%s\" accepted", text);
	TEST_ASSERT(strncmp(a.err, want, strlen(want)) == 0,
		    "\"%s\": message \"%s\" does not start with \"%s\"", text, a.err, want);
	TEST_ASSERT(strstr(a.err, why) != NULL, "\"%s\": message \"%s\" lacks \"%s\"", text,
		    a.err, why);
	return TEST_SUCCESS;
}

#define REFUSED(text, want, why) do { \
	if (refused(text, want, why) != TEST_SUCCESS) \
		return TEST_FAILED; \
} while (0)

static int
test_defaults(void)
{
	struct ipoib_args a;

	TEST_ASSERT_SUCCESS(ipoib_args_parse("dev=0000:11:00.0", &a), "%s", a.err);
	TEST_ASSERT(strcmp(a.dev, "0000:11:00.0") == 0, "dev %s", a.dev);
	TEST_ASSERT_EQUAL(a.pkey, 0, "parent by default");
	TEST_ASSERT_EQUAL(a.mode, RTE_IPOIB_MODE_ETH, "eth by default");
	TEST_ASSERT_EQUAL(a.txq, 1, "one send queue");
	TEST_ASSERT_EQUAL(a.mtu, 0, "the group's MTU");
	TEST_ASSERT_EQUAL(a.nb_addrs, 0, "no address");
	TEST_ASSERT_EQUAL(a.ifname[0], '\0', "lib/ipoib's name");
	return TEST_SUCCESS;
}

static int
test_good_values(void)
{
	static const uint8_t v4[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 2 };
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
	struct ipoib_args a;

	TEST_ASSERT_SUCCESS(ipoib_args_parse("dev=0000:11:00.0_p2,pkey=0x8001,mode=l3,txq=4,"
					     "mtu=2044,ipv4=10.0.0.2;10.1.0.2,ipv4=10.2.0.2,"
					     "ipv6=2001:db8::2,ifname=ib0.8001", &a), "%s", a.err);
	TEST_ASSERT(strcmp(a.dev, "0000:11:00.0_p2") == 0, "dev %s", a.dev);
	TEST_ASSERT_EQUAL(a.pkey, 0x8001, "pkey");
	TEST_ASSERT_EQUAL(a.mode, RTE_IPOIB_MODE_L3, "mode");
	TEST_ASSERT_EQUAL(a.txq, 4, "txq");
	TEST_ASSERT_EQUAL(a.mtu, 2044, "mtu");
	TEST_ASSERT_EQUAL(a.nb_addrs, 4, "three IPv4 (two in one value) and one IPv6");
	TEST_ASSERT_BUFFERS_EQUAL(a.addrs[0], v4, 16, "ipv4 as ::ffff:a.b.c.d");
	TEST_ASSERT_BUFFERS_EQUAL(a.addrs[3], v6, 16, "ipv6");
	TEST_ASSERT(strcmp(a.ifname, "ib0.8001") == 0, "ifname %s", a.ifname);
	/* Decimal P_Key, the limits of each range. */
	TEST_ASSERT_SUCCESS(ipoib_args_parse("dev=x,pkey=32769,txq=16,mtu=68,mode=eth", &a),
			    "%s", a.err);
	TEST_ASSERT_EQUAL(a.pkey, 0x8001, "decimal pkey");
	TEST_ASSERT_SUCCESS(ipoib_args_parse("dev=x,pkey=0,mtu=4092", &a), "%s", a.err);
	TEST_ASSERT_EQUAL(a.pkey, 0, "pkey=0: the parent");
	TEST_ASSERT_EQUAL(a.mtu, 4092, "the largest UD MTU");
	return TEST_SUCCESS;
}

static int
test_pci_and_port(void)
{
	struct ipoib_args a;

	/* net_mthca's names: port 1 is the PCI name, port n "<pci>_p<n>". */
	TEST_ASSERT_SUCCESS(ipoib_args_parse("dev=0000:11:00.0,port=1", &a), "%s", a.err);
	TEST_ASSERT(strcmp(a.dev, "0000:11:00.0") == 0, "port 1: %s", a.dev);
	TEST_ASSERT_SUCCESS(ipoib_args_parse("port=2,dev=0000:11:00.0", &a), "%s", a.err);
	TEST_ASSERT(strcmp(a.dev, "0000:11:00.0_p2") == 0, "port 2: %s", a.dev);
	TEST_ASSERT_SUCCESS(ipoib_args_parse("dev=11:00.0,port=2", &a), "%s", a.err);
	TEST_ASSERT(strcmp(a.dev, "11:00.0_p2") == 0, "short PCI form: %s", a.dev);
	REFUSED("port=1", "port=1: ", "needs dev=");
	REFUSED("dev=net_tap0,port=2", "port=2: ", "dev=net_tap0 is not a PCI address");
	REFUSED("dev=0000:11:00.0,port=0", "port=0: ", "1..254");
	REFUSED("dev=0000:11:00.0,port=255", "port=255: ", "1..254");
	REFUSED("dev=0000:11:00.0,port=one", "port=one: ", "1..254");
	return TEST_SUCCESS;
}

static int
test_bad_values(void)
{
	char long_dev[128], text[160];

	REFUSED(NULL, "dev=: ", "missing");
	REFUSED("", "dev=: ", "missing");
	REFUSED("mode=eth", "dev=: ", "missing");
	REFUSED("dev=x,colour=blue", "colour=blue: ", "unknown key");
	REFUSED("dev=x,dev=y", "dev=x: ", "more than once");
	REFUSED("dev=x,mode", "mode=: ", "needs a value");
	REFUSED("dev=", "dev=: ", "1 to");
	memset(long_dev, 'a', sizeof(long_dev) - 1);
	long_dev[sizeof(long_dev) - 1] = '\0';
	snprintf(text, sizeof(text), "dev=%s", long_dev);
	REFUSED(text, "dev=aaaa", "1 to");
	REFUSED("dev=x,pkey=0x10000", "pkey=0x10000: ", "0..0xffff");
	REFUSED("dev=x,pkey=-1", "pkey=-1: ", "0..0xffff");
	REFUSED("dev=x,pkey=0x80O1", "pkey=0x80O1: ", "0..0xffff");
	REFUSED("dev=x,pkey=0x8000", "pkey=0x8000: ", "invalid P_Key");
	REFUSED("dev=x,mode=ib", "mode=ib: ", "not eth or l3");
	REFUSED("dev=x,mode=ETH", "mode=ETH: ", "not eth or l3");
	REFUSED("dev=x,txq=0", "txq=0: ", "1..16");
	REFUSED("dev=x,txq=17", "txq=17: ", "1..16");
	REFUSED("dev=x,txq= 1", "txq= 1: ", "1..16");
	REFUSED("dev=x,mtu=67", "mtu=67: ", "68..4092");
	REFUSED("dev=x,mtu=4093", "mtu=4093: ", "68..4092");
	REFUSED("dev=x,mtu=99999999999999999999", "mtu=99999999999999999999: ", "68..4092");
	REFUSED("dev=x,ipv4=10.0.0.256", "ipv4=10.0.0.256: ", "not a dotted IPv4");
	REFUSED("dev=x,ipv4=224.0.0.1", "ipv4=224.0.0.1: ", "multicast");
	REFUSED("dev=x,ipv4=0.0.0.0", "ipv4=0.0.0.0: ", "zero");
	REFUSED("dev=x,ipv4=10.0.0.1;", "ipv4=10.0.0.1;: ", "empty");
	REFUSED("dev=x,ipv4=10.0.0.1,ipv4=10.0.0.1", "ipv4=10.0.0.1: ", "given twice");
	REFUSED("dev=x,ipv4=2001:db8::1", "ipv4=2001:db8::1: ", "not a dotted IPv4");
	REFUSED("dev=x,ipv6=10.0.0.1", "ipv6=10.0.0.1: ", "not an IPv6");
	REFUSED("dev=x,ipv6=ff02::1", "ipv6=ff02::1: ", "multicast");
	REFUSED("dev=x,ipv6=::", "ipv6=::: ", "unspecified");
	REFUSED("dev=x,ipv4=10.0.0.1;10.0.0.2;10.0.0.3;10.0.0.4;10.0.0.5;10.0.0.6;"
		"10.0.0.7;10.0.0.8;10.0.0.9", "ipv4=10.0.0.1;", "more than 8");
	REFUSED("dev=x,ifname=", "ifname=: ", "1 to 31");
	REFUSED("dev=x,ifname=ib0/evil", "ifname=ib0/evil: ", "0x2f at byte 3");
	REFUSED("dev=x,ifname=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "ifname=aaaa", "1 to 31");
	return TEST_SUCCESS;
}

static struct unit_test_suite ipoib_devargs_suite = {
	.suite_name = "net_ipoib devargs",
	.unit_test_cases = {
		TEST_CASE(test_defaults),
		TEST_CASE(test_good_values),
		TEST_CASE(test_pci_and_port),
		TEST_CASE(test_bad_values),
		TEST_CASES_END()
	}
};

int
main(void)
{
	return unit_test_suite_runner(&ipoib_devargs_suite);
}
