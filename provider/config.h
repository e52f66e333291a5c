// SPDX-License-Identifier: Apache-2.0
/*
 * The provider's openssl.cnf section, parsed once at load.  Pure parsing
 * (no OpenSSL calls) so host tests can feed it any value.
 *
 * Every key is one row of eip93_config_table (provider/config.c): its name,
 * kind, range, default and field.  Parsing, defaults, error texts and the
 * request the provider sends to OpenSSL all come from that table, so adding
 * a key is one row, one struct field and its test.
 */
#ifndef EIP93_CONFIG_H
#define EIP93_CONFIG_H

#include <stddef.h>

#include "soc.h"

#define EIP93_CFG_DEFAULT_MAX_SOCKETS 256
#define EIP93_CFG_MAX_SOCKETS_CEIL 65536
#define EIP93_CFG_DEFAULT_TIMEOUT_MS 1000
#define EIP93_CFG_TIMEOUT_MS_CEIL 600000
#define EIP93_CFG_PROPQ_MAX 256
#define EIP93_CFG_PATH_MAX 256
#define EIP93_CFG_DEFAULT_TAG_CHECK 64 /* EIP93_TAG_CHECK_DEFAULT (alg/gcm/gcm.h) */
#define EIP93_CFG_TAG_CHECK_CEIL 65536

/* Where the calibration is read when the section names no calibration-file. */
#ifndef EIP93_CALIBRATION_FILE
#define EIP93_CALIBRATION_FILE "/var/lib/eip93/calibration"
#endif

struct eip93_config {
	int enable;		  /* enable = yes|no */
	size_t min_size;	  /* min-size */
	size_t max_size;	  /* max-size */
	unsigned int max_sockets; /* max-sockets */
	unsigned int timeout_ms;  /* timeout-ms */
	int notice;		  /* notice = yes|no */
	int ahead; /* keystream-ahead = yes|no: AES-GCM CTR-only, the next record's keystream */
	char fallback_propq[EIP93_CFG_PROPQ_MAX]; /* fallback-properties */
	char kalg[64];				  /* kernel-algorithm; "" = the first that binds */
	char calib_file[EIP93_CFG_PATH_MAX];	  /* calibration-file; "" = none */
	int window_set;				  /* min-size or max-size given explicitly */
	int routing;				  /* routing = adaptive|fixed (EIP93_ROUTING_*) */
	unsigned int explore;	/* adaptive-explore: 1 in N messages samples the other path */
	unsigned int weight;	/* adaptive-engine-weight: percent (100: the cheaper path) */
	unsigned int tag_check; /* tag-check: kernel AES-GCM, 1 in N tags recomputed (0: none) */
	int backend;		/* engine-backend = auto|afalg|cryptodev (EIP93_BACKEND_*) */
};

enum { EIP93_ROUTING_FIXED = 0, EIP93_ROUTING_ADAPTIVE = 1 };

/*
 * engine-backend's values (enum eip93_backend) are the engine rows
 * (engine/engine.h); kernel-algorithm's are the SoC rows' compositions
 * (provider/soc.h).
 */
/* The keys of the section, in the order they are read: one row each. */
enum eip93_config_key {
	EIP93_CFG_ENABLE,
	EIP93_CFG_MIN_SIZE,
	EIP93_CFG_MAX_SIZE,
	EIP93_CFG_MAX_SOCKETS,
	EIP93_CFG_TIMEOUT_MS,
	EIP93_CFG_NOTICE,
	EIP93_CFG_FALLBACK_PROPERTIES,
	EIP93_CFG_KERNEL_ALGORITHM,
	EIP93_CFG_CALIBRATION_FILE,
	EIP93_CFG_ROUTING,
	EIP93_CFG_ADAPTIVE_EXPLORE,
	EIP93_CFG_ADAPTIVE_ENGINE_WEIGHT,
	EIP93_CFG_TAG_CHECK,
	EIP93_CFG_ENGINE_BACKEND,
	EIP93_CFG_KEYSTREAM_AHEAD,
	EIP93_CONFIG_NKEYS
};

/* What a key's value is, and so how it is parsed and stored. */
enum eip93_cfg_kind {
	EIP93_CFG_BOOL,	  /* int: yes/on/true/1 or no/off/false/0, any case */
	EIP93_CFG_UINT,	  /* unsigned int: plain decimal in [min, max] */
	EIP93_CFG_SIZE,	  /* size_t: plain decimal in [min, max] */
	EIP93_CFG_STRING, /* char[]: min to max characters */
	EIP93_CFG_PATH,	  /* char[]: an absolute path of at most max characters, or none ("") */
	EIP93_CFG_CHOICE, /* int: one of @names, stored as the matching @values entry */
	EIP93_CFG_NAME,	  /* char[]: one of @names, stored as the name */
};

/* The key sets window_set (the window was given explicitly). */
#define EIP93_CFG_F_WINDOW 1u

/**
 * struct eip93_cfg_key - one configuration key.
 * @name: the key as written in openssl.cnf
 * @offset: offset of its field in struct eip93_config
 * @size: size of that field (the capacity of a char[] field)
 * @min: numbers: the smallest value; strings: the fewest characters
 * @max: numbers: the largest value; strings: the most characters
 * @def: the default of a number, bool or choice
 * @def_str: the default of a string, path or name
 * @what: for the error text: "number of bytes", "a property query", ...
 * @min_note: for the error text, after @min (" (never)"), or ""
 * @max_note: for the error text, after @max, or ""
 * @names: choice and name kinds: the accepted values
 * @values: choice kind: what each of @names stores
 * @nnames: entries in @names (and @values)
 * @kind: how its value is parsed and stored
 * @flags: EIP93_CFG_F_*
 */
struct eip93_cfg_key {
	const char *name;
	size_t offset;
	size_t size;
	unsigned long long min;
	unsigned long long max;
	unsigned long long def;
	const char *def_str;
	const char *what;
	const char *min_note;
	const char *max_note;
	const char *const *names;
	const int *values;
	size_t nnames;
	enum eip93_cfg_kind kind;
	unsigned int flags;
};

extern const struct eip93_cfg_key eip93_config_table[EIP93_CONFIG_NKEYS];

/* eip93_config_find() - the row of key @name, or NULL. */
const struct eip93_cfg_key *eip93_config_find(const char *name);

/**
 * eip93_config_parse_dec() - a plain decimal number in [@lo, @hi].
 * @v: digits only: no sign, no spaces, no hex, no suffix
 *
 * Also what eip93-doctor's numeric options accept.
 * Return: 0 with *@out set, -EINVAL (not plain decimal, or empty) or -ERANGE
 * (outside [@lo, @hi], however many digits).
 */
int eip93_config_parse_dec(const char *v, unsigned long long lo, unsigned long long hi,
			   unsigned long long *out);

/* eip93_config_number() - the value of a bool, number or choice key in @c. */
unsigned long long eip93_config_number(const struct eip93_config *c, const struct eip93_cfg_key *k);

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
