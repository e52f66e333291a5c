// SPDX-License-Identifier: Apache-2.0
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../alg/adapt.h"
#include "../alg/route.h"

const char *const eip93_config_keys[EIP93_CONFIG_NKEYS + 1] = { "enable",
								"min-size",
								"max-size",
								"max-sockets",
								"timeout-ms",
								"notice",
								"fallback-properties",
								"kernel-algorithm",
								"calibration-file",
								"routing",
								"adaptive-explore",
								"adaptive-engine-weight",
								"tag-check",
								NULL };

/*
 * The compositions the gate may bind, in the order it tries them
 * (docs/design.md "The gate"): the engine's AES-CTR alone first (it needs
 * only the driver, and its tags never come from the engine), then the
 * kernel's AES-GCM over it with each GHASH.
 */
const char *const eip93_kalg_names[EIP93_NKALG] = {
	"ctr(aes-eip93)",
	"gcm_base(ctr(aes-eip93),ghash-neon)",
	"gcm_base(ctr(aes-eip93),ghash-generic)",
	"gcm_base(ctr(aes-eip93),ghash-lib)",
};

int eip93_kalg_index(const char *name)
{
	for (int i = 0; i < EIP93_NKALG; i++)
		if (strcmp(name, eip93_kalg_names[i]) == 0)
			return i;
	return -1;
}

void eip93_config_defaults(struct eip93_config *c)
{
	memset(c, 0, sizeof(*c));
	c->enable = 1;
	c->min_size = 4096;
	c->max_size = 32768;
	c->max_sockets = EIP93_CFG_DEFAULT_MAX_SOCKETS;
	c->timeout_ms = EIP93_CFG_DEFAULT_TIMEOUT_MS;
	c->notice = 1;
	strcpy(c->fallback_propq, "provider=default");
	strcpy(c->calib_file, EIP93_CALIBRATION_FILE);
	c->routing = EIP93_ROUTING_FIXED; /* adaptive is opt-in: docs/operations.md */
	c->explore = EIP93_ADAPT_EXPLORE_DEFAULT;
	c->weight = EIP93_ADAPT_WEIGHT_DEFAULT;
	c->tag_check = EIP93_CFG_DEFAULT_TAG_CHECK;
}

static int parse_bool(const char *v, int *out)
{
	static const char *const yes[] = { "yes", "on", "true", "1" };
	static const char *const no[] = { "no", "off", "false", "0" };

	for (size_t i = 0; i < 4; i++) {
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

/* Plain decimal only: digits, no sign, no spaces, no hex or suffixes. */
static int parse_dec(const char *v, unsigned long long lo, unsigned long long hi,
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

static int bad(char *err, size_t errlen, const char *key, const char *value, const char *want,
	       int ret)
{
	snprintf(err, errlen, "invalid config value %s = \"%s\" (expected %s)", key, value, want);
	return ret;
}

int eip93_config_set(struct eip93_config *c, const char *key, const char *value, char *err,
		     size_t errlen)
{
	unsigned long long n;
	int b, r;

	if (strcmp(key, "enable") == 0 || strcmp(key, "notice") == 0) {
		if (parse_bool(value, &b) < 0)
			return bad(err, errlen, key, value, "yes or no", -EINVAL);
		if (key[0] == 'e')
			c->enable = b;
		else
			c->notice = b;
		return 0;
	}
	if (strcmp(key, "min-size") == 0 || strcmp(key, "max-size") == 0) {
		r = parse_dec(value, EIP93_ROUTE_MIN_SIZE_FLOOR, EIP93_ROUTE_MAX_SIZE_CEIL, &n);
		if (r < 0)
			return bad(err, errlen, key, value,
				   "a decimal number of bytes from 16 to 65536", r);
		if (key[1] == 'i')
			c->min_size = (size_t)n;
		else
			c->max_size = (size_t)n;
		c->window_set = 1;
		return 0;
	}
	if (strcmp(key, "max-sockets") == 0) {
		r = parse_dec(value, 2, EIP93_CFG_MAX_SOCKETS_CEIL, &n);
		if (r < 0)
			return bad(err, errlen, key, value, "a decimal number from 2 to 65536", r);
		c->max_sockets = (unsigned int)n;
		return 0;
	}
	if (strcmp(key, "timeout-ms") == 0) {
		r = parse_dec(value, 1, EIP93_CFG_TIMEOUT_MS_CEIL, &n);
		if (r < 0)
			return bad(err, errlen, key, value,
				   "a decimal number of milliseconds from 1 to 600000", r);
		c->timeout_ms = (unsigned int)n;
		return 0;
	}
	if (strcmp(key, "fallback-properties") == 0) {
		if (value[0] == '\0' || strlen(value) >= sizeof(c->fallback_propq))
			return bad(err, errlen, key, value,
				   "a property query of 1 to 255 characters", -EINVAL);
		strcpy(c->fallback_propq, value);
		return 0;
	}
	if (strcmp(key, "kernel-algorithm") == 0) {
		if (eip93_kalg_index(value) < 0) {
			char want[EIP93_NKALG * 48] = "one of ";

			for (int i = 0; i < EIP93_NKALG; i++) {
				strcat(want, eip93_kalg_names[i]);
				if (i + 1 < EIP93_NKALG)
					strcat(want, ", ");
			}
			return bad(err, errlen, key, value, want, -EINVAL);
		}
		strcpy(c->kalg, value);
		return 0;
	}
	if (strcmp(key, "tag-check") == 0) {
		r = parse_dec(value, 0, EIP93_CFG_TAG_CHECK_CEIL, &n);
		if (r < 0)
			return bad(err, errlen, key, value,
				   "a decimal number from 0 (never) to 65536 (1 in N tags)", r);
		c->tag_check = (unsigned int)n;
		return 0;
	}
	if (strcmp(key, "calibration-file") == 0) {
		if (strcmp(value, "none") == 0) {
			c->calib_file[0] = '\0';
			return 0;
		}
		if (value[0] != '/' || strlen(value) >= sizeof(c->calib_file))
			return bad(err, errlen, key, value,
				   "an absolute path of at most 255 characters, or none", -EINVAL);
		strcpy(c->calib_file, value);
		return 0;
	}
	if (strcmp(key, "routing") == 0) {
		if (strcmp(value, "adaptive") == 0)
			c->routing = EIP93_ROUTING_ADAPTIVE;
		else if (strcmp(value, "fixed") == 0)
			c->routing = EIP93_ROUTING_FIXED;
		else
			return bad(err, errlen, key, value, "adaptive or fixed", -EINVAL);
		return 0;
	}
	if (strcmp(key, "adaptive-explore") == 0) {
		r = parse_dec(value, EIP93_ADAPT_EXPLORE_MIN, EIP93_ADAPT_EXPLORE_MAX, &n);
		if (r < 0)
			return bad(err, errlen, key, value, "a decimal number from 4 to 4096", r);
		c->explore = (unsigned int)n;
		return 0;
	}
	if (strcmp(key, "adaptive-engine-weight") == 0) {
		r = parse_dec(value, EIP93_ADAPT_WEIGHT_MIN, EIP93_ADAPT_WEIGHT_MAX, &n);
		if (r < 0)
			return bad(err, errlen, key, value, "a decimal percentage from 10 to 10000",
				   r);
		c->weight = (unsigned int)n;
		return 0;
	}
	snprintf(err, errlen, "unknown config key %s", key);
	return -ENOENT;
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
