// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-seccomp-check: a process under a seccomp filter that kills on
 * socket() (as OpenSSH's pre-auth child does) keeps working with eip93
 * preferred: its large messages go to software, counted as "seccomp", and no
 * AF_ALG syscall is made.  Run in the guest with the hooks build, the
 * simulated driver loaded and OPENSSL_CONF preferring eip93.
 *
 * Three children, each forked after the provider is loaded (gate decided):
 *   control   no filter: the engine takes the message (engine counter rises)
 *   openssh   socket -> KILL_PROCESS, open/openat -> EACCES (OpenSSH's style)
 *   readable  socket -> KILL_PROCESS, everything else allowed: the provider
 *             reads "Seccomp: 2" from /proc/self/status
 * A filtered child must exit 0 (a kill would be SIGSYS), its ciphertext and
 * tag must equal the default provider's, its decryption must round-trip and
 * the seccomp counter must have risen while the engine counter did not.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define MSG 16384

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "unsupported architecture"
#endif

static OSSL_PROVIDER *prov;

static uint64_t counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_uint64(name, &v), OSSL_PARAM_construct_end() };

	if (!OSSL_PROVIDER_get_params(prov, p))
		return UINT64_MAX;
	return v;
}

static int install_filter(int deny_open)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_prctl, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K,
			 deny_open ? SECCOMP_RET_ERRNO | EACCES : SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(f) / sizeof(f[0])), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -errno;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
		return -errno;
	return 0;
}

/* AES-256-GCM over MSG bytes with @props; 1 on success. */
static int seal(OSSL_LIB_CTX *lib, const char *props, const unsigned char *in, unsigned char *out,
		unsigned char *tag, int enc)
{
	static const unsigned char key[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const unsigned char iv[12] = { 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	static const unsigned char aad[13] = { 0x17, 3, 3 };
	EVP_CIPHER *c = EVP_CIPHER_fetch(lib, "AES-256-GCM", props);
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n = 0, n2 = 0, ok;

	ok = c != NULL && x != NULL && EVP_CipherInit_ex2(x, c, key, iv, enc, NULL) &&
	     EVP_CipherUpdate(x, NULL, &n, aad, sizeof(aad)) &&
	     (enc || EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_TAG, 16, tag)) &&
	     EVP_CipherUpdate(x, out, &n, in, MSG) && n == MSG &&
	     EVP_CipherFinal_ex(x, out + n, &n2) &&
	     (!enc || EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, 16, tag));
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_free(c);
	return ok;
}

static unsigned char plain[MSG], ref[MSG], ref_tag[16];

/* The child's work; its exit status is the verdict. */
static int child(int mode)
{
	static unsigned char ct[MSG], back[MSG];
	unsigned char tag[16];
	uint64_t e0 = counter("eip93-engine-messages");
	uint64_t s0 = counter("eip93-software-messages-seccomp");
	uint64_t e1, s1;
	int r;

	if (mode > 0 && (r = install_filter(mode == 1)) != 0) {
		fprintf(stderr, "seccomp-check: installing the filter: %s\n", strerror(-r));
		return 10;
	}
	if (!seal(NULL, NULL, plain, ct, tag, 1))
		return 11;
	if (memcmp(ct, ref, MSG) != 0 || memcmp(tag, ref_tag, 16) != 0)
		return 12;
	if (!seal(NULL, NULL, ct, back, tag, 0) || memcmp(back, plain, MSG) != 0)
		return 13;
	e1 = counter("eip93-engine-messages");
	s1 = counter("eip93-software-messages-seccomp");
	printf("seccomp-check: %s: engine messages +%llu, software (seccomp) +%llu\n",
	       mode == 0   ? "control (no filter)"
	       : mode == 1 ? "openssh-style filter"
			   : "filter, /proc readable",
	       (unsigned long long)(e1 - e0), (unsigned long long)(s1 - s0));
	fflush(stdout);
	if (mode == 0)
		return e1 > e0 && s1 == s0 ? 0 : 14;
	return e1 == e0 && s1 >= s0 + 2 ? 0 : 15;
}

int main(void)
{
	OSSL_LIB_CTX *sw = OSSL_LIB_CTX_new();
	int fails = 0;

	for (size_t i = 0; i < sizeof(plain); i++)
		plain[i] = (unsigned char)(i * 31 + 7);
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	if (prov == NULL || sw == NULL || OSSL_PROVIDER_load(sw, "default") == NULL) {
		fprintf(stderr, "seccomp-check: cannot load the providers\n");
		return 1;
	}
	if (!seal(sw, NULL, plain, ref, ref_tag, 1)) {
		fprintf(stderr, "seccomp-check: reference encryption failed\n");
		return 1;
	}
	for (int mode = 0; mode < 3; mode++) {
		int st = 0;
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(child(mode));
		if (waitpid(pid, &st, 0) != pid)
			return 1;
		if (WIFSIGNALED(st)) {
			printf("not ok - mode %d: child killed by signal %d%s\n", mode,
			       WTERMSIG(st),
			       WTERMSIG(st) == SIGSYS ? " (SIGSYS: a filtered syscall was made)"
						      : "");
			fails++;
		} else if (WEXITSTATUS(st) != 0) {
			printf("not ok - mode %d: child exit %d\n", mode, WEXITSTATUS(st));
			fails++;
		} else {
			printf("ok - mode %d\n", mode);
		}
	}
	OSSL_LIB_CTX_free(sw);
	printf("seccomp-check: %d failed\n", fails);
	return fails != 0;
}
