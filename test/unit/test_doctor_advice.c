// SPDX-License-Identifier: Apache-2.0
/*
 * Host unit test of eip93-doctor's recommendation, its TLS 1.2 suite advice,
 * traffic shapes, kTLS parsing and backend advice (tools/advice.c,
 * tools/advice_tls12.c, tools/ktls.c, tools/backend_advice.c): synthetic
 * calibrations, /proc/crypto texts and kernel facts in, verdicts out.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../tools/advice.h"
#include "../../tools/backend_advice.h"
#include "../../tools/ktls.h"
#include "check.h"

#define G "gcm_base(ctr(aes-eip93),ghash-generic)"
#define N "gcm_base(ctr(aes-eip93),ghash-neon)"

/* A calibration's speed lines: software AES @sw, ChaCha @ch, engine @eng (same at every size). */
static void speeds(char *buf, size_t len, double sw, double ch, double eng, double eng_big)
{
	size_t n = 0;

	n += (size_t)snprintf(buf + n, len - n, "format = 1\n# table junk 16384 128 enc\n");
	for (int s = 0; s < EIP93_CALIB_NSIZES; s++) {
		size_t b = eip93_calib_sizes[s];
		double e = b > 32768 ? eng_big : eng;

		n += (size_t)snprintf(buf + n, len - n,
				      "# speed %zu aes-128-gcm:software %.3f 20.1\n"
				      "# speed %zu aes-256-gcm:software %.3f 25.0\n",
				      b, sw, b, sw * 0.8);
		if (ch > 0)
			n += (size_t)snprintf(buf + n, len - n,
					      "# speed %zu chacha20-poly1305:software %.3f 5.5\n",
					      b, ch);
		n += (size_t)snprintf(buf + n, len - n,
				      "# speed %zu aes-128-gcm:" N " %.3f 9.0\n"
				      "# speed %zu aes-256-gcm:" N " %.3f 9.5\n",
				      b, e, b, e * 0.95);
	}
}

static void test_parse(void)
{
	static struct adv_speeds s;
	char buf[16384];
	const struct adv_speed *v;

	speeds(buf, sizeof(buf), 44.0, 190.0, 100.0, 100.0);
	CHECK_EQ_INT(adv_parse_speeds(buf, &s), EIP93_CALIB_NSIZES * 5);
	v = adv_find(&s, 16384, "chacha20-poly1305", "software");
	CHECK(v != NULL && v->mbs > 189.9 && v->mbs < 190.1 && v->cpu > 5.4 && v->cpu < 5.6);
	v = adv_find(&s, 16384, "aes-256-gcm", N);
	CHECK(v != NULL && v->mbs > 94.9 && v->mbs < 95.1);
	CHECK(adv_find(&s, 16384, "aes-128-gcm", G) == NULL);
	CHECK(adv_find(&s, 16385, "aes-128-gcm", "software") == NULL);
	CHECK(adv_find(&s, 16384, "aes-128", "software") == NULL); /* a prefix is not a cipher */
	/* Malformed speed lines are skipped, not guessed. */
	CHECK_EQ_INT(adv_parse_speeds(
			     "# speed 16384 nocolon 1 2\n# speed x y\n# speed 1 a:b -1 2\n", &s),
		     0);
}

