// SPDX-License-Identifier: Apache-2.0
/*
 * provider/gate.c: the verdict in SPEC order, fed through the same inputs the
 * provider uses (the device-tree file and hwcap inputs here are plain
 * function arguments; in eip93.so only the test-hooks build sets them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "../../provider/gate.h"

static char dir[] = "/tmp/eip93-gate-XXXXXX";

static const char *dt_file(const char *name, const void *bytes, size_t len)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(bytes, 1, len, f) != len) {
		perror(path);
		exit(2);
	}
	fclose(f);
	return path;
}

static struct eip93_config cfg;

static struct eip93_gate decide(const char *env, const char *dt, int hw_override,
				unsigned long hwcap)
{
	struct eip93_gate_input in;
	struct eip93_gate g;

	memset(&in, 0, sizeof(in));
	in.env_switch = env;
	in.cfg = &cfg;
	in.dt_path_override = dt;
	in.hwcap_override = hw_override;
	in.hwcap = hwcap;
	eip93_gate_decide(&in, &g);
	return g;
}

#define HAS(g, text) CHECK(strstr((g).status, (text)) != NULL)

static void test_switch(void)
{
	CHECK_EQ_INT(eip93_gate_env_switch(NULL), EIP93_SWITCH_UNSET);
	CHECK_EQ_INT(eip93_gate_env_switch("off"), EIP93_SWITCH_OFF);
	CHECK_EQ_INT(eip93_gate_env_switch("OFF"), EIP93_SWITCH_OFF);
	CHECK_EQ_INT(eip93_gate_env_switch("0"), EIP93_SWITCH_OFF);
	CHECK_EQ_INT(eip93_gate_env_switch("on"), EIP93_SWITCH_UNSET);
	CHECK_EQ_INT(eip93_gate_env_switch(""), EIP93_SWITCH_UNSET);
	CHECK_EQ_INT(eip93_gate_env_switch("force"), EIP93_SWITCH_INVALID);
}

static void test_order(void)
{
	const char *an7581 = dt_file("an7581", "airoha,an7581\0", 14);
	struct eip93_gate g;

	eip93_config_defaults(&cfg);
	g = decide("off", an7581, 1, 0);
	CHECK_EQ_INT(g.enabled, 0);
	HAS(g, "disabled: switched off by EIP93_PROVIDER=off");
	g = decide("force", an7581, 1, 0);
	CHECK_EQ_INT(g.enabled, 0);
	HAS(g, "not understood");

	cfg.enable = 0;
	g = decide(NULL, an7581, 1, 0);
	CHECK_EQ_INT(g.enabled, 0);
	HAS(g, "enable = no");
	cfg.enable = 1;

	/* Board and CPU right: the verdict rests on the kernel probe. */
	g = decide(NULL, an7581, 1, 0);
	if (g.enabled) {
		HAS(g, "enabled: gcm_base(ctr(aes-eip93),ghash-");
	} else {
		HAS(g, "disabled: kernel: AF_ALG bind gcm_base(ctr(aes-eip93),ghash-generic): ");
		HAS(g, "gcm_base(ctr(aes-eip93),ghash-lib): ");
	}

	g = decide(NULL, an7581, 1, 1UL << 3);
	CHECK_EQ_INT(g.enabled, 0);
	HAS(g, "disabled: cpu: has the ARMv8 AES instructions");
	g = decide(NULL, an7581, 1, ~(1UL << 3));
	CHECK(strstr(g.status, "cpu:") == NULL);
}

static void test_dt(void)
{
	struct eip93_gate g;
	char missing[300];

	eip93_config_defaults(&cfg);
	g = decide(NULL, dt_file("en7581", "airoha,en7581\0", 14), 1, 0);
	CHECK(strstr(g.status, "device tree") == NULL);
	g = decide(NULL, dt_file("an7583", "airoha,an7583\0", 14), 1, 0);
	CHECK_EQ_INT(g.enabled, 0);
	HAS(g, "disabled: device tree: AN7583/EN7583");
	g = decide(NULL, dt_file("both", "airoha,an7581\0airoha,en7583\0", 28), 1, 0);
	HAS(g, "disabled: device tree: AN7583/EN7583");
	g = decide(NULL, dt_file("virt", "linux,dummy-virt\0", 17), 1, 0);
	HAS(g, "disabled: device tree: not an AN7581/EN7581 (compatible: \"linux,dummy-virt\")");
	g = decide(NULL, dt_file("unterminated", "airoha,an7581", 13), 1, 0);
	HAS(g, "disabled: device tree: malformed");
	g = decide(NULL, dt_file("empty", "", 0), 1, 0);
	HAS(g, "disabled: device tree: malformed");
	snprintf(missing, sizeof(missing), "%s/none", dir);
	g = decide(NULL, missing, 1, 0);
	HAS(g, "disabled: device tree: test hook");
	HAS(g, "ENOENT");
}

static void test_inputs(void)
{
	const char *an7581 = dt_file("an7581", "airoha,an7581\0", 14);
	struct eip93_gate_input in;
	struct eip93_gate g;

	eip93_config_defaults(&cfg);
	memset(&in, 0, sizeof(in));
	in.cfg = &cfg;
	in.dt_path_override = an7581;
	in.hwcap_override = 1;
	in.cfg_error = "invalid config value min-size = \"abc\" (expected ...)";
	eip93_gate_decide(&in, &g);
	CHECK_EQ_INT(g.enabled, 0);
	HAS(g, "disabled: invalid config value min-size = \"abc\"");
	in.cfg_error = NULL;
	in.sw_error = "software delegate: none";
	eip93_gate_decide(&in, &g);
	HAS(g, "disabled: software delegate: none");
	in.sw_error = NULL;
	in.openssl_fips = 1;
	eip93_gate_decide(&in, &g);
	HAS(g, "disabled: fips: OpenSSL default properties ask for FIPS");
}

int main(void)
{
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	test_switch();
	test_order();
	test_dt();
	test_inputs();
	{
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cleanup of %s failed\n", dir);
	}
	return check_done("test_gate");
}
