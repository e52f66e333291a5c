// SPDX-License-Identifier: Apache-2.0
/*
 * Kernel facts: does an AF_ALG aead or skcipher name bind?  Which kernel
 * release runs?  What does af_alg_restrict say, is a driver registered?
 */
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

static int kprobe(const char *type, const char *name)
{
	struct sockaddr_alg sa;
	int fd, ret = 0;

	if (strlen(name) >= sizeof(sa.salg_name))
		return -ENAMETOOLONG;
	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	memcpy(sa.salg_type, type, strlen(type) + 1);
	memcpy(sa.salg_name, name, strlen(name) + 1);

	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (const struct sockaddr *)&sa, sizeof(sa)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int eip93_kprobe_aead(const char *name)
{
	return kprobe("aead", name);
}

const char *eip93_kprobe_type(const char *name)
{
	/* Algorithm names, and drivers' own names ("mv-ecb-aes", "ctr-aes-qce"). */
	static const char *const skciphers[] = { "ctr(", "cbc(", "ecb(" };
	static const char *const drivers[] = { "ctr-aes", "cbc-aes", "ecb-aes" };

	if (strncmp(name, "gcm", 3) == 0)
		return "aead";
	for (size_t i = 0; i < sizeof(skciphers) / sizeof(skciphers[0]); i++)
		if (strncmp(name, skciphers[i], 4) == 0 || strstr(name, drivers[i]) != NULL)
			return "skcipher";
	return "aead";
}

int eip93_kprobe_alg(const char *name)
{
	return kprobe(eip93_kprobe_type(name), name);
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

int eip93_kprobe_restrict(void)
{
	FILE *f = fopen("/proc/sys/crypto/af_alg_restrict", "re");
	int v = -1;

	if (f == NULL)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int eip93_kprobe_driver(const char *driver)
{
	char line[256], want[160];
	FILE *f;
	int found = 0;

	if ((size_t)snprintf(want, sizeof(want), ": %s\n", driver) >= sizeof(want))
		return -1;
	f = fopen("/proc/crypto", "re");
	if (f == NULL)
		return -1;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = strncmp(line, "driver", 6) == 0 && strstr(line, want) != NULL;
	fclose(f);
	return found;
}