static void test_recommend(void)
{
	static struct adv_speeds s;
	struct adv_calib c = { 1, 1, N, 4096, 32768, { 0, 0, 0, 0, NULL } };
	struct adv_reco r;
	char buf[16384];

	/* No calibration: no advice, and how to get one. */
	adv_recommend(NULL, &c, "uncalibrated (no /var/lib/eip93/calibration)", &r);
	CHECK(!r.measured);
	CHECK(strstr(r.text, "run eip93-doctor calibrate") != NULL);
	CHECK(strstr(r.text, "uncalibrated (no /var/lib/eip93/calibration)") != NULL);
	CHECK(r.both[0] == '\0');

	/* The published A53 shape: ChaCha ~190, software AES 44, engine hybrid 100: ChaCha. */
	speeds(buf, sizeof(buf), 44.0, 190.0, 100.0, 100.0);
	adv_parse_speeds(buf, &s);
	adv_recommend(&s, &c, NULL, &r);
	CHECK(r.measured);
	CHECK(r.chacha_wins);
	CHECK(r.aes[0].engine && r.aes[1].engine); /* 16384 is inside 4096-32768 */
	CHECK(r.aes[0].mbs > 99.9 && r.aes[0].mbs < 100.1);
	CHECK(strstr(r.both, "prefer ChaCha20-Poly1305") != NULL);
	CHECK(strstr(r.both, "on the engine (eip93, " N ") 100.0 MB/s") != NULL);
	CHECK(strstr(r.aes_only, "eip93 keeps serving it") != NULL);

	/* The engine beats ChaCha: keep AES-GCM first. */
	speeds(buf, sizeof(buf), 44.0, 190.0, 400.0, 400.0);
	adv_parse_speeds(buf, &s);
	adv_recommend(&s, &c, NULL, &r);
	CHECK(r.measured && !r.chacha_wins);
	CHECK(strstr(r.both, "keep AES-GCM (AES-128-GCM) first") != NULL);

	/* The engine is off in the calibration: AES is the software row, ChaCha wins. */
	c.engine = 0;
	speeds(buf, sizeof(buf), 44.0, 190.0, 400.0, 400.0);
	adv_parse_speeds(buf, &s);
	adv_recommend(&s, &c, NULL, &r);
	CHECK(r.measured && r.chacha_wins && !r.aes[0].engine);
	CHECK(strstr(r.both, "AES-128-GCM in software (the default provider) 44.0 MB/s") != NULL);
	c.engine = 1;

	/* Within 5%: no winner, the CPU cost decides the note. */
	speeds(buf, sizeof(buf), 44.0, 102.0, 100.0, 100.0);
	adv_parse_speeds(buf, &s);
	adv_recommend(&s, &c, NULL, &r);
	CHECK(r.measured && !r.chacha_wins);
	CHECK(strstr(r.both, "within 5%") != NULL);
	CHECK(strstr(r.both, "ChaCha20-Poly1305 uses less CPU") != NULL); /* 5.5 < 9.0 ns/B */

	/* A calibration written before the ChaCha row: no advice, calibrate again. */
	speeds(buf, sizeof(buf), 44.0, 0, 100.0, 100.0);
	adv_parse_speeds(buf, &s);
	adv_recommend(&s, &c, NULL, &r);
	CHECK(!r.measured);
	CHECK(strstr(r.text, "no ChaCha20-Poly1305 row") != NULL);
}

/* @buf plus the TLS 1.2 CBC record's speed lines: software @sw, the engine @eng (0: none). */
static void tls12_lines(char *buf, size_t len, double sw, double eng)
{
	size_t n = strlen(buf);

	n += (size_t)snprintf(buf + n, len - n,
			      "# speed 16384 aes-128-cbc-hmac-sha256:software %.3f 30.5\n", sw);
	if (eng > 0)
		snprintf(buf + n, len - n,
			 "# speed 16384 aes-128-cbc-hmac-sha256:cbc(aes-eip93) %.3f 12.5\n", eng);
}

/*
 * Which TLS 1.2 suites: AES-128-CBC-SHA256 as eip93 serves it (the engine
 * where the AES-CBC window holds a full record's 16432 bytes) against
 * AES-128-GCM as eip93 serves it and ChaCha20-Poly1305.
 */
