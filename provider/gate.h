// SPDX-License-Identifier: Apache-2.0
/*
 * The gate: whether this process offers the ciphers at all.  Facts come from
 * detect/; this is where they become a verdict (docs/contract.md "Switching
 * on").
 */
#ifndef EIP93_GATE_H
#define EIP93_GATE_H

#include <stddef.h>

#include "../alg/route.h"
#include "../engine/engine.h"
#include "calib.h"
#include "config.h"
#include "soc.h"

/* What the gate made of the calibration (the text is in struct eip93_gate's @calib). */
enum eip93_gate_calib {
	EIP93_GATE_CALIB_UNUSED = 0, /* calibration-file = none (or not reached) */
	EIP93_GATE_CALIB_ABSENT,     /* no file: uncalibrated, the defaults */
	EIP93_GATE_CALIB_INVALID,    /* corrupt: the engine stays off */
	EIP93_GATE_CALIB_STALE,	     /* for another system or composition: ignored */
	EIP93_GATE_CALIB_CURRENT,    /* for this system, not applied yet */
	EIP93_GATE_CALIB_APPLIED,    /* its window routes the messages */
	EIP93_GATE_CALIB_CONFIG,     /* current, but min-size/max-size in config win */
	EIP93_GATE_CALIB_OFF,	     /* it measured that the engine does not beat software */
};

/**
 * struct eip93_gate - the gate's verdict, decided once per provider instance.
 * @enabled: 1 when the ciphers are offered and the engine may be used
 * @kalg: the kernel algorithm bound, when enabled
 * @backend: the engine row it bound on, when enabled (its EIP93_BACKEND_* id;
 *	0 when off)
 * @row: that row (NULL when off)
 * @soc: the SoC profile the device tree matched (NULL before or without a match)
 * @status: "enabled: <kalg>" plus the row's via (" via /dev/crypto"), or
 *	"disabled: <reason>" (the eip93-gate parameter)
 * @min_size: the smallest message for the engine, when enabled
 * @max_size: the largest message for the engine, when enabled
 * @window_calibrated: @min_size/@max_size come from the calibration
 * @skc: AES-CTR's and AES-CBC's windows (enum eip93_calib_mode): the
 *	calibration's lines when it applies, else the config's
 * @calib_state: what the calibration counted for
 * @calib: the same in words: "uncalibrated ...", "stale: ...", "calibrated ..."
 * @ghash: what the bound composition's GHASH means
 */
struct eip93_gate {
	int enabled;
	char kalg[64];
	int backend;
	const struct eip93_engine_row *row;
	const struct eip93_soc *soc;
	char status[2048];
	size_t min_size;
	size_t max_size;
	int window_calibrated;
	struct eip93_mode_window skc[EIP93_CALIB_NMODES];
	enum eip93_gate_calib calib_state;
	char calib[1024];
	char ghash[160];
};

/**
 * struct eip93_gate_input - everything the verdict depends on besides the machine.
 * @env_switch: getenv("EIP93_PROVIDER")
 * @cfg: the configuration as applied (defaults when it was invalid)
 * @cfg_error: non-NULL: the configuration was invalid, and why
 * @sw_error: non-NULL: no software delegate, and why
 * @openssl_fips: the default properties ask for FIPS
 * @dt_path_override: test hooks only: the compatible bytes file to read
 * @hwcap_override: test hooks only: use @hwcap as the aarch64 AT_HWCAP
 * @hwcap: see @hwcap_override and @cpu_override
 * @cpu_override: test hooks only: the CPU is @cpu_arch with @hwcap (aarch64
 *	AT_HWCAP, 32-bit ARM AT_HWCAP2) and @cpu_isa_aes (RISC-V)
 * @cpu_arch: see @cpu_override (enum eip93_arch)
 * @cpu_isa_aes: see @cpu_override
 * @backend: the backend to use, EIP93_BACKEND_*: AUTO follows @cfg's
 *	engine-backend; test builds' EIP93_TEST_ENGINE forces one
 * @rows: the engine rows this provider has, in auto's order (eip93_engine_rows,
 *	or the test builds' fake standing in for AF_ALG)
 * @nrows: entries in @rows (at most EIP93_NENGINES)
 * @socs: the SoC profiles to match (NULL: eip93_socs)
 * @nsocs: entries in @socs
 * @ctr_usable: can ctr(aes-eip93) be composed here (eip93_compose_selftest:
 *	the composition's route exact on this libcrypto), 0 when it can, -ENOMEM
 *	when it could not tell (NULL: yes)
 * @calib: the calibration file as read (NULL: none configured)
 * @facts: this system, for the calibration's staleness (NULL members: unknown)
 */
