// SPDX-License-Identifier: Apache-2.0
/* tls12.c: a TLS 1.2 GCM record, on the engine or in the delegate. */
#ifndef EIP93_GCM_TLS12_H
#define EIP93_GCM_TLS12_H

#include "gcm_ctx.h"

int eip93_tls12_record(struct gcm_ctx *ctx, eip93_sw_op_fn sw_op, int oneshot, unsigned char *out,
		       size_t *outl, size_t outsize, const unsigned char *in, size_t inl);

#endif /* EIP93_GCM_TLS12_H */
