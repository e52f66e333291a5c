/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What eip93-sim-modes-check's two files share (modes_check.c: the helpers,
 * the registration and the generic templates' results, main; modes_bugs.c:
 * the modelled driver bugs and the faults): the AF_ALG skcipher client, the
 * driver's knobs, the report and the buffers.
 */
#ifndef EIP93_TEST_MODES_CHECK_H
#define EIP93_TEST_MODES_CHECK_H

#include <stddef.h>
#include <stdint.h>

#define P "/sys/module/eip93_sim/parameters/"
#define BLK 16
#define PAGE ((size_t)4096)

/* One "ok - ..." or "not ok - ..." line, counted. */
void check(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The driver's parameter @name (-1: unreadable); set it or bail out. */
long long knob(const char *name);
void set_knob(const char *name, long long v);

/* Pseudo-random bytes (seeded once per run, the seed printed). */
void fill(unsigned char *p, size_t n);

struct tfm {
	int fd; /* the bound socket: one transform */
	int op; /* an operation socket accepted from it */
};

/* Bind an skcipher transform of @name, set @key, accept one operation socket: 0 or -errno. */
int tfm_open(struct tfm *t, const char *name, const unsigned char *k, size_t keylen);
void tfm_close(struct tfm *t);
/* One request on operation socket @op (@v: a 16-byte IV, NULL for none): 0 or -errno. */
int op_crypt(int op, int enc, const unsigned char *v, const unsigned char *src, size_t len,
	     unsigned char *dst);
/* One request of @mode ("cbc", ...) on a fresh transform of "@mode(@drv)". */
int crypt1(const char *mode, const char *drv, const unsigned char *k, size_t keylen, int enc,
	   const unsigned char *v, const unsigned char *src, size_t len, unsigned char *dst);
/* The same through the kernel's software template of @mode over the generic AES. */
int ref(const char *mode, const unsigned char *k, size_t keylen, int enc, const unsigned char *v,
	const unsigned char *src, size_t len, unsigned char *dst);
/* Differing bits of @a and @b; *@first: the first differing byte (@n: none). */
unsigned int diffbits(const unsigned char *a, const unsigned char *b, size_t n, size_t *first);

/* The generic AES's name ("aes-generic", "aes-lib" on 7.x). */
extern char ref_aes[16];
extern unsigned char key[32], iv[BLK], in[5 * PAGE], want[5 * PAGE], alt[5 * PAGE];
extern unsigned char out[5 * PAGE]; /* page-aligned */

/* modes_bugs.c: bug_direction (@mode with an IV or not), bug_ctr32, fault_layout. */
void direction(const char *mode, int ivd);
void direction_ctr(void);
void ctr32(void);
void faults(void);

#endif
