// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-doctor: why the eip93 provider is (or is not) offloading AES-GCM.
 *
 * usage: eip93-doctor [--json] [-h|--help]
 *        eip93-doctor calibrate [options]   (tools/calibrate.c)
 *
 * Reads every fact the provider's gate reads, with the provider's own
 * detect/ code, prints each with what to do about it, then loads the
 * provider the way applications do (OPENSSL_CONF, OPENSSL_MODULES) and
 * prints its own verdict and counters.  The provider's verdict is the
 * authority: the doctor only explains it.  Then (tools/doctor_report.c)
 * kernel TLS, the recommendation from this box's calibration and the
 * traffic shapes against the window; --json prints those and the verdict
 * as one JSON object instead.
 *
 * Exit status: 0 when the provider loads and its gate is enabled, 1 when it
 * is disabled or cannot be loaded, 2 on a usage error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <openssl/conf.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "../detect/detect.h"
#include "../provider/gate.h"
#include "calibrate.h"
#include "doctor_report.h"

#ifndef EIP93_VERSION
#define EIP93_VERSION "unknown"
#endif
#ifndef AF_ALG
#define AF_ALG 38
#endif

static int advice_count;
static struct doctor_state state; /* what the provider said, for doctor_report() */

static void fact(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("  %-22s ", name);
	va_start(ap, fmt);
	/* clang-analyzer 14 loses track of va_start here (false positive, as in provider/gate.c). */
	vprintf(fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized) */
	va_end(ap);
	putchar('\n');
}

static void advise(const char *fmt, ...)
{
	va_list ap;

	advice_count++;
	printf("  -> ");
	va_start(ap, fmt);
	vprintf(fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized) */
	va_end(ap);
	putchar('\n');
}

/* First line of a small file without its newline; -errno on failure. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return -errno;
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Whether @path has a line containing @needle; the first such line in @out. */
static int file_has(const char *path, const char *needle, char *out, size_t outlen)
{
	char line[512];
	FILE *f = fopen(path, "re");
	int found = 0;

	if (f == NULL)
		return -errno;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strstr(line, needle) != NULL) {
			if (out != NULL) {
				line[strcspn(line, "\n")] = '\0';
				snprintf(out, outlen, "%s", line);
			}
			found = 1;
			break;
		}
	}
	fclose(f);
	return found;
}

/* ---- the facts, in the gate's order -------------------------------------- */

static int check_switch(void)
{
	const char *v = getenv("EIP93_PROVIDER");

	printf("\n[1] off switch\n");
	if (v == NULL) {
		fact("EIP93_PROVIDER", "(unset)");
		return 1;
	}
	fact("EIP93_PROVIDER", "\"%s\"", v);
	switch (eip93_gate_env_switch(v)) {
	case EIP93_SWITCH_OFF:
		advise("the environment switches eip93 off: unset EIP93_PROVIDER to let the gate "
		       "decide");
		return 0;
	case EIP93_SWITCH_INVALID:
		advise("EIP93_PROVIDER=\"%s\" is not understood and counts as off; unset it (or "
		       "use off)",
		       v);
		return 0;
	default:
		fact("", "(does not switch off; there is no force-enable)");
		return 1;
	}
}

