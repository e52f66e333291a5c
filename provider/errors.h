// SPDX-License-Identifier: Apache-2.0
/* Reason codes this provider raises, with their strings. */
#ifndef EIP93_ERRORS_H
#define EIP93_ERRORS_H

#include <openssl/core.h>

#define EIP93_R_INVALID_CONFIG 1
#define EIP93_R_NO_DELEGATE 2
#define EIP93_R_INIT_FAILED 3

extern const OSSL_ITEM eip93_reason_strings[];

#endif /* EIP93_ERRORS_H */
