// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-cdev-check CTR_DRIVER [GCM_DRIVER]: the rig's own /dev/crypto
 * client, independent of the provider.  It opens a CRYPTO_AES_CTR session
 * and requires CIOCGSESSINFO to name CTR_DRIVER, checks one CIOCCRYPT
 * against OpenSSL's AES-CTR; with GCM_DRIVER, the same for a
 * CRYPTO_AES_GCM session and CIOCAUTHCRYPT (seal, open, a flipped tag
 * refused with EBADMSG).  The ioctl layouts are engine/cryptodev_abi.h's, so
 * this also checks them against the real module.  Exit status 0 when all
 * checks pass.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "../../engine/cryptodev_abi.h"

#define LEN 4103 /* not a multiple of the block */
#define AADLEN 13

static int failures;

static void ok(int cond, const char *what)
{
	printf("%s - %s\n", cond ? "ok" : "not ok", what);
	failures += !cond;
}

/* OpenSSL's answer: AES-128 @mode of @in with @iv (and @aad, @tag for GCM). */
static int ref(const char *mode, const unsigned char *key, const unsigned char *iv, size_t ivlen,
	       const unsigned char *aad, const unsigned char *in, unsigned char *out,
	       unsigned char *tag)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n, ok1;

	ok1 = c != NULL && EVP_EncryptInit_ex2(c, EVP_get_cipherbyname(mode), NULL, NULL, NULL);
	if (ok1 && ivlen != 16)
		ok1 = EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen, NULL) > 0;
	ok1 = ok1 && EVP_EncryptInit_ex2(c, NULL, key, iv, NULL);
	if (ok1 && aad != NULL)
		ok1 = EVP_EncryptUpdate(c, NULL, &n, aad, AADLEN);
	ok1 = ok1 && EVP_EncryptUpdate(c, out, &n, in, LEN) && EVP_EncryptFinal_ex(c, out + n, &n);
	if (ok1 && tag != NULL)
		ok1 = EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
	EVP_CIPHER_CTX_free(c);
	return ok1;
}

/* A session of @cipher; its driver must be @want.  0 and *ses, or -1. */
static int session(int fd, uint32_t cipher, unsigned char *key, const char *want, uint32_t *ses)
{
	struct eip93_cdev_session s = { .cipher = cipher, .keylen = 16, .key = key };
	struct eip93_cdev_session_info info;
	char line[200];

	if (ioctl(fd, EIP93_CIOCGSESSION, &s) != 0) {
		printf("not ok - CIOCGSESSION %s: %s\n",
		       cipher == EIP93_CDEV_AES_CTR ? "ctr" : "gcm", strerror(errno));
		failures++;
		return -1;
	}
	memset(&info, 0, sizeof(info));
	info.ses = s.ses;
	if (ioctl(fd, EIP93_CIOCGSESSINFO, &info) != 0) {
		printf("not ok - CIOCGSESSINFO: %s\n", strerror(errno));
		failures++;
		return -1;
	}
	info.cipher.driver[sizeof(info.cipher.driver) - 1] = '\0';
	info.cipher.name[sizeof(info.cipher.name) - 1] = '\0';
	snprintf(line, sizeof(line), "a %s session is served by %s (wanted %s)", info.cipher.name,
		 info.cipher.driver, want);
	ok(strcmp(info.cipher.driver, want) == 0, line);
	*ses = s.ses;
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char in[LEN], out[LEN + 16], exp[LEN + 16], buf[LEN + 16];
	unsigned char key[16], iv[16], aad[AADLEN], tag[16];
	uint32_t ses;
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s CTR_DRIVER [GCM_DRIVER]\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(i * 13 + 1);
	for (size_t i = 0; i < 16; i++) {
		key[i] = (unsigned char)(0x40 + i);
		iv[i] = (unsigned char)(0x90 ^ i);
	}
	iv[12] = iv[13] = 0;
	iv[14] = 0;
	iv[15] = 2;
	memset(aad, 0xa5, sizeof(aad));
	fd = open("/dev/crypto", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("not ok - open /dev/crypto: %s\n", strerror(errno));
		return 1;
	}

	if (session(fd, EIP93_CDEV_AES_CTR, key, argv[1], &ses) == 0) {
		struct eip93_cdev_crypt c = { .ses = ses,
					      .op = EIP93_CDEV_ENCRYPT,
					      .len = LEN,
					      .src = in,
					      .dst = out,
					      .iv = iv };

		ok(ioctl(fd, EIP93_CIOCCRYPT, &c) == 0, "CIOCCRYPT succeeds");
		ok(ref("AES-128-CTR", key, iv, 16, NULL, in, exp, NULL) &&
			   memcmp(out, exp, LEN) == 0,
		   "AES-CTR through /dev/crypto equals OpenSSL's");
		ok(ioctl(fd, EIP93_CIOCFSESSION, &ses) == 0, "CIOCFSESSION");
	}
	if (argc == 3 && session(fd, EIP93_CDEV_AES_GCM, key, argv[2], &ses) == 0) {
		struct eip93_cdev_auth_crypt a = { .ses = ses,
						   .op = EIP93_CDEV_ENCRYPT,
						   .len = LEN,
						   .auth_len = AADLEN,
						   .auth_src = aad,
						   .src = in,
						   .dst = out,
						   .tag_len = 16,
						   .iv = iv,
						   .iv_len = 12 };
		int r;

		ok(ioctl(fd, EIP93_CIOCAUTHCRYPT, &a) == 0, "CIOCAUTHCRYPT seal succeeds");
		ok(ref("AES-128-GCM", key, iv, 12, aad, in, exp, tag) &&
			   memcmp(out, exp, LEN) == 0 && memcmp(out + LEN, tag, 16) == 0,
		   "AES-GCM ciphertext and tag through /dev/crypto equal OpenSSL's");
		memcpy(buf, out, LEN + 16);
		a.op = EIP93_CDEV_DECRYPT;
		a.src = a.dst = buf;
		a.len = LEN + 16;
		ok(ioctl(fd, EIP93_CIOCAUTHCRYPT, &a) == 0 && memcmp(buf, in, LEN) == 0,
		   "CIOCAUTHCRYPT open gives the plaintext back");
		memcpy(buf, out, LEN + 16);
		buf[LEN + 3] ^= 0x08;
		r = ioctl(fd, EIP93_CIOCAUTHCRYPT, &a);
		ok(r != 0 && errno == EBADMSG, "a flipped tag bit is refused with EBADMSG");
		ok(ioctl(fd, EIP93_CIOCFSESSION, &ses) == 0, "CIOCFSESSION");
	}
	close(fd);
	printf("eip93-cdev-check: %d failed\n", failures);
	return failures == 0 ? 0 : 1;
}
