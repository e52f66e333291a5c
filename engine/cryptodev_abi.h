// SPDX-License-Identifier: Apache-2.0
/*
 * The /dev/crypto (cryptodev-linux) ioctl interface, as far as this backend
 * uses it, declared in this project's own names: the layouts of the four
 * request structures and the request numbers are facts of the kernel
 * interface (ioctl group 'c'), checked against the module's own header by
 * a host test (test/cryptodev/abi_check.c) where that header is at hand.
 * Only what engine/cryptodev.c needs: a session per key (create, describe,
 * free), one cipher request (AES-CTR, AES-CBC) and one AEAD request (AES-GCM).
 */
#ifndef EIP93_CRYPTODEV_ABI_H
#define EIP93_CRYPTODEV_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <linux/ioctl.h>

/* Algorithm numbers of a session's cipher. */
#define EIP93_CDEV_AES_CBC 11 /* the kernel's "cbc(aes)" (an skcipher) */
#define EIP93_CDEV_AES_CTR 21 /* the kernel's "ctr(aes)" (an skcipher) */
#define EIP93_CDEV_AES_ECB 23 /* the kernel's "ecb(aes)" (an skcipher) */
#define EIP93_CDEV_AES_GCM 50 /* the kernel's "gcm(aes)" (an AEAD) */

/* Directions of a request. */
#define EIP93_CDEV_ENCRYPT 0
#define EIP93_CDEV_DECRYPT 1

/* Room for an algorithm's name or driver name, NUL included. */
#define EIP93_CDEV_NAME_MAX 64

/* A new session (in: algorithm and key; out: its identifier). */
struct eip93_cdev_session {
	uint32_t cipher;       /* EIP93_CDEV_AES_* */
	uint32_t mac;	       /* 0: none */
	uint32_t keylen;       /* bytes at key */
	unsigned char *key;    /* read by the kernel only */
	uint32_t mackeylen;    /* 0 */
	unsigned char *mackey; /* NULL */
	uint32_t ses;	       /* out: the session */
};

/* The names of one algorithm of a session. */
struct eip93_cdev_alg_names {
	char name[EIP93_CDEV_NAME_MAX];	  /* what was asked for, e.g. "ctr(aes)" */
	char driver[EIP93_CDEV_NAME_MAX]; /* what serves it, e.g. "ctr(aes-eip93)" */
};

/* What serves a session (in: ses). */
struct eip93_cdev_session_info {
	uint32_t ses;
	struct eip93_cdev_alg_names cipher, hash;
	uint16_t alignmask;
	uint32_t flags; /* bit 0: a driver only the kernel can reach */
};

/* One cipher request over a session (AES-CTR: iv is the 16-byte counter block). */
struct eip93_cdev_crypt {
	uint32_t ses;
	uint16_t op;	/* EIP93_CDEV_ENCRYPT or _DECRYPT */
	uint16_t flags; /* 0 */
	uint32_t len;	/* bytes at src and at dst */
	unsigned char *src;
	unsigned char *dst;
	unsigned char *mac; /* NULL */
	unsigned char *iv;
};

/*
 * One AEAD request (AES-GCM, flags 0).  Encrypting, src holds len bytes and
 * dst receives len + tag_len (the tag follows the ciphertext); decrypting,
 * src holds the ciphertext followed by the tag, len counts both, dst has as
 * much room, and a wrong tag fails the request with EBADMSG.
 */
struct eip93_cdev_auth_crypt {
	uint32_t ses;
	uint16_t op;
	uint16_t flags;
	uint32_t len;
	uint32_t auth_len; /* AAD bytes at auth_src */
	unsigned char *auth_src;
	unsigned char *src;
	unsigned char *dst;
	unsigned char *tag; /* unused in this mode */
	uint32_t tag_len;   /* 16 */
	unsigned char *iv;  /* 12 bytes */
	uint32_t iv_len;
};

#define EIP93_CIOCGSESSION _IOWR('c', 102, struct eip93_cdev_session)
#define EIP93_CIOCFSESSION _IOW('c', 103, uint32_t)
#define EIP93_CIOCCRYPT _IOWR('c', 104, struct eip93_cdev_crypt)
#define EIP93_CIOCGSESSINFO _IOWR('c', 107, struct eip93_cdev_session_info)
#define EIP93_CIOCAUTHCRYPT _IOWR('c', 109, struct eip93_cdev_auth_crypt)

#if defined(__LP64__)
_Static_assert(sizeof(struct eip93_cdev_session) == 48, "session layout (LP64)");
_Static_assert(offsetof(struct eip93_cdev_session, ses) == 40, "session layout (LP64)");
_Static_assert(sizeof(struct eip93_cdev_session_info) == 268, "session info layout (LP64)");
_Static_assert(offsetof(struct eip93_cdev_session_info, flags) == 264, "session info (LP64)");
_Static_assert(sizeof(struct eip93_cdev_crypt) == 48, "crypt layout (LP64)");
_Static_assert(offsetof(struct eip93_cdev_crypt, iv) == 40, "crypt layout (LP64)");
_Static_assert(sizeof(struct eip93_cdev_auth_crypt) == 72, "auth crypt layout (LP64)");
_Static_assert(offsetof(struct eip93_cdev_auth_crypt, iv) == 56, "auth crypt layout (LP64)");
#endif

#endif /* EIP93_CRYPTODEV_ABI_H */
