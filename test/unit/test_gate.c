// SPDX-License-Identifier: Apache-2.0
/*
 * provider/gate.c: the verdict in its documented order (the engine-backend
 * order over the engine rows: gate_backends.c) (docs/contract.md
 * "Switching on"), fed through the same inputs the
 * provider uses (the device-tree file and hwcap inputs here are plain
 * function arguments; in eip93.so only the test-hooks build sets them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "gate_fixture.h"

char dir[] = "/tmp/eip93-gate-XXXXXX";

const char *dt_file(const char *name, const void *bytes, size_t len)
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

struct eip93_config cfg;

/* An engine row as the product's (engine/engine.c), with the probe @pr under test. */
#define TEST_ROW(i, nm, rd, vi, o, pr, w)                                                          \
	{                                                                                          \
		.id = EIP93_BACKEND_##i, .name = nm, .road = rd, .via = vi, .ops = &(o),           \
		.probe = pr, .dead = w##_dead, .tried = w##_tried, .why = w##_why                  \
	}

/* The AF_ALG row with its real probe (this machine's kernel answers). */
static const struct eip93_engine_ops kernel_ops = { .name = "af_alg" };
static const struct eip93_engine_row kernel_row =
	TEST_ROW(AFALG, "afalg", "AF_ALG", "", kernel_ops, eip93_afalg_probe, eip93_afalg);