static void test_tls12(void)
{
	static struct adv_speeds s;
	struct adv_calib c = { 1, 1, N, 4096, 32768, { 1, 1, 4096, 16640, "cbc(aes-eip93)" } };
	struct adv_reco r;
	char buf[16384];

	/* The published shape: CBC+HMAC at about two thirds of AES-GCM; ChaCha fastest. */
	speeds(buf, sizeof(buf), 44.0, 190.0, 100.0, 100.0);
	tls12_lines(buf, sizeof(buf), 25.0, 66.0);
	adv_parse_speeds(buf, &s);
	adv_recommend(&s, &c, NULL, &r);
	CHECK(r.measured && r.tls12_measured && r.cbc_engine && !r.cbc_wins);
	CHECK(r.cbc_mbs > 65.9 && r.cbc_mbs < 66.1);
	CHECK(strstr(r.tls12, "prefer ChaCha20-Poly1305 (ECDHE-*-CHACHA20-POLY1305) 190.0 MB/s "
			      "over AES-128-CBC-SHA256 (AES-CBC on the engine (eip93, "
			      "cbc(aes-eip93)) + HMAC-SHA256 in software) 66.0 MB/s") != NULL);
	CHECK(strstr(r.tls12, "reaches 35% of it") != NULL);
	CHECK(strstr(r.tls12, "AES-128-GCM (eip93 on the engine) 100.0 MB/s") != NULL);
	CHECK(strstr(r.cbc_only, "with AES-CBC in software it would be 25.0 MB/s") != NULL);
	CHECK(strstr(r.cbc_only, "AES-CBC window 4096-16640") != NULL);

	/* No ChaCha20 advantage: AES-128-GCM is the AEAD to prefer over the CBC suite. */
	speeds(buf, sizeof(buf), 44.0, 60.0, 100.0, 100.0);
	tls12_lines(buf, sizeof(buf), 25.0, 66.0);
	adv_parse_speeds(buf, &s);
	adv_recommend(&s, &c, NULL, &r);
	CHECK(strstr(r.tls12, "prefer AES-128-GCM (ECDHE-*-AES128-GCM-SHA256) 100.0 MB/s over "
			      "AES-128-CBC-SHA256") != NULL);
	CHECK(strstr(r.tls12, "reaches 66% of it") != NULL);

	/* A window that misses the full record (16432 bytes): the software CBC row. */
	c.cbc.max_size = 16384;
	adv_recommend(&s, &c, NULL, &r);
	CHECK(r.tls12_measured && !r.cbc_engine && r.cbc_mbs > 24.9 && r.cbc_mbs < 25.1);
	CHECK(strstr(r.tls12, "AES-CBC and HMAC-SHA256 in software) 25.0 MB/s") != NULL);
	CHECK(strstr(r.cbc_only, "outside the AES-CBC window") != NULL);
	c.cbc.max_size = 16640;
	/* AES-CBC calibrated off: software, and says why. */
	c.cbc.engine = 0;
	adv_recommend(&s, &c, NULL, &r);
	CHECK(!r.cbc_engine && strstr(r.cbc_only, "measured the engine slower") != NULL);
	c.cbc.engine = 1;

	/* CBC+HMAC faster than both AEADs: said so, and the AEADs still first, with why. */
	speeds(buf, sizeof(buf), 44.0, 60.0, 50.0, 50.0);
	tls12_lines(buf, sizeof(buf), 25.0, 80.0);
	adv_parse_speeds(buf, &s);
	adv_recommend(&s, &c, NULL, &r);
	CHECK(r.cbc_wins && r.cbc_engine);
	CHECK(strstr(r.tls12, "80.0 MB/s, 12.50 CPU ns/B beats AES-128-GCM") != NULL);
	CHECK(strstr(r.tls12, "keep the AEAD suites first") != NULL);
	CHECK(strstr(r.tls12, "encrypt-then-MAC") != NULL);

	/* Within 5% of the best AEAD: not a win. */
	speeds(buf, sizeof(buf), 44.0, 60.0, 50.0, 50.0);
	tls12_lines(buf, sizeof(buf), 25.0, 62.0);
	adv_parse_speeds(buf, &s);
	adv_recommend(&s, &c, NULL, &r);
	CHECK(!r.cbc_wins && strstr(r.tls12, "prefer ChaCha20-Poly1305") != NULL);

	/* A calibration from before the row: no TLS 1.2 figures, and what to run. */
	speeds(buf, sizeof(buf), 44.0, 190.0, 100.0, 100.0);
	adv_parse_speeds(buf, &s);
	adv_recommend(&s, &c, NULL, &r);
	CHECK(r.measured && !r.tls12_measured);
	CHECK(strstr(r.tls12, "no AES-128-CBC + HMAC-SHA256 row") != NULL);
	CHECK(strstr(r.tls12, "run eip93-doctor calibrate again") != NULL);
}