static int check_dt(void)
{
	unsigned char buf[EIP93_DT_MAX];
	char desc[512];
	const char *path;
	size_t len = 0;
	int r, proc_err;

	printf("\n[2] device tree (root compatible)\n");
	r = eip93_dt_read_root(buf, sizeof(buf), &len, &path, &proc_err);
	if (r < 0) {
		fact("compatible", "not readable (%s: %s %d, %s)", path, eip93_errno_name(-r), -r,
		     strerror(-r));
		advise("no device tree: this is not an AN7581/EN7581 board (x86, ACPI, ...); eip93 "
		       "stays off by design and OpenSSL uses its default provider");
		return 0;
	}
	eip93_dt_describe(buf, len, desc, sizeof(desc));
	fact("source", "%s (%zu bytes)", path, len);
	fact("strings", "%s", desc);
	switch (eip93_dt_classify(buf, len)) {
	case EIP93_DT_MATCH:
		fact("verdict", "AN7581/EN7581: yes");
		return 1;
	case EIP93_DT_EXCLUDED:
		fact("verdict", "AN7583/EN7583: excluded");
		advise("AN7583/EN7583 stay on the default provider until the offload is measured "
		       "there; nothing to do");
		return 0;
	case EIP93_DT_OTHER:
		fact("verdict", "not an AN7581/EN7581");
		advise("eip93 only switches on for airoha,an7581 / airoha,en7581; on this board "
		       "OpenSSL uses its default provider (nothing to do)");
		return 0;
	case EIP93_DT_MALFORMED:
	default:
		fact("verdict", "malformed property");
		advise("the root compatible property is malformed (empty, unterminated or "
		       "non-printable); check the firmware's device tree");
		return 0;
	}
}

static void print_hwcap_bits(unsigned long hwcap)
{
	static const struct {
		unsigned long bit;
		const char *name;
	} bits[] = {
		{ 1UL << 0, "fp" },	 { 1UL << 1, "asimd" },	  { 1UL << 3, "aes" },
		{ 1UL << 4, "pmull" },	 { 1UL << 5, "sha1" },	  { 1UL << 6, "sha2" },
		{ 1UL << 7, "crc32" },	 { 1UL << 8, "atomics" }, { 1UL << 17, "sha3" },
		{ 1UL << 21, "sha512" },
	};
	char out[160] = "";
	size_t n = 0;

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if ((hwcap & bits[i].bit) && n < sizeof(out))
			n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s", n ? " " : "",
					      bits[i].name);
	fact("AT_HWCAP", "0x%lx (%s)", hwcap, n ? out : "none of the listed bits");
}

static int check_cpu(void)
{
	struct eip93_cpu_facts cpu;
	struct utsname u;
	char line[512];

	printf("\n[3] CPU\n");
	eip93_cpu_read(&cpu);
	if (uname(&u) == 0)
		fact("machine", "%s (kernel %s)", u.machine, u.release);
	if (!cpu.is_aarch64) {
		fact("aarch64", "no (this program was built for another architecture)");
		advise("eip93 only runs on aarch64 (the AN7581's Cortex-A53); nothing to do here");
		return 0;
	}
	print_hwcap_bits(cpu.hwcap);
	fact("AT_HWCAP2", "0x%lx", getauxval(AT_HWCAP2));
	if (file_has("/proc/cpuinfo", "Features", line, sizeof(line)) == 1)
		fact("/proc/cpuinfo", "%s", line);
	if (eip93_cpu_has_aes(cpu.hwcap)) {
		fact("verdict", "the CPU has the ARMv8 AES instructions");
		advise("with AES instructions software AES-GCM is faster than the engine: eip93 "
		       "stays "
		       "off by design (the AN7581's cores have none)");
		return 0;
	}
	fact("verdict", "no AES instructions: yes");
	return 1;
}

static int check_fips(void)
{
	int k = eip93_fips_kernel(EIP93_FIPS_PATH);
	int o = EVP_default_properties_is_fips_enabled(NULL);
	int ok = 1;

	printf("\n[4] FIPS\n");
	if (k < 0)
		fact("kernel", "%s: %s%s", EIP93_FIPS_PATH, eip93_errno_name(-k),
		     k == -ENOENT ? " (no FIPS support in the kernel: not FIPS)" : "");
	else
		fact("kernel", "%s = %d", EIP93_FIPS_PATH, k);
	fact("OpenSSL", "default properties ask for FIPS: %s", o ? "yes" : "no");
	if (k == 1) {
		advise("the kernel runs in FIPS mode (fips=1 on its command line): eip93 is never "
		       "used in FIPS mode");
		ok = 0;
	} else if (k < 0 && k != -ENOENT) {
		advise("%s cannot be read; the gate treats that as FIPS", EIP93_FIPS_PATH);
		ok = 0;
	}
	if (o) {
		advise("openssl.cnf's default_properties ask for fips=yes: eip93 is never used "
		       "with FIPS properties");
		ok = 0;
	}
	return ok;
}

