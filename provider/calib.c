// SPDX-License-Identifier: Apache-2.0
/*
 * provider/calib.c owns the calibration file: parsing and formatting its
 * "key = value" lines, the staleness rule (is it for this kernel, OpenSSL
 * and provider?), and eip93_calib_load(), the one place it is opened, with
 * the ownership and symbolic-link checks (docs/contract.md "Processes and
 * secrets").
 */
#include "calib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../alg/route.h"
#include "config.h"

enum key_id {
	K_FORMAT,
	K_DATE,
	K_KERNEL,
	K_OPENSSL,
	K_PROVIDER,
	K_COMPOSITION,
	K_VERDICT,
	K_MIN,
	K_MAX,
	K_REASON,
	K_BACKEND,
	K_N
};

static const char *const key_names[K_N] = {
	"format",	    "date",	   "kernel-release", "openssl-version",
	"provider-version", "composition", "verdict",	     "min-size",
	"max-size",	    "reason",	   "backend",
};

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* clang-analyzer 14 loses track of va_start here (as in gate.c). */
	vsnprintf(err, errlen, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized) */
	va_end(ap);
	return -EINVAL;
}

static int parse_size(const char *v, size_t *out)
{
	size_t n = 0;

	if (*v == '\0' || strlen(v) > 5)
		return -1;
	for (const char *p = v; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		n = n * 10 + (size_t)(*p - '0');
	}
	if (n < EIP93_ROUTE_MIN_SIZE_FLOOR || n > EIP93_ROUTE_MAX_SIZE_CEIL)
		return -1;
	*out = n;
	return 0;
}

static int copy_text(char *dst, size_t cap, const char *v)
{
	if (*v == '\0' || strlen(v) >= cap)
		return -1;
	strcpy(dst, v);
	return 0;
}

/* Is @ch printable ASCII (0x20-0x7e)?  The only bytes a calibration file may hold in a line. */
static int printable(unsigned char ch)
{
	return ch >= 0x20 && ch <= 0x7e;
}

/*
 * One "key = value" line (already NUL-terminated, trimmed of its newline).
 * @unprintable: the line held a byte outside printable ASCII (it may be a NUL
 * that ends @line early).  Errors name the line and at most the key, never
 * the value.
 */
static int parse_line(char *line, unsigned int lineno, int unprintable, struct eip93_calib *c,
		      unsigned int *seen, char *err, size_t errlen)
{
	char *eq = strstr(line, " = ");
	const char *v;
	int k, r = 0;

	if (eq == NULL && unprintable)
		return fail(err, errlen, "line %u: a byte outside printable ASCII", lineno);
	if (eq == NULL)
		return fail(err, errlen, "line %u: expected \"key = value\"", lineno);
	*eq = '\0';
	v = eq + 3;
	for (k = 0; k < K_N; k++)
		if (strcmp(line, key_names[k]) == 0)
			break;
	if (k == K_N && unprintable)
		return fail(err, errlen, "line %u: a byte outside printable ASCII", lineno);
	if (k == K_N)
		return fail(err, errlen, "line %u: unknown key", lineno); /* no file content */
	if (*seen & (1U << k))
		return fail(err, errlen, "line %u: %s given twice", lineno, key_names[k]);
	*seen |= 1U << k;
	/* The key and " = " are printable: the byte is in the value. */
	if (unprintable)
		return fail(err, errlen,
			    "line %u: invalid value of %s (a byte outside printable ASCII)", lineno,
			    key_names[k]);
	switch (k) {
	case K_FORMAT:
		r = strcmp(v, EIP93_CALIB_FORMAT) == 0 ? 0 : -1;
		break;
	case K_DATE:
		r = copy_text(c->date, sizeof(c->date), v);
		break;
	case K_KERNEL:
		r = copy_text(c->kernel, sizeof(c->kernel), v);
		break;
	case K_OPENSSL:
		r = copy_text(c->openssl, sizeof(c->openssl), v);
		break;
	case K_PROVIDER:
		r = copy_text(c->provider, sizeof(c->provider), v);
		break;
	case K_COMPOSITION:
		r = eip93_kalg_index(v) < 0 ? -1
					    : copy_text(c->composition, sizeof(c->composition), v);
		break;
	case K_VERDICT:
		if (strcmp(v, "engine") == 0 || strcmp(v, "off") == 0)
			c->engine = v[0] == 'e';
		else
			r = -1;
		break;
	case K_MIN:
		r = parse_size(v, &c->min_size);
		break;
	case K_MAX:
		r = parse_size(v, &c->max_size);
		break;
	case K_REASON:
		r = copy_text(c->reason, sizeof(c->reason), v);
		break;
	case K_BACKEND: /* an engine row's name in the file */
		r = -1;
		for (int id = EIP93_BACKEND_AUTO + 1; r < 0 && id < EIP93_BACKEND_END; id++)
			if (strcmp(v, eip93_engine_word(id, EIP93_WORD_FILE)) == 0) {
				c->backend = id;
				r = 0;
			}
		break;
	default:
		break;
	}
	if (r < 0)
		return fail(err, errlen, "line %u: invalid value of %s", lineno, key_names[k]);
	return 0;
}

