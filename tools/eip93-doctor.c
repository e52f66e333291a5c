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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
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
#include "doctor.h"
#include "doctor_report.h"
#include "rows.h"

static void check_preferred(void);
static void libcrypto_build(void);

#ifndef EIP93_VERSION
#define EIP93_VERSION "unknown"
#endif

static struct doctor_state state; /* what the provider said, for doctor_report() */

/* ---- the facts, in the gate's order -------------------------------------- */

static int check_switch(void)
{
	const char *v = getenv("EIP93_PROVIDER");

	printf("\n[1] off switch\n");
	if (v == NULL) {
		doctor_fact("EIP93_PROVIDER", "(unset)");
		return 1;
	}
	doctor_fact("EIP93_PROVIDER", "\"%s\"", v);
	switch (eip93_gate_env_switch(v)) {
	case EIP93_SWITCH_OFF:
		doctor_advise(
			"the environment switches eip93 off: unset EIP93_PROVIDER to let the gate "
			"decide");
		return 0;
	case EIP93_SWITCH_INVALID:
		doctor_advise(
			"EIP93_PROVIDER=\"%s\" is not understood and counts as off; unset it (or "
			"use off)",
			v);
		return 0;
	default:
		doctor_fact("", "(does not switch off; there is no force-enable)");
		return 1;
	}
}

/* The boards every SoC row matches, "a / b", into @buf. */
static const char *dt_matches(char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < eip93_nsocs; i++)
		for (size_t j = 0; eip93_socs[i]->dt_match[j] != NULL && used < n; j++)
			used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? " / " : "",
						 eip93_socs[i]->dt_match[j]);
	return buf;
}