/* Did any composition's bind fail with @e? */
static int any_err(const int err[EIP93_NKALG], int e)
{
	for (int i = 0; i < EIP93_NKALG; i++)
		if (err[i] == e)
			return 1;
	return 0;
}

/*
 * What loading the provider put on the error queue (an invalid config value,
 * no software delegate, ...), with where it was raised, then cleared.
 */
static void report_raised(void)
{
	const char *file, *func, *data;
	unsigned long e;
	int line, flags;

	while ((e = ERR_get_error_all(&file, &line, &func, &data, &flags)) != 0) {
		const char *reason = ERR_reason_error_string(e);

		fact("error raised", "%s%s%s (at %s:%d %s)", reason != NULL ? reason : "?",
		     (flags & ERR_TXT_STRING) && data[0] != '\0' ? ": " : "",
		     (flags & ERR_TXT_STRING) ? data : "", file != NULL ? file : "?", line,
		     func != NULL ? func : "?");
	}
}

/* The labels of the older names stay what scripts grep for. */
static const char *const bind_label[EIP93_NKALG] = {
	[EIP93_KALG_ID_CTR] = "bind skcipher (CTR)",
	[EIP93_KALG_ID_NEON] = "bind aead (NEON)",
	[EIP93_KALG_ID_GENERIC] = "bind aead",
	[EIP93_KALG_ID_LIB] = "bind aead (retry)",
};

