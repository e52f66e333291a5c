// SPDX-License-Identifier: Apache-2.0
/*
 * The SoC profiles (provider/soc.h): one row per SoC whose engine eip93
 * offers.  The EIP93 (Airoha AN7581/EN7581, MediaTek MT7621), whose
 * mainline driver registers ecb/cbc/ctr(aes-eip93), and the engines of
 * other routers' and boards' SoCs whose drivers register AES skciphers
 * (docs/design.md "SoC rows": each name read in the driver's source at the
 * commit named there).  Those are off unless the box's own calibration says
 * the engine wins.
 */
#include "soc.h"

#include <string.h>

#define EIP93_CTR "ctr(aes-eip93)"
#define EIP93_ECB "ecb(aes-eip93)"
#define EIP93_GCM(ghash) "gcm_base(" EIP93_CTR "," ghash ")"

/*
 * What the ECB composition's GHASH is: libcrypto's in this process, as the
 * CTR-only composition's (only the keystream comes from the engine).
 */
#define ECB_GHASH(cpu)                                                                             \
	"GHASH: libcrypto's, in this process (the engine computes AES-ECB of the counter "         \
	"blocks only; " cpu ")"
#define CTR_GHASH                                                                                  \
	"GHASH: libcrypto's, in this process (the engine computes AES-CTR only; tags never "       \
	"come from it)"

/* ------------------------------------------------------------------ AN7581 */
static const char *const an7581_match[] = { "airoha,an7581", "airoha,en7581", NULL };
static const char *const an7581_exclude[] = { "airoha,an7583", "airoha,en7583", NULL };

/*
 * The gate's order (docs/design.md "The gate"): the engine's AES-CTR alone
 * first (it needs only the driver, and its tags never come from the
 * engine), then the kernel's AES-GCM over it with each GHASH.  The engine's
 * AES-ECB of the counter blocks (what an engine without AES-CTR gets) is
 * listed for kernel-algorithm and the calibration to name, never tried
 * unnamed: where the engine has AES-CTR, that is the one to use.
 */
static const struct eip93_soc_comp an7581_comps[] = {
	{ EIP93_CTR, EIP93_COMP_CTR, 0, CTR_GHASH, "bind skcipher (CTR)", "cdev session (CTR)" },
	{ EIP93_GCM("ghash-neon"), EIP93_COMP_GCM_NEON, 0,
	  "GHASH: ghash-neon (NEON, about 4x the table GHASH on a Cortex-A53)", "bind aead (NEON)",
	  "cdev session (NEON)" },
	{ EIP93_GCM("ghash-generic"), EIP93_COMP_GCM_GENERIC, 0,
	  "GHASH: ghash-generic (table GHASH: slow on this CPU; load ghash-ce for ghash-neon: "
	  "modprobe ghash-ce)",
	  "bind aead", "cdev session" },
	{ EIP93_GCM("ghash-lib"), EIP93_COMP_GCM_LIB, 0,
	  "GHASH: ghash-lib (the kernel's GHASH library, NEON on arm64)", "bind aead (retry)",
	  "cdev session (lib)" },
	{ EIP93_ECB, EIP93_COMP_ECB, 1, ECB_GHASH("tags never come from it"), "bind skcipher (ECB)",
	  "cdev session (ECB)" },
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
	.arch = EIP93_ARCH_AARCH64,
	.driver = "the EIP93 driver",
	.package = "kmod-crypto-hw-eip93",
	.modes = "ECB, CBC, CTR",
	.mode = { [EIP93_MODE_ECB] = EIP93_ECB,
		  [EIP93_MODE_CBC] = "cbc(aes-eip93)",
		  [EIP93_MODE_CTR] = EIP93_CTR },
	.comps = an7581_comps,
	.ncomps = sizeof(an7581_comps) / sizeof(an7581_comps[0]),
};

/* ------------------------------------------------------------------ MT7621 */
static const char *const mt7621_match[] = { "mediatek,mt7621-soc", NULL };

