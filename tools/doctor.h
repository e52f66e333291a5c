// SPDX-License-Identifier: Apache-2.0
/*
 * What eip93-doctor's sections share: its two kinds of output line and the
 * small file readers (tools/doctor_out.c), and the kernel section
 * (tools/doctor_kernel.c), which tools/eip93-doctor.c calls.
 */
#ifndef EIP93_TOOLS_DOCTOR_H
#define EIP93_TOOLS_DOCTOR_H

#include <stddef.h>

/* doctor_fact() - one "  name   value" line. */
void doctor_fact(const char *name, const char *fmt, ...);
/* doctor_advise() - one "  -> advice" line (counted). */
void doctor_advise(const char *fmt, ...);
/* doctor_advice_count() - the doctor_advise() lines printed so far. */
int doctor_advice_count(void);
/* doctor_read_line() - the first line of a small file without its newline; 0 or -errno. */
int doctor_read_line(const char *path, char *buf, size_t len);
/* doctor_file_has() - 1 when @path has a line with @needle (the first in @out), 0, -errno. */
int doctor_file_has(const char *path, const char *needle, char *out, size_t outlen);

/*
 * doctor_check_kernel() - section [5]: the kernel's side of both backends,
 * probed as the provider's configuration (engine-backend, kernel-algorithm)
 * would have the gate probe them.  Return: 1 when a composition binds.
 */
int doctor_check_kernel(void);

#endif /* EIP93_TOOLS_DOCTOR_H */
