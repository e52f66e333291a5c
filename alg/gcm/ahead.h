// SPDX-License-Identifier: Apache-2.0
/*
 * ahead.c: keystream ahead on AES-GCM's CTR-only composition.  After each
 * engine message the next one's nonce is predicted from the ones seen and
 * the engine is asked, asynchronously (engine/engine.h ahead_start), for
 * its keystream, of this message's whole blocks; the message that then
 * comes with that nonce and no more whole blocks takes it (XORed here)
 * instead of a synchronous request.  docs/design.md "Keystream ahead".
 */
#ifndef EIP93_GCM_AHEAD_H
#define EIP93_GCM_AHEAD_H

#include <stddef.h>

#include "gcm_ctx.h"

/* eip93_ahead_take()'s "not asked ahead": distinct from EIP93_ENGINE_WRONG and _RECORD_UNFIT. */
#define EIP93_AHEAD_NONE 16

/*
 * eip93_ahead_take() - this message's keystream, if it was asked ahead: @out
 * = @in XOR it over @whole bytes, the page phases into @pg.  Returns 0 (done),
 * EIP93_AHEAD_NONE (not asked ahead for this nonce and size: the caller asks
 * the engine now; one asked for another is dropped), EIP93_ENGINE_WRONG (a
 * block the engine did not write: @out holds the input XOR a partly zero
 * keystream, for the caller's replay to overwrite; never released) or
 * -errno (the request failed).
 */
int eip93_ahead_take(struct gcm_ctx *ctx, const unsigned char *iv, const unsigned char *in,
		     unsigned char *out, size_t whole, struct eip93_engine_pages *pg);
/*
 * eip93_ahead_next() - after an engine message with nonce @iv and @whole
 * bytes of whole blocks: learn the pattern, and ask the engine ahead for
 * the next nonce's keystream when one holds.
 */
void eip93_ahead_next(struct gcm_ctx *ctx, const unsigned char *iv, size_t whole, int enc);
/* eip93_ahead_forget() - the key changed or the context goes: nothing is kept. */
void eip93_ahead_forget(struct gcm_ctx *ctx);

#endif /* EIP93_GCM_AHEAD_H */
