// SPDX-License-Identifier: Apache-2.0
/*
 * provider/config.c owns the provider's configuration keys: the table of
 * their descriptors (name, kind, range, default, field), parsing a value
 * against its row, the error texts built from the row, the defaults, the
 * cross-key rules, and the list of compositions the kernel-algorithm key
 * accepts (docs/contract.md "Configuration").
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../alg/adapt.h"
#include "../engine/engine.h"
#include "../alg/route.h"

/* engine-backend: auto, then each engine row's name (engine/engine.h). */
#define EIP93_ROW_NAME(id, name, file, road, via, ops, words) name,
#define EIP93_ROW_VALUE(id, name, file, road, via, ops, words) EIP93_BACKEND_##id,
static const char *const backend_names[] = { "auto", EIP93_ENGINE_ROWS(EIP93_ROW_NAME) };
static const int backend_values[] = { EIP93_BACKEND_AUTO, EIP93_ENGINE_ROWS(EIP93_ROW_VALUE) };
#undef EIP93_ROW_NAME
#undef EIP93_ROW_VALUE
static const char *const routing_names[] = { "adaptive", "fixed" };
static const int routing_values[] = { EIP93_ROUTING_ADAPTIVE, EIP93_ROUTING_FIXED };

#define CFG_FIELD(f)                                                                               \
	.offset = offsetof(struct eip93_config, f), .size = sizeof(((struct eip93_config *)0)->f)

/*
 * One row per key, one macro per kind; the key's name is the macro's first
 * argument (scripts/check-config-docs.sh reads the names from here).
 */
#define EIP93_CFG_KEY_BOOL(key, f, dflt)                                                           \
	{                                                                                          \
		.name = key, .kind = EIP93_CFG_BOOL, CFG_FIELD(f), .min = 0, .max = 1, .def = dflt \
	}
#define EIP93_CFG_KEY_NUM(key, k, f, lo, hi, dflt, noun, lo_note, hi_note, fl)                     \
	{                                                                                          \
		.name = key, .kind = k, CFG_FIELD(f), .min = lo, .max = hi, .def = dflt,           \
		.what = noun, .min_note = lo_note, .max_note = hi_note, .flags = fl                \
	}
#define EIP93_CFG_KEY_STRING(key, k, f, lo, dflt, noun)                                            \
	{                                                                                          \
		.name = key, .kind = k, CFG_FIELD(f), .min = lo,                                   \
		.max = sizeof(((struct eip93_config *)0)->f) - 1, .def_str = dflt, .what = noun    \
	}
#define EIP93_CFG_KEY_CHOICE(key, f, list, vals, dflt)                                             \
	{                                                                                          \
		.name = key, .kind = EIP93_CFG_CHOICE, CFG_FIELD(f), .def = dflt, .names = list,   \
		.values = vals, .nnames = sizeof(list) / sizeof(list[0])                           \
	}
#define EIP93_CFG_KEY_NAME(key, f, list, dflt)                                                     \
	{                                                                                          \
		.name = key, .kind = EIP93_CFG_NAME, CFG_FIELD(f), .def_str = dflt, .names = list, \
		.nnames = sizeof(list) / sizeof(list[0])                                           \
	}

