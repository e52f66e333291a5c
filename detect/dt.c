// SPDX-License-Identifier: Apache-2.0
/*
 * detect/dt.c owns the root device-tree "compatible" property: reading it
 * (with the /proc to /sys fallback) and classifying it against the lists
 * it is handed (a SoC profile's, provider/soc.c): no board is named here.
 */
#include "detect.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Is the @n bytes at @s one of the NULL-terminated @list? */
static int in_list(const char *s, size_t n, const char *const *list)
{
	for (size_t i = 0; list != NULL && list[i] != NULL; i++)
		if (strlen(list[i]) == n && memcmp(list[i], s, n) == 0)
			return 1;
	return 0;
}

enum eip93_dt_class eip93_dt_classify(const unsigned char *buf, size_t len,
				      const char *const *match, const char *const *exclude)
{
	int matched = 0, excluded = 0;
	size_t start = 0;

	if (buf == NULL || len == 0 || len > EIP93_DT_MAX || buf[len - 1] != '\0')
		return EIP93_DT_MALFORMED;

	for (size_t i = 0; i < len; i++) {
		if (buf[i] != '\0') {
			/* Compatible strings are printable ASCII without spaces. */
			if (buf[i] < 0x21 || buf[i] > 0x7e)
				return EIP93_DT_MALFORMED;
			continue;
		}
		if (i == start)
			return EIP93_DT_MALFORMED; /* empty string */
		matched |= in_list((const char *)buf + start, i - start, match);
		excluded |= in_list((const char *)buf + start, i - start, exclude);
		start = i + 1;
	}
	if (excluded)
		return EIP93_DT_EXCLUDED;
	return matched ? EIP93_DT_MATCH : EIP93_DT_OTHER;
}

int eip93_dt_read(const char *path, unsigned char *buf, size_t cap, size_t *len)
{
	size_t got = 0;
	int fd, ret = 0;

	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		unsigned char extra;
		ssize_t n;

		if (got == cap) {
			/* Full: one more byte means the property is oversized. */
			n = read(fd, &extra, 1);
			if (n > 0)
				ret = -EFBIG;
			else if (n < 0 && errno == EINTR)
				continue;
			else if (n < 0)
				ret = -errno;
			break;
		}
		n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (ret == 0)
		*len = got;
	return ret;
}

int eip93_dt_read_fallback(const char *primary, const char *fallback, unsigned char *buf,
			   size_t cap, size_t *len, const char **used, int *primary_err)
{
	int r = eip93_dt_read(primary, buf, cap, len);

	*used = primary;
	*primary_err = 0;
	if (r != -ENOENT)
		return r;
	*primary_err = r;
	*used = fallback;
	return eip93_dt_read(fallback, buf, cap, len);
}

int eip93_dt_read_root(unsigned char *buf, size_t cap, size_t *len, const char **used,
		       int *primary_err)
{
	return eip93_dt_read_fallback(EIP93_DT_PROC_PATH, EIP93_DT_SYSFS_PATH, buf, cap, len, used,
				      primary_err);
}

void eip93_dt_describe(const unsigned char *buf, size_t len, char *out, size_t outlen)
{
	size_t o = 0;
	int open_quote = 0;

	if (outlen == 0)
		return;
	for (size_t i = 0; i < len && o + 4 < outlen; i++) {
		if (!open_quote) {
			if (o > 0)
				out[o++] = ' ';
			out[o++] = '"';
			open_quote = 1;
		}
		if (buf[i] == '\0') {
			out[o++] = '"';
			open_quote = 0;
		} else {
			char ch = '?';

			if (buf[i] >= 0x20 && buf[i] <= 0x7e)
				ch = (char)buf[i];
			out[o++] = ch;
		}
	}
	if (open_quote && o + 1 < outlen)
		out[o++] = '"';
	out[o] = '\0';
}
