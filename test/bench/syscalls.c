// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench: its own sendmsg(), readv() and read(), exported from the
 * executable (suite.cmake) so that the provider's AF_ALG calls land here too;
 * they time the kernel's share (sys_timing) or answer without entering it
 * (sys_fake).  read() is the CTR-only composition's (ctr(aes-eip93)); it is
 * used for files too, so it only counts, times or fakes reads of AF_ALG sockets.
 * ioctl() (exported by test/cryptodev/bench.cmake) counts the /dev/crypto
 * backend's requests in section 7's counting pass (sys_count), which also
 * makes read() count AF_ALG reads.
 */
#include "bench.h"

#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ---- the syscalls the provider makes, seen from here ------------------ */

int sys_timing; /* time every AF_ALG syscall into sys_time */
int sys_fake;	/* sendmsg/readv/read (AF_ALG) succeed without entering the kernel */
int sys_count;	/* count AF_ALG reads and every ioctl too */
double sys_time;
long sys_calls;

static size_t iov_total(const struct iovec *iov, size_t n)
{
	size_t t = 0;

	for (size_t i = 0; i < n; i++)
		t += iov[i].iov_len;
	return t;
}

/* Exported from the executable (see suite.cmake): the provider's calls resolve here. */
ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	double t0 = sys_timing ? now_s() : 0;
	ssize_t n;

	sys_calls++;
	if (sys_fake)
		return (ssize_t)iov_total(msg->msg_iov, msg->msg_iovlen);
	n = (ssize_t)syscall(SYS_sendmsg, fd, msg, flags);
	if (sys_timing)
		sys_time += now_s() - t0;
	return n;
}

/* Is @fd an AF_ALG socket?  (AF_ALG has no getsockname; SO_DOMAIN works on any socket.) */
static int is_alg(int fd)
{
	int dom = 0;
	socklen_t l = sizeof(dom);

	return getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &l) == 0 && dom == AF_ALG;
}

ssize_t read(int fd, void *buf, size_t len)
{
	double t0;
	ssize_t n;

	if ((!sys_timing && !sys_fake && !sys_count) || !is_alg(fd))
		return (ssize_t)syscall(SYS_read, fd, buf, len);
	sys_calls++;
	if (sys_fake)
		return (ssize_t)len;
	if (!sys_timing)
		return (ssize_t)syscall(SYS_read, fd, buf, len);
	t0 = now_s();
	n = (ssize_t)syscall(SYS_read, fd, buf, len);
	sys_time += now_s() - t0;
	return n;
}

ssize_t readv(int fd, const struct iovec *iov, int iovcnt)
{
	double t0 = sys_timing ? now_s() : 0;
	ssize_t n;

	sys_calls++;
	if (sys_fake)
		return iovcnt < 0 ? -1 : (ssize_t)iov_total(iov, (size_t)iovcnt);
	n = (ssize_t)syscall(SYS_readv, fd, iov, iovcnt);
	if (sys_timing)
		sys_time += now_s() - t0;
	return n;
}

/* Every request passes straight through; counted in the counting pass. */
int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (sys_count)
		sys_calls++;
	return (int)syscall(SYS_ioctl, fd, req, arg);
}