static void test_settings(void)
{
	const char *ng = adv_server_settings(0), *ha = adv_server_settings(1);
	const char *st = adv_server_settings(2), *cnf = adv_server_settings(3);

	/* ChaCha20 first in both orders, AES-GCM kept after it. */
	CHECK(strncmp(adv_ciphersuites, "TLS_CHACHA20_POLY1305_SHA256:", 29) == 0);
	CHECK(strstr(adv_ciphersuites, "TLS_AES_128_GCM_SHA256") != NULL);
	CHECK(strncmp(adv_cipherlist, "ECDHE-ECDSA-CHACHA20-POLY1305:", 30) == 0);
	CHECK(strstr(adv_cipherlist, "AES128-GCM") != NULL);
	CHECK(strstr(ng, "ssl_prefer_server_ciphers on;") != NULL);
	CHECK(strstr(ng, "ssl_conf_command Ciphersuites TLS_CHACHA20") != NULL);
	CHECK(strstr(ha, "ssl-default-bind-ciphersuites TLS_CHACHA20") != NULL);
	CHECK(strstr(ha, "prefer-client-ciphers") != NULL);
	CHECK(strstr(st, "options = CIPHER_SERVER_PREFERENCE") != NULL);
	CHECK(strstr(cnf, "Options = ServerPreference") != NULL);
	CHECK(strstr(cnf, "system_default = system_default_sect") != NULL);
	CHECK(strcmp(adv_server_settings(4), "") == 0);
}

static void test_shapes(void)
{
	static struct adv_speeds s;
	struct adv_calib c = { 1, 1, N, 4096, 32768, { 0, 0, 0, 0, NULL } };
	struct adv_shape sh[ADV_NSHAPES];
	char buf[16384];

	/* Engine wins everywhere but the window ends at 32768: OpenSSH's packets miss it. */
	speeds(buf, sizeof(buf), 44.0, 190.0, 100.0, 100.0);
	adv_parse_speeds(buf, &s);
	adv_shapes(4096, 32768, &s, &c, sh);
	CHECK(sh[0].inside && sh[1].inside);
	CHECK_EQ_INT(sh[1].bytes, 16385);
	CHECK(!sh[2].inside);
	CHECK_EQ_INT(sh[2].bytes, 32784);
	CHECK_EQ_INT(sh[2].suggest_max, 36864);
	CHECK(strstr(sh[2].advice, "max-size = 36864") != NULL);
	CHECK(strstr(sh[2].advice, "interpolated") == NULL); /* it won at 48 KiB too */

	/* It wins at 32 KiB but not at 48 KiB: still the advice, marked as interpolated. */
	speeds(buf, sizeof(buf), 44.0, 190.0, 100.0, 30.0);
	adv_parse_speeds(buf, &s);
	adv_shapes(4096, 32768, &s, &c, sh);
	CHECK(strstr(sh[2].advice, "max-size = 36864") != NULL);
	CHECK(strstr(sh[2].advice, "interpolated") != NULL);

	/* Software faster at 32 KiB: nothing to change. */
	speeds(buf, sizeof(buf), 44.0, 190.0, 40.0, 40.0);
	adv_parse_speeds(buf, &s);
	adv_shapes(4096, 32768, &s, &c, sh);
	CHECK(!sh[2].inside && strstr(sh[2].advice, "nothing to change") != NULL);

	/* A window ending at 16384 misses TLS 1.3's full records by one byte. */
	speeds(buf, sizeof(buf), 44.0, 190.0, 100.0, 100.0);
	adv_parse_speeds(buf, &s);
	adv_shapes(4096, 16384, &s, &c, sh);
	CHECK(sh[0].inside && !sh[1].inside);
	CHECK_EQ_INT(sh[1].suggest_max, 20480);
	CHECK(strstr(sh[1].advice, "max-size = 20480") != NULL);

	/* No calibration: says how to find out, with the default window. */
	c.present = 0;
	adv_shapes(4096, 32768, NULL, &c, sh);
	CHECK(!sh[2].inside && strstr(sh[2].advice, "run eip93-doctor calibrate") != NULL);
	CHECK(strstr(sh[2].advice, "max-size = 36864") != NULL);

	/* No window (engine off): software, no suggestion. */
	adv_shapes(0, 0, NULL, &c, sh);
	for (int i = 0; i < ADV_NSHAPES; i++)
		CHECK(!sh[i].inside && sh[i].suggest_max == 0);

	/* The window above the records (calibrated 32-64 KiB): below, software measured faster. */
	c.present = 1;
	adv_shapes(32768, 65536, &s, &c, sh);
	CHECK(!sh[0].inside && strstr(sh[0].advice, "below the window") != NULL);
	CHECK(sh[2].inside);
}

