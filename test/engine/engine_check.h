// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check's private header (the program and its commands are
 * described in engine_check.c): the constants, the message, counter and
 * descriptor types, and the functions one file offers the others.
 */
#ifndef EIP93_ENGINE_CHECK_H
#define EIP93_ENGINE_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <openssl/evp.h>

#include "../guest/sim.h"

#define AADLEN 13 /* as a TLS 1.2 record */
#define MSG_MAX 16384
#define MSG_LEN 8192 /* inside the engine window 4096..32768 */
#define NKEYS 3
#define MAX_ALG_FDS 64

/* ---- report.c: reporting ------------------------------------------------- */

extern int n_pass, n_fail;
extern const char *line_prefix;

int check(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void measure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int finish(const char *cmd);
double now_ms(void);
void sleep_ms(unsigned int ms);

/* ---- driver.c: the simulated driver's knobs -------------------------------- */

extern const char *sysfs_dir;

long long knob_get(const char *name);
int knob_set(const char *name, long long v);

/* ---- provider.c: providers and their counters ------------------------------ */

extern EVP_CIPHER *c_test[NKEYS], *c_ref[NKEYS];
extern char kalg[64]; /* the kernel algorithm the gate bound */

struct snap {
	uint64_t engine, bytes, sw, kc_pass, kc_fail, errors;
	uint64_t sw_keycheck, sw_error, sw_gate, sw_replay, sw_sockcap;
	long long ops;
};

uint64_t counter(const char *name);
void gate_text(char *buf, size_t n);
int gate_text_outlives_call(char *first, size_t n);
void snap_take(struct snap *s);
struct snap snap_delta(const struct snap *a, const struct snap *b);
void snap_print(const char *what, const struct snap *d);
int setup(const char *config);
void teardown(void);

/* ---- messages.c: messages -------------------------------------------------- */

/* One message with the default provider's answer. */
struct msg {
	int ks; /* index into cipher_names */
	size_t len;
	unsigned char key[32], iv[IVLEN], aad[AADLEN], tag[TAGLEN];
	unsigned char pt[MSG_MAX], ct[MSG_MAX];
};

int msg_make(struct msg *m, uint64_t *rng, int ks, size_t len, int new_key);
int eng_encrypt(EVP_CIPHER_CTX *c, const struct msg *m, int with_key);
int eng_decrypt(EVP_CIPHER_CTX *c, const struct msg *m, int with_key);
int roundtrip(EVP_CIPHER_CTX *c, const struct msg *m, int with_key);

/* ---- fds.c: file descriptors ----------------------------------------------- */

struct fds {
	int all;			/* open descriptors */
	int alg;			/* of which AF_ALG sockets */
	unsigned long ino[MAX_ALG_FDS]; /* their socket inodes */
	int alg_fd[MAX_ALG_FDS];
};

void fds_scan(struct fds *f);
int fds_has_ino(const struct fds *f, unsigned long ino);

/* ---- the commands ---------------------------------------------------------- */

/* faults.c: the driver corrupting, failing, or an AF_ALG call failing */
int cmd_corrupt(void);
int cmd_faults(void);
int cmd_fail(void);
/* hygiene.c: descriptors over key lifetimes, fork, exec and threads */
int cmd_lifetimes(long n);
int cmd_fork(void);
int cmd_afalg_fds(int argc, char **argv);
int wait_status(pid_t pid);
int cmd_exec(void);
int cmd_threads(void);
/* ahead.c: keystream ahead's worker thread across fork */
int cmd_ahead(void);
/* timeout.c: socket timeouts */
int cmd_timeout(unsigned int timeout_ms);
/* stall.c: a request held by the driver */
int cmd_stall(unsigned int timeout_ms);

#endif
