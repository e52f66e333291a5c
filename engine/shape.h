// SPDX-License-Identifier: Apache-2.0
/*
 * The shape of a message the engine takes, defined once: a 12-byte IV, a
 * 16-byte tag, at most 512 bytes of AAD; AES-CTR requests start at a 16-byte
 * counter block.  Routing (route.h), the engine interface (engine.h) and the
 * backends use these names.  docs/contract.md "Eligible messages".
 */
#ifndef EIP93_SHAPE_H
#define EIP93_SHAPE_H

#define EIP93_ENGINE_IVLEN 12
#define EIP93_ENGINE_TAGLEN 16
#define EIP93_ENGINE_MAX_AAD 512
#define EIP93_ENGINE_CTRBLK 16

/* An engine step's answers besides 0 and -errno: the result failed its integrity check; */
#define EIP93_ENGINE_WRONG 1
/* the TLS 1.2 record could not be put to the engine as it stands (the engine was not asked). */
#define EIP93_RECORD_UNFIT 2

#endif /* EIP93_SHAPE_H */