static void test_cover(void)
{
	const char *why = "x";

	CHECK_EQ_INT(adv_cover_shapes(32768, &why), 33024);
	CHECK(why != NULL && strstr(why, "OpenSSH") != NULL);
	CHECK_EQ_INT(adv_cover_shapes(16384, &why), 16640);
	CHECK(why != NULL && strstr(why, "TLS 1.3") != NULL);
	CHECK_EQ_INT(adv_cover_shapes(49152, &why), 49152);
	CHECK(why == NULL);
	CHECK_EQ_INT(adv_cover_shapes(65536, NULL), 65536);
	CHECK_EQ_INT(adv_cover_shapes(8192, NULL), 8192);
	/* 32784 - 32528 = 256: the bound is inclusive; one byte further is not covered. */
	CHECK_EQ_INT(adv_cover_shapes(32528, NULL), 32784);
	CHECK_EQ_INT(adv_cover_shapes(32527, NULL), 32527);
}

static void test_ktls_conf(void)
{
	struct ktls_setting k;

	CHECK_EQ_INT(ktls_scan_openssl_cnf("[system_default_sect]\nOptions = KTLS\n", &k), 1);
	CHECK_EQ_INT(k.line, 2);
	CHECK(strcmp(k.text, "Options = KTLS") == 0);
	CHECK_EQ_INT(ktls_scan_openssl_cnf("[s]\n  options=ServerPreference, ktls # on\n", &k), 1);
	CHECK_EQ_INT(
		ktls_scan_openssl_cnf("[s]\n# Options = KTLS\nOptions = ServerPreference\n", &k),
		0);
	CHECK_EQ_INT(ktls_scan_openssl_cnf("Options = KTLS\nOptions = -KTLS\n", &k), 0);
	CHECK_EQ_INT(ktls_scan_openssl_cnf("Options = KTLSX\nMyOptions = KTLS\n", &k), 0);
	CHECK_EQ_INT(ktls_scan_openssl_cnf("", &k), 0);

	CHECK_EQ_INT(ktls_scan_nginx(
			     "http {\n  ssl_conf_command Options KTLS;\n  sendfile on;\n}\n", &k),
		     1);
	CHECK_EQ_INT(k.line, 2);
	CHECK_EQ_INT(ktls_scan_nginx("  # ssl_conf_command Options KTLS;\n", &k), 0);
	CHECK_EQ_INT(ktls_scan_nginx("ssl_conf_command Ciphersuites KTLS;\n", &k), 0);
	CHECK_EQ_INT(ktls_scan_nginx("ssl_conf_command Options PrioritizeChaCha,KTLS;\n", &k), 1);

	CHECK_EQ_INT(ktls_scan_haproxy("frontend f\n  bind :443 ssl crt /x.pem ktls on\n", &k), 1);
	CHECK_EQ_INT(ktls_scan_haproxy("  bind :443 ssl crt /x.pem # ktls on\n", &k), 0);
	CHECK_EQ_INT(ktls_scan_haproxy("  bind :443 ssl ktls off\n", &k), 0);
}

/* /proc/crypto as 6.1 shows it with the simulated driver, and as 7.3 does. */
static const char crypto_61[] =
	"name         : gcm(aes)\ndriver       : gcm_base(ctr(aes-generic),ghash-generic)\n"
	"module       : gcm\npriority     : 100\nrefcnt       : 1\nselftest     : passed\n"
	"internal     : no\ntype         : aead\n\n"
	"name         : gcm(aes)\ndriver       : gcm_base(ctr(aes-eip93),ghash-generic)\n"
	"module       : gcm\npriority     : 800\ntype         : aead\n\n"
	"name         : gcm(aes)\ndriver       : internal-gcm\nmodule       : x\n"
	"priority     : 2000\ninternal     : yes\ntype         : aead\n\n"
	"name         : gcm(aes)\ndriver       : not-an-aead\nmodule       : x\n"
	"priority     : 3000\ntype         : skcipher\n\n"
	"name         : ctr(aes)\ndriver       : ctr(aes-eip93)\nmodule       : eip93_sim\n"
	"priority     : 1500\ntype         : skcipher\n\n"
	"name         : ctr(aes)\ndriver       : ctr(aes-generic)\nmodule       : ctr\n"
	"priority     : 100\ntype         : skcipher\n";
