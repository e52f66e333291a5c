// SPDX-License-Identifier: Apache-2.0
/*
 * The user-space /dev/crypto's fault plans: parsing EIP93_TEST_CDEV_FAULT's
 * items (syntax in cdev_shim.c) and making a request's wrong result.
 */
#include "cdev_fault.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cdev_req_names[R_N] = { "open",     "gsession", "fsession",
					  "sessinfo", "crypt",	  "authcrypt" };

static const struct {
	const char *name;
	int err;
} errnos[] = { { "EIO", EIO },	      { "ENOMEM", ENOMEM }, { "ETIMEDOUT", ETIMEDOUT },
	       { "EINTR", EINTR },    { "EAGAIN", EAGAIN }, { "EINVAL", EINVAL },
	       { "ENODEV", ENODEV },  { "EFAULT", EFAULT }, { "ENOENT", ENOENT },
	       { "EACCES", EACCES },  { "EBUSY", EBUSY },   { "EMFILE", EMFILE },
	       { "EBADMSG", EBADMSG } };

void cdev_die(const char *what, const char *v)
{
	fprintf(stderr, "cdev-shim: bad EIP93_TEST_CDEV_FAULT (%s): '%s'\n", what, v);
	exit(2);
}

void cdev_plan_parse(char *s, struct plan *p)
{
	char *req = strtok(s, ":"), *kind = strtok(NULL, ":"), *nth = strtok(NULL, ":");
	char *every = strtok(NULL, ":"), *end;
	size_t i;

	if (req == NULL || kind == NULL || nth == NULL)
		cdev_die("want REQ:KIND:NTH[:every]", s);
	memset(p, 0, sizeof(*p));
	for (i = 0; i < R_N && strcmp(req, cdev_req_names[i]) != 0; i++)
		;
	if (i == R_N)
		cdev_die("request", req);
	p->req = (enum req)i;
	if (strcmp(kind, "flip") == 0) {
		p->kind = K_FLIP;
	} else if (strcmp(kind, "fliplast") == 0) {
		p->kind = K_FLIPLAST;
	} else if (strcmp(kind, "short") == 0) {
		p->kind = K_SHORT;
	} else if (strncmp(kind, "driver=", 7) == 0) {
		p->kind = K_DRIVER;
		snprintf(p->driver, sizeof(p->driver), "%s", kind + 7);
	} else if (strncmp(kind, "srcpage=", 8) == 0 || strncmp(kind, "dstpage=", 8) == 0 ||
		   strncmp(kind, "skip=", 5) == 0) {
		const char *v = strchr(kind, '=') + 1;

		p->kind = kind[0] == 's' && kind[1] == 'k' ? K_SKIP
			  : kind[0] == 's'		   ? K_SRCPAGE
							   : K_DSTPAGE;
		p->arg = strtol(v, &end, 10);
		if (*end != '\0' || *v == '\0' || (p->kind != K_SKIP && p->arg == 0) ||
		    p->arg < -64 || p->arg > 4096)
			cdev_die("kind", kind);
	} else {
		for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
			if (strcmp(kind, errnos[i].name) == 0)
				break;
		if (i == sizeof(errnos) / sizeof(errnos[0]))
			cdev_die("kind", kind);
		p->kind = K_ERRNO;
		p->err = errnos[i].err;
	}
	p->nth = strtoul(nth, &end, 10);
	if (*end != '\0' || p->nth == 0)
		cdev_die("nth", nth);
	if (every != NULL && strcmp(every, "every") != 0)
		cdev_die("every", every);
	p->every = every != NULL;
}

/* The payload offset of the byte a srcpage/dstpage plan hits in a buffer at @buf, or -1. */
static long page_byte(long k, const unsigned char *buf, size_t n)
{
	size_t at = 4096 - (uintptr_t)buf % 4096 + 4096 * (size_t)((k < 0 ? -k : k) - 1);

	if (k < 0)
		at--;
	return at < n ? (long)at : -1;
}

/*
 * A wrong result: @out (@len bytes) after a correct computation into @tmp;
 * @src and @n: the request's source and its payload bytes.
 */
void cdev_damage(const struct plan *p, const unsigned char *tmp, unsigned char *out, size_t len,
		 const unsigned char *src, size_t n)
{
	if (p->kind == K_SRCPAGE || p->kind == K_DSTPAGE) {
		long at = page_byte(p->arg, p->kind == K_SRCPAGE ? src : out, n);

		memcpy(out, tmp, len);
		if (at >= 0)
			out[at] ^= 0x10;
		return;
	}
	if (p->kind == K_SKIP) {
		size_t b = (size_t)p->arg * 16;

		if (b < n) {
			memcpy(out, tmp, b);
			b = b + 16 < n ? b + 16 : n;
			memcpy(out + b, tmp + b, len - b);
		} else {
			memcpy(out, tmp, len);
		}
		return;
	}
	if (p->kind == K_SHORT) {
		memcpy(out, tmp, len / 2);
		return;
	}
	memcpy(out, tmp, len);
	if (len != 0)
		out[p->kind == K_FLIP ? 0 : len - 1] ^= 1;
}