/* clang-format off */
const struct eip93_cfg_key eip93_config_table[EIP93_CONFIG_NKEYS] = {
	[EIP93_CFG_ENABLE] = EIP93_CFG_KEY_BOOL("enable", enable, 1),
	[EIP93_CFG_MIN_SIZE] = EIP93_CFG_KEY_NUM("min-size", EIP93_CFG_SIZE, min_size,
		EIP93_ROUTE_MIN_SIZE_FLOOR, EIP93_ROUTE_MAX_SIZE_CEIL, 4096,
		"number of bytes", "", "", EIP93_CFG_F_WINDOW),
	[EIP93_CFG_MAX_SIZE] = EIP93_CFG_KEY_NUM("max-size", EIP93_CFG_SIZE, max_size,
		EIP93_ROUTE_MIN_SIZE_FLOOR, EIP93_ROUTE_MAX_SIZE_CEIL, 32768,
		"number of bytes", "", "", EIP93_CFG_F_WINDOW),
	[EIP93_CFG_MAX_SOCKETS] = EIP93_CFG_KEY_NUM("max-sockets", EIP93_CFG_UINT, max_sockets,
		2, EIP93_CFG_MAX_SOCKETS_CEIL, EIP93_CFG_DEFAULT_MAX_SOCKETS,
		"number", "", "", 0),
	[EIP93_CFG_TIMEOUT_MS] = EIP93_CFG_KEY_NUM("timeout-ms", EIP93_CFG_UINT, timeout_ms,
		1, EIP93_CFG_TIMEOUT_MS_CEIL, EIP93_CFG_DEFAULT_TIMEOUT_MS,
		"number of milliseconds", "", "", 0),
	[EIP93_CFG_NOTICE] = EIP93_CFG_KEY_BOOL("notice", notice, 1),
	[EIP93_CFG_FALLBACK_PROPERTIES] = EIP93_CFG_KEY_STRING("fallback-properties",
		EIP93_CFG_STRING, fallback_propq, 1, "provider=default", "a property query"),
	[EIP93_CFG_KERNEL_ALGORITHM] = EIP93_CFG_KEY_NAME("kernel-algorithm", kalg,
		eip93_kalg_names, ""),
	[EIP93_CFG_CALIBRATION_FILE] = EIP93_CFG_KEY_STRING("calibration-file",
		EIP93_CFG_PATH, calib_file, 1, EIP93_CALIBRATION_FILE, "an absolute path"),
	/* adaptive is opt-in: docs/operations.md */
	[EIP93_CFG_ROUTING] = EIP93_CFG_KEY_CHOICE("routing", routing, routing_names,
		routing_values, EIP93_ROUTING_FIXED),
	[EIP93_CFG_ADAPTIVE_EXPLORE] = EIP93_CFG_KEY_NUM("adaptive-explore", EIP93_CFG_UINT,
		explore, EIP93_ADAPT_EXPLORE_MIN, EIP93_ADAPT_EXPLORE_MAX,
		EIP93_ADAPT_EXPLORE_DEFAULT, "number", "", "", 0),
	[EIP93_CFG_ADAPTIVE_ENGINE_WEIGHT] = EIP93_CFG_KEY_NUM("adaptive-engine-weight",
		EIP93_CFG_UINT, weight, EIP93_ADAPT_WEIGHT_MIN, EIP93_ADAPT_WEIGHT_MAX,
		EIP93_ADAPT_WEIGHT_DEFAULT, "percentage", "", "", 0),
	[EIP93_CFG_TAG_CHECK] = EIP93_CFG_KEY_NUM("tag-check", EIP93_CFG_UINT, tag_check,
		0, EIP93_CFG_TAG_CHECK_CEIL, EIP93_CFG_DEFAULT_TAG_CHECK,
		"number", " (never)", " (1 in N tags)", 0),
	[EIP93_CFG_ENGINE_BACKEND] = EIP93_CFG_KEY_CHOICE("engine-backend", backend,
		backend_names, backend_values, EIP93_BACKEND_AUTO),
	[EIP93_CFG_KEYSTREAM_AHEAD] = EIP93_CFG_KEY_BOOL("keystream-ahead", ahead, 1),
};
/* clang-format on */

_Static_assert(sizeof(eip93_config_table) / sizeof(eip93_config_table[0]) == EIP93_CONFIG_NKEYS,
	       "one row per enum eip93_config_key");
_Static_assert(sizeof(routing_names) / sizeof(routing_names[0]) ==
		       sizeof(routing_values) / sizeof(routing_values[0]),
	       "one value per routing name");
_Static_assert(sizeof(backend_names) / sizeof(backend_names[0]) ==
		       sizeof(backend_values) / sizeof(backend_values[0]),
	       "one value per backend name");

const struct eip93_cfg_key *eip93_config_find(const char *name)
{
	for (size_t i = 0; i < EIP93_CONFIG_NKEYS; i++)
		if (strcmp(name, eip93_config_table[i].name) == 0)
			return &eip93_config_table[i];
	return NULL;
}

static void *field(struct eip93_config *c, const struct eip93_cfg_key *k)
{
	return (char *)c + k->offset;
}

/* Store @v in the int, unsigned int or size_t field of @k. */
static void store_number(struct eip93_config *c, const struct eip93_cfg_key *k,
			 unsigned long long v)
{
	if (k->kind == EIP93_CFG_SIZE) {
		size_t s = (size_t)v;

		memcpy(field(c, k), &s, sizeof(s));
	} else if (k->kind == EIP93_CFG_UINT) {
		unsigned int u = (unsigned int)v;

		memcpy(field(c, k), &u, sizeof(u));
	} else {
		int i = (int)v;

		memcpy(field(c, k), &i, sizeof(i));
	}
}

unsigned long long eip93_config_number(const struct eip93_config *c, const struct eip93_cfg_key *k)
{
	const char *f = (const char *)c + k->offset;

	switch (k->kind) {
	case EIP93_CFG_SIZE: {
		size_t s;

		memcpy(&s, f, sizeof(s));
		return s;
	}
	case EIP93_CFG_UINT: {
		unsigned int u;

		memcpy(&u, f, sizeof(u));
		return u;
	}
	case EIP93_CFG_BOOL:
	case EIP93_CFG_CHOICE: {
		int i;

		memcpy(&i, f, sizeof(i));
		return (unsigned long long)i;
	}
	default:
		return 0;
	}
}

static void store_string(struct eip93_config *c, const struct eip93_cfg_key *k, const char *v)
{
	snprintf(field(c, k), k->size, "%s", v);
}

