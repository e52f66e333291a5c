// SPDX-License-Identifier: Apache-2.0
/*
 * provider/gate_board.c: the gate's facts of the box, in its order: the
 * device tree's root compatible against the SoC rows (provider/soc.c), the
 * row's CPU rule (its architecture without AES instructions), the kernel's
 * and OpenSSL's FIPS mode.  detect/ reads the facts; the words are here.
 */
#include "gate.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../detect/detect.h"

#define off eip93_gate_off

/* "ENOENT 2 (No such file or directory)" for an errno value. */
void eip93_gate_errno_text(int err, char *buf, size_t len)
{
	snprintf(buf, len, "%s %d (%s)", eip93_errno_name(err), err, strerror(err));
}

/* Which SoC row the root compatible is: g->soc, 1; else off with the reason, 0. */
static int gate_soc(const struct eip93_gate_input *in, struct eip93_gate *g,
		    const unsigned char *buf, size_t len)
{
	const struct eip93_soc *const *socs = in->socs != NULL ? in->socs : eip93_socs;
	size_t nsocs = in->socs != NULL ? in->nsocs : eip93_nsocs, names = 0;
	char desc[256], which[400] = "";

	eip93_dt_describe(buf, len, desc, sizeof(desc));
	for (size_t i = 0; i < nsocs; i++) {
		switch (eip93_dt_classify(buf, len, socs[i]->dt_match, socs[i]->dt_exclude)) {
		case EIP93_DT_MATCH:
			g->soc = socs[i];
			return 1;
		case EIP93_DT_EXCLUDED:
			off(g, "device tree: %s (compatible: %s)", socs[i]->excluded, desc);
			return 0;
		case EIP93_DT_MALFORMED:
			off(g, "device tree: malformed root compatible property (%zu bytes)", len);
			return 0;
		case EIP93_DT_OTHER:
		default:
			if (names < sizeof(which))
				names += (size_t)snprintf(which + names, sizeof(which) - names,
							  "%s%s",
							  i == 0	   ? ""
							  : i + 1 == nsocs ? " or "
									   : ", ",
							  socs[i]->name);
			break;
		}
	}
	off(g, "device tree: not an %s (compatible: %s)", which, desc);
	return 0;
}

static int gate_dt(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	unsigned char buf[EIP93_DT_MAX];
	char e1[96], e2[96];
	size_t len = 0;
	int r;

	if (in->dt_path_override != NULL) {
		r = eip93_dt_read(in->dt_path_override, buf, sizeof(buf), &len);
		if (r < 0) {
			eip93_gate_errno_text(-r, e1, sizeof(e1));
			off(g, "device tree: test hook %s: %s", in->dt_path_override, e1);
			return 0;
		}
	} else {
		const char *used;
		int proc_err;

		r = eip93_dt_read_root(buf, sizeof(buf), &len, &used, &proc_err);
		if (r < 0 && proc_err != 0) {
			eip93_gate_errno_text(-proc_err, e1, sizeof(e1));
			eip93_gate_errno_text(-r, e2, sizeof(e2));
			off(g, "device tree: " EIP93_DT_PROC_PATH ": %s; %s: %s", e1, used, e2);
			return 0;
		}
		if (r < 0) {
			eip93_gate_errno_text(-r, e1, sizeof(e1));
			off(g, "device tree: %s: %s", used, e1);
			return 0;
		}
	}
	return gate_soc(in, g, buf, len);
}

static int gate_cpu(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	struct eip93_cpu_facts cpu;
	int aes;

	eip93_cpu_read(&cpu);
	if (in->cpu_override) { /* test hooks: another CPU's facts */
		cpu.arch = (enum eip93_arch)in->cpu_arch;
		cpu.hwcap = in->hwcap;
		cpu.isa_aes = in->cpu_isa_aes;
	} else if (in->hwcap_override) {
		cpu.arch = EIP93_ARCH_AARCH64;
		cpu.hwcap = in->hwcap;
	}
	/* The rule (struct eip93_soc @arch): the row's architecture, without AES instructions. */
	if (cpu.arch != g->soc->arch) {
		off(g, "cpu: not %s (the %s's %s)", eip93_arch_name(g->soc->arch),
		    g->soc->short_name, g->soc->core);
		return 0;
	}
	aes = eip93_cpu_facts_aes(&cpu);
	if (aes == 1 && cpu.arch == EIP93_ARCH_AARCH64) {
		off(g,
		    "cpu: has the ARMv8 AES instructions (HWCAP_AES); software AES-GCM is faster");
		return 0;
	}
	if (aes == 1 && cpu.arch == EIP93_ARCH_ARM) {
		off(g, "cpu: has the ARMv8 AES instructions (HWCAP2_AES); software AES is faster");
		return 0;
	}
	if (aes != 0) {
		off(g, "cpu: %s (/proc/cpuinfo isa); software AES is faster",
		    aes == 1 ? "has the RISC-V AES extensions (Zkne or Zvkned)"
			     : "cannot tell whether it has AES instructions");
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
		eip93_gate_errno_text(-r, e, sizeof(e));
		off(g, "fips: cannot read " EIP93_FIPS_PATH ": %s", e);
		return 0;
	}
	if (in->openssl_fips) {
		off(g, "fips: OpenSSL default properties ask for FIPS");
		return 0;
	}
	return 1;
}

int eip93_gate_board(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	return gate_dt(in, g) && gate_cpu(in, g) && gate_fips(in, g);
}