/* The same engine and driver: no NEON on MIPS, so no ghash-neon. */
static const struct eip93_soc_comp mt7621_comps[] = {
	{ EIP93_CTR, EIP93_COMP_CTR, 0, CTR_GHASH, "bind skcipher (CTR)", "cdev session (CTR)" },
	{ EIP93_GCM("ghash-generic"), EIP93_COMP_GCM_GENERIC, 0,
	  "GHASH: ghash-generic (the kernel's table GHASH in C: MIPS has no GHASH instructions)",
	  "bind aead", "cdev session" },
	{ EIP93_GCM("ghash-lib"), EIP93_COMP_GCM_LIB, 0,
	  "GHASH: ghash-lib (the kernel's GHASH library, C on MIPS)", "bind aead (retry)",
	  "cdev session (lib)" },
	{ EIP93_ECB, EIP93_COMP_ECB, 1, ECB_GHASH("tags never come from it"), "bind skcipher (ECB)",
	  "cdev session (ECB)" },
};

static const struct eip93_soc mt7621 = {
	.name = "MT7621",
	.short_name = "MT7621",
	.title = "MediaTek MT7621",
	.core = "MIPS 1004Kc",
	.dt_match = mt7621_match,
	.arch = EIP93_ARCH_MIPS,
	.driver = "the EIP93 driver",
	.package = "kmod-crypto-hw-eip93",
	.modes = "ECB, CBC, CTR",
	.mode = { [EIP93_MODE_ECB] = EIP93_ECB,
		  [EIP93_MODE_CBC] = "cbc(aes-eip93)",
		  [EIP93_MODE_CTR] = EIP93_CTR },
	.comps = mt7621_comps,
	.ncomps = sizeof(mt7621_comps) / sizeof(mt7621_comps[0]),
};

/* ---------------------------------------- Marvell Armada 370/XP/375/38x CESA */
static const char *const cesa_match[] = { "marvell,armada370", "marvell,armadaxp",
					  "marvell,armada375", "marvell,armada380", NULL };
static const struct eip93_soc_comp cesa_comps[] = {
	{ "mv-ecb-aes", EIP93_COMP_ECB, 0, ECB_GHASH("the CESA has no AES-CTR"),
	  "bind skcipher (ECB)", "cdev session (ECB)" },
};

static const struct eip93_soc cesa = {
	.name = "Armada 370/XP/375/38x",
	.short_name = "Armada",
	.title = "Marvell Armada 370/XP/375/38x (CESA)",
	.core = "PJ4B/Cortex-A9",
	.dt_match = cesa_match,
	.arch = EIP93_ARCH_ARM,
	.calibrated_only = 1,
	.driver = "the Marvell CESA driver (marvell-cesa)",
	.package = NULL, /* OpenWrt's mvebu kernel has it built in */
	.modes = "ECB, CBC",
	.mode = { [EIP93_MODE_ECB] = "mv-ecb-aes", [EIP93_MODE_CBC] = "mv-cbc-aes" },
	.comps = cesa_comps,
	.ncomps = sizeof(cesa_comps) / sizeof(cesa_comps[0]),
};

/* --------------------------------------------------------- Qualcomm IPQ40xx QCE */
static const char *const qce_match[] = { "qcom,ipq4018", "qcom,ipq4019", NULL };
static const struct eip93_soc_comp qce_comps[] = {
	{ "ctr-aes-qce", EIP93_COMP_CTR, 0, CTR_GHASH, "bind skcipher (CTR)",
	  "cdev session (CTR)" },
	{ "gcm_base(ctr-aes-qce,ghash-generic)", EIP93_COMP_GCM_GENERIC, 0,
	  "GHASH: ghash-generic (the kernel's table GHASH in C)", "bind aead", "cdev session" },
	{ "ecb-aes-qce", EIP93_COMP_ECB, 0, ECB_GHASH("tags never come from it"),
	  "bind skcipher (ECB)", "cdev session (ECB)" },
};