static const char crypto_73[] =
	"name         : gcm(aes)\ndriver       : gcm-aes-lib\nmodule       : kernel\n"
	"priority     : 300\ntype         : aead\n\n"
	"name         : ctr(aes)\ndriver       : ctr(aes-eip93)\nmodule       : eip93_sim\n"
	"priority     : 1500\ntype         : skcipher"; /* no final newline */

static void test_ktls_crypto(void)
{
	struct ktls_gcm g;
	char buf[512];

	CHECK_EQ_INT(ktls_best_gcm(crypto_61, &g), 1);
	CHECK(strcmp(g.driver, G) == 0);
	CHECK_EQ_INT(g.priority, 800);
	CHECK(strcmp(g.module, "gcm") == 0);
	CHECK_EQ_INT(ktls_best_ctr(crypto_61, &g), 1);
	CHECK(strcmp(g.driver, "ctr(aes-eip93)") == 0);
	CHECK_EQ_INT(ktls_best_gcm(crypto_73, &g), 1);
	CHECK(strcmp(g.driver, "gcm-aes-lib") == 0);
	CHECK_EQ_INT(ktls_best_ctr(crypto_73, &g), 1);
	CHECK_EQ_INT(g.priority, 1500);
	CHECK_EQ_INT(ktls_best_gcm("name : ghash\ndriver : ghash-generic\ntype : shash\n", &g), 0);
	CHECK_EQ_INT(ktls_best_gcm("", &g), 0);

	CHECK_EQ_INT(ktls_consequence(G, buf, sizeof(buf)), KTLS_ENGINE);
	CHECK(strstr(buf, "engine (CTR") != NULL && strstr(buf, "with ghash-generic on the CPU"));
	CHECK(strstr(buf, "table GHASH") != NULL);
	CHECK_EQ_INT(ktls_consequence(N, buf, sizeof(buf)), KTLS_ENGINE);
	CHECK(strstr(buf, "with ghash-neon on the CPU") != NULL);
	CHECK_EQ_INT(ktls_consequence("gcm-aes-lib", buf, sizeof(buf)), KTLS_CPU);
	CHECK(strstr(buf, "on the CPU (gcm-aes-lib), never on the engine") != NULL);
	CHECK_EQ_INT(ktls_consequence("", buf, sizeof(buf)), KTLS_UNKNOWN);
}

/* A kernel where nothing binds on either road; callers change what they test. */
static struct backend_facts nothing_binds(const char *release, int restrict_val)
{
	struct backend_facts f;

	memset(&f, 0, sizeof(f));
	f.release = release;
	f.restrict_val = restrict_val;
	f.afalg_tried = 1;
	f.cdev_tried = 1;
	f.cdev_open = ENOENT;
	f.driver = 1;
	f.cdev_driver = "";
	return f;
}

#define ADV_HAS(text) CHECK(strstr(adv, (text)) != NULL)

