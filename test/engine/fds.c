// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check: the process's open descriptors, from /proc/self/fd, and
 * which of them are AF_ALG sockets.
 */
#include "engine_check.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

/* ---- file descriptors ------------------------------------------------------ */

void fds_scan(struct fds *f)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	memset(f, 0, sizeof(*f));
	if (d == NULL) {
		f->all = -1;
		return;
	}
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		int fd, dom = 0;
		socklen_t sl = sizeof(dom);

		if (e->d_name[0] == '.')
			continue;
		fd = atoi(e->d_name);
		if (fd == dirfd(d))
			continue;
		f->all++;
		if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode))
			continue;
		if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &sl) != 0 || dom != AF_ALG)
			continue;
		if (f->alg < MAX_ALG_FDS) {
			f->ino[f->alg] = (unsigned long)st.st_ino;
			f->alg_fd[f->alg] = fd;
		}
		f->alg++;
	}
	closedir(d);
}

int fds_has_ino(const struct fds *f, unsigned long ino)
{
	for (int i = 0; i < f->alg && i < MAX_ALG_FDS; i++)
		if (f->ino[i] == ino)
			return 1;
	return 0;
}