static const struct eip93_soc qce = {
	.name = "IPQ40xx",
	.short_name = "IPQ40xx",
	.title = "Qualcomm IPQ40xx (QCE)",
	.core = "Cortex-A7",
	.dt_match = qce_match,
	.arch = EIP93_ARCH_ARM,
	.calibrated_only = 1,
	.driver = "the Qualcomm crypto engine driver (qcrypto)",
	.package = NULL, /* OpenWrt's ipq40xx kernel has it built in */
	.modes = "ECB, CBC, CTR, XTS",
	.mode = { [EIP93_MODE_ECB] = "ecb-aes-qce",
		  [EIP93_MODE_CBC] = "cbc-aes-qce",
		  [EIP93_MODE_CTR] = "ctr-aes-qce" },
	.comps = qce_comps,
	.ncomps = sizeof(qce_comps) / sizeof(qce_comps[0]),
};

/* ---------------------------------------------------- Allwinner H3 sun8i-ce */
static const char *const h3_match[] = { "allwinner,sun8i-h3", NULL };
static const struct eip93_soc_comp h3_comps[] = {
	{ "ecb-aes-sun8i-ce", EIP93_COMP_ECB, 0, ECB_GHASH("the crypto engine has no AES-CTR"),
	  "bind skcipher (ECB)", "cdev session (ECB)" },
};

static const struct eip93_soc h3 = {
	.name = "H3",
	.short_name = "H3",
	.title = "Allwinner H3 (sun8i-ce)",
	.core = "Cortex-A7",
	.dt_match = h3_match,
	.arch = EIP93_ARCH_ARM,
	.calibrated_only = 1,
	.driver = "the Allwinner crypto engine driver (sun8i-ce)",
	.package = NULL, /* OpenWrt's sunxi kernel has it built in */
	.modes = "ECB, CBC",
	.mode = { [EIP93_MODE_ECB] = "ecb-aes-sun8i-ce", [EIP93_MODE_CBC] = "cbc-aes-sun8i-ce" },
	.comps = h3_comps,
	.ncomps = sizeof(h3_comps) / sizeof(h3_comps[0]),
};

/* ------------------------------------------------------------- SpacemiT K1 */
static const char *const k1_match[] = { "spacemit,k1-x", "spacemit,k1", NULL };
static const struct eip93_soc_comp k1_comps[] = {
	{ "__driver-ecb-aes-spacemit-ce1", EIP93_COMP_ECB, 0,
	  ECB_GHASH("the engine has no AES-CTR"), "bind skcipher (ECB)", "cdev session (ECB)" },
};

static const struct eip93_soc k1 = {
	.name = "K1",
	.short_name = "K1",
	.title = "SpacemiT K1",
	.core = "X60",
	.dt_match = k1_match,
	.arch = EIP93_ARCH_RISCV,
	.calibrated_only = 1,
	.driver = "the SpacemiT crypto engine driver (vendor kernel)",
	.package = NULL,
	.modes = "ECB, CBC",
	.mode = { [EIP93_MODE_ECB] = "__driver-ecb-aes-spacemit-ce1",
		  [EIP93_MODE_CBC] = "__driver-cbc-aes-spacemit-ce1" },
	.comps = k1_comps,
	.ncomps = sizeof(k1_comps) / sizeof(k1_comps[0]),
};

const struct eip93_soc *const eip93_socs[] = { &an7581, &mt7621, &cesa, &qce, &h3, &k1 };
const size_t eip93_nsocs = sizeof(eip93_socs) / sizeof(eip93_socs[0]);

#define FITS(comps) (sizeof(comps) / sizeof((comps)[0]) <= EIP93_SOC_MAX_COMPS)
_Static_assert(FITS(an7581_comps) && FITS(mt7621_comps) && FITS(cesa_comps) && FITS(qce_comps) &&
		       FITS(h3_comps) && FITS(k1_comps),
	       "EIP93_SOC_MAX_COMPS holds every row's compositions");

/* Every row's compositions, each once (the first four: the AN7581's as before). */
const char *const eip93_kalg_names[EIP93_NKALG] = {
	EIP93_CTR,
	EIP93_GCM("ghash-neon"),
	EIP93_GCM("ghash-generic"),
	EIP93_GCM("ghash-lib"),
	EIP93_ECB,
	"mv-ecb-aes",
	"ctr-aes-qce",
	"gcm_base(ctr-aes-qce,ghash-generic)",
	"ecb-aes-qce",
	"ecb-aes-sun8i-ce",
	"__driver-ecb-aes-spacemit-ce1",
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
