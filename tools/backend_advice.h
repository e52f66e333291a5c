// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-doctor's advice on the road to the engine: AF_ALG or the cryptodev
 * module's /dev/crypto (the engine-backend key).  Pure (facts in, text
 * out) so host tests feed it any kernel; tools/doctor_kernel.c reads the
 * facts.
 */
#ifndef EIP93_TOOLS_BACKEND_ADVICE_H
#define EIP93_TOOLS_BACKEND_ADVICE_H

#include <stddef.h>

/* What the doctor's kernel section found, per backend. */
struct backend_facts {
	const char *release;	 /* uname -r; NULL: unknown */
	int restrict_val;	 /* /proc/sys/crypto/af_alg_restrict; -1: absent */
	int configured;		 /* engine-backend (EIP93_BACKEND_*) */
	int afalg_tried;	 /* AF_ALG was probed (engine-backend allows it) */
	int afalg_socket;	 /* 0: an AF_ALG socket opens, else its errno */
	int afalg_bound;	 /* a composition binds through AF_ALG */
	int cdev_tried;		 /* /dev/crypto was probed */
	int cdev_open;		 /* 0: /dev/crypto opens read-write, else open(2)'s errno */
	int cdev_bound;		 /* a composition binds through /dev/crypto */
	const char *cdev_driver; /* the driver a refused session named, or "" / NULL */
	int driver;		 /* @driver_ctr registered: 1, 0, -1 unknown */
	const char *driver_ctr;	 /* the SoC driver's AES-CTR; NULL: the first SoC row's */
	int openwrt;		 /* /etc/openwrt_release exists */
};

/*
 * backend_afalg_refuses() - does this kernel refuse the engine through
 * AF_ALG (Linux 7.2 or later, or af_alg_restrict present and non-zero)?
 */
int backend_afalg_refuses(const struct backend_facts *f);

/* backend_in_use() - "AF_ALG", "/dev/crypto" or "none": the backend the provider would bind. */
const char *backend_in_use(const struct backend_facts *f);

/**
 * backend_advice() - what to do about the backends, in one paragraph.
 * @out: receives it ("" when there is nothing to do)
 *
 * Covers: AF_ALG refused (7.2+, af_alg_restrict) and how to use /dev/crypto
 * instead (the module: OpenWrt kmod-cryptodev, Debian built by hand or with
 * DKMS; the device's permissions); /dev/crypto served by another driver;
 * engine-backend forcing a backend that cannot bind while the other would;
 * neither backend usable (what to install).
 * Return: 1 when @out holds advice, 0 when not.
 */
int backend_advice(const struct backend_facts *f, char *out, size_t len);

#endif /* EIP93_TOOLS_BACKEND_ADVICE_H */
