// SPDX-License-Identifier: Apache-2.0
/*
 * provider/gate.c over its engine rows: engine-backend's order over AF_ALG
 * and /dev/crypto, the texts naming the row, and a calibration measured on
 * either (part of test_gate; the fixture is test_gate.c's).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gate_fixture.h"

static void all_fail(int *errs, int e)
{
	for (int i = 0; i < EIP93_NKALG; i++)
		errs[i] = e;
}

/* engine-backend: the order over both backends, the texts naming the backend. */
static void test_backends(void)
{
	struct eip93_gate g;
	char err[256];

	eip93_config_defaults(&cfg);
	memset(probe_err, 0, sizeof(probe_err));
	memset(cdev_err, 0, sizeof(cdev_err));
	memset(cdev_drv, 0, sizeof(cdev_drv));
	use_cdev = 1;

	/* auto: AF_ALG first; when it binds, /dev/crypto is never opened. */
	g = decide_k(NULL, "6.1.0");
	CHECK(strcmp(probe_log, "C") == 0);
	CHECK_EQ_INT(g.backend, EIP93_BACKEND_AFALG);
	CHECK(strcmp(g.status, "enabled: ctr(aes-eip93)") == 0);
	CHECK(strcmp(eip93_gate_backend_name(&g), "af_alg") == 0);

	/* auto: every composition on AF_ALG, then on /dev/crypto, the first that binds. */
	all_fail(probe_err, ENOENT);
	g = decide_k(NULL, "7.2.13");
	CHECK(strcmp(probe_log, "CNGLc") == 0);
	CHECK_EQ_INT(g.enabled, 1);
	CHECK_EQ_INT(g.backend, EIP93_BACKEND_CRYPTODEV);
	CHECK(strcmp(g.kalg, KALG_CTR_ONLY) == 0);
	CHECK(strcmp(g.status, "enabled: ctr(aes-eip93) via /dev/crypto") == 0);
	CHECK(strncmp(g.status, "enabled: ", 9) == 0);
	CHECK(strstr(g.ghash, "libcrypto") != NULL);
	CHECK(strcmp(eip93_gate_backend_name(&g), "cryptodev") == 0);
	cdev_err[0] = ENODEV;
	cdev_drv[0] = "ctr-aes-aesni";
	g = decide_k(NULL, "7.2.13");
	CHECK(strcmp(probe_log, "CNGLcn") == 0);
	HAS(g, "enabled: gcm_base(ctr(aes-eip93),ghash-neon) via /dev/crypto");

	/* Nothing binds anywhere: AF_ALG's tries and why, then /dev/crypto's. */
	cdev_err[1] = cdev_err[2] = cdev_err[3] = ENODEV;
	cdev_drv[1] = cdev_drv[2] = cdev_drv[3] = "gcm-aes-lib";
	g = decide_k(NULL, "7.2.13");
	CHECK_EQ_INT(g.enabled, 0);
	CHECK_EQ_INT(g.backend, 0);
	CHECK(strcmp(eip93_gate_backend_name(&g), "") == 0);
	CHECK(strcmp(probe_log, "CNGLcngl") == 0);
	STARTS(g, "disabled: kernel: AF_ALG bind ctr(aes-eip93): ENOENT");
	HAS(g, "; kernel: AF_ALG bind gcm_base(ctr(aes-eip93),ghash-lib): ENOENT");
	HAS(g, "; kernel: /dev/crypto session ctr(aes-eip93): served by ctr-aes-aesni, not the "
	       "engine");
	HAS(g, "; kernel: /dev/crypto session gcm_base(ctr(aes-eip93),ghash-generic): served by "
	       "gcm-aes-lib, not the engine");
	HAS(g, " - /dev/crypto: the kernel serves these with another driver");
	CHECK(strstr(g.status, "kernel: AF_ALG") < strstr(g.status, "/dev/crypto"));
	/* A driver named beside another error is not "served by": the probe's own answer counts. */
	cdev_err[0] = EIO;
	g = decide_k(NULL, "7.2.13");
	HAS(g, "; kernel: /dev/crypto session ctr(aes-eip93): errno 5");
	CHECK(strstr(g.status, "served by ctr-aes-aesni") == NULL);

	/* No /dev/crypto: one line for the device, the module to load, no more opens. */
	all_fail(cdev_err, ENOENT);
	memset(cdev_drv, 0, sizeof(cdev_drv));
	g = decide_k(NULL, "7.2.13");
	CHECK(strcmp(probe_log, "CNGLc") == 0);
	HAS(g, "; kernel: /dev/crypto: ENOENT 2");
	HAS(g, "modprobe cryptodev");
	CHECK(strstr(g.status, "/dev/crypto session") == NULL);
	all_fail(cdev_err, EACCES);
	g = decide_k(NULL, "7.2.13");
	CHECK(strcmp(probe_log, "CNGLc") == 0);
	HAS(g, "kernel: /dev/crypto: EACCES 13");
	HAS(g, "not readable and writable by this process's user");

	/* engine-backend = cryptodev: /dev/crypto only. */
	memset(cdev_err, 0, sizeof(cdev_err));
	CHECK_EQ_INT(eip93_config_set(&cfg, "engine-backend", "cryptodev", err, sizeof(err)), 0);
	g = decide_k(NULL, "7.2.13");
	CHECK(strcmp(probe_log, "c") == 0);
	CHECK_EQ_INT(g.backend, EIP93_BACKEND_CRYPTODEV);
	all_fail(cdev_err, EINVAL);
	g = decide_k(NULL, "7.2.13");
	CHECK(strcmp(probe_log, "cngl") == 0);
	STARTS(g, "disabled: kernel: /dev/crypto session ctr(aes-eip93): EINVAL");
	CHECK(strstr(g.status, "AF_ALG") == NULL);
	HAS(g, " - /dev/crypto: no composition over ctr(aes-eip93) opens a session");
	/* ... with kernel-algorithm: that one, on /dev/crypto. */
	memset(cdev_err, 0, sizeof(cdev_err));
	CHECK_EQ_INT(eip93_config_set(&cfg, "kernel-algorithm", KALG_GENERIC, err, sizeof(err)), 0);
	g = decide_k(NULL, "7.2.13");
	CHECK(strcmp(probe_log, "g") == 0);
	HAS(g, "enabled: gcm_base(ctr(aes-eip93),ghash-generic) via /dev/crypto");
	/* A provider without the /dev/crypto backend says so. */
	use_cdev = 0;
	g = decide_k(NULL, "7.2.13");
	CHECK_EQ_INT(g.enabled, 0);
	CHECK(probe_log[0] == '\0');
	HAS(g, "engine-backend = cryptodev, but this build has no /dev/crypto backend");
	use_cdev = 1;

	/* engine-backend = afalg: AF_ALG only, the texts as ever. */
	eip93_config_defaults(&cfg);
	CHECK_EQ_INT(eip93_config_set(&cfg, "engine-backend", "afalg", err, sizeof(err)), 0);
	g = decide_k(NULL, "7.2.13");
	CHECK(strcmp(probe_log, "CNGL") == 0);
	CHECK(strstr(g.status, "/dev/crypto") == NULL);
	HAS(g, "AF_ALG refuses hardware drivers from Linux 7.2");

	/* The test builds' force (EIP93_TEST_ENGINE) wins over engine-backend. */
	force_backend = EIP93_BACKEND_CRYPTODEV;
	g = decide_k(NULL, "7.2.13");
	CHECK(strcmp(probe_log, "c") == 0);
	CHECK_EQ_INT(g.backend, EIP93_BACKEND_CRYPTODEV);
	force_backend = EIP93_BACKEND_AFALG;
	eip93_config_defaults(&cfg);
	CHECK_EQ_INT(eip93_config_set(&cfg, "engine-backend", "cryptodev", err, sizeof(err)), 0);
	g = decide_k(NULL, "7.2.13");
	CHECK(strcmp(probe_log, "CNGL") == 0);
	CHECK(strstr(g.status, "/dev/crypto") == NULL);
	force_backend = EIP93_BACKEND_AUTO;

	/* kernel-algorithm with auto: that composition on each backend. */
	eip93_config_defaults(&cfg);
	CHECK_EQ_INT(eip93_config_set(&cfg, "kernel-algorithm", KALG_LIB, err, sizeof(err)), 0);
	all_fail(cdev_err, EINVAL);
	g = decide_k(NULL, "7.2.13");
	CHECK(strcmp(probe_log, "Ll") == 0);
	HAS(g, "kernel: AF_ALG bind gcm_base(ctr(aes-eip93),ghash-lib): ENOENT");
	HAS(g, "; kernel: /dev/crypto session gcm_base(ctr(aes-eip93),ghash-lib): EINVAL");
	HAS(g, "(kernel-algorithm = gcm_base(ctr(aes-eip93),ghash-lib) in config)");
	use_cdev = 0;
	memset(probe_err, 0, sizeof(probe_err));
	memset(cdev_err, 0, sizeof(cdev_err));
	eip93_config_defaults(&cfg);
}