static int check_kernel(void)
{
	char line[512], restrict_val[64];
	int r, err[EIP93_NKALG] = { 0 }, fd, driver, ghash_neon, bound = -1;

	printf("\n[5] kernel (AF_ALG)\n");
	r = read_line("/proc/sys/crypto/af_alg_restrict", restrict_val, sizeof(restrict_val));
	if (r == 0)
		fact("af_alg_restrict", "%s", restrict_val);
	else
		fact("af_alg_restrict", "(not present)");
	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		int e = errno;

		fact("AF_ALG socket", "%s %d (%s)", eip93_errno_name(e), e, strerror(e));
	} else {
		fact("AF_ALG socket", "ok");
		close(fd);
	}
	driver = file_has("/proc/crypto", "ctr(aes-eip93)", NULL, 0);
	fact("ctr(aes-eip93)", "%s",
	     driver == 1   ? "registered (/proc/crypto)"
	     : driver == 0 ? "not registered (/proc/crypto)"
			   : "/proc/crypto not readable");
	ghash_neon = file_has("/proc/crypto", "ghash-neon", NULL, 0);
	fact("ghash-neon", "%s",
	     ghash_neon == 1 ? "registered (/proc/crypto)" : "not registered (/proc/crypto)");
	if (file_has("/proc/modules", "eip93", line, sizeof(line)) == 1)
		fact("module", "%s", line);
	if (file_has("/proc/interrupts", "eip93", line, sizeof(line)) == 1)
		fact("interrupts", "%s", line);
	/* In the gate's order; the first that binds is what the gate takes (unless
	 * kernel-algorithm or a calibration names another). */
	for (int i = 0; i < EIP93_NKALG && bound < 0; i++) {
		err[i] = -eip93_kprobe_alg(eip93_kalg_names[i]);
		fact(bind_label[i] != NULL ? bind_label[i] : "bind", "%s: %s%s%s",
		     eip93_kalg_names[i], eip93_errno_name(err[i]), err[i] ? " - " : "",
		     err[i] ? strerror(err[i]) : "");
		if (err[i] == 0)
			bound = i;
	}
	if (bound >= 0) {
		fact("GHASH", "%s", eip93_gate_ghash_note(eip93_kalg_names[bound]));
		if (bound == EIP93_KALG_ID_GENERIC)
			advise("no NEON GHASH here, so the kernel's GCM uses the table "
			       "GHASH (ghash-generic): about 39 cycles/byte on a Cortex-A53, "
			       "more than OpenSSL's whole software AES-GCM, so the calibration "
			       "keeps the engine off (or to few sizes); correct either way. "
			       "To get it: modprobe ghash-ce where the kernel has it (Debian "
			       "arm64: eip93-ghash.service loads it at boot); "
			       "stock OpenWrt images do not build it: build the image in a "
			       "full OpenWrt buildroot with CONFIG_CRYPTO_GHASH_ARM64_CE in "
			       "the kernel config. Then run eip93-doctor calibrate");
		return 1;
	}
	{
		char rel[128];
		int rv = eip93_gate_read_restrict(), major = 0, minor = 0;
		const char *why;

		if (eip93_kernel_release(rel, sizeof(rel)) != 0)
			rel[0] = '\0';
		why = eip93_gate_kernel_why(rel[0] ? rel : NULL, rv, driver, err);
		fact("meaning", "%s", why);
		if (sscanf(rel, "%d.%d", &major, &minor) != 2)
			major = minor = 0;
		if (rv == 2 && err[EIP93_KALG_ID_CTR] == EAFNOSUPPORT) {
			advise("af_alg_restrict = 2 forbids AF_ALG sockets: sysctl "
			       "crypto.af_alg_restrict=0 allows them (for every process); even "
			       "then "
			       "Linux 7.2+ refuses the EIP93 driver through AF_ALG unless the "
			       "kernel "
			       "carries the EIP93 exception. Otherwise nothing to do: software "
			       "AES-GCM "
			       "stays correct");
			return 0;
		}
		if (rv == 1 && strncmp(why, "af_alg_restrict = 1", 19) == 0) {
			advise("af_alg_restrict = 1 (default) allows only ccm(aes) for AEAD: "
			       "sysctl "
			       "crypto.af_alg_restrict=0 lifts that, but Linux 7.2+ still refuses "
			       "the "
			       "EIP93 driver unless the kernel carries the EIP93 exception (as the "
			       "seed's firmware does); run a kernel before 7.2 (6.12 LTS, OpenWrt "
			       "6.18) "
			       "or such a kernel. Otherwise software AES-GCM stays correct");
			return 0;
		}
		if ((major > 7 || (major == 7 && minor >= 2)) && driver == 1) {
			advise("AF_ALG refuses hardware (async, driver-only) drivers from Linux "
			       "7.2: "
			       "ctr(aes-eip93) cannot be bound; use a kernel before 7.2 (6.12 LTS, "
			       "OpenWrt 6.18) or one patched with the EIP93 AF_ALG exception. "
			       "Nothing to "
			       "configure: the provider stays in software, correctly");
			return 0;
		}
	}
	if (err[EIP93_KALG_ID_CTR] == EAFNOSUPPORT) {
		advise("the kernel has no AF_ALG: load af_alg and algif_skcipher (and algif_aead "
		       "for the kernel's AES-GCM compositions) (OpenWrt: kmod-crypto-user; "
		       "Debian: modprobe algif_skcipher algif_aead)");
	} else if (any_err(err, EPERM) || any_err(err, EACCES)) {
		advise("a policy refuses the bind (af_alg_restrict, an LSM such as SELinux or "
		       "AppArmor, "
		       "or a seccomp filter); kernels from 7.2 refuse hardware (off-CPU) drivers "
		       "such as EIP93 through AF_ALG unless patched - see docs/operations.md");
	} else if (driver != 1) {
		advise("the EIP93 driver is not loaded: load it (OpenWrt: kmod-crypto-hw-eip93, "
		       "then modprobe it or reboot); without it nothing is offloaded");
	} else if (err[EIP93_KALG_ID_CTR] == ENOTSUP) {
		advise("this libcrypto was built with OPENSSL_SMALL_FOOTPRINT: its GCM code cannot "
		       "be composed with the engine's AES-CTR (ctr(aes-eip93)); a libcrypto built "
		       "without it, or a kernel AES-GCM composition (gcm_base), is needed");
	} else if (err[EIP93_KALG_ID_CTR] != 0) {
		advise("ctr(aes-eip93) is registered but does not bind as an skcipher: load "
		       "AF_ALG's skcipher type (modprobe algif_skcipher; OpenWrt: "
		       "kmod-crypto-user) - the CTR-only composition needs nothing else");
	}
	return 0;
}

