// SPDX-License-Identifier: GPL-2.0-only OR Apache-2.0
/*
 * eip93-afalg-check: a small AF_ALG client for the guest self-test of the
 * test rig (test/guest/selftest.sh).  It compares the kernel's results with
 * OpenSSL's default provider, byte for byte.
 *
 *   eip93-afalg-check bind TYPE NAME
 *       bind an AF_ALG socket of TYPE ("aead", "skcipher") to NAME.
 *   eip93-afalg-check gcm NAME [single]
 *       AES-GCM (12-byte IV, 16-byte tag) through AF_ALG "aead" NAME for
 *       128/192/256-bit keys and a range of AAD / payload sizes: encrypt,
 *       decrypt, and decrypt with a damaged tag (must give EBADMSG; not
 *       for the empty message, see alg_op and cmd_gcm).
 *       "single" does one small encryption only.
 *   eip93-afalg-check ctr NAME [single]
 *       AES-CTR through AF_ALG "skcipher" NAME, one request per operation.
 *
 * On success the gcm and ctr commands print "requests=N payload_bytes=M"
 * (N: number of encrypt/decrypt operations issued, each of which is exactly
 * one skcipher request for ctr; M: payload bytes encrypted or decrypted).
 *
 * Exit status: 0 identical to OpenSSL, 1 mismatch, 2 bind failed, 3 another
 * AF_ALG error, 4 usage or internal error.  Errors are printed with the errno
 * name (e.g. "ENOENT") so that scripts can match them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/if_alg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/evp.h>

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define EXIT_MISMATCH 1
#define EXIT_BIND 2
#define EXIT_AFALG 3
#define EXIT_INTERNAL 4

#define GCM_IV_LEN 12
#define GCM_TAG_LEN 16
#define CTR_IV_LEN 16

static const char *errname(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

static void fail_errno(int code, const char *what, int e)
{
	printf("ERROR %s: %s (%s)\n", what, errname(e), strerror(e));
	fflush(stdout);
	exit(code);
}

static void fail_internal(const char *what)
{
	printf("INTERNAL %s\n", what);
	fflush(stdout);
	exit(EXIT_INTERNAL);
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		fail_internal("out of memory");
	return p;
}

/* Deterministic filler (xorshift64*), so that failures are reproducible. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static void fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng_state ^= rng_state >> 12;
		rng_state ^= rng_state << 25;
		rng_state ^= rng_state >> 27;
		p[i] = (unsigned char)((rng_state * 0x2545f4914f6cdd1dULL) >> 56);
	}
}

static void hexdump_diff(const char *what, const unsigned char *got, const unsigned char *want,
			 size_t n)
{
	size_t i;

	for (i = 0; i < n && got[i] == want[i]; i++)
		;
	printf("MISMATCH %s: first difference at byte %zu of %zu (got %02x, want %02x)\n", what, i,
	       n, i < n ? got[i] : 0, i < n ? want[i] : 0);
}

/* ---- AF_ALG ------------------------------------------------------------ */

static int alg_bind(const char *type, const char *name, int *err)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd;

	if (strlen(type) >= sizeof(sa.salg_type) || strlen(name) >= sizeof(sa.salg_name))
		fail_internal("algorithm type or name too long");
	strcpy((char *)sa.salg_type, type);
	strcpy((char *)sa.salg_name, name);

	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		*err = errno;
		close(fd);
		return -1;
	}
	return fd;
}

static int alg_bind_or_exit(const char *type, const char *name)
{
	int e = 0;
	int fd = alg_bind(type, name, &e);

	if (fd < 0) {
		char what[160];

		snprintf(what, sizeof(what), "bind %s %s", type, name);
		fail_errno(EXIT_BIND, what, e);
	}
	return fd;
}

/*
 * One operation on a bound tfm socket: set the key, accept an op socket,
 * send IN with the op / IV / assoclen control messages, read exactly OUTLEN
 * bytes (algif_aead keeps waiting for more input while the read buffer is
 * not full).  Returns 0 or an errno value; *stage says which step failed.
 */
