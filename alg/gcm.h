// SPDX-License-Identifier: Apache-2.0
/*
 * AES-GCM as OpenSSL callers see it.  This file's dispatch tables are what
 * the provider registers; every call reaches the software delegate unless
 * the routing decision sends a message to the engine.
 */
#ifndef EIP93_GCM_H
#define EIP93_GCM_H

#include <openssl/core.h>

#include "route.h"
#include "stats.h"
#include "sw.h"

/*
 * What the cipher functions need from the provider instance.  The provider
 * context handed to OpenSSL must begin with this structure: the dispatch
 * functions below receive that context and read it as a struct eip93_alg_env.
 */
struct eip93_alg_env {
	const struct eip93_sw_impl *sw;	/* [EIP93_NKEYSIZES] */
	struct eip93_route_limits limits;
	int engine_available;		/* gate open and engine usable */
	struct eip93_stats *stats;
};

extern const OSSL_DISPATCH eip93_gcm_functions[EIP93_NKEYSIZES][24];

#endif /* EIP93_GCM_H */
