// SPDX-License-Identifier: Apache-2.0
/*
 * The SoC profiles: one row for each SoC whose engine eip93 offers, with
 * everything that is that SoC's (which boards it is, the CPU rule, the
 * driver's kernel algorithm names per mode, the GCM compositions in the
 * gate's order and what their GHASH means there, and the words an operator
 * reads).  The gate and eip93-doctor read these rows; detect/ only reads
 * facts and classifies against the lists a row hands it.  A new SoC is one
 * row in provider/soc.c.
 */
#ifndef EIP93_SOC_H
#define EIP93_SOC_H

#include <stddef.h>

#include "../detect/detect.h"
#include "../engine/engine.h"

/* One GCM composition a SoC's engine can serve. */
struct eip93_soc_comp {
	const char *kalg;	   /* the kernel algorithm, as AF_ALG and /dev/crypto name it */
	enum eip93_comp_kind kind; /* what it is (engine/engine.h) */
	int forced;		/* tried only when kernel-algorithm (or the calibration) names it */
	const char *ghash;	/* what its GHASH means on this SoC's CPU */
	const char *bind_label; /* eip93-doctor's AF_ALG line label */
	const char *cdev_label; /* eip93-doctor's /dev/crypto line label */
};

/* The engine's AES modes, as the driver registers them. */
enum eip93_soc_mode { EIP93_MODE_ECB, EIP93_MODE_CBC, EIP93_MODE_CTR, EIP93_NMODES };

/* The most compositions a row lists. */
#define EIP93_SOC_MAX_COMPS 5

/**
 * struct eip93_soc - one SoC profile.
 * @name: in words ("AN7581/EN7581")
 * @short_name: in a sentence ("AN7581": "the AN7581's cores")
 * @title: in the provider's name ("Airoha AN7581/EN7581")
 * @core: its CPU cores ("Cortex-A53"), for the figures quoted per core
 * @dt_match: root compatibles that are this SoC (NULL-terminated)
 * @dt_exclude: root compatibles that keep a board on software although it
 *	may list a match (NULL-terminated; may be NULL)
 * @excluded_name: the excluded boards in words ("AN7583/EN7583")
 * @excluded: why an excluded board stays on software (the gate's status)
 * @arch: the CPU rule: this architecture without AES instructions (the
 *	engine can beat the CPU's own AES at all only then)
 * @calibrated_only: the engine is off on this SoC until the box's own
 *	calibration (eip93-doctor calibrate) says it wins, or the operator
 *	names kernel-algorithm in the configuration
 * @driver: the engine driver, in words ("the EIP93 driver")
 * @package: the OpenWrt package that ships the driver (NULL: none)
 * @modes: the engine's AES modes in words ("ECB, CBC, CTR")
 * @mode: the driver's kernel algorithm per mode ("ctr(aes-eip93)"; NULL:
 *	the engine has no such mode)
 * @comps: the GCM compositions, in the gate's order
 * @ncomps: entries in @comps (at most EIP93_SOC_MAX_COMPS)
 */
struct eip93_soc {
	const char *name;
	const char *short_name;
	const char *title;
	const char *core;
	const char *const *dt_match;
	const char *const *dt_exclude;
	const char *excluded_name;
	const char *excluded;
	enum eip93_arch arch;
	int calibrated_only;
	const char *driver;
	const char *package;
	const char *modes;
	const char *mode[EIP93_NMODES];
	const struct eip93_soc_comp *comps;
	size_t ncomps;
};

/* The profiles, in the order the gate matches them. */
extern const struct eip93_soc *const eip93_socs[];
extern const size_t eip93_nsocs;

/*
 * eip93_soc_engine_alg() - the algorithm that says @soc's engine is there:
 * its AES-CTR, or (an engine without one) its first composition's.
 */
static inline const char *eip93_soc_engine_alg(const struct eip93_soc *soc)
{
	return soc->mode[EIP93_MODE_CTR] != NULL ? soc->mode[EIP93_MODE_CTR] : soc->comps[0].kalg;
}

/* eip93_soc_comp() - @soc's composition named @kalg, or NULL. */
const struct eip93_soc_comp *eip93_soc_comp(const struct eip93_soc *soc, const char *kalg);

/*
 * Every composition name a profile lists: the values kernel-algorithm
 * accepts (provider/config.c) and a calibration file may name.
 */
#define EIP93_NKALG 11
extern const char *const eip93_kalg_names[EIP93_NKALG];

/* eip93_kalg_index() - position of @name in eip93_kalg_names, or -1. */
int eip93_kalg_index(const char *name);

#endif /* EIP93_SOC_H */