static void test_backend_advice(void)
{
	struct backend_facts f;
	char adv[1024];

	/* Which kernels refuse the engine through AF_ALG. */
	f = nothing_binds("6.18.44", -1);
	CHECK_EQ_INT(backend_afalg_refuses(&f), 0);
	f = nothing_binds("7.1.9", -1);
	CHECK_EQ_INT(backend_afalg_refuses(&f), 0);
	f = nothing_binds("7.2.13+deb14-amd64", -1);
	CHECK_EQ_INT(backend_afalg_refuses(&f), 1);
	f = nothing_binds("8.0.1", -1);
	CHECK_EQ_INT(backend_afalg_refuses(&f), 1);
	f = nothing_binds("6.12.0", 1);
	CHECK_EQ_INT(backend_afalg_refuses(&f), 1);
	f = nothing_binds("6.12.0", 0);
	CHECK_EQ_INT(backend_afalg_refuses(&f), 0);
	f = nothing_binds(NULL, -1);
	CHECK_EQ_INT(backend_afalg_refuses(&f), 0);

	/* 7.2+, no /dev/crypto, Debian: AF_ALG refuses; build and load the module; permissions. */
	f = nothing_binds("7.2.13+deb14-amd64", -1);
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 1);
	ADV_HAS("Linux 7.2.13+deb14-amd64 refuses the engine through AF_ALG");
	ADV_HAS("use /dev/crypto instead");
	ADV_HAS("modprobe cryptodev");
	ADV_HAS("DKMS or by hand");
	ADV_HAS("readable and writable by the service's user");
	CHECK(strstr(adv, "kmod-cryptodev") == NULL);
	/* ... on OpenWrt: the package. */
	f.openwrt = 1;
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 1);
	ADV_HAS("apk add kmod-cryptodev");
	/* af_alg_restrict on an older kernel: the same, naming the setting. */
	f = nothing_binds("6.12.0", 2);
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 1);
	ADV_HAS("af_alg_restrict = 2 refuses the engine through AF_ALG");
	ADV_HAS("use /dev/crypto instead");

	/* The device is there but not for this user. */
	f = nothing_binds("7.3.4", 1);
	f.cdev_open = EACCES;
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 1);
	ADV_HAS("this user cannot read and write it");
	ADV_HAS("Who may open /dev/crypto");
	/* It opens, but another driver serves the session. */
	f.cdev_open = 0;
	f.cdev_driver = "ctr-aes-neonbs";
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 1);
	ADV_HAS("serves its session with ctr-aes-neonbs, not the engine");
	ADV_HAS("load the EIP93 driver");
	/* engine-backend = afalg keeps /dev/crypto out. */
	f = nothing_binds("7.2.13", -1);
	f.configured = EIP93_BACKEND_AFALG;
	f.cdev_tried = 0;
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 1);
	ADV_HAS("engine-backend = afalg forbids the other road");
	ADV_HAS("set engine-backend = auto");

	/* Neither road on a kernel that would allow AF_ALG: what to install. */
	f = nothing_binds("6.1.0", -1);
	f.afalg_socket = EAFNOSUPPORT;
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 1);
	ADV_HAS("neither AF_ALG nor /dev/crypto is usable");
	ADV_HAS("algif_skcipher");
	ADV_HAS("the cryptodev module, on any kernel");
	f.openwrt = 1;
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 1);
	ADV_HAS("kmod-crypto-user");
	ADV_HAS("kmod-cryptodev");

	/* A forced backend that cannot bind while the other would. */
	f = nothing_binds("6.1.0", -1);
	f.configured = EIP93_BACKEND_CRYPTODEV;
	f.afalg_bound = 1;
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 1);
	ADV_HAS("engine-backend = cryptodev, but /dev/crypto does not reach the engine");
	CHECK(strcmp(backend_in_use(&f), "none") == 0);
	f.configured = EIP93_BACKEND_AFALG;
	f.afalg_bound = 0;
	f.cdev_bound = 1;
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 1);
	ADV_HAS("engine-backend = afalg, but AF_ALG does not bind here");

	/* Something binds: nothing to do; the backend in use. */
	f = nothing_binds("6.18.44", -1);
	f.afalg_bound = 1;
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 0);
	CHECK_EQ_INT(adv[0], '\0');
	CHECK(strcmp(backend_in_use(&f), "AF_ALG") == 0);
	f = nothing_binds("7.2.13", -1);
	f.cdev_open = 0;
	f.cdev_bound = 1;
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 0);
	CHECK(strcmp(backend_in_use(&f), "/dev/crypto") == 0);
	/* 6.x with the driver missing: the AF_ALG advice (not this one) speaks. */
	f = nothing_binds("6.1.0", -1);
	f.afalg_socket = 0;
	CHECK_EQ_INT(backend_advice(&f, adv, sizeof(adv)), 0);
}

int main(void)
{
	test_parse();
	test_recommend();
	test_tls12();
	test_settings();
	test_shapes();
	test_cover();
	test_ktls_conf();
	test_ktls_crypto();
	test_backend_advice();
	return check_done("test_doctor_advice");
}
