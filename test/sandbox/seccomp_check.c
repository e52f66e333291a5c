// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-seccomp-check: a process under a seccomp filter that kills on
 * socket() (as OpenSSH's pre-auth child does) keeps working with eip93
 * preferred: its large messages go to software, counted as "seccomp", and no
 * AF_ALG syscall is made.
 *
 * usage: eip93-seccomp-check [--ops FILE]
 *
 * Run in a guest with the simulated driver loaded and eip93 preferred by the
 * configuration (OPENSSL_CONF or the system openssl.cnf): the x86_64 guest
 * with the hooks build, or the arm64 guest with the release build on the
 * real gate.  --ops names the simulated driver's operation counter
 * (/sys/module/eip93_sim/parameters/ops); the parent reads it around every
 * child, so the driver itself says which children reached the engine.
 *
 * Children, each forked after the provider is loaded (gate decided):
 *   control      no filter: the engine takes the message (engine counter and
 *                driver ops rise)
 *   openssh      socket, prctl -> KILL_PROCESS, openat -> EACCES (OpenSSH's
 *                style)
 *   readable     socket, prctl -> KILL_PROCESS, everything else allowed: the
 *                provider reads "Seccomp: 2" from /proc/self/status
 *   kill-socket  negative control: the openssh filter, then a direct
 *                socket(AF_ALG): must die of SIGSYS
 *   kill-prctl   negative control: the openssh filter, then
 *                prctl(PR_GET_SECCOMP): must die of SIGSYS
 * A filtered child must exit 0 (a kill would be SIGSYS), its ciphertext and
 * tag must equal the default provider's, its decryption must round-trip, the
 * cipher must come from eip93, and the seccomp counter must have risen while
 * the engine counter (and the driver's ops) did not.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "../guest/sim.h"

#define MSG 16384

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#elif defined(__mips__) && defined(__MIPSEL__) && _MIPS_SIM == _ABIO32
#define ARCH AUDIT_ARCH_MIPSEL
#else
#error "unsupported architecture"
#endif

enum mode { CONTROL, OPENSSH, READABLE, KILL_SOCKET, KILL_PRCTL, NMODES };

static const char *const mode_name[NMODES] = {
	"control (no filter)",
	"openssh-style filter",
	"filter, /proc readable",
	"negative control: socket(AF_ALG) under the filter",
	"negative control: prctl(PR_GET_SECCOMP) under the filter",
};

static OSSL_PROVIDER *prov;
static const char *ops_path; /* --ops: the simulated driver's counter, or NULL */

static uint64_t counter(const char *name)
{
	uint64_t v = 0;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_uint64(name, &v), OSSL_PARAM_construct_end() };

	if (!OSSL_PROVIDER_get_params(prov, p))
		return UINT64_MAX;
	return v;
}

static const char *text(const char *name)
{
	const char *v = NULL;
	OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_ptr(name, (char **)&v, 0),
			    OSSL_PARAM_construct_end() };

	return OSSL_PROVIDER_get_params(prov, p) && v != NULL ? v : "(unreadable)";
}

