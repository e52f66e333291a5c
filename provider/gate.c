// SPDX-License-Identifier: Apache-2.0
/*
 * provider/gate.c owns the gate: turning the facts detect/ reads (device
 * tree, CPU, kernel FIPS flag, AF_ALG binds) and the /dev/crypto backend's
 * probe (injected by the caller) plus the switch, the configuration and the
 * calibration into one verdict per provider instance, naming the backend
 * that bound, and the words that explain it (docs/contract.md "Switching
 * on" and "What an operator sees").
 */
#include "gate.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../detect/detect.h"

static void off(struct eip93_gate *g, const char *fmt, ...)
{
	static const char prefix[] = "disabled: ";
	va_list ap;

	va_start(ap, fmt);
	g->enabled = 0;
	g->kalg[0] = '\0';
	memcpy(g->status, prefix, sizeof(prefix));
	vsnprintf(g->status + sizeof(prefix) - 1, sizeof(g->status) - (sizeof(prefix) - 1), fmt,
		  ap);
	va_end(ap);
}

/* "ENOENT 2 (No such file or directory)" for an errno value. */
static void errno_text(int err, char *buf, size_t len)
{
	snprintf(buf, len, "%s %d (%s)", eip93_errno_name(err), err, strerror(err));
}

static int gate_dt(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	unsigned char buf[EIP93_DT_MAX];
	char e1[96], e2[96], desc[256];
	size_t len = 0;
	int r;

	if (in->dt_path_override != NULL) {
		r = eip93_dt_read(in->dt_path_override, buf, sizeof(buf), &len);
		if (r < 0) {
			errno_text(-r, e1, sizeof(e1));
			off(g, "device tree: test hook %s: %s", in->dt_path_override, e1);
			return 0;
		}
	} else {
		const char *used;
		int proc_err;

		r = eip93_dt_read_root(buf, sizeof(buf), &len, &used, &proc_err);
		if (r < 0 && proc_err != 0) {
			errno_text(-proc_err, e1, sizeof(e1));
			errno_text(-r, e2, sizeof(e2));
			off(g, "device tree: " EIP93_DT_PROC_PATH ": %s; %s: %s", e1, used, e2);
			return 0;
		}
		if (r < 0) {
			errno_text(-r, e1, sizeof(e1));
			off(g, "device tree: %s: %s", used, e1);
			return 0;
		}
	}
	eip93_dt_describe(buf, len, desc, sizeof(desc));
	switch (eip93_dt_classify(buf, len)) {
	case EIP93_DT_MATCH:
		return 1;
	case EIP93_DT_EXCLUDED:
		off(g, "device tree: AN7583/EN7583 stays on the default provider (compatible: %s)",
		    desc);
		return 0;
	case EIP93_DT_OTHER:
		off(g, "device tree: not an AN7581/EN7581 (compatible: %s)", desc);
		return 0;
	case EIP93_DT_MALFORMED:
	default:
		off(g, "device tree: malformed root compatible property (%zu bytes)", len);
		return 0;
	}
}

static int gate_cpu(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	struct eip93_cpu_facts cpu;

	eip93_cpu_read(&cpu);
	if (in->hwcap_override) {
		cpu.is_aarch64 = 1;
		cpu.hwcap = in->hwcap;
	}
	if (!cpu.is_aarch64) {
		off(g, "cpu: not aarch64");
		return 0;
	}
	if (eip93_cpu_has_aes(cpu.hwcap)) {
		off(g,
		    "cpu: has the ARMv8 AES instructions (HWCAP_AES); software AES-GCM is faster");
		return 0;
	}
	return 1;
}

static int gate_fips(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	char e[96];
	int r = eip93_fips_kernel(EIP93_FIPS_PATH);

	if (r == 1) {
		off(g, "fips: the kernel runs in FIPS mode (" EIP93_FIPS_PATH " = 1)");
		return 0;
	}
	if (r < 0 && r != -ENOENT) {
		errno_text(-r, e, sizeof(e));
		off(g, "fips: cannot read " EIP93_FIPS_PATH ": %s", e);
		return 0;
	}
	if (in->openssl_fips) {
		off(g, "fips: OpenSSL default properties ask for FIPS");
		return 0;
	}
	return 1;
}