/* The calibration's winner names its backend; auto tries it first. */
static void test_backend_calibration(void)
{
	struct eip93_calib_load cl;
	struct eip93_gate g;
	char err[256];

	eip93_config_defaults(&cfg);
	memset(probe_err, 0, sizeof(probe_err));
	memset(cdev_err, 0, sizeof(cdev_err));
	use_cdev = 1;

	/* Measured /dev/crypto faster: its composition there, first, even though AF_ALG binds. */
	calib_loaded(&cl, KALG_GENERIC, 1);
	cl.cal.backend = EIP93_BACKEND_CRYPTODEV;
	g = decide_k(&cl, "6.1.0");
	CHECK(strcmp(probe_log, "g") == 0);
	CHECK_EQ_INT(g.backend, EIP93_BACKEND_CRYPTODEV);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_APPLIED);
	CHECK_EQ_INT(g.min_size, 8192);

	/* An old file (no backend key, 0 here) and an AF_ALG winner: AF_ALG's composition first. */
	cl.cal.backend = 0;
	g = decide_k(&cl, "6.1.0");
	CHECK(strcmp(probe_log, "G") == 0);
	CHECK_EQ_INT(g.backend, EIP93_BACKEND_AFALG);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_APPLIED);

	/* The winner no longer binds: stale, then the order (AF_ALG, then /dev/crypto). */
	cl.cal.backend = EIP93_BACKEND_CRYPTODEV;
	all_fail(probe_err, ENOENT);
	cdev_err[2] = EINVAL;
	g = decide_k(&cl, "6.1.0");
	CHECK(strcmp(probe_log, "gCNGLc") == 0);
	CHECK_EQ_INT(g.backend, EIP93_BACKEND_CRYPTODEV);
	CHECK(strcmp(g.kalg, KALG_CTR_ONLY) == 0);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_STALE);
	CHECK(strstr(g.calib, "via /dev/crypto no longer binds (EINVAL") != NULL);
	memset(probe_err, 0, sizeof(probe_err));
	memset(cdev_err, 0, sizeof(cdev_err));

	/* engine-backend forcing another backend than the measured one: stale. */
	CHECK_EQ_INT(eip93_config_set(&cfg, "engine-backend", "afalg", err, sizeof(err)), 0);
	g = decide_k(&cl, "6.1.0");
	CHECK(strcmp(probe_log, "C") == 0);
	CHECK_EQ_INT(g.calib_state, EIP93_GATE_CALIB_STALE);
	CHECK(strstr(g.calib, "measured on /dev/crypto, engine-backend = afalg in config") != NULL);
	cl.cal.backend = EIP93_BACKEND_AFALG;
	CHECK_EQ_INT(eip93_config_set(&cfg, "engine-backend", "cryptodev", err, sizeof(err)), 0);
	g = decide_k(&cl, "6.1.0");
	CHECK(strcmp(probe_log, "c") == 0);
	CHECK(strstr(g.calib, "measured on AF_ALG, engine-backend = cryptodev in config") != NULL);

	/* A /dev/crypto winner in a provider without that backend: stale. */
	eip93_config_defaults(&cfg);
	use_cdev = 0;
	cl.cal.backend = EIP93_BACKEND_CRYPTODEV;
	g = decide_k(&cl, "6.1.0");
	CHECK(strcmp(probe_log, "C") == 0);
	CHECK(strstr(g.calib, "which this provider cannot use") != NULL);
}