static int alg_op(int tfmfd, const unsigned char *key, size_t keylen, int aead, int encrypt,
		  const unsigned char *iv, size_t ivlen, uint32_t assoclen, const unsigned char *in,
		  size_t inlen, unsigned char *out, size_t outlen, const char **stage)
{
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct af_alg_iv) + 16) +
		  CMSG_SPACE(sizeof(uint32_t))] = { 0 };
	struct iovec iov = { .iov_base = (void *)in, .iov_len = inlen };
	struct msghdr msg = { 0 };
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	uint32_t op = encrypt ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	int opfd, e = 0;
	ssize_t n;

	*stage = "setkey";
	if (setsockopt(tfmfd, SOL_ALG, ALG_SET_KEY, key, (socklen_t)keylen) < 0)
		return errno;
	if (aead) {
		*stage = "setauthsize";
		if (setsockopt(tfmfd, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, GCM_TAG_LEN) < 0)
			return errno;
	}
	*stage = "accept";
	opfd = accept(tfmfd, NULL, NULL);
	if (opfd < 0)
		return errno;

	msg.msg_control = cbuf;
	msg.msg_controllen =
		aead ? sizeof(cbuf)
		     : CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct af_alg_iv) + 16);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;

	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	memcpy(CMSG_DATA(c), &op, sizeof(op));

	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + ivlen);
	aiv = (struct af_alg_iv *)CMSG_DATA(c);
	aiv->ivlen = (uint32_t)ivlen;
	memcpy(aiv->iv, iv, ivlen);

	if (aead) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
		c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
		memcpy(CMSG_DATA(c), &assoclen, sizeof(assoclen));
	}

	*stage = "sendmsg";
	n = sendmsg(opfd, &msg, 0);
	if (n < 0 || (size_t)n != inlen) {
		e = n < 0 ? errno : EMSGSIZE;
		goto out;
	}
	*stage = "read";
	n = read(opfd, out, outlen);
	if (n < 0)
		e = errno;
	else if ((size_t)n != outlen)
		e = EMSGSIZE;
out:
	close(opfd);
	return e;
}

/* ---- OpenSSL reference (default provider, whatever the config says) ---- */

static EVP_CIPHER *ref_cipher(const char *mode, size_t keylen)
{
	char name[32];
	EVP_CIPHER *c;

	snprintf(name, sizeof(name), "AES-%zu-%s", keylen * 8, mode);
	c = EVP_CIPHER_fetch(NULL, name, "provider=default");
	if (!c)
		fail_internal("EVP_CIPHER_fetch from the default provider failed");
	return c;
}

static void ref_gcm_encrypt(const unsigned char *key, size_t keylen, const unsigned char *iv,
			    const unsigned char *aad, size_t aadlen, const unsigned char *pt,
			    size_t ptlen, unsigned char *ct, unsigned char *tag)
{
	EVP_CIPHER *c = ref_cipher("GCM", keylen);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int n;

	if (!ctx || !EVP_EncryptInit_ex2(ctx, c, key, iv, NULL) ||
	    (aadlen && !EVP_EncryptUpdate(ctx, NULL, &n, aad, (int)aadlen)) ||
	    (ptlen && !EVP_EncryptUpdate(ctx, ct, &n, pt, (int)ptlen)) ||
	    !EVP_EncryptFinal_ex(ctx, ct + ptlen, &n) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, GCM_TAG_LEN, tag))
		fail_internal("OpenSSL AES-GCM failed");
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}

static void ref_ctr(const unsigned char *key, size_t keylen, const unsigned char *iv,
		    const unsigned char *in, size_t len, unsigned char *out)
{
	EVP_CIPHER *c = ref_cipher("CTR", keylen);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int n;

	if (!ctx || !EVP_EncryptInit_ex2(ctx, c, key, iv, NULL) ||
	    (len && !EVP_EncryptUpdate(ctx, out, &n, in, (int)len)) ||
	    !EVP_EncryptFinal_ex(ctx, out + len, &n))
		fail_internal("OpenSSL AES-CTR failed");
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}

/* ---- commands ---------------------------------------------------------- */

static int cmd_bind(const char *type, const char *name)
{
	int fd = alg_bind_or_exit(type, name);

	close(fd);
	printf("bind %s %s: ok\n", type, name);
	return 0;
}

static void check_errno(int e, const char *what, const char *stage)
{
	char buf[160];

	if (!e)
		return;
	snprintf(buf, sizeof(buf), "%s (%s)", what, stage);
	fail_errno(EXIT_AFALG, buf, e);
}

