// SPDX-License-Identifier: Apache-2.0
/* provider/config.c: every key, valid and invalid values, cross-key checks, the table. */
#include <errno.h>
#include <stdio.h>
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
				      sizeof(err)),
		     0);
	CHECK(strcmp(c.fallback_propq, "provider=default,fips=no") == 0);
	CHECK_EQ_INT(eip93_config_check(&c, err, sizeof(err)), 0);
	CHECK_EQ_INT(err[0], '\0');
}

static int same_config(const struct eip93_config *a, const struct eip93_config *b)
{
	return a->enable == b->enable && a->min_size == b->min_size && a->max_size == b->max_size &&
	       a->max_sockets == b->max_sockets && a->timeout_ms == b->timeout_ms &&
	       a->notice == b->notice && strcmp(a->fallback_propq, b->fallback_propq) == 0 &&
	       a->routing == b->routing && a->explore == b->explore && a->weight == b->weight &&
	       strcmp(a->kalg, b->kalg) == 0 && strcmp(a->calib_file, b->calib_file) == 0 &&
	       a->window_set == b->window_set && a->tag_check == b->tag_check &&
	       a->backend == b->backend;
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
	expect_bad("routing", "", -EINVAL);
	expect_bad("routing", "off", -EINVAL);
	expect_bad("routing", "Adaptive", -EINVAL);
	expect_bad("routing", "adaptive ", -EINVAL);
	expect_bad("adaptive-explore", "3", -ERANGE);
	expect_bad("adaptive-explore", "0", -ERANGE);
	expect_bad("adaptive-explore", "4097", -ERANGE);
	expect_bad("adaptive-explore", "1/32", -EINVAL);
	expect_bad("adaptive-explore", "", -EINVAL);
	expect_bad("adaptive-engine-weight", "9", -ERANGE);
	expect_bad("adaptive-engine-weight", "10001", -ERANGE);
	expect_bad("adaptive-engine-weight", "150%", -EINVAL);
	expect_bad("engine-backend", "", -EINVAL);
	expect_bad("engine-backend", "af_alg", -EINVAL);
	expect_bad("engine-backend", "devcrypto", -EINVAL);
	expect_bad("engine-backend", "Cryptodev", -EINVAL);
}