struct eip93_gate_input {
	const char *env_switch;
	const struct eip93_config *cfg;
	const char *cfg_error;
	const char *sw_error;
	int openssl_fips;
	const char *dt_path_override;
	int hwcap_override;
	unsigned long hwcap;
	int cpu_override;
	int cpu_arch;
	int cpu_isa_aes;
	int backend;
	const struct eip93_engine_row *rows;
	size_t nrows;
	const struct eip93_soc *const *socs;
	size_t nsocs;
	int (*ctr_usable)(void);
	const struct eip93_calib_load *calib;
	struct eip93_calib_facts facts;
};

enum eip93_switch { EIP93_SWITCH_UNSET = 0, EIP93_SWITCH_OFF, EIP93_SWITCH_INVALID };

/*
 * eip93_gate_env_switch() - meaning of EIP93_PROVIDER.  "off" (also no, 0,
 * false, disable[d]) switches off; on/yes/1/true/auto/empty change nothing
 * (there is no force-enable); anything else is treated as off.
 */
enum eip93_switch eip93_gate_env_switch(const char *v);

/**
 * eip93_gate_decide() - evaluate the gate in its documented order
 * (docs/contract.md "Switching on").
 *
 * Reads the device tree (matched against the SoC rows), CPU, kernel FIPS
 * flag and, only when everything else allows, probes the SoC's compositions
 * (closing every socket) on each engine row engine-backend allows (auto:
 * the rows' order): the one kernel-algorithm names, else the calibration's
 * composition on its row first, then each in the SoC row's order on each row;
 * the first that binds wins.  Then applies the calibration: its
 * window, "off", or nothing when it is absent or stale; a corrupt one keeps
 * the engine off.  @out->calib says which, @out->min_size/max_size is the
 * window to route by.
 */
void eip93_gate_decide(const struct eip93_gate_input *in, struct eip93_gate *out);

/*
 * eip93_gate_window_text() - append "; window A-B bytes (calibration|config)"
 * (or "; AES-GCM off (calibration: software)") and AES-CTR's (@ctr nonzero:
 * it bound) and AES-CBC's (@cbc) windows to @buf (eip93-status).
 * Return: strlen(@buf).
 */
size_t eip93_gate_window_text(const struct eip93_gate *g, int ctr, int cbc, char *buf, size_t len);

/* eip93_gate_limits() - the route's window per engine mode (EIP93_EMODE_*) from @g. */
void eip93_gate_limits(const struct eip93_gate *g, struct eip93_route_limits lim[EIP93_EMODES]);

/* eip93_gate_backend_name() - the row that bound, as eip93-backend says it ("" when off). */
const char *eip93_gate_backend_name(const struct eip93_gate *g);

/*
 * The gate's own helpers, shared by gate.c and provider/gate_board.c (the
 * box's facts: device tree to SoC row, the row's CPU rule, FIPS); not for
 * other callers.
 */
/* eip93_gate_off() - @g off, its status "disabled: " and @fmt (gate.c). */
void eip93_gate_off(struct eip93_gate *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* eip93_gate_errno_text() - "ENOENT 2 (No such file or directory)" for @err. */
void eip93_gate_errno_text(int err, char *buf, size_t len);

/*
 * eip93_gate_board() - is this board one of the SoC rows (g->soc), its CPU
 * the row's without AES instructions, and not in FIPS mode?  1; else @g off
 * with the reason, 0.
 */
int eip93_gate_board(const struct eip93_gate_input *in, struct eip93_gate *g);

#endif /* EIP93_GATE_H */
