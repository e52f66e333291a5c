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
	K_CTR_WINDOW, /* the "#+" keys from here on */
	K_CBC_WINDOW,
	K_N
};
#define K_EXT K_CTR_WINDOW

static const char *const key_names[K_N] = {
	"format",      "date",	     "kernel-release", "openssl-version", "provider-version",
	"composition", "verdict",    "min-size",       "max-size",	  "reason",
	"backend",     "ctr-window", "cbc-window",
};

const char *eip93_calib_mode_key(int mode)
{
	return mode >= 0 && mode < EIP93_CALIB_NMODES ? key_names[K_EXT + mode] : "";
}

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

/* "off", or "MIN-MAX" with MIN <= MAX within the hard limits. */
static int parse_window(const char *v, struct eip93_calib_window *w)
{
	const char *dash = strchr(v, '-');
	char lo[8];

	w->set = 1;
	if (strcmp(v, "off") == 0)
		return 0;
	if (dash == NULL || dash == v || (size_t)(dash - v) >= sizeof(lo))
		return -1;
	memcpy(lo, v, (size_t)(dash - v));
	lo[dash - v] = '\0';
	if (parse_size(lo, &w->min_size) < 0 || parse_size(dash + 1, &w->max_size) < 0 ||
	    w->min_size > w->max_size)
		return -1;
	w->engine = 1;
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
 * One "key = value" line (already NUL-terminated, trimmed of its newline;
 * @ext: a "#+" line, the prefix removed: only the "#+" keys, and a key this
 * version does not know is a comment).  @unprintable: the line held a byte
 * outside printable ASCII (it may be a NUL that ends @line early).  Errors
 * name the line and at most the key, never the value.
 */
static int parse_line(char *line, unsigned int lineno, int unprintable, int ext,
		      struct eip93_calib *c, unsigned int *seen, char *err, size_t errlen)
{
	char *eq = strstr(line, " = ");
	const char *v;
	int k, r = 0;

	if (eq == NULL && ext)
		return 0; /* a comment that starts with "+" */
	if (eq == NULL && unprintable)
		return fail(err, errlen, "line %u: a byte outside printable ASCII", lineno);
	if (eq == NULL)
		return fail(err, errlen, "line %u: expected \"key = value\"", lineno);
	*eq = '\0';
	v = eq + 3;
	for (k = ext ? K_EXT : 0; k < (ext ? K_N : K_EXT); k++)
		if (strcmp(line, key_names[k]) == 0)
			break;
	if (k == (ext ? K_N : K_EXT) && ext)
		return 0; /* a later version's "#+" key: a comment here */
	if (k == K_EXT && !ext)
		k = K_N;
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
	case K_CTR_WINDOW:
	case K_CBC_WINDOW:
		r = parse_window(v, &c->mode[k - K_EXT]);
		if (r < 0)
			return fail(err, errlen,
				    "line %u: invalid value of %s (expected off or MIN-MAX, "
				    "%d <= MIN <= MAX <= %d)",
				    lineno, key_names[k], EIP93_ROUTE_MIN_SIZE_FLOOR,
				    EIP93_ROUTE_MAX_SIZE_CEIL);
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
		int r, unprintable = 0, ext;

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
		ext = strncmp(line, EIP93_CALIB_EXT, strlen(EIP93_CALIB_EXT)) == 0;
		if (n == 0 || (line[0] == '#' && !ext))
			continue;
		r = parse_line(ext ? line + strlen(EIP93_CALIB_EXT) : line, lineno, unprintable,
			       ext, c, &seen, err, errlen);
		if (r < 0)
			return r;
	}
	for (int k = 0; k < K_N; k++) {
		int need = k < K_EXT && k != K_MIN && k != K_MAX && k != K_REASON && k != K_BACKEND;

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
	for (int i = 0; i < EIP93_CALIB_NMODES; i++) {
		const struct eip93_calib_window *w = &c->mode[i];

		if (!w->set)
			continue;
		if (w->engine)
			m = snprintf(buf + n, len - (size_t)n, EIP93_CALIB_EXT "%s = %zu-%zu\n",
				     key_names[K_EXT + i], w->min_size, w->max_size);
		else
			m = snprintf(buf + n, len - (size_t)n, EIP93_CALIB_EXT "%s = off\n",
				     key_names[K_EXT + i]);
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

void eip93_calib_mode_windows(const struct eip93_calib *c, size_t cfg_min, size_t cfg_max,
			      struct eip93_mode_window out[EIP93_CALIB_NMODES])
{
	for (int i = 0; i < EIP93_CALIB_NMODES; i++) {
		const struct eip93_calib_window *w = c != NULL ? &c->mode[i] : NULL;

		out[i].from = EIP93_WINDOW_CONFIG;
		out[i].min_size = cfg_min;
		out[i].max_size = cfg_max;
		if (w == NULL || !w->set)
			continue;
		out[i].from = w->engine ? EIP93_WINDOW_CALIB : EIP93_WINDOW_OFF;
		/* off: no payload fits (the route counts them as outside the window). */
		out[i].min_size = w->engine ? w->min_size : EIP93_ROUTE_MAX_SIZE_CEIL + 1;
		out[i].max_size = w->engine ? w->max_size : 0;
	}
}

int eip93_calib_modes_win(const struct eip93_calib *c)
{
	for (int i = 0; i < EIP93_CALIB_NMODES; i++)
		if (c->mode[i].set && c->mode[i].engine)
			return 1;
	return 0;
}

void eip93_calib_windows_text(const struct eip93_mode_window w[EIP93_CALIB_NMODES],
			      const int bound[EIP93_CALIB_NMODES], char *buf, size_t len)
{
	static const char *const names[EIP93_CALIB_NMODES] = { "AES-CTR", "AES-CBC" };
	size_t n = strlen(buf);

	for (int i = 0; i < EIP93_CALIB_NMODES && n < len; i++) {
		if (!bound[i])
			continue;
		if (w[i].from == EIP93_WINDOW_OFF)
			n += (size_t)snprintf(buf + n, len - n, "; %s off (calibration: software)",
					      names[i]);
		else
			n += (size_t)snprintf(buf + n, len - n, "; %s window %zu-%zu bytes (%s)",
					      names[i], w[i].min_size, w[i].max_size,
					      w[i].from == EIP93_WINDOW_CALIB ? "calibration"
									      : "config");
	}
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
