// SPDX-License-Identifier: Apache-2.0
/* Kernel facts: does an AF_ALG aead name bind?  Which kernel release runs? */
#include "detect.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/if_alg.h>

#ifndef AF_ALG
#define AF_ALG 38
#endif

int eip93_kprobe_aead(const char *name)
{
	struct sockaddr_alg sa;
	int fd, ret = 0;

	if (strlen(name) >= sizeof(sa.salg_name))
		return -ENAMETOOLONG;
	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	memcpy(sa.salg_type, "aead", sizeof("aead"));
	memcpy(sa.salg_name, name, strlen(name) + 1);

	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (const struct sockaddr *)&sa, sizeof(sa)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int eip93_kernel_release(char *buf, size_t len)
{
	struct utsname u;

	if (len == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (uname(&u) < 0)
		return -errno;
	if ((size_t)snprintf(buf, len, "%s", u.release) >= len) {
		buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}
