// SPDX-License-Identifier: Apache-2.0
/*
 * `eip93-doctor calibrate` beyond AES-GCM (tools/calib_modes.c): AES-CTR and
 * AES-CBC as eip93 serves them with its window forced open on each engine
 * row where the SoC's ctr/cbc driver binds, against the default provider,
 * in rounds of their own (the same sizes, rows, alternation and medians as
 * AES-GCM's); a TLS 1.2 CBC suite's record (AES-128-CBC + HMAC-SHA256); and
 * each mode's window, decided by provider/calib_decide.c's rule.
 */
#ifndef EIP93_TOOLS_CALIB_MODES_H
#define EIP93_TOOLS_CALIB_MODES_H

#include <stdint.h>

#include <openssl/types.h>

#include "calib_opts.h"
#include "calib_report.h"

/* calib_engine_messages() - messages the engine computed in @lib's eip93 (0 when unknown). */
uint64_t calib_engine_messages(OSSL_LIB_CTX *lib);

/**
 * calib_modes_run() - measure AES-CTR/CBC and the TLS 1.2 CBC record into @run.
 * @sw: a library context with the default provider (the software contender)
 * @eng: per engine row, a library context whose eip93 gate opened there with
 *	its window forced open (NULL: none on that row)
 * @pt: MAXLEN (65536) bytes of plaintext
 *
 * A mode is measured on a row only where eip93 offers it and every warm-up
 * message was the engine's and equal to software's.  Return: 0, or -1 when
 * a message failed while measuring (said on stderr).
 */
int calib_modes_run(struct calib_run *run, OSSL_LIB_CTX *sw, OSSL_LIB_CTX *const *eng,
		    const unsigned char *pt, const struct calib_opts *o);

/**
 * calib_modes_decide() - each mode's window on the engine row @backend (the
 * AES-GCM winner's) into @cal->mode, printed as "AES-CBC: ..." lines; a
 * mode not measured there stays unset (the provider keeps the config's
 * window for it).
 */
void calib_modes_decide(const struct calib_run *run, int backend, struct eip93_calib *cal);

#endif /* EIP93_TOOLS_CALIB_MODES_H */
