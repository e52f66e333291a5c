// SPDX-License-Identifier: Apache-2.0
/*
 * The provider's openssl.cnf section, parsed once at load.  Pure parsing
 * (no OpenSSL calls) so host tests can feed it any value.
 */
#ifndef EIP93_CONFIG_H
#define EIP93_CONFIG_H

#include <stddef.h>

#define EIP93_CFG_DEFAULT_MAX_SOCKETS 256
#define EIP93_CFG_MAX_SOCKETS_CEIL 65536
#define EIP93_CFG_DEFAULT_TIMEOUT_MS 1000
#define EIP93_CFG_TIMEOUT_MS_CEIL 600000
#define EIP93_CFG_PROPQ_MAX 256

struct eip93_config {
	int enable;			/* enable = yes|no */
	size_t min_size;		/* min-size */
	size_t max_size;		/* max-size */
	unsigned int max_sockets;	/* max-sockets */
	unsigned int timeout_ms;	/* timeout-ms */
	int notice;			/* notice = yes|no */
	char fallback_propq[EIP93_CFG_PROPQ_MAX]; /* fallback-properties */
};

/* The keys of the section, in the order they are read. */
extern const char *const eip93_config_keys[];

/* eip93_config_defaults() - the documented defaults. */
void eip93_config_defaults(struct eip93_config *c);

/**
 * eip93_config_set() - apply one key = value.
 * @err: on failure, a sentence naming the key, the value and what is accepted
 *
 * Return: 0, -EINVAL (bad value), -ERANGE (out of range) or -ENOENT
 * (unknown key).  @c is unchanged on failure.
 */
int eip93_config_set(struct eip93_config *c, const char *key, const char *value,
		     char *err, size_t errlen);

/**
 * eip93_config_check() - cross-key checks once every key is applied.
 *
 * Return: 0 or -ERANGE (e.g. min-size above max-size), with @err filled.
 */
int eip93_config_check(const struct eip93_config *c, char *err, size_t errlen);

#endif /* EIP93_CONFIG_H */
