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
#define EIP93_CFG_PATH_MAX 256
#define EIP93_CFG_DEFAULT_TAG_CHECK 64 /* EIP93_TAG_CHECK_DEFAULT (alg/gcm.h) */
#define EIP93_CFG_TAG_CHECK_CEIL 65536

/* Where the calibration is read when the section names no calibration-file. */
#ifndef EIP93_CALIBRATION_FILE
#define EIP93_CALIBRATION_FILE "/var/lib/eip93/calibration"
#endif

struct eip93_config {
	int enable;				  /* enable = yes|no */
	size_t min_size;			  /* min-size */
	size_t max_size;			  /* max-size */
	unsigned int max_sockets;		  /* max-sockets */
	unsigned int timeout_ms;		  /* timeout-ms */
	int notice;				  /* notice = yes|no */
	char fallback_propq[EIP93_CFG_PROPQ_MAX]; /* fallback-properties */
	char kalg[64];				  /* kernel-algorithm; "" = the first that binds */
	char calib_file[EIP93_CFG_PATH_MAX];	  /* calibration-file; "" = none */
	int window_set;				  /* min-size or max-size given explicitly */
	int routing;				  /* routing = adaptive|fixed (EIP93_ROUTING_*) */
	unsigned int explore;	/* adaptive-explore: 1 in N messages samples the other path */
	unsigned int weight;	/* adaptive-engine-weight: percent (100: the cheaper path) */
	unsigned int tag_check; /* tag-check: kernel AES-GCM, 1 in N tags recomputed (0: none) */
};

enum { EIP93_ROUTING_FIXED = 0, EIP93_ROUTING_ADAPTIVE = 1 };

/* The compositions (kernel algorithms), in the gate's order. */
#define EIP93_NKALG 4
extern const char *const eip93_kalg_names[EIP93_NKALG];

/* eip93_kalg_index() - position of @name in eip93_kalg_names, or -1. */
int eip93_kalg_index(const char *name);

/* The keys of the section, in the order they are read (NULL-terminated). */
#define EIP93_CONFIG_NKEYS 13
extern const char *const eip93_config_keys[EIP93_CONFIG_NKEYS + 1];

/* eip93_config_defaults() - the documented defaults. */
void eip93_config_defaults(struct eip93_config *c);

/**
 * eip93_config_set() - apply one key = value.
 * @err: on failure, a sentence naming the key, the value and what is accepted
 *
 * Return: 0, -EINVAL (bad value), -ERANGE (out of range) or -ENOENT
 * (unknown key).  @c is unchanged on failure.
 */
int eip93_config_set(struct eip93_config *c, const char *key, const char *value, char *err,
		     size_t errlen);

/**
 * eip93_config_check() - cross-key checks once every key is applied.
 *
 * Return: 0 or -ERANGE (e.g. min-size above max-size), with @err filled.
 */
int eip93_config_check(const struct eip93_config *c, char *err, size_t errlen);

#endif /* EIP93_CONFIG_H */