/* ---- the provider's own verdict ------------------------------------------ */

static int check_provider(void)
{
	static const char *const counters[] = {
		"eip93-engine-messages",   "eip93-engine-bytes",      "eip93-software-messages",
		"eip93-key-checks-passed", "eip93-key-checks-failed", "eip93-engine-errors",
	};
	const char *gate = NULL, *name = NULL, *version = NULL, *calib = NULL, *window = NULL;
	const char *status = NULL;
	const char *dir = getenv("OPENSSL_MODULES");
	OSSL_PROVIDER *prov;
	OSSL_PARAM p[7];
	int from_config, enabled;

	printf("\n[6] the provider\n");
	fact("OpenSSL", "%s", OpenSSL_version(OPENSSL_VERSION));
	if (getenv("OPENSSL_CONF") != NULL) {
		fact("config file", "%s (OPENSSL_CONF)", getenv("OPENSSL_CONF"));
	} else {
		char *cnf = CONF_get1_default_config_file();

		fact("config file", "%s", cnf != NULL ? cnf : "?");
		OPENSSL_free(cnf);
	}
	fact("modules dir", "%s%s", dir != NULL ? dir : OPENSSL_info(OPENSSL_INFO_MODULES_DIR),
	     dir != NULL ? " (OPENSSL_MODULES)" : "");
	from_config = OSSL_PROVIDER_available(NULL, "eip93");
	fact("activated by config", "%s", from_config ? "yes" : "no");
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	if (prov == NULL) {
		unsigned long e = ERR_peek_last_error();
		char buf[256] = "";

		if (e != 0)
			ERR_error_string_n(e, buf, sizeof(buf));
		fact("load", "failed %s", buf);
		advise("eip93.so cannot be loaded from the modules directory: install the package "
		       "(or set OPENSSL_MODULES to where eip93.so is)");
		ERR_clear_error();
		return 0;
	}
	report_raised();
	p[0] = OSSL_PARAM_construct_utf8_ptr("eip93-gate", (char **)&gate, 0);
	p[1] = OSSL_PARAM_construct_utf8_ptr("name", (char **)&name, 0);
	p[2] = OSSL_PARAM_construct_utf8_ptr("version", (char **)&version, 0);
	p[3] = OSSL_PARAM_construct_utf8_ptr("eip93-calibration", (char **)&calib, 0);
	p[4] = OSSL_PARAM_construct_utf8_ptr("eip93-window", (char **)&window, 0);
	p[5] = OSSL_PARAM_construct_utf8_ptr("eip93-status", (char **)&status, 0);
	p[6] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(prov, p) || gate == NULL) {
		fact("load", "ok, but it does not report eip93-gate (not the eip93 provider?)");
		OSSL_PROVIDER_unload(prov);
		return 0;
	}
	fact("version", "%s", version != NULL ? version : "?");
	enabled = strncmp(gate, "enabled: ", 9) == 0;
	state.loaded = 1;
	state.enabled = enabled;
	snprintf(state.version, sizeof(state.version), "%s", version != NULL ? version : "");
	snprintf(state.gate, sizeof(state.gate), "%s", gate);
	snprintf(state.status, sizeof(state.status), "%s", status != NULL ? status : "");
	snprintf(state.window, sizeof(state.window), "%s", window != NULL ? window : "");
	snprintf(state.calib, sizeof(state.calib), "%s", calib != NULL ? calib : "");
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		uint64_t v = 0;
		OSSL_PARAM q[2] = { OSSL_PARAM_construct_uint64(counters[i], &v),
				    OSSL_PARAM_construct_end() };

		if (OSSL_PROVIDER_get_params(prov, q))
			fact(counters[i] + 6, "%llu (this process)", (unsigned long long)v);
	}
	fact("gate", "%s", gate);
	if (status != NULL)
		fact("status", "%s", status);
	if (window != NULL)
		fact("engine window", "%s%s", window, strcmp(window, "none") ? " bytes" : "");
	if (calib != NULL && calib[0] != '\0') {
		fact("calibration", "%s", calib);
		if (strncmp(calib, "uncalibrated", 12) == 0)
			advise("no calibration: the default window is used without knowing whether "
			       "the engine wins here; run eip93-doctor calibrate (as root)");
		else if (strncmp(calib, "stale", 5) == 0)
			advise("the calibration is stale (see why above) and ignored: run "
			       "eip93-doctor calibrate again");
		else if (strncmp(calib, "invalid", 7) == 0)
			advise("the calibration file is corrupt and keeps the engine off: run "
			       "eip93-doctor calibrate to rewrite it (or remove the file)");
		else if (strstr(calib, ": off (") != NULL)
			advise("the calibration measured software faster at every size, so the "
			       "engine stays off (numbers above); after loading ghash-ce or "
			       "changing "
			       "the kernel, run eip93-doctor calibrate again");
	}
	if (!from_config)
		advise("openssl.cnf does not activate eip93, so applications do not use it: add it "
		       "to the providers section with activate = 1 and default_properties = "
		       "?provider=eip93 (docs/operations.md)");
	if (strstr(gate, "enable = no") != NULL)
		advise("its openssl.cnf section says enable = no: remove that line to let the gate "
		       "decide");
	if (strstr(gate, "invalid config") != NULL)
		advise("fix the named key in its openssl.cnf section (plain decimal numbers, "
		       "yes/no)");
	printf("\nverdict: %s\n", gate);
	OSSL_PROVIDER_unload(prov);
	return enabled;
}

