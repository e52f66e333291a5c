// SPDX-License-Identifier: Apache-2.0
/*
 * The CPU: its architecture and whether it has AES instructions (aarch64
 * AT_HWCAP, 32-bit ARM AT_HWCAP2, RISC-V the kernel's ISA string; MIPS has
 * none).
 */
#include "detect.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#define EIP93_CPUINFO "/proc/cpuinfo"

int eip93_cpu_cpuinfo_aes(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "re");
	int r = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "isa", 3) == 0 && strchr(line, ':') != NULL) {
			r = eip93_cpu_isa_aes(strchr(line, ':') + 1);
			break;
		}
	}
	fclose(f);
	return r;
}

void eip93_cpu_read(struct eip93_cpu_facts *f)
{
	memset(f, 0, sizeof(*f));
#if defined(__aarch64__)
	f->arch = EIP93_ARCH_AARCH64;
	f->hwcap = getauxval(AT_HWCAP);
#elif defined(__arm__)
	f->arch = EIP93_ARCH_ARM;
	f->hwcap = getauxval(AT_HWCAP2);
#elif defined(__mips__)
	f->arch = EIP93_ARCH_MIPS;
#elif defined(__riscv)
	f->arch = EIP93_ARCH_RISCV;
	f->isa_aes = eip93_cpu_cpuinfo_aes(EIP93_CPUINFO);
#else
	f->arch = EIP93_ARCH_OTHER;
#endif
	f->is_aarch64 = f->arch == EIP93_ARCH_AARCH64;
}

int eip93_cpu_has_aes(unsigned long hwcap)
{
	return (hwcap & EIP93_HWCAP_AES) != 0;
}

int eip93_cpu_facts_aes(const struct eip93_cpu_facts *f)
{
	switch (f->arch) {
	case EIP93_ARCH_AARCH64:
		return eip93_cpu_has_aes(f->hwcap);
	case EIP93_ARCH_ARM:
		return (f->hwcap & EIP93_HWCAP2_ARM_AES) != 0;
	case EIP93_ARCH_RISCV:
		return f->isa_aes;
	case EIP93_ARCH_MIPS:
	case EIP93_ARCH_OTHER:
	default:
		return 0;
	}
}

/* Is @ext (lower case) one of @isa's multi-letter extensions ("_zkne", "_zvkned_")? */
static int isa_has(const char *isa, const char *ext)
{
	size_t n = strlen(ext);

	for (const char *p = isa; (p = strchr(p, '_')) != NULL; p++) {
		size_t i = 0;

		while (i < n && p[1 + i] != '\0' && tolower((unsigned char)p[1 + i]) == ext[i])
			i++;
		if (i == n &&
		    (p[1 + n] == '_' || p[1 + n] == '\0' || isspace((unsigned char)p[1 + n])))
			return 1;
	}
	return 0;
}

int eip93_cpu_isa_aes(const char *isa)
{
	/* Zkn and Zk include Zkne; Zvkn, Zvknc, Zvkng include Zvkned. */
	static const char *const aes[] = {
		"zkne", "zkn", "zk", "zvkned", "zvkn", "zvknc", "zvkng"
	};

	for (size_t i = 0; i < sizeof(aes) / sizeof(aes[0]); i++)
		if (isa_has(isa, aes[i]))
			return 1;
	return 0;
}

const char *eip93_arch_name(enum eip93_arch a)
{
	switch (a) {
	case EIP93_ARCH_AARCH64:
		return "aarch64";
	case EIP93_ARCH_ARM:
		return "32-bit ARM";
	case EIP93_ARCH_MIPS:
		return "MIPS";
	case EIP93_ARCH_RISCV:
		return "RISC-V";
	case EIP93_ARCH_OTHER:
	default:
		return "another CPU";
	}
}

int eip93_arch_parse(const char *s)
{
	static const char *const names[EIP93_NARCH] = { "other", "aarch64", "arm", "mips",
							"riscv64" };

	for (int i = 0; i < EIP93_NARCH; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}
