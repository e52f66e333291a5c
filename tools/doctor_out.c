// SPDX-License-Identifier: Apache-2.0
/*
 * tools/doctor_out.c owns eip93-doctor's printers and small file readers
 * (tools/doctor.h): every section prints through them, so the sections call
 * down into this file and never into each other.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "doctor.h"

static int advice_count; /* doctor_advise() calls */

void doctor_fact(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("  %-22s ", name);
	va_start(ap, fmt);
	/* clang-analyzer 14 loses track of va_start here (false positive, as in provider/gate.c). */
	vprintf(fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized) */
	va_end(ap);
	putchar('\n');
}

void doctor_advise(const char *fmt, ...)
{
	va_list ap;

	advice_count++;
	printf("  -> ");
	va_start(ap, fmt);
	vprintf(fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized) */
	va_end(ap);
	putchar('\n');
}

int doctor_advice_count(void)
{
	return advice_count;
}

/* First line of a small file without its newline; -errno on failure. */
int doctor_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return -errno;
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Whether @path has a line containing @needle; the first such line in @out. */
int doctor_file_has(const char *path, const char *needle, char *out, size_t outlen)
{
	char line[512];
	FILE *f = fopen(path, "re");
	int found = 0;

	if (f == NULL)
		return -errno;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strstr(line, needle) != NULL) {
			if (out != NULL) {
				line[strcspn(line, "\n")] = '\0';
				snprintf(out, outlen, "%s", line);
			}
			found = 1;
			break;
		}
	}
	fclose(f);
	return found;
}
