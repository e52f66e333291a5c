// SPDX-License-Identifier: Apache-2.0
/*
 * The /dev/crypto backend's one addition to alg/engine.h: the driver that
 * served the last probe, for the gate's status ("served by ctr-aes-aesni").
 */
#ifndef EIP93_CRYPTODEV_H
#define EIP93_CRYPTODEV_H

#include <stddef.h>

/**
 * eip93_cryptodev_last_driver() - the driver CIOCGSESSINFO named at the
 * last probe of this process.
 * @buf: receives it, NUL-terminated ("" when no probe got that far: no
 *       /dev/crypto, or the session was refused)
 * @n:   size of @buf
 *
 * Thread-safe (a copy under the backend's lock).  Return: the length copied.
 */
size_t eip93_cryptodev_last_driver(char *buf, size_t n);

#endif /* EIP93_CRYPTODEV_H */
