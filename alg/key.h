// SPDX-License-Identifier: Apache-2.0
/*
 * key.c: the base context's key: taken, forgotten, and made ready for the
 * engine (opened and checked through the cipher row's hooks), or the runtime
 * outcome that says why not.
 */
#ifndef EIP93_KEY_H
#define EIP93_KEY_H

#include "ctx.h"

void eip93_key_take(struct eip93_cctx *ctx, const unsigned char *key, size_t keylen);
void eip93_key_forget(struct eip93_cctx *ctx);
enum eip93_sw_reason eip93_key_ready(struct eip93_cctx *ctx);

#endif /* EIP93_KEY_H */