int main(int argc, char **argv)
{
	int facts_ok, on, json = argc == 2 && strcmp(argv[1], "--json") == 0, saved = -1;

	if (argc > 1 && strcmp(argv[1], "calibrate") == 0)
		return eip93_calibrate_main(argc - 1, argv + 1);
	if (argc > 1 && !json) {
		int help = strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0;

		fprintf(help ? stdout : stderr,
			"usage: %s [--json]\n       %s calibrate [--help]\n"
			"Prints every fact the eip93 provider's gate reads (off switch, device "
			"tree, CPU hwcaps, FIPS, AF_ALG binds), the provider's own verdict and "
			"counters, and what to do; then kernel TLS, the recommendation from this "
			"box's calibration (ChaCha20-Poly1305 or AES-GCM, server settings) and "
			"the traffic shapes against the engine window.\n  --json  the verdict "
			"and those last sections as one JSON object\nExit status: 0 enabled, 1 "
			"disabled or not loadable.\n",
			argv[0], argv[0]);
		return help ? 0 : 2;
	}
	/* Read the configuration as applications do (providers, default properties). */
	OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, NULL);
	if (json) {
		/* The checks still run (they fill the state); only the JSON is printed. */
		fflush(stdout);
		saved = dup(STDOUT_FILENO);
		if (saved < 0 || freopen("/dev/null", "w", stdout) == NULL)
			return 1;
	}
	printf("eip93-doctor %s: the gate's facts, in the order the provider checks them\n",
	       EIP93_VERSION);
	/* Every fact is printed even after one has failed, as the gate stops at the first. */
	facts_ok = check_switch();
	facts_ok &= check_dt();
	facts_ok &= check_cpu();
	facts_ok &= check_fips();
	facts_ok &= check_kernel();
	on = check_provider();
	if (on && facts_ok)
		printf("eip93 offloads eligible AES-GCM messages (4-32 KiB by default); the "
		       "engine's "
		       "line in /proc/interrupts counts its work.\n");
	else if (on != facts_ok)
		printf("note: the facts above and the provider's verdict differ (another process "
		       "state, or a configuration key); the provider's verdict counts.\n");
	if (advice_count == 0 && !on)
		printf("nothing to fix was found in the facts; see the verdict.\n");
	if (json) {
		fflush(stdout);
		if (dup2(saved, STDOUT_FILENO) < 0)
			return 1;
		close(saved);
		clearerr(stdout);
	}
	doctor_report(&state, json);
	return on ? 0 : 1;
}