static int check_dt(void)
{
	unsigned char buf[EIP93_DT_MAX];
	char desc[512], names[256], list[512];
	const struct eip93_soc *soc;
	const char *path;
	size_t len = 0;
	int r, proc_err;

	printf("\n[2] device tree (root compatible)\n");
	tools_soc_names(names, sizeof(names));
	r = eip93_dt_read_root(buf, sizeof(buf), &len, &path, &proc_err);
	if (r < 0) {
		doctor_fact("compatible", "not readable (%s: %s %d, %s)", path,
			    eip93_errno_name(-r), -r, strerror(-r));
		doctor_advise("no device tree: this is not an %s board (x86, ACPI, ...); eip93 "
			      "stays off by design and OpenSSL uses its default provider",
			      names);
		return 0;
	}
	eip93_dt_describe(buf, len, desc, sizeof(desc));
	doctor_fact("source", "%s (%zu bytes)", path, len);
	doctor_fact("strings", "%s", desc);
	switch (tools_soc_classify(buf, len, &soc)) {
	case EIP93_DT_MATCH:
		doctor_fact("verdict", "%s: yes", soc->name);
		doctor_fact("SoC", "%s: %s, engine modes %s (%s)", soc->title, soc->core,
			    soc->modes, soc->driver);
		if (soc->calibrated_only)
			doctor_advise("on the %s the engine stays off until this box's own "
				      "calibration says it wins: run eip93-doctor calibrate (it "
				      "measures %s against software and writes the window)",
				      soc->short_name, soc->comps[0].kalg);
		return 1;
	case EIP93_DT_EXCLUDED:
		doctor_fact("verdict", "%s: excluded", soc->excluded_name);
		doctor_advise("%s stay on the default provider until the offload is measured "
			      "there; nothing to do",
			      soc->excluded_name);
		return 0;
	case EIP93_DT_OTHER:
		doctor_fact("verdict", "not an %s", names);
		doctor_advise("eip93 only switches on for %s; on this board OpenSSL uses its "
			      "default provider (nothing to do)",
			      dt_matches(list, sizeof(list)));
		return 0;
	case EIP93_DT_MALFORMED:
	default:
		doctor_fact("verdict", "malformed property");
		doctor_advise("the root compatible property is malformed (empty, unterminated or "
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
	doctor_fact("AT_HWCAP", "0x%lx (%s)", hwcap, n ? out : "none of the listed bits");
}

static int check_cpu(void)
{
	const struct eip93_soc *soc = tools_soc();
	struct eip93_cpu_facts cpu;
	struct utsname u;
	char line[512];
	int aes;

	printf("\n[3] CPU\n");
	eip93_cpu_read(&cpu);
	if (uname(&u) == 0)
		doctor_fact("machine", "%s (kernel %s)", u.machine, u.release);
	if (cpu.arch != soc->arch) {
		doctor_fact(eip93_arch_name(soc->arch), "no (this program was built for %s)",
			    eip93_arch_name(cpu.arch));
		doctor_advise("eip93 runs on the %s only on %s (the %s's %s); nothing to do here",
			      soc->name, eip93_arch_name(soc->arch), soc->short_name, soc->core);
		return 0;
	}
	if (cpu.arch == EIP93_ARCH_AARCH64) {
		print_hwcap_bits(cpu.hwcap);
		doctor_fact("AT_HWCAP2", "0x%lx", getauxval(AT_HWCAP2));
	} else if (cpu.arch == EIP93_ARCH_ARM) {
		doctor_fact("AT_HWCAP2", "0x%lx (HWCAP2_AES %s)", cpu.hwcap,
			    (cpu.hwcap & EIP93_HWCAP2_ARM_AES) ? "set" : "clear");
	}
	if (doctor_file_has("/proc/cpuinfo",
			    cpu.arch == EIP93_ARCH_RISCV  ? "isa"
			    : cpu.arch == EIP93_ARCH_MIPS ? "cpu model"
							  : "Features",
			    line, sizeof(line)) == 1)
		doctor_fact("/proc/cpuinfo", "%s", line);
	aes = eip93_cpu_facts_aes(&cpu);
	if (aes != 0) {
		doctor_fact("verdict", "%s",
			    aes != 1 ? "cannot tell whether the CPU has AES instructions "
				       "(/proc/cpuinfo isa)"
			    : cpu.arch == EIP93_ARCH_RISCV
				    ? "the CPU has the RISC-V AES extensions"
				    : "the CPU has the ARMv8 AES instructions");
		doctor_advise("with AES instructions software AES is faster than the engine: "
			      "eip93 stays off by design (the %s's cores have none)",
			      soc->short_name);
		return 0;
	}
	doctor_fact("verdict", "no AES instructions: yes%s",
		    cpu.arch == EIP93_ARCH_MIPS ? " (MIPS has none)" : "");
	return 1;
}

static int check_fips(void)
{
	int k = eip93_fips_kernel(EIP93_FIPS_PATH);
	int o = EVP_default_properties_is_fips_enabled(NULL);
	int ok = 1;

	printf("\n[4] FIPS\n");
	if (k < 0)
		doctor_fact("kernel", "%s: %s%s", EIP93_FIPS_PATH, eip93_errno_name(-k),
			    k == -ENOENT ? " (no FIPS support in the kernel: not FIPS)" : "");
	else
		doctor_fact("kernel", "%s = %d", EIP93_FIPS_PATH, k);
	doctor_fact("OpenSSL", "default properties ask for FIPS: %s", o ? "yes" : "no");
	if (k == 1) {
		doctor_advise(
			"the kernel runs in FIPS mode (fips=1 on its command line): eip93 is never "
			"used in FIPS mode");
		ok = 0;
	} else if (k < 0 && k != -ENOENT) {
		doctor_advise("%s cannot be read; the gate treats that as FIPS", EIP93_FIPS_PATH);
		ok = 0;
	}
	if (o) {
		doctor_advise(
			"openssl.cnf's default_properties ask for fips=yes: eip93 is never used "
			"with FIPS properties");
		ok = 0;
	}
	return ok;
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

		doctor_fact("error raised", "%s%s%s (at %s:%d %s)", reason != NULL ? reason : "?",
			    (flags & ERR_TXT_STRING) && data[0] != '\0' ? ": " : "",
			    (flags & ERR_TXT_STRING) ? data : "", file != NULL ? file : "?", line,
			    func != NULL ? func : "?");
	}
}

/* ---- the provider's own verdict ------------------------------------------ */

static int check_provider(void)
{
	static const char *const counters[] = {
		"eip93-engine-messages",   "eip93-engine-bytes",      "eip93-software-messages",
		"eip93-key-checks-passed", "eip93-key-checks-failed", "eip93-engine-errors",
	};
	const char *gate = NULL, *name = NULL, *version = NULL, *calib = NULL, *window = NULL;
	const char *status = NULL, *backend = NULL;
	const char *dir = getenv("OPENSSL_MODULES");
	OSSL_PROVIDER *prov;
	OSSL_PARAM p[8];
	int from_config, enabled;

	printf("\n[6] the provider\n");
	doctor_fact("OpenSSL", "%s", OpenSSL_version(OPENSSL_VERSION));
	libcrypto_build();
	if (getenv("OPENSSL_CONF") != NULL) {
		doctor_fact("config file", "%s (OPENSSL_CONF)", getenv("OPENSSL_CONF"));
	} else {
		char *cnf = CONF_get1_default_config_file();

		doctor_fact("config file", "%s", cnf != NULL ? cnf : "?");
		OPENSSL_free(cnf);
	}
	doctor_fact("modules dir", "%s%s",
		    dir != NULL ? dir : OPENSSL_info(OPENSSL_INFO_MODULES_DIR),
		    dir != NULL ? " (OPENSSL_MODULES)" : "");
	from_config = OSSL_PROVIDER_available(NULL, "eip93");
	doctor_fact("activated by config", "%s", from_config ? "yes" : "no");
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	if (prov == NULL) {
		unsigned long e = ERR_peek_last_error();
		char buf[256] = "";

		if (e != 0)
			ERR_error_string_n(e, buf, sizeof(buf));
		doctor_fact("load", "failed %s", buf);
		doctor_advise(
			"eip93.so cannot be loaded from the modules directory: install the package "
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
	p[6] = OSSL_PARAM_construct_utf8_ptr("eip93-backend", (char **)&backend, 0);
	p[7] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(prov, p) || gate == NULL) {
		doctor_fact("load",
			    "ok, but it does not report eip93-gate (not the eip93 provider?)");
		OSSL_PROVIDER_unload(prov);
		return 0;
	}
	doctor_fact("version", "%s", version != NULL ? version : "?");
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
			doctor_fact(counters[i] + 6, "%llu (this process)", (unsigned long long)v);
	}
	doctor_fact("gate", "%s", gate);
	if (backend != NULL)
		doctor_fact("backend in use", "%s",
			    backend[0] != '\0' ? backend : "none (the gate is closed)");
	if (status != NULL)
		doctor_fact("status", "%s", status);
	if (window != NULL)
		doctor_fact("engine window", "%s%s", window,
			    strcmp(window, "none") ? " bytes" : "");
	if (calib != NULL && calib[0] != '\0') {
		doctor_fact("calibration", "%s", calib);
		if (strncmp(calib, "uncalibrated", 12) == 0)
			doctor_advise("no calibration: the default window is used without knowing "
				      "whether "
				      "the engine wins here; run eip93-doctor calibrate (as root)");
		else if (strncmp(calib, "stale", 5) == 0)
			doctor_advise("the calibration is stale (see why above) and ignored: run "
				      "eip93-doctor calibrate again");
		else if (strncmp(calib, "invalid", 7) == 0)
			doctor_advise(
				"the calibration file is corrupt and keeps the engine off: run "
				"eip93-doctor calibrate to rewrite it (or remove the file)");
		else if (strstr(calib, ": off (") != NULL)
			doctor_advise(
				"the calibration measured software faster at every size, so the "
				"engine stays off (numbers above); after changing the kernel (or "
				"loading ghash-ce on arm64), run eip93-doctor calibrate again");
	}
	if (from_config && enabled)
		check_preferred();
	if (!from_config)
		doctor_advise("openssl.cnf does not activate eip93, so applications do not use it: "
			      "add it "
			      "to the providers section with activate = 1 and default_properties = "
			      "?provider=eip93 (docs/operations.md)");
	if (strstr(gate, "enable = no") != NULL)
		doctor_advise("its openssl.cnf section says enable = no: remove that line to let "
			      "the gate "
			      "decide");
	if (strstr(gate, "invalid config") != NULL)
		doctor_advise(
			"fix the named key in its openssl.cnf section (plain decimal numbers, "
			"yes/no)");
	printf("\nverdict: %s\n", gate);
	OSSL_PROVIDER_unload(prov);
	return enabled;
}

/*
 * How this libcrypto was compiled, from its own record of the flags (what
 * `openssl version -f` prints): the last -O option, and whether it is a
 * small-footprint build (whose software AES-GCM is slower: the engine's gain
 * is larger there).
 */
static void libcrypto_build(void)
{
	const char *f = OpenSSL_version(OPENSSL_CFLAGS), *p = f;
	char opt[8] = "?";
	int small = strstr(f, "-DOPENSSL_SMALL_FOOTPRINT") != NULL;

	while ((p = strstr(p, " -O")) != NULL) {
		size_t n = strcspn(p + 1, " ");

		if (n < sizeof(opt))
			snprintf(opt, sizeof(opt), "%.*s", (int)n, p + 1);
		p += 1 + n;
	}
	doctor_fact("libcrypto build", "%s%s (openssl version -f)", opt,
		    small ? ", OPENSSL_SMALL_FOOTPRINT" : ", not small-footprint");
	if (small)
		doctor_advise("this libcrypto is a small-footprint build: its software AES-GCM "
			      "is slower (OpenWrt: CONFIG_OPENSSL_SMALL_FOOTPRINT); the engine's "
			      "CTR-only composition works on it, so calibrate on this build "
			      "(docs/performance.md)");
}

/*
 * openssl.cnf activates eip93 and its gate is open: does a fetch without a
 * query (what applications do) get eip93's cipher?  Only with the config's
 * default_properties = ?provider=eip93 in force.
 */
static void check_preferred(void)
{
	static const char *const names[] = { "AES-128-GCM", "AES-128-CTR", "AES-128-CBC" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		EVP_CIPHER *ours = EVP_CIPHER_fetch(NULL, names[i], "provider=eip93");
		EVP_CIPHER *any = ours != NULL ? EVP_CIPHER_fetch(NULL, names[i], NULL) : NULL;
		const char *who = any != NULL
					  ? OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(any))
					  : "nobody";

		if (ours == NULL) {
			ERR_clear_error();
			continue; /* not offered: the next */
		}
		EVP_CIPHER_free(ours);
		doctor_fact("preferred", "%s without a query comes from %s", names[i], who);
		if (strcmp(who, "eip93") != 0)
			doctor_advise("openssl.cnf loads eip93 but its default_properties = "
				      "?provider=eip93 is not in force, so applications fetch the "
				      "default provider's ciphers: check the alg_section of "
				      "[openssl_init]; on OpenSSL 4 a line naming engines there "
				      "(OpenWrt's \"engines = engines_sect\") ends the section "
				      "before it: remove it (docs/operations.md)");
		EVP_CIPHER_free(any);
		ERR_clear_error();
		return;
	}
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
			"tree, CPU hwcaps, FIPS, AF_ALG binds and /dev/crypto sessions), the "
			"provider's own verdict and "
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
	facts_ok &= doctor_check_kernel();
	on = check_provider();
	if (on && facts_ok)
		printf("eip93 offloads eligible AES-GCM messages (4-32 KiB by default); the "
		       "engine's "
		       "line in /proc/interrupts counts its work.\n");
	else if (on != facts_ok)
		printf("note: the facts above and the provider's verdict differ (another process "
		       "state, or a configuration key); the provider's verdict counts.\n");
	if (doctor_advice_count() == 0 && !on)
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