/* The product's engine rows (engine/engine.c): auto's order, their words, and the
 * rows the cases above script are those with only the probe replaced. */
static void test_product_rows(void)
{
	static const char *const names[] = { "afalg", "cryptodev" };
	static const char *const ops[] = { "af_alg", "cryptodev" };
	static const char *const vias[] = { "", " via /dev/crypto" };

	CHECK_EQ_INT(EIP93_NENGINES, 2);
	for (int i = 0; i < EIP93_NENGINES; i++) {
		const struct eip93_engine_row *r = &eip93_engine_rows[i], *t = &gate_test_rows[i];

		CHECK_EQ_INT(r->id, i + 1);
		CHECK(strcmp(r->name, names[i]) == 0);
		CHECK(strcmp(r->ops->name, ops[i]) == 0);
		CHECK(strcmp(r->via, vias[i]) == 0);
		CHECK(strcmp(eip93_engine_word(r->id, EIP93_WORD_NAME), r->name) == 0);
		CHECK(strcmp(eip93_engine_word(r->id, EIP93_WORD_ROAD), r->road) == 0);
		CHECK(strcmp(eip93_engine_word(r->id, EIP93_WORD_FILE), r->ops->name) == 0);
		CHECK_EQ_INT(t->id, r->id);
		CHECK(strcmp(t->name, r->name) == 0 && strcmp(t->road, r->road) == 0);
		CHECK(strcmp(t->via, r->via) == 0 && strcmp(t->ops->name, r->ops->name) == 0);
		CHECK(t->dead == r->dead && t->tried == r->tried && t->why == r->why);
	}
	CHECK(eip93_engine_rows[0].probe == eip93_afalg_probe);
	CHECK(eip93_engine_rows[1].probe == eip93_cryptodev_probe);
	CHECK(eip93_engine_word(EIP93_BACKEND_END, EIP93_WORD_NAME) == NULL);
}

/* Every composition a SoC row lists is a kernel-algorithm value, and every value some row's. */
static void test_soc_names(void)
{
	for (int k = 0; k < EIP93_NKALG; k++) {
		int listed = 0;

		for (size_t s = 0; s < eip93_nsocs; s++)
			listed |= eip93_soc_comp(eip93_socs[s], eip93_kalg_names[k]) != NULL;
		CHECK(listed);
	}
	for (size_t s = 0; s < eip93_nsocs; s++) {
		CHECK(eip93_socs[s]->ncomps <= EIP93_SOC_MAX_COMPS);
		for (size_t i = 0; i < eip93_socs[s]->ncomps; i++)
			CHECK(eip93_kalg_index(eip93_socs[s]->comps[i].kalg) >= 0);
	}
}

void test_gate_backends(int *n, int *failed)
{
	test_product_rows();
	test_soc_names();
	test_backends();
	test_backend_calibration();
	*n += check_count;
	*failed += check_failures;
}
