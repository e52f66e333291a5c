// SPDX-License-Identifier: Apache-2.0
/*
 * The /dev/crypto backend's one addition to engine/engine.h: a probe that also
 * says which driver served it, for the gate's status ("served by
 * ctr-aes-aesni") and eip93-doctor.
 */
#ifndef EIP93_CRYPTODEV_H
#define EIP93_CRYPTODEV_H

#include <stddef.h>

/**
 * eip93_cryptodev_probe() - does @kalg bind on /dev/crypto: a session of its
 * type whose driver (CIOCGSESSINFO) is @kalg?
 * @kalg:   the kernel algorithm
 * @driver: receives the driver this probe's session named, NUL-terminated
 *          and truncated to @n ("" when it got no session: no /dev/crypto,
 *          or the session was refused); may be NULL
 * @n:      size of @driver
 *
 * The same probe as eip93_engine_cryptodev.probe.  Thread-safe, and safe
 * beside other provider instances' probes and key closes: the process's
 * descriptor stays open while the probe uses it; the driver is this call's
 * own.  Return: 0, -ENODEV (another driver serves @kalg) or -errno.
 */
int eip93_cryptodev_probe(const char *kalg, char *driver, size_t n);

#endif /* EIP93_CRYPTODEV_H */