static struct eip93_gate decide(const char *env, const char *dt, int hw_override,
				unsigned long hwcap)
{
	struct eip93_gate_input in;
	struct eip93_gate g;

	memset(&in, 0, sizeof(in));
	in.env_switch = env;
	in.rows = &kernel_row;
	in.nrows = 1;
	in.cfg = &cfg;
	in.dt_path_override = dt;
	in.hwcap_override = hw_override;
	in.hwcap = hwcap;
	eip93_gate_decide(&in, &g);
	return g;
}

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
		HAS(g, "enabled: ");
	} else {
		HAS(g, "disabled: kernel: AF_ALG bind ctr(aes-eip93): ");
		HAS(g, "; kernel: AF_ALG bind gcm_base(ctr(aes-eip93),ghash-neon): ");
		HAS(g, "; kernel: AF_ALG bind gcm_base(ctr(aes-eip93),ghash-generic): ");
		HAS(g, "; kernel: AF_ALG bind gcm_base(ctr(aes-eip93),ghash-lib): ");
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
	HAS(g,
	    "disabled: device tree: not an AN7581/EN7581, MT7621, Armada 370/XP/375/38x, IPQ40xx, "
	    "H3 or K1 (compatible: \"linux,dummy-virt\")");
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

/* ---- composition order and calibration, with a scripted probe ---------- */

int probe_err[EIP93_NKALG]; /* per eip93_kalg_names index: 0 binds, else errno */
int ctr_unusable;	    /* the CTR-only composition's libcrypto self-test fails */
char probe_log[256];

static int fake_probe(const char *kalg, char *driver, size_t n)
{
	int i = eip93_kalg_index(kalg);

	(void)driver;
	(void)n;
	strncat(probe_log,
		i == 0	 ? "C"
		: i == 1 ? "N"
		: i == 2 ? "G"
		: i == 3 ? "L"
			 : "?",
		sizeof(probe_log) - strlen(probe_log) - 1);
	return i < 0 ? -EINVAL : -probe_err[i];
}

/* The /dev/crypto probe: lower-case letters in the log, its own errors and drivers. */
int cdev_err[EIP93_NKALG];
const char *cdev_drv[EIP93_NKALG];
int use_cdev;	   /* decide_k() offers the /dev/crypto backend */
int force_backend; /* decide_k()'s in.backend (the test builds' force) */

static int fake_cdev_probe(const char *kalg, char *driver, size_t n)
{
	int i = eip93_kalg_index(kalg);

	strncat(probe_log,
		i == 0	 ? "c"
		: i == 1 ? "n"
		: i == 2 ? "g"
		: i == 3 ? "l"
			 : "?",
		sizeof(probe_log) - strlen(probe_log) - 1);
	snprintf(driver, n, "%s", i >= 0 && cdev_drv[i] ? cdev_drv[i] : "");
	return i < 0 ? -EINVAL : -cdev_err[i];
}

static int ctr_usable(void)
{
	return ctr_unusable ? -ENOTSUP : 0;
}

/* The engine rows under test: the product's words over the scripted probes. */
static const struct eip93_engine_ops afalg_ops = { .name = "af_alg" };
static const struct eip93_engine_ops cdev_ops = { .name = "cryptodev" };
const struct eip93_engine_row gate_test_rows[2] = {
	TEST_ROW(AFALG, "afalg", "AF_ALG", "", afalg_ops, fake_probe, eip93_afalg),
	TEST_ROW(CRYPTODEV, "cryptodev", "/dev/crypto", " via /dev/crypto", cdev_ops,
		 fake_cdev_probe, eip93_cryptodev),
};

struct eip93_gate decide_k(const struct eip93_calib_load *cl, const char *kernel)
{
	struct eip93_gate_input in;
	struct eip93_gate g;

	memset(&in, 0, sizeof(in));
	in.cfg = &cfg;
	in.dt_path_override = dt_file("an7581", "airoha,an7581\0", 14);
	in.hwcap_override = 1;
	in.rows = gate_test_rows;
	in.nrows = use_cdev ? 2 : 1;
	in.backend = force_backend;
	in.ctr_usable = ctr_usable;
	in.calib = cl;
	in.facts.kernel = kernel;
	in.facts.openssl = "3.0.17";
	in.facts.provider = "0.1.0";
	probe_log[0] = '\0';
	eip93_gate_decide(&in, &g);
	return g;
}

static void test_composition_order(void)
{
	struct eip93_gate g;

	eip93_config_defaults(&cfg);
	memset(probe_err, 0, sizeof(probe_err));
	g = decide_k(NULL, "6.1.0");
	CHECK(strcmp(probe_log, "C") == 0);
	CHECK(strcmp(g.status, "enabled: ctr(aes-eip93)") == 0);
	CHECK(strcmp(g.kalg, KALG_CTR_ONLY) == 0);
	CHECK(strstr(g.ghash, "libcrypto") != NULL);

	/* The CTR-only composition cannot bind: the kernel's, in their order. */
	probe_err[0] = ENOENT;
	g = decide_k(NULL, "6.1.0");
	CHECK(strcmp(probe_log, "CN") == 0);
	CHECK(strcmp(g.kalg, KALG_NEON) == 0);
	HAS(g, "enabled: gcm_base(ctr(aes-eip93),ghash-neon)");
	CHECK(strstr(g.ghash, "ghash-neon") != NULL);

	/* Any bind error moves on: EPERM, EINVAL, ENOENT, EACCES alike. */
	static const int errs[] = { ENOENT, EPERM, EACCES, EINVAL, EAFNOSUPPORT };

	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		probe_err[0] = errs[i];
		probe_err[1] = errs[i];
		probe_err[2] = 0;
		g = decide_k(NULL, "6.1.0");
		CHECK(strcmp(probe_log, "CNG") == 0);
		CHECK(strcmp(g.kalg, KALG_GENERIC) == 0);
		CHECK(strstr(g.ghash, "table GHASH: slow on this CPU; load ghash-ce") != NULL);
		probe_err[2] = errs[i];
		g = decide_k(NULL, "6.1.0");
		CHECK(strcmp(probe_log, "CNGL") == 0);
		CHECK(strcmp(g.kalg, KALG_LIB) == 0);
	}
	probe_err[0] = EAFNOSUPPORT;
	probe_err[1] = ENOENT;
	probe_err[2] = EINVAL;
	probe_err[3] = EPERM;
	g = decide_k(NULL, "6.1.0");
	CHECK_EQ_INT(g.enabled, 0);
	CHECK(strcmp(probe_log, "CNGL") == 0);
	HAS(g, "kernel: AF_ALG bind ctr(aes-eip93): EAFNOSUPPORT");
	HAS(g, "; kernel: AF_ALG bind gcm_base(ctr(aes-eip93),ghash-neon): ENOENT");
	HAS(g, "; kernel: AF_ALG bind gcm_base(ctr(aes-eip93),ghash-generic): EINVAL");
	HAS(g, "; kernel: AF_ALG bind gcm_base(ctr(aes-eip93),ghash-lib): EPERM");

	/* A libcrypto whose GCM128 fails the composition's self-test: never probed, named. */
	memset(probe_err, 0, sizeof(probe_err));
	ctr_unusable = 1;
	g = decide_k(NULL, "6.1.0");
	CHECK(strcmp(probe_log, "N") == 0);
	CHECK(strcmp(g.kalg, KALG_NEON) == 0);
	probe_err[1] = probe_err[2] = probe_err[3] = ENOENT;
	g = decide_k(NULL, "6.1.0");
	CHECK_EQ_INT(g.enabled, 0);
	HAS(g, "kernel: AF_ALG bind ctr(aes-eip93): ENOTSUP");
	HAS(g, "failed the composition's self-test");
	ctr_unusable = 0;

	/* kernel-algorithm: that one only. */
	char err[256];

	CHECK_EQ_INT(eip93_config_set(&cfg, "kernel-algorithm", KALG_LIB, err, sizeof(err)), 0);
	memset(probe_err, 0, sizeof(probe_err));
	g = decide_k(NULL, "6.1.0");
	CHECK(strcmp(probe_log, "L") == 0);
	CHECK(strcmp(g.kalg, KALG_LIB) == 0);
	probe_err[3] = ENOENT;
	g = decide_k(NULL, "6.1.0");
	CHECK_EQ_INT(g.enabled, 0);
	HAS(g, "(kernel-algorithm = gcm_base(ctr(aes-eip93),ghash-lib) in config)");
	CHECK_EQ_INT(eip93_config_set(&cfg, "kernel-algorithm", KALG_CTR_ONLY, err, sizeof(err)),
		     0);
	memset(probe_err, 0, sizeof(probe_err));
	g = decide_k(NULL, "6.1.0");
	CHECK(strcmp(probe_log, "C") == 0);
	CHECK(strcmp(g.kalg, KALG_CTR_ONLY) == 0);
}