int eip93_calib_parse(const char *buf, size_t len, struct eip93_calib *c, char *err, size_t errlen)
{
	char line[EIP93_CALIB_REASON + 64];
	unsigned int seen = 0, lineno = 0;
	size_t i = 0;

	memset(c, 0, sizeof(*c));
	c->backend = EIP93_BACKEND_AFALG;
	if (len == 0)
		return fail(err, errlen, "empty file");
	if (len > EIP93_CALIB_MAX_FILE)
		return fail(err, errlen, "larger than %d bytes", EIP93_CALIB_MAX_FILE);
	if (buf[len - 1] != '\n')
		return fail(err, errlen, "truncated (no newline at the end)");
	while (i < len) {
		size_t n = 0;
		int r, unprintable = 0;

		lineno++;
		while (i < len && buf[i] != '\n') {
			if (!printable((unsigned char)buf[i]))
				unprintable = 1;
			if (n + 1 >= sizeof(line))
				return fail(err, errlen, "line %u: longer than %zu bytes", lineno,
					    sizeof(line) - 1);
			line[n++] = buf[i++];
		}
		i++; /* the newline */
		line[n] = '\0';
		if (line[0] == '#' && unprintable)
			return fail(err, errlen, "line %u: a byte outside printable ASCII", lineno);
		if (n == 0 || line[0] == '#')
			continue;
		r = parse_line(line, lineno, unprintable, c, &seen, err, errlen);
		if (r < 0)
			return r;
	}
	for (int k = 0; k < K_N; k++) {
		int need = k != K_MIN && k != K_MAX && k != K_REASON && k != K_BACKEND;

		if (need && !(seen & (1U << k)))
			return fail(err, errlen, "%s missing", key_names[k]);
	}
	if (c->engine) {
		if (!(seen & (1U << K_MIN)) || !(seen & (1U << K_MAX)))
			return fail(err, errlen, "verdict = engine without min-size and max-size");
		if (c->min_size > c->max_size)
			return fail(err, errlen, "min-size is above max-size");
	} else {
		if (seen & ((1U << K_MIN) | (1U << K_MAX)))
			return fail(err, errlen, "verdict = off with a window");
		if (!(seen & (1U << K_REASON)))
			return fail(err, errlen, "verdict = off without a reason");
	}
	return 0;
}

int eip93_calib_format(const struct eip93_calib *c, const char *comment, char *buf, size_t len)
{
	int n, m;

	n = snprintf(buf, len,
		     "# eip93 calibration: written by `eip93-doctor calibrate`, read by the eip93\n"
		     "# provider when it loads.  Do not edit: run `eip93-doctor calibrate` again.\n"
		     "format = " EIP93_CALIB_FORMAT "\n"
		     "date = %s\nkernel-release = %s\nopenssl-version = %s\nprovider-version = %s\n"
		     "composition = %s\nverdict = %s\n",
		     c->date, c->kernel, c->openssl, c->provider, c->composition,
		     c->engine ? "engine" : "off");
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	if (c->backend != EIP93_BACKEND_AFALG && eip93_engine_word(c->backend, EIP93_WORD_FILE)) {
		/* AF_ALG is the absent key's meaning: such files stay readable by older providers. */
		m = snprintf(buf + n, len - (size_t)n, "backend = %s\n",
			     eip93_engine_word(c->backend, EIP93_WORD_FILE));
		if (m < 0 || (size_t)m >= len - (size_t)n)
			return -ENOSPC;
		n += m;
	}
	if (c->engine) {
		m = snprintf(buf + n, len - (size_t)n, "min-size = %zu\nmax-size = %zu\n",
			     c->min_size, c->max_size);
		if (m < 0 || (size_t)m >= len - (size_t)n)
			return -ENOSPC;
		n += m;
	}
	if (c->reason[0] != '\0') {
		m = snprintf(buf + n, len - (size_t)n, "reason = %s\n", c->reason);
		if (m < 0 || (size_t)m >= len - (size_t)n)
			return -ENOSPC;
		n += m;
	}
	if (comment != NULL) {
		m = snprintf(buf + n, len - (size_t)n, "%s", comment);
		if (m < 0 || (size_t)m >= len - (size_t)n)
			return -ENOSPC;
		n += m;
	}
	return n;
}

