// SPDX-License-Identifier: Apache-2.0
/* The CPU: architecture and, on aarch64, the AT_HWCAP bits. */
#include "detect.h"

#include <sys/auxv.h>

void eip93_cpu_read(struct eip93_cpu_facts *f)
{
#if defined(__aarch64__)
	f->is_aarch64 = 1;
	f->hwcap = getauxval(AT_HWCAP);
#else
	f->is_aarch64 = 0;
	f->hwcap = 0;
#endif
}

int eip93_cpu_has_aes(unsigned long hwcap)
{
	return (hwcap & EIP93_HWCAP_AES) != 0;
}