void calib_loaded(struct eip93_calib_load *cl, const char *kalg, int engine)
{
	memset(cl, 0, sizeof(*cl));
	cl->state = EIP93_CALIB_LOADED;
	strcpy(cl->path, "/var/lib/eip93/calibration");
	strcpy(cl->cal.date, "2026-12-01T10:00:00Z");
	strcpy(cl->cal.kernel, "6.1.0");
	strcpy(cl->cal.openssl, "3.0.17");
	strcpy(cl->cal.provider, "0.1.0");
	strcpy(cl->cal.composition, kalg);
	cl->cal.engine = engine;
	cl->cal.min_size = engine ? 8192 : 0;
	cl->cal.max_size = engine ? 65536 : 0;
	strcpy(cl->cal.reason, "16384 B: engine 1.00 MB/s, software 9.00 MB/s");
}

static void test_calibration(void)
{
	struct eip93_calib_load cl;
	struct eip93_gate g;
	char err[256];

	eip93_config_defaults(&cfg);
	memset(probe_err, 0, sizeof(probe_err));

	/* Current, engine: its composition first, its window. */
	calib_loaded(&cl, KALG_GENERIC, 1);
	g = decide_k(&cl, "6.1.0");
	CHECK(strcmp(probe_log, "G") == 0);
	CHECK(strcmp(g.kalg, KALG_GENERIC) == 0);
	CHECK_EQ_INT(g.min_size, 8192);
	CHECK_EQ_INT(g.max_size, 65536);
	CHECK_EQ_INT(g.window_calibrated, 1);
	CHECK(strstr(g.calib, "calibrated 2026-12-01T10:00:00Z on 6.1.0") != NULL);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_APPLIED);
	/* A file without the mode lines (older): AES-CTR/CBC on the config's window. */
	CHECK(g.skc[EIP93_CALIB_CTR].from == EIP93_WINDOW_CONFIG &&
	      g.skc[EIP93_CALIB_CTR].min_size == 4096 && g.skc[EIP93_CALIB_CTR].max_size == 32768);
	CHECK(g.skc[EIP93_CALIB_CBC].from == EIP93_WINDOW_CONFIG);
	/* With them: each mode its own; "off" that mode alone. */
	cl.cal.mode[EIP93_CALIB_CTR] = (struct eip93_calib_window){ 1, 1, 1024, 49152 };
	cl.cal.mode[EIP93_CALIB_CBC] = (struct eip93_calib_window){ 1, 0, 0, 0 };
	g = decide_k(&cl, "6.1.0");
	CHECK_EQ_INT(g.min_size, 8192);
	CHECK(g.skc[EIP93_CALIB_CTR].from == EIP93_WINDOW_CALIB &&
	      g.skc[EIP93_CALIB_CTR].min_size == 1024 && g.skc[EIP93_CALIB_CTR].max_size == 49152);
	CHECK(g.skc[EIP93_CALIB_CBC].from == EIP93_WINDOW_OFF &&
	      g.skc[EIP93_CALIB_CBC].min_size > g.skc[EIP93_CALIB_CBC].max_size);
	/* Stale: the mode lines are ignored with the rest. */
	g = decide_k(&cl, "6.12.0");
	CHECK(g.skc[EIP93_CALIB_CTR].from == EIP93_WINDOW_CONFIG &&
	      g.skc[EIP93_CALIB_CBC].from == EIP93_WINDOW_CONFIG &&
	      g.skc[EIP93_CALIB_CBC].max_size == 32768);
	/* min-size/max-size in the config win for every mode. */
	CHECK_EQ_INT(eip93_config_set(&cfg, "max-size", "20000", err, sizeof(err)), 0);
	g = decide_k(&cl, "6.1.0");
	CHECK(g.skc[EIP93_CALIB_CBC].from == EIP93_WINDOW_CONFIG &&
	      g.skc[EIP93_CALIB_CBC].max_size == 20000 &&
	      g.skc[EIP93_CALIB_CTR].from == EIP93_WINDOW_CONFIG);
	eip93_config_defaults(&cfg);

	/* Current, off: engine off, with the measured reason. */
	calib_loaded(&cl, KALG_GENERIC, 0);
	g = decide_k(&cl, "6.1.0");
	CHECK_EQ_INT(g.enabled, 0);
	HAS(g, "disabled: calibration (2026-12-01T10:00:00Z");
	HAS(g, "engine 1.00 MB/s, software 9.00 MB/s");
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_OFF);

	/* AES-GCM off, AES-CBC winning: open for AES-CBC, AES-GCM's window empty. */
	calib_loaded(&cl, KALG_GENERIC, 0);
	cl.cal.mode[EIP93_CALIB_CBC] = (struct eip93_calib_window){ 1, 1, 16384, 33024 };
	cl.cal.mode[EIP93_CALIB_CTR] = (struct eip93_calib_window){ 1, 0, 0, 0 };
	g = decide_k(&cl, "6.1.0");
	CHECK_EQ_INT(g.enabled, 1);
	CHECK(g.min_size > g.max_size);
	CHECK(g.skc[EIP93_CALIB_CBC].from == EIP93_WINDOW_CALIB &&
	      g.skc[EIP93_CALIB_CBC].min_size == 16384 && g.skc[EIP93_CALIB_CBC].max_size == 33024);
	CHECK(g.skc[EIP93_CALIB_CTR].from == EIP93_WINDOW_OFF);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_APPLIED);
	CHECK(strstr(g.calib, "AES-GCM off (the engine does not beat software: 16384 B") != NULL);
	{
		struct eip93_route_limits lim[EIP93_EMODES];
		char t[512] = "enabled";

		eip93_gate_limits(&g, lim);
		CHECK(lim[EIP93_EMODE_AEAD].min_size > lim[EIP93_EMODE_AEAD].max_size);
		CHECK(lim[EIP93_EMODE_CBC].min_size == 16384 &&
		      lim[EIP93_EMODE_CBC].max_size == 33024);
		CHECK(lim[EIP93_EMODE_CTR].min_size > lim[EIP93_EMODE_CTR].max_size);
		CHECK(eip93_gate_window_text(&g, 1, 1, t, sizeof(t)) == strlen(t));
		CHECK(strcmp(t, "enabled; AES-GCM off (calibration: software); AES-CTR off "
				"(calibration: software); AES-CBC window 16384-33024 bytes "
				"(calibration)") == 0);
	}
	/* ... but not when min-size/max-size are in the config: off, as before. */
	CHECK_EQ_INT(eip93_config_set(&cfg, "max-size", "20000", err, sizeof(err)), 0);
	g = decide_k(&cl, "6.1.0");
	CHECK_EQ_INT(g.enabled, 0);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_OFF);
	eip93_config_defaults(&cfg);
	/* Every mode off too: off. */
	cl.cal.mode[EIP93_CALIB_CBC].engine = 0;
	g = decide_k(&cl, "6.1.0");
	CHECK_EQ_INT(g.enabled, 0);
	HAS(g, "disabled: calibration (2026-12-01T10:00:00Z");

	/* Another kernel release: stale, ignored, defaults, order. */
	calib_loaded(&cl, KALG_GENERIC, 0);
	g = decide_k(&cl, "6.12.0");
	CHECK_EQ_INT(g.enabled, 1);
	CHECK(strcmp(probe_log, "C") == 0);
	CHECK_EQ_INT(g.min_size, 4096);
	CHECK_EQ_INT(g.max_size, 32768);
	CHECK_EQ_INT(g.window_calibrated, 0);
	CHECK(strncmp(g.calib, "stale: ", 7) == 0);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_STALE);
	CHECK(strstr(g.calib, "measured on kernel 6.1.0, this is 6.12.0") != NULL);

	/* Its composition no longer binds: stale, the next in order. */
	calib_loaded(&cl, KALG_NEON, 1);
	probe_err[1] = ENOENT;
	g = decide_k(&cl, "6.1.0");
	CHECK(strcmp(probe_log, "NC") == 0);
	CHECK(strcmp(g.kalg, KALG_CTR_ONLY) == 0);
	CHECK_EQ_INT(g.min_size, 4096);
	CHECK(strstr(g.calib, "no longer binds (ENOENT") != NULL);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_STALE);
	CHECK_EQ_INT(g.window_calibrated, 0);
	probe_err[1] = 0;

	/* OpenSSL / provider versions. */
	calib_loaded(&cl, KALG_GENERIC, 1);
	strcpy(cl.cal.openssl, "3.5.7");
	g = decide_k(&cl, "6.1.0");
	CHECK(strstr(g.calib, "stale: ") != NULL && strstr(g.calib, "OpenSSL 3.5.7") != NULL);
	calib_loaded(&cl, KALG_GENERIC, 1);
	strcpy(cl.cal.provider, "0.0.9");
	g = decide_k(&cl, "6.1.0");
	CHECK(strstr(g.calib, "stale: ") != NULL && strstr(g.calib, "eip93 0.0.9") != NULL);

	/* Explicit min-size/max-size win over the calibration's window. */
	calib_loaded(&cl, KALG_GENERIC, 1);
	CHECK_EQ_INT(eip93_config_set(&cfg, "max-size", "20000", err, sizeof(err)), 0);
	g = decide_k(&cl, "6.1.0");
	CHECK_EQ_INT(g.max_size, 20000);
	CHECK(strstr(g.calib, "take precedence") != NULL);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_CONFIG);
	eip93_config_defaults(&cfg);

	/* kernel-algorithm naming another composition makes it foreign. */
	CHECK_EQ_INT(eip93_config_set(&cfg, "kernel-algorithm", KALG_NEON, err, sizeof(err)), 0);
	g = decide_k(&cl, "6.1.0");
	CHECK(strcmp(g.kalg, KALG_NEON) == 0);
	CHECK(strstr(g.calib, "stale: ") != NULL && strstr(g.calib, "kernel-algorithm") != NULL);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_STALE);
	eip93_config_defaults(&cfg);

	/* Absent, none, corrupt. */
	memset(&cl, 0, sizeof(cl));
	cl.state = EIP93_CALIB_ABSENT;
	strcpy(cl.path, "/var/lib/eip93/calibration");
	g = decide_k(&cl, "6.1.0");
	CHECK_EQ_INT(g.enabled, 1);
	CHECK(strncmp(g.calib, "uncalibrated", 12) == 0);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_ABSENT);
	g = decide_k(NULL, "6.1.0");
	CHECK(strstr(g.calib, "calibration-file = none") != NULL);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_UNUSED);
	cl.state = EIP93_CALIB_INVALID;
	strcpy(cl.error, "corrupt: line 3: unknown key \"foo\"");
	g = decide_k(&cl, "6.1.0");
	CHECK_EQ_INT(g.enabled, 0);
	CHECK(probe_log[0] == '\0');
	HAS(g, "calibration file /var/lib/eip93/calibration is invalid (corrupt: line 3");
	HAS(g, "engine kept off");
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_INVALID);
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
	test_composition_order();
	test_calibration();
	{
		int n = 0, failed = 0;

		test_gate_backends(&n, &failed); /* gate_backends.c, its own counters */
		check_count += n;
		check_failures += failed;
	}
	{
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "cleanup of %s failed\n", dir);
	}
	return check_done("test_gate");
}