void eip93_config_defaults(struct eip93_config *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < EIP93_CONFIG_NKEYS; i++) {
		const struct eip93_cfg_key *k = &eip93_config_table[i];

		if (k->def_str != NULL)
			store_string(c, k, k->def_str);
		else
			store_number(c, k, k->def);
	}
}

static int parse_bool(const char *v, int *out)
{
	static const char *const yes[] = { "yes", "on", "true", "1" };
	static const char *const no[] = { "no", "off", "false", "0" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

int eip93_config_parse_dec(const char *v, unsigned long long lo, unsigned long long hi,
			   unsigned long long *out)
{
	unsigned long long n = 0;

	if (*v == '\0')
		return -EINVAL;
	for (const char *p = v; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		if (n > hi)
			return -ERANGE; /* stop before the number can overflow */
		n = n * 10ULL + (unsigned long long)(*p - '0');
	}
	if (n < lo || n > hi)
		return -ERANGE;
	*out = n;
	return 0;
}

/* What @k accepts, in words, from its row. */
static void expected(const struct eip93_cfg_key *k, char *want, size_t len)
{
	size_t n = 0;

	switch (k->kind) {
	case EIP93_CFG_BOOL:
		snprintf(want, len, "yes or no");
		return;
	case EIP93_CFG_UINT:
	case EIP93_CFG_SIZE:
		snprintf(want, len, "a decimal %s from %llu%s to %llu%s", k->what, k->min,
			 k->min_note, k->max, k->max_note);
		return;
	case EIP93_CFG_STRING:
		snprintf(want, len, "%s of %llu to %llu characters", k->what, k->min, k->max);
		return;
	case EIP93_CFG_PATH:
		snprintf(want, len, "%s of at most %llu characters, or none", k->what, k->max);
		return;
	case EIP93_CFG_CHOICE:
	case EIP93_CFG_NAME:
	default:
		if (k->nnames == 2) {
			snprintf(want, len, "%s or %s", k->names[0], k->names[1]);
			return;
		}
		want[0] = '\0';
		for (size_t i = 0; i < k->nnames && n < len; i++)
			n += (size_t)snprintf(want + n, len - n, "%s%s", i == 0 ? "one of " : ", ",
					      k->names[i]);
		return;
	}
}

static int bad(char *err, size_t errlen, const struct eip93_cfg_key *k, const char *value, int ret)
{
	char want[EIP93_NKALG * 48 + 16];

	expected(k, want, sizeof(want));
	snprintf(err, errlen, "invalid config value %s = \"%s\" (expected %s)", k->name, value,
		 want);
	return ret;
}

static int choice_index(const struct eip93_cfg_key *k, const char *value)
{
	for (size_t i = 0; i < k->nnames; i++)
		if (strcmp(value, k->names[i]) == 0)
			return (int)i;
	return -1;
}

int eip93_config_set(struct eip93_config *c, const char *key, const char *value, char *err,
		     size_t errlen)
{
	const struct eip93_cfg_key *k = eip93_config_find(key);
	unsigned long long n;
	size_t len;
	int b, r;

	if (k == NULL) {
		snprintf(err, errlen, "unknown config key %s", key);
		return -ENOENT;
	}
	switch (k->kind) {
	case EIP93_CFG_BOOL:
		if (parse_bool(value, &b) < 0)
			return bad(err, errlen, k, value, -EINVAL);
		store_number(c, k, (unsigned long long)b);
		break;
	case EIP93_CFG_UINT:
	case EIP93_CFG_SIZE:
		r = eip93_config_parse_dec(value, k->min, k->max, &n);
		if (r < 0)
			return bad(err, errlen, k, value, r);
		store_number(c, k, n);
		break;
	case EIP93_CFG_STRING:
		len = strlen(value);
		if (len < k->min || len > k->max)
			return bad(err, errlen, k, value, -EINVAL);
		store_string(c, k, value);
		break;
	case EIP93_CFG_PATH:
		if (strcmp(value, "none") == 0) {
			store_string(c, k, "");
			break;
		}
		if (value[0] != '/' || strlen(value) > k->max)
			return bad(err, errlen, k, value, -EINVAL);
		store_string(c, k, value);
		break;
	case EIP93_CFG_CHOICE:
		b = choice_index(k, value);
		if (b < 0)
			return bad(err, errlen, k, value, -EINVAL);
		store_number(c, k, (unsigned long long)k->values[b]);
		break;
	case EIP93_CFG_NAME:
	default:
		if (choice_index(k, value) < 0)
			return bad(err, errlen, k, value, -EINVAL);
		store_string(c, k, value);
		break;
	}
	if (k->flags & EIP93_CFG_F_WINDOW)
		c->window_set = 1;
	return 0;
}

int eip93_config_check(const struct eip93_config *c, char *err, size_t errlen)
{
	if (c->min_size > c->max_size) {
		snprintf(err, errlen, "invalid config: min-size = %zu is above max-size = %zu",
			 c->min_size, c->max_size);
		return -ERANGE;
	}
	return 0;
}