const char *eip93_gate_ghash_note(const char *kalg)
{
	switch (eip93_kalg_index(kalg)) {
	case EIP93_KALG_ID_CTR:
		return "GHASH: libcrypto's, in this process (the engine computes AES-CTR only; "
		       "tags never come from it)";
	case EIP93_KALG_ID_NEON:
		return "GHASH: ghash-neon (NEON, about 4x the table GHASH on a Cortex-A53)";
	case EIP93_KALG_ID_GENERIC:
		return "GHASH: ghash-generic (table GHASH: slow on this CPU; load ghash-ce for "
		       "ghash-neon: modprobe ghash-ce)";
	case EIP93_KALG_ID_LIB:
		return "GHASH: ghash-lib (the kernel's GHASH library, NEON on arm64)";
	default:
		return "GHASH: unknown";
	}
}

/* The backend the gate may use: the test builds' force, else engine-backend. */
static int wanted_backend(const struct eip93_gate_input *in)
{
	return in->backend != EIP93_BACKEND_AUTO ? in->backend : in->cfg->backend;
}

/* Was the calibration measured on a backend this gate does not use?  @why says how. */
static int calib_backend_mismatch(const struct eip93_gate_input *in, int measured, char *why,
				  size_t len)
{
	int want = wanted_backend(in);
	const char *on = measured == EIP93_BACKEND_CRYPTODEV ? "/dev/crypto" : "AF_ALG";

	if (measured != EIP93_BACKEND_CRYPTODEV)
		measured = EIP93_BACKEND_AFALG; /* the file's absent key */
	if (want != EIP93_BACKEND_AUTO && want != measured) {
		snprintf(why, len, "measured on %s, engine-backend = %s in config", on,
			 want == EIP93_BACKEND_CRYPTODEV ? "cryptodev" : "afalg");
		return 1;
	}
	if (measured == EIP93_BACKEND_CRYPTODEV && in->cdev_probe == NULL) {
		snprintf(why, len, "measured on %s, which this provider cannot use", on);
		return 1;
	}
	return 0;
}

/* What the calibration counts for: @st, and @fmt says so in words (g->calib).  Return: 0. */
static int calib_say(struct eip93_gate *g, enum eip93_gate_calib st, const char *fmt, ...)
{
	va_list ap;

	g->calib_state = st;
	va_start(ap, fmt);
	vsnprintf(g->calib, sizeof(g->calib), fmt, ap);
	va_end(ap);
	return 0;
}

/* Is the loaded calibration for this system?  Fills g->calib when it is not. */
static int calib_current(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	const struct eip93_calib *c = &in->calib->cal;
	const struct eip93_calib_facts *f = &in->facts;
	char why[400];

	if (f->kernel == NULL || f->openssl == NULL || f->provider == NULL)
		return calib_say(g, EIP93_GATE_CALIB_STALE,
				 "stale: ignored (%s): this system's kernel, OpenSSL or provider "
				 "version is unknown; using the defaults",
				 in->calib->path);
	if (eip93_calib_stale(c, f, why, sizeof(why)))
		return calib_say(g, EIP93_GATE_CALIB_STALE,
				 "stale: ignored (%s): %s; using the defaults (run eip93-doctor "
				 "calibrate)",
				 in->calib->path, why);
	if (in->cfg->kalg[0] != '\0' && strcmp(in->cfg->kalg, c->composition) != 0)
		return calib_say(g, EIP93_GATE_CALIB_STALE,
				 "stale: ignored (%s): measured for %s, kernel-algorithm = %s in "
				 "config; using the defaults",
				 in->calib->path, c->composition, in->cfg->kalg);
	if (calib_backend_mismatch(in, c->backend, why, sizeof(why)))
		return calib_say(g, EIP93_GATE_CALIB_STALE,
				 "stale: ignored (%s): %s; using the defaults", in->calib->path,
				 why);
	g->calib_state = EIP93_GATE_CALIB_CURRENT;
	return 1;
}