static int cmd_gcm(const char *name, int single)
{
	static const size_t keylens[] = { 16, 24, 32 };
	static const size_t aadlens[] = { 0, 1, 13, 16, 20, 64, 0, 20 };
	static const size_t ptlens[] = { 0, 1, 15, 16, 17, 255, 4096, 65536 };
	const size_t ncases = sizeof(ptlens) / sizeof(ptlens[0]);
	unsigned long requests = 0, payload = 0;
	int fd = alg_bind_or_exit("aead", name);

	for (size_t k = 0; k < 3; k++) {
		for (size_t i = 0; i < ncases; i++) {
			size_t keylen = single ? 16 : keylens[k];
			size_t aadlen = single ? 0 : aadlens[i];
			size_t ptlen = single ? 16 : ptlens[i];
			size_t inlen = aadlen + ptlen, outlen = aadlen + ptlen + GCM_TAG_LEN;
			unsigned char key[32], iv[GCM_IV_LEN], tag[GCM_TAG_LEN];
			unsigned char *in = xmalloc(inlen), *want = xmalloc(outlen);
			unsigned char *got = xmalloc(outlen), *back = xmalloc(inlen);
			const char *stage;
			char what[96];
			int e;
			snprintf(what, sizeof(what), "gcm key=%zu aad=%zu pt=%zu", keylen * 8,
				 aadlen, ptlen);
			fill(key, keylen);
			fill(iv, sizeof(iv));
			fill(in, inlen);

			/* want = AAD || CT || TAG, the layout AF_ALG returns. */
			memcpy(want, in, aadlen);
			ref_gcm_encrypt(key, keylen, iv, in, aadlen, in + aadlen, ptlen,
					want + aadlen, tag);
			memcpy(want + aadlen + ptlen, tag, GCM_TAG_LEN);

			e = alg_op(fd, key, keylen, 1, 1, iv, sizeof(iv), (uint32_t)aadlen, in,
				   inlen, got, outlen, &stage);
			check_errno(e, what, stage);
			requests++;
			payload += ptlen;
			if (memcmp(got + aadlen, want + aadlen, outlen - aadlen) != 0) {
				hexdump_diff(what, got + aadlen, want + aadlen, outlen - aadlen);
				exit(EXIT_MISMATCH);
			}
			/*
			 * Decryption without AAD and payload has an empty result,
			 * and a read of 0 bytes never reaches the kernel's
			 * recvmsg: such a tag cannot be checked through AF_ALG.
			 */
			if (single || !inlen)
				goto done;

			/* Decrypt OpenSSL's AAD || CT || TAG back to AAD || PT. */
			e = alg_op(fd, key, keylen, 1, 0, iv, sizeof(iv), (uint32_t)aadlen, want,
				   outlen, back, inlen, &stage);
			check_errno(e, what, stage);
			requests++;
			payload += ptlen;
			if (memcmp(back + aadlen, in + aadlen, ptlen) != 0) {
				hexdump_diff(what, back + aadlen, in + aadlen, ptlen);
				exit(EXIT_MISMATCH);
			}

			/* A damaged tag must be refused. */
			want[outlen - 1] ^= 0x80;
			e = alg_op(fd, key, keylen, 1, 0, iv, sizeof(iv), (uint32_t)aadlen, want,
				   outlen, back, inlen, &stage);
			requests++;
			payload += ptlen;
			if (e != EBADMSG) {
				printf("MISMATCH %s: damaged tag gave %s, want EBADMSG\n", what,
				       e ? errname(e) : "success");
				exit(EXIT_MISMATCH);
			}
		done:
			free(in);
			free(want);
			free(got);
			free(back);
			if (single)
				break;
		}
		if (single)
			break;
	}
	close(fd);
	printf("gcm %s: identical to OpenSSL\n", name);
	printf("requests=%lu payload_bytes=%lu\n", requests, payload);
	return 0;
}

static int cmd_ctr(const char *name, int single)
{
	static const size_t keylens[] = { 16, 24, 32 };
	static const size_t lens[] = { 1, 16, 17, 64, 1000, 16384 };
	const size_t nlens = sizeof(lens) / sizeof(lens[0]);
	unsigned long requests = 0, payload = 0;
	int fd = alg_bind_or_exit("skcipher", name);

	for (size_t k = 0; k < 3; k++) {
		for (size_t i = 0; i < nlens; i++) {
			size_t keylen = single ? 16 : keylens[k], len = single ? 16 : lens[i];
			unsigned char key[32], iv[CTR_IV_LEN];
			unsigned char *in = xmalloc(len), *want = xmalloc(len + 16);
			unsigned char *got = xmalloc(len);
			const char *stage;

			memset(got, 0, len);
			char what[96];
			int e;

			snprintf(what, sizeof(what), "ctr key=%zu len=%zu", keylen * 8, len);
			fill(key, keylen);
			fill(iv, sizeof(iv));
			/* Exercise the counter carry across 64 bits. */
			if (i == nlens - 1)
				memset(iv + 8, 0xff, 8);
			fill(in, len);
			ref_ctr(key, keylen, iv, in, len, want);

			e = alg_op(fd, key, keylen, 0, (int)(k & 1), iv, sizeof(iv), 0, in, len,
				   got, len, &stage);
			check_errno(e, what, stage);
			requests++;
			payload += len;
			if (memcmp(got, want, len) != 0) {
				hexdump_diff(what, got, want, len);
				free(in);
				free(want);
				free(got);
				exit(EXIT_MISMATCH);
			}
			free(in);
			free(want);
			free(got);
			if (single)
				break;
		}
		if (single)
			break;
	}
	close(fd);
	printf("ctr %s: identical to OpenSSL\n", name);
	printf("requests=%lu payload_bytes=%lu\n", requests, payload);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: eip93-afalg-check bind TYPE NAME\n"
			"       eip93-afalg-check gcm NAME [single]\n"
			"       eip93-afalg-check ctr NAME [single]\n");
	exit(EXIT_INTERNAL);
}

int main(int argc, char **argv)
{
	int single;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "bind"))
		return cmd_bind(argv[2], argv[3]);
	if (argc < 3 || argc > 4)
		usage();
	single = argc == 4;
	if (single && strcmp(argv[3], "single") != 0)
		usage();
	if (!strcmp(argv[1], "gcm"))
		return cmd_gcm(argv[2], single);
	if (!strcmp(argv[1], "ctr"))
		return cmd_ctr(argv[2], single);
	usage();
	return EXIT_INTERNAL;
}
