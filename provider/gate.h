// SPDX-License-Identifier: Apache-2.0
/*
 * The gate: whether this process offers the ciphers at all.  Facts come from
 * detect/; this is where they become a verdict (SPEC.md "The gate").
 */
#ifndef EIP93_GATE_H
#define EIP93_GATE_H

#include <stddef.h>

#include "calib.h"
#include "config.h"

#define EIP93_KALG_CTR_ONLY "ctr(aes-eip93)"
#define EIP93_KALG_NEON "gcm_base(ctr(aes-eip93),ghash-neon)"
#define EIP93_KALG_GENERIC "gcm_base(ctr(aes-eip93),ghash-generic)"
#define EIP93_KALG_LIB "gcm_base(ctr(aes-eip93),ghash-lib)"

struct eip93_gate {
	int enabled;
	char kalg[64];	   /* kernel algorithm bound, when enabled */
	char status[1024]; /* "enabled: <kalg>" or "disabled: <reason>" */
	size_t min_size;   /* the engine's window, when enabled */
	size_t max_size;
	int window_calibrated; /* the window comes from the calibration */
	char calib[1024];      /* the calibration's state: "uncalibrated ...", "stale: ...", ... */
	char ghash[160];       /* what the bound composition's GHASH means */
};

/* Everything the verdict depends on besides the machine itself. */
struct eip93_gate_input {
	const char *env_switch; /* getenv("EIP93_PROVIDER") */
	const struct eip93_config *cfg;
	const char *cfg_error;	      /* non-NULL: the config was invalid */
	const char *sw_error;	      /* non-NULL: no software delegate */
	int openssl_fips;	      /* default properties ask for FIPS */
	const char *dt_path_override; /* test hooks only: compatible bytes file */
	int hwcap_override;	      /* test hooks only: use @hwcap as aarch64 AT_HWCAP */
	unsigned long hwcap;
	/* The engine backend's bind probe: 0 or -errno (NULL: eip93_kprobe_alg). */
	int (*probe)(const char *kalg);
	/* Can ctr(aes-eip93) be composed here (eip93_compose_selftest)?  NULL: yes. */
	int (*ctr_usable)(void);
	/* The calibration file as read (NULL: none configured). */
	const struct eip93_calib_load *calib;
	/* This system, for the calibration's staleness (NULL members: unknown). */
	struct eip93_calib_facts facts;
};

enum eip93_switch { EIP93_SWITCH_UNSET = 0, EIP93_SWITCH_OFF, EIP93_SWITCH_INVALID };

/*
 * eip93_gate_env_switch() - meaning of EIP93_PROVIDER.  "off" (also no, 0,
 * false, disable[d]) switches off; on/yes/1/true/auto/empty change nothing
 * (there is no force-enable); anything else is treated as off.
 */
enum eip93_switch eip93_gate_env_switch(const char *v);

/* eip93_gate_ghash_note() - what the GHASH of composition @kalg means on the target. */
const char *eip93_gate_ghash_note(const char *kalg);

/**
 * eip93_gate_decide() - evaluate the gate in SPEC order.
 *
 * Reads the device tree, CPU, kernel FIPS flag and, only when everything
 * else allows, probes the kernel compositions (closing every socket): the
 * one kernel-algorithm names, else the calibration's, else each in
 * eip93_kalg_names order.  Then applies the calibration (SPEC step 6): its
 * window, "off", or nothing when it is absent or stale; a corrupt one keeps
 * the engine off.  @out->calib says which, @out->min_size/max_size is the
 * window to route by.
 */
void eip93_gate_decide(const struct eip93_gate_input *in, struct eip93_gate *out);

/**
 * eip93_gate_kernel_why() - what the failed binds mean on this kernel, in one
 * line: @release (uname -r, may be NULL), @restrict_val
 * (/proc/sys/crypto/af_alg_restrict, -1 absent), @driver (1/0/-1: is
 * ctr(aes-eip93) registered), @err the positive errno of each composition in
 * eip93_kalg_names order.  Shared by the gate's status and eip93-doctor.
 */
const char *eip93_gate_kernel_why(const char *release, int restrict_val, int driver,
				  const int err[EIP93_NKALG]);
/* eip93_gate_read_restrict() - /proc/sys/crypto/af_alg_restrict, -1 when absent. */
int eip93_gate_read_restrict(void);
/* eip93_gate_driver_registered() - 1/0: ctr(aes-eip93) in /proc/crypto; -1 unreadable. */
int eip93_gate_driver_registered(void);

#endif /* EIP93_GATE_H */