/* The simulated driver's operation counter; 0 without --ops, -1 unreadable. */
static long long driver_ops(void)
{
	return ops_path == NULL ? 0 : sim_read(ops_path);
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
		unsigned char *tag, int enc, const char **from)
{
	static const unsigned char key[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const unsigned char iv[12] = { 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	static const unsigned char aad[13] = { 0x17, 3, 3 };
	EVP_CIPHER *c = EVP_CIPHER_fetch(lib, "AES-256-GCM", props);
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n = 0, n2 = 0, ok;

	if (from != NULL)
		*from = c != NULL ? OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)) : "none";
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

/* A negative control: the call the filter must kill; returning is a failure. */
static int must_die(enum mode mode)
{
	const struct rlimit none = { 0, 0 };
	int r;

	setrlimit(RLIMIT_CORE, &none); /* SIGSYS dumps core by default */
	if ((r = install_filter(1)) != 0) {
		fprintf(stderr, "seccomp-check: installing the filter: %s\n", strerror(-r));
		return 10;
	}
	if (mode == KILL_SOCKET)
		r = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	else
		r = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	printf("seccomp-check: %s returned %d (errno %d) instead of dying\n", mode_name[mode], r,
	       errno);
	fflush(stdout);
	return 16;
}

/* The child's work; its exit status is the verdict. */
static int child(enum mode mode)
{
	static unsigned char ct[MSG], back[MSG];
	unsigned char tag[16];
	uint64_t e0 = counter("eip93-engine-messages");
	uint64_t s0 = counter("eip93-software-messages-seccomp");
	uint64_t e1, s1;
	const char *from = "none";
	int r;

	if (mode == KILL_SOCKET || mode == KILL_PRCTL)
		return must_die(mode);
	if (mode != CONTROL && (r = install_filter(mode == OPENSSH)) != 0) {
		fprintf(stderr, "seccomp-check: installing the filter: %s\n", strerror(-r));
		return 10;
	}
	if (!seal(NULL, NULL, plain, ct, tag, 1, &from))
		return 11;
	if (memcmp(ct, ref, MSG) != 0 || memcmp(tag, ref_tag, 16) != 0)
		return 12;
	if (!seal(NULL, NULL, ct, back, tag, 0, NULL) || memcmp(back, plain, MSG) != 0)
		return 13;
	e1 = counter("eip93-engine-messages");
	s1 = counter("eip93-software-messages-seccomp");
	printf("seccomp-check: %s: AES-256-GCM from %s, %d bytes equal to the default provider's,"
	       " engine messages %" PRIu64 " -> %" PRIu64 ", software (seccomp) %" PRIu64
	       " -> %" PRIu64 "\n",
	       mode_name[mode], from, MSG, e0, e1, s0, s1);
	fflush(stdout);
	if (strcmp(from, "eip93") != 0)
		return 17;
	if (mode == CONTROL)
		return e1 > e0 && s1 == s0 ? 0 : 14;
	return e1 == e0 && s1 >= s0 + 2 ? 0 : 15;
}

/* The parent's verdict on one child; 1 when it is as the mode requires. */
static int judge(enum mode mode, int st, long long ops)
{
	int negative = mode == KILL_SOCKET || mode == KILL_PRCTL;

	if (WIFSIGNALED(st)) {
		if (negative && WTERMSIG(st) == SIGSYS) {
			printf("ok - %s: killed by SIGSYS\n", mode_name[mode]);
			return 1;
		}
		printf("not ok - %s: child killed by signal %d%s\n", mode_name[mode], WTERMSIG(st),
		       WTERMSIG(st) == SIGSYS ? " (SIGSYS: a filtered syscall was made)" : "");
		return 0;
	}
	if (negative || WEXITSTATUS(st) != 0) {
		printf("not ok - %s: child exit %d%s\n", mode_name[mode], WEXITSTATUS(st),
		       negative ? " (the filter did not kill)" : "");
		return 0;
	}
	if (ops_path == NULL) {
		printf("ok - %s\n", mode_name[mode]);
		return 1;
	}
	if (ops < 0) {
		printf("not ok - %s: the driver's counter is unreadable\n", mode_name[mode]);
		return 0;
	}
	/* Only the control may reach the engine, and it must. */
	if ((mode == CONTROL) != (ops > 0)) {
		printf("not ok - %s: driver ops +%lld\n", mode_name[mode], ops);
		return 0;
	}
	printf("ok - %s: driver ops +%lld\n", mode_name[mode], ops);
	return 1;
}

int main(int argc, char **argv)
{
	OSSL_LIB_CTX *sw = OSSL_LIB_CTX_new();
	int fails = 0;

	if (argc == 3 && strcmp(argv[1], "--ops") == 0) {
		ops_path = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [--ops FILE]\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(plain); i++)
		plain[i] = (unsigned char)(i * 31 + 7);
	prov = OSSL_PROVIDER_load(NULL, "eip93");
	if (prov == NULL || sw == NULL || OSSL_PROVIDER_load(sw, "default") == NULL) {
		fprintf(stderr, "seccomp-check: cannot load the providers\n");
		return 1;
	}
	/* For the log: which build, and the gate's verdict (the control asserts it is open). */
	printf("seccomp-check: %s; gate: %s\n", text(OSSL_PROV_PARAM_BUILDINFO),
	       text("eip93-gate"));
	if (!seal(sw, NULL, plain, ref, ref_tag, 1, NULL)) {
		fprintf(stderr, "seccomp-check: reference encryption failed\n");
		return 1;
	}
	for (int mode = CONTROL; mode < NMODES; mode++) {
		long long o0 = driver_ops(), o1;
		int st = 0;
		pid_t pid;

		fflush(stdout); /* the child's fflush would print the pending lines again */
		pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(child((enum mode)mode));
		if (waitpid(pid, &st, 0) != pid)
			return 1;
		o1 = driver_ops();
		fails += !judge((enum mode)mode, st, o0 < 0 || o1 < 0 ? -1 : o1 - o0);
	}
	OSSL_LIB_CTX_free(sw);
	printf("seccomp-check: %d failed\n", fails);
	return fails != 0;
}
