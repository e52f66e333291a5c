// SPDX-License-Identifier: Apache-2.0
/*
 * The AF_ALG data path: a thin syscall layer over the kernel's AEAD socket
 * interface.  Every function returns 0 or -errno and never touches OpenSSL's
 * error stack.
 *
 * One struct eip93_afalg_key per cipher context: the bound ("tfm") socket
 * carrying the key and one operation socket accepted from it.  Both are
 * opened with CLOEXEC, counted against a process-wide cap, and registered so
 * that a forked child closes its inherited copies at once (pthread_atfork;
 * each socket is created and closed under the registry lock, so no fork
 * falls between a descriptor and its registration): no keyed socket
 * survives into a child, and a child never shares an operation socket with
 * its parent.
 */
#ifndef EIP93_AFALG_H
#define EIP93_AFALG_H

#include <stddef.h>
#include <stdint.h>

#define EIP93_AFALG_IVLEN 12
#define EIP93_AFALG_TAGLEN 16
#define EIP93_AFALG_MAX_AAD 512
#define EIP93_AFALG_CTRBLK 16

struct eip93_afalg_key {
	int tfm_fd;			     /* bound and keyed; -1 when closed */
	int op_fd;			     /* accepted operation socket; -1 when closed */
	struct eip93_afalg_key *prev, *next; /* fork registry */
};

/* eip93_afalg_key_init() - a closed key (no sockets). */
void eip93_afalg_key_init(struct eip93_afalg_key *k);

/**
 * eip93_afalg_key_open() - bind, set the key (and an AEAD's 16-byte tag), accept.
 * @kalg: kernel algorithm name, e.g. "gcm_base(ctr(aes-eip93),ghash-generic)"
 *        (an "aead"), or "ctr(aes-eip93)" (an "skcipher": eip93_kprobe_type())
 * @max_sockets: process-wide cap on open AF_ALG sockets (2 per key)
 * @timeout_ms: SO_SNDTIMEO and SO_RCVTIMEO of the operation socket
 *
 * Return: 0, -EMFILE when the cap is reached, or the -errno of the failing call.
 */
int eip93_afalg_key_open(struct eip93_afalg_key *k, const char *kalg, const unsigned char *key,
			 size_t keylen, unsigned int max_sockets, unsigned int timeout_ms);

/* eip93_afalg_key_close() - close both sockets (idempotent). */
void eip93_afalg_key_close(struct eip93_afalg_key *k);

/* eip93_afalg_key_is_open() - whether the key has its sockets in this process. */
int eip93_afalg_key_is_open(const struct eip93_afalg_key *k);

/**
 * eip93_afalg_aead() - one AEAD operation: one sendmsg, one readv.
 * @enc: 1 encrypt (writes @out and @tag), 0 decrypt (reads @tag, writes @out)
 * @iv: 12 bytes
 * @aad: @aadlen (at most EIP93_AFALG_MAX_AAD) bytes of AAD
 * @in: @len bytes; may equal @out (the kernel copies its input at sendmsg)
 *
 * Return: 0; -EBADMSG when decryption finds the tag wrong (then @out holds
 * unauthenticated data and must not be released); -EIO on a short send or
 * read; or the -errno of sendmsg/readv (-EAGAIN on timeout).
 */
int eip93_afalg_aead(struct eip93_afalg_key *k, int enc, const unsigned char *iv,
		     const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t len,
		     unsigned char *out, unsigned char *tag);

/**
 * eip93_afalg_ctr() - one AES-CTR operation on an skcipher key: one sendmsg, one read.
 * @ctrblk: the 16-byte initial counter block
 * @in: @len bytes; may equal @out
 *
 * Return: 0; -EIO on a short send or read; or the -errno of sendmsg/read.
 */
int eip93_afalg_ctr(struct eip93_afalg_key *k, const unsigned char *ctrblk, const unsigned char *in,
		    size_t len, unsigned char *out);

/* eip93_afalg_open_sockets() - AF_ALG sockets this process holds open now. */
unsigned int eip93_afalg_open_sockets(void);

#ifdef EIP93_TEST_HOOKS
/*
 * Test builds only: EIP93_TEST_FAULT=<site>[:<n>] makes the n-th call (1 by
 * default; 0 = every call) at a syscall site fail.  Sites: socket, bind,
 * setkey, authsize, accept, timeout, sendmsg, read, shortread.
 */
#endif

#endif /* EIP93_AFALG_H */
