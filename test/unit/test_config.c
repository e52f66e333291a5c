// SPDX-License-Identifier: Apache-2.0
/* provider/config.c: every key, valid and invalid values, cross-key checks. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "../../provider/config.h"

static void test_defaults(void)
{
	struct eip93_config c;

	eip93_config_defaults(&c);
	CHECK_EQ_INT(c.enable, 1);
	CHECK_EQ_INT(c.min_size, 4096);
	CHECK_EQ_INT(c.max_size, 32768);
	CHECK_EQ_INT(c.max_sockets, EIP93_CFG_DEFAULT_MAX_SOCKETS);
	CHECK_EQ_INT(c.timeout_ms, EIP93_CFG_DEFAULT_TIMEOUT_MS);
	CHECK_EQ_INT(c.notice, 1);
	CHECK(strcmp(c.fallback_propq, "provider=default") == 0);
}

static void test_valid(void)
{
	struct eip93_config c;
	char err[256] = "";

	eip93_config_defaults(&c);
	CHECK_EQ_INT(eip93_config_set(&c, "enable", "no", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.enable, 0);
	CHECK_EQ_INT(eip93_config_set(&c, "enable", "YES", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.enable, 1);
	CHECK_EQ_INT(eip93_config_set(&c, "enable", "0", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.enable, 0);
	CHECK_EQ_INT(eip93_config_set(&c, "notice", "off", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.notice, 0);
	CHECK_EQ_INT(eip93_config_set(&c, "min-size", "16", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.min_size, 16);
	CHECK_EQ_INT(eip93_config_set(&c, "max-size", "65536", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.max_size, 65536);
	CHECK_EQ_INT(eip93_config_set(&c, "max-sockets", "2", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.max_sockets, 2);
	CHECK_EQ_INT(eip93_config_set(&c, "timeout-ms", "600000", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.timeout_ms, 600000);
	CHECK_EQ_INT(eip93_config_set(&c, "fallback-properties", "provider=default,fips=no", err,
				      sizeof(err)), 0);
	CHECK(strcmp(c.fallback_propq, "provider=default,fips=no") == 0);
	CHECK_EQ_INT(eip93_config_check(&c, err, sizeof(err)), 0);
	CHECK_EQ_INT(err[0], '\0');
}

static int same_config(const struct eip93_config *a, const struct eip93_config *b)
{
	return a->enable == b->enable && a->min_size == b->min_size &&
	       a->max_size == b->max_size && a->max_sockets == b->max_sockets &&
	       a->timeout_ms == b->timeout_ms && a->notice == b->notice &&
	       strcmp(a->fallback_propq, b->fallback_propq) == 0;
}

/* A bad value fails, names key and value, and leaves the config untouched. */
static void expect_bad(const char *key, const char *value, int want)
{
	struct eip93_config c, before;
	char err[256] = "";

	eip93_config_defaults(&c);
	before = c;
	CHECK_EQ_INT(eip93_config_set(&c, key, value, err, sizeof(err)), want);
	CHECK(strstr(err, key) != NULL);
	if (want != -ENOENT)
		CHECK(strstr(err, value) != NULL);
	CHECK(same_config(&c, &before));
}

static void test_invalid(void)
{
	expect_bad("enable", "maybe", -EINVAL);
	expect_bad("enable", "", -EINVAL);
	expect_bad("notice", "yess", -EINVAL);
	expect_bad("min-size", "abc", -EINVAL);
	expect_bad("min-size", "-1", -EINVAL);
	expect_bad("min-size", "+4096", -EINVAL);
	expect_bad("min-size", "4096 ", -EINVAL);
	expect_bad("min-size", "0x1000", -EINVAL);
	expect_bad("min-size", "4k", -EINVAL);
	expect_bad("min-size", "", -EINVAL);
	expect_bad("min-size", "15", -ERANGE);
	expect_bad("max-size", "65537", -ERANGE);
	expect_bad("max-size", "99999999999999999999999999", -ERANGE);
	expect_bad("max-sockets", "1", -ERANGE);
	expect_bad("max-sockets", "0", -ERANGE);
	expect_bad("max-sockets", "65537", -ERANGE);
	expect_bad("timeout-ms", "0", -ERANGE);
	expect_bad("timeout-ms", "600001", -ERANGE);
	expect_bad("timeout-ms", "1.5", -EINVAL);
	expect_bad("fallback-properties", "", -EINVAL);
	expect_bad("no-such-key", "1", -ENOENT);
}

static void test_cross(void)
{
	struct eip93_config c;
	char err[256] = "";

	eip93_config_defaults(&c);
	CHECK_EQ_INT(eip93_config_set(&c, "min-size", "40000", err, sizeof(err)), 0);
	CHECK_EQ_INT(eip93_config_check(&c, err, sizeof(err)), -ERANGE);
	CHECK(strstr(err, "min-size") != NULL && strstr(err, "max-size") != NULL);
	CHECK_EQ_INT(eip93_config_set(&c, "max-size", "40000", err, sizeof(err)), 0);
	err[0] = '\0';
	CHECK_EQ_INT(eip93_config_check(&c, err, sizeof(err)), 0);
}

int main(void)
{
	test_defaults();
	test_valid();
	test_invalid();
	test_cross();
	return check_done("test_config");
}
