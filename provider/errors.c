// SPDX-License-Identifier: Apache-2.0
/*
 * provider/errors.c owns the reason codes the provider raises to the
 * application's error queue and their strings (returned to OpenSSL by
 * provider/prov.c's get_reason_strings).
 */
#include "errors.h"

#include <stddef.h>

const OSSL_ITEM eip93_reason_strings[] = {
	{ EIP93_R_INVALID_CONFIG, "eip93: invalid configuration value (engine kept off)" },
	{ EIP93_R_NO_DELEGATE, "eip93: software AES-GCM delegate unavailable (engine kept off)" },
	{ EIP93_R_INIT_FAILED, "eip93: provider initialisation failed" },
	{ 0, NULL }
};
