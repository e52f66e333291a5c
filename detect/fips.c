// SPDX-License-Identifier: Apache-2.0
/* The kernel's FIPS flag, /proc/sys/crypto/fips_enabled. */
#include "detect.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int eip93_fips_parse(const char *buf, size_t len)
{
	/* The kernel prints "0\n" or "1\n"; accept the digit alone too. */
	if (len == 2 && buf[1] != '\n')
		return -EINVAL;
	if (len != 1 && len != 2)
		return -EINVAL;
	if (buf[0] == '0')
		return 0;
	if (buf[0] == '1')
		return 1;
	return -EINVAL;
}

int eip93_fips_kernel(const char *path)
{
	char buf[8];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		n = read(fd, buf, sizeof(buf));
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return eip93_fips_parse(buf, (size_t)n);
}
