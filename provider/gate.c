// SPDX-License-Identifier: Apache-2.0
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
	vsnprintf(g->status + sizeof(prefix) - 1, sizeof(g->status) - (sizeof(prefix) - 1), fmt, ap);
	va_end(ap);
}

/* "ENOENT (No such file or directory)" for an errno value. */
static void errno_text(int err, char *buf, size_t len)
{
	const char *name;

	switch (err) {
	case ENOENT: name = "ENOENT"; break;
	case EINVAL: name = "EINVAL"; break;
	case EPERM: name = "EPERM"; break;
	case EACCES: name = "EACCES"; break;
	case EAFNOSUPPORT: name = "EAFNOSUPPORT"; break;
	case ENOMEM: name = "ENOMEM"; break;
	case EFBIG: name = "EFBIG"; break;
	case EBUSY: name = "EBUSY"; break;
	case EMFILE: name = "EMFILE"; break;
	case ENFILE: name = "ENFILE"; break;
	default: name = "errno"; break;
	}
	snprintf(buf, len, "%s %d (%s)", name, err, strerror(err));
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
		r = eip93_dt_read(EIP93_DT_PROC_PATH, buf, sizeof(buf), &len);
		if (r == -ENOENT) {
			int r2 = eip93_dt_read(EIP93_DT_SYSFS_PATH, buf, sizeof(buf), &len);

			if (r2 < 0) {
				errno_text(-r, e1, sizeof(e1));
				errno_text(-r2, e2, sizeof(e2));
				off(g, "device tree: " EIP93_DT_PROC_PATH ": %s; "
				    EIP93_DT_SYSFS_PATH ": %s", e1, e2);
				return 0;
			}
		} else if (r < 0) {
			errno_text(-r, e1, sizeof(e1));
			off(g, "device tree: " EIP93_DT_PROC_PATH ": %s", e1);
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
		off(g, "cpu: has the ARMv8 AES instructions (HWCAP_AES); software AES-GCM is faster");
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

static void gate_kernel(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	int (*probe)(const char *) = in->probe != NULL ? in->probe : eip93_kprobe_aead;
	static const char *const names[] = { EIP93_KALG_GENERIC, EIP93_KALG_LIB };
	char e[2][96];

	for (size_t i = 0; i < 2; i++) {
		int r = probe(names[i]);

		if (r == 0) {
			g->enabled = 1;
			snprintf(g->kalg, sizeof(g->kalg), "%s", names[i]);
			snprintf(g->status, sizeof(g->status), "enabled: %s", names[i]);
			return;
		}
		errno_text(-r, e[i], sizeof(e[i]));
	}
	off(g, "kernel: AF_ALG bind %s: %s; %s: %s", names[0], e[0], names[1], e[1]);
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
	if (!gate_dt(in, out) || !gate_cpu(in, out) || !gate_fips(in, out))
		return;
	gate_kernel(in, out);
}