/* 1: ctr(aes-eip93) is in /proc/crypto, 0: it is not, -1: unreadable. */
int eip93_gate_driver_registered(void)
{
	char line[256];
	FILE *f = fopen("/proc/crypto", "re");
	int found = 0;

	if (f == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = strncmp(line, "driver", 6) == 0 &&
			strstr(line, ": ctr(aes-eip93)\n") != NULL;
	fclose(f);
	return found;
}

/* Major and minor of a kernel release ("7.2.13+deb14-amd64" -> 7, 2); 0 when unknown. */
static int release_version(const char *release, int *major, int *minor)
{
	*major = *minor = 0;
	return release != NULL && sscanf(release, "%d.%d", major, minor) == 2;
}

int eip93_gate_read_restrict(void)
{
	FILE *f = fopen("/proc/sys/crypto/af_alg_restrict", "re");
	int v = -1;

	if (f == NULL)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

const char *eip93_gate_kernel_why(const char *release, int restrict_val, int driver,
				  const int err[EIP93_NKALG])
{
	int ctr_only_refused = err[EIP93_KALG_ID_CTR] == ENOTSUP;
	int major, minor, v72, all_afns = 1, all_noent = 1;

	for (int i = 0; i < EIP93_NKALG; i++)
		if (i != EIP93_KALG_ID_CTR && err[i] != ENOENT)
			ctr_only_refused = 0;
	if (ctr_only_refused)
		return "this libcrypto's GCM128 code ignores stream functions (built with "
		       "OPENSSL_SMALL_FOOTPRINT), so ctr(aes-eip93) cannot be composed, and no "
		       "kernel GCM over it binds";
	for (int i = 0; i < EIP93_NKALG; i++) {
		all_afns &= err[i] == EAFNOSUPPORT;
		all_noent &= err[i] == ENOENT;
	}
	v72 = release_version(release, &major, &minor) && (major > 7 || (major == 7 && minor >= 2));
	if (all_afns)
		return restrict_val == 2
			       ? "af_alg_restrict = 2 forbids AF_ALG sockets "
				 "(socket: EAFNOSUPPORT)"
			       : "this kernel offers no AF_ALG sockets (af_alg/algif_aead "
				 "not loaded or not built)";
	if (restrict_val == 1 && all_noent)
		return "af_alg_restrict = 1 (the Linux 7.3 default) refuses gcm and hardware "
		       "drivers: AEAD binds are limited to ccm(aes)";
	if (driver == 0)
		return v72 ? "the EIP93 driver is not loaded (no ctr(aes-eip93) in /proc/crypto); "
			     "AF_ALG refuses hardware drivers from Linux 7.2 anyway"
			   : "the EIP93 driver is not loaded (no ctr(aes-eip93) in /proc/crypto)";
	if (v72 && err[EIP93_KALG_ID_LIB] == ENOENT)
		return "AF_ALG refuses hardware drivers from Linux 7.2 (ctr(aes-eip93) is async "
		       "and "
		       "driver-only); ghash-lib is the right name but the driver cannot be bound";
	if (major >= 7 && minor >= 1 && err[EIP93_KALG_ID_LIB] != 0)
		return "Linux 7.1+: only ghash-lib is a valid GHASH name, and it does not bind";
	if (err[EIP93_KALG_ID_CTR] != 0 && err[EIP93_KALG_ID_CTR] != ENOTSUP &&
	    err[EIP93_KALG_ID_GENERIC] == ENOENT && err[EIP93_KALG_ID_LIB] == ENOENT)
		return "ctr(aes-eip93) does not bind as an skcipher (algif_skcipher missing?) and "
		       "no GCM composition over it binds (gcm template, GHASH or algif_aead "
		       "missing)";
	return "no composition over ctr(aes-eip93) binds";
}

const char *eip93_gate_backend_name(int backend)
{
	return backend == EIP93_BACKEND_AFALG	    ? "af_alg"
	       : backend == EIP93_BACKEND_CRYPTODEV ? "cryptodev"
						    : "";
}

/* A device-level failure: no composition can open a session, so stop trying. */
static int cdev_device_error(int err)
{
	return err == ENOENT || err == ENXIO || err == EACCES || err == EPERM;
}

const char *eip93_gate_cdev_why(const int err[EIP93_NKALG])
{
	int any_nodev = 0;

	for (int i = 0; i < EIP93_NKALG; i++) {
		if (err[i] == ENOENT || err[i] == ENXIO)
			return "/dev/crypto: no such device (the cryptodev module is not loaded: "
			       "modprobe cryptodev)";
		if (err[i] == EACCES)
			return "/dev/crypto: not readable and writable by this process's user "
			       "(see its owner and mode)";
		if (err[i] == EPERM)
			return "/dev/crypto: never opened under a seccomp filter";
		any_nodev |= err[i] == ENODEV;
	}
	if (any_nodev)
		return "/dev/crypto: the kernel serves these with another driver, not the engine "
		       "(is the EIP93 driver loaded?)";
	return "/dev/crypto: no composition over ctr(aes-eip93) opens a session";
}

/* One try of the gate's order: a composition on a backend. */
struct
try {
	int backend;
	const char *kalg;
};

/* Append (@b, @kalg) to @order unless it is there already. */
static void add_try(struct try *order, size_t *n, int b, const char *kalg)
{
	for (size_t i = 0; i < *n; i++)
		if (order[i].backend == b && strcmp(order[i].kalg, kalg) == 0)
			return;
	order[*n].backend = b;
	order[*n].kalg = kalg;
	(*n)++;
}

/* The backends engine-backend allows, in the gate's order; their count. */
static size_t gate_backends(const struct eip93_gate_input *in, int out[2])
{
	int want = wanted_backend(in);
	size_t n = 0;

	if (want != EIP93_BACKEND_CRYPTODEV)
		out[n++] = EIP93_BACKEND_AFALG;
	if (want != EIP93_BACKEND_AFALG && in->cdev_probe != NULL)
		out[n++] = EIP93_BACKEND_CRYPTODEV;
	return n;
}

/* The failed tries and what they mean, into the "disabled: " status. */
static void gate_kernel_off(const struct eip93_gate_input *in, struct eip93_gate *g,
			    char tried[][200], const int *tb, size_t t,
			    const int err[2][EIP93_NKALG], const int used[2])
{
	char all[sizeof(g->status)] = "";
	size_t len = 0;

	for (int b = 0; b < 2; b++) {
		int first = 1;

		if (!used[b])
			continue;
		for (size_t i = 0; i < t && len < sizeof(all); i++) {
			if (tb[i] != b + 1)
				continue;
			len += (size_t)snprintf(all + len, sizeof(all) - len, "%s%s",
						len == 0 ? "" : "; ", tried[i]);
			first = 0;
		}
		if (first || in->cfg->kalg[0] != '\0' || len >= sizeof(all))
			continue;
		len += (size_t)snprintf(
			all + len, sizeof(all) - len, " - %s",
			b + 1 == EIP93_BACKEND_AFALG
				? eip93_gate_kernel_why(in->facts.kernel,
							eip93_gate_read_restrict(),
							eip93_gate_driver_registered(), err[b])
				: eip93_gate_cdev_why(err[b]));
	}
	if (in->cfg->kalg[0] != '\0')
		off(g, "%s (kernel-algorithm = %s in config)", all, in->cfg->kalg);
	else
		off(g, "%s", all);
}

/*
 * The kernel: bind the first composition that binds, on the backends
 * engine-backend allows (auto: AF_ALG, then /dev/crypto).  @calib_first:
 * the calibration's composition on its backend is tried first; if it does
 * not bind, the calibration is stale.  Return: 1 when one bound (g->kalg,
 * g->backend).
 */
static int gate_kernel(const struct eip93_gate_input *in, struct eip93_gate *g, int calib_first)
{
	int (*probe)(const char *) = in->probe != NULL ? in->probe : eip93_kprobe_alg;
	struct try order[2 * EIP93_NKALG + 1];
	char tried[2 * EIP93_NKALG + 1][200];
	int tb[2 * EIP93_NKALG + 1];
	int err[2][EIP93_NKALG] = { { 0 } }, used[2] = { 0, 0 }, backends[2], cdev_dead = 0;
	size_t n = 0, t = 0, nb = gate_backends(in, backends);

	if (nb == 0) {
		off(g, "kernel: engine-backend = cryptodev, but this build has no /dev/crypto "
		       "backend");
		return 0;
	}
	if (calib_first)
		add_try(order, &n,
			in->calib->cal.backend == EIP93_BACKEND_CRYPTODEV ? EIP93_BACKEND_CRYPTODEV
									  : EIP93_BACKEND_AFALG,
			in->calib->cal.composition);
	for (size_t b = 0; b < nb; b++) {
		if (in->cfg->kalg[0] != '\0')
			add_try(order, &n, backends[b], in->cfg->kalg);
		else
			for (int i = 0; i < EIP93_NKALG; i++)
				add_try(order, &n, backends[b], eip93_kalg_names[i]);
	}
	for (size_t i = 0; i < n; i++) {
		int cdev = order[i].backend == EIP93_BACKEND_CRYPTODEV,
		    k = eip93_kalg_index(order[i].kalg);
		char e[96], driver[128] = "";
		int r;

		if (cdev && cdev_dead)
			continue;
		/* The CTR-only composition also needs libcrypto's GCM128 to compose with. */
		if (k == EIP93_KALG_ID_CTR && in->ctr_usable != NULL && in->ctr_usable() != 0)
			r = -ENOTSUP;
		else
			r = cdev ? in->cdev_probe(order[i].kalg, driver, sizeof(driver))
				 : probe(order[i].kalg);
		if (k >= 0)
			err[cdev][k] = -r;
		used[cdev] = 1;

		if (r == 0) {
			g->enabled = 1;
			g->backend = order[i].backend;
			snprintf(g->kalg, sizeof(g->kalg), "%s", order[i].kalg);
			snprintf(g->status, sizeof(g->status), "enabled: %s%s", order[i].kalg,
				 cdev ? " via /dev/crypto" : "");
			snprintf(g->ghash, sizeof(g->ghash), "%s",
				 eip93_gate_ghash_note(order[i].kalg));
			return 1;
		}
		errno_text(-r, e, sizeof(e));
		tb[t] = order[i].backend;
		if (!cdev)
			snprintf(tried[t++], sizeof(tried[0]), "kernel: AF_ALG bind %s: %s",
				 order[i].kalg, e);
		else if (r == -ENODEV && driver[0] != '\0')
			snprintf(tried[t++], sizeof(tried[0]),
				 "kernel: /dev/crypto session %s: served by %s, not the engine",
				 order[i].kalg, driver);
		else if (cdev_device_error(-r))
			snprintf(tried[t++], sizeof(tried[0]), "kernel: /dev/crypto: %s", e);
		else
			snprintf(tried[t++], sizeof(tried[0]), "kernel: /dev/crypto session %s: %s",
				 order[i].kalg, e);
		cdev_dead |= cdev && cdev_device_error(-r);
		if (calib_first && i == 0)
			calib_say(g, EIP93_GATE_CALIB_STALE,
				  "stale: ignored (%s): its composition %s%s no longer binds (%s); "
				  "using the defaults",
				  in->calib->path, order[0].kalg, cdev ? " via /dev/crypto" : "",
				  e);
	}
	gate_kernel_off(in, g, tried, tb, t, (const int(*)[EIP93_NKALG])err, used);
	return 0;
}

/* After the bind: what a current calibration says (its window or "off"). */
static void gate_calib(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	const struct eip93_calib *c = &in->calib->cal;

	if (!c->engine) {
		g->calib_state = EIP93_GATE_CALIB_OFF;
		snprintf(g->calib, sizeof(g->calib),
			 "calibrated %.40s on %.100s (%.200s): off (the "
			 "engine does not beat software; the measured reason is in the verdict)",
			 c->date, c->kernel, in->calib->path);
		off(g, "calibration (%s, %s): the engine does not beat software: %s", c->date,
		    in->calib->path, c->reason);
		return;
	}
	if (in->cfg->window_set) {
		g->calib_state = EIP93_GATE_CALIB_CONFIG;
		snprintf(g->calib, sizeof(g->calib),
			 "calibrated %.40s on %.100s (%.200s): engine for "
			 "%zu-%zu bytes, but min-size/max-size in config take precedence",
			 c->date, c->kernel, in->calib->path, c->min_size, c->max_size);
		return;
	}
	g->min_size = c->min_size;
	g->max_size = c->max_size;
	g->window_calibrated = 1;
	g->calib_state = EIP93_GATE_CALIB_APPLIED;
	snprintf(g->calib, sizeof(g->calib),
		 "calibrated %.40s on %.100s (%.200s): engine for %zu-%zu bytes", c->date,
		 c->kernel, in->calib->path, c->min_size, c->max_size);
}

/* The calibration's state before any probe; 1 when it is current (gate_calib() applies). */
static int calib_state(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	const struct eip93_calib_load *cl = in->calib;

	if (cl == NULL || cl->state == EIP93_CALIB_NONE)
		return calib_say(g, EIP93_GATE_CALIB_UNUSED, "not used (calibration-file = none)");
	if (cl->state == EIP93_CALIB_ABSENT)
		return calib_say(
			g, EIP93_GATE_CALIB_ABSENT,
			"uncalibrated (no %s; run eip93-doctor calibrate); using the defaults",
			cl->path);
	if (cl->state == EIP93_CALIB_INVALID)
		return calib_say(g, EIP93_GATE_CALIB_INVALID, "invalid: %s: %s", cl->path,
				 cl->error);
	return calib_current(in, g);
}

enum eip93_switch eip93_gate_env_switch(const char *v)
{
	static const char *const offs[] = { "off", "no", "0", "false", "disable", "disabled" };
	static const char *const ons[] = { "", "on", "yes", "1", "true", "auto" };

	if (v == NULL)
		return EIP93_SWITCH_UNSET;
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		if (strcasecmp(v, offs[i]) == 0)
			return EIP93_SWITCH_OFF;
	for (size_t i = 0; i < sizeof(ons) / sizeof(ons[0]); i++)
		if (strcasecmp(v, ons[i]) == 0)
			return EIP93_SWITCH_UNSET;
	return EIP93_SWITCH_INVALID;
}

void eip93_gate_decide(const struct eip93_gate_input *in, struct eip93_gate *out)
{
	int current;

	memset(out, 0, sizeof(*out));
	switch (eip93_gate_env_switch(in->env_switch)) {
	case EIP93_SWITCH_OFF:
		off(out, "switched off by EIP93_PROVIDER=%s", in->env_switch);
		return;
	case EIP93_SWITCH_INVALID:
		off(out, "EIP93_PROVIDER=\"%.64s\" is not understood (use off); treated as off",
		    in->env_switch);
		return;
	default:
		break;
	}
	if (in->cfg_error != NULL) {
		off(out, "%s", in->cfg_error);
		return;
	}
	if (!in->cfg->enable) {
		off(out, "switched off by config (enable = no)");
		return;
	}
	if (in->sw_error != NULL) {
		off(out, "%s", in->sw_error);
		return;
	}
	out->min_size = in->cfg->min_size;
	out->max_size = in->cfg->max_size;
	if (!gate_dt(in, out) || !gate_cpu(in, out) || !gate_fips(in, out))
		return;
	current = calib_state(in, out);
	if (out->calib_state == EIP93_GATE_CALIB_INVALID) {
		/* A corrupt file is never guessed around: the engine stays off. */
		off(out,
		    "calibration file %s is invalid (%s): engine kept off; run eip93-doctor "
		    "calibrate to rewrite it, or set calibration-file = none",
		    in->calib->path, in->calib->error);
		return;
	}
	if (!gate_kernel(in, out, current && in->cfg->kalg[0] == '\0'))
		return;
	if (out->calib_state == EIP93_GATE_CALIB_CURRENT)
		gate_calib(in, out);
}