/* engine-backend: auto by default; afalg and cryptodev force one. */
static void test_backend(void)
{
	struct eip93_config c;
	char err[256] = "";

	eip93_config_defaults(&c);
	CHECK_EQ_INT(c.backend, EIP93_BACKEND_AUTO);
	CHECK_EQ_INT(eip93_config_set(&c, "engine-backend", "cryptodev", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.backend, EIP93_BACKEND_CRYPTODEV);
	CHECK_EQ_INT(eip93_config_set(&c, "engine-backend", "afalg", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.backend, EIP93_BACKEND_AFALG);
	CHECK_EQ_INT(eip93_config_set(&c, "engine-backend", "auto", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.backend, EIP93_BACKEND_AUTO);
	CHECK_EQ_INT(eip93_config_set(&c, "engine-backend", "dev-crypto", err, sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "engine-backend") != NULL && strstr(err, "dev-crypto") != NULL);
	CHECK(strstr(err, "auto") != NULL && strstr(err, "afalg") != NULL &&
	      strstr(err, "cryptodev") != NULL);
	CHECK_EQ_INT(c.backend, EIP93_BACKEND_AUTO);
}

/* Adaptive routing: the default, fixed as today, the exploration bounds. */
static void test_routing(void)
{
	struct eip93_config c;
	char err[256] = "";

	eip93_config_defaults(&c);
	CHECK_EQ_INT(c.routing, EIP93_ROUTING_FIXED);
	CHECK_EQ_INT(c.explore, 32);
	CHECK_EQ_INT(eip93_config_set(&c, "routing", "fixed", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.routing, EIP93_ROUTING_FIXED);
	CHECK_EQ_INT(eip93_config_set(&c, "routing", "adaptive", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.routing, EIP93_ROUTING_ADAPTIVE);
	CHECK_EQ_INT(eip93_config_set(&c, "adaptive-explore", "4", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.explore, 4);
	CHECK_EQ_INT(eip93_config_set(&c, "adaptive-explore", "4096", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.explore, 4096);
	CHECK_EQ_INT(c.weight, 100);
	CHECK_EQ_INT(eip93_config_set(&c, "adaptive-engine-weight", "10", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.weight, 10);
	CHECK_EQ_INT(eip93_config_set(&c, "adaptive-engine-weight", "10000", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.weight, 10000);
	CHECK_EQ_INT(eip93_config_check(&c, err, sizeof(err)), 0);
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

static void test_kalg_and_calibration(void)
{
	struct eip93_config c;
	char err[1024] = "";

	eip93_config_defaults(&c);
	CHECK(c.kalg[0] == '\0');
	CHECK(strcmp(c.calib_file, EIP93_CALIBRATION_FILE) == 0);
	CHECK_EQ_INT(c.window_set, 0);
	for (int i = 0; i < EIP93_NKALG; i++) {
		CHECK_EQ_INT(eip93_config_set(&c, "kernel-algorithm", eip93_kalg_names[i], err,
					      sizeof(err)),
			     0);
		CHECK(strcmp(c.kalg, eip93_kalg_names[i]) == 0);
		CHECK_EQ_INT(eip93_kalg_index(eip93_kalg_names[i]), i);
	}
	CHECK(strcmp(eip93_kalg_names[0], "ctr(aes-eip93)") == 0);
	CHECK(strcmp(eip93_kalg_names[1], "gcm_base(ctr(aes-eip93),ghash-neon)") == 0);
	CHECK(strcmp(eip93_kalg_names[2], "gcm_base(ctr(aes-eip93),ghash-generic)") == 0);
	CHECK(strcmp(eip93_kalg_names[3], "gcm_base(ctr(aes-eip93),ghash-lib)") == 0);
	/* Nothing else: not gcm(aes), not another driver, not a near miss. */
	static const char *const bad_kalg[] = {
		"gcm(aes)",
		"gcm_base(ctr(aes-generic),ghash-generic)",
		"ghash-neon",
		"",
		"gcm_base(ctr(aes-eip93),ghash-neon) ",
		"GCM_BASE(CTR(AES-EIP93),GHASH-NEON)",
		"gcm_base(ctr(aes-eip93),ghash)",
		"ctr(aes)",
		"ctr(aes-generic)",
		"ctr(aes-eip93) ",
	};
	for (size_t i = 0; i < sizeof(bad_kalg) / sizeof(bad_kalg[0]); i++) {
		err[0] = '\0';
		CHECK_EQ_INT(
			eip93_config_set(&c, "kernel-algorithm", bad_kalg[i], err, sizeof(err)),
			-EINVAL);
		CHECK(strstr(err, "kernel-algorithm") != NULL && strstr(err, bad_kalg[i]) != NULL);
	}
	CHECK(strcmp(c.kalg, eip93_kalg_names[EIP93_NKALG - 1]) == 0); /* unchanged on failure */
	/* The error names every accepted value. */
	CHECK_EQ_INT(eip93_config_set(&c, "kernel-algorithm", "ctr(aes)", err, sizeof(err)),
		     -EINVAL);
	for (int i = 0; i < EIP93_NKALG; i++)
		CHECK(strstr(err, eip93_kalg_names[i]) != NULL);

	/* tag-check: 0 (never) to 65536, decimal; 64 by default. */
	eip93_config_defaults(&c);
	CHECK_EQ_INT(c.tag_check, 64);
	CHECK_EQ_INT(eip93_config_set(&c, "tag-check", "1", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.tag_check, 1);
	CHECK_EQ_INT(eip93_config_set(&c, "tag-check", "0", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.tag_check, 0);
	CHECK_EQ_INT(eip93_config_set(&c, "tag-check", "65536", err, sizeof(err)), 0);
	CHECK_EQ_INT(eip93_config_set(&c, "tag-check", "65537", err, sizeof(err)), -ERANGE);
	CHECK(strstr(err, "tag-check") != NULL && strstr(err, "65537") != NULL);
	CHECK_EQ_INT(eip93_config_set(&c, "tag-check", "0x40", err, sizeof(err)), -EINVAL);
	CHECK_EQ_INT(eip93_config_set(&c, "tag-check", "-1", err, sizeof(err)), -EINVAL);
	CHECK_EQ_INT(c.tag_check, 65536); /* unchanged on failure */

	CHECK_EQ_INT(eip93_config_set(&c, "calibration-file", "/tmp/x", err, sizeof(err)), 0);
	CHECK(strcmp(c.calib_file, "/tmp/x") == 0);
	CHECK_EQ_INT(eip93_config_set(&c, "calibration-file", "none", err, sizeof(err)), 0);
	CHECK(c.calib_file[0] == '\0');
	CHECK_EQ_INT(eip93_config_set(&c, "calibration-file", "relative/path", err, sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "calibration-file = \"relative/path\"") != NULL);
	CHECK_EQ_INT(eip93_config_set(&c, "calibration-file", "", err, sizeof(err)), -EINVAL);

	CHECK_EQ_INT(eip93_config_set(&c, "min-size", "8192", err, sizeof(err)), 0);
	CHECK_EQ_INT(c.window_set, 1);
}

/* The value of a string-like key's field in @c. */
static const char *text_of(const struct eip93_config *c, const struct eip93_cfg_key *k)
{
	return (const char *)c + k->offset;
}

/* Every row: a name, a default that its own parser accepts, its range edges. */
static void test_table(void)
{
	struct eip93_config c, before;
	char err[512], v[32];
	int seen_last = 0;

	CHECK_EQ_INT(sizeof(eip93_config_table) / sizeof(eip93_config_table[0]),
		     EIP93_CONFIG_NKEYS);
	for (size_t i = 0; i < EIP93_CONFIG_NKEYS; i++) {
		const struct eip93_cfg_key *k = &eip93_config_table[i];

		CHECK(k->name != NULL && k->name[0] != '\0');
		if (k->name == NULL)
			continue;
		seen_last |= strcmp(k->name, "engine-backend") == 0;
		CHECK(eip93_config_find(k->name) == k);
		CHECK(k->offset + k->size <= sizeof(struct eip93_config));
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(eip93_config_table[j].name, k->name) != 0);

		eip93_config_defaults(&c);
		switch (k->kind) {
		case EIP93_CFG_UINT:
		case EIP93_CFG_SIZE:
			CHECK(k->what != NULL && k->min_note != NULL && k->max_note != NULL);
			CHECK(k->min <= k->def && k->def <= k->max);
			CHECK_EQ_INT(eip93_config_number(&c, k), k->def);
			/* The edges parse; one past each is out of range, the text says the range. */
			snprintf(v, sizeof(v), "%llu", k->min);
			CHECK_EQ_INT(eip93_config_set(&c, k->name, v, err, sizeof(err)), 0);
			CHECK_EQ_INT(eip93_config_number(&c, k), k->min);
			snprintf(v, sizeof(v), "%llu", k->max);
			CHECK_EQ_INT(eip93_config_set(&c, k->name, v, err, sizeof(err)), 0);
			CHECK_EQ_INT(eip93_config_number(&c, k), k->max);
			before = c;
			snprintf(v, sizeof(v), "%llu", k->max + 1);
			CHECK_EQ_INT(eip93_config_set(&c, k->name, v, err, sizeof(err)), -ERANGE);
			CHECK(same_config(&c, &before));
			CHECK(strstr(err, k->name) != NULL && strstr(err, v) != NULL);
			snprintf(v, sizeof(v), " to %llu", k->max);
			CHECK(strstr(err, v) != NULL);
			snprintf(v, sizeof(v), "from %llu", k->min);
			CHECK(strstr(err, v) != NULL);
			if (k->min > 0) {
				snprintf(v, sizeof(v), "%llu", k->min - 1);
				CHECK_EQ_INT(eip93_config_set(&c, k->name, v, err, sizeof(err)),
					     -ERANGE);
				CHECK(same_config(&c, &before));
			}
			break;
		case EIP93_CFG_BOOL:
			CHECK(k->def <= 1);
			CHECK_EQ_INT(eip93_config_number(&c, k), k->def);
			CHECK_EQ_INT(eip93_config_set(&c, k->name, "no", err, sizeof(err)), 0);
			CHECK_EQ_INT(eip93_config_number(&c, k), 0);
			CHECK_EQ_INT(eip93_config_set(&c, k->name, "yes", err, sizeof(err)), 0);
			CHECK_EQ_INT(eip93_config_number(&c, k), 1);
			break;
		case EIP93_CFG_CHOICE: {
			int def_ok = 0;

			CHECK(k->names != NULL && k->values != NULL && k->nnames >= 2);
			for (size_t j = 0; j < k->nnames; j++) {
				def_ok |= (unsigned long long)k->values[j] == k->def;
				CHECK_EQ_INT(eip93_config_set(&c, k->name, k->names[j], err,
							      sizeof(err)),
					     0);
				CHECK_EQ_INT(eip93_config_number(&c, k), k->values[j]);
			}
			CHECK(def_ok);
			break;
		}
		case EIP93_CFG_STRING:
		case EIP93_CFG_PATH:
		case EIP93_CFG_NAME:
		default: {
			char longest[EIP93_CFG_PATH_MAX + 2];

			CHECK(k->def_str != NULL);
			if (k->def_str == NULL)
				break;
			CHECK(strcmp(text_of(&c, k), k->def_str) == 0);
			if (k->kind == EIP93_CFG_NAME) {
				CHECK(k->names != NULL && k->nnames >= 1);
				for (size_t j = 0; j < k->nnames; j++)
					CHECK_EQ_INT(eip93_config_set(&c, k->name, k->names[j], err,
								      sizeof(err)),
						     0);
				break;
			}
			/* The longest value fits; one character more does not. */
			CHECK(k->max + 1 == k->size && k->max + 2 <= sizeof(longest));
			if (k->max + 2 > sizeof(longest))
				break;
			memset(longest, 'a', k->max + 1);
			longest[0] = '/';
			longest[k->max] = '\0';
			CHECK_EQ_INT(eip93_config_set(&c, k->name, longest, err, sizeof(err)), 0);
			CHECK(strcmp(text_of(&c, k), longest) == 0);
			before = c;
			longest[k->max] = 'a';
			longest[k->max + 1] = '\0';
			CHECK_EQ_INT(eip93_config_set(&c, k->name, longest, err, sizeof(err)),
				     -EINVAL);
			CHECK(same_config(&c, &before));
			snprintf(v, sizeof(v), "%llu characters", k->max);
			CHECK(strstr(err, k->name) != NULL && strstr(err, v) != NULL);
			break;
		}
		}
	}
	CHECK(seen_last);
	CHECK(eip93_config_find("no-such-key") == NULL);
}

int main(void)
{
	test_table();
	test_kalg_and_calibration();
	test_defaults();
	test_valid();
	test_invalid();
	test_routing();
	test_backend();
	test_cross();
	return check_done("test_config");
}
