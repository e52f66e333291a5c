// SPDX-License-Identifier: Apache-2.0
/*
 * The SoC profiles (provider/soc.h): today the Airoha AN7581/EN7581, whose
 * EIP93 the kernel's inside-secure/eip93 driver registers as
 * ecb/cbc/ctr(aes-eip93).
 */
#include "soc.h"

#include <string.h>

#define AN7581_CTR "ctr(aes-eip93)"
#define AN7581_GCM(ghash) "gcm_base(" AN7581_CTR "," ghash ")"

static const char *const an7581_match[] = { "airoha,an7581", "airoha,en7581", NULL };
static const char *const an7581_exclude[] = { "airoha,an7583", "airoha,en7583", NULL };

/*
 * The gate's order (docs/design.md "The gate"): the engine's AES-CTR alone
 * first (it needs only the driver, and its tags never come from the
 * engine), then the kernel's AES-GCM over it with each GHASH.
 */
static const struct eip93_soc_comp an7581_comps[] = {
	{ AN7581_CTR, EIP93_COMP_CTR,
	  "GHASH: libcrypto's, in this process (the engine computes AES-CTR only; tags never "
	  "come from it)",
	  "bind skcipher (CTR)", "cdev session (CTR)" },
	{ AN7581_GCM("ghash-neon"), EIP93_COMP_GCM_NEON,
	  "GHASH: ghash-neon (NEON, about 4x the table GHASH on a Cortex-A53)", "bind aead (NEON)",
	  "cdev session (NEON)" },
	{ AN7581_GCM("ghash-generic"), EIP93_COMP_GCM_GENERIC,
	  "GHASH: ghash-generic (table GHASH: slow on this CPU; load ghash-ce for ghash-neon: "
	  "modprobe ghash-ce)",
	  "bind aead", "cdev session" },
	{ AN7581_GCM("ghash-lib"), EIP93_COMP_GCM_LIB,
	  "GHASH: ghash-lib (the kernel's GHASH library, NEON on arm64)", "bind aead (retry)",
	  "cdev session (lib)" },
};

static const struct eip93_soc an7581 = {
	.name = "AN7581/EN7581",
	.short_name = "AN7581",
	.title = "Airoha AN7581/EN7581",
	.core = "Cortex-A53",
	.dt_match = an7581_match,
	.dt_exclude = an7581_exclude,
	.excluded_name = "AN7583/EN7583",
	.excluded = "AN7583/EN7583 stays on the default provider",
	.cpu = EIP93_SOC_CPU_AARCH64_NO_AES,
	.driver = "the EIP93 driver",
	.package = "kmod-crypto-hw-eip93",
	.mode = { [EIP93_MODE_ECB] = "ecb(aes-eip93)",
		  [EIP93_MODE_CBC] = "cbc(aes-eip93)",
		  [EIP93_MODE_CTR] = AN7581_CTR },
	.comps = an7581_comps,
	.ncomps = sizeof(an7581_comps) / sizeof(an7581_comps[0]),
};

const struct eip93_soc *const eip93_socs[] = { &an7581 };
const size_t eip93_nsocs = sizeof(eip93_socs) / sizeof(eip93_socs[0]);

_Static_assert(sizeof(an7581_comps) / sizeof(an7581_comps[0]) <= EIP93_SOC_MAX_COMPS,
	       "EIP93_SOC_MAX_COMPS holds every row's compositions");

const char *const eip93_kalg_names[EIP93_NKALG] = {
	AN7581_CTR,
	AN7581_GCM("ghash-neon"),
	AN7581_GCM("ghash-generic"),
	AN7581_GCM("ghash-lib"),
};

const struct eip93_soc_comp *eip93_soc_comp(const struct eip93_soc *soc, const char *kalg)
{
	for (size_t i = 0; soc != NULL && i < soc->ncomps; i++)
		if (strcmp(soc->comps[i].kalg, kalg) == 0)
			return &soc->comps[i];
	return NULL;
}

int eip93_kalg_index(const char *name)
{
	for (int i = 0; i < EIP93_NKALG; i++)
		if (strcmp(name, eip93_kalg_names[i]) == 0)
			return i;
	return -1;
}