int eip93_calib_stale(const struct eip93_calib *c, const struct eip93_calib_facts *f, char *why,
		      size_t whylen)
{
	if (strcmp(c->kernel, f->kernel) != 0) {
		snprintf(why, whylen, "measured on kernel %s, this is %s", c->kernel, f->kernel);
		return 1;
	}
	if (strcmp(c->openssl, f->openssl) != 0) {
		snprintf(why, whylen, "measured with OpenSSL %s, this is %s", c->openssl,
			 f->openssl);
		return 1;
	}
	if (strcmp(c->provider, f->provider) != 0) {
		snprintf(why, whylen, "measured with eip93 %s, this is %s", c->provider,
			 f->provider);
		return 1;
	}
	return 0;
}

/*
 * May the provider follow the file open on @fd?  Only a regular file owned
 * by root or by the user the provider runs as, that neither its group nor
 * others can write: the window it sets decides where plaintext goes, so the
 * file must be the administrator's (a symbolic link is refused at open, not
 * followed).  0, or -EPERM with the reason in @why.
 */
static int calib_trusted(int fd, char *why, size_t whylen)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		snprintf(why, whylen, "cannot read it: %s", strerror(errno));
		return -EPERM;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "refused: not a regular file");
		return -EPERM;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		snprintf(why, whylen, "refused: owned by uid %u, not by root or uid %u",
			 (unsigned int)st.st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
		snprintf(why, whylen, "refused: writable by its group or others (mode %04o)",
			 (unsigned int)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

void eip93_calib_load(const char *path, struct eip93_calib_load *out)
{
	const size_t cap = EIP93_CALIB_MAX_FILE + 1;
	char e[200], *buf;
	ssize_t n;
	size_t len = 0;
	int fd;

	memset(out, 0, sizeof(*out));
	if (path == NULL || path[0] == '\0') {
		out->state = EIP93_CALIB_NONE;
		return;
	}
	snprintf(out->path, sizeof(out->path), "%s", path);
	/* O_NONBLOCK: a FIFO in its place must not hang the application's load. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		int err = errno;

		out->state = err == ENOENT ? EIP93_CALIB_ABSENT : EIP93_CALIB_INVALID;
		if (err == ELOOP)
			snprintf(out->error, sizeof(out->error),
				 "refused: a symbolic link (not followed)");
		else
			snprintf(out->error, sizeof(out->error), "cannot read it: %s",
				 strerror(err));
		return;
	}
	if (calib_trusted(fd, out->error, sizeof(out->error)) < 0) {
		close(fd);
		out->state = EIP93_CALIB_INVALID;
		return;
	}
	buf = malloc(cap);
	if (buf == NULL) {
		close(fd);
		out->state = EIP93_CALIB_INVALID;
		snprintf(out->error, sizeof(out->error), "cannot read it: out of memory");
		return;
	}
	while (len < cap && (n = read(fd, buf + len, cap - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(out->error, sizeof(out->error), "cannot read it: %s",
				 strerror(errno));
			out->state = EIP93_CALIB_INVALID;
			goto out;
		}
		len += (size_t)n;
	}
	if (eip93_calib_parse(buf, len, &out->cal, e, sizeof(e)) < 0) {
		out->state = EIP93_CALIB_INVALID;
		snprintf(out->error, sizeof(out->error), "corrupt: %s", e);
		goto out;
	}
	out->state = EIP93_CALIB_LOADED;
out:
	close(fd);
	free(buf);
}
